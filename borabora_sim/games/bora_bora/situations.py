"""Bora Bora's situations of a decision, the columns a study of the value of a choice records with it
(borabora_sim.counterfactual) and the question engine's situations (`questions.SITUATIONS`): when a move is worth
it, not only whether. Each is what the deciding player sees at the table."""

from __future__ import annotations

from typing import Any, cast

from borabora_sim import _engine
from borabora_sim.counterfactual import score_gap
from borabora_sim.protocol import GameState

TILE_NAMES = ("helper", "temple", "build", "man", "woman", "land", "water")


def blocked_tiles(state: _engine.State, value: int) -> list[str]:
    """Bora Bora: the action tiles on which a die of `value` may not go now (strictly-lower rule), in TILE_NAMES
    order."""
    lows = state.observation(state.current_player)["tile_low"]
    return [name for name, low in zip(TILE_NAMES, lows, strict=True) if value >= low]


def own_view(state: _engine.State) -> dict[str, Any]:
    """The deciding seat's record as that seat sees it (its own God cards in hand; nothing hidden of the others)."""
    view: dict[str, Any] = state.observation(state.current_player)["pl"][state.current_player]
    return view


def dice_left(state: _engine.State) -> int:
    """The deciding seat's dice not yet placed this round (a die being placed included)."""
    return sum(1 for value in own_view(state)["dice"] if value)


def priests(state: _engine.State) -> int:
    """The deciding seat's priests in the temple."""
    temple: list[int] = state.observation(state.current_player)["temple"]
    return temple.count(state.current_player)


def god_cards(state: _engine.State) -> int:
    """God cards in the deciding seat's hand."""
    return sum(own_view(state)["hand"])


def regions(state: _engine.State) -> int:
    """Regions where the deciding seat has a hut."""
    return int(own_view(state)["regions"]).bit_count()


def die_situation(game_state: GameState, action: int) -> dict[str, Any]:
    """Bora Bora's situation of a die placement: die (None for other actions), blocked (tiles that die could not
    use, comma-separated), n_blocked, vp_gap (own VP minus the best other VP), start_position."""
    state = cast(_engine.State, game_state)
    seat = state.current_player
    placement = _engine.die_placement(action)
    die = placement[0] if placement else None
    blocked = blocked_tiles(state, die) if die is not None else []
    return {"die": die, "blocked": ",".join(blocked), "n_blocked": len(blocked), "vp_gap": score_gap(state, seat),
            "start_position": state.first_turn_order.index(seat)}


__all__ = ["dice_left", "die_situation", "god_cards", "own_view", "priests", "regions"]
