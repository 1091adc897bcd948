"""Bamboo's situations of a decision, the question engine's columns (`questions.SITUATIONS`): counts of the
deciding seat's own pieces. Bamboo has no hidden hand (rulings B37), so each is what the player sees at the
table."""

from __future__ import annotations

from typing import Any

from borabora_sim.protocol import GameState

EMPTY = 255                               # an empty space of a player's home or balance tile row


def own_record(state: GameState) -> dict[str, Any]:
    """The deciding seat's player record in the saved state."""
    record: dict[str, Any] = state.to_dict()["state"]["pl"][state.current_player]
    return record


def food_held(state: GameState) -> int:
    """Food counters the deciding seat holds, of every kind."""
    return sum(own_record(state)["food"])


def home_tiles(state: GameState) -> int:
    """Home tiles on the deciding seat's home."""
    return sum(1 for tile in own_record(state)["home"] if tile != EMPTY)


def balance_tiles_held(state: GameState) -> int:
    """Balance tiles the deciding seat holds, not yet scored."""
    return sum(1 for side in own_record(state)["balance"] for tile in side if tile != EMPTY)


def spirit_kinds(state: GameState) -> int:
    """Kinds of Spirits of the Forest the deciding seat holds (each is worth 2 HP at the end)."""
    return sum(1 for count in own_record(state)["spirits"] if count > 0)


__all__ = ["balance_tiles_held", "food_held", "home_tiles", "own_record", "spirit_kinds"]
