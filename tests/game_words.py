"""What a person must not read: the engine's identifiers. `engine_identifiers(game)` is every snake_case name of
the game's action table, decisions, phases and score sources (`land_path`, `fire_bonus_god`, `C_take_task`,
`C_NW`); `identifiers_in(text, game)` finds those in a text, and any other snake_case word but the player options
and styles a player spec may show (`rollout_depth`, `keep_pace`)."""

from __future__ import annotations

import re

from borabora_sim.players import PLAYER_TYPES
from borabora_sim.protocol import Game

SNAKE = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")


def engine_identifiers(game: Game) -> set[str]:
    """The snake_case names of the game's action table, decisions, phases and sources."""
    names = [game.action_name(a) for a in range(game.num_actions)]
    names += [*game.decisions, *game.phases, *game.sources]
    return {token for name in names for token in SNAKE.findall(name)}


def player_options(game: Game) -> set[str]:
    """The option names of every player type in `game` and the names of its styles (a player spec shown to a
    person may name them)."""
    return {name for cls in PLAYER_TYPES.values() for name in cls.params(game)} | set(game.styles)


def identifiers_in(text: str, game: Game) -> list[str]:
    """The engine identifiers in `text`, and its other snake_case words that are not player options."""
    allowed = player_options(game)
    found = SNAKE.findall(text)
    ids = engine_identifiers(game)
    return sorted({token for token in found if token in ids or token not in allowed})
