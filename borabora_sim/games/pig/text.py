"""A readable text picture of Pig (the terminal game, `borabora play --game pig`): the scores, how each seat's last
turn ended and the turn in progress. Pig hides nothing, so every seat sees the same."""

from __future__ import annotations

from borabora_sim import _pig


def turn_words(how: str, points: int) -> str:
    """A finished turn in words: "held 22", "rolled a 1 and lost 9"."""
    if how == "hold":
        return f"held {points}"
    return f"rolled a 1 and lost {points}" if points else "rolled a 1 at once"


def render(state: _pig.State, viewer: int | None) -> str:
    """The game as `viewer` sees it: each seat's score toward the goal and its last turn, then the mover's turn
    total and last roll."""
    goal = state.components.goal
    lines = [f"Pig to {goal}, round {state.round}"]
    for seat, (score, last) in enumerate(zip(state.scores(), state.last_turns(), strict=True)):
        marks = [" (you)" if seat == viewer else "", ", first player" if seat == state.start_player else ""]
        lines.append(f"  seat {seat}{''.join(marks)}: {score} of {goal}"
                     + (f"; last turn: {turn_words(*last)}" if last else ""))
    winner = state.winner()
    if winner is not None:
        lines.append(f"Seat {winner} wins with {state.scores()[winner]}.")
    else:
        seat = state.current_player
        lines.append(f"Seat {seat} rolled a {state.last_roll}: turn total {state.turn_total} "
                     f"(holding would make {state.scores()[seat] + state.turn_total}). Roll or hold?")
    return "\n".join(lines)


__all__ = ["render"]
