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
`state.json` (where the run stands, after each generation, written atomically) and, when it finishes,
`result.json` and `tuned_style.json` (the entry to add to the game's `data/tuned_styles.json`, in its package
borabora_sim/games/<game>/). An interrupted run continues from its last generation; a larger budget continues a
finished one; other arguments are refused.

`digests.json` records the sha256 of each of those files as it is written (of the evaluations the state counts,
for the log), and a resume checks every file against it: one changed since, by a flipped bit on a disk or a hand,
is named in one line with what to do. A directory written before runs kept that record is resumed as it is, its
files recorded as they are then.

The state file is JSON, so reading it runs no code, and it holds the optimiser as the history of its asks and
tells: every generation's candidates and the values told for them. Resuming replays that history through a fresh
optimiser with the run's own generator, which draws the same candidates again (checked against the saved ones) and
leaves the optimiser exactly where the interrupted run left it, so the resumed run continues as an uninterrupted
one would. cma's internal state (mean, step size, covariance and its eigen-decomposition, evolution paths, the
counters and histories its stopping and updating rules read) has no serialisation but pickle, and rebuilding it
field by field would tie the file to one cma release and risk a continuation that differs in the last bit; the
replay uses only `ask` and `tell` and takes milliseconds a generation. A file that is empty, truncated, foreign or
inconsistent with the run is refused in one line.
"""

from __future__ import annotations

import json
import math
import os
import shlex
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from borabora_sim import stats
from borabora_sim.errors import check_int
from borabora_sim.files import Digests, json_bytes, read_digests, read_json, sha256, write_bytes
from borabora_sim.games import DEFAULT_GAME, game_spec, get_game
from borabora_sim.match import play_game
from borabora_sim.players import HeuristicPlayer, files_named, make_player, player_files_fingerprint, weights_for
from borabora_sim.protocol import Game
from borabora_sim.provenance import package_commit
from borabora_sim.simulate import check_n_jobs, check_out_directory, player_seed
from borabora_sim.studies.progress import step_bar

PLAYERS = 4                     # the goal is stated for 4-player games
CONFIG, EVALUATIONS, STATE, RESULT, STYLE = "config.json", "evaluations.jsonl", "state.json", "result.json", \
    "tuned_style.json"
DIGESTS = "digests.json"        # the sha256 of every finished file of the run directory
FILES_KEY = "player_files_fingerprint"
OLD_STATE = "state.pkl"         # the state as earlier versions wrote it, a pickle: never read
STATE_FORMAT, STATE_VERSION = "borabora_sim tuning state", 1
STATE_KEYS = ("format", "version", "cma", "games", "log_size", "incumbent", "challenger", "history", "told", "asked")
HISTORY_KEYS = ("generation", "incumbent", "best_candidate", "sigma")
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
    player_files_fingerprint: str = ""      # the files its opponents and start style read (players.files_fingerprint)


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
        """The entry of the game's data/tuned_styles.json for these weights: {name: {weights, record}}."""
        return {name: {"weights": self.weights, "record": self.record()}}


@dataclass
class RunState:
    """A run after its last finished generation. The optimiser is rebuilt from `asked` and `told` (see
    `load_state`), so they and the rest are all a state file holds."""

    es: Any                                 # the cma.CMAEvolutionStrategy
    incumbent: np.ndarray
    challenger: np.ndarray | None = None
    games: int = 0
    log_size: int = 0                       # the bytes of evaluations.jsonl written by the finished generations
    history: list[dict[str, float]] = field(default_factory=list)   # per generation: incumbent, best candidate
    told: list[list[float]] = field(default_factory=list)       # per generation: the candidates' minus objectives
    asked: list[list[list[float]]] = field(default_factory=list)    # per generation: the candidates x

    @property
    def generation(self) -> int:
        """The number of finished generations."""
        return len(self.told)


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
def _json(value: object) -> bytes:
    return (json.dumps(value, indent=2) + "\n").encode()


def _open_directory(directory: Path, config: TuneConfig, resume: bool, start: np.ndarray,
                    files: Sequence[str] = ()) -> RunState | None:
    """Checks the directory against the run's arguments; the state of the run to continue (`start`: the start
    weights), or None for a run to begin. `files` are those the run's players read, which a refusal names: a run is
    not continued after one of them changed, nor if it was started before runs recorded them and one is read.
    Each finished file is checked against the digest recorded when it was written, once it reads as what it must
    be (a file that does not is named as such)."""
    config_file = directory / CONFIG
    if not config_file.exists():
        if directory.exists() and any(directory.iterdir()):
            raise ValueError(f"out {directory} is not empty and holds no tuning run; choose an empty or new directory")
        directory.mkdir(parents=True, exist_ok=True)
        _digests(directory).write_bytes(config_file, _json(asdict(config)))
        return None
    if not resume:
        raise ValueError(f"out {directory} already holds a tuning run; continue it with resume (--resume) or choose "
                         "another directory")
    digests = _digests(directory)
    digests.recover()
    digests.forget([directory / name for name in (CONFIG, STATE, EVALUATIONS, RESULT, STYLE)
                    if not (directory / name).exists()])        # deleted by hand
    # A directory written before runs kept the record: its files are taken as they are (the log once cut back to
    # what its state counts, below).
    digests.record_unrecorded([directory / name for name in (CONFIG, STATE, RESULT, STYLE)
                               if (directory / name).exists()])
    saved = read_json(config_file, "the configuration of a tuning run", "choose another directory")
    wanted = json.loads(json.dumps(asdict(config)))
    named = f" ({', '.join(files)})" if files else ""
    if isinstance(saved, dict) and FILES_KEY not in saved:
        if wanted[FILES_KEY]:
            digests.check(config_file, "choose another directory")      # the key lost to damage is not an old run
            raise ValueError(f"out {directory} holds a tuning run started before runs recorded the files their players "
                             f"read{named}, so it cannot be known which version of them played it; choose another "
                             "directory")
        saved = {**saved, FILES_KEY: ""}
    if not isinstance(saved, dict) or set(saved) != set(wanted):
        found = sorted(saved) if isinstance(saved, dict) else f"a JSON {type(saved).__name__}"
        raise ValueError(f"{config_file} is not the configuration of a tuning run (it holds {found}, not the keys "
                         f"{', '.join(wanted)}); choose another directory")
    digests.check(config_file, "choose another directory")
    changed = [key for key in wanted if saved[key] != wanted[key]]
    if changed == [FILES_KEY]:
        raise ValueError(f"out {directory} holds a tuning run played with another version of the files its players "
                         f"read{named}; choose another directory, or put the old files back to continue it")
    if changed:
        was = ", ".join(f"{key}={saved[key]!r}" for key in changed)
        raise ValueError(f"out {directory} holds a tuning run with other arguments ({was}); resume it with the same "
                         "arguments (only the budget may change) or choose another directory")
    if (directory / OLD_STATE).exists():
        raise ValueError(f"{directory / OLD_STATE} is the state of a run of an earlier version, which is not read (a "
                         f"pickle can run code); {_state_remedy(directory)}")
    log = directory / EVALUATIONS
    state = load_state(directory, config, start) if (directory / STATE).exists() else None
    if state is not None:
        digests.check(directory / STATE)
    # Evaluations of a generation that was interrupted before its state was saved (a line perhaps cut short) are
    # dropped: the generation is played again.
    if log.exists():
        os.truncate(log, 0 if state is None else state.log_size)
        if state is None:
            digests.forget([log])
        else:
            digests.record_unrecorded([log])
            digests.check(log, f"delete it and {STATE} to start the run over in {directory}, or choose another "
                               "directory")
    for name in (RESULT, STYLE):
        if (directory / name).exists():
            digests.check(directory / name, "delete it and resume the run: it is written again as the run ends")
    return state


def _state_remedy(directory: Path) -> str:
    return f"delete it to start the run over in {directory}, or choose another directory"


def _digests(directory: Path) -> Digests:
    """The record of the sha256 of the finished files of the run in `directory` (empty for a new run, or for one
    written before runs kept it)."""
    record = directory / DIGESTS

    def save(recorded: dict[str, str]) -> None:
        write_bytes(record, json_bytes(recorded))

    remedy = f"delete it to resume the run in {directory} with its files as they are, or choose another directory"
    return Digests(directory, read_digests(record, "the record of a tuning run's files", remedy), save,
                   _state_remedy(directory))


def state_bytes(state: RunState) -> bytes:
    """The state file of `state`: JSON, the numbers as Python writes floats (they read back exactly)."""
    import cma

    record = {"format": STATE_FORMAT, "version": STATE_VERSION, "cma": cma.__version__, "games": state.games,
              "log_size": state.log_size, "incumbent": state.incumbent.tolist(),
              "challenger": None if state.challenger is None else state.challenger.tolist(),
              "history": state.history, "told": state.told, "asked": state.asked}
    return (json.dumps(record) + "\n").encode()


def _state_record(path: Path) -> dict[str, Any]:
    """The JSON object of the state file `path`, its format, version and keys checked."""
    record = read_json(path, "a tuning state", _state_remedy(path.parent))
    if not isinstance(record, dict):
        problem = f"it holds a JSON {type(record).__name__}, not an object"
    elif record.get("format") != STATE_FORMAT or record.get("version") != STATE_VERSION:
        problem = (f"its format is {record.get('format')!r:.40} version {record.get('version')!r:.40}, not "
                   f"{STATE_FORMAT!r} version {STATE_VERSION}")
    elif set(record) != set(STATE_KEYS):
        problem = f"it holds the keys {', '.join(sorted(record))}, not {', '.join(STATE_KEYS)}"
    else:
        return record
    raise ValueError(f"{path} is not a tuning state: {problem}; {_state_remedy(path.parent)}")


def load_state(directory: Path, config: TuneConfig, start: np.ndarray) -> RunState:
    """The state of the run in `directory` (with arguments `config`, from the weights `start`), read from its JSON
    file, every field checked, and the optimiser rebuilt by replaying the saved asks and tells. A file that is not
    such a state, or whose replay draws other candidates than it saved (another version of cma, or an edited
    file), is a ValueError naming the file, the first problem and what to do."""
    path = directory / STATE
    record = _state_record(path)
    try:
        state = _checked_state(record, config, len(start), (directory / EVALUATIONS))
    except ValueError as exc:
        raise ValueError(f"{path} is not a state of this run: {exc}; {_state_remedy(directory)}") from None
    state.es = new_optimiser(config, len(start))
    for generation, (asked, told) in enumerate(zip(state.asked, state.told, strict=True)):
        xs = state.es.ask()
        if not np.array_equal(np.asarray(xs), np.asarray(asked)):
            import cma

            if record["cma"] != cma.__version__:
                raise ValueError(f"{path} was saved with cma {record['cma']!s:.40}, and cma {cma.__version__} replays "
                                 f"it with other candidates (generation {generation}); continue the run with cma "
                                 f"{record['cma']!s:.40}, or {_state_remedy(directory)}")
            raise ValueError(f"{path} is not a state of this run: replayed, generation {generation} draws other "
                             f"candidates than it saved; {_state_remedy(directory)}")
        state.es.tell(xs, told)
    if state.challenger is not None and not np.array_equal(state.challenger, search_weights(start, state.es.mean)):
        raise ValueError(f"{path} is not a state of this run: its challenger is not the optimiser's mean; "
                         f"{_state_remedy(directory)}")
    return state


def _checked_state(record: dict[str, Any], config: TuneConfig, dimension: int, log: Path) -> RunState:
    """The RunState of a state file's record (without its optimiser), or a ValueError naming the first field that
    is wrong."""
    games, log_size = (_count(record[key], key) for key in ("games", "log_size"))
    told = _list(record["told"], None, "told")
    generations = len(told)
    told = [_numbers(values, config.popsize, f"told[{g}]") for g, values in enumerate(told)]
    asked = [[_numbers(x, dimension, f"asked[{g}][{i}]") for i, x in enumerate(_list(xs, config.popsize,
                                                                                       f"asked[{g}]"))]
             for g, xs in enumerate(_list(record["asked"], generations, "asked"))]
    history = []
    for g, entry in enumerate(_list(record["history"], generations, "history")):
        if not isinstance(entry, dict) or set(entry) != set(HISTORY_KEYS) or type(entry["generation"]) is not int \
                or entry["generation"] != g:
            raise ValueError(f"history[{g}] must be an object with the keys {', '.join(HISTORY_KEYS)}, generation {g}")
        _numbers([entry[key] for key in HISTORY_KEYS[1:]], len(HISTORY_KEYS) - 1, f"history[{g}]")
        history.append({key: entry[key] for key in HISTORY_KEYS})
    incumbent = np.array(_numbers(record["incumbent"], dimension, "incumbent"))
    if (record["challenger"] is None) != (generations == 0):
        raise ValueError("challenger must be null before the first generation is finished, and weights after")
    challenger = None if record["challenger"] is None else np.array(_numbers(record["challenger"], dimension,
                                                                             "challenger"))
    size = log.stat().st_size if log.exists() else 0
    if log_size > size:
        raise ValueError(f"log_size is {log_size} bytes, but {log.name} holds {size}")
    return RunState(None, incumbent, challenger, games, log_size, history, told, asked)


def _count(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**63:
        raise ValueError(f"{name} must be a count (an integer >= 0), got {value!r:.40}")
    return value


def _list(value: object, length: int | None, name: str) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError(f"{name} must be a list" + ("" if length is None else f" of {length} items"))
    return value


def _numbers(value: object, length: int, name: str) -> list[float]:
    """`value` as `length` finite floats, as a state file writes them."""
    items = _list(value, length, name)
    if not all(type(item) is float and math.isfinite(item) for item in items):
        raise ValueError(f"{name} must be a list of {length} finite numbers written with a decimal point")
    return items


def interrupted_message(out: str | os.PathLike[str], argv: Sequence[str]) -> str:
    """The line printed after Ctrl-C stops `borabora tune ARGV`: what the run in `out` kept, and the command that
    continues it (the same arguments with --resume)."""
    state_file = Path(out) / STATE
    generations = 0
    if state_file.exists():
        try:
            told = _state_record(state_file)["told"]
        except ValueError as exc:
            return f"interrupted; {exc}"
        generations = len(told) if isinstance(told, list) else 0
    command = shlex.join(["borabora", *argv, *([] if "--resume" in argv else ["--resume"])])
    kept = (f"{generations} finished generation(s) are saved in {out}" if generations else
            f"no generation was finished yet in {out}")
    return f"interrupted; {kept}; to continue the run from there: {command}"


# =============================================================================
# The optimisation loop
# =============================================================================
class Normal:
    """Standard normal draws for cma from a generator of the run's own, seeded by the run's seed, so that a run and
    the replay of its saved generations draw the same candidates (by default cma draws from numpy's global
    generator)."""

    def __init__(self, seed: int) -> None:
        self.generator = np.random.default_rng(seed)

    def __call__(self, *shape: int) -> np.ndarray:
        draws: np.ndarray = self.generator.standard_normal(shape)
        return draws


def new_optimiser(config: TuneConfig, dimension: int) -> Any:
    """A fresh CMA-ES of the run in `dimension` weights, at the origin of the search space, drawing from the run's
    own generator."""
    import cma

    options = {"popsize": config.popsize, "randn": Normal(config.seed), "verbose": -9, "verb_log": 0, "verb_disp": 0}
    return cma.CMAEvolutionStrategy(np.zeros(dimension), config.sigma0, options)


def search_weights(start: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The weights at the point `x` of the search space: start + scale * x, rounded to DECIMALS places."""
    scale = np.maximum(np.abs(start), MIN_SCALE)
    weights: np.ndarray = np.round(start + scale * np.asarray(x, dtype=np.float64), DECIMALS)
    return weights


def optimise(evaluate: Evaluate, start: np.ndarray, names: Sequence[str], config: TuneConfig, budget: int,
             directory: Path, state: RunState | None, progress: bool | None,
             deals: Callable[[int, int], list[int]]) -> RunState:
    """Runs generations until `budget` games are played (a generation begun is finished) and returns the state:
    the optimiser, the incumbent, the challenger, the games played and the history. `deals(first, count)` gives
    the deal seeds of the tuning stream."""
    if state is None:
        state = RunState(new_optimiser(config, len(start)), search_weights(start, np.zeros(len(start))))
    deals_per_eval = config.games_per_eval // PLAYERS
    per_generation = (config.popsize + 2) * config.games_per_eval
    digests, log = _digests(directory), directory / EVALUATIONS
    bar = step_bar(max(budget, state.games), "tuning", "game", progress)
    bar.update(state.games)
    try:
        while state.games < budget:
            generation = state.generation
            xs = state.es.ask()
            seeds = deals(generation * deals_per_eval, deals_per_eval)
            vectors = [search_weights(start, x) for x in xs] + [state.incumbent]
            roles = ["candidate"] * len(xs) + ["incumbent"]
            if state.challenger is not None:
                vectors.append(state.challenger)
                roles.append("challenger")
            results = evaluate(vectors, seeds)
            told = [-float(objective) for objective, _, _ in results[:len(xs)]]
            state.es.tell(xs, told)
            state.asked.append(np.asarray(xs, dtype=np.float64).tolist())
            state.told.append(told)
            evaluations = [Evaluation(generation, role, dict(zip(names, map(float, w), strict=True)), *result)
                           for role, w, result in zip(roles, vectors, results, strict=True)]
            incumbent = results[len(xs)][0]
            if state.challenger is not None and results[-1][0] > incumbent:
                state.incumbent = state.challenger
            state.challenger = search_weights(start, state.es.mean)
            state.history.append({"generation": generation, "incumbent": float(incumbent),
                                  "best_candidate": float(max(r[0] for r in results[:len(xs)])),
                                  "sigma": float(state.es.sigma)})
            played = sum(r[2] for r in results)
            state.games += played
            with log.open("a") as file:
                file.writelines(json.dumps(asdict(e)) + "\n" for e in evaluations)
                file.flush()
                os.fsync(file.fileno())     # before the state that counts these lines is recorded
            state.log_size = log.stat().st_size
            # The log's digest is that of the lines the new state counts, saved in the record with the state's.
            digests.recorded[digests.name(log)] = sha256(log)
            digests.write_bytes(directory / STATE, state_bytes(state))
            bar.total = max(bar.total or 0, state.games + (per_generation if state.games < budget else 0))
            bar.update(played)
            bar.set_postfix(generation=state.generation, incumbent=f"{incumbent:+.2f}")
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
    read = [*specs, f"heuristic:style={start}"]
    config = TuneConfig(game=game_spec(played), components_fingerprint=played.fingerprint, opponents=tuple(specs),
                        start=start, games_per_eval=games_per_eval, popsize=popsize, sigma0=float(sigma0),
                        seed=check_int(seed, "seed", 0, 2**64 - 1), validation_games=validation_games,
                        player_files_fingerprint=player_files_fingerprint(read, played))
    directory = check_out_directory(out)
    state = _open_directory(directory, config, resume, start_weights, files_named(read, played))
    state = optimise(games_evaluator(played, specs, n_jobs), start_weights, names, config, budget, directory, state,
                     progress, lambda first, count: deal_seeds(played, config.seed, TUNING_STREAM, first, count))
    validation = validate(played, state.incumbent, start_weights, specs,
                          deal_seeds(played, config.seed, VALIDATION_STREAM, 0, validation_games // PLAYERS), n_jobs)
    result = TuneResult(weights=dict(zip(names, map(float, state.incumbent), strict=True)), config=config,
                        budget=budget, generations=state.generation, games=state.games, validation=validation,
                        history=state.history)
    digests = _digests(directory)
    digests.write_bytes(directory / RESULT, _json({"weights": result.weights, **result.record(),
                                                    "history": result.history}))
    digests.write_bytes(directory / STYLE, _json(result.style_entry()))
    return result


__all__ = ["TuneConfig", "TuneResult", "Validation", "tune"]
