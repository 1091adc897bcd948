"""Samples of Pig for the tests every registered game runs (tests/, which read them through its RECORD's
samples): data only, each constant the game's answer to one question a test asks of any game. A test skips, saying
so, what a game gives no sample for. A change of a document is a function that edits it in place: the built-in
component document as `to_json_dict()` gives it, or a saved state as `to_dict()` gives it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = [
    "BAD_COMPONENTS",
    "BAD_STATES",
    "CLICKABLE",
    "CLOCK_FIELDS",
    "CLOCK_VERDICTS",
    "COMPONENT_CHANGE",
    "COMPONENT_FILE_ERROR",
    "ENCODED",
    "FIRST_DECISION",
]

Edit = Callable[[dict[str, Any]], object]

# Where a new game waits: (phase, decision, round).
FIRST_DECISION = ("play", "roll_or_hold", 1)

# A change of the built-in component document that loads (component data of one's own): the record it is in (its
# path in the document), its field, the new value, and where the loaded components hold it (an attribute, then the
# indexes into it).
COMPONENT_CHANGE: dict[str, Any] = {"record": ("goal",), "field": "points", "value": 50, "held_at": ("goal",)}

# A value no component file allows at one place of the document, and the message naming the field (after the file).
COMPONENT_FILE_ERROR: tuple[Edit, str] = (lambda d: d["die"].update(faces=1), "die.faces: 1; allowed: an integer 2..20")

# Malformed component documents, each refused with a message naming the field: the edit, and what the message says.
BAD_COMPONENTS: dict[str, tuple[Edit, str]] = {
    "no goal": (lambda d: d["goal"].update(points=0), "goal.points: 0; allowed: an integer 1..200"),
    "goal beyond the engine": (lambda d: d["goal"].update(points=201), "goal.points: 201; allowed: an integer 1..200"),
    "a coin is no die": (lambda d: d["die"].update(faces=1), "die.faces: 1; allowed: an integer 2..20"),
    "too many faces": (lambda d: d["die"].update(faces=21), "die.faces: 21; allowed: an integer 2..20"),
    "float faces": (lambda d: d["die"].update(faces=6.0), "die.faces: 6.0; allowed: an integer 2..20"),
    "bool as int": (lambda d: d["goal"].update(points=True), "goal.points: True"),
    "missing mark": (lambda d: d["goal"].pop("mark"), "goal.points: no provenance mark"),
    "unknown key": (lambda d: d["die"].update(colour="red"), "die.colour: unknown key"),
    "missing section": (lambda d: d.pop("die"), "die: missing"),
    "format version": (lambda d: d.update(format_version=2), "format_version: 2; allowed: 1"),
}


# Malformed saved states of a game in progress, besides what every compiled game's saved state is refused for, each
# refused naming the field or the law it breaks: the edit, and what the message names.
BAD_STATES: dict[str, tuple[Edit, str]] = {
    "the_goal_banked_mid_game": (lambda d: d["state"]["pl"][0]["score"].__setitem__(0, 100), "scores"),
    "no_pending_decision": (lambda d: d["state"].update(sp=0), "stack"),
    "a_roll_of_seven": (lambda d: d["state"].update(last_roll=7), "the roll"),
    "the_wrong_seat_to_move": (lambda d: d["state"]["stack"][0].update(
        player=(d["state"]["stack"][0]["player"] + 1) % d["state"]["n_players"]), "turn order"),
    "a_hold_never_made": (lambda d: d["state"]["pl"][1].update(holds=d["state"]["pl"][1]["holds"] + 1), "counters"),
}

# The fields of a saved state that order play in time, each a path into its body ("*": any seat in play, or any
# pending decision): the round, phase, first seat, the seat whose turn ended last and how, the seat to move, each
# seat's turns and the move count.
CLOCK_FIELDS: tuple[tuple[str, ...], ...] = (
    ("round",), ("phase",), ("start_seat",), ("last_seat",), ("stack", "*", "player"), ("pl", "*", "turns"),
    ("pl", "*", "last_end"), ("n_moves",))

# Edits of clock fields and the verdict of the clock judge on each: the first saved state of the clock fuzz whose body
# holds the values given (here a 2-player game whose seat 0 began it, at seat 0's turn of round 2), the field edited,
# its new value (None: the move count plus one), and "played" (to the end) or "refused". The move count is that of
# the rolls and holds, and the first seat decides whose turns a round has begun.
CLOCK_VERDICTS: tuple[tuple[dict[str, int], tuple[str | int, ...], int | None, str], ...] = (
    ({"n_players": 2, "round": 2, "sp": 1, "start_seat": 0}, ("turn_total",), 7, "played"),
    ({"n_players": 2, "round": 2, "sp": 1, "start_seat": 0}, ("n_moves",), None, "refused"),
    ({"n_players": 2, "round": 2, "sp": 1, "start_seat": 0}, ("start_seat",), 1, "refused"),
)

# The things of its picture that can pick a move in browser play (the targets of its click_targets).
CLICKABLE = ("[data-roll]", "[data-turn-total]")

# What its observation encoder is expected to be: the tensor's length, whether every seat sees the same, the page
# of docs/ that describes it and its Gymnasium id.
ENCODED: dict[str, Any] = {"size": 92, "views_alike": True,
                           "page": "pig.md", "env_id": "borabora_sim/Pig-v0"}
