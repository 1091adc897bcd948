"""A readable text picture of Pig (the terminal game, `borabora play --game pig`): the scores, the turn in
progress and how the last turn ended. Pig hides nothing, so every seat sees the same."""

from __future__ import annotations

from borabora_sim import _pig


def last_turn_text(state: _pig.State) -> str:
    """How the last finished turn ended, in words ("" before any)."""
    last = state.last_turn
    if last is None:
        return ""
    seat, how, points = last
    if how == "hold":
        return f"seat {seat} held and banked {points}"
    return f"seat {seat} rolled a 1 and lost {points}" if points else f"seat {seat} rolled a 1"


def render(state: _pig.State, viewer: int) -> str:
    """The game as `viewer` sees it: each seat's score toward the goal, the mover's turn total and last roll."""
    goal = state.components.goal
    lines = [f"Pig to {goal}, round {state.round}" + (f"; {last_turn_text(state)}" if state.last_turn else "")]
    for seat, score in enumerate(state.scores()):
        marks = [" (you)" if seat == viewer else "", ", first player" if seat == state.start_player else ""]
        lines.append(f"  seat {seat}{''.join(marks)}: {score} of {goal}")
    if state.is_terminal():
        lines.append(f"Seat {state.winner()} wins with {state.scores()[state.winner() or 0]}.")
    else:
        seat = state.current_player
        lines.append(f"Seat {seat} rolled a {state.last_roll}: turn total {state.turn_total} "
                     f"(holding would make {state.scores()[seat] + state.turn_total}). Roll or hold?")
    return "\n".join(lines)
