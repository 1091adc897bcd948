"""Regenerates tests/data/golden_traces.json, the pinned behaviour checked by tests/test_golden.py.

Run it only on purpose, after a deliberate rule or component change, and give the reason in the commit:

    python tests/make_golden.py   (from the repository root, with the package built in place)

For seeds 0..5 and 2, 3 and 4 players it plays a game in which each decision takes
`legal[rng.randrange(len(legal))]` with `rng = random.Random(seed)`, and records the number of legal actions
at every decision (one character per decision, see ALPHABET), the final scores and the winner.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import borabora_sim

GOLDEN_FILE = Path(__file__).with_name("data") / "golden_traces.json"
SEEDS = range(6)
PLAYER_COUNTS = (2, 3, 4)
# legal-action count n is stored as ALPHABET[n]; a real decision has 2..61 options
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def play_trace(players: int, seed: int) -> dict[str, Any]:
    state = borabora_sim.new_game(players, seed)
    rng = random.Random(seed)
    counts = []
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) >= len(ALPHABET):
            raise ValueError(f"{len(legal)} legal actions do not fit the trace alphabet")
        counts.append(ALPHABET[len(legal)])
        state.apply(legal[rng.randrange(len(legal))])
    return {"players": players, "seed": seed, "legal_counts": "".join(counts), "moves": state.move_count,
            "scores": state.scores(), "winner": state.winner()}


def make() -> dict[str, Any]:
    return {
        "format": "borabora_sim.golden_traces",
        "components": borabora_sim.rules_for().fingerprint,
        "alphabet": ALPHABET,
        "games": [play_trace(players, seed) for players in PLAYER_COUNTS for seed in SEEDS],
    }


def main() -> None:
    GOLDEN_FILE.parent.mkdir(exist_ok=True)
    data = make()
    games = data.pop("games")
    header = json.dumps(data)[:-1]  # one game per line keeps diffs readable
    GOLDEN_FILE.write_text(header + ', "games": [\n' + ",\n".join(json.dumps(g) for g in games) + "\n]}\n")
    print(f"wrote {GOLDEN_FILE}")


if __name__ == "__main__":
    main()
