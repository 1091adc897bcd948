"""Building rule scenarios: edit a saved state, reload it, and drive it by action names."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import borabora_sim
from borabora_sim import _engine

PHASE = {name: i for i, name in enumerate(_engine.PHASES)}
DECISION = {name: i for i, name in enumerate(_engine.DECISIONS)}
SOURCE = {name: i for i, name in enumerate(_engine.SOURCES)}
EMPTY_FRAME = {"kind": 0, "player": 0, "a": 0, "b": 0}
NO_TILE = 255


def edited(state: borabora_sim.State, edit: Callable[[dict[str, Any]], None]) -> borabora_sim.State:
    """A copy of `state` after `edit` changed its raw fields (the dict under to_dict()["state"])."""
    data = copy.deepcopy(state.to_dict())
    edit(data["state"])
    return borabora_sim.State.from_dict(data, state.rules)


def set_decision(raw: dict[str, Any], frames: list[tuple[str, int, int, int]]) -> None:
    """Replaces the decision stack; frames are (decision name, player, a, b), bottom first."""
    stack = [dict(EMPTY_FRAME) for _ in raw["stack"]]
    for i, (kind, player, a, b) in enumerate(frames):
        stack[i] = {"kind": DECISION[kind], "player": player, "a": a, "b": b}
    raw["stack"] = stack
    raw["sp"] = len(frames)


def names(state: borabora_sim.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: borabora_sim.State, *action_names: str) -> borabora_sim.State:
    """Applies actions given by name, in order (each must be legal)."""
    for name in action_names:
        state.apply(state.action_from_string(name))
    return state


def vp(state: borabora_sim.State, seat: int, source: str) -> int:
    return int(state.score_breakdown()[seat][source])
