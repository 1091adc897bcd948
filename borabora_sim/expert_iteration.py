"""Expert iteration (docs/expert.md): the network of any game with learned features, from nothing, by one command
(`borabora train --game GAME`).

Generation 0 learns from a teacher in games of the game's heuristic players (its styles, a few random moves for
variety): by default their own choices are the policy targets; a search teacher (`teacher`, a search player's spec) is
asked at the positions kept, and its visit shares are the targets (policy distillation of a search far stronger than the
heuristics); or a rating teacher (`learned:...`), whose win chance after each move, as a softmax at RATED_TEMPERATURE,
is the target (distillation of the value-only learned evaluation, which judges each move one ply ahead, into the
policy's one pass); or several of those joined by " + ", whose targets are averaged (each raised to its own power first,
with one `sharpen` power per teacher). The games' results are the value targets. With the heuristics as teacher, every
later generation lets a search guided by the best network so far (PUCT, `mcts:evaluation=net`) play itself, with
Dirichlet noise at the root and the first moves drawn in proportion to the visits: the visit shares become the policy
targets (the search is stronger than the network alone, so the network learns to play as the search does), the results
the value targets. With a search teacher, a later generation seats the best network's expert in half the seats of
heuristic games, and the teacher labels the positions (or `later_teacher`, one teacher or several as `teacher`, whose
searches may use the best network so far). The network is refitted on the last generations' data, and kept only if
it is detectably stronger than the best so far: in games where it plays in one seat against the best network in the
others, rotated over the seats on the same deals, its win rate's Wilson 95% interval must lie above the seat's fair
share. Or, with a gate field (`gate_field`, a player spec), the new network and the best each play one seat against
that field on the same deals and seats, and the paired interval of the difference of their win rates must lie above
0. With `final_hidden`, the run ends with one more fit: a network of those (larger) layers on the window's data of
every generation, gated against the best like a generation. The generations iterate with a network small enough to
learn from one generation's data; the larger one learns more only from all of it (docs/expert.md).

A work directory holds everything as it goes: `config.json`, per generation `genNN/` with its chunks of games, its
network and its manifest (data, seeds, commit, time, strength), `final-genNN-SIZES/` with the final fit's, and
`digests.json`, the sha256 of each of those files, checked whenever one is read back. An
interrupted run continues where it stopped with the same arguments, and a finished one goes on with more
`generations` or another final fit; any other change of configuration is refused. Every file is written whole or
not at all.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from borabora_sim import _search
from borabora_sim.errors import check_int
from borabora_sim.files import Digests, json_bytes, npz_bytes, read_arrays, read_digests, read_json, write_bytes
from borabora_sim.games import get_game
from borabora_sim.network import FitConfig, Network, Samples, fit, load_network, raised
from borabora_sim.players import files_named, make_player, player_files_fingerprint
from borabora_sim.players.heuristic import weights_for
from borabora_sim.players.learned import LearnedPlayer
from borabora_sim.players.search import FlatMCPlayer, MCTSPlayer
from borabora_sim.protocol import Game, GameState, search_handles
from borabora_sim.provenance import package_commit
from borabora_sim.specs import split_spec, with_options
from borabora_sim.stats import paired_compare, wilson_interval

CHUNK = 10                      # games per file of the work directory
PROGRESS_EVERY = 30             # seconds between progress lines
VALIDATION_EVERY = 10           # every 10th game of a generation is held out for validation
SEATS = 4                       # the value rows of a sample: every seat of the largest game (smaller ones padded)
RANDOM_MOVES = 0.03             # share of generation 0's decisions played at random
TEACHERS = (MCTSPlayer, FlatMCPlayer, LearnedPlayer)   # the players that may label positions (`teacher`)
Teacher = MCTSPlayer | FlatMCPlayer | LearnedPlayer
RATED_TEMPERATURE = 0.1         # a rating teacher's targets: softmax(win chance / this); `sharpen` divides it further
SAMPLE_ARRAYS = {"x": np.float32, "players": np.int8, "mover": np.int8, "returns": np.float32, "first": np.int64,
                 "after": np.float32, "action": np.int16, "target": np.float32, "after_value": np.float32}
CHUNK_FILE = "a chunk of expert-iteration games"
CHUNK_REMEDY = "delete it and run the same command again: its games are played again"
DIGESTS_REMEDY = ("delete it (a generation's network.npz with its manifest.json) and run the same command again: what "
                  "it held is played or fitted again")
Progress = Callable[[str], object]
GROWABLE = ("generations", "final_hidden")     # the settings a run may be continued with, changed
FILES_KEY = "player_files_fingerprint"          # in config.json: the files the run's players read, hashed
DIGESTS = "digests.json"        # the sha256 of every finished file of the work directory (chunks, networks, manifests)


@dataclass(frozen=True)
class ExpertConfig:
    """Everything that determines a run."""

    game: str = "bora_bora"
    players: tuple[int, ...] = (4, 4, 3, 2)      # player counts, cycled over the games
    imitation_games: int = 40_000                 # generation 0's heuristic games
    teacher: str = "heuristic"                    # generation 0's targets: the heuristics' own moves, the visit
    #                                               shares of this search player (a spec) at the positions kept, or
    #                                               the win chances a rating player (learned:...) gives each move;
    #                                               several joined by " + ": the mean of their targets
    later_teacher: str = ""                       # with a search or rating teacher, the teacher(s) labelling later
    #                                               generations ("": the teacher); a search with evaluation=net or
    #                                               prior=net uses the best network
    finish_style: str = ""                        # the heuristic style whose greedy play finishes the mover's turn
    #                                               before the policy judges it ("": the state a move leads to at once)
    keep: float = 0.025                           # share of generation 0's decisions kept as samples: few per game,
    #                                               as the value overfits the results of a few games otherwise
    generations: int = 3                          # generations after generation 0
    games: int = 800                              # games per later generation: PUCT self-play, or with a search
    #                                               teacher, heuristic games with the best network in half the seats
    iterations: int = 100                         # PUCT iterations per decision in self-play and the gate
    c_puct: float = 1.5
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    sampled_turns: int = 8                        # decisions per seat drawn in proportion to the visits
    window: int = 2                               # generations of data a network is fitted on
    search_value: float = 0.5                     # share of the search's root values in a self-play value target
    gate_games: int = 400                         # games of a new network against the best, seats rotated
    gate_field: str = ""                          # "": the new network against the best, head to head; a player
    #                                               spec: each against a field of it on the same deals, paired
    hidden: tuple[int, ...] = (96, 64)
    final_hidden: tuple[int, ...] = ()            # (): none; else the run ends by fitting a network of these hidden
    #                                               layers on the window's data, kept if the gate finds it stronger
    #                                               than the best (a larger network needs every generation's data)
    epochs: int = 6
    batch: int = 256
    learning_rate: float = 2e-3
    policy_weight: float = 4.0
    sharpen: float | tuple[float, ...] = 1.0      # the policy targets are raised to this power (and renormalised)
    #                                               when fitted: above 1, the network leans to the teacher's choice;
    #                                               one power per teacher of several: each teacher's targets are
    #                                               raised to its own as they are given, then averaged
    seed: int = 1

    def fit_config(self, generation: int) -> FitConfig:
        """How generation `generation`'s network is fitted; generation `generations + 1` is the final fit."""
        final = generation > self.generations
        return FitConfig(hidden=self.final_hidden if final else self.hidden, epochs=self.epochs, batch=self.batch,
                         learning_rate=self.learning_rate,
                         policy_weight=self.policy_weight, heuristic=bool(self.finish_style),
                         seed=self.seed + generation)

    def check(self) -> Game:
        """The game, after checking every setting; a ValueError names the first that is wrong."""
        game = get_game(self.game)
        state = game.new_initial_state(seed=0)
        try:
            _search.features(search_handles(state), 0)
        except ValueError:
            raise ValueError(f"the game '{game.name}' has no learned features, so no network can be trained for "
                             "it") from None
        for name in ("imitation_games", "games", "iterations", "gate_games", "epochs", "batch"):
            check_int(getattr(self, name), name, 1, 2**31 - 1)
        check_int(self.generations, "generations", 0, 100)
        check_int(self.window, "window", 1, 100)
        check_int(self.sampled_turns, "sampled_turns", 0, 10_000)
        check_int(self.seed, "seed", 0, 2**63 - 1)
        if not self.players or any(p not in game.player_counts for p in self.players):
            raise ValueError(f"players must be player counts of {game.name} "
                             f"({', '.join(map(str, game.player_counts))}), got {self.players}")
        if not (0 < self.keep <= 1 and self.c_puct > 0 and self.noise_alpha >= 0 and 0 <= self.noise_fraction <= 1
                and 0 <= self.search_value <= 1 and all(0 < power <= 100 for power in self.powers)):
            raise ValueError("keep must be in (0, 1], c_puct > 0, noise_alpha >= 0, noise_fraction and search_value "
                             "in [0, 1], sharpen in (0, 100]")
        for name in ("hidden", "final_hidden"):
            sizes = getattr(self, name)
            if (name == "hidden" and not sizes) or len(sizes) > 2 or any(not 1 <= h <= 256 for h in sizes):
                raise ValueError(f"{name} must be one or two layer sizes in 1..256, got {sizes}")
        if self.finish_style and self.finish_style not in game.styles:
            raise ValueError(f"finish_style must be a heuristic style of {game.name} ({', '.join(game.styles)}) or "
                             f"empty, got {self.finish_style!r}")
        if self.gate_field:
            make_player(self.gate_field, game=game)
        teachers = 1 if self.teacher == "heuristic" else len(_teachers(self.teacher, game))
        later = teachers
        if self.later_teacher:
            if self.teacher == "heuristic" or any(not isinstance(make_player(spec, game=game), TEACHERS)
                                                  for spec in _specs(self.later_teacher)):
                raise ValueError(f"later_teacher must be a search or rating teacher (mcts:..., flatmc:..., "
                                 f"learned:...), or several joined by ' + ', and needs a search or learned teacher, "
                                 f"got {self.later_teacher!r} with teacher {self.teacher!r}")
            later = len(_specs(self.later_teacher))
        if isinstance(self.sharpen, tuple) and (teachers < 2 or not len(self.sharpen) == teachers == later):
            raise ValueError(f"sharpen is one power, or one per teacher of a teacher setting of several (and of the "
                             f"later teacher's, as many); got {len(self.sharpen)} powers for {teachers} teacher(s)"
                             + (f" and {later} later teacher(s)" if self.later_teacher else ""))
        return game

    @property
    def powers(self) -> tuple[float, ...]:
        """The sharpening powers: one, or one per teacher."""
        return self.sharpen if isinstance(self.sharpen, tuple) else (self.sharpen,)

    def teacher_of(self, network: str | None) -> str:
        """The teacher setting labelling a generation whose games seat `network` (None: generation 0); a later
        teacher's search guided by a network (its evaluation or its priors) uses that one."""
        if network is None or not self.later_teacher:
            return self.teacher
        return " + ".join(with_options(spec, f"network={network}") if _guided_by_network(spec) else spec
                          for spec in _specs(self.later_teacher))

    def finish_weights(self, game: Game) -> np.ndarray | None:
        """The heuristic weights that finish the mover's turn before the policy judges it, or None."""
        return weights_for(self.finish_style, game=game) if self.finish_style else None


# =============================================================================
# Playing the data games
# =============================================================================
def _value_rows(state: GameState) -> np.ndarray:
    """Every seat's features from its own viewpoint, padded to SEATS rows."""
    handles = search_handles(state)
    rows = [_search.features(handles, seat) for seat in range(state.num_players)]
    x = np.zeros((SEATS, len(rows[0])), dtype=np.float32)
    x[:len(rows)] = rows
    return x


def _results(state: GameState) -> np.ndarray:
    """The finished game's returns per seat (1 to the winner), padded to SEATS."""
    returns = np.zeros(SEATS, dtype=np.float32)
    winners = [seat for seat, rank in enumerate(state.ranks()) if rank == 1]
    returns[winners] = 1 / len(winners)
    return returns


class _GameSamples:
    """The samples of one game as it is played. A sample's value target is the game's result, or with the search's
    root values (each seat's mean reward), their mix: `share` of the search's, the rest the result's."""

    def __init__(self, share: float = 0.0) -> None:
        self.share = share
        self.x: list[np.ndarray] = []
        self.mover: list[int] = []
        self.after: list[np.ndarray] = []
        self.after_value: list[np.ndarray] = []
        self.action: list[list[int]] = []
        self.target: list[np.ndarray] = []
        self.search: list[np.ndarray] = []

    def add(self, state: GameState, actions: list[int], after: np.ndarray, after_value: np.ndarray,
            target: np.ndarray, search: list[float] | None = None) -> None:
        self.x.append(_value_rows(state))
        self.mover.append(state.current_player)
        self.action.append(actions)
        self.after.append(after)
        self.after_value.append(after_value)
        self.target.append(target)
        values = np.zeros(SEATS, np.float32)
        if search is not None:
            values[:len(search)] = search
        self.search.append(values)

    def finish(self, state: GameState) -> Samples:
        n = len(self.x)
        lengths = [len(a) for a in self.action]
        returns = np.tile(_results(state), (n, 1))
        if self.share and n:
            returns = (1 - self.share) * returns + self.share * np.stack(self.search)
        return Samples(np.stack(self.x) if n else np.zeros((0, SEATS, 0), np.float32),
                       np.full(n, state.num_players, np.int8), np.array(self.mover, np.int8),
                       returns.astype(np.float32), np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
                       np.concatenate(self.after) if n else np.zeros((0, 0), np.float32),
                       np.concatenate(self.action).astype(np.int16) if n else np.zeros(0, np.int16),
                       np.concatenate(self.target).astype(np.float32) if n else np.zeros(0, np.float32),
                       np.concatenate(self.after_value).astype(np.float32) if n else np.zeros(0, np.float32))


def teacher_game(game: Game, config: ExpertConfig, generation: int, index: int, network: str | None) -> Samples:
    """Game `index` of generation 0, or of a later generation of a search or rating teacher: heuristic players of
    the game's styles, and in a later generation the best network's `expert` (at `network`) in each seat with chance
    1/2, so that the teacher also judges the positions the network's own play leads to. A kept decision's target is
    the move played (the heuristics as teacher), or the teacher's (`_teacher_targets`; a decision with one legal
    move is not kept then)."""
    rng = np.random.default_rng([config.seed, generation, index])
    players = config.players[index % len(config.players)]
    styles = list(game.styles)
    specs = [f"heuristic:style={styles[rng.integers(len(styles))]}" for _ in range(players)]
    if network is not None:
        specs = [f"expert:network={network}" if rng.random() < 0.5 else spec for spec in specs]
    seats = [make_player(spec, seed=int(rng.integers(2**62)), game=game) for spec in specs]
    teachers = [] if config.teacher == "heuristic" else _teachers(config.teacher_of(network), game)
    finish = config.finish_weights(game)
    state = game.new_initial_state(players=players, seed=int(rng.integers(2**62)))
    samples = _GameSamples()
    while not state.is_terminal():
        legal = state.legal_actions()
        action = seats[state.current_player].choose(state)
        if rng.random() < RANDOM_MOVES:
            action = legal[rng.integers(len(legal))]
        if rng.random() < config.keep and (not teachers or len(legal) > 1):
            actions, after, values = _search.afterstate_features(search_handles(state), int(rng.integers(2**62)),
                                                                 finish)
            if not teachers:
                target = np.array([a == action for a in actions], np.float32)
            else:
                seed = int(rng.integers(2**62))
                each = [_teacher_targets(t, state, actions, seed) for t in teachers]
                if isinstance(config.sharpen, tuple):
                    each = [raised(shares, np.array([0, len(shares)]), power)
                            for shares, power in zip(each, config.sharpen, strict=True)]
                target = np.stack(each).mean(axis=0, dtype=np.float64).astype(np.float32)
            samples.add(state, actions, after, values, target)
        state.apply(action)
    return samples.finish(state)


def _specs(setting: str) -> list[str]:
    """The player specs of a teacher setting: one, or several joined by " + " ("": none)."""
    return [spec.strip() for spec in setting.split("+")] if setting else []


def _guided_by_network(spec: str) -> bool:
    """Whether a search spec searches with a network (its value or its priors)."""
    options = split_spec(spec)[1]
    return options.get("evaluation") == "net" or options.get("prior") == "net"


def _teachers(teacher: str, game: Game) -> list[Teacher]:
    """The players of a `teacher` setting other than 'heuristic': one spec, or several joined by " + "; a
    ValueError says what a teacher may be."""
    players = [make_player(spec, game=game) for spec in _specs(teacher)]
    teachers = [player for player in players if isinstance(player, TEACHERS)]
    if len(teachers) != len(players):
        raise ValueError(f"teacher must be 'heuristic', or a search player's spec (mcts:..., flatmc:...) or a "
                         f"learned player's (learned:...), or several of those joined by ' + ', got {teacher!r}")
    return teachers


def _teacher_targets(teacher: Teacher, state: GameState, actions: list[int], seed: int) -> np.ndarray:
    """The policy targets a teacher gives `actions` at `state`, its random stream seeded with `seed`: a search's
    visit shares, or a rating player's win chances after each move as a softmax at RATED_TEMPERATURE (a move 0.1 of
    win chance behind the best gets 1/e of its share)."""
    if isinstance(teacher, LearnedPlayer):
        chances = {option.action: option.value for option in teacher.option_values(state, seed)}
        logits = np.array([chances[a] for a in actions], np.float64) / RATED_TEMPERATURE
        target = np.exp(logits - logits.max())
    else:
        teacher.reset(seed)
        teacher.choose(state)
        visits = {stat.action: stat.visits for stat in teacher.last_stats}
        target = np.array([visits.get(a, 0) for a in actions], np.float64)
    shares: np.ndarray = (target / target.sum()).astype(np.float32)
    return shares


def self_play_game(game: Game, config: ExpertConfig, generation: int, index: int, model: _search.Model) -> Samples:
    """Game `index` of a search generation: every seat searches with `model` (PUCT, root noise); the visit shares
    are the policy targets, the result mixed with the root values the value targets; a seat's first
    `sampled_turns` decisions are drawn in proportion to the visits, later ones are the most visited."""
    rng = np.random.default_rng([config.seed, generation, index])
    players = config.players[index % len(config.players)]
    state = game.new_initial_state(players=players, seed=int(rng.integers(2**62)))
    samples = _GameSamples(config.search_value)
    finish = config.finish_weights(game)
    decisions = 0
    while not state.is_terminal():
        handles = search_handles(state)
        _, stats, root = _search.run_mcts(handles, state.current_player, iterations=config.iterations, model=model,
                                          c_puct=config.c_puct, noise_alpha=config.noise_alpha,
                                          noise_fraction=config.noise_fraction, seed=int(rng.integers(2**62)),
                                          root_values=True)
        visits = {action: count for action, count, _ in stats}
        actions, after, values = _search.afterstate_features(handles, int(rng.integers(2**62)), finish)
        target = np.array([visits.get(a, 0) for a in actions], np.float64)
        target /= target.sum()
        samples.add(state, actions, after, values, target.astype(np.float32), root)
        if decisions < config.sampled_turns * players:
            action = actions[rng.choice(len(actions), p=target)]
        else:
            action = stats[0][0]
        state.apply(action)
        decisions += 1
    return samples.finish(state)


def play_chunk(config: ExpertConfig, generation: int, first: int, count: int,
               network: str | None) -> dict[str, np.ndarray]:
    """Games first .. first + count - 1 of a generation, as the arrays of a chunk file."""
    game = get_game(config.game)
    if network is None or config.teacher != "heuristic":
        parts = [teacher_game(game, config, generation, index, network) for index in range(first, first + count)]
    else:
        model = load_network(network).compiled()
        parts = [self_play_game(game, config, generation, index, model) for index in range(first, first + count)]
    samples = Samples.join([p for p in parts if len(p)])
    arrays = {name: getattr(samples, name).astype(dtype) for name, dtype in SAMPLE_ARRAYS.items()}
    arrays["game"] = np.repeat(np.arange(first, first + count), [len(p) for p in parts]).astype(np.int32)
    return arrays


def read_chunk(path: Path, first: int, count: int, game: str = "bora_bora") -> dict[str, np.ndarray]:
    """A chunk file's arrays of a run of `game` (a game spec), checked: types, matching lengths, the game's number
    of features, seats and actions, finite numbers, games of the chunk."""
    arrays = read_arrays(path, (*SAMPLE_ARRAYS, "game"), CHUNK_FILE, CHUNK_REMEDY)
    played = get_game(game)
    features = len(_search.features(search_handles(played.new_initial_state(seed=0)), 0))
    problem = None
    n = len(arrays["x"])
    for name, dtype in {**SAMPLE_ARRAYS, "game": np.int32}.items():
        if arrays[name].dtype != dtype:
            problem = f"{name} is {arrays[name].dtype}, not {np.dtype(dtype)}"
            break
    else:
        first_rows = arrays["first"]
        if arrays["x"].ndim != 3 or any(len(arrays[k]) != n for k in ("players", "mover", "returns", "game")):
            problem = "the positions' arrays differ in length"
        elif n and (arrays["x"].shape[1:] != (SEATS, features) or arrays["after"].ndim != 2
                    or arrays["after"].shape[1] != features or arrays["returns"].shape[1:] != (SEATS,)):
            problem = (f"x has shape {arrays['x'].shape}, after {arrays['after'].shape} and returns "
                       f"{arrays['returns'].shape}, not (positions, {SEATS}, {features}), (rows, {features}) and "
                       f"(positions, {SEATS}): {played.name} has {features} features")
        elif not np.isin(arrays["players"], played.player_counts).all() \
                or not ((arrays["mover"] >= 0) & (arrays["mover"] < arrays["players"])).all():
            problem = "players holds a count of seats the game does not have, or mover a seat out of range"
        elif not ((arrays["action"] >= 0) & (arrays["action"] < played.num_actions)).all():
            problem = f"action holds an action out of range ({played.name}'s are 0..{played.num_actions - 1})"
        elif len(first_rows) != n + 1 or first_rows[0] != 0 or (np.diff(first_rows) < 1).any() \
                or first_rows[-1] != len(arrays["after"]) \
                or any(len(arrays[k]) != len(arrays["after"]) for k in ("action", "target", "after_value")):
            problem = "the afterstate rows do not fit the positions"
        elif not all(np.isfinite(arrays[k]).all() for k in ("x", "after", "target", "returns", "after_value")):
            problem = "a number is not finite"
        elif not ((arrays["game"] >= first) & (arrays["game"] < first + count)).all():
            problem = f"game holds an index outside {first}..{first + count - 1}"
    if problem:
        raise ValueError(f"{path} is not {CHUNK_FILE} of this run: {problem}; {CHUNK_REMEDY}")
    return arrays


def play_generation(work: Path, config: ExpertConfig, generation: int, games: int, network: str | None,
                    n_jobs: int, log: Progress, digests: Digests) -> tuple[Samples, np.ndarray]:
    """A generation's samples and each sample's game, its chunks read from `work` where a run wrote them (checked
    against `digests`, the work directory's record of its files), played (and written) otherwise."""
    folder = work / f"gen{generation:02d}"
    folder.mkdir(parents=True, exist_ok=True)
    chunks = [(first, min(CHUNK, games - first)) for first in range(0, games, CHUNK)]
    paths = {first: folder / f"chunk-{first:07d}.npz" for first, _ in chunks}
    parts = {}
    for first, count in chunks:
        if paths[first].exists():
            parts[first] = read_chunk(paths[first], first, count, config.game)
            digests.check(paths[first])
    todo = [(first, count) for first, count in chunks if first not in parts]
    started, done, told = time.time(), 0, 0.0
    from joblib import Parallel, delayed

    results = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(play_chunk)(config, generation, first, count, network) for first, count in todo)
    for (first, count), arrays in zip(todo, results, strict=True):
        digests.write_bytes(paths[first], npz_bytes(arrays))
        parts[first] = arrays
        done += count
        if time.time() - told >= PROGRESS_EVERY or len(parts) == len(chunks):
            told = time.time()
            left = (told - started) / done * (sum(c for _, c in todo) - done)
            played = sum(count for first, count in chunks if first in parts)
            log(f"generation {generation}: {played}/{games} games, about {left / 60:.0f} min left")
    ordered = [parts[first] for first, _ in chunks]
    samples = Samples.join([Samples(*(a[name] for name in SAMPLE_ARRAYS)) for a in ordered])
    return samples, np.concatenate([a["game"] for a in ordered])


# =============================================================================
# Fitting and the gate
# =============================================================================
def gate(config: ExpertConfig, candidate: Path, best: Path, n_jobs: int) -> dict[str, Any]:
    """Whether the candidate network is detectably stronger than the best, on the first player count, seats rotated
    over common deals. Head to head (no `gate_field`): the candidate in one seat against the best in the others;
    its win rate, Wilson 95% interval and the fair share. Against a field: the candidate, then the best, in one
    seat against `gate_field` players on the same deals and seats; both win rates and Newcombe's paired interval of
    the difference. The networks search (PUCT) when the search plays the data games, and play their policy in one
    pass (`expert`) when a search or rating teacher labels them."""
    from borabora_sim.simulate import simulate

    players = config.players[0]
    spec = "expert:network=" if config.teacher != "heuristic" else \
        f"mcts:iterations={config.iterations},c={config.c_puct:g},evaluation=net,network="

    def play(first: Path, others: str) -> Any:
        rows = simulate(config.gate_games, [spec + str(first)] + [others] * (players - 1), seed=config.seed * 7919,
                        n_jobs=n_jobs, game=config.game, progress=False)
        assert rows is not None
        return rows

    if config.gate_field:
        found = paired_compare(play(candidate, config.gate_field), play(best, config.gate_field), focus=[0])
        low, high = found.win_diff_ci
        return {"games": found.games, "win_rate": found.win_a, "best_win_rate": found.win_b,
                "difference": found.win_diff, "ci_low": low, "ci_high": high, "stronger": low > 0,
                "opponent": best.parent.name, "field": config.gate_field}
    rows = play(candidate, spec + str(best))
    mine = rows[rows["spec"].astype(str).str.endswith(str(candidate))]
    wins = int(mine["win"].sum())
    low, high = wilson_interval(wins, len(mine))
    return {"games": len(mine), "wins": wins, "win_rate": wins / len(mine), "ci_low": low, "ci_high": high,
            "fair_share": 1 / players, "stronger": low > 1 / players, "opponent": best.parent.name}


def gate_words(outcome: dict[str, Any]) -> str:
    """A gate's result in words, for the progress lines."""
    if "field" in outcome:
        return (f"win rate {outcome['win_rate']:.3f} against {outcome['opponent']}'s {outcome['best_win_rate']:.3f} "
                f"in a field of {outcome['field']}, difference {outcome['difference']:+.3f} "
                f"({outcome['ci_low']:+.3f} to {outcome['ci_high']:+.3f})")
    return f"win rate {outcome['win_rate']:.3f}, {outcome['ci_low']:.3f}-{outcome['ci_high']:.3f} against the best"


def train_network(config: ExpertConfig | None = None, work: str | Path = "runs/expert",
                  out: str | Path | None = None, n_jobs: int = 1, log: Progress = print) -> Network:
    """Runs (or continues) expert iteration in `work` and returns the best network; with `out`, writes it there
    too (with its manifest beside it, the same name ending in .json)."""
    config = ExpertConfig() if config is None else config
    game = config.check()
    n_jobs = check_int(n_jobs, "n_jobs", 1, 64)
    if "," in str(work):
        raise ValueError(f"work {work} has a comma in its name, which a player spec cannot carry (the gate names "
                         "the networks in specs); choose another directory")
    work = Path(work)
    record = asdict(config)
    digests = _open_work(work, record, _files_specs(config, game), game)
    started = time.time()
    history: list[dict[str, Any]] = []
    data: list[tuple[Samples, np.ndarray]] = []
    best: Path | None = None
    for generation in range(config.generations + 1):
        folder = work / f"gen{generation:02d}"
        games = config.imitation_games if generation == 0 else config.games
        data.append(play_generation(work, config, generation, games, None if best is None else str(best), n_jobs,
                                    log, digests))
        data = data[-config.window:]
        manifest = _fitted(config, game, generation, data, folder, best, started, n_jobs, log, digests)
        history.append(manifest)
        if manifest["kept"]:
            best = folder / "network.npz"
        log(f"generation {generation}: " + ("kept" if manifest["kept"] else "not kept") +
            ("" if manifest["gate"] is None else f" ({gate_words(manifest['gate'])})"))
    assert best is not None
    if config.final_hidden:
        manifest = _final_fit(work, config, game, data, best, started, n_jobs, log, digests)
        history.append(manifest)
        if manifest["kept"]:
            best = work / _final_folder(config) / "network.npz"
    network = load_network(best)
    if out is not None:
        out = Path(out)
        network.save(out)
        summary = {"what": f"policy-and-value network of {game.name}", "config": record, "generations": history,
                   "best": best.parent.name, "commit": package_commit(),
                   "command": command_line(config, work, out, n_jobs)}
        write_bytes(out.with_suffix(".json"), (json.dumps(summary, indent=1) + "\n").encode())
    return network


def command_line(config: ExpertConfig, work: Path, out: Path, n_jobs: int) -> str:
    """The `borabora train` command of a run (the options the command line has; the others are the defaults)."""
    args = ["borabora", "train", "--game", config.game, "--imitation-games", str(config.imitation_games),
            "--generations", str(config.generations), "--games", str(config.games), "--iterations",
            str(config.iterations), "--window", str(config.window), "--gate-games", str(config.gate_games), "--hidden",
            ",".join(map(str, config.hidden)),
            *(["--final-hidden", ",".join(map(str, config.final_hidden))] if config.final_hidden else []),
            "--epochs", str(config.epochs), "--keep", f"{config.keep:g}",
            *(["--sharpen", ",".join(f"{power:g}" for power in config.powers)] if config.powers != (1,) else []),
            *(["--teacher", config.teacher] if config.teacher != "heuristic" else []),
            *(["--later-teacher", config.later_teacher] if config.later_teacher else []),
            *(["--finish-style", config.finish_style] if config.finish_style else []),
            *(["--gate-field", config.gate_field] if config.gate_field else []), "--seed", str(config.seed),
            "--work", str(work), "--out", str(out), "--jobs", str(n_jobs)]
    return shlex.join(args)


def _final_folder(config: ExpertConfig) -> str:
    """The final fit's folder, named after the last generation whose data it was fitted on and its layers."""
    return f"final-gen{config.generations:02d}-" + "x".join(map(str, config.final_hidden))


def _final_fit(work: Path, config: ExpertConfig, game: Game, data: list[tuple[Samples, np.ndarray]], best: Path,
               started: float, n_jobs: int, log: Progress, digests: Digests) -> dict[str, Any]:
    """The final fit's manifest: a network of `final_hidden` layers fitted on the window's data and gated against
    the best, or the manifest of the one a run wrote before."""
    manifest = _fitted(config, game, config.generations + 1, data, work / _final_folder(config), best, started,
                       n_jobs, log, digests)
    log("final fit: " + ("kept" if manifest["kept"] else "not kept") + f" ({gate_words(manifest['gate'])})")
    return manifest


def _fitted(config: ExpertConfig, game: Game, generation: int, data: list[tuple[Samples, np.ndarray]], folder: Path,
            best: Path | None, started: float, n_jobs: int, log: Progress, digests: Digests) -> dict[str, Any]:
    """The manifest of a generation's fit (generation `generations + 1`: the final fit) in `folder`: the one a run
    wrote there before (it and its network checked against `digests`), or that of a network fitted and gated now
    (written there with it)."""
    manifest_file = folder / "manifest.json"
    if manifest_file.exists():
        for path in (manifest_file, folder / "network.npz"):
            digests.check(path)
        found: dict[str, Any] = read_json(manifest_file, "a generation's manifest", DIGESTS_REMEDY)
        return found
    folder.mkdir(parents=True, exist_ok=True)
    manifest = _fit_generation(config, game, generation, data, folder / "network.npz", best, n_jobs, log, digests)
    if generation > config.generations:
        manifest.update({"generation": "final", "teacher": f"the data of {len(data)} generations"})
    manifest.update({"seconds": round(time.time() - started, 1), "commit": package_commit()})
    digests.write_bytes(manifest_file, json_bytes(manifest))
    return manifest


def _fit_generation(config: ExpertConfig, game: Game, generation: int, data: list[tuple[Samples, np.ndarray]],
                    network_file: Path, best: Path | None, n_jobs: int, log: Progress,
                    digests: Digests) -> dict[str, Any]:
    """Fits a generation's network on the data of the window, gates it, and returns its manifest."""
    train_parts, held_parts = [], []
    for samples, games in data:
        held = games % VALIDATION_EVERY == 0
        sharp = samples if isinstance(config.sharpen, tuple) else samples.sharpened(config.sharpen)
        train_parts.append(sharp.take(np.flatnonzero(~held)))
        held_parts.append(sharp.take(np.flatnonzero(held)))
    train, held = Samples.join(train_parts), Samples.join(held_parts)
    name = "final fit" if generation > config.generations else f"generation {generation}"
    network, curve = fit(train, held, config.fit_config(generation), game.num_actions,
                         progress=lambda epoch, value, policy: log(
                             f"{name}, epoch {epoch}: validation value loss {value:.4f}, "
                             f"policy loss {policy:.4f}"))
    network = replace(network, finish=config.finish_weights(game))
    digests.write_bytes(network_file, network.npz())
    outcome = None if best is None else gate(config, network_file, best, n_jobs)
    return {"generation": generation, "samples": len(train), "validation_samples": len(held),
            "teacher": _teacher(config, best),
            "curve": curve, "gate": outcome, "kept": outcome is None or bool(outcome["stronger"])}


def _teacher(config: ExpertConfig, best: Path | None) -> str:
    """Who gave a generation's policy targets, in words."""
    if config.teacher == "heuristic":
        return "heuristic players" if best is None else f"PUCT({config.iterations}) with {best.parent.name}"
    where = "heuristic games" if best is None else f"games with {best.parent.name}'s expert in half the seats"
    teacher = config.teacher_of(None if best is None else best.parent.name)
    return f"{teacher} at positions of {where}"


def _files_specs(config: ExpertConfig, game: Game) -> list[str]:
    """The specs of the players a run plays or asks besides its own networks' (whose files are in the work
    directory): the heuristic seats of every style, the turn's finishing style, the teachers and the gate field. A
    later teacher's search guided by a network searches with the run's best network, not the game's, so it counts
    here for the other files it reads (a rollout style's) only."""
    specs = [f"heuristic:style={style}" for style in game.styles]
    if config.finish_style:
        specs.append(f"heuristic:style={config.finish_style}")
    if config.teacher != "heuristic":
        specs += _specs(config.teacher)
    for spec in _specs(config.later_teacher):
        name, options = split_spec(spec)
        if _guided_by_network(spec):
            kept = [f"{key}={value}" for key, value in options.items() if key not in ("evaluation", "prior", "network")]
            spec = f"{name}:{','.join(kept)}" if kept else name
        specs.append(spec)
    if config.gate_field:
        specs.append(config.gate_field)
    return specs


def _open_work(work: Path, record: dict[str, Any], files_specs: list[str], game: Game) -> Digests:
    """Starts the work directory of a run with the settings `record`, or checks that the run it holds has them. Only
    the number of generations and the final fit's layers may differ: a run is continued with more generations (or
    stopped at fewer), or given another final fit, as it is. A setting the saved configuration lacks (one added to
    the library since) counts as its default. The directory also records a fingerprint of the files the players of
    `files_specs` read (a network, learned weights, a style's data file): a run is not continued after one of them
    changed, as its generations would mix games played by two versions of them. Returns the record of the
    directory's finished files (those of a directory written before it kept one are recorded as they are)."""
    saved = work / "config.json"
    files = player_files_fingerprint(files_specs, game)
    as_json = json.loads(json.dumps(record))
    if saved.exists():
        found = read_json(saved, "the configuration of an expert-iteration run", "use another --work directory")
        if isinstance(found, dict):
            found = {**json.loads(json.dumps(asdict(ExpertConfig()))), **found}
        changed = ", ".join(f"{key}={found.get(key)!r}" for key in as_json
                            if key not in GROWABLE and found.get(key) != as_json[key]) \
            if isinstance(found, dict) else "not a configuration"
        if changed:
            raise ValueError(f"{work} holds a run with other settings ({changed}); use another --work directory or "
                             "the same settings (only --generations and --final-hidden may change, to continue a "
                             "run)")
        if found.get(FILES_KEY, "") != files:
            read = files_named(files_specs, game)
            named = f" ({', '.join(read)})" if read else ""
            why = (f"was started before runs recorded the files their players read{named}, so it cannot be known "
                   "which version of them played its games" if FILES_KEY not in found else
                   f"was played with another version of the files its players read{named}")
            raise ValueError(f"{work} holds a run that {why}; use another --work directory, or put the old files "
                             "back to continue it")
        if found != {**as_json, FILES_KEY: files}:
            write_bytes(saved, json_bytes({**as_json, FILES_KEY: files}))
    else:
        work.mkdir(parents=True, exist_ok=True)
        write_bytes(saved, json_bytes({**as_json, FILES_KEY: files}))
    record_file = work / DIGESTS
    digests = Digests(work, read_digests(record_file, "the record of a training run's files", DIGESTS_REMEDY),
                      lambda recorded: write_bytes(record_file, json_bytes(recorded)), DIGESTS_REMEDY)
    digests.record_unrecorded(sorted(path for path in work.glob("*/*") if path.suffix in (".npz", ".json")))
    return digests


__all__ = ["ExpertConfig", "gate", "gate_words", "play_generation", "train_network"]
