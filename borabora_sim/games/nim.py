"""Nim, the subtraction game: one pile of 21 stones, each player in turn takes 1, 2 or 3, and whoever takes the
last stone wins. Who moves first is drawn. With two players the first wins by always leaving a multiple of four
stones, which the "perfect" style does; "greedy" takes as many as it may. The whole game is this module: its
rules in Python (borabora_sim.games.python_game), its words, its heuristic and its pieces for questions.

>>> from borabora_sim.games import get_game
>>> state = get_game("nim").new_initial_state(players=2, seed=3)
>>> state.apply(0); state.position["pile"]
20
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from borabora_sim.games import GameRecord
from borabora_sim.games.python_game import Chance, PythonGame
from borabora_sim.vocabulary import ActionGroup, Rung, Situation, Vocabulary

__all__ = ["BAD_STATES", "FIRST_DECISION", "QUESTIONS", "RECORD", "Nim"]

PILE = 21
MOST = 3                                       # the most stones a player may take at once


def _stones(count: int) -> str:
    return f"{count} stone{'' if count == 1 else 's'}"


class Nim(PythonGame):
    """Nim as a game object (borabora_sim.protocol.Game): the game spec "nim"."""

    name = "nim"
    action_names = tuple(f"take_{count}" for count in range(1, MOST + 1))
    player_counts: tuple[int, ...] = (2, 3, 4)
    score_unit = "PTS"
    sources: tuple[str, ...] = ("last_stone",)
    source_words = MappingProxyType({"last_stone": "the point for taking the last stone"})
    counters: tuple[str, ...] = ("stones_taken", "start_position")
    default_players: tuple[str, ...] = ("heuristic", "heuristic:style=greedy")
    weight_names: tuple[str, ...] = ("leave_four", "take_more")
    # leave_four: the worth of leaving the next player a multiple of four stones; take_more: of each stone taken
    styles: Mapping[str, Mapping[str, float]] = MappingProxyType({
        "perfect": MappingProxyType({"leave_four": 1.0, "take_more": 0.0}),
        "greedy": MappingProxyType({"leave_four": 0.0, "take_more": 1.0})})
    default_style = "perfect"

    def start(self, players: int, chance: Chance) -> dict[str, Any]:
        first = chance.below(players)
        return {"pile": PILE, "to_move": first, "first_seat": first, "taken": [0] * players, "last_taker": -1}

    def to_move(self, position: Mapping[str, Any]) -> int:
        return int(position["to_move"])

    def legal(self, position: Mapping[str, Any]) -> Sequence[int]:
        return range(min(MOST, position["pile"]))

    def play(self, position: dict[str, Any], action: int, chance: Chance) -> None:
        seat, count = position["to_move"], action + 1
        position["pile"] -= count
        position["taken"][seat] += count
        position["last_taker"] = seat
        position["to_move"] = -1 if position["pile"] == 0 else (seat + 1) % len(position["taken"])

    def scores(self, position: Mapping[str, Any]) -> Sequence[int]:
        over = position["pile"] == 0
        return [int(over and seat == position["last_taker"]) for seat in range(len(position["taken"]))]

    def count(self, position: Mapping[str, Any], seat: int) -> dict[str, int]:
        return {"stones_taken": int(position["taken"][seat])}

    def check(self, position: Mapping[str, Any], players: int) -> str | None:
        fields = {"pile", "to_move", "first_seat", "taken", "last_taker"}
        if set(position) != fields:
            return f"a Nim position has the fields {', '.join(sorted(fields))}"
        if any(not isinstance(v, int) or isinstance(v, bool) for k, v in position.items() if k != "taken"):
            return "pile, to_move, first_seat and last_taker are integers"
        taken = position["taken"]
        if not isinstance(taken, list) or len(taken) != players or \
                any(not isinstance(t, int) or isinstance(t, bool) or t < 0 for t in taken):
            return f"taken holds the stones each of the {players} seats took, numbers >= 0"
        if not 0 <= position["pile"] <= PILE or sum(taken) + position["pile"] != PILE:
            return f"the pile and the stones taken add up to {PILE}, with 0 to {PILE} stones in the pile"
        if not 0 <= position["first_seat"] < players:
            return f"first_seat is a seat, 0 to {players - 1}"
        if (position["to_move"] == -1) != (position["pile"] == 0) or not -1 <= position["to_move"] < players:
            return "to_move is the seat to move while stones are left, and -1 once the pile is empty"
        if (position["last_taker"] == -1) != (position["pile"] == PILE) or not -1 <= position["last_taker"] < players:
            return "last_taker is the seat that took last, -1 before the first move"
        return None

    def value(self, position: Mapping[str, Any], action: int, weights: np.ndarray) -> float:
        left = position["pile"] - (action + 1)
        return float(weights[0] * (left % 4 == 0) + weights[1] * (action + 1))

    # ---- in words -------------------------------------------------------------------------------------------
    def describe_action(self, state: Any, action: int) -> str:
        return f"Take {_stones(action + 1)}"

    def describe_decision(self, state: Any) -> str:
        pile = state.position["pile"]
        return f"Take 1 to {min(MOST, pile)} stones from the pile of {pile}"

    def describe_phase(self, state: Any) -> str:
        return "Game over" if state.is_terminal() else f"{_stones(state.position['pile'])} left in the pile"

    def rules_hint(self, decision: str) -> str:
        return "Take 1, 2 or 3 stones; whoever takes the last stone wins."


def _pile(state: Any, action: int) -> int:
    return int(state.position["pile"])


# Nim's pieces for questions (borabora_sim.questions): a ladder from random play to the perfect rule, taking three
# stones as a choice to ask about, and the pile as the situation a decision is described by.
QUESTIONS = Vocabulary(
    title="Nim",
    rungs=(Rung("random", "random", "the random player"), Rung("greedy", "heuristic:style=greedy", "the greedy player"),
           Rung("perfect", "heuristic:style=perfect", "the perfect player")),
    study_rungs=("greedy", "perfect"), opponent="heuristic:style=greedy", opponent_words="greedy players",
    judge="perfect", score_words="points",
    groups=MappingProxyType({"take_3": ActionGroup("taking 3 stones", "take_3")}),
    situations=MappingProxyType({"pile": Situation("stones in the pile", _pile, at_least="{} or more stones are left",
                                                   at_most="at most {} stone{s} are left",
                                                   equal="{} stone{s} are left")}))

# Samples for the tests every game runs (GameRecord.samples): the decision a new game waits on, and saved states
# that break a law of the game with what their refusal names.
FIRST_DECISION = ("play", "move", 1)
BAD_STATES = MappingProxyType({
    "stones_lost": (lambda saved: saved["state"].update(pile=saved["state"]["pile"] - 1), "add up to 21"),
    "no_such_seat": (lambda saved: saved["state"].update(to_move=9), "to_move is the seat to move")})

RECORD = GameRecord(name="nim", game="borabora_sim.games.nim:Nim", questions="borabora_sim.games.nim:QUESTIONS",
                    samples="borabora_sim.games.nim")
