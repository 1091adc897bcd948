"""Pig in plain words (docs/pig.md, after Scarne): what a person reads of rolling and holding, of the decision and
of the score, and a one-line rules hint. The engine's names (`roll`, `hold`) stay what programs read.

>>> from borabora_sim.games.pig import new_game
>>> state = new_game(players=2, seed=7)
>>> describe_actions(state, state.legal_actions())[1].startswith("Hold: bank")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from borabora_sim import _pig

PHASE_WORDS = {"play": "play", "end": "game over"}
SOURCE_WORDS = {"banked": "points banked"}
DECISION_WORDS = {"first_roll": "Roll the die", "roll_or_hold": "Roll again or hold?"}
RULES_HINTS = {
    "first_roll": "A turn starts with a compulsory roll of the die.",
    "roll_or_hold": "A roll of 1 loses the turn total and ends the turn; 2 to 6 add to it. Hold banks the turn total; "
                    "the first to reach the goal wins.",
}
assert set(DECISION_WORDS) == set(_pig.DECISIONS) == set(RULES_HINTS)
assert set(PHASE_WORDS) == set(_pig.PHASES) and set(SOURCE_WORDS) == set(_pig.SOURCES)


def describe_phase(state: _pig.State) -> str:
    return "Game over" if state.is_terminal() else f"Round {state.round}"


def describe_decision(state: _pig.State) -> str:
    if state.decision is None:
        return "The game is over"
    if state.decision == "roll_or_hold":
        return f"Roll again or hold? Rolled a {state.last_roll}: turn total {state.turn_total}"
    return DECISION_WORDS.get(state.decision, state.decision.replace("_", " "))


def rules_hint(decision: str) -> str:
    return RULES_HINTS.get(decision, "")


def source_words(source: str) -> str:
    return SOURCE_WORDS.get(source, source.replace("_", " "))


def describe_actions(state: _pig.State, actions: Sequence[int]) -> list[str]:
    """Each of `actions` in words: roll risks the turn total, hold banks it."""
    seat = state.current_player
    playing = seat >= 0
    total = state.turn_total if playing else 0
    score = state.scores()[seat] if playing else 0
    goal = state.components.goal
    words = []
    for action in actions:
        name = state.rules.action_names[int(action)]
        if name == "roll" and playing:
            words.append(f"Roll again (a 1 loses the turn total of {total})")
        elif name == "hold" and playing:
            banked = score + total
            end = "and win" if banked >= goal else "and end the turn"
            words.append(f"Hold: bank {total} points ({score} to {banked}) {end}")
        else:
            words.append(name.capitalize())
    return words


def describe_action(state: _pig.State, action: int) -> str:
    return describe_actions(state, [action])[0]


__all__ = ["describe_action", "describe_actions", "describe_decision", "describe_phase", "rules_hint", "source_words"]
