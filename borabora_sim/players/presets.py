"""Presets: short names a person can use for the strongest players, the same names in every game. Each game
declares what a preset stands for in it (`Game.presets`: the preset's name -> a player spec), so `strong` is the
strongest search at about 0.1 s of CPU a move in whichever game is played, and `best` the strongest at about 1 s;
docs/players.md has the measurements behind each game's choice.

Options written after a preset's name are added to the spec it stands for, and replace an option of the same
name: `strong:threads=2` searches on two cores, `strong:iterations=50` is the same search with a smaller budget.
A preset names a different player in each game, so it needs the game: `make_player("strong", game=get_game())`.

>>> from borabora_sim.games import get_game
>>> resolve_preset("strong:threads=2", get_game("pig"))
'mcts:iterations=40000,evaluation=net,threads=2'
>>> resolve_preset("heuristic", get_game("pig"))
'heuristic'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from borabora_sim.games import game_names, get_game
from borabora_sim.protocol import Game
from borabora_sim.specs import split_spec, with_options

# The presets every game of the library declares, with what each is for.
PRESETS: Mapping[str, str] = MappingProxyType({
    "strong": "the strongest search at about 0.1 s of CPU a move",
    "best": "the strongest search at about 1 s of CPU a move",
})
NO_PRESETS: Mapping[str, str] = MappingProxyType({})


def presets_of(game: Game) -> Mapping[str, str]:
    """The presets `game` declares, by name: the player spec each stands for (none for a game that declares
    none)."""
    presets: Mapping[str, str] = getattr(game, "presets", NO_PRESETS)
    return presets


def preset_names(game: Game | None = None) -> tuple[str, ...]:
    """The names of the presets of `game`; without a game, those of every registered game."""
    games = [game] if game is not None else [get_game(name) for name in game_names()]
    return tuple(dict.fromkeys(name for played in games for name in presets_of(played)))


def is_preset(spec: str, game: Game | None = None) -> bool:
    """Whether the player spec `spec` names a preset (of `game`; without one, of any registered game)."""
    return isinstance(spec, str) and split_spec(spec)[0] in preset_names(game)


def resolve_preset(spec: str, game: Game | None) -> str:
    """The player spec `spec` stands for in `game`: a preset's spec with the options given after its name added
    (an option the preset's spec has is replaced), any other spec as it is. A preset without a game is a
    one-line ValueError saying what it stands for in each game."""
    name, _ = split_spec(spec)
    if game is None:
        if name in preset_names():
            where = "; ".join(f"{played}: {presets_of(get_game(played))[name]}" for played in game_names()
                              if name in presets_of(get_game(played)))
            raise ValueError(f"player spec {spec!r}: the preset {name!r} is a different player in each game "
                             f"({where}); make it for a game, e.g. make_player({spec!r}, game=get_game('bamboo'))")
        return spec
    preset = presets_of(game).get(name)
    if preset is None:
        return spec
    return with_options(preset, spec.partition(":")[2])


def presets_text() -> str:
    """The presets in one line, for help texts: each name and what it is for."""
    return "; ".join(f"{name}: {what}" for name, what in PRESETS.items())


__all__ = ["PRESETS", "is_preset", "preset_names", "presets_of", "presets_text", "resolve_preset"]
