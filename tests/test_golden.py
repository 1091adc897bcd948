"""Golden traces: fixed random games of every game replayed against the files of tests/data/ (make_golden.GOLDEN
lists them: Bora Bora's seeds 0..5, Bamboo's seeds 0..2 in normal and advanced mode, for 2, 3 and 4 players).

Each game takes `legal[rng.randrange(len(legal))]` at every decision with `rng = random.Random(seed)`. A file pins
the number of legal actions at every decision, the number of applied actions, the final scores and what its game
adds (the winner; Bamboo's files also the name of every action taken, the score breakdown, the comfort totals and
the winners), so any change of behaviour shows up here with the first decision that differs.

The files are regenerated only on purpose, after a deliberate rule (or component data) change, with
`PYTHONPATH=. python tests/make_golden.py [game ...]`, and the reason goes in the commit message. A failure here
is otherwise a regression to be fixed in the engine, not in the files.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from make_golden import GOLDEN, Golden

from borabora_sim.games import game_names, get_game

FILES = {golden.label: json.loads(golden.path.read_text()) for golden in GOLDEN}
TRACES = [(golden, game) for golden in GOLDEN for game in FILES[golden.label]["games"]]


def test_every_game_has_golden_traces() -> None:
    assert {golden.game for golden in GOLDEN} == set(game_names())


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda golden: golden.label)
def test_golden_file_covers_its_seeds_for_every_player_count(golden: Golden) -> None:
    data = FILES[golden.label]
    assert data["format"] == golden.format and data["alphabet"] == golden.alphabet
    assert {key: data[key] for key in golden.tags} == golden.tags
    players = get_game(golden.spec).player_counts
    assert sorted((g["players"], g["seed"]) for g in data["games"]) == [(p, s) for p in players for s in golden.seeds]
    assert all({key: g[key] for key in golden.tags} == golden.tags for g in data["games"])


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda golden: golden.label)
def test_golden_file_matches_the_builtin_components(golden: Golden) -> None:
    assert FILES[golden.label]["components"] == get_game(golden.spec).rules.fingerprint, (
        f"the built-in component data of {golden.game} changed: regenerate its golden files on purpose "
        f"(tests/make_golden.py {golden.game})")


@pytest.mark.parametrize(("golden", "game"), TRACES,
                         ids=[f"{golden.label}-{game['players']}p-seed{game['seed']}" for golden, game in TRACES])
def test_replay_matches_golden_trace(golden: Golden, game: dict[str, Any]) -> None:
    alphabet = golden.alphabet
    expected = game["legal_counts"]
    taken = game["actions"].split(";") if golden.names else None
    assert taken is None or len(taken) == len(expected)
    state = get_game(golden.spec).new_initial_state(players=game["players"], seed=game["seed"])
    rng = random.Random(game["seed"])
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert step < len(expected), f"the game goes on past the {len(expected)} recorded decisions"
        assert alphabet.index(expected[step]) == len(legal), (
            f"decision {step} ({state.phase}, {state.decision}): {len(legal)} legal actions, golden "
            f"{alphabet.index(expected[step])}; legal now: {[state.action_to_string(a) for a in legal]}")
        action = legal[rng.randrange(len(legal))]
        if taken is not None:
            assert state.action_to_string(action) == taken[step], (
                f"decision {step} ({state.phase}, {state.decision}): took {state.action_to_string(action)!r}, "
                f"golden {taken[step]!r}")
        state.apply(action)
        step += 1
    assert step == len(expected), f"the game ended after {step} decisions, golden {len(expected)}"
    assert state.move_count == game["moves"]
    assert state.scores() == game["scores"]
    finals = golden.finals(state)
    assert finals == {key: game[key] for key in finals}
    if "breakdown" in game:
        assert [sum(b.values()) for b in game["breakdown"]] == game["scores"]
