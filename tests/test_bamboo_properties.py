"""Property tests over random Bamboo games of 2, 3 and 4 players, on both sides of the boards.

Hypothesis draws the game seed and the seed of a `random.Random` that picks uniformly among the legal actions.
Stated bound: a game ends after fewer than MAX_MOVES applied actions (forced ones included); uniformly random games
need fewer than 700.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from borabora_sim import _bamboo
from borabora_sim.errors import StateFormatError
from borabora_sim.games.bamboo import new_game, rules_for

MAX_MOVES = 3000
SEEDS = st.integers(0, 2**64 - 1)
PLAYERS = st.sampled_from([2, 3, 4])
MODES = st.sampled_from(["normal", "advanced"])
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=SEEDS, pick=SEEDS, players=PLAYERS, mode=MODES)
def test_random_games_end_and_every_law_holds_after_every_action(seed: int, pick: int, players: int,
                                                                  mode: str) -> None:
    state = new_game(players, seed, mode=mode)
    rng = random.Random(pick)
    while not state.is_terminal():
        assert state.check_invariants() is None
        legal = state.legal_actions()
        assert len(legal) >= 2  # B38: a single option is taken automatically
        assert legal == sorted(legal)
        state.apply(rng.choice(legal))
        assert state.move_count < MAX_MOVES
    assert state.check_invariants() is None
    assert state.round == 4 and state.current_player == -1 and state.legal_actions() == []
    assert state.scores() == [sum(b.values()) for b in state.score_breakdown()]
    assert abs(sum(state.returns()) - 1.0) < 1e-12


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, pick=SEEDS, players=PLAYERS, mode=MODES)
def test_saved_states_load_back_and_determinize_keeps_what_is_seen(seed: int, pick: int, players: int,
                                                                   mode: str) -> None:
    """to_dict / from_dict round trip (through JSON) and determinize(p) keeping observation(p), every 7th action."""
    state = new_game(players, seed, mode=mode)
    rng = random.Random(pick)
    n = 0
    while not state.is_terminal():
        if n % 7 == 0:
            data = json.loads(json.dumps(state.to_dict()))
            loaded = _bamboo.State.from_dict(data, state.rules)
            assert loaded.to_dict() == state.to_dict() and loaded.legal_actions() == state.legal_actions()
            for p in range(players):
                sample = state.determinize(p, pick ^ p)
                assert sample.check_invariants() is None
                assert sample.observation(p) == state.observation(p)
                assert sample.legal_actions() == state.legal_actions()
            assert state.determinize(0, 5).to_dict() == state.determinize(players - 1, 5).to_dict()
        state.apply(rng.choice(state.legal_actions()))
        n += 1


@SETTINGS
@given(seed=SEEDS, pick=SEEDS, players=PLAYERS, cut=st.integers(0, 400))
def test_a_clone_is_independent_and_plays_the_same(seed: int, pick: int, players: int, cut: int) -> None:
    state = new_game(players, seed)
    rng = random.Random(pick)
    while not state.is_terminal() and state.move_count < cut:
        state.apply(rng.choice(state.legal_actions()))
    twin = state.clone()
    frozen = twin.to_dict()
    actions = []
    while not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply(actions[-1])
    assert twin.to_dict() == frozen
    for a in actions:
        twin.apply(a)
    assert twin == state


def _leaves(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    if isinstance(node, dict):
        return [p for key, value in node.items() for p in _leaves(value, (*path, key))]
    if isinstance(node, list):
        return [p for i, value in enumerate(node) for p in _leaves(value, (*path, i))]
    return [path]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, pick=SEEDS, players=PLAYERS, cut=st.integers(0, 500), field=st.integers(0, 10**6),
       value=st.sampled_from([1, -1, 2, 0, 255, -128]))
def test_a_changed_saved_state_is_refused_or_stays_playable(seed: int, pick: int, players: int, cut: int,
                                                            field: int, value: int) -> None:
    """B40: a saved state with one number changed either fails to load with StateFormatError, or plays to the end
    keeping every law."""
    state = new_game(players, seed)
    rng = random.Random(pick)
    while not state.is_terminal() and state.move_count < cut:
        state.apply(rng.choice(state.legal_actions()))
    data = state.to_dict()
    paths = [p for p in _leaves(data["state"]) if p[0] not in _bamboo.SEED_FIELDS]
    *parents, last = paths[field % len(paths)]
    node: Any = data["state"]
    for key in parents:
        node = node[key]
    node[last] = value if value in (0, 255, -128) else node[last] + value
    try:
        loaded = _bamboo.State.from_dict(data, rules_for())
    except StateFormatError:
        return
    while not loaded.is_terminal():
        loaded.apply(rng.choice(loaded.legal_actions()))
        assert loaded.check_invariants() is None
        assert loaded.move_count < MAX_MOVES + 30000
