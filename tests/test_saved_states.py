"""Saved states of every registered game: `to_dict` and `from_dict` give the state back (through JSON, pickling and
copies too), a saved state loads only with the component data it was played with, and a malformed one is refused
with a StateFormatError naming the field or the law it breaks: the fields every game's saved state has, then each
game's own table. A state is made only by its game or loaded, never built directly.

Saved states edited at random: tests/test_fuzz_state.py; what a loaded state of one game must satisfy beyond its
format: that game's rules and API tests (tests/test_api.py, tests/test_bamboo_api.py)."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from conftest import ACCEPTED, components_of, play_random, played

from borabora_sim.errors import StateFormatError
from borabora_sim.games import game_names, get_game

GAMES = game_names()
Edit = Callable[[dict[str, Any]], None]


@cache
def saved_midgame(name: str) -> dict[str, Any]:
    """A 4-player game of `name` after 80 random decisions, in its second round or later, saved."""
    state = played(name, 4, 11, 80)
    assert not state.is_terminal() and state.round >= 2
    return state.to_dict()


def midgame(name: str) -> Any:
    """A fresh copy of the saved mid-game state of `name`."""
    return get_game(name).state_from_dict(saved_midgame(name))


def put(target: dict[str, Any], key: str, value: Any) -> None:
    target[key] = value


def drop(raw: dict[str, Any], *path: Any) -> None:
    target: Any = raw
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]


def _duplicate_person_tile(data: dict[str, Any]) -> None:
    display = data["state"]["person_display"][0]
    assert display[0] != 255, "the scenario needs a tile to duplicate"
    display[1] = display[0]


# What every game's saved state is refused for: (name, edit, what the message names).
EVERY_GAME: list[tuple[str, Edit, str]] = [
    ("wrong_format", lambda d: put(d, "format", "chess.state"), "'format'"),
    ("wrong_version", lambda d: put(d, "version", 99), "'version'"),
    ("wrong_components", lambda d: put(d, "components", "0" * 16), "'components'"),
    ("state_not_object", lambda d: put(d, "state", [1, 2]), "'state'"),
    ("missing_field", lambda d: drop(d["state"], "round"), "missing ['round']"),
    ("unknown_field", lambda d: put(d["state"], "weather", 3), "unknown ['weather']"),
    ("value_beyond_type", lambda d: put(d["state"], "round", 300), "state.round"),
    ("string_value", lambda d: put(d["state"], "round", "2"), "state.round"),
    ("bool_value", lambda d: put(d["state"], "round", True), "state.round"),
    ("bad_rng", lambda d: put(d["state"], "rng", "not hex"), "state.rng"),
    ("unknown_top_level_key", lambda d: put(d, "current_player", 0),
     "unknown field(s) 'current_player'; a saved state has format, "),
]
# What each game's saved state is refused for besides.
OWN: dict[str, list[tuple[str, Edit, str]]] = {
    "bora_bora": [
        ("missing_player_field", lambda d: drop(d["state"], "pl", 1, "status"), "state.pl[1]"),
        ("short_list", lambda d: put(d["state"], "tile_low", d["state"]["tile_low"][:-1]), "state.tile_low"),
        ("short_player_list", lambda d: put(d["state"], "pl", d["state"]["pl"][:-1]), "state.pl"),
        ("nested_wrong_shape", lambda d: put(d["state"], "person_pile", [[0] * 36]), "state.person_pile"),
        ("float_value", lambda d: put(d["state"]["pl"][0], "shells", 1.0), "state.pl[0].shells"),
        ("round_out_of_range", lambda d: put(d["state"], "round", 7), "round"),
        ("status_out_of_range", lambda d: put(d["state"]["pl"][0], "status", 16), "status"),
        ("negative_vp", lambda d: d["state"]["pl"][0]["vp"].__setitem__(0, -1), "victory points"),
        ("thirteen_huts", lambda d: put(d["state"]["pl"][0], "reg_huts", d["state"]["pl"][0]["reg_huts"] + 1),
         "huts"),
        ("five_priests", lambda d: put(d["state"], "temple", [0, 0, 0, 0, 0, -1]), "priests"),
        ("thirteen_cards_of_a_colour", lambda d: d["state"]["discard"].__setitem__(0, d["state"]["discard"][0] + 1),
         "God cards"),
        ("duplicate_person_tile", _duplicate_person_tile, "person tiles"),
        ("empty_stack_mid_game", lambda d: put(d["state"], "sp", 0), "stack: the pending decisions"),
    ],
    "bamboo": [
        ("coins_beyond_type", lambda d: put(d["state"]["pl"][0], "coins", 300), "state.pl[0].coins"),
        ("an_incense_stick_too_many", lambda d: put(d["state"]["pl"][0], "incense", d["state"]["pl"][0]["incense"] + 1),
         "incense"),
        ("a_food_counter_too_many", lambda d: d["state"]["food_display"].__setitem__(
            0, d["state"]["food_display"][0] + 1), "food"),
    ],
    "pig": [
        ("the_goal_banked_mid_game", lambda d: d["state"]["pl"][0]["score"].__setitem__(0, 100), "scores"),
        ("no_pending_decision", lambda d: put(d["state"], "sp", 0), "stack"),
        ("a_roll_of_seven", lambda d: put(d["state"], "last_roll", 7), "the roll"),
        ("the_wrong_seat_to_move", lambda d: d["state"]["stack"][0].update(
            player=(d["state"]["stack"][0]["player"] + 1) % 4), "turn order"),
        ("a_hold_never_made", lambda d: put(d["state"]["pl"][1], "holds", d["state"]["pl"][1]["holds"] + 1),
         "counters"),
    ],
}
MALFORMED = [pytest.param(name, edit, named, id=f"{name}-{case}") for name in GAMES
             for case, edit, named in EVERY_GAME + OWN.get(name, [])]


def test_every_game_has_its_malformed_states_here() -> None:
    assert set(OWN) == set(GAMES)


@pytest.mark.parametrize(("name", "edit", "named"), MALFORMED)
def test_from_dict_rejects_malformed_state_naming_the_field(name: str, edit: Edit, named: str) -> None:
    data = copy.deepcopy(saved_midgame(name))
    edit(data)
    with pytest.raises(StateFormatError) as error:
        get_game(name).state_from_dict(data)
    assert named in str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("data", [None, "state", [1], 3])
def test_from_dict_rejects_non_dict_input(name: str, data: object) -> None:
    with pytest.raises(StateFormatError, match="must be a dict"):
        get_game(name).state_from_dict(data)


@pytest.mark.parametrize("name", GAMES)
def test_from_dict_accepts_its_own_output_through_json(name: str) -> None:
    state = midgame(name)
    assert type(state).from_dict(state.to_dict(), state.rules) == state
    loaded = get_game(name).state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert loaded == state
    assert loaded.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_a_state_saved_with_user_components_needs_them_to_load(name: str) -> None:
    doc = components_of(name).to_json_dict()
    ACCEPTED[name].apply(doc)
    components = components_of(name, doc)
    state = get_game(name, components=components).new_initial_state(3, 8)
    data = state.to_dict()
    with pytest.raises(StateFormatError, match="'components'"):
        type(state).from_dict(data, get_game(name).rules)
    with pytest.raises(StateFormatError, match="'components'"):
        get_game(name).state_from_dict(data)
    assert type(state).from_dict(data, state.rules).to_dict() == data
    assert get_game(name, components=components).state_from_dict(data).to_dict() == data


@pytest.mark.parametrize("name", GAMES)
def test_pickled_state_round_trips(name: str) -> None:
    state = midgame(name)
    copied = pickle.loads(pickle.dumps(state))
    assert copied == state and copied.to_dict() == state.to_dict()
    action = state.legal_actions()[0]
    copied.apply(action)
    state.apply(action)
    assert copied == state


@pytest.mark.parametrize("name", GAMES)
def test_copy_deepcopy_and_clone_give_independent_states(name: str) -> None:
    state = midgame(name)
    before = state.to_dict()
    for twin in (copy.copy(state), copy.deepcopy(state), state.clone()):
        assert twin == state
        twin.apply(twin.legal_actions()[0])
        assert state.to_dict() == before
    twin = state.clone()
    play_random(state, 9, 20)
    assert twin.to_dict() == before and copy.deepcopy(twin) == twin


@pytest.mark.parametrize("name", GAMES)
def test_a_state_cannot_be_built_directly_only_by_its_game_or_from_dict(name: str) -> None:
    state_type = get_game(name).state_type
    with pytest.raises(TypeError, match=rf"cannot be built directly: use borabora_sim\.(games\.{name}\.)?new_game"):
        state_type()
    assert get_game(name).new_initial_state(players=2, seed=1).clone().num_players == 2
