"""Bora Bora's public API contract: argument checking, action errors and names, observations, the compiled engine
and user component files. Saved states of every game, their validation, pickling and copies:
tests/test_saved_states.py."""

from __future__ import annotations

import importlib.machinery
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import first_position, played

import borabora_sim
from borabora_sim import (
    NUM_ACTIONS,
    IllegalActionError,
    State,
    _engine,
    load_components,
    new_game,
    rules_for,
)

from scenario import PHASE, edited, names, set_decision

Raw = dict[str, Any]


@pytest.fixture
def midgame() -> State:
    state = played("bora_bora", 4, 11, 80)
    assert not state.is_terminal() and state.round >= 2
    return state


# =============================================================================
# new_game arguments
# =============================================================================
@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_accepts_2_3_or_4_players(players: int) -> None:
    state = new_game(players, 1)
    assert state.num_players == players
    assert (state.phase, state.decision, state.round) == ("setup", "setup_hut", 1)


@pytest.mark.parametrize("players", [1, 5, 0, "4", True, 4.0, None])
def test_new_game_rejects_player_counts_other_than_2_3_or_4(players: object) -> None:
    with pytest.raises(ValueError, match=r"players must be 2, 3 or 4"):
        new_game(players, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "3", True, [1]])
def test_new_game_rejects_seeds_outside_0_to_2_pow_64(seed: object) -> None:
    with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
        new_game(2, seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, 2**64 - 1])
def test_new_game_accepts_seeds_at_both_ends_of_the_range(seed: int) -> None:
    assert new_game(2, seed).to_dict() == new_game(2, seed).to_dict()


def test_new_game_without_seed_draws_one() -> None:
    assert new_game(2).check_invariants() is None


# =============================================================================
# apply: errors leave the state unchanged
# =============================================================================
def assert_lists_legal(message: str, state: State) -> None:
    for a in state.legal_actions():
        assert f"{a} ({state.action_to_string(a)})" in message


def test_apply_of_an_illegal_action_lists_the_legal_actions(midgame: State) -> None:
    before = midgame.to_dict()
    action = min(set(range(NUM_ACTIONS)) - set(midgame.legal_actions()))
    with pytest.raises(IllegalActionError) as error:
        midgame.apply(action)
    assert_lists_legal(str(error.value), midgame)
    assert f"player {midgame.current_player}" in str(error.value)
    assert midgame.to_dict() == before


@pytest.mark.parametrize("action", [
    -1, NUM_ACTIONS, NUM_ACTIONS + 1000,
    2**40,
])
def test_apply_of_an_out_of_range_action_lists_the_legal_actions(midgame: State, action: int) -> None:
    before = midgame.to_dict()
    with pytest.raises(IllegalActionError) as error:
        midgame.apply(action)
    assert_lists_legal(str(error.value), midgame)
    assert midgame.to_dict() == before


def test_apply_after_the_end_says_the_game_is_over() -> None:
    state = new_game(2, 3)
    state.step_random(3)
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(NUM_ACTIONS - 1)


@pytest.mark.parametrize("action", ["3", None, [1], b"1"])
def test_apply_rejects_a_non_int_action_and_leaves_the_state_unchanged(midgame: State, action: object) -> None:
    before = midgame.to_dict()
    with pytest.raises(IllegalActionError):
        midgame.apply(action)
    assert midgame.to_dict() == before


@pytest.mark.parametrize("offset", [0.0, 0.5])
def test_apply_rejects_a_float_action_and_leaves_the_state_unchanged(midgame: State, offset: float) -> None:
    before = midgame.to_dict()
    with pytest.raises(IllegalActionError):
        midgame.apply(midgame.legal_actions()[0] + offset)
    assert midgame.to_dict() == before


def test_apply_rejects_a_bool_action() -> None:
    state = first_position("bora_bora", 3, lambda s: 1 in s.legal_actions())
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(True)
    assert state.to_dict() == before


@pytest.mark.parametrize("action", ["3", None])
def test_apply_of_a_non_int_action_lists_the_legal_actions(midgame: State, action: object) -> None:
    with pytest.raises(IllegalActionError) as error:
        midgame.apply(action)
    assert_lists_legal(str(error.value), midgame)


def test_apply_accepts_numpy_integer_actions(midgame: State) -> None:
    action = midgame.legal_actions()[-1]
    twin = midgame.clone()
    twin.apply(action)
    midgame.apply(np.int64(action))
    assert midgame == twin


# =============================================================================
# Action names
# =============================================================================
def test_action_to_string_and_from_string_are_inverse_for_every_action_id(midgame: State) -> None:
    labels = [midgame.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(labels)) == NUM_ACTIONS
    for a, label in enumerate(labels):
        assert midgame.action_from_string(label) == a
        assert midgame.action_from_string(f"  {label} ") == a


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS])
def test_action_to_string_rejects_ids_out_of_range(midgame: State, action: int) -> None:
    with pytest.raises(IllegalActionError, match=rf"\[0, {NUM_ACTIONS}\)"):
        midgame.action_to_string(action)


def test_action_from_string_of_an_unknown_name_lists_the_legal_names(midgame: State) -> None:
    with pytest.raises(IllegalActionError) as error:
        midgame.action_from_string("dance on the beach")
    for label in names(midgame):
        assert repr(label) in str(error.value)


# =============================================================================
# Observation
# =============================================================================
def rotate(pile: list[int], start: int) -> None:
    pile[start], pile[start + 1] = pile[start + 1], pile[start]


def test_observation_hides_other_hands_pile_order_and_rng(midgame: State) -> None:
    raw = midgame.to_dict()["state"]
    for viewer in range(midgame.num_players):
        obs = midgame.observation(viewer)
        json.dumps(obs)
        assert obs["viewer"] == viewer
        assert "rng" not in obs
        assert not {"deck_top", "deck_end", "person_top", "task_top"} & set(obs)
        assert obs["god_deck"] == raw["deck_end"] - raw["deck_top"]
        assert obs["person_pile"] == [36 - top for top in raw["person_top"]]
        assert obs["task_pile"] == 53 - raw["task_top"]
        assert len(obs["pl"]) == midgame.num_players
        for seat, seen in enumerate(obs["pl"]):
            if seat == viewer:
                assert seen["hand"] == raw["pl"][seat]["hand"]
            else:
                assert seen["hand"] is None
                assert seen["hand_size"] == sum(raw["pl"][seat]["hand"])
                assert seen["known"] == raw["pl"][seat]["known"]


def test_observation_does_not_change_when_only_hidden_parts_change(midgame: State) -> None:
    viewer = midgame.current_player
    other = (viewer + 1) % midgame.num_players

    def reshuffle_hidden(raw: Raw) -> None:
        rotate(raw["person_pile"][0], raw["person_top"][0])
        rotate(raw["person_pile"][1], raw["person_top"][1])
        rotate(raw["task_pile"], raw["task_top"])
        raw["rng"] = format(int(raw["rng"], 16) ^ 0xFFFF, "016x")
        hand, known, deck = raw["pl"][other]["hand"], raw["pl"][other]["known"], raw["god_deck"]
        mine = next(c for c in range(5) if hand[c] > known[c])
        i = next(i for i in range(raw["deck_top"], raw["deck_end"]) if deck[i] != mine)
        hand[mine] -= 1
        hand[deck[i]] += 1
        deck[i] = mine

    changed = edited(midgame, reshuffle_hidden)
    assert changed.to_dict() != midgame.to_dict()
    assert changed.observation(viewer) == midgame.observation(viewer)
    assert changed.observation(other) != midgame.observation(other)


def test_the_public_observation_hides_every_hand_and_nothing_else(midgame: State) -> None:
    public = midgame.observation(None)
    assert public["viewer"] is None
    assert all(pl["hand"] is None for pl in public["pl"])
    for seat in range(midgame.num_players):
        seen = midgame.observation(seat)
        assert seen["pl"][seat]["hand"] is not None
        assert public["pl"][seat]["hand_size"] == sum(seen["pl"][seat]["hand"])
        own = dict(seen["pl"][seat], hand=None, hand_size=public["pl"][seat]["hand_size"])
        assert public == dict(seen, viewer=None, pl=[own if s == seat else pl for s, pl in enumerate(seen["pl"])])


@pytest.mark.parametrize("player", [-1, 4])
def test_observation_and_determinize_reject_unknown_seats(midgame: State, player: int) -> None:
    with pytest.raises(ValueError, match=r"player must be an integer in \[0, 3\]"):
        midgame.observation(player)
    with pytest.raises(ValueError, match=r"player must be an integer in \[0, 3\]"):
        midgame.determinize(player, 1)


# =============================================================================
# Engine build
# =============================================================================
def test_the_compiled_engine_is_the_one_under_test() -> None:
    assert borabora_sim.COMPILED is True
    assert _engine.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_state_struct_fits_in_2048_bytes() -> None:
    assert 0 < _engine.STATE_BYTES <= 2048


# =============================================================================
# User component files
# =============================================================================
def expansion_options(components: dict[str, Any] | None) -> list[str]:
    """Legal land expansions with strength 4 for seat 0 holding only region C_SE."""
    state = new_game(2, 5, components=components)
    ids = list(state.components.region_ids)
    c_se = ids.index("C_SE")

    def settle(raw: Raw) -> None:
        player = raw["pl"][0]
        player["regions"] = 1 << c_se
        player["reg_huts"] -= 1
        raw["region_owner"][c_se] = 0
        raw["phase"] = PHASE["A"]
        set_decision(raw, [("expand", 0, 4, 0)])

    return names(edited(state, settle))


def test_user_components_with_a_changed_path_value_change_the_legal_expansions() -> None:
    doc = load_components().to_json_dict()
    path = next(p for p in doc["paths"] if {p["a"], p["b"]} == {"C_SE", "C_NE"} and p["kind"] == "land")
    assert path["value"] == 4
    builtin = expansion_options(None)
    path["value"] = 5
    longer = expansion_options(doc)
    assert "region C_NE" in builtin and "region C_SW" in builtin
    assert "region C_NE" not in longer and "region C_SW" in longer


# =============================================================================
# Argument types, and objects that cannot be put in a state that crashes
# =============================================================================
def test_numpy_and_index_integers_are_accepted_for_counts_seeds_seats_and_actions(midgame: State) -> None:
    class Seat:
        def __index__(self) -> int:
            return 1

    state = new_game(np.int8(3), np.uint64(2**64 - 1))
    assert state.num_players == 3
    assert midgame.observation(Seat())["viewer"] == 1
    assert midgame.determinize(np.int64(2), np.uint32(9)).check_invariants() is None
    assert midgame.action_to_string(np.int16(215)) == "done"


@pytest.mark.parametrize("call", [
    lambda s: new_game(True, 1), lambda s: new_game(2.0, 1), lambda s: new_game(2, 1.0),
    lambda s: s.observation(True), lambda s: s.determinize(1.0, 1), lambda s: s.determinize(1, False),
    lambda s: s.step_random(0.5), lambda s: s.action_to_string(True),
    lambda s: borabora_sim.random_playouts(rules_for(), 2.0, 4, 0),
    lambda s: borabora_sim.random_playouts(rules_for(), 2, 4, True),
], ids=["players_bool", "players_float", "seed_float", "seat_bool", "seat_float", "seed_bool", "rollout_seed_float",
        "action_bool", "games_float", "playout_seed_bool"])
def test_bool_and_float_are_refused_where_an_integer_is_expected(midgame: State, call: Callable) -> None:
    with pytest.raises((TypeError, ValueError), match=r"must be"):
        call(midgame.clone())


@pytest.mark.parametrize("call", [
    lambda: new_game(2, 2**64), lambda: new_game(2, -1), lambda: borabora_sim.random_playouts(rules_for(), -1, 4, 0),
    lambda: borabora_sim.random_playouts(rules_for(), 1, 4, 2**64), lambda: _engine.derive_seed(-1, 0),
])
def test_out_of_range_integers_raise_a_value_error_not_an_overflow_error(call: Callable) -> None:
    with pytest.raises(ValueError, match=r"must be"):
        call()


def test_a_state_cannot_be_built_without_a_game() -> None:
    for build in (State, lambda: State.__new__(State), lambda: State(None)):
        with pytest.raises(TypeError, match=r"new_game"):
            build()


def test_compiled_entry_points_refuse_none_for_their_tables() -> None:
    with pytest.raises(TypeError, match=r"Rules"):
        borabora_sim.random_playouts(None, 3, 4, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Components"):
        _engine.Rules(None, "fingerprint")


def test_search_handles_keep_their_state_alive_and_are_checked(midgame: State) -> None:
    from borabora_sim import _search

    handles = midgame.clone().search_handles()          # the only reference to that clone is in the tuple
    done, stats = _search.run_mcts(handles, midgame.current_player, iterations=50, seed=1)
    assert done == 50 and {a for a, _, _ in stats} <= set(midgame.legal_actions())
    for seat in (7, 2**70, True):
        with pytest.raises(ValueError, match=r"root_player"):
            _search.run_mcts(handles, seat, iterations=10)
    with pytest.raises(ValueError, match=r"iterations"):
        _search.run_mcts(handles, midgame.current_player, iterations=2**70)
    with pytest.raises(ValueError, match=r"seed"):
        _search.run_flat_mc(handles, midgame.current_player, midgame.legal_actions(), rollouts=2, seed=-1)
    with pytest.raises(ValueError, match=r"legal actions"):
        _search.run_flat_mc(handles, midgame.current_player, [NUM_ACTIONS + 5], rollouts=2)
    with pytest.raises(ValueError, match=r"legal actions"):
        _search.run_mcts(handles, midgame.current_player, iterations=10, root_actions=[-1])
    with pytest.raises(TypeError, match=r"search_handles"):
        _search.run_mcts(handles[:3], midgame.current_player, iterations=10)
    swapped = (handles[0], handles[2], handles[1], handles[3])
    with pytest.raises(TypeError, match=r"rules"):
        _search.run_mcts(swapped, midgame.current_player, iterations=10)
