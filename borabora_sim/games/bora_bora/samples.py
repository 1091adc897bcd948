"""Samples of Bora Bora for the tests every registered game runs (tests/, which read them through its RECORD's
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
    "QUICK_STUDY",
    "WIDE_PICTURE",
]

Edit = Callable[[dict[str, Any]], object]

# Where a new game waits: (phase, decision, round).
FIRST_DECISION = ("setup", "setup_hut", 1)

# A change of the built-in component document that loads (component data of one's own): the record it is in (its
# path in the document), its field, the new value, and where the loaded components hold it (an attribute, then the
# indexes into it).
COMPONENT_CHANGE: dict[str, Any] = {"record": ("fishing_vp",), "field": "value", "value": 3, "held_at": ("fishing_vp",)}

# A value no component file allows at one place of the document, and the message naming the field (after the file).
COMPONENT_FILE_ERROR: tuple[Edit, str] = (
    lambda d: d["regions"][3].update(terrain="swamp"),
    "regions[3].terrain: 'swamp' is not a known name; allowed: mountain, beach, forest, plains")


def _empty_west_island(doc: dict[str, Any]) -> None:
    for region in doc["regions"]:
        if region["island"] == "west":
            region["island"] = "central"


def _cut_off_north(doc: dict[str, Any]) -> None:
    doc["paths"] = [p for p in doc["paths"] if not (p["a"].startswith("C") and p["b"].startswith("N"))]


def _two_fish_ones(doc: dict[str, Any]) -> None:
    ones = [f for f in doc["fish_tiles"] if f["value"] == 1]
    ones[0]["value"] = ones[1]["value"] = 2


# Malformed component documents, each refused with a message naming the field: the edit, and what the message says.
BAD_COMPONENTS: dict[str, tuple[Edit, str]] = {
    "bad terrain": (lambda d: d["regions"][3].update(terrain="swamp"), "regions[3].terrain"),
    "region count": (lambda d: d["regions"].pop(), "regions: 11 records"),
    "unknown path end": (lambda d: d["paths"][2].update(b="Z_Z"), "paths[2].b"),
    "self loop": (lambda d: d["paths"][0].update(b=d["paths"][0]["a"]), "paths[0].b"),
    "duplicate path": (lambda d: d["paths"].append(dict(d["paths"][1])), "paths[16]"),
    "path value": (lambda d: d["paths"][5].update(value=7), "paths[5].value"),
    "missing mark": (lambda d: d["regions"][0].pop("mark"), "regions[0].id: no provenance mark"),
    "bad mark": (lambda d: d["fish_tiles"][1].update(mark="GUESSED"), "fish_tiles[1].mark"),
    "mark for unknown field": (lambda d: d["paths"][0].update(marks={"colour": "DERIVED"}), "paths[0].marks.colour"),
    "disconnected map": (_cut_off_north, "paths: N_W, N_E cannot be reached"),
    "too few 1-fish": (_two_fish_ones, "fish_tiles: 2 tiles of value 1"),
    "unknown top-level key": (lambda d: d.update(colours=[]), "colours: unknown key"),
    "missing section": (lambda d: d.pop("temple"), "temple: missing"),
    "format version": (lambda d: d.update(format_version=2), "format_version"),
    "empty island": (_empty_west_island, "regions: no region has 'west'"),
    "person count": (lambda d: d["person_tiles"][0]["symbols"].pop(), "person_tiles: 35 man tiles"),
    "person type missing": (lambda d: d["person_tiles"][13].update(type="land_path"), "no woman tile has 'water_path'"),
    "symbols range": (lambda d: d["person_tiles"][2].update(symbols=[1, 0, 3]), "person_tiles[2].symbols[1]"),
    "crane count": (lambda d: d["tasks"][7].update(crane=True), "tasks: 8 crane tasks"),
    "requirement kind": (lambda d: d["tasks"][0]["requirements"][1].update(kind="wives"),
                         "tasks[0].requirements[1].kind"),
    "missing param": (lambda d: d["tasks"][27]["requirements"][0].pop("param"), "tasks[27].requirements[0].param"),
    "unexpected param": (lambda d: d["tasks"][0]["requirements"][0].update(param="blue"),
                         "tasks[0].requirements[0].param"),
    "zero count": (lambda d: d["tasks"][3]["requirements"][0].update(count=0), "tasks[3].requirements[0].count"),
    "jewelry vp": (lambda d: d["jewelry_tiles"][5].update(vp=10), "jewelry_tiles[5].vp"),
    "no necklace": (lambda d: d["jewelry_kinds"][0].update(name="collar"), "jewelry_kinds: no kind named 'necklace'"),
    "status decreasing": (lambda d: d["status_vp"].update(values=[0, 1, 2, 3] * 4), "status_vp.values"),
    "temple values": (lambda d: d["temple"].update(values=[6, 5, 4, 3, 2, 2]), "temple.values"),
    "ceremony material": (lambda d: d["ceremony"].update(materials=[["sand"] * 4, ["stone"] * 4, ["sand"] * 4]),
                          "ceremony.materials: 0 wood spaces"),
    "helper key": (lambda d: d["helper_cost"].pop("tattoo"), "helper_cost.tattoo: missing"),
    "bool as int": (lambda d: d["fishing_vp"].update(value=True), "fishing_vp.value"),
    "float as int": (lambda d: d["fishing_vp"].update(value=2.0), "fishing_vp.value: 2.0; allowed: an integer 0..9"),
    "string as int": (lambda d: d["jewelry_tiles"][0].update(cost="3"), "jewelry_tiles[0].cost: '3'"),
    "null as name": (lambda d: d["regions"][0].update(terrain=None), "regions[0].terrain: None is not a known name"),
    "negative cost": (lambda d: d["jewelry_tiles"][2].update(cost=-1), "jewelry_tiles[2].cost: -1; allowed: an int"),
    "int8 overflow": (lambda d: d["building_vp_by_round"]["values"].__setitem__(0, 128),
                      "building_vp_by_round.values[0]: 128; allowed: an integer 0..30"),
    "huge integer": (lambda d: d["tasks"][3]["requirements"][0].update(count=2**64),
                     "tasks[3].requirements[0].count: <an integer of 65 bits>; allowed: an integer 1..60"),
    "first player count": (lambda d: d["tasks"][5]["requirements"][1].update(count=2),
                           "tasks[5].requirements[1].count: 2; allowed: an integer 1..1"),
    "unknown record key": (lambda d: d["regions"][0].update(colour="red"), "regions[0].colour: unknown key"),
    "record not an object": (lambda d: d["regions"].__setitem__(0, "C_SE"), "regions[0]: str instead of an object"),
    "section not a list": (lambda d: d.update(regions={}), "regions: dict instead of a list"),
    "mark not a string": (lambda d: d["regions"][0].update(mark=["CONFIRMED"]),
                          "regions[0].mark: ['CONFIRMED'] is not a provenance mark"),
    "duplicate region id": (lambda d: d["regions"][1].update(id=d["regions"][0]["id"]),
                            "regions[1].id: 'C_NW' repeats regions[0]"),
    "duplicate island": (lambda d: d["islands"][4].update(name=d["islands"][0]["name"]), "islands[4].name"),
    "duplicate task id": (lambda d: d["tasks"][59].update(id="T01"), "tasks[59].id: 'T01' repeats tasks[0]"),
    "duplicate jewelry kind": (lambda d: d["jewelry_kinds"][3].update(name="necklace"), "jewelry_kinds[3].name"),
    "too many jewelry kinds": (lambda d: d["jewelry_kinds"].extend([d["jewelry_kinds"][1]] * 80_000),
                               "jewelry_kinds: 80004 records; allowed: at most 24, each used by one of the jewelry"),
    "too many paths": (lambda d: d["paths"].extend([d["paths"][0]] * 200), "paths: 216 records; allowed: at most 132"),
    "person group twice": (lambda d: d["person_tiles"].append({**d["person_tiles"][0], "symbols": [1]}),
                           "person_tiles: 25 records; allowed: at most 24, one per (sex, type)"),
    "unknown jewelry param": (lambda d: d["tasks"][27]["requirements"][0].update(param="crown"),
                              "tasks[27].requirements[0].param: 'crown' is not a known name; allowed: necklace"),
    "requirements not a list": (lambda d: d["tasks"][0].update(requirements={"kind": "men"}),
                                "tasks[0].requirements: {'kind': 'men'}; allowed: a list of 1 or 2 requirements"),
    "too few tasks": (lambda d: d["tasks"].pop(), "tasks: 59 records; allowed: exactly 60"),
    "short value list": (lambda d: d["status_vp"]["values"].pop(),
                         "status_vp.values: 15 values; allowed: a list of exactly 16 integers 0..15"),
    "value list not a list": (lambda d: d["start_vp"].update(values=3),
                              "start_vp.values: int instead of a list: 3; allowed: a list of exactly 4 integers 0..9"),
    "ceremony row not a list": (lambda d: d["ceremony"]["materials"].__setitem__(1, "sand"),
                                "ceremony.materials[1]: 'sand'; allowed: a list of material names"),
    "ceremony shape": (lambda d: d["ceremony"].update(rows=5), "ceremony.rows: 5 x 4 spaces"),
}


# Malformed saved states of a game in progress, besides what every compiled game's saved state is refused for, each
# refused naming the field or the law it breaks: the edit, and what the message names.
BAD_STATES: dict[str, tuple[Edit, str]] = {
    "missing_player_field": (lambda d: d["state"]["pl"][1].pop("status"), "state.pl[1]"),
    "short_list": (lambda d: d["state"].update(tile_low=d["state"]["tile_low"][:-1]), "state.tile_low"),
    "short_player_list": (lambda d: d["state"].update(pl=d["state"]["pl"][:-1]), "state.pl"),
    "nested_wrong_shape": (lambda d: d["state"].update(person_pile=[[0] * 36]), "state.person_pile"),
    "float_value": (lambda d: d["state"]["pl"][0].update(shells=1.0), "state.pl[0].shells"),
    "round_out_of_range": (lambda d: d["state"].update(round=7), "round"),
    "status_out_of_range": (lambda d: d["state"]["pl"][0].update(status=16), "status"),
    "negative_vp": (lambda d: d["state"]["pl"][0]["vp"].__setitem__(0, -1), "victory points"),
    "thirteen_huts": (lambda d: d["state"]["pl"][0].update(reg_huts=d["state"]["pl"][0]["reg_huts"] + 1), "huts"),
    "five_priests": (lambda d: d["state"].update(temple=[0, 0, 0, 0, 0, -1]), "priests"),
    "thirteen_cards_of_a_colour": (lambda d: d["state"]["discard"].__setitem__(0, d["state"]["discard"][0] + 1),
                                   "God cards"),
    "duplicate_person_tile": (lambda d: d["state"]["person_display"][1].__setitem__(
        1, d["state"]["person_display"][1][0]), "person tiles"),
    "empty_stack_mid_game": (lambda d: d["state"].update(sp=0), "stack: the pending decisions"),
}

# The fields of a saved state that order play in time, each a path into its body ("*": any seat in play, or any
# pending decision): the round, phase and turn, the turn orders, the priests' row, the status clock and stamps, the
# move count.
CLOCK_FIELDS: tuple[tuple[str, ...], ...] = (
    ("round",), ("phase",), ("turn_idx",), ("order",), ("first_order",), ("temple",), ("status_clock",),
    ("pl", "*", "status_stamp"), ("n_moves",))

# Edits of clock fields and the verdict of the clock judge on each: the first saved state of the clock fuzz whose body
# holds the values given, the field edited, its new value (None: the move count plus one), and "played" (to the end)
# or "refused".
CLOCK_VERDICTS: tuple[tuple[dict[str, int], tuple[str | int, ...], int | None, str], ...] = (
    ({"phase": 2}, ("n_moves",), None, "played"),                 # phase B
    ({"phase": 2}, ("order", 1), 7, "refused"),
)

# The things of its picture that can pick a move in browser play (the targets of its click_targets).
CLICKABLE = ("[data-player-die]", "[data-action-tile]", "[data-die]", "[data-god-hand]", "[data-god-discard]",
             "[data-player-count]", "[data-region]", "[data-ceremony]", "[data-beside]", "[data-person-display]",
             "[data-temple-space]", "[data-building]", "[data-god-deck]", "[data-god-display]", "[data-status-seat]",
             "[data-score-seat]", "[data-person-slot]", "[data-jewelry]", "[data-player-task]", "[data-task-display]",
             "[data-decision]")

# Of its studies, the one quick enough to run in the default test run (the fishing question runs at its quick size in
# tests/test_study_questions.py).
QUICK_STUDY = "priest"

# What its observation encoder is expected to be: the tensor's length, whether every seat sees the same, the page
# of docs/ that describes it and its Gymnasium id.
ENCODED: dict[str, Any] = {"size": 2977, "views_alike": False,
                           "page": "observation.md", "env_id": "borabora_sim/BoraBora-v0"}

# Its picture is too wide to stand beside the panels of browser play and of a replay at 1366 pixels: it stands
# above them.
WIDE_PICTURE = True
