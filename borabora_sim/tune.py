"""Tuning the heuristic's weights with CMA-ES: `tune()` and `borabora tune` (docs/tuning.md).

The optimiser is CMA-ES from the `cma` package (the optional extra `[tune]`). The problem has about 20 continuous
weights, an objective that is a noisy average of games and a budget of a few hundred to a few thousand candidate
evaluations. CMA-ES is made for that size, ranks candidates rather than trusting their values (so a noisy or
rescaled objective does not derail it), adapts step sizes per direction (the weights have different scales and
interact) and needs no surrogate model; Optuna's TPE and Bayesian optimisers scale worse with 20 dimensions and
noise, and an NTBEA needs the weights cut into a few levels each.

The objective of a candidate is its mean score margin: its score minus the best opponent's score, in the game's
score unit, over 4-player games against three opponents. The margin is positive exactly when the candidate wins
(ties aside), and it also says by how much a game was won or lost, so it separates candidates with fewer games
than the win rate, whose single bit per game is mostly noise at 25-40%; the win rate is recorded too and is what
the validation reports. All candidates of a generation, the incumbent and the challenger play the same deals
(common random numbers): each deal is played once with the candidate in every seat (seat rotation), and the
opponents' player seeds depend only on the deal and the seat.

Noise must not crown a lucky candidate: the tuned weights are the incumbent, which starts as the start style; the
challenger is the mean of the CMA-ES distribution after each generation (the distribution's own estimate of the
optimum, less lucky than its best sample), and it replaces the incumbent only when it beats it on the next
generation's fresh deals, both played side by side. At the end the incumbent is validated on deals the tuning
never saw, against the same opponents, with the start style on the same deals for a paired comparison.

A run writes into a directory as it goes: `config.json` (the arguments), `evaluations.jsonl` (every evaluation),
`state.pkl` (the optimiser's state, after each generation, written atomically) and, when it finishes,
`result.json` and `tuned_style.json` (the entry to add to borabora_sim/data/tuned_styles.json). An interrupted run
continues from its last generation; a larger budget continues a finished one; other arguments are refused.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from borabora_sim import stats
from borabora_sim.errors import check_int
from borabora_sim.games import DEFAULT_GAME, game_spec, get_game
from borabora_sim.match import play_game
from borabora_sim.players import HeuristicPlayer, make_player, weights_for
from borabora_sim.protocol import Game
from borabora_sim.simulate import check_n_jobs, check_out_directory, player_seed
from borabora_sim.studies.progress import step_bar

PLAYERS = 4                     # the goal is stated for 4-player games
CONFIG, EVALUATIONS, STATE, RESULT, STYLE = "config.json", "evaluations.jsonl", "state.pkl", "result.json", \
    "tuned_style.json"
DECIMALS = 3                    # weights are rounded so that specs and the data file hold them exactly
# Weights are searched as start + scale * x, scale = max(|start|, MIN_SCALE): a step of x moves a weight by a
# fraction of its size, and a weight that starts at 0 can still move.
MIN_SCALE = 0.5
TUNING_STREAM, VALIDATION_STREAM = 0, 1     # the deals of tuning and of validation come from different streams
# An evaluation function: (weight vectors, deal seeds) -> per vector (mean margin, wins, games).
Evaluate = Callable[[Sequence[np.ndarray], Sequence[int]], list[tuple[float, int, int]]]


@dataclass(frozen=True)
class TuneConfig:
    """Everything that determines a tuning run but its budget (which a resumed run may raise)."""

    game: str
    components_fingerprint: str
    opponents: tuple[str, ...]
    start: str
    games_per_eval: int
    popsize: int
    sigma0: float
    seed: int
    validation_games: int


@dataclass
class Evaluation:
    """One weight vector played on one generation's deals."""

    generation: int
    role: str                   # candidate, incumbent or challenger
    weights: dict[str, float]
    objective: float            # mean score margin against the best opponent
    wins: int
    games: int


@dataclass
class Validation:
    """The tuned weights and the start style on the same fresh deals against the opponents."""

    games: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_margin: float
    start_wins: int
    start_win_rate: float
    difference: float           # tuned minus start win rate, paired on the deals, Newcombe's interval
    difference_low: float
    difference_high: float


@dataclass
class TuneResult:
    """What a run found: the incumbent's weights, how it got there and its validation."""

    weights: dict[str, float]
    config: TuneConfig
    budget: int
    generations: int
    games: int
    validation: Validation
    history: list[dict[str, float]] = field(default_factory=list)    # per generation: incumbent, best candidate

    def record(self) -> dict[str, Any]:
        """How the weights were obtained, as the data file of tuned styles keeps it."""
        import cma

        return {
            "optimiser": f"CMA-ES (cma {cma.__version__})",
            "objective": "mean score margin against the best of three opponents, 4 players, seat-rotated deals "
                         "shared by a generation; incumbent replaced only by a challenger that beats it on fresh deals",
            "settings": asdict(self.config),
            "seeds": {"tuning_deals": f"derive_seed(derive_seed({self.config.seed}, {TUNING_STREAM}), i), "
                                      f"i = generation x {self.config.games_per_eval // PLAYERS} + deal",
                      "validation_deals": f"derive_seed(derive_seed({self.config.seed}, {VALIDATION_STREAM}), i)",
                      "players": "simulate.player_seed(deal, seat)"},
            "budget_games": self.budget, "generations": self.generations, "tuning_games": self.games,
            "validation": asdict(self.validation),
            "validation_opponents": list(self.config.opponents),
            "commit": package_commit(),
            "command": command_line(self.config, self.budget),
        }

    def style_entry(self, name: str = "tuned") -> dict[str, Any]:
        """The entry of borabora_sim/data/tuned_styles.json for these weights: {game: {name: {weights, record}}}."""
        return {get_game(self.config.game).name: {name: {"weights": self.weights, "record": self.record()}}}


def package_commit() -> str | None:
    """The commit of the package's source tree, when it is a git checkout (else None)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True,
                             timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def command_line(config: TuneConfig, budget: int) -> str:
    """The `borabora tune` command that reproduces a run (the output directory left to the reader)."""
    return (f"borabora tune --game {config.game} --opponents '{';'.join(config.opponents)}' --start {config.start} "
            f"--budget {budget} --games-per-eval {config.games_per_eval} --popsize {config.popsize} "
            f"--sigma0 {config.sigma0:g} --seed {config.seed} --validation-games {config.validation_games} --out DIR")


# =============================================================================
# Playing: the objective
# =============================================================================
def deal_seeds(game: Game, seed: int, stream: int, first: int, count: int) -> list[int]:
    """`count` deal seeds of a stream (tuning or validation) of the master `seed`, from index `first`."""
    base = game.derive_seed(seed, stream)
    return [game.derive_seed(base, first + i) for i in range(count)]


def play_deals(game: Game, weights: np.ndarray, opponents: Sequence[str], deals: Sequence[int]) -> np.ndarray:
    """Plays each deal with the weights in every seat (the opponents in order in the other seats) and returns,
    per game, (the candidate's score margin against the best opponent, 1 if it won else 0)."""
    overrides = {f"w_{name}": float(value) for name, value in zip(game.weight_names, weights, strict=True)}
    out = np.empty((len(deals) * PLAYERS, 2), dtype=np.float64)
    row = 0
    for deal in deals:
        for seat in range(PLAYERS):
            players = [make_player(spec, player_seed(deal, s, game), game)
                       for s, spec in zip([s for s in range(PLAYERS) if s != seat], opponents, strict=True)]
            candidate = HeuristicPlayer(style=None, thorough=True, seed=player_seed(deal, seat, game), game=game,
                                        **overrides)
            players.insert(seat, candidate)
            record = play_game(players, deal, game)
            scores = np.asarray(record.scores, dtype=np.float64)
            out[row] = scores[seat] - np.delete(scores, seat).max(), float(record.winner == seat)
            row += 1
    return out


def games_evaluator(game: Game, opponents: Sequence[str], n_jobs: int = 1) -> Evaluate:
    """The objective of the heuristic in `game` against `opponents`: mean margin, wins and games per vector."""
    def evaluate(vectors: Sequence[np.ndarray], deals: Sequence[int]) -> list[tuple[float, int, int]]:
        if n_jobs == 1:
            results = [play_deals(game, w, opponents, deals) for w in vectors]
        else:
            from joblib import Parallel, delayed

            results = Parallel(n_jobs=n_jobs)(delayed(play_deals)(game, w, opponents, deals) for w in vectors)
        return [(float(r[:, 0].mean()), int(r[:, 1].sum()), len(r)) for r in results]
    return evaluate


# =============================================================================
# The run directory
# =============================================================================
def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _json(value: object) -> bytes:
    return (json.dumps(value, indent=2) + "\n").encode()


def _open_directory(directory: Path, config: TuneConfig, resume: bool) -> dict[str, Any] | None:
    """Checks the directory against the run's arguments; the saved state of the run to continue, or None."""
    config_file = directory / CONFIG
    if not config_file.exists():
        if directory.exists() and any(directory.iterdir()):
            raise ValueError(f"out {directory} is not empty and holds no tuning run; choose an empty or new directory")
        directory.mkdir(parents=True, exist_ok=True)
        _write_atomic(config_file, _json(asdict(config)))
        return None
    if not resume:
        raise ValueError(f"out {directory} already holds a tuning run; continue it with resume (--resume) or choose "
                         "another directory")
    saved = json.loads(config_file.read_text())
    wanted = json.loads(json.dumps(asdict(config)))
    changed = [key for key in wanted if saved.get(key) != wanted[key]]
    if changed:
        was = ", ".join(f"{key}={saved.get(key)!r}" for key in changed)
        raise ValueError(f"out {directory} holds a tuning run with other arguments ({was}); resume it with the same "
                         "arguments (only the budget may change) or choose another directory")
    state_file = directory / STATE
    if not state_file.exists():
        return None
    with state_file.open("rb") as file:
        state: dict[str, Any] = pickle.load(file)      # written by this module into the run's own directory
    # Evaluations of a generation that was interrupted before its state was saved (a line perhaps cut short) are
    # dropped: the generation is played again.
    os.truncate(directory / EVALUATIONS, state["log_size"])
    return state



def interrupted_message(out: str | os.PathLike[str], argv: Sequence[str]) -> str:
    """The line printed after Ctrl-C stops `borabora tune ARGV`: what the run in `out` kept, and the command that
    continues it (the same arguments with --resume)."""
    state_file = Path(out) / STATE
    generations = 0
    if state_file.exists():
        with state_file.open("rb") as file:
            generations = int(pickle.load(file)["generation"])  # written by this module into the run's directory
    command = shlex.join(["borabora", *argv, *([] if "--resume" in argv else ["--resume"])])
    kept = (f"{generations} finished generation(s) are saved in {out}" if generations else
            f"no generation was finished yet in {out}")
    return f"interrupted; {kept}; to continue the run from there: {command}"


# =============================================================================
# The optimisation loop
# =============================================================================
class Normal:
    """Standard normal draws for cma from a generator of the run's own, pickled with the optimiser so that a resumed
    run draws what an uninterrupted one would (by default cma draws from numpy's global generator)."""

    def __init__(self, seed: int) -> None:
        self.generator = np.random.default_rng(seed)

    def __call__(self, *shape: int) -> np.ndarray:
        draws: np.ndarray = self.generator.standard_normal(shape)
        return draws


def optimise(evaluate: Evaluate, start: np.ndarray, names: Sequence[str], config: TuneConfig, budget: int,
             directory: Path, state: dict[str, Any] | None, progress: bool | None,
             deals: Callable[[int, int], list[int]]) -> dict[str, Any]:
    """Runs generations until `budget` games are played (a generation begun is finished) and returns the state:
    the optimiser, the incumbent, the challenger, the games played and the history. `deals(first, count)` gives
    the deal seeds of the tuning stream."""
    import cma

    scale = np.maximum(np.abs(start), MIN_SCALE)

    def weights_of(x: np.ndarray) -> np.ndarray:
        rounded: np.ndarray = np.round(start + scale * np.asarray(x, dtype=np.float64), DECIMALS)
        return rounded

    if state is None:
        options = {"popsize": config.popsize, "randn": Normal(config.seed), "verbose": -9,
                   "verb_log": 0, "verb_disp": 0}
        es = cma.CMAEvolutionStrategy(np.zeros(len(start)), config.sigma0, options)
        state = {"es": es, "generation": 0, "games": 0,
                 "incumbent": weights_of(np.zeros(len(start))), "challenger": None, "history": []}
    deals_per_eval = config.games_per_eval // PLAYERS
    per_generation = (config.popsize + 2) * config.games_per_eval
    bar = step_bar(max(budget, state["games"]), "tuning", "game", progress)
    bar.update(state["games"])
    try:
        while state["games"] < budget:
            es, generation = state["es"], state["generation"]
            xs = es.ask()
            seeds = deals(generation * deals_per_eval, deals_per_eval)
            vectors = [weights_of(x) for x in xs] + [state["incumbent"]]
            roles = ["candidate"] * len(xs) + ["incumbent"]
            if state["challenger"] is not None:
                vectors.append(state["challenger"])
                roles.append("challenger")
            results = evaluate(vectors, seeds)
            es.tell(xs, [-objective for objective, _, _ in results[:len(xs)]])
            evaluations = [Evaluation(generation, role, dict(zip(names, map(float, w), strict=True)), *result)
                           for role, w, result in zip(roles, vectors, results, strict=True)]
            incumbent = results[len(xs)][0]
            if state["challenger"] is not None and results[-1][0] > incumbent:
                state["incumbent"] = state["challenger"]
            state["challenger"] = weights_of(es.mean)
            state["history"].append({"generation": generation, "incumbent": incumbent,
                                     "best_candidate": max(r[0] for r in results[:len(xs)]),
                                     "sigma": float(es.sigma)})
            state["generation"] += 1
            played = sum(r[2] for r in results)
            state["games"] += played
            with (directory / EVALUATIONS).open("a") as file:
                file.writelines(json.dumps(asdict(e)) + "\n" for e in evaluations)
            state["log_size"] = (directory / EVALUATIONS).stat().st_size
            _write_atomic(directory / STATE, pickle.dumps(state))
            bar.total = max(bar.total, state["games"] + (per_generation if state["games"] < budget else 0))
            bar.update(played)
            bar.set_postfix(generation=state["generation"], incumbent=f"{incumbent:+.2f}")
    finally:
        bar.close()
    return state


def validate(game: Game, weights: np.ndarray, start: np.ndarray, opponents: Sequence[str], deals: Sequence[int],
             n_jobs: int = 1) -> Validation:
    """The weights and the start weights on the same deals (seat-rotated) against the opponents."""
    if n_jobs == 1:
        tuned, base = (play_deals(game, w, opponents, deals) for w in (weights, start))
    else:
        from joblib import Parallel, delayed

        tuned, base = Parallel(n_jobs=n_jobs)(delayed(play_deals)(game, w, opponents, deals) for w in (weights, start))
    won, start_won = tuned[:, 1].astype(bool), base[:, 1].astype(bool)
    n = len(won)
    low, high = stats.wilson_interval(int(won.sum()), n)
    difference, d_low, d_high = stats.paired_proportion_difference(
        int((won & start_won).sum()), int((won & ~start_won).sum()), int((~won & start_won).sum()),
        int((~won & ~start_won).sum()))
    return Validation(games=n, wins=int(won.sum()), win_rate=float(won.mean()), ci_low=low, ci_high=high,
                      mean_margin=float(tuned[:, 0].mean()), start_wins=int(start_won.sum()),
                      start_win_rate=float(start_won.mean()), difference=difference, difference_low=d_low,
                      difference_high=d_high)


def default_popsize(dimension: int) -> int:
    """CMA-ES's default population for `dimension` weights: 4 + floor(3 ln n)."""
    return 4 + int(3 * math.log(dimension))


def tune(game: str | Game = DEFAULT_GAME, opponents: str | Sequence[str] = "heuristic", budget: int = 20_000,
         games_per_eval: int = 200, seed: int = 0, out: str | os.PathLike[str] = "tuning", resume: bool = True,
         progress: bool | None = None, start: str | None = None, popsize: int | None = None, sigma0: float = 0.3,
         validation_games: int = 2000, n_jobs: int = 1) -> TuneResult:
    """Tunes the heuristic's weights of `game` (a spec or a game object) with CMA-ES, against `opponents` (one
    player spec for all three seats, or three), from the style `start` (the game's default style when None), until
    `budget` games are played; each evaluation is `games_per_eval` games (a multiple of 4: deals played with the
    candidate in every seat). Writes into `out` as it goes and continues the run there when `resume` (a run with
    other arguments is refused; only the budget may change). Returns the incumbent and its validation on
    `validation_games` fresh seat-rotated games. `progress`: True, False or None (a bar when stderr is a terminal).
    """
    try:
        import cma  # noqa: F401
    except ImportError:
        raise ImportError("tuning needs the cma package: pip install 'borabora_sim[tune]'") from None
    played = game if not isinstance(game, str) else get_game(game)
    specs = [opponents] * (PLAYERS - 1) if isinstance(opponents, str) else list(opponents)
    if len(specs) != PLAYERS - 1 or not all(isinstance(s, str) for s in specs):
        raise ValueError(f"opponents must be one player spec or {PLAYERS - 1}, got {opponents!r}")
    for spec in specs:
        make_player(spec, 0, played)
    if PLAYERS not in played.player_counts:
        raise ValueError(f"{played.name} is not played by {PLAYERS}; tuning plays 4-player games")
    start = played.default_style if start is None else start
    names = played.weight_names
    start_weights = weights_for(start, game=played)
    popsize = default_popsize(len(names)) if popsize is None else check_int(popsize, "popsize", 2, 2**31)
    games_per_eval = check_int(games_per_eval, "games_per_eval", PLAYERS, 2**31)
    if games_per_eval % PLAYERS:
        raise ValueError(f"games_per_eval must be a multiple of {PLAYERS} (every deal with the tuned player in "
                         f"every seat), got {games_per_eval}")
    validation_games = check_int(validation_games, "validation_games", PLAYERS, 2**31)
    if validation_games % PLAYERS:
        raise ValueError(f"validation_games must be a multiple of {PLAYERS}, got {validation_games}")
    budget = check_int(budget, "budget", 1, 2**62)
    if isinstance(sigma0, bool) or not isinstance(sigma0, int | float) or not 0 < sigma0 < 10:
        raise ValueError(f"sigma0 must be a number in (0, 10), got {sigma0!r}")
    if not isinstance(resume, bool):
        raise ValueError(f"resume must be true or false, got {resume!r}")
    n_jobs = check_n_jobs(n_jobs)
    config = TuneConfig(game=game_spec(played), components_fingerprint=played.fingerprint, opponents=tuple(specs),
                        start=start, games_per_eval=games_per_eval, popsize=popsize, sigma0=float(sigma0),
                        seed=check_int(seed, "seed", 0, 2**64 - 1), validation_games=validation_games)
    directory = check_out_directory(out)
    state = _open_directory(directory, config, resume)
    state = optimise(games_evaluator(played, specs, n_jobs), start_weights, names, config, budget, directory, state,
                     progress, lambda first, count: deal_seeds(played, config.seed, TUNING_STREAM, first, count))
    validation = validate(played, state["incumbent"], start_weights, specs,
                          deal_seeds(played, config.seed, VALIDATION_STREAM, 0, validation_games // PLAYERS), n_jobs)
    result = TuneResult(weights=dict(zip(names, map(float, state["incumbent"]), strict=True)), config=config,
                        budget=budget, generations=state["generation"], games=state["games"], validation=validation,
                        history=state["history"])
    _write_atomic(directory / RESULT, _json({"weights": result.weights, **result.record(),
                                             "history": result.history}))
    _write_atomic(directory / STYLE, _json(result.style_entry()))
    return result
