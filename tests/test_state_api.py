"""The Python surface every compiled game shares, tested for each game of `game_names()`: the arguments of
new_game (player counts, seeds), of observation, determinize and random_playouts (any integer, never bool or
float), illegal actions (IllegalActionError naming the legal ones, the state unchanged), action names, and the
shape of the compiled random playouts. What only one game's API holds: tests/test_api.py (Bora Bora) and
tests/test_bamboo_api.py (Bamboo)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from conftest import first_position, played

from borabora_sim.errors import ArgumentTypeError, IllegalActionError
from borabora_sim.games import game_names, get_game

# Where each game's new state waits: (phase, decision, round).
FIRST_DECISION = {
    "bora_bora": ("setup", "setup_hut", 1),
    "bamboo": ("setup", "draft", 1),
    "pig": ("play", "roll_or_hold", 1),
}


def test_every_game_has_its_first_decision_in_the_table() -> None:
    assert set(FIRST_DECISION) == set(game_names())


def package(name: str) -> ModuleType:
    """The game's package, borabora_sim.games.<name>: new_game, rules_for, random_playouts, SOURCES."""
    return importlib.import_module(f"borabora_sim.games.{name}")


@pytest.fixture(params=game_names())
def name(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def midgame(name: str) -> Any:
    state = played(name, 4, 11, 80)
    assert not state.is_terminal() and state.round >= 2
    return state


# =============================================================================
# new_game arguments
# =============================================================================
@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_accepts_2_3_or_4_players(name: str, players: int) -> None:
    state = package(name).new_game(players, 1)
    assert state.num_players == players
    assert (state.phase, state.decision, state.round) == FIRST_DECISION[name]


@pytest.mark.parametrize("players", [1, 5, 0, "4", True, 4.0, None])
def test_new_game_rejects_player_counts_other_than_2_3_or_4(name: str, players: object) -> None:
    with pytest.raises(ValueError, match=r"players must be 2, 3 or 4"):
        package(name).new_game(players, 1)


@pytest.mark.parametrize("players", ["4", True, 4.0, None])
def test_a_player_count_of_another_type_is_an_argument_type_error(name: str, players: object) -> None:
    with pytest.raises(ArgumentTypeError):
        package(name).new_game(players, 1)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "3", True, [1]])
def test_new_game_rejects_seeds_outside_0_to_2_pow_64(name: str, seed: object) -> None:
    with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
        package(name).new_game(2, seed)


@pytest.mark.parametrize("seed", [0, 2**64 - 1])
def test_new_game_accepts_seeds_at_both_ends_of_the_range(name: str, seed: int) -> None:
    new_game = package(name).new_game
    assert new_game(2, seed).to_dict() == new_game(2, seed).to_dict()


def test_new_game_is_reproducible_by_seed(name: str) -> None:
    new_game = package(name).new_game
    assert new_game(4, 11).to_dict() == new_game(4, 11).to_dict()
    assert new_game(4, 11).to_dict() != new_game(4, 12).to_dict()


def test_new_game_without_seed_draws_one(name: str) -> None:
    assert package(name).new_game(2).check_invariants() is None


# =============================================================================
# apply: errors name the legal actions and leave the state unchanged
# =============================================================================
def assert_lists_legal(message: str, state: Any) -> None:
    assert "legal: " in message
    for a in state.legal_actions():
        assert f"{a} ({state.action_to_string(a)})" in message


def test_apply_of_an_illegal_action_lists_the_legal_actions(name: str, midgame: Any) -> None:
    before = midgame.to_dict()
    illegal = set(range(get_game(name).num_actions)) - set(midgame.legal_actions())
    if not illegal:         # Pig: roll and hold are its only actions, both legal at every decision
        pytest.skip(f"every action of {name} is legal at this position: only an out-of-range one is illegal")
    action = min(illegal)
    with pytest.raises(IllegalActionError) as error:
        midgame.apply(action)
    assert_lists_legal(str(error.value), midgame)
    assert f"player {midgame.current_player}" in str(error.value)
    assert midgame.to_dict() == before


@pytest.mark.parametrize("beyond", [-1, 0, 1000, 2**40])
def test_apply_of_an_out_of_range_action_lists_the_legal_actions(name: str, midgame: Any, beyond: int) -> None:
    """`beyond` counts from the game's number of actions (-1 itself: below the range)."""
    count = get_game(name).num_actions
    action = -1 if beyond == -1 else count + beyond
    before = midgame.to_dict()
    with pytest.raises(IllegalActionError, match=rf"action {action} is outside \[0, {count}\)") as error:
        midgame.apply(action)
    assert_lists_legal(str(error.value), midgame)
    assert midgame.to_dict() == before


def test_apply_after_the_end_says_the_game_is_over(name: str) -> None:
    state = played(name, 2, 3)
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(get_game(name).num_actions - 1)


@pytest.mark.parametrize("action", ["3", None, [1], b"1", "done"])
def test_apply_rejects_a_non_int_action_and_leaves_the_state_unchanged(midgame: Any, action: object) -> None:
    before = midgame.to_dict()
    with pytest.raises(IllegalActionError, match="must be an int"):
        midgame.apply(action)
    assert midgame.to_dict() == before


@pytest.mark.parametrize("offset", [0.0, 0.5])
def test_apply_rejects_a_float_action_and_leaves_the_state_unchanged(midgame: Any, offset: float) -> None:
    before = midgame.to_dict()
    with pytest.raises(IllegalActionError):
        midgame.apply(midgame.legal_actions()[0] + offset)
    assert midgame.to_dict() == before


def test_apply_rejects_a_bool_action(name: str) -> None:
    state = first_position(name, 3, lambda s: 1 in s.legal_actions())
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(True)
    assert state.to_dict() == before


@pytest.mark.parametrize("action", ["3", None])
def test_apply_of_a_non_int_action_lists_the_legal_actions(midgame: Any, action: object) -> None:
    with pytest.raises(IllegalActionError) as error:
        midgame.apply(action)
    assert_lists_legal(str(error.value), midgame)


def test_apply_accepts_numpy_integer_actions(midgame: Any) -> None:
    action = midgame.legal_actions()[-1]
    original, twin = midgame.clone(), midgame.clone()
    twin.apply(action)
    midgame.apply(np.int64(action))
    assert midgame == twin and midgame != original


def test_apply_of_a_numpy_array_says_an_action_is_one_integer_and_changes_nothing(name: str) -> None:
    """state.apply(np.array([a])) raised a bare TypeError in both games; it is an ArgumentTypeError (a TypeError and
    a ValueError) saying an action is one integer and what was given. A numpy integer, or a 0-d array, is one."""
    state = package(name).new_game(2, 3)
    before = state.to_dict()
    action = state.legal_actions()[0]
    for given in (np.array([action]), np.array([action, action]), np.array([], dtype=np.int64)):
        with pytest.raises(ArgumentTypeError, match=r"an action is one integer, got ndarray array\(\[.*\]"):
            state.apply(given)
        with pytest.raises(ArgumentTypeError, match=r"an action is one integer in \[0, \d+\), got ndarray"):
            state.action_to_string(given)
    assert state.to_dict() == before
    twin = state.clone()
    twin.apply(action)
    state.apply(np.array(action))
    assert state == twin


# =============================================================================
# Action names
# =============================================================================
def test_action_to_string_and_from_string_are_inverse_for_every_action_id(name: str, midgame: Any) -> None:
    count = get_game(name).num_actions
    labels = [midgame.action_to_string(a) for a in range(count)]
    assert len(set(labels)) == count
    for a, label in enumerate(labels):
        assert midgame.action_from_string(label) == a
        assert midgame.action_from_string(f"  {label} ") == a


@pytest.mark.parametrize("beyond", [-1, 0])
def test_action_to_string_rejects_ids_out_of_range(name: str, midgame: Any, beyond: int) -> None:
    count = get_game(name).num_actions
    with pytest.raises(IllegalActionError, match=rf"\[0, {count}\)"):
        midgame.action_to_string(-1 if beyond == -1 else count + beyond)


@pytest.mark.parametrize("label", ["dance on the beach", "fly away"])
def test_action_from_string_of_an_unknown_name_lists_the_legal_names(midgame: Any, label: str) -> None:
    with pytest.raises(IllegalActionError, match="unknown action name") as error:
        midgame.action_from_string(label)
    for a in midgame.legal_actions():
        assert repr(midgame.action_to_string(a)) in str(error.value)


# =============================================================================
# Seats, seeds and counts: any integer, never bool or float
# =============================================================================
@pytest.mark.parametrize("player", [-1, 4])
def test_observation_and_determinize_reject_unknown_seats(midgame: Any, player: int) -> None:
    with pytest.raises(ValueError, match=r"player must be an integer in \[0, 3\]"):
        midgame.observation(player)
    with pytest.raises(ValueError, match=r"player must be an integer in \[0, 3\]"):
        midgame.determinize(player, 1)


def test_numpy_and_index_integers_are_accepted_for_counts_seeds_seats_and_actions(name: str, midgame: Any) -> None:
    class Seat:
        def __index__(self) -> int:
            return 1

    state = package(name).new_game(np.int8(3), np.uint64(2**64 - 1))
    assert state.num_players == 3
    assert state.to_dict() == package(name).new_game(3, 2**64 - 1).to_dict()
    assert midgame.observation(Seat())["viewer"] == 1
    assert midgame.determinize(np.int64(2), np.uint32(9)).check_invariants() is None
    last = get_game(name).num_actions - 1
    assert midgame.action_to_string(np.int16(last)) == midgame.action_to_string(last)


REFUSED: dict[str, Callable[[ModuleType, Any], object]] = {
    "players_bool": lambda m, s: m.new_game(True, 1),
    "players_float": lambda m, s: m.new_game(2.0, 1),
    "seed_float": lambda m, s: m.new_game(2, 1.0),
    "seat_bool": lambda m, s: s.observation(True),
    "seat_float": lambda m, s: s.determinize(1.0, 1),
    "seed_bool": lambda m, s: s.determinize(1, False),
    "action_bool": lambda m, s: s.action_to_string(True),
    "games_float": lambda m, s: m.random_playouts(m.rules_for(), 2.0, 4, 0),
    "playout_seed_bool": lambda m, s: m.random_playouts(m.rules_for(), 2, 4, True),
}


@pytest.mark.parametrize("call", REFUSED.values(), ids=REFUSED.keys())
def test_bool_and_float_are_refused_where_an_integer_is_expected(name: str, midgame: Any, call: Callable) -> None:
    with pytest.raises((TypeError, ValueError), match=r"must be"):
        call(package(name), midgame.clone())


OUT_OF_RANGE: dict[str, Callable[[ModuleType], object]] = {
    "seed_2_pow_64": lambda m: m.new_game(2, 2**64),
    "seed_negative": lambda m: m.new_game(2, -1),
    "games_negative": lambda m: m.random_playouts(m.rules_for(), -1, 4, 0),
    "playout_seed_2_pow_64": lambda m: m.random_playouts(m.rules_for(), 1, 4, 2**64),
}


@pytest.mark.parametrize("call", OUT_OF_RANGE.values(), ids=OUT_OF_RANGE.keys())
def test_out_of_range_integers_raise_a_value_error_not_an_overflow_error(name: str, call: Callable) -> None:
    with pytest.raises(ValueError, match=r"must be"):
        call(package(name))


def test_derive_seed_refuses_a_negative_seed(name: str) -> None:
    with pytest.raises(ValueError, match=r"must be"):
        get_game(name).derive_seed(-1, 0)


# =============================================================================
# Random playouts in compiled code
# =============================================================================
def test_random_playouts_in_compiled_code(name: str) -> None:
    game = package(name)
    out = game.random_playouts(game.rules_for(), 50, 4, 7)
    assert out["scores"].shape == (50, 4) and out["breakdown"].shape == (50, 4, len(game.SOURCES))
    assert (out["breakdown"].sum(axis=2) == out["scores"]).all()
    assert (out["ranks"].min(axis=1) == 1).all()
    assert (out["decisions"] > 0).all() and (out["moves"] >= out["decisions"]).all()
    again = game.random_playouts(game.rules_for(), 50, 4, 7)
    assert all((out[k] == again[k]).all() for k in out)
    with pytest.raises(ValueError, match="players"):
        game.random_playouts(game.rules_for(), 1, 5, 7)
