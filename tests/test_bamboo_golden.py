"""Bamboo golden traces: fixed random games replayed against tests/data/bamboo_golden/.

Each game (seeds 0..2, 2-4 players, normal and advanced mode) takes `legal[rng.randrange(len(legal))]` at every
decision with `rng = random.Random(seed)`. The files pin the number of legal actions at every decision, the name of
every action taken, the number of applied actions, the final scores, the score breakdown, the comfort totals and
the winner, so any change of behaviour shows up here with the first decision that differs.

The files are regenerated only on purpose, after a deliberate rule (or component data) change, with
`python tests/make_bamboo_golden.py`, and the reason goes in the commit message. A failure here is otherwise a
regression to be fixed in the engine, not in the files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from borabora_sim.games.bamboo import new_game, rules_for

GOLDEN_DIR = Path(__file__).with_name("data") / "bamboo_golden"
MODES = ("normal", "advanced")
GOLDEN = {mode: json.loads((GOLDEN_DIR / f"{mode}.json").read_text()) for mode in MODES}
GAMES = [game for mode in MODES for game in GOLDEN[mode]["games"]]


@pytest.mark.parametrize("mode", MODES)
def test_golden_files_cover_seeds_0_to_2_for_2_3_and_4_players(mode: str) -> None:
    data = GOLDEN[mode]
    assert data["format"] == "borabora_sim.bamboo.golden_traces" and data["mode"] == mode
    assert sorted((g["players"], g["seed"]) for g in data["games"]) == [(p, s) for p in (2, 3, 4) for s in range(3)]
    assert all(g["mode"] == mode for g in data["games"])


def test_golden_files_match_the_builtin_components() -> None:
    for mode in MODES:
        assert GOLDEN[mode]["components"] == rules_for().fingerprint, (
            "the built-in component data changed: regenerate the golden files on purpose "
            "(tests/make_bamboo_golden.py)")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g['mode']}-{g['players']}p-seed{g['seed']}")
def test_replay_matches_golden_trace(game: dict[str, Any]) -> None:
    alphabet = GOLDEN[game["mode"]]["alphabet"]
    expected = game["legal_counts"]
    taken = game["actions"].split(";")
    assert len(taken) == len(expected)
    state = new_game(game["players"], game["seed"], mode=game["mode"])
    rng = random.Random(game["seed"])
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert step < len(expected), f"the game goes on past the {len(expected)} recorded decisions"
        assert alphabet.index(expected[step]) == len(legal), (
            f"decision {step} ({state.phase}, {state.decision}): {len(legal)} legal actions, golden "
            f"{alphabet.index(expected[step])}; legal now: {[state.action_to_string(a) for a in legal]}")
        action = legal[rng.randrange(len(legal))]
        assert state.action_to_string(action) == taken[step], (
            f"decision {step} ({state.phase}, {state.decision}): took {state.action_to_string(action)!r}, "
            f"golden {taken[step]!r}")
        state.apply(action)
        step += 1
    assert step == len(expected), f"the game ended after {step} decisions, golden {len(expected)}"
    assert state.move_count == game["moves"]
    assert state.scores() == game["scores"]
    assert state.score_breakdown() == game["breakdown"]
    assert [sum(b.values()) for b in game["breakdown"]] == game["scores"]
    assert state.comfort() == game["comfort"]
    assert list(state.winners()) == game["winner"]
