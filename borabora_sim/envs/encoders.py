"""What the adapters need to know about one game, in one place: its observation encoder.

Every adapter (OpenSpiel, PettingZoo, Gymnasium) is written once, over any game of ``borabora_sim.games``; the
only game-specific part is the game's ``Encoder`` (``borabora_sim.kits.encoding``): the observation tensor (a
``Layout`` of named slices and the function that fills it from ``state.observation(viewer)``), the observation
text, what of the view is private to the viewer, which outcomes of chance a seat sees (for OpenSpiel's information
states), the unit of the score and a bound on a game's length. ``encoder_for(game)`` picks it by the game's
registered name, and ``encoded_games()`` names every registered game with an encoder:

>>> from borabora_sim.envs.encoders import encoded_games, encoder_for
>>> from borabora_sim.games import DEFAULT_GAME
>>> DEFAULT_GAME in encoded_games()
True
>>> all(encoder_for(name).game == name for name in encoded_games())
True

A new game names the module that builds its ``Encoder`` in its record (``GameRecord.encoder``,
borabora_sim.games); the adapters then serve it under names made from the game's name (``python_<name>``,
``<name>_v0``, ``borabora_sim/<Title>-v0``).

This module needs only numpy (and the registry of games); what an encoder is made of, and the helpers a game's
encoder is written with, are the kit's, below the games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from borabora_sim.kits.encoding import Encoder

if TYPE_CHECKING:
    from borabora_sim.protocol import Game


def encoded_games() -> tuple[str, ...]:
    """The games that have an encoder, so every adapter serves them."""
    from borabora_sim.games import games_with

    return games_with("encoder")


def game_name(game: Any) -> str:
    """The registered name of a game object or of a game spec (its name and options, borabora_sim.games)."""
    if isinstance(game, str):
        from borabora_sim.games import parse_game_spec
        return parse_game_spec(game)[0]
    return str(game.name)


def encoder_for(game: Any) -> Encoder:
    """The encoder of a game: a game object (``borabora_sim.games.get_game``), a game spec or a name."""
    from borabora_sim.games import record_of

    name = game_name(game)
    encoder: Encoder | None = record_of(name).part("encoder")
    if encoder is None:
        raise ValueError(f"game {name!r} has no observation encoder; games with one: {', '.join(encoded_games())}")
    return encoder


def resolve_game(game: Any, components: Any = None, options: Mapping[str, Any] | None = None) -> Game:
    """The game object an adapter plays: `game` is a game spec (its name and options) built with `components` and
    `options` (``borabora_sim.games.get_game``), or a game object, which takes neither."""
    options = dict(options or {})
    if isinstance(game, str):
        from borabora_sim.games import get_game
        return get_game(game, components, **options)
    if components is not None or options:
        raise ValueError("give components and game options with a game spec, not with a game object")
    encoder_for(game)                       # a game without an encoder is refused here
    played: Game = game
    return played


def reward_kinds(encoder: Encoder) -> tuple[str, ...]:
    """The reward kinds of a game: "win", "score" and the score's own unit (``Encoder.score_unit``) for
    "score"."""
    return ("win", "score", encoder.score_unit)


def check_reward(reward: str, encoder: Encoder) -> str:
    """The reward kind, "win" or "score" (the score's unit is another name for "score")."""
    kinds = reward_kinds(encoder)
    if reward not in kinds:
        raise ValueError(f"reward must be one of {', '.join(kinds)}; got {reward!r}")
    return "win" if reward == "win" else "score"


__all__ = ["encoded_games", "encoder_for", "reward_kinds"]
