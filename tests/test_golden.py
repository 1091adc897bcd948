"""Golden traces: fixed random games replayed against tests/data/golden_traces.json.

Each game (seeds 0..5, 2-4 players) takes `legal[rng.randrange(len(legal))]` at every decision with
`rng = random.Random(seed)`. The file pins the number of legal actions at every decision, the number of applied
actions, the final scores and the winner, so any change of behaviour shows up here with the first decision
that differs.

The golden file is regenerated only on purpose, after a deliberate rule (or component data) change, with
`PYTHONPATH=. python tests/make_golden.py`, and the reason goes in the commit message. A failure here is
otherwise a regression to be fixed in the engine, not in the file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import borabora_sim

GOLDEN = json.loads((Path(__file__).with_name("data") / "golden_traces.json").read_text())


def test_golden_file_covers_seeds_0_to_5_for_2_3_and_4_players() -> None:
    assert GOLDEN["format"] == "borabora_sim.golden_traces"
    assert sorted((g["players"], g["seed"]) for g in GOLDEN["games"]) == [
        (p, s) for p in (2, 3, 4) for s in range(6)]


def test_golden_file_matches_the_builtin_components() -> None:
    assert GOLDEN["components"] == borabora_sim.rules_for().fingerprint, (
        "the built-in component data changed: regenerate the golden file on purpose (tests/make_golden.py)")


@pytest.mark.parametrize("game", GOLDEN["games"], ids=lambda g: f"{g['players']}p-seed{g['seed']}")
def test_replay_matches_golden_trace(game: dict[str, Any]) -> None:
    alphabet = GOLDEN["alphabet"]
    expected = game["legal_counts"]
    state = borabora_sim.new_game(game["players"], game["seed"])
    rng = random.Random(game["seed"])
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert step < len(expected), f"the game goes on past the {len(expected)} recorded decisions"
        assert alphabet.index(expected[step]) == len(legal), (
            f"decision {step} ({state!r}): {len(legal)} legal actions, golden {alphabet.index(expected[step])}; "
            f"legal now: {[state.action_to_string(a) for a in legal]}")
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    assert step == len(expected), f"the game ended after {step} decisions, golden {len(expected)}"
    assert state.move_count == game["moves"]
    assert state.scores() == game["scores"]
    assert state.winner() == game["winner"]
