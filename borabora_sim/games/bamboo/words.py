"""Bamboo in the rulebook's words: what a person reads of an action, a decision, a season, a shoot, a spirit, a
tile and a score source, and a one-line rules hint per decision kind. The engine's names
(`State.action_to_string`) stay what programs read; everything shown to a person goes through here
(borabora_sim.protocol.Game.describe_action and the rest).

>>> from borabora_sim.games.bamboo import new_game
>>> state = new_game(players=3, seed=7)
>>> describe_decision(state)
'Set-up: take a Bamboo Shoot from the pool'
>>> describe_actions(state, state.legal_actions()[:1])
['Take a temple-1 Fund shoot (it goes to temple area 1)']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from borabora_sim import _bamboo
from borabora_sim.games.bamboo.components import ACTIONS, COLOURS, HOME_TYPES, SIDES, SPIRIT_EFFECTS, BambooComponents

NO_TILE = 255

# The shoots' icons and the actions (ACTIONS) as the rulebook names them.
ACTION_WORDS = {"balance": "Balance", "improve": "Improve Your Home", "cook": "Cook", "fund": "Fund",
                "wildcard": "Wildcard"}
ACTION_EFFECTS = {"balance": "1 HP, or obtain and score balance tiles", "improve": "1 coin, or buy a home tile",
                  "cook": "take a food counter", "fund": "2 coins", "wildcard": "any of the four actions"}
SPIRIT_EFFECT_WORDS = {
    "balance": "a Balance action", "improve": "an Improve Your Home action", "fund": "a Fund action: 2 coins",
    "wildcards": "this turn's shoots act as Wildcards", "winter_food": "{amount} food units for feeding",
    "free_offering": "this offering's incense goes to any temple for free",
    "renew_food": "renew the food counters and take one",
}
PHASE_WORDS = {"setup": "set-up", "spring": "Spring", "summer": "Summer", "wake": "Winter: wake up the spirits",
               "feed": "Winter: feed your family", "end": "game over"}
SOURCE_WORDS = {
    "start": "starting HP", "balance_hp": "Balance taken as 1 HP", "balance_scored": "balance tiles scored",
    "home_tiles": "home tiles", "hunger": "hunger", "spirit_types": "different spirits", "harmony": "harmony",
    "half_balance": "balance tiles met at the end (half)", "night_spaces": "uncovered nighttime spaces",
}
DECISION_WORDS = {
    "draft": "Set-up: take a Bamboo Shoot from the pool",
    "gift": "Spring: choose a gift from the forest",
    "visit": "Summer: visit a temple",
    "offer": "Make an offering: where does the next stick of incense go?",
    "stalk": "Place the Bamboo Shoots: choose a stalk for the next one",
    "shoot": "Which shoot goes on the stalk?",
    "activate": "Activate the Bamboo Shoots",
    "balance": "Balance: 1 HP, or obtain and score balance tiles",
    "improve": "Improve Your Home: 1 coin, or buy a home tile",
    "home_space": "Place the home tile in the home",
    "cook": "Cook: take a food counter",
    "renew_food": "Tengu: take a food counter and renew the display",
    "keep_shoot": "A new shoot's temple area is full: choose where it goes",
    "wake": "Winter: wake up a Spirit of the Forest",
    "feed": "Winter: feed your family",
}
# What a seat does at each decision, where the decisions still to take are listed ("seat 2 chooses a stalk").
DECISION_DOINGS = {
    "draft": "takes a Bamboo Shoot from the pool", "gift": "chooses a gift from the forest",
    "visit": "visits a temple", "offer": "makes an offering", "stalk": "chooses a stalk for a shoot",
    "shoot": "chooses the shoot for the stalk", "activate": "activates the Bamboo Shoots",
    "balance": "performs Balance", "improve": "performs Improve Your Home", "home_space": "places the home tile",
    "cook": "performs Cook", "renew_food": "uses the Tengu", "keep_shoot": "places a shoot whose area is full",
    "wake": "wakes up a spirit", "feed": "feeds the family",
}
# A spirit's effect in a few words, for its tile.
SPIRIT_EFFECT_SHORT = {
    "balance": "Balance", "improve": "Improve Your Home", "fund": "Fund", "wildcards": "all Wildcards",
    "winter_food": "{amount} food in Winter", "free_offering": "free offering", "renew_food": "renew food",
}
RULES_HINTS = {
    "draft": "In turn order each player takes 2 shoots from the pool; a shoot goes to the temple area of its "
             "colour.",
    "gift": "Take one face-up gift from the forest and perform its action: Fund, Cook, Balance or Improve Your "
            "Home.",
    "visit": "Move your action marker to a temple area with shoots, not the one you visited in your previous turn.",
    "offer": "Offer one stick of incense per shoot in the area; a stick in a temple of another colour costs 1 coin "
             "(Bakeneko: free).",
    "stalk": "All the area's shoots go on bamboo stalks (at most 2 new per stalk); as many are activated as sticks "
             "were offered.",
    "shoot": "All the area's shoots go on bamboo stalks (at most 2 new per stalk); as many are activated as sticks "
             "were offered.",
    "activate": "Activate placed shoots one by one, as many as sticks offered (a Wildcard as any action); spirits "
                "may be used between actions; Done declines the rest.",
    "balance": "Receive 1 HP, or do two of: obtain a face-up balance tile (at most 2 of a type), score one of yours "
               "whose pattern your home shows.",
    "improve": "Receive 1 coin, or buy a face-up home tile for its cost in coins and gain the HP it shows.",
    "home_space": "The home tile goes on any empty space of your home (on the nighttime side a typed space takes "
                  "only its type).",
    "cook": "Take one food counter from the display: tea feeds 1, rice 2, ramen 3.",
    "renew_food": "Tengu: take a food counter, and discard the display and reveal 5 new ones, in either order.",
    "keep_shoot": "A shoot whose own temple area is full goes to another temple area of your choice.",
    "wake": "Wake up a sleeping Spirit of the Forest by paying its cost in coins.",
    "feed": "Pay 1 food unit per home tile; each unit short costs 1 HP, and no change is given.",
}
assert set(DECISION_WORDS) == set(_bamboo.DECISIONS) == set(RULES_HINTS) == set(DECISION_DOINGS)
assert set(SPIRIT_EFFECT_SHORT) == set(SPIRIT_EFFECTS)
assert set(PHASE_WORDS) == set(_bamboo.PHASES) and set(SOURCE_WORDS) == set(_bamboo.SOURCES)
assert set(ACTION_WORDS) == set(ACTIONS) and set(SPIRIT_EFFECT_WORDS) == set(SPIRIT_EFFECTS)


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def shoot_words(kind: int) -> str:
    """A shoot kind (colour x 5 + icon): "temple-2 Cook shoot"."""
    return f"temple-{kind // len(ACTIONS) + 1} {ACTION_WORDS[ACTIONS[kind % len(ACTIONS)]]} shoot"


def pending_words(decisions: Sequence[tuple[str, int]]) -> str:
    """The decisions still to take, the next first, as (decision, seat): "Next: seat 2 chooses a stalk for a shoot,
    then activates the Bamboo Shoots"; "Nothing pending" for none."""
    if not decisions:
        return "Nothing pending"
    parts, last = [], None
    for decision, seat in decisions:
        parts.append(DECISION_DOINGS[decision] if seat == last else f"seat {seat} {DECISION_DOINGS[decision]}")
        last = seat
    return "Next: " + ", then ".join(parts)


def shoot_title(kind: int) -> str:
    """A shoot and what activating it does: "temple-2 Cook shoot: take a food counter"."""
    return f"{shoot_words(kind)}: {ACTION_EFFECTS[ACTIONS[kind % len(ACTIONS)]]}"


def spirit_words(c: BambooComponents, spirit: int) -> str:
    """A spirit and what using it does: "Kappa (a Balance action)"."""
    effect = SPIRIT_EFFECT_WORDS[SPIRIT_EFFECTS[int(c.spirit_effect[spirit])]]
    return f"{c.spirit_names[spirit]} ({effect.format(amount=int(c.spirit_amount[spirit]))})"


def home_tile_words(c: BambooComponents, tile: int) -> str:
    """A home tile: "garden home tile (2 comfort)"."""
    return f"{HOME_TYPES[int(c.home_type[tile])]} home tile ({plural(int(c.home_comfort[tile]), 'comfort point')})"


def food_words(c: BambooComponents, kind: int) -> str:
    return f"{c.food_names[kind]} counter ({plural(int(c.food_value[kind]), 'food unit')})"


def phase_words(phase: str) -> str:
    return PHASE_WORDS.get(phase, phase.replace("_", " "))


def describe_phase(state: _bamboo.State) -> str:
    """The round and season: "Round 2, Summer"."""
    if state.is_terminal():
        return "Game over"
    return f"Round {state.round}, {phase_words(state.phase)}"


def _top(view: Mapping[str, Any]) -> dict[str, int]:
    frame = view["stack"][view["sp"] - 1]
    return {"a": int(frame["a"]), "b": int(frame["b"])}


def describe_decision(state: _bamboo.State) -> str:
    """The decision the state waits on, as a question to its player."""
    decision = state.decision
    if decision is None:
        return "The game is over"
    top = _top(state.observation(state.current_player))
    if decision == "offer":
        return f"{DECISION_WORDS['offer']} ({plural(top['a'], 'stick')} to offer)"
    if decision == "stalk":
        return f"{DECISION_WORDS['stalk']} ({plural(top['a'], 'shoot')} to place)"
    if decision == "shoot":
        return f"Which shoot goes on stalk {top['a'] + 1}?"
    if decision == "activate":
        return f"{DECISION_WORDS['activate']} ({plural(top['a'], 'activation')} left)"
    if decision == "balance" and top["a"] == 1:
        return "Balance: a second action (obtain or score a balance tile), or done"
    if decision == "feed":
        return f"{DECISION_WORDS['feed']} ({plural(top['a'], 'food unit')} owed)"
    return DECISION_WORDS.get(decision, decision.replace("_", " "))


def rules_hint(decision: str) -> str:
    return RULES_HINTS.get(decision, "")


def source_words(source: str) -> str:
    return SOURCE_WORDS.get(source, source.replace("_", " "))


def describe_actions(state: _bamboo.State, actions: Sequence[int]) -> list[str]:
    """Each of `actions` (legal in `state`) in words, as its player reads it at the decision pending."""
    if not actions:
        return []
    seat = state.current_player
    view = state.observation(seat) if seat >= 0 else None
    return [_describe(state, view, int(action)) for action in actions]


def describe_action(state: _bamboo.State, action: int) -> str:
    return describe_actions(state, [action])[0]


def _describe(state: _bamboo.State, view: Mapping[str, Any] | None, action: int) -> str:
    c = state.components
    name = state.rules.action_names[action]
    words = name.split()
    if view is None:
        return name[0].upper() + name[1:].replace("_", " ")
    decision = state.decision or ""
    seat = state.current_player
    p = view["pl"][seat]
    top = _top(view)
    if words[0] == "shoot":
        kind = COLOURS.index(words[1]) * len(ACTIONS) + ACTIONS.index(words[2])
        if decision == "draft":
            return f"Take a {shoot_words(kind)} (it goes to temple area {COLOURS.index(words[1]) + 1})"
        return f"Put the {shoot_words(kind)} on stalk {top['a'] + 1}"
    if words[0] == "gift":
        return f"Take the gift from the forest: {ACTION_WORDS[words[1]]} ({ACTION_EFFECTS[words[1]]})"
    if words[0] == "visit":
        area = int(words[2]) - 1
        shoots = sum(1 for kind in p["area"][area] if kind != NO_TILE)
        return f"Visit temple {area + 1} ({plural(shoots, 'shoot')} in its area)"
    if words[0] == "incense":
        temple = int(words[-1]) - 1
        free = temple == view["visit"] or view["bakeneko"]
        return f"Offer a stick of incense at temple {temple + 1}" + ("" if free else " (1 coin)")
    if words[0] == "stalk":
        return f"Put the next shoot on bamboo stalk {words[1]}"
    if words[0] == "activate":
        if words[1] == "wildcard":
            what = "a shoot (Kitsune)" if view["kitsune"] else "a Wildcard shoot"
            return f"Activate {what} as {ACTION_WORDS[words[-1]]} ({ACTION_EFFECTS[words[-1]]})"
        article = "an" if words[1] == "improve" else "a"
        return f"Activate {article} {ACTION_WORDS[words[1]]} shoot ({ACTION_EFFECTS[words[1]]})"
    if words[0] == "use":
        spirit = c.spirit_names.index(words[1])
        if decision == "offer" and SPIRIT_EFFECTS[int(c.spirit_effect[spirit])] == "improve":
            return f"Use {words[1]} (Improve Your Home taken as 1 coin now)"
        return f"Use {spirit_words(c, spirit)}"
    if name == "balance 1 HP":
        return "Receive 1 HP (the whole Balance action)"
    if words[0] == "obtain":
        side, position = SIDES.index(words[1]), int(words[-1])
        tile = view["bal_market"][side][position - 1]
        points = f", {int(c.balance_hp[tile])} HP" if tile != NO_TILE else ""
        return f"Obtain the {words[1]}-type balance tile at position {position}{points}"
    if words[0] == "score":
        side, slot = SIDES.index(words[1]), int(words[-1])
        tile = p["balance"][side][slot - 1]
        points = f" for {int(c.balance_hp[tile])} HP" if tile != NO_TILE else ""
        return f"Score the {words[1]}-type balance tile held in slot {slot}{points}"
    if name == "improve 1 coin":
        return "Receive 1 coin (the whole Improve Your Home action)"
    if words[0] == "buy":
        category, position = int(words[2] == "B"), int(words[-1])
        tile = view["home_market"][category][position - 1]
        if tile == NO_TILE:
            return f"Buy home tile {position} of market {words[2]}"
        return (f"Buy a {home_tile_words(c, tile)} for {plural(int(c.home_cost[tile]), 'coin')}: "
                f"{int(c.home_hp[tile])} HP (market {words[2]}, position {position})")
    if name.startswith("home space"):
        row, _, column = words[-1][1:].partition("c")
        return f"Put the home tile in row {row}, column {column} of the home"
    if words[0] == "take":
        kind = c.food_names.index(words[1])
        return f"Take a {food_words(c, kind)}"
    if name == "renew food":
        return "Discard the food counters and reveal new ones"
    if name.startswith("keep shoot"):
        return f"Put the shoot in temple area {words[-1]}"
    if words[0] == "wake":
        spirit = c.spirit_names.index(words[1])
        return f"Wake up {words[1]} ({plural(int(c.spirit_wake_cost[spirit]), 'coin')})"
    if words[0] == "pay":
        return f"Pay a {food_words(c, c.food_names.index(words[1]))}"
    if name == "done":
        return _done(decision, top)
    return name[0].upper() + name[1:].replace("_", " ")


def _done(decision: str, top: Mapping[str, int]) -> str:
    if decision == "activate":
        return "End the turn" + (f" (declining {plural(top['a'], 'activation')} left)" if top["a"] else "")
    return {"balance": "Skip the second Balance action", "renew_food": "Do not renew the food counters",
            "wake": "Wake up no more spirits"}.get(decision, "Done")


__all__ = ["describe_action", "describe_actions", "describe_decision", "describe_phase", "rules_hint", "source_words"]
