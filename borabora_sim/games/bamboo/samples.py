"""Samples of Bamboo for the tests every registered game runs (tests/, which read them through its RECORD's
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
    "WIDE_PICTURE",
]

Edit = Callable[[dict[str, Any]], object]

# Where a new game waits: (phase, decision, round).
FIRST_DECISION = ("setup", "draft", 1)

# A change of the built-in component document that loads (component data of one's own): the record it is in (its
# path in the document), its field, the new value, and where the loaded components hold it (an attribute, then the
# indexes into it).
COMPONENT_CHANGE: dict[str, Any] = {"record": ("temple_tiles", 3), "field": "incense", "value": 0,
                                     "held_at": ("temple_tile_incense", 3)}

# A value no component file allows at one place of the document, and the message naming the field (after the file).
COMPONENT_FILE_ERROR: tuple[Edit, str] = (lambda d: d["balance_tiles"][3].update(side="top"),
                                       "balance_tiles[3].side: 'top' is not a known name; allowed: left, center, right")


def _all_category_a_three_plus(doc: dict[str, Any]) -> None:
    for tile in doc["home_tiles"]:
        if tile["category"] == "A":
            tile["three_plus"] = True


# Malformed component documents, each refused with a message naming the field: the edit, and what the message says.
BAD_COMPONENTS: dict[str, tuple[Edit, str]] = {
    "home tile count": (lambda d: d["home_tiles"].pop(), "home_tiles: 63 records; allowed: exactly 64"),
    "home tile type": (lambda d: d["home_tiles"][0].update(type="furniture"),
                       "home_tiles[0].type: 'furniture' is not a known name; allowed: decoration, faith, garden"),
    "comfort range": (lambda d: d["home_tiles"][3].update(comfort=4),
                      "home_tiles[3].comfort: 4; allowed: an integer 1..3"),
    "home category": (lambda d: d["home_tiles"][5].update(category="C"), "home_tiles[5].category: 'C'"),
    "three_plus as text": (lambda d: d["home_tiles"][7].update(three_plus="yes"),
                           "home_tiles[7].three_plus: 'yes'; allowed: true or false"),
    "duplicate home id": (lambda d: d["home_tiles"][1].update(id="H01"),
                          "home_tiles[1].id: 'H01' repeats home_tiles[0]"),
    "no category A tile for 2 players": (_all_category_a_three_plus, "home_tiles: 0 category A tiles for 2 players"),
    "balance side": (lambda d: d["balance_tiles"][2].update(side="top"),
                     "balance_tiles[2].side: 'top' is not a known name; allowed: left, center, right"),
    "balance side counts": (lambda d: d["balance_tiles"][0].update(side="center", pattern=["D"]),
                            "balance_tiles: 23 left tiles; allowed: exactly 24"),
    "balance hp": (lambda d: d["balance_tiles"][0].update(hp=0), "balance_tiles[0].hp: 0; allowed: an integer 1..20"),
    "pattern letter": (lambda d: d["balance_tiles"][8].update(pattern=["GX"]),
                       "balance_tiles[8].pattern[0]: 'X' in 'GX'; allowed: D, F, G, T, * and ."),
    "pattern rows of unequal length": (lambda d: d["balance_tiles"][8].update(pattern=["G", "FD"]),
                                       "balance_tiles[8].pattern[1]: 2 letters, row 0 has 1"),
    "pattern taller than the home": (lambda d: d["balance_tiles"][30].update(pattern=["G"] * 4),
                                     "balance_tiles[30].pattern: 4 rows; allowed: at most 3"),
    "pattern wider than the home": (lambda d: d["balance_tiles"][30].update(pattern=["G" * 6]),
                                    "balance_tiles[30].pattern[0]: 'GGGGGG'; allowed: a string of 1..5 letters"),
    "pattern without a cell": (lambda d: d["balance_tiles"][8].update(pattern=["..", ".."]),
                               "balance_tiles[8].pattern: no cell"),
    "pattern row not a string": (lambda d: d["balance_tiles"][8].update(pattern=[["G"]]),
                                 "balance_tiles[8].pattern[0]: ['G']"),
    "pattern not a list": (lambda d: d["balance_tiles"][8].update(pattern=5),
                           "balance_tiles[8].pattern: 5; allowed: a list of rows"),
    "pattern empty list": (lambda d: d["balance_tiles"][8].update(pattern=[]), "balance_tiles[8].pattern: []"),
    "pattern unknown type": (lambda d: d["balance_tiles"][20].update(pattern="fire"),
                             "balance_tiles[20].pattern: 'fire' is not a known name"),
    "three wide on a left tile": (lambda d: d["balance_tiles"][0].update(pattern=["DFG"]),
                                  "balance_tiles[0].pattern: fits nowhere in the left part of the home"),
    "diamond on a right tile": (lambda d: next(t for t in d["balance_tiles"] if t["side"] == "right").update(
                                    pattern=[".F.", "T.G", ".D."]),
                                "balance_tiles[44].pattern: fits nowhere in the right part of the home"),
    "unreachable comfort": (lambda d: d["balance_tiles"][12].update(min_comfort=7),
                            "balance_tiles[12].min_comfort: 7 on 2 cells; allowed: 0..6"),
    "type total without comfort": (lambda d: d["balance_tiles"][20].update(min_comfort=0),
                                   "balance_tiles[20].min_comfort: 0 for a type-total pattern; allowed: 1..18"),
    "type total beyond the region": (lambda d: d["balance_tiles"][20].update(min_comfort=19),
                                     "balance_tiles[20].min_comfort: 19 for a type-total pattern; allowed: 1..18"),
    "missing mark": (lambda d: d["balance_tiles"][4].pop("mark"), "balance_tiles[4].id: no provenance mark"),
    "bad mark": (lambda d: d["shoots"][1].update(mark="GUESSED"), "shoots[1].mark: 'GUESSED' is not a provenance mark"),
    "mark for an unknown field": (lambda d: d["gifts"][0].update(marks={"colour": "DERIVED"}), "gifts[0].marks.colour"),
    "spirit copies": (lambda d: d["spirits"][0].update(copies=2), "spirits: 20 tiles in all; allowed: exactly 21"),
    "spirit effect": (lambda d: d["spirits"][1].update(effect="teleport"), "spirits[1].effect: 'teleport'"),
    "amount for an effect without one": (lambda d: d["spirits"][3].update(amount=1), "spirits[3].amount: 1"),
    "spirit name twice": (lambda d: d["spirits"][6].update(name="Kappa"),
                          "spirits[6].name: 'Kappa' repeats spirits[0]"),
    "spirit stacks": (lambda d: d["setup"].update(spirit_stacks=3),
                      "setup.spirit_stacks: 3; allowed: 4, one stack per temple"),
    "spirit stacks too high": (lambda d: d["setup"].update(spirit_stack_size=6),
                               "setup.spirit_stack_size: 24 tiles in the stacks; allowed: at most the 21"),
    "ghost incense": (lambda d: d["temple_tiles"][0].update(incense=8),
                      "temple_tiles: 15 ghost sticks in all; allowed: at most the ghost's 8"),
    "gift twice": (lambda d: d["gifts"][0].update(action="cook"), "gifts: no gift has 'fund'"),
    "wildcard gift": (lambda d: d["gifts"][0].update(action="wildcard"), "gifts[0].action: 'wildcard'"),
    "shoot setup counts": (lambda d: d["shoots"][16].update(setup="none"),
                           "shoots: 11 board pieces; allowed: exactly 12"),
    "set number on a board piece": (lambda d: d["shoots"][16].update(player_set=2),
                                    "shoots[16].player_set: 2 for a piece without the player-setup icon; allowed: 0"),
    "player piece without a set": (lambda d: d["shoots"][0].update(player_set=0),
                                   "shoots[0].player_set: 0 for a player-setup piece; allowed: 1..4"),
    "set repeats a colour": (lambda d: d["shoots"][0].update(colour="C2"),
                             "shoots: player set 1 repeats a colour or an action, or holds a wildcard"),
    "set holds a wildcard": (lambda d: d["shoots"][0].update(action="wildcard"), "player set 1 repeats a colour"),
    "set size": (lambda d: d["shoots"][0].update(player_set=2), "shoots: 3 pieces in player set 1; allowed: exactly 4"),
    "unknown colour": (lambda d: d["shoots"][3].update(colour="red"),
                       "shoots[3].colour: 'red' is not a known name; allowed: C1, C2, C3, C4"),
    "stalk spaces": (lambda d: d["board"].update(stalks=3), "board.stalk_shaded_spaces: 9 shaded spaces in all"),
    "draft pool": (lambda d: d["setup"].update(drafted_shoots=3), "setup.drafted_shoots: 12 pieces for 4 players"),
    "food total": (lambda d: d["food"][0].update(count=5), "food: 25 counters; allowed: exactly 26"),
    "too many food kinds": (lambda d: d["food"].extend([d["food"][0]] * 30),
                            "food: 33 records; allowed: at most 26, one record per kind"),
    "coin without 1": (lambda d: d["coins"][0].update(value=2), "coins: no coin worth 1"),
    "coin value twice": (lambda d: d["coins"][1].update(value=1), "coins: values [1, 1]; allowed: each value once"),
    "incense arithmetic": (lambda d: d["setup"].update(incense_per_player=8),
                           "setup.incense_per_player: 8; allowed: start_incense + rounds"),
    "starting balance tiles": (lambda d: d["setup"].update(start_left_balance=3),
                               "setup.start_left_balance: 3; allowed: at most board.balance_slots = 2"),
    "food display": (lambda d: d["setup"].update(food_face_up=10), "setup.food_face_up: 10; allowed: an integer 1..9"),
    "home parts overlap": (lambda d: d["home"].update(left_cols=3, right_cols=3),
                           "home.right_cols: 3 left + 3 right columns in a home 5 wide"),
    "home too tall": (lambda d: d["home"].update(rows=5), "home.rows: 5; allowed: an integer 1..4"),
    "night space outside": (lambda d: d["night_spaces"][0].update(row=3),
                            "night_spaces[0].row: 3; allowed: an integer 0..2"),
    "night space twice": (lambda d: d["night_spaces"][1].update(row=0, col=0),
                          "night_spaces[1]: the space of night_spaces[0] again; allowed: each home space once"),
    "unknown top-level key": (lambda d: d.update(dice=[]), "dice: unknown key"),
    "missing section": (lambda d: d.pop("scoring"), "scoring: missing"),
    "missing table value": (lambda d: d["actions"].pop("fund_coins"), "actions.fund_coins: missing"),
    "format version": (lambda d: d.update(format_version=2), "format_version: 2; allowed: 1"),
    "unknown record key": (lambda d: d["home_tiles"][0].update(colour="red"), "home_tiles[0].colour: unknown key"),
    "bool as int": (lambda d: d["scoring"].update(harmony_hp=True), "scoring.harmony_hp: True"),
    "huge integer": (lambda d: d["home_tiles"][0].update(cost=2**64), "home_tiles[0].cost: <an integer of 65 bits>"),
    "section not a list": (lambda d: d.update(gifts={}), "gifts: dict instead of a list"),
    "many records refused by count": (lambda d: d["balance_tiles"].extend([d["balance_tiles"][0]] * 100_000),
                                      "balance_tiles: 100068 records; allowed: exactly 68"),
}


# Malformed saved states of a game in progress, besides what every compiled game's saved state is refused for, each
# refused naming the field or the law it breaks: the edit, and what the message names.
BAD_STATES: dict[str, tuple[Edit, str]] = {
    "coins_beyond_type": (lambda d: d["state"]["pl"][0].update(coins=300), "state.pl[0].coins"),
    "an_incense_stick_too_many": (lambda d: d["state"]["pl"][0].update(incense=d["state"]["pl"][0]["incense"] + 1),
                                  "incense"),
    "a_food_counter_too_many": (lambda d: d["state"]["food_display"].__setitem__(
        0, d["state"]["food_display"][0] + 1), "food"),
}

# The fields of a saved state that order play in time, each a path into its body ("*": any seat in play, or any
# pending decision): the round, phase and turn, the starting seat, the passes, the stick clock and its stamps in the
# temples, the sticks of the turn in progress, the previous visits, the lowest temple, stalk, spirit or counter a
# pending decision still allows (its canonical order, B39) and the move count.
CLOCK_FIELDS: tuple[tuple[str, ...], ...] = (
    ("round",), ("phase",), ("turn_idx",), ("start_seat",), ("passed",), ("stick_clock",), ("incense_top",),
    ("sticks_placed",), ("pl", "*", "last_visit"), ("stack", "*", "b"), ("n_moves",))

# Edits of clock fields and the verdict of the clock judge on each: the first saved state of the clock fuzz whose body
# holds the values given, the field edited, its new value (None: the move count plus one), and "played" (to the end)
# or "refused". The stick clock of the first Summer turn set back to 0 before a stick is placed is the case the clock
# fuzz found (it was accepted, and the first stick then carried no stamp).
CLOCK_VERDICTS: tuple[tuple[dict[str, int], tuple[str | int, ...], int | None, str], ...] = (
    ({"phase": 2}, ("n_moves",), None, "played"),                 # Summer
    ({"phase": 2}, ("start_seat",), 7, "refused"),
    ({"stick_clock": 1, "visit": 0, "sticks_placed": 0}, ("stick_clock",), 0, "refused"),
)

# The things of its picture that can pick a move in browser play (the targets of its click_targets).
CLICKABLE = ("[data-shoot^='draft-']", "[data-shoot^='to-place-']", "[data-shoot*='-new-']", "[data-hp-seat]",
             "[data-balance-slot]", "[data-coins]", "[data-food-pile]", "[data-decision]", "[data-temple]",
             "[data-panel^='stalk-']", "[data-food-display]", "[data-player-food]", "[data-home-market]",
             "[data-balance-market]", "[data-gift]", "[data-home-space]", "[data-area*='-']", "[data-player-spirit]")

# What its observation encoder is expected to be: the tensor's length, whether every seat sees the same, the page
# of docs/ that describes it and its Gymnasium id.
ENCODED: dict[str, Any] = {"size": 5383, "views_alike": True,
                           "page": "bamboo_observation.md", "env_id": "borabora_sim/Bamboo-v0"}

# Its picture is too wide to stand beside the panels of browser play and of a replay at 1366 pixels: it stands
# above them.
WIDE_PICTURE = True
