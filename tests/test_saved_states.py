"""Saved states of every registered game: `to_dict` and `from_dict` give the state back (through JSON, pickling and
copies too), a saved state loads only with the component data it was played with, and a malformed one is refused
with a StateFormatError naming the field or the law it breaks: the fields every game's saved state has, those of
every compiled game's, then each game's own (BAD_STATES of its samples). A state is made only by its game or loaded,
never built directly.

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
from conftest import accepted_change, components_of, play_random, random_game_position, sample_params

from borabora_sim.errors import StateFormatError
from borabora_sim.games import game_names, get_game
from borabora_sim.protocol import CompiledState

GAMES = game_names()
Edit = Callable[[dict[str, Any]], object]


@cache
def saved_midgame(name: str) -> dict[str, Any]:
    """A game of `name` of its most players, half way through a random game, saved."""
    game = get_game(name)
    return random_game_position(game, max(game.player_counts), 11).to_dict()


def midgame(name: str) -> Any:
    """A fresh copy of the saved mid-game state of `name`."""
    return get_game(name).state_from_dict(saved_midgame(name))


def compiled(name: str) -> bool:
    """Whether the states of the game `name` are a compiled game's (saved in the compiled engines' form)."""
    return isinstance(get_game(name).new_initial_state(), CompiledState)


def put(target: dict[str, Any], key: str, value: Any) -> None:
    target[key] = value


# What every game's saved state is refused for: (name, edit, what the message names).
EVERY_GAME: list[tuple[str, Edit, str]] = [
    ("wrong_format", lambda d: put(d, "format", "chess.state"), "'format'"),
    ("wrong_version", lambda d: put(d, "version", 99), "'version'"),
    ("state_not_object", lambda d: put(d, "state", [1, 2]), "'state'"),
    ("unknown_top_level_key", lambda d: put(d, "current_player", 0),
     "unknown field(s) 'current_player'; a saved state has format, "),
]
# What every compiled game's saved state is refused for besides: the fields of the compiled engines' saved form.
EVERY_COMPILED_GAME: list[tuple[str, Edit, str]] = [
    ("wrong_components", lambda d: put(d, "components", "0" * 16), "'components'"),
    ("missing_field", lambda d: d["state"].pop("round"), "missing ['round']"),
    ("unknown_field", lambda d: put(d["state"], "weather", 3), "unknown ['weather']"),
    ("value_beyond_type", lambda d: put(d["state"], "round", 300), "state.round"),
    ("string_value", lambda d: put(d["state"], "round", "2"), "state.round"),
    ("bool_value", lambda d: put(d["state"], "round", True), "state.round"),
    ("bad_rng", lambda d: put(d["state"], "rng", "not hex"), "state.rng"),
]


def assert_refused_naming(name: str, edit: Edit, named: str) -> None:
    data = copy.deepcopy(saved_midgame(name))
    edit(data)
    with pytest.raises(StateFormatError) as error:
        get_game(name).state_from_dict(data)
    assert named in str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("edit", "named"), [(edit, named) for _, edit, named in EVERY_GAME],
                         ids=[case for case, _, _ in EVERY_GAME])
def test_from_dict_rejects_malformed_state_naming_the_field(name: str, edit: Edit, named: str) -> None:
    assert_refused_naming(name, edit, named)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("edit", "named"), [(edit, named) for _, edit, named in EVERY_COMPILED_GAME],
                         ids=[case for case, _, _ in EVERY_COMPILED_GAME])
def test_from_dict_rejects_a_malformed_compiled_state_naming_the_field(name: str, edit: Edit, named: str) -> None:
    if not compiled(name):
        pytest.skip(f"{name} saves no compiled game's state: its saved form is its own")
    assert_refused_naming(name, edit, named)


@pytest.mark.parametrize(("name", "case", "refusal"), sample_params("BAD_STATES", "malformed saved states"))
def test_from_dict_rejects_a_state_malformed_as_the_game_says_naming_the_field(name: str, case: str,
                                                                               refusal: tuple[Edit, str]) -> None:
    assert_refused_naming(name, *refusal)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("data", [None, "state", [1], 3])
def test_from_dict_rejects_non_dict_input(name: str, data: object) -> None:
    with pytest.raises(StateFormatError, match="must be a dict"):
        get_game(name).state_from_dict(data)


@pytest.mark.parametrize("name", GAMES)
def test_from_dict_accepts_its_own_output_through_json(name: str) -> None:
    state = midgame(name)
    if compiled(name):                  # the compiled engine's own loader, given the game's compiled tables
        assert type(state).from_dict(state.to_dict(), state.rules) == state
    loaded = get_game(name).state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert loaded == state
    assert loaded.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_a_state_saved_with_user_components_needs_them_to_load(name: str) -> None:
    change = accepted_change(name)
    doc = components_of(name).to_json_dict()
    change.apply(doc)
    components = components_of(name, doc)
    state = get_game(name, components=components).new_initial_state(max(get_game(name).player_counts), 8)
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
    """A compiled engine's state says how to make one; the state of a game written in Python needs what only its
    game gives it."""
    state_type = get_game(name).state_type
    made_by = rf"cannot be built directly: use borabora_sim\.(games\.{name}\.)?new_game" if compiled(name) else None
    with pytest.raises(TypeError, match=made_by):
        state_type()
    players = min(get_game(name).player_counts)
    assert get_game(name).new_initial_state(players=players, seed=1).clone().num_players == players
