"""The registry of games: `get_game(spec)` is the one way players, the simulator and the command line reach a
game (borabora_sim.protocol.Game). A game is named by a spec written like a player's, its name and its options:
"bamboo", "bamboo:mode=advanced"; `game_spec(game)` writes a game's spec back, its default options left out.
`game_of(state)` is the game a state is played in.

>>> from borabora_sim.games import canonical_game_spec, game_names, game_of, game_spec, get_game
>>> "bora_bora" in game_names()
True
>>> get_game().name
'bora_bora'
>>> get_game("bamboo:mode=advanced").mode
'advanced'
>>> canonical_game_spec("bamboo:mode=normal")
'bamboo'
>>> game_spec(game_of(get_game("bamboo:mode=advanced").new_initial_state(players=2, seed=1)))
'bamboo:mode=advanced'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module

from borabora_sim.protocol import Game
from borabora_sim.specs import split_spec

DEFAULT_GAME = "bora_bora"

# name -> the game's factory, `factory(components=None, **options)`, or "module:attribute" naming it (imported on
# first use, so that a game's engine is loaded only when the game is played).
_FACTORIES: dict[str, str | Callable[..., Game]] = {
    "bora_bora": "borabora_sim.games.bora_bora.game:BoraBora",
    "bamboo": "borabora_sim.games.bamboo.game:Bamboo",
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


def _factory(name: str, spec: object) -> Callable[..., Game]:
    """The factory of the game `name` (imported on first use); an unknown name is a ValueError listing the
    games."""
    factory = _FACTORIES.get(name) if isinstance(name, str) else None
    if factory is None:
        where = "" if name == spec else f" in game spec {spec!r}"
        raise ValueError(f"unknown game {name!r}{where}; games: {', '.join(_FACTORIES)}")
    if isinstance(factory, str):
        module, _, attribute = factory.partition(":")
        factory = _FACTORIES[name] = getattr(import_module(module), attribute)
    return factory


def score_columns() -> tuple[str, ...]:
    """The score columns the player rows of the registered games have: each game's score unit in lower case
    ("vp", "hp"), so that tables can be read without naming their game."""
    units = (getattr(_factory(name, name), "score_unit", None) or get_game(name).score_unit for name in _FACTORIES)
    return tuple(dict.fromkeys(unit.lower() for unit in units))


def parse_game_spec(spec: str, **options: object) -> tuple[str, dict[str, object]]:
    """The game name and options of `spec` ("bamboo:mode=advanced", specs.py), together with `options`. Options
    a game declares (Game.options) are checked: an unknown option or value, or one given twice, is a one-line
    ValueError saying what is allowed. The options are in the game's order."""
    if not isinstance(spec, str):
        raise ValueError(f"unknown game {spec!r}; games: {', '.join(_FACTORIES)}")
    name, in_text = split_spec(spec, kind="game", example="bamboo:mode=advanced")
    given: dict[str, object] = dict(in_text)
    factory = _factory(name, spec)
    for key, value in options.items():
        if key in given:
            raise ValueError(f"game spec {spec!r}: option {key!r} given twice")
        given[key] = value
    declared: Mapping[str, tuple[str, ...]] | None = getattr(factory, "options", None)
    if declared is None:                        # a factory that declares no options checks its own
        return name, given
    in_spec = f"game spec {spec!r}: " if spec.strip() != name else ""
    for key, value in given.items():
        if key not in declared:
            raise ValueError(f"{in_spec}game {name!r} has no option {key!r}; options: {', '.join(declared) or 'none'}")
        if value not in declared[key]:
            raise ValueError(f"{in_spec or f'game {name!r}: '}option {key} must be one of {', '.join(declared[key])}, "
                             f"got {value!r}")
    return name, {key: given[key] for key in declared if key in given}


def _spec_text(name: str, options: Mapping[str, object], declared: Mapping[str, tuple[str, ...]]) -> str:
    """`name:key=value,...` with the options that are not the default (the first allowed value)."""
    kept = [f"{key}={value}" for key, value in options.items() if key not in declared or value != declared[key][0]]
    return f"{name}:{','.join(kept)}" if kept else name


def canonical_game_spec(spec: str) -> str:
    """The spec as the run manifest records it: checked, options in the game's order and default options left
    out ("bamboo:mode=normal" -> "bamboo")."""
    name, options = parse_game_spec(spec)
    return _spec_text(name, options, getattr(_factory(name, spec), "options", None) or {})


def game_spec(game: Game) -> str:
    """The canonical spec of a game object: its name and the options it was made with that are not the
    default; `get_game(game_spec(game))` plays the same game (with the same component data)."""
    declared: Mapping[str, tuple[str, ...]] = getattr(game, "options", None) or {}
    return _spec_text(game.name, {key: getattr(game, key) for key in declared}, declared)


def game_of(state: object) -> Game:
    """The game `state` is played in: the registered game whose states are of its type (Game.state_type), with the
    state's own component data and options (Game.for_state). Anything else is a one-line TypeError naming the
    games."""
    for name in _FACTORIES:
        game = get_game(name)
        if isinstance(state, game.state_type):
            return game.for_state(state)
    raise TypeError(f"expected the state of a game ({', '.join(_FACTORIES)}), got {type(state).__name__}")


def get_game(name: str = DEFAULT_GAME, components: object = None, **options: object) -> Game:
    """The game named by the spec `name` ("bamboo", "bamboo:mode=advanced") with the component data
    `components` (a file, a dict or the game's own data object; None: the built-in data) and the options of the
    spec and of `options`; an unknown name is a ValueError listing the games, an unknown option or value one
    naming what is allowed (see parse_game_spec)."""
    game, options = parse_game_spec(name, **options)
    return _factory(game, name)(components, **options)
