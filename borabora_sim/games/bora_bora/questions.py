"""Bora Bora's pieces for the question engine (borabora_sim.questions): its strength ladder, the groups of
actions a choice can be asked about, the situation columns of a decision, the gifts a state edit can make, and
its component variants. The built-in questions are the TOML files beside this module, in `questions/`."""

from __future__ import annotations

import copy
from collections.abc import Callable
from types import MappingProxyType
from typing import cast

import numpy as np

from borabora_sim import _engine
from borabora_sim.counterfactual import score_gap
from borabora_sim.games.bora_bora.situations import blocked_tiles, dice_left, god_cards, own_view, priests, regions
from borabora_sim.games.bora_bora.variants import VARIANTS, write_variant
from borabora_sim.protocol import GameState
from borabora_sim.vocabulary import (
    ActionGroup,
    Edit,
    Moment,
    Rung,
    Situation,
    Vocabulary,
    lead_words,
    one_more,
    value_text,
)

RUNGS = (
    Rung("heuristic", "heuristic", "the balanced heuristic"),
    Rung("tuned", "heuristic:style=tuned", "the tuned heuristic"),
    Rung("expert", "expert", "the expert player"),
    Rung("learned", "learned", "the learned player"),
    Rung("mcts100", "mcts:iterations=100,rollout=heuristic,rollout_depth=30", "MCTS with 100 iterations"),
    Rung("mcts300", "mcts:iterations=300,rollout=heuristic,rollout_depth=30", "MCTS with 300 iterations"),
)

PLACEMENT = r"place \d on \w+"            # a count of a die's place weighs it against the die's other places

GROUPS = MappingProxyType({
    "fishing": ActionGroup("a die on the Fishing action", r"place \d on fishing", PLACEMENT),
    "temple": ActionGroup("a die on the Temple action", r"place \d on temple", PLACEMENT),
    "build": ActionGroup("a die on the Build action", r"place \d on build", PLACEMENT),
    "man": ActionGroup("a die on the Man action", r"place \d on man", PLACEMENT),
    "woman": ActionGroup("a die on the Woman action", r"place \d on woman", PLACEMENT),
    "expand": ActionGroup("a die on a Land or Water expansion action", r"place \d on (land|water)_path", PLACEMENT),
    "god": ActionGroup("playing a God card", r"play \w+ god with .*"),
})


def _state(state: GameState) -> _engine.State:
    return cast(_engine.State, state)


def _die(state: GameState, action: int) -> int | None:
    placement = _engine.die_placement(action)
    return placement[0] if placement else None


def _blocked(state: GameState, action: int) -> int:
    die = _die(state, action)
    return len(blocked_tiles(_state(state), die)) if die is not None else 0


def _held(field: str) -> Callable[[GameState, int], int]:
    """A situation's value: a counter of the deciding seat's own record ("shells", "offerings", "n_persons")."""
    return lambda state, action: int(own_view(_state(state))[field])


def _counted_words(at: str, one: str, many: str) -> Callable[[float], str]:
    """The wording of a condition (`at`: "at least", "at most" or "") on a count named `one` or `many`: "you have
    at least 2 {many}"."""
    return lambda count: " ".join(["you have", *([at] if at else []), value_text(count), one if count == 1 else many])


def _dice_left(at: str) -> Callable[[float], str]:
    counted = _counted_words(at, "die left to place", "dice left to place")
    return lambda dice: "it is your last die of the round" if dice == 1 and at != "at least" else counted(dice)


def _people(at: str) -> Callable[[float], str]:
    return _counted_words(at, "man or woman on your board", "men and women on your board")


VP_LEAD = lead_words("VP")

SITUATIONS = MappingProxyType({
    "round": Situation("round", lambda state, action: state.round, at_least="it is round {} or later",
                       at_most="it is round {} or earlier", equal="it is round {}"),
    "die": Situation("die value", _die, at_least="the die shows {} or more", at_most="the die shows {} or less",
                     equal="the die shows {}"),
    "blocked": Situation("action tiles that die may not use", _blocked,
                         at_least="that die is barred from at least {} action tile{s}",
                         at_most="that die is barred from at most {} action tile{s}",
                         equal="that die is barred from {} action tile{s}"),
    "vp_gap": Situation("VP ahead of the best other player", lambda state, action: score_gap(state,
                                                                                             state.current_player),
                        at_least=VP_LEAD[0], at_most=VP_LEAD[1]),
    "turn_order": Situation("place in the turn order (1 = first)", lambda state, action:
                            _state(state).first_turn_order.index(state.current_player) + 1,
                            at_least="you are at place {} or later in the turn order",
                            at_most="you are at place {} or earlier in the turn order",
                            equal="you are at place {} in the turn order"),
    "dice_left": Situation("dice left to place this round", lambda state, action: dice_left(_state(state)),
                           at_least=_dice_left("at least"), at_most=_dice_left("at most"),
                           equal=_dice_left("")),
    "shells": Situation("shells held", _held("shells"), at_least="you hold at least {} shell{s}",
                        at_most="you hold at most {} shell{s}", equal="you hold {} shell{s}"),
    "offerings": Situation("offering tokens held", _held("offerings"),
                           at_least="you hold at least {} offering token{s}",
                           at_most="you hold at most {} offering token{s}", equal="you hold {} offering token{s}"),
    "priests": Situation("your priests in the temple", lambda state, action: priests(_state(state)),
                         at_least="you have at least {} priest{s} in the temple",
                         at_most="you have at most {} priest{s} in the temple",
                         equal="you have {} priest{s} in the temple"),
    "god_cards": Situation("God cards in hand", lambda state, action: god_cards(_state(state)),
                           at_least="you hold at least {} God card{s}", at_most="you hold at most {} God card{s}",
                           equal="you hold {} God card{s}"),
    "people": Situation("men and women on your board", _held("n_persons"), at_least=_people("at least"),
                        at_most=_people("at most"), equal=_people("")),
    "regions": Situation("regions with your huts", lambda state, action: regions(_state(state)),
                         at_least="your huts are in at least {} region{s}",
                         at_most="your huts are in at most {} region{s}", equal="your huts are in {} region{s}"),
})


def extra_priest(moment: Moment) -> GameState | None:
    """One more priest of the moment's seat placed on the leftmost temple space as a temple action places it (the
    priests there are pushed along the arrows; the last one may drop off); None if all four are already there."""
    state, seat = moment.state, moment.seat
    data = copy.deepcopy(state.to_dict())
    temple = data["state"]["temple"]
    if temple.count(seat) >= 4:
        return None
    end = temple.index(-1) if -1 in temple else len(temple) - 1
    temple[1:end + 1] = temple[:end]
    temple[0] = seat
    return _engine.State.from_dict(data, _state(state).rules)


def _at_die(state: GameState) -> bool:
    return state.decision == "die"


def temple_vp_to_come(state: GameState) -> float:
    """A priest's direct VP from a moment on: the temple VP per priest of the scorings still to come."""
    return float(np.sum(_state(state).components.temple_vp_by_round[state.round - 1:]))


EDITS = MappingProxyType({
    "priest": Edit("one more priest in the temple", extra_priest, _at_die, temple_vp_to_come, "direct temple VP"),
    "shell": Edit("one more shell", one_more("shells"), _at_die),
    "offering": Edit("one more offering token", one_more("offerings"), _at_die),
})

QUESTIONS = Vocabulary(
    title="Bora Bora",
    rungs=RUNGS,
    study_rungs=tuple(rung.label for rung in RUNGS),
    opponent="heuristic",
    opponent_words="balanced heuristics",
    judge="expert",
    second_judge="tuned",
    groups=GROUPS,
    situations=SITUATIONS,
    edits=EDITS,
    variants=tuple(VARIANTS),
    write_variant=write_variant,
    invented="Several component values are INVENTED (the fish tiles', the temple's shape, the status track's VP, "
             "jewelry and paths among them; the Components page of the documentation lists them).",
)

__all__ = ["QUESTIONS", "extra_priest"]
