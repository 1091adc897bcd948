"""Regenerates the golden traces of tests/data/, the pinned behaviour of every game checked by tests/test_golden.py.

Run it only on purpose, after a deliberate rule or component change, and give the reason in the commit:

    PYTHONPATH=. python tests/make_golden.py              (every game's files, from the repository root)
    PYTHONPATH=. python tests/make_golden.py bamboo       (one game's)

Each file of GOLDEN is one game spec: for every player count of the game and the file's seeds it plays a game in
which each decision takes `legal[rng.randrange(len(legal))]` with `rng = random.Random(seed)`, and records the
number of legal actions at every decision (one character per decision, see the file's alphabet), the number of
applied actions (forced ones included), the final scores and what the file adds (`finals`; with `names`, the
name of every action taken). One game per line.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from borabora_sim.games import get_game

DATA = Path(__file__).with_name("data")
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Golden:
    """One golden file: the game it pins and how it was written."""

    game: str                                   # the registered name
    path: Path
    spec: str                                   # the game spec played (its name and options)
    format: str
    seeds: range
    alphabet: str                               # legal-action count n is stored as alphabet[n]
    finals: Callable[[Any], dict[str, Any]]     # what the file keeps of the final state, after the scores
    tags: Mapping[str, str] = field(default_factory=dict)   # written in the header and in every game
    names: bool = False                         # whether the name of every action taken is kept

    @property
    def label(self) -> str:
        return "-".join([self.game, *self.tags.values()])


GOLDEN = (
    # a real decision has 2..61 options
    Golden("bora_bora", DATA / "golden_traces.json", "bora_bora", "borabora_sim.golden_traces", range(6),
           DIGITS + DIGITS[10:].upper(), lambda state: {"winner": state.winner()}),
    # a real decision has 2..16 options (docs/bamboo_actions.md)
    *(Golden("bamboo", DATA / "bamboo_golden" / f"{mode}.json", f"bamboo:mode={mode}",
             "borabora_sim.bamboo.golden_traces", range(3), DIGITS,
             lambda state: {"breakdown": state.score_breakdown(), "comfort": state.comfort(),
                            "winner": list(state.winners())}, {"mode": mode}, names=True)
      for mode in ("normal", "advanced")),
    # every real decision is roll or hold: the file keeps the action taken at each and every seat's counters
    Golden("pig", DATA / "pig_golden.json", "pig", "borabora_sim.pig.golden_traces", range(6), DIGITS,
           lambda state: {"winner": state.winner(), "counters": state.counters()}, names=True),
)


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
    return {"players": players, "seed": seed, **golden.tags, "legal_counts": "".join(counts), **names,
            "moves": state.move_count, "scores": state.scores(), **golden.finals(state)}


def make(golden: Golden) -> dict[str, Any]:
    game = get_game(golden.spec)
    return {"format": golden.format, "components": game.rules.fingerprint, **golden.tags, "alphabet": golden.alphabet,
            "games": [play_trace(golden, players, seed) for players in game.player_counts for seed in golden.seeds]}


def write(golden: Golden) -> None:
    data = make(golden)
    games = data.pop("games")
    header = json.dumps(data)[:-1]  # one game per line keeps diffs readable
    golden.path.parent.mkdir(parents=True, exist_ok=True)
    golden.path.write_text(header + ', "games": [\n' + ",\n".join(json.dumps(g) for g in games) + "\n]}\n")
    print(f"wrote {golden.path}")


def main(games: list[str]) -> None:
    known = dict.fromkeys(golden.game for golden in GOLDEN)
    unknown = sorted(set(games) - set(known))
    if unknown:
        sys.exit(f"no golden file for {', '.join(unknown)}; games: {', '.join(known)}")
    for golden in GOLDEN:
        if not games or golden.game in games:
            write(golden)


if __name__ == "__main__":
    main(sys.argv[1:])
