"""Pig's pieces for the question engine (borabora_sim.questions): its ladder and the choice of holding."""

from __future__ import annotations

from types import MappingProxyType

from borabora_sim.counterfactual import score_gap
from borabora_sim.protocol import GameState
from borabora_sim.vocabulary import ActionGroup, Rung, Situation, Vocabulary, lead_words

POINTS_LEAD = lead_words("points")


def _turn_total(state: GameState) -> int:
    """The points the deciding player has rolled this turn, lost on a 1 and banked by holding."""
    total: int = state.to_dict()["state"]["turn_total"]
    return total


QUESTIONS = Vocabulary(
    title="Pig",
    rungs=(Rung("hold20", "heuristic:style=hold20", "the hold-at-20 player"),
           Rung("keep_pace", "heuristic:style=keep_pace", "the keep-pace player")),
    study_rungs=("hold20", "keep_pace"),
    opponent="heuristic:style=hold20",
    opponent_words="hold-at-20 players",
    judge="expert",
    second_judge="keep_pace",
    score_words="points",
    groups=MappingProxyType({"hold": ActionGroup("holding", r"hold")}),
    situations=MappingProxyType({
        "round": Situation("round", lambda state, action: state.round, at_least="it is round {} or later",
                           at_most="it is round {} or earlier", equal="it is round {}"),
        "points_gap": Situation("points ahead of the other player",
                                lambda state, action: score_gap(state, state.current_player),
                                at_least=POINTS_LEAD[0], at_most=POINTS_LEAD[1]),
        "turn_total": Situation("points rolled this turn", lambda state, action: _turn_total(state),
                                at_least="you have rolled at least {} point{s} this turn",
                                at_most="you have rolled at most {} point{s} this turn",
                                equal="you have rolled {} point{s} this turn"),
        "score": Situation("your score", lambda state, action: state.scores()[state.current_player],
                           at_least="your score is at least {}", at_most="your score is at most {}",
                           equal="your score is {}"),
    }),
)

__all__ = ["QUESTIONS"]
