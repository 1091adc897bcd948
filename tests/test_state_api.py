"""The Python surface every game's states share, tested for each game of `game_names()` through its game object:
the arguments of new_initial_state (player counts, seeds), of observation, determinize and random_playouts (any
integer, never bool or float), illegal actions (IllegalActionError naming the legal ones, the state unchanged),
action names, and the shape of the random playouts. What only one game's API holds: tests/test_api.py (Bora Bora)
and tests/test_bamboo_api.py (Bamboo)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import first_position, played, random_game_position, sample

from borabora_sim.errors import ArgumentTypeError, IllegalActionError
from borabora_sim.games import game_names, get_game
from borabora_sim.protocol import Game


@pytest.fixture(params=game_names())
def name(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def game(name: str) -> Game:
    return get_game(name)


@pytest.fixture
def midgame(game: Game) -> Any:
    """Half way through a random game of the game's most players."""
    return random_game_position(game, max(game.player_counts), 11)


def either(counts: tuple[int, ...]) -> str:
    """The player counts as the refusal words them: "2, 3 or 4"."""
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}" if len(counts) > 1 else str(counts[0])


def loads_back(game: Game, state: Any) -> bool:
    """Whether `state` saves and loads back the same: the game checks its laws on every state it loads."""
    return bool(game.state_from_dict(state.to_dict()) == state)


# =============================================================================
# new_initial_state arguments
# =============================================================================
def test_a_new_game_waits_on_a_decision_of_the_game_for_every_player_count(game: Game) -> None:
    for players in game.player_counts:
        state = game.new_initial_state(players, 1)
        assert state.num_players == players and not state.is_terminal()
        assert state.phase in game.phases and state.phase != "end" and state.decision in game.decisions


def test_a_new_game_waits_on_the_decision_its_game_starts_with(name: str, game: Game) -> None:
    phase, decision, first_round = sample(name, "FIRST_DECISION", "first decision")
    for players in game.player_counts:
        state = game.new_initial_state(players, 1)
        assert (state.phase, state.decision, state.round) == (phase, decision, first_round)


def counts_refused(game: Game) -> list[object]:
    """Player counts the game does not allow: those just beyond its own, none, and counts of another type."""
    counts = game.player_counts
    return [min(counts) - 1, max(counts) + 1, 0, str(max(counts)), True, float(max(counts))]


def test_new_initial_state_rejects_player_counts_the_game_does_not_allow(game: Game) -> None:
    for players in counts_refused(game):
        with pytest.raises(ValueError, match=rf"^players must be {either(game.player_counts)}, got "):
            game.new_initial_state(players, 1)


def test_a_player_count_of_another_type_is_an_argument_type_error(game: Game) -> None:
    for players in (str(max(game.player_counts)), True, float(max(game.player_counts)), [2]):
        with pytest.raises(ArgumentTypeError):
            game.new_initial_state(players, 1)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "3", True, [1]])
def test_new_initial_state_rejects_seeds_outside_0_to_2_pow_64(game: Game, seed: object) -> None:
    with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\)"):
        game.new_initial_state(min(game.player_counts), seed)


@pytest.mark.parametrize("seed", [0, 2**64 - 1])
def test_new_initial_state_accepts_seeds_at_both_ends_of_the_range(game: Game, seed: int) -> None:
    players = min(game.player_counts)
    assert game.new_initial_state(players, seed).to_dict() == game.new_initial_state(players, seed).to_dict()


def test_new_initial_state_is_reproducible_by_seed(game: Game) -> None:
    players = max(game.player_counts)
    assert game.new_initial_state(players, 11).to_dict() == game.new_initial_state(players, 11).to_dict()
    assert game.new_initial_state(players, 11).to_dict() != game.new_initial_state(players, 12).to_dict()


def test_new_initial_state_without_seed_draws_one(game: Game) -> None:
    assert loads_back(game, game.new_initial_state(min(game.player_counts)))


# =============================================================================
# apply: errors name the legal actions and leave the state unchanged
# =============================================================================
def assert_lists_legal(message: str, state: Any) -> None:
    assert "legal: " in message
    for a in state.legal_actions():
        assert f"{a} ({state.action_to_string(a)})" in message


def illegal_in(game: Game, state: Any) -> set[int]:
    """The actions of the game (in its range) that are not legal in `state`."""
    return set(range(game.num_actions)) - set(state.legal_actions())


def position_with_an_illegal_action(game: Game, midgame: Any) -> Any | None:
    """The mid-game position if an action of the game is not legal there, else the first position of 5 random games
    at which one is; None where every action is legal everywhere (as Pig's roll and hold: only an action out of
    range is illegal)."""
    if illegal_in(game, midgame):
        return midgame
    try:
        return first_position(game, min(game.player_counts), lambda s: bool(illegal_in(game, s)), seeds=range(5))
    except AssertionError:
        return None


def test_apply_of_an_illegal_action_lists_the_legal_actions(name: str, game: Game, midgame: Any) -> None:
    state = position_with_an_illegal_action(game, midgame)
    if state is None:
        pytest.skip(f"every action of {name} is legal at every position of 5 random games")
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as error:
        state.apply(min(illegal_in(game, state)))
    assert_lists_legal(str(error.value), state)
    assert f"player {state.current_player}" in str(error.value)
    assert state.to_dict() == before


@pytest.mark.parametrize("beyond", [-1, 0, 1000, 2**40])
def test_apply_of_an_out_of_range_action_lists_the_legal_actions(game: Game, midgame: Any, beyond: int) -> None:
    """`beyond` counts from the game's number of actions (-1 itself: below the range)."""
    count = game.num_actions
    action = -1 if beyond == -1 else count + beyond
    before = midgame.to_dict()
    with pytest.raises(IllegalActionError, match=rf"action {action} is outside \[0, {count}\)") as error:
        midgame.apply(action)
    assert_lists_legal(str(error.value), midgame)
    assert midgame.to_dict() == before


def test_apply_after_the_end_says_the_game_is_over(game: Game) -> None:
    state = played(game, min(game.player_counts), 3)
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(game.num_actions - 1)


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


def test_apply_rejects_a_bool_action(game: Game) -> None:
    state = first_position(game, max(game.player_counts), lambda s: 1 in s.legal_actions())
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


def test_apply_of_a_numpy_array_says_an_action_is_one_integer_and_changes_nothing(game: Game) -> None:
    """state.apply(np.array([a])) raised a bare TypeError in both games; it is an ArgumentTypeError (a TypeError and
    a ValueError) saying an action is one integer and what was given. A numpy integer, or a 0-d array, is one."""
    state = game.new_initial_state(min(game.player_counts), 3)
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
def test_action_to_string_and_from_string_are_inverse_for_every_action_id(game: Game, midgame: Any) -> None:
    count = game.num_actions
    labels = [midgame.action_to_string(a) for a in range(count)]
    assert len(set(labels)) == count
    for a, label in enumerate(labels):
        assert midgame.action_from_string(label) == a
        assert midgame.action_from_string(f"  {label} ") == a


@pytest.mark.parametrize("beyond", [-1, 0])
def test_action_to_string_rejects_ids_out_of_range(game: Game, midgame: Any, beyond: int) -> None:
    count = game.num_actions
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
def test_observation_and_determinize_reject_unknown_seats(midgame: Any) -> None:
    last = midgame.num_players - 1
    for player in (-1, last + 1):
        with pytest.raises(ValueError, match=rf"player must be an integer in \[0, {last}\]"):
            midgame.observation(player)
        with pytest.raises(ValueError, match=rf"player must be an integer in \[0, {last}\]"):
            midgame.determinize(player, 1)


def test_numpy_and_index_integers_are_accepted_for_counts_seeds_seats_and_actions(game: Game, midgame: Any) -> None:
    class Seat:
        def __index__(self) -> int:
            return 1

    players = max(game.player_counts)
    state = game.new_initial_state(np.int8(players), np.uint64(2**64 - 1))
    assert state.num_players == players
    assert state.to_dict() == game.new_initial_state(players, 2**64 - 1).to_dict()
    assert midgame.observation(Seat())["viewer"] == 1
    assert loads_back(game, midgame.determinize(np.int64(midgame.num_players - 1), np.uint32(9)))
    last = game.num_actions - 1
    assert midgame.action_to_string(np.int16(last)) == midgame.action_to_string(last)


# Calls given a bool or a float where an integer is expected, on the game and on a state of its most players.
REFUSED: dict[str, Callable[[Game, Any], object]] = {
    "players_bool": lambda g, s: g.new_initial_state(True, 1),
    "players_float": lambda g, s: g.new_initial_state(float(s.num_players), 1),
    "seed_float": lambda g, s: g.new_initial_state(s.num_players, 1.0),
    "seat_bool": lambda g, s: s.observation(True),
    "seat_float": lambda g, s: s.determinize(1.0, 1),
    "seed_bool": lambda g, s: s.determinize(1, False),
    "action_bool": lambda g, s: s.action_to_string(True),
    "games_float": lambda g, s: g.random_playouts(2.0, s.num_players, 0),
    "playout_seed_bool": lambda g, s: g.random_playouts(2, s.num_players, True),
}


@pytest.mark.parametrize("call", REFUSED.values(), ids=REFUSED.keys())
def test_bool_and_float_are_refused_where_an_integer_is_expected(game: Game, midgame: Any, call: Callable) -> None:
    with pytest.raises((TypeError, ValueError), match=r"must be"):
        call(game, midgame.clone())


# Calls given an integer out of their range, on the game.
OUT_OF_RANGE: dict[str, Callable[[Game], object]] = {
    "seed_2_pow_64": lambda g: g.new_initial_state(min(g.player_counts), 2**64),
    "seed_negative": lambda g: g.new_initial_state(min(g.player_counts), -1),
    "games_negative": lambda g: g.random_playouts(-1, min(g.player_counts), 0),
    "playout_seed_2_pow_64": lambda g: g.random_playouts(1, min(g.player_counts), 2**64),
}


@pytest.mark.parametrize("call", OUT_OF_RANGE.values(), ids=OUT_OF_RANGE.keys())
def test_out_of_range_integers_raise_a_value_error_not_an_overflow_error(game: Game, call: Callable) -> None:
    with pytest.raises(ValueError, match=r"must be"):
        call(game)


def test_derive_seed_refuses_a_negative_seed(game: Game) -> None:
    with pytest.raises(ValueError, match=r"must be"):
        game.derive_seed(-1, 0)


# =============================================================================
# Random playouts
# =============================================================================
def test_random_playouts(game: Game) -> None:
    players = max(game.player_counts)
    out = game.random_playouts(50, players, 7)
    assert out["scores"].shape == (50, players) and out["breakdown"].shape == (50, players, len(game.sources))
    assert (out["breakdown"].sum(axis=2) == out["scores"]).all()
    assert (out["ranks"].min(axis=1) == 1).all()
    assert (out["decisions"] > 0).all() and (out["moves"] >= out["decisions"]).all()
    again = game.random_playouts(50, players, 7)
    assert all((out[k] == again[k]).all() for k in out)
    with pytest.raises(ValueError, match="players"):
        game.random_playouts(1, max(game.player_counts) + 1, 7)
