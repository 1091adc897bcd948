"""Bamboo's pieces for the question engine (borabora_sim.questions): its strength ladder, the groups of actions a
choice can be asked about, the situation columns of a decision, the gifts a state edit can make, and its
component variants. The built-in questions are the TOML files beside this module, in `questions/`."""

from __future__ import annotations

import copy
from collections.abc import Callable
from types import MappingProxyType
from typing import TYPE_CHECKING, cast

from borabora_sim.counterfactual import score_gap
from borabora_sim.errors import StateFormatError
from borabora_sim.games import game_of
from borabora_sim.games.bamboo.situations import balance_tiles_held, food_held, home_tiles, own_record, spirit_kinds
from borabora_sim.games.bamboo.variants import VARIANTS, write_variant
from borabora_sim.protocol import Game, GameState
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

if TYPE_CHECKING:
    from borabora_sim.games.bamboo.game import Bamboo

RUNGS = (                                                 # in the order of the ladder's ratings
    Rung("heuristic", "heuristic", "the balanced heuristic"),
    Rung("mcts300", "mcts:iterations=300", "MCTS with 300 iterations"),
    Rung("mcts1000", "mcts:iterations=1000", "MCTS with 1,000 iterations"),
    Rung("tuned", "heuristic:style=tuned", "the tuned heuristic"),
    Rung("expert", "expert", "the expert player"),
    Rung("net300", "mcts:iterations=300,evaluation=net", "the network's search with 300 iterations"),
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


def _counted(at: str, one: str, many: str) -> Callable[[float], str]:
    """The wording of a condition (`at`: "at least", "at most" or "") on a count of the seat's pieces named `one`
    or `many`: "you have at least 2 {many}"."""
    return lambda count: " ".join(["you have", *([at] if at else []), value_text(count), one if count == 1 else many])


def _counts(one: str, many: str) -> dict[str, Callable[[float], str]]:
    return {"at_least": _counted("at least", one, many), "at_most": _counted("at most", one, many),
            "equal": _counted("", one, many)}


HP_LEAD = lead_words("HP")

SITUATIONS = MappingProxyType({
    "round": Situation("round", lambda state, action: state.round, at_least="it is round {} or later",
                       at_most="it is round {} or earlier", equal="it is round {}"),
    "coins": Situation("coins held", lambda state, action: own_record(state)["coins"],
                       **_counts("coin", "coins")),
    "hp_gap": Situation("HP ahead of the best other player", lambda state, action: score_gap(state,
                                                                                             state.current_player),
                        at_least=HP_LEAD[0], at_most=HP_LEAD[1]),
    "decision": Situation("the decision", lambda state, action: game_of(state).describe_decision(state),
                          equal="the decision is: {}"),
    "fallback": Situation("what else the decision offers", lambda state, action: _fallback_situation(state),
                          equal="the decision offers: {}"),
    "incense": Situation("incense sticks in your reserve", lambda state, action: own_record(state)["incense"],
                         **_counts("incense stick in your reserve", "incense sticks in your reserve")),
    "food": Situation("food counters held", lambda state, action: food_held(state),
                      **_counts("food counter", "food counters")),
    "home_tiles": Situation("home tiles in your home", lambda state, action: home_tiles(state),
                            **_counts("home tile in your home", "home tiles in your home")),
    "balance_tiles": Situation("balance tiles held, not yet scored", lambda state, action: balance_tiles_held(state),
                               **_counts("balance tile waiting to be scored", "balance tiles waiting to be scored")),
    "spirit_kinds": Situation("kinds of Spirits of the Forest held", lambda state, action: spirit_kinds(state),
                              **_counts("kind of Spirit of the Forest", "kinds of Spirits of the Forest")),
})


def _fallback_situation(state: GameState) -> str:
    """What a Balance or Improve Your Home decision offers beside its fallback: a held balance tile to score or
    only tiles to obtain; how many home tiles are affordable."""
    names = [state.action_to_string(a) for a in state.legal_actions()]
    if state.decision == "balance":
        return "a held tile can be scored" if any(n.startswith("score ") for n in names) else "tiles to obtain only"
    buyable = sum(n.startswith("buy home") for n in names)
    return "1 home tile affordable" if buyable == 1 else f"{'2-3' if buyable <= 3 else '4+'} home tiles affordable"


FOOD_KINDS = ("tea", "rice", "ramen")                     # the order of a player's food counters


def _food(kind: str) -> Callable[[Moment], GameState | None]:
    """An edit's `apply` that moves one food of `kind` to the seat from the supply (the deepest of that kind in the
    pile, else the discards); None when the supply has none."""
    return lambda moment: _one_food(moment.state, kind, moment.seat)


def _one_food(state: GameState, kind: str, seat: int) -> GameState | None:
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


def _spirit_names(game: Game) -> tuple[str, ...]:
    return tuple(cast("Bamboo", game).rules.components.spirit_names)


def _spirits_held(state: GameState, seat: int) -> list[int]:
    held: list[int] = state.to_dict()["state"]["pl"][seat]["spirits"]
    return held


def without_spirit(moment: Moment) -> GameState | None:
    """The state without one of the seat's tiles of the moment's spirit, moved to the tiles removed from the game
    as a spirit won by the 2-player ghost or offered no incense is (B29); None unless the seat won that spirit
    since the previous moment (its last Autumn). An awake tile goes, as a tile just won is; a final state also
    loses that tile's spirit-variety HP, which the end's scoring gave it. (The 16 tiles in play are a law of the
    saved state, so a spirit cannot be handed from the box: each pair starts from a spirit a seat really won.)"""
    state, seat, spirit = moment.state, moment.seat, moment.kind
    if _spirits_held(state, seat)[spirit] <= _spirits_held(moment.before, seat)[spirit]:
        return None
    game = game_of(state)
    data = copy.deepcopy(state.to_dict())
    fields = data["state"]
    player = fields["pl"][seat]
    player["spirits"][spirit] -= 1
    player["asleep"][spirit] = min(player["asleep"][spirit], player["spirits"][spirit])
    fields["spirit_gone"][spirit] += 1
    if state.is_terminal():
        kinds = sum(1 for count in player["spirits"] if count > 0)
        player["hp"][game.sources.index("spirit_types")] = \
            kinds * cast("Bamboo", game).rules.components.scoring["spirit_type_hp"]
    return game.state_from_dict(data)


EDITS = MappingProxyType({
    "coin": Edit("one more coin", one_more("coins"), _first_decision),
    "ramen": Edit("one more ramen", _food("ramen"), _first_decision),
    "rice": Edit("one more rice", _food("rice"), _first_decision),
    "spirit": Edit("the spirit tile", without_spirit, after_phase="summer", kinds=_spirit_names, kind_words="spirit",
                   removes=True, own_source="spirit_types", own_words="its spirit-variety HP",
                   moment_words="won in the Autumn of round {round}"),
})

QUESTIONS = Vocabulary(
    title="Bamboo",
    rungs=RUNGS,
    study_rungs=("heuristic", "mcts1000", "tuned"),
    opponent="heuristic",
    opponent_words="balanced heuristics",
    judge="expert",
    second_judge="tuned",
    groups=GROUPS,
    situations=SITUATIONS,
    edits=EDITS,
    variants=tuple(VARIANTS),
    write_variant=write_variant,
    invented="Several component values are INVENTED (the balance tiles' HP, the home tiles' costs and the "
             "wildcards' places among them; the Components page of the documentation lists them).",
)

__all__ = ["QUESTIONS", "without_spirit"]
