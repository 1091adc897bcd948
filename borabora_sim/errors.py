"""Exceptions raised for bad input, and the one check of integer arguments: each error says what was
wrong and what is allowed."""

from __future__ import annotations

import operator


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class StateFormatError(ValueError):
    """A saved state (State.from_dict) that is malformed or inconsistent; names the field."""


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong type. Also a ValueError, so that `except ValueError` catches every bad input."""


def check_int(value: object, name: str, low: int, high: int) -> int:
    """`value` as an int in [low, high]. Anything with `__index__` (numpy integers included) is accepted;
    bool and float are refused, as they are almost always a mistake for a seat, seed, count or action."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ArgumentTypeError(f"{name} must be an integer in [{low}, {high}], got {type(value).__name__} {value!r}")
    number = operator.index(value)  # type: ignore[arg-type]
    if not low <= number <= high:
        raise ValueError(f"{name} must be an integer in [{low}, {high}], got {number}")
    return number


def check_players(players: object, allowed: tuple[int, ...] = (2, 3, 4)) -> int:
    """A player count as an int (numpy integers too); bool and float are refused."""
    if isinstance(players, bool) or not hasattr(type(players), "__index__"):
        raise ArgumentTypeError(f"players must be {_either(allowed)}, got {type(players).__name__} {players!r}")
    count = operator.index(players)  # type: ignore[arg-type]
    if count not in allowed:
        raise ValueError(f"players must be {_either(allowed)}, got {players!r}")
    return count


def _either(values: tuple[int, ...]) -> str:
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}" if len(values) > 1 else str(values[0])


__all__ = ["ArgumentTypeError", "IllegalActionError", "StateFormatError"]
