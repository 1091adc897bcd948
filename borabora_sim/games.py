"""The registry of games: `get_game(name)` is the one way players, the simulator and the command line reach a
game (borabora_sim.protocol.Game).

>>> from borabora_sim.games import game_names, get_game
>>> "bora_bora" in game_names()
True
>>> get_game().name
'bora_bora'
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from borabora_sim.protocol import Game

DEFAULT_GAME = "bora_bora"

# name -> the game's factory, `factory(components=None, **options)`, or "module:attribute" naming it (imported on
# first use, so that a game's engine is loaded only when the game is played).
_FACTORIES: dict[str, str | Callable[..., Game]] = {
    "bora_bora": "borabora_sim.game:BoraBora",
    "bamboo": "borabora_sim.bamboo.game:Bamboo",
}


def register(name: str, factory: str | Callable[..., Game]) -> None:
    """Makes a game available by `name` to every layer (players, simulate, the command line, the conformance
    test): `factory(components=None, **options)` returns its Game object, or "module:attribute" names it."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a game name is an identifier such as 'bora_bora', got {name!r}")
    if name in _FACTORIES:
        raise ValueError(f"a game named {name!r} is already registered")
    _FACTORIES[name] = factory


def game_names() -> tuple[str, ...]:
    """The registered games, in the order they were registered."""
    return tuple(_FACTORIES)


def get_game(name: str = DEFAULT_GAME, components: object = None, **options: object) -> Game:
    """The game `name` with the component data `components` (a file, a dict or the game's own data object;
    None: the built-in data) and the game's own `options`; an unknown name is a ValueError listing the games."""
    factory = _FACTORIES.get(name) if isinstance(name, str) else None
    if factory is None:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(_FACTORIES)}")
    if isinstance(factory, str):
        module, _, attribute = factory.partition(":")
        factory = _FACTORIES[name] = getattr(import_module(module), attribute)
    return factory(components, **options)
