"""Mutated saved states, and playing on from them with every invariant checked.

A case is (base, edits): a saved state from a random game, and a few of its integer fields set to other
values. `judge` loads the mutated state; a refusal must be a StateFormatError, and an accepted state must play
on for up to PLAY_ON steps of random legal actions with the invariants holding after each one.

A clock case (game, base, edits) sets only the fields that order play in time, of any game that names them
(CLOCK_FIELDS of its samples): rounds, phases, turns, turn orders, stamps and clocks. `clock_judge` plays an
accepted one to the end of the game with random legal actions, checking the invariants and that the state saves and
loads back unchanged after every step.

Run as a program it judges cases in its own process, which is how the tests isolate crashes and how the
sanitizer build runs them (docs/fuzzing.md):

    python tests/state_mutations.py --cases 20000 --seed 1     # random cases, a summary line
    python tests/state_mutations.py --stdin                    # JSON cases on stdin, one verdict a line
    python tests/state_mutations.py --clock bamboo --cases 2000 --seed 1    # clock cases of one game
    python tests/state_mutations.py --clock bora_bora --stdin               # JSON clock cases on stdin
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections import Counter
from functools import cache
from importlib import import_module
from typing import Any

import borabora_sim
from borabora_sim import State, StateFormatError, new_game, rules_for
from borabora_sim.games import game_names, get_game, record_of

PLAY_ON = 300
ROUNDTRIP_EVERY = 25
SCORE_LIMIT = 32767
# Values at the edges of the fields' types and of the game's ranges (seats, dice, regions, piles, tracks).
EDGE_VALUES = (-32768, -129, -128, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 15, 16, 17, 23, 24, 35, 36, 37,
               52, 53, 54, 59, 60, 61, 100, 120, 121, 126, 127, 128, 200, 254, 255, 256, 4095, 4096, 30000, 32767,
               32768, 65535, 65536)
BASE_GAMES = 12                 # random games the base states come from
STATES_PER_GAME = 8

Path = tuple[Any, ...]
Case = tuple[int, list[tuple[int, Any]]]    # (base index, [(leaf index, new value)])


@cache
def base_states() -> tuple[dict[str, Any], ...]:
    """Saved states spread over whole random games of 2, 3 and 4 players, terminal ones included."""
    saved = []
    rng = random.Random(20261130)
    for game in range(BASE_GAMES):
        state = new_game(2 + game % 3, seed=game)
        history = [state.clone()]
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            history.append(state.clone())
        saved += [history[i * (len(history) - 1) // (STATES_PER_GAME - 1)].to_dict() for i in range(STATES_PER_GAME)]
    return tuple(saved)


def _leaves(value: Any, path: Path) -> list[Path]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, (*path, key))]
    if isinstance(value, list):
        return [leaf for i, item in enumerate(value) for leaf in _leaves(item, (*path, i))]
    return [path] if isinstance(value, int) else []


@cache
def leaves(base: int) -> tuple[Path, ...]:
    """Paths of every integer field of a base state's body (the seeds are hex strings, left alone)."""
    return tuple(_leaves(base_states()[base]["state"], ()))


def mutated(case: Case) -> dict[str, Any]:
    base, edits = case
    data = copy.deepcopy(base_states()[base])
    for leaf, value in edits:
        *parents, last = leaves(base)[leaf]
        target = data["state"]
        for key in parents:
            target = target[key]
        target[last] = value
    return data


def random_case(rng: random.Random) -> Case:
    base = rng.randrange(len(base_states()))
    count = rng.choice((1, 1, 1, 2, 3))
    edits = []
    for _ in range(count):
        value = rng.choice(EDGE_VALUES) if rng.random() < 0.7 else rng.randint(-300, 70000)
        edits.append((rng.randrange(len(leaves(base))), value))
    return base, edits


def invariant_breach(state: State, before: int) -> str | None:
    """What is wrong with a state reached by play, or None."""
    broken = state.check_invariants()
    if broken:
        return f"invariant broken: {broken}"
    if state.move_count < before:
        return "move count went down"
    scores = state.scores()
    if any(not 0 <= s <= SCORE_LIMIT for s in scores):
        return f"scores out of range: {scores}"
    legal = state.legal_actions()
    if state.is_terminal():
        if legal or state.current_player != -1 or state.winner() is None:
            return "terminal state with a legal action, a player to move or no winner"
    elif not legal or not 0 <= state.current_player < state.num_players:
        return f"no legal action or no player to move (player {state.current_player}) before the end"
    return None


def loads_back(state: State) -> bool:
    """A state reached by play saves and loads back unchanged, unless play took a count, score or clock past
    what a loaded state may hold (possible only from a loaded state already near those limits)."""
    try:
        return State.from_dict(state.to_dict(), state.rules).to_dict() == state.to_dict()
    except StateFormatError as error:
        return "in a loaded state" in str(error)


def judge(case: Case, play_seed: int = 0) -> str:
    """'refused', 'played', or 'misbehaved: ...' for one case."""
    data = mutated(case)
    try:
        state = State.from_dict(data, rules_for())
    except StateFormatError:
        return "refused"
    except Exception as error:     # anything but a StateFormatError is a misbehaviour to report
        return f"misbehaved: from_dict raised {type(error).__name__}: {error}"
    rng = random.Random(play_seed)
    try:
        for step in range(PLAY_ON + 1):
            breach = invariant_breach(state, 0 if step == 0 else state.move_count)
            if breach:
                return f"misbehaved after {step} steps: {breach}"
            if step % ROUNDTRIP_EVERY == 0:
                seat = state.current_player
                if not loads_back(state):
                    return f"misbehaved after {step} steps: the saved state does not load back the same"
                if seat >= 0 and state.determinize(seat, step).check_invariants():
                    return f"misbehaved after {step} steps: a determinization breaks an invariant"
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    except Exception as error:
        return f"misbehaved: {type(error).__name__}: {error}"
    return "played"


# ---- the clock and order fields of every game ----------------------------------------------------------------
@cache
def clock_fields(game: str) -> tuple[Path, ...]:
    """The paths of the fields of the saved states of `game` that order play in time ("*": any seat in play, or any
    pending decision): CLOCK_FIELDS of the game's samples, none for a game that gives none."""
    where = record_of(game).samples
    fields: tuple[Path, ...] = getattr(import_module(where), "CLOCK_FIELDS", ()) if where is not None else ()
    return fields


def clock_games() -> tuple[str, ...]:
    """The games that name their clock fields."""
    return tuple(game for game in game_names() if clock_fields(game))


# Small values: seats, temples, rounds, phases, the stick clock's range 0..28 and just beyond.
CLOCK_VALUES = (-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 27, 28, 29, 30)
CLOCK_GAMES = 6                 # random games per game the base states come from (each player count in turn)
CLOCK_PLAY_LIMIT = 5000         # decisions: far more than any game of either
ClockCase = tuple[str, int, list[tuple[list[Any], int]]]     # (game, base index, [(field path, new value)])


@cache
def clock_bases(game: str) -> tuple[dict[str, Any], ...]:
    """Saved states of random games of `game` for each of its player counts: in each round, the first state at each
    kind of decision (where clocks and turn orders are about to be read), and the end of the game."""
    saved = []
    rng = random.Random(20260611)
    counts = get_game(game).player_counts
    for k in range(CLOCK_GAMES):
        state = get_game(game).new_initial_state(counts[k % len(counts)], seed=100 + k)
        seen = set()
        while not state.is_terminal():
            moment = (state.round, state.phase, state.decision)
            if moment not in seen:
                seen.add(moment)
                saved.append(state.to_dict())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        saved.append(state.to_dict())
    return tuple(saved)


def _matches(path: Path, pattern: Path, body: dict[str, Any]) -> bool:
    if len(path) < len(pattern):
        return False
    for i, (key, want) in enumerate(zip(path, pattern, strict=False)):
        if want == "*":
            limit = body["n_players"] if pattern[i - 1] == "pl" else body["sp"]
            if not 0 <= key < limit:
                return False
        elif key != want:
            return False
    return True


@cache
def clock_leaves(game: str, base: int) -> tuple[tuple[Path, ...], ...]:
    """For each field of clock_fields(game), the paths of its integer leaves in base state `base` (empty when the
    state has none, as the pending decisions of a finished game)."""
    body = clock_bases(game)[base]["state"]
    paths = _leaves(body, ())
    return tuple(tuple(path for path in paths if _matches(path, pattern, body)) for pattern in clock_fields(game))


def leaf_value(body: dict[str, Any], path: Path) -> Any:
    for key in path:
        body = body[key]
    return body


def clock_mutated(case: ClockCase) -> dict[str, Any]:
    game, base, edits = case
    data = copy.deepcopy(clock_bases(game)[base])
    for path, value in edits:
        *parents, last = path
        target = data["state"]
        for key in parents:
            target = target[key]
        target[last] = value
    return data


@cache
def clock_bases_with(game: str, field: int) -> tuple[int, ...]:
    """The base states of `game` that hold field clock_fields(game)[field]."""
    return tuple(base for base in range(len(clock_bases(game))) if clock_leaves(game, base)[field])


def clock_edit(game: str, base: int, field: int, pick: int, value: int | None, delta: int) -> tuple[list[Any], int]:
    """An edit of leaf `pick` (modulo their number) of a field of a base state: to `value`, or when it is None to
    the value there + `delta`."""
    paths = clock_leaves(game, base)[field]
    path = paths[pick % len(paths)]
    return list(path), leaf_value(clock_bases(game)[base]["state"], path) + delta if value is None else value


def random_clock_case(rng: random.Random, game: str) -> ClockCase:
    """A field drawn first (so that each is edited as often), then a base state holding it; a second edit of any
    field of that state one time in three. Values: one more or one less than the present one, or a small one."""
    def value() -> tuple[int | None, int]:
        return (None, rng.choice((-1, 1))) if rng.random() < 0.5 else (rng.choice(CLOCK_VALUES), 0)
    field = rng.randrange(len(clock_fields(game)))
    base = rng.choice(clock_bases_with(game, field))
    edits = [clock_edit(game, base, field, rng.randrange(64), *value())]
    if rng.random() < 1 / 3:
        field = rng.choice([f for f, paths in enumerate(clock_leaves(game, base)) if paths])
        edits.append(clock_edit(game, base, field, rng.randrange(64), *value()))
    return game, base, edits


def clock_judge(case: ClockCase, play_seed: int = 0) -> str:
    """'refused', 'played' (to the end of the game), or 'misbehaved: ...' for one clock case: an accepted state
    must keep its invariants, have a player to move with a legal action until the end, and save and load back
    unchanged after every step."""
    game = get_game(case[0])
    try:
        state = game.state_from_dict(clock_mutated(case))
    except StateFormatError:
        return "refused"
    except Exception as error:     # anything but a StateFormatError is a misbehaviour to report
        return f"misbehaved: from_dict raised {type(error).__name__}: {error}"
    rng = random.Random(play_seed)
    step = 0
    try:
        while step <= CLOCK_PLAY_LIMIT:
            broken = state.check_invariants()
            if broken:
                return f"misbehaved after {step} steps: invariant broken: {broken}"
            saved = state.to_dict()
            if game.state_from_dict(saved).to_dict() != saved:
                return f"misbehaved after {step} steps: the saved state loads back changed"
            legal = state.legal_actions()
            if state.is_terminal():
                return f"misbehaved after {step} steps: legal actions after the end" if legal else "played"
            if not legal or not 0 <= state.current_player < state.num_players:
                return f"misbehaved after {step} steps: no legal action or no player to move before the end"
            state.apply(legal[rng.randrange(len(legal))])
            step += 1
    except Exception as error:
        return f"misbehaved after {step} steps: {type(error).__name__}: {error}"
    return f"misbehaved: the game did not end in {CLOCK_PLAY_LIMIT} steps"


def _main() -> int:
    parser = argparse.ArgumentParser(description="Judge mutated saved states (refused / played / misbehaved).")
    parser.add_argument("--cases", type=int, default=1000, help="random cases to judge (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random cases")
    parser.add_argument("--stdin", action="store_true", help="judge the JSON list of cases on stdin instead")
    parser.add_argument("--clock", choices=clock_games(), help="judge clock cases of this game instead")
    parser.add_argument("--expect-module-under", help="fail unless borabora_sim is imported from this folder")
    args = parser.parse_args()
    if args.expect_module_under and not borabora_sim.__file__.startswith(args.expect_module_under):
        parser.error(f"borabora_sim comes from {borabora_sim.__file__}, not from {args.expect_module_under}")
    if args.stdin:
        for base, edits in json.load(sys.stdin):
            if args.clock:
                print(clock_judge((args.clock, base, [(path, value) for path, value in edits])), flush=True)
            else:
                print(judge((base, [tuple(e) for e in edits])), flush=True)
        return 0
    rng = random.Random(args.seed)
    outcomes: Counter[str] = Counter()
    for i in range(args.cases):
        shown: Case | ClockCase
        if args.clock:
            shown = clock_case = random_clock_case(rng, args.clock)
            verdict = clock_judge(clock_case, play_seed=i)
        else:
            shown = case = random_case(rng)
            verdict = judge(case, play_seed=i)
        outcomes[verdict.split(":")[0]] += 1
        if verdict.startswith("misbehaved"):
            print(f"case {shown}: {verdict}", flush=True)
    print(f"{args.cases} cases on borabora_sim {borabora_sim.__file__}: " +
          ", ".join(f"{name} {count}" for name, count in sorted(outcomes.items())))
    return 1 if outcomes["misbehaved"] else 0


if __name__ == "__main__":
    sys.exit(_main())
