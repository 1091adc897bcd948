"""Writes the golden traces of tests/data/golden/, the pinned behaviour of the games checked by tests/test_golden.py.

Run it only on purpose, after a deliberate rule or component change, and give the reason in the commit:

    PYTHONPATH=. python tests/make_golden.py                  (every file again, each from its own header)
    PYTHONPATH=. python tests/make_golden.py bamboo           (the files of a game, or of a spec such as
                                                               bamboo:mode=advanced; a new file when it has none)

A file pins one game spec and describes itself in its header (see `Golden`): for every player count of the game
and each of its seeds it plays a game in which each decision takes `legal[rng.randrange(len(legal))]` with
`rng = random.Random(seed)`, and keeps the number of legal actions at every decision (one character per decision,
see the file's alphabet), the number of applied actions (forced ones included), the final scores and what the
header's `finals` name (state methods, such as winners or score_breakdown); with `names`, the name of every action
taken. One game per line. A game without a file is not pinned: test_golden.py skips it, saying so.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from borabora_sim.games import get_game, parse_game_spec

GOLDEN = Path(__file__).with_name("data") / "golden"
FORMAT = "borabora_sim.golden_traces"
VERSION = 2
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Golden:
    """How a golden file is written, as its header says: the game spec played (every option given), the seeds,
    the alphabet (legal-action count n is stored as alphabet[n]), the state methods whose values at the end are
    kept after the scores, and whether the name of every action taken is kept."""

    spec: str
    seeds: tuple[int, ...] = tuple(range(6))
    alphabet: str = DIGITS + DIGITS[10:].upper()
    finals: tuple[str, ...] = ("winners", "score_breakdown", "counters")
    names: bool = True

    @property
    def game(self) -> str:
        """The registered name of the game."""
        return parse_game_spec(self.spec)[0]

    @property
    def label(self) -> str:
        """The file's name without .json: the game's name and its option values (bamboo-advanced)."""
        name, options = parse_game_spec(self.spec)
        return "-".join([name, *map(str, options.values())])

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.label}.json"

    def header(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "game": self.spec, "fingerprint": get_game(self.spec).fingerprint,
                "seeds": list(self.seeds), "alphabet": self.alphabet, "finals": list(self.finals),
                "names": self.names}

    @classmethod
    def of(cls, data: dict[str, Any]) -> Golden:
        """The description in a file's header."""
        return cls(data["game"], tuple(data["seeds"]), data["alphabet"], tuple(data["finals"]), data["names"])

    @classmethod
    def new(cls, spec: str) -> Golden:
        """A new file's description for `spec`, its options written out in full (the defaults too)."""
        name, _ = parse_game_spec(spec)
        game = get_game(spec)
        options = ",".join(f"{key}={getattr(game, key)}" for key in game.options)
        return cls(f"{name}:{options}" if options else name)


def golden_files() -> dict[str, dict[str, Any]]:
    """Every golden file's data, by label."""
    return {path.stem: json.loads(path.read_text()) for path in sorted(GOLDEN.glob("*.json"))}


def finals(golden: Golden, state: Any) -> dict[str, Any]:
    """What the file keeps of the final state after the scores, as JSON reads it back."""
    kept: dict[str, Any] = json.loads(json.dumps({name: getattr(state, name)() for name in golden.finals}))
    return kept


def play_trace(golden: Golden, players: int, seed: int) -> dict[str, Any]:
    state = get_game(golden.spec).new_initial_state(players=players, seed=seed)
    rng = random.Random(seed)
    counts, taken = [], []
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) >= len(golden.alphabet):
            raise ValueError(f"{len(legal)} legal actions do not fit the trace alphabet")
        counts.append(golden.alphabet[len(legal)])
        action = legal[rng.randrange(len(legal))]
        taken.append(state.action_to_string(action))
        state.apply(action)
    names = {"actions": ";".join(taken)} if golden.names else {}
    return {"players": players, "seed": seed, "legal_counts": "".join(counts), **names, "moves": state.move_count,
            "scores": state.scores(), **finals(golden, state)}


def write(golden: Golden) -> None:
    games = [play_trace(golden, players, seed) for players in get_game(golden.spec).player_counts
             for seed in golden.seeds]
    header = json.dumps(golden.header())[:-1]  # one game per line keeps diffs readable
    golden.path.parent.mkdir(parents=True, exist_ok=True)
    golden.path.write_text(header + ', "games": [\n' + ",\n".join(json.dumps(g) for g in games) + "\n]}\n")
    print(f"wrote {golden.path}")


def main(specs: list[str]) -> None:
    existing = [Golden.of(data) for data in golden_files().values()]
    if not specs:
        for golden in existing:
            write(golden)
    for spec in specs:
        name, options = parse_game_spec(spec)
        chosen = [golden for golden in existing if golden.game == name and
                  options.items() <= parse_game_spec(golden.spec)[1].items()]
        for golden in chosen or [Golden.new(spec)]:
            write(golden)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except ValueError as error:                 # an unknown game or option
        sys.exit(str(error))
