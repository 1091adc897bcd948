"""Bora Bora's public API contract: observations, the compiled engine, user component files and the arguments only
its engine takes. The API every game shares (new_game's arguments, illegal actions, action names, seats, seeds and
counts): tests/test_state_api.py. Saved states of every game, their validation, pickling and copies:
tests/test_saved_states.py."""

from __future__ import annotations

import importlib.machinery
import json
from typing import Any

import pytest
from conftest import played

import borabora_sim
from borabora_sim import (
    NUM_ACTIONS,
    State,
    _engine,
    load_components,
    new_game,
)

from scenario import PHASE, edited, names, set_decision

Raw = dict[str, Any]


@pytest.fixture
def midgame() -> State:
    state = played("bora_bora", 4, 11, 80)
    assert not state.is_terminal() and state.round >= 2
    return state


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
def test_step_random_refuses_a_float_count(midgame: State) -> None:
    before = midgame.to_dict()
    with pytest.raises((TypeError, ValueError), match=r"must be"):
        midgame.step_random(0.5)
    assert midgame.to_dict() == before


def test_the_engines_derive_seed_refuses_a_negative_seed() -> None:
    with pytest.raises(ValueError, match=r"must be"):
        _engine.derive_seed(-1, 0)




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
