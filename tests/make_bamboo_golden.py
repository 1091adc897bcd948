"""Regenerates tests/data/bamboo_golden/, the pinned behaviour of Bamboo checked by tests/test_bamboo_golden.py.

Run it only on purpose, after a deliberate rule or component change to the committed engine, and give the reason
in the commit:

    python tests/make_bamboo_golden.py   (from the repository root, with the package built in place)

For seeds 0..2, 2, 3 and 4 players and both modes (normal, advanced) it plays a game in which each decision takes
`legal[rng.randrange(len(legal))]` with `rng = random.Random(seed)`, and records the number of legal actions at
every decision (one character per decision, see ALPHABET), the name of every action taken, the number of applied
actions (forced ones included), the final scores, the score breakdown by source, the comfort totals and the
winner. One file per mode, one game per line.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from borabora_sim.games.bamboo import new_game, rules_for

GOLDEN_DIR = Path(__file__).with_name("data") / "bamboo_golden"
SEEDS = range(3)
PLAYER_COUNTS = (2, 3, 4)
MODES = ("normal", "advanced")
# legal-action count n is stored as ALPHABET[n]; a real decision has 2..16 options (docs/bamboo_actions.md)
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


def play_trace(players: int, seed: int, mode: str) -> dict[str, Any]:
    state = new_game(players, seed, mode=mode)
    rng = random.Random(seed)
    counts, taken = [], []
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) >= len(ALPHABET):
            raise ValueError(f"{len(legal)} legal actions do not fit the trace alphabet")
        counts.append(ALPHABET[len(legal)])
        action = legal[rng.randrange(len(legal))]
        taken.append(state.action_to_string(action))
        state.apply(action)
    return {"players": players, "seed": seed, "mode": mode, "legal_counts": "".join(counts),
            "actions": ";".join(taken), "moves": state.move_count, "scores": state.scores(),
            "breakdown": state.score_breakdown(), "comfort": state.comfort(), "winner": list(state.winners())}


def path_for(mode: str) -> Path:
    return GOLDEN_DIR / f"{mode}.json"


def make(mode: str) -> dict[str, Any]:
    return {
        "format": "borabora_sim.bamboo.golden_traces",
        "components": rules_for().fingerprint,
        "mode": mode,
        "alphabet": ALPHABET,
        "games": [play_trace(players, seed, mode) for players in PLAYER_COUNTS for seed in SEEDS],
    }


def main() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for mode in MODES:
        data = make(mode)
        games = data.pop("games")
        header = json.dumps(data)[:-1]  # one game per line keeps diffs readable
        path_for(mode).write_text(header + ', "games": [\n' + ",\n".join(json.dumps(g) for g in games) + "\n]}\n")
        print(f"wrote {path_for(mode)}")


if __name__ == "__main__":
    main()
