"""Exceptions raised for bad input: each says what was wrong and what is allowed."""


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class StateFormatError(ValueError):
    """A saved state (State.from_dict) that is malformed or inconsistent; names the field."""
