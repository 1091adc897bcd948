"""Bamboo's pieces for the question engine (borabora_sim.questions): its strength ladder, the groups of actions a
choice can be asked about, the situation columns of a decision, the gifts a state edit can make, and its
component variants. The built-in questions are the TOML files beside this module, in `questions/`."""

from __future__ import annotations

import copy
from types import MappingProxyType

from borabora_sim.counterfactual import score_gap
from borabora_sim.errors import StateFormatError
from borabora_sim.games import game_of
from borabora_sim.games.bamboo.variants import VARIANTS, write_variant
from borabora_sim.protocol import GameState
from borabora_sim.questions.vocabulary import ActionGroup, Edit, Rung, Situation, Vocabulary, one_more

RUNGS = (                                                 # in the order of the ladder's ratings
    Rung("heuristic", "heuristic", "the balanced heuristic"),
    Rung("mcts300", "mcts:iterations=300", "MCTS with 300 iterations"),
    Rung("mcts1000", "mcts:iterations=1000", "MCTS with 1,000 iterations"),
    Rung("tuned", "heuristic:style=tuned", "the tuned heuristic"),
)

GROUPS = MappingProxyType({
    "balance_hp": ActionGroup("balance 1 HP (the Balance fallback)", r"balance \d HP"),
    "improve_coin": ActionGroup("improve 1 coin (the Improve Your Home fallback)", r"improve \d coin"),
    "ramen": ActionGroup("taking ramen", r"take ramen"),
    "tea": ActionGroup("taking tea", r"take tea"),
    "rice": ActionGroup("taking rice", r"take rice"),
    "spirit": ActionGroup("using a Spirit of the Forest", r"use \w+"),
    "home": ActionGroup("buying a home tile", r"buy home [AB] \d"),
    "obtain_balance": ActionGroup("obtaining a balance tile", r"obtain \w+ balance \d"),
})


def _player(state: GameState) -> dict[str, object]:
    player: dict[str, object] = state.to_dict()["state"]["pl"][state.current_player]
    return player


SITUATIONS = MappingProxyType({
    "round": Situation("round", lambda state, action: state.round),
    "coins": Situation("coins held", lambda state, action: _player(state)["coins"]),
    "hp_gap": Situation("HP ahead of the best other player", lambda state, action: score_gap(state,
                                                                                             state.current_player)),
    "decision": Situation("the decision", lambda state, action: game_of(state).describe_decision(state)),
})


FOOD_KINDS = ("tea", "rice", "ramen")                     # the order of a player's food counters


def _food(state: GameState, kind: str, seat: int) -> GameState | None:
    """The state with one food of `kind` moved to the seat from the supply (the deepest of that kind in the pile,
    else the discards); None when the supply has none."""
    data = copy.deepcopy(state.to_dict())
    board, index = data["state"], FOOD_KINDS.index(kind)
    pile = board["food_pile"][:board["food_left"]]
    if index in pile:
        pile.pop(pile.index(index))
        board["food_pile"] = pile + [0] * (len(board["food_pile"]) - len(pile))
        board["food_left"] -= 1
    elif board["food_discard"][index] > 0:
        board["food_discard"][index] -= 1
    else:
        return None
    board["pl"][seat]["food"][index] += 1
    try:
        return game_of(state).state_from_dict(data)
    except StateFormatError:
        return None


def _first_decision(state: GameState) -> bool:
    return state.phase != "setup"


EDITS = MappingProxyType({
    "coin": Edit("one more coin", one_more("coins"), _first_decision),
    "ramen": Edit("one more ramen", lambda state, seat: _food(state, "ramen", seat), _first_decision),
    "rice": Edit("one more rice", lambda state, seat: _food(state, "rice", seat), _first_decision),
})

QUESTIONS = Vocabulary(
    title="Bamboo",
    rungs=RUNGS,
    study_rungs=("heuristic", "mcts1000", "tuned"),
    opponent="heuristic",
    opponent_words="balanced heuristics",
    judge="tuned",
    groups=GROUPS,
    situations=SITUATIONS,
    edits=EDITS,
    variants=tuple(VARIANTS),
    write_variant=write_variant,
    invented="Several component values are INVENTED (the balance tiles' HP, the home tiles' costs and the "
             "wildcards' places among them; the Components page of the documentation lists them).",
)

__all__ = ["QUESTIONS"]
