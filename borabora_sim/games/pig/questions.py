"""Pig's pieces for the question engine (borabora_sim.questions): its ladder and the choice of holding."""

from __future__ import annotations

from types import MappingProxyType

from borabora_sim.counterfactual import score_gap
from borabora_sim.questions.vocabulary import ActionGroup, Rung, Situation, Vocabulary

QUESTIONS = Vocabulary(
    title="Pig",
    rungs=(Rung("hold20", "heuristic:style=hold20", "the hold-at-20 player"),
           Rung("keep_pace", "heuristic:style=keep_pace", "the keep-pace player")),
    study_rungs=("hold20", "keep_pace"),
    opponent="heuristic:style=hold20",
    opponent_words="hold-at-20 players",
    judge="keep_pace",
    score_words="points",
    groups=MappingProxyType({"hold": ActionGroup("holding", r"hold")}),
    situations=MappingProxyType({
        "round": Situation("round", lambda state, action: state.round),
        "points_gap": Situation("points ahead of the other player",
                                lambda state, action: score_gap(state, state.current_player)),
    }),
)

__all__ = ["QUESTIONS"]
