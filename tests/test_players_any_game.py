"""Players take their game from the state they are given: every player type made without `game=` plays every
registered game (and each of its options) with that game's styles, weights, action kinds and search defaults; an
option the game does not have is refused in one line naming the game and its options; a player that plays one game
refuses a state of another in one line."""

from __future__ import annotations

import pytest
from conftest import random_game_position

from borabora_sim.games import game_names, game_of, game_spec, get_game
from borabora_sim.games.bamboo.components import load_components as load_bamboo_components
from borabora_sim.games.bora_bora.components import load_components
from borabora_sim.players import PLAYER_TYPES, HeuristicPlayer, MCTSPlayer, make_player
from borabora_sim.protocol import Game, GameState
from borabora_sim.specs import split_spec

# One cheap spec of every player type.
CHEAP = {"random": "random", "heuristic": "heuristic", "flatmc": "flatmc:rollouts=2", "mcts": "mcts:iterations=20",
         "learned": "learned", "expert": "expert"}
# Every registered game, and each other value of each of its options.
GAME_SPECS = [spec for name in game_names()
              for spec in (name, *(f"{name}:{key}={value}" for key, values in get_game(name).options.items()
                                   for value in values[1:]))]


def states(game: Game, seed: int = 5) -> list[GameState]:
    """A few positions of one random game of the game's middle player count: its first decision, and the positions
    a third and two thirds of the way through it."""
    players = game.player_counts[len(game.player_counts) // 2]
    return [random_game_position(game, players, seed, part) for part in (0, 1 / 3, 2 / 3)]


def refusal_of(spec: str, game: Game) -> str | None:
    """Why a player of `spec` made for `game` is refused, or None if it is not."""
    try:
        make_player(spec, seed=1, game=game)
    except ValueError as error:
        return str(error).removeprefix(f"player spec {spec!r}: ")
    return None


def option_names(spec: str) -> set[str]:
    return set(split_spec(spec)[1])


def test_the_cheap_specs_cover_every_player_type() -> None:
    assert set(CHEAP) == set(PLAYER_TYPES)
    assert "bamboo:mode=advanced" in GAME_SPECS


@pytest.mark.parametrize("game_spec_text", GAME_SPECS)
@pytest.mark.parametrize("kind", list(CHEAP))
def test_every_player_type_plays_every_game_from_its_state_alone(game_spec_text: str, kind: str) -> None:
    game = get_game(game_spec_text)
    spec = CHEAP[kind]
    refused = refusal_of(spec, game)
    player = make_player(spec, seed=3)
    for state in states(game):
        if refused is not None:          # a player the game does not have (learned in Bamboo): the same reason
            with pytest.raises(ValueError) as info:
                player.choose(state)
            message = str(info.value)
            assert "\n" not in message and f"game {game.name!r}" in message and refused in message
            continue
        assert player.choose(state) in state.legal_actions()
        assert player.bound and player.game == game and game_spec(player.game) == game_spec(game)
        assert option_names(player.spec()) <= set(type(player).params(game))
        assert player.explain().startswith(f"{player.in_words()}: chose ")
    assert refused is None or game.name != "bora_bora"


@pytest.mark.parametrize("game_name", game_names())
@pytest.mark.parametrize("kind", ["heuristic", "flatmc", "mcts"])
def test_a_player_taking_its_game_from_the_state_plays_as_one_made_for_the_game(game_name: str, kind: str) -> None:
    game = get_game(game_name)
    spec = CHEAP[kind] + ("" if kind == "heuristic" else ",rollout=heuristic")
    unbound, made = make_player(spec, seed=7), make_player(spec, seed=7, game=game)
    for state in states(game):
        assert unbound.choose(state) == made.choose(state)
        assert unbound.spec() == made.spec() and unbound.explain() == made.explain()


@pytest.mark.parametrize("game_name", game_names())
def test_mcts_takes_the_search_defaults_and_a_heuristic_rollout_the_weights_of_the_states_game(game_name: str) -> None:
    game = get_game(game_name)
    player = make_player("mcts:iterations=30,rollout=heuristic", seed=2)
    state = next(s for s in states(game) if len(s.legal_actions()) > 1)
    assert player.choose(state) in state.legal_actions()
    assert isinstance(player, MCTSPlayer) and player.last_iterations == 30
    assert {key: getattr(player, key) for key in game.search_defaults} == dict(game.search_defaults)
    assert player.style in game.styles
    assert ("fishing=" in player.spec()) == ("fishing" in game.action_kinds)


@pytest.mark.parametrize("game_name", game_names())
def test_explain_names_only_the_options_of_the_states_game(game_name: str) -> None:
    game = get_game(game_name)
    state = next(s for s in states(game) if len(s.legal_actions()) > 1)
    for spec in ("mcts:iterations=20", "flatmc:rollouts=2", "heuristic"):
        player = make_player(spec, seed=1)
        player.choose(state)
        assert player.explain().startswith(f"{player.in_words()}: chose ")
        spec = player.spec()
        assert option_names(spec) <= set(type(player).params(game)), spec
        assert ("fishing=" in spec) == ("fishing" in game.action_kinds), spec


# (the game of the state, the spec, what the refusal names besides the game): options of another game
REFUSED = [
    ("bamboo", "heuristic:fishing=never", "has no option 'fishing'"),
    ("bamboo", "mcts:iterations=20,fishing=never", "has no option 'fishing'"),
    ("bamboo", "flatmc:rollouts=2,fishing=prefer", "has no option 'fishing'"),
    ("bamboo", "heuristic:w_fishing=1", "has no option 'w_fishing'"),
    ("bamboo", "heuristic:style=temple", "unknown style 'temple'; styles: balanced, builder, spirits"),
    ("bamboo", "learned", "the learned evaluation exists for bora_bora only"),
    ("bora_bora", "heuristic:style=spirits", "unknown style 'spirits'; styles: balanced, temple, builder"),
    ("bora_bora", "heuristic:w_majority=2", "has no option 'w_majority'"),
    ("bora_bora", "mcts:iterations=20,temperature=2", "temperature=2.0 has no effect with rollouts played to the end"),
    ("pig", "heuristic:fishing=never", "has no option 'fishing'"),
    ("pig", "mcts:iterations=20,fishing=prefer", "has no option 'fishing'"),
    ("pig", "heuristic:style=temple", "unknown style 'temple'; styles: hold20, keep_pace"),
    ("pig", "heuristic:w_vp=2", "has no option 'w_vp'"),
]


@pytest.mark.parametrize(("game_name", "spec", "reason"), REFUSED)
def test_an_option_the_states_game_does_not_have_is_refused_naming_the_game(game_name: str, spec: str,
                                                                           reason: str) -> None:
    game = get_game(game_name)
    player = make_player(spec, seed=1)              # another game has the option
    before = player.spec()
    state = states(game)[1]
    with pytest.raises(ValueError) as info:
        player.choose(state)
    message = str(info.value)
    assert "\n" not in message and f"game {game_name!r}" in message and reason in message
    if "has no option" in reason:                   # the options the player has in that game
        assert message.endswith(f"; options: {', '.join(type(player).params(game))}")
    assert not player.bound and player.spec() == before, "left as it was"
    other = next(get_game(name) for name in game_names() if name != game_name)
    for state in states(other):                     # it still plays the game its options fit
        assert player.choose(state) in state.legal_actions()


@pytest.mark.parametrize("spec", ["heuristic:colour=red", "heuristic:style=spirits,fishing=never",
                                  "mcts:iterations=20,style=temple,temperature=2", "learned:style=spirits"])
def test_options_that_fit_no_game_are_refused_when_the_player_is_made(spec: str) -> None:
    with pytest.raises(ValueError) as info:
        make_player(spec)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"player spec {spec!r}: ")
    assert all(f"in game {name!r}, " in message for name in game_names())


def test_a_player_whose_options_fit_another_game_than_the_default_is_made_for_it() -> None:
    player = make_player("heuristic:style=spirits,w_majority=2", seed=1)
    assert not player.bound and player.game == get_game("bamboo")
    assert player.spec() == "heuristic:style=spirits,w_majority=2"


def test_a_constructor_option_no_game_has_is_a_type_error_naming_each_games_options() -> None:
    with pytest.raises(TypeError) as info:
        HeuristicPlayer(vp=2.0)
    message = str(info.value)
    assert "\n" not in message and message.startswith("in game 'bora_bora', unknown option(s) vp; ")
    assert "; in game 'bamboo', unknown option(s) vp; the action kinds of bamboo: none; weights are given as" in message


def test_a_player_made_for_a_game_refuses_a_state_of_another_in_one_line() -> None:
    bora_bora, bamboo = states(get_game("bora_bora"))[1], states(get_game("bamboo"))[1]
    for kind, spec in CHEAP.items():
        player = make_player(spec, seed=1, game=get_game("bora_bora"))
        with pytest.raises(ValueError) as info:
            player.choose(bamboo)
        assert str(info.value) == (f"player {kind!r} plays bora_bora (the game it was made for) and was given a "
                                   "state of bamboo; make it without game= to play any game")
        player.reset(2)
        with pytest.raises(ValueError, match="the game it was made for"):
            player.choose(bamboo)
        assert player.choose(bora_bora) in bora_bora.legal_actions()


def test_a_player_plays_the_game_of_its_first_state_until_it_is_reset() -> None:
    bora_bora, bamboo = states(get_game("bora_bora"))[1], states(get_game("bamboo"))[1]
    player = make_player("heuristic", seed=1)
    assert player.choose(bora_bora) in bora_bora.legal_actions() and player.game.name == "bora_bora"
    with pytest.raises(ValueError) as info:
        player.choose(bamboo)
    assert str(info.value) == ("player 'heuristic' plays bora_bora (the game of its first state) and was given a "
                               "state of bamboo; reset() it to play another game")
    assert isinstance(player, HeuristicPlayer)
    with pytest.raises(ValueError, match="reset"):
        player.option_values(bamboo, 1)
    player.reset(1)
    assert player.choose(bamboo) in bamboo.legal_actions() and player.game.name == "bamboo"
    assert "fishing" not in player.explain()


def test_a_player_takes_the_states_own_components_and_options() -> None:
    bora_doc = load_components().to_json_dict()
    bora_doc["fishing_vp"]["value"] = 3
    bamboo_doc = load_bamboo_components().to_json_dict()
    bamboo_doc["temple_tiles"][3].update(incense=0)
    for game in (get_game("bora_bora", bora_doc), get_game("bamboo:mode=advanced", bamboo_doc)):
        assert game != get_game(game.name)
        state = states(game)[1]
        player = make_player("heuristic", seed=1)
        assert player.choose(state) in state.legal_actions()
        assert player.game == game == game_of(state) and game_spec(player.game) == game_spec(game)


def test_a_player_plays_states_of_its_game_with_other_options() -> None:
    advanced = states(get_game("bamboo:mode=advanced"))[1]
    player = make_player("heuristic:style=spirits", seed=1, game=get_game("bamboo"))
    assert player.choose(advanced) in advanced.legal_actions()
    assert game_spec(player.game) == "bamboo"


def test_something_that_is_not_a_state_is_refused_naming_the_games() -> None:
    with pytest.raises(TypeError, match=rf"expected the state of a game \({', '.join(game_names())}\), got dict"):
        make_player("random").choose({})     # type: ignore[arg-type]
