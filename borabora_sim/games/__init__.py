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
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from borabora_sim.protocol import Game
from borabora_sim.specs import split_spec

DEFAULT_GAME = "bora_bora"
# The games of the library, each a package or module of borabora_sim.games whose RECORD says what it has: adding a
# game is its package (or module) and its name here (a game kept elsewhere registers its record with `register`).
GAME_PACKAGES = ("bora_bora", "bamboo", "pig", "nim")


@dataclass(frozen=True)
class GameRecord:
    """What the shared layers need of a game, written once in the game's package (its `RECORD`). Each part is
    "module:attribute" (or the object itself) and is imported on first use, so that a layer loads only the parts
    it uses (the simulator never loads a picture)."""

    name: str
    game: str | Callable[..., Game]         # the factory: factory(components=None, **options) -> Game
    picture: str | None = None              # draw(state, viewer) -> the <svg> element (borabora_sim.viewer)
    click_targets: str | None = None        # click_targets(state, actions) -> the things a click picks (web play)
    encoder: str | None = None              # the observation Encoder (borabora_sim.envs)
    studies: tuple[str, ...] = ()           # its studies: built-in questions that `borabora analyze NAME` asks
    network: str | None = None              # "package:file" of its policy-and-value network (borabora_sim.network)
    questions: str | None = None            # its pieces for the question engine (borabora_sim.questions.Vocabulary);
    #                                         its built-in questions are the TOML files in that module's questions/
    samples: str | None = None              # "module" of its samples for the shared tests: data only (a change of
    #                                         its component file that loads, the things a click picks, ...); a
    #                                         test that needs a sample the game leaves out is skipped, saying so

    def part(self, what: str) -> Any:
        """The part `what` ("game", "picture", "click_targets", "encoder"), imported on first use; None where the
        game has none."""
        where = getattr(self, what)
        if not isinstance(where, str):
            return where
        loaded = _LOADED.get((self.name, what))
        if loaded is None:
            module, _, attribute = where.partition(":")
            loaded = _LOADED[(self.name, what)] = getattr(import_module(module), attribute)
        return loaded


_RECORDS: dict[str, GameRecord] = {}
_LOADED: dict[tuple[str, str], Any] = {}


def _records() -> dict[str, GameRecord]:
    """Every game's record, the library's own read from their packages on first use."""
    for package in GAME_PACKAGES:
        if package not in _RECORDS:
            record = import_module(f"{__name__}.{package}").RECORD
            _RECORDS.setdefault(record.name, record)
    return _RECORDS


def register(record: GameRecord) -> None:
    """Makes a game kept outside this package available by its record to every layer (players, simulate, the
    command line, the pictures, the adapters, the conformance test)."""
    if not isinstance(record, GameRecord):
        raise TypeError(f"register takes a GameRecord, got {type(record).__name__}")
    if not record.name.isidentifier():
        raise ValueError(f"a game name is an identifier such as 'bora_bora', got {record.name!r}")
    if record.name in _records():
        raise ValueError(f"a game named {record.name!r} is already registered")
    _RECORDS[record.name] = record


def game_names() -> tuple[str, ...]:
    """The registered games, in the order they were registered."""
    return tuple(_records())


def record_of(name: str) -> GameRecord:
    """The record of the game `name`; an unknown name is a ValueError listing the games."""
    record = _records().get(name) if isinstance(name, str) else None
    if record is None:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(_records())}")
    return record


def games_with(part: str) -> tuple[str, ...]:
    """The games whose record has the part `part` ("picture", "encoder", ...)."""
    return tuple(name for name, record in _records().items() if getattr(record, part))


def _factory(name: str, spec: object) -> Callable[..., Game]:
    """The factory of the game `name` (imported on first use); an unknown name is a ValueError listing the
    games."""
    record = _records().get(name) if isinstance(name, str) else None
    if record is None:
        where = "" if name == spec else f" in game spec {spec!r}"
        raise ValueError(f"unknown game {name!r}{where}; games: {', '.join(_records())}")
    factory: Callable[..., Game] = record.part("game")
    return factory


def score_columns() -> tuple[str, ...]:
    """The score columns the player rows of the registered games have: each game's score unit in lower case
    ("vp", "hp"), so that tables can be read without naming their game."""
    units = (getattr(_factory(name, name), "score_unit", None) or get_game(name).score_unit for name in _records())
    return tuple(dict.fromkeys(unit.lower() for unit in units))


def parse_game_spec(spec: str, **options: object) -> tuple[str, dict[str, object]]:
    """The game name and options of `spec` ("bamboo:mode=advanced", specs.py), together with `options`. Options
    a game declares (Game.options) are checked: an unknown option or value, or one given twice, is a one-line
    ValueError saying what is allowed. The options are in the game's order."""
    if not isinstance(spec, str):
        raise ValueError(f"unknown game {spec!r}; games: {', '.join(_records())}")
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
    for name in _records():
        game = get_game(name)
        if isinstance(state, game.state_type):
            return game.for_state(state)
    raise TypeError(f"expected the state of a game ({', '.join(_records())}), got {type(state).__name__}")


def get_game(name: str = DEFAULT_GAME, components: object = None, **options: object) -> Game:
    """The game named by the spec `name` ("bamboo", "bamboo:mode=advanced") with the component data
    `components` (a file, a dict or the game's own data object; None: the built-in data) and the options of the
    spec and of `options`; an unknown name is a ValueError listing the games, an unknown option or value one
    naming what is allowed (see parse_game_spec)."""
    game, options = parse_game_spec(name, **options)
    return _factory(game, name)(components, **options)


__all__ = [
    "DEFAULT_GAME", "GAME_PACKAGES", "GameRecord", "canonical_game_spec", "game_names", "game_of", "game_spec",
    "games_with", "get_game", "record_of", "register", "score_columns",
]
