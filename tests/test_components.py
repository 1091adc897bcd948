"""Loading, provenance and validation of every game's component data (borabora_sim/component_files.py, which every
game's components.py loads with): what is the same for every registered game, with a table of each game's own
malformed data, then what only Bora Bora's file holds (borabora_sim/games/bora_bora/components.py). Bamboo's own:
tests/test_bamboo_components.py."""

from __future__ import annotations

import codecs
import json
import os
import pickle
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import ACCEPTED, components_of

from borabora_sim.component_files import ComponentError
from borabora_sim.games import game_names, get_game
from borabora_sim.games.bora_bora.components import (
    MARKS,
    MAX_FILE_BYTES,
    PERSON_TYPES,
    TASK_REQUIREMENT_KINDS,
    Components,
    load_components,
)

GAMES = game_names()
Edit = Callable[[dict[str, Any]], Any]


def builtin_document(name: str) -> dict[str, Any]:
    return components_of(name).to_json_dict()


# A value no game allows at one place of each game's document, and the message naming the file and the field.
FILE_ERROR: dict[str, tuple[Edit, str]] = {
    "bora_bora": (lambda d: d["regions"][3].update(terrain="swamp"),
                  "regions[3].terrain: 'swamp' is not a known name; allowed: mountain, beach, forest, plains"),
    "bamboo": (lambda d: d["balance_tiles"][3].update(side="top"),
               "balance_tiles[3].side: 'top' is not a known name; allowed: left, center, right"),
    "pig": (lambda d: d["die"].update(faces=1), "die.faces: 1; allowed: an integer 2..20"),
}


# =============================================================================
# Every game's component file
# =============================================================================
def test_every_game_has_its_cases_here() -> None:
    assert set(ACCEPTED) == set(FILE_ERROR) == set(BAD) == set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_a_users_file_replaces_the_builtin_one(name: str, tmp_path: Path) -> None:
    change = ACCEPTED[name]
    builtin = change.read(components_of(name))
    assert builtin != change.value
    doc = builtin_document(name)
    change.apply(doc, mark="CONFIRMED", source="a photo of the tile")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    mine = components_of(name, path)
    assert change.read(mine) == change.value
    assert mine.marks[change.path] == "CONFIRMED"
    assert mine.sources[change.path] == "a photo of the tile"
    assert mine.source_path == str(path)
    assert change.read(components_of(name)) == builtin
    from_dict = components_of(name, doc)
    assert from_dict.source_path == "<dict>" and change.read(from_dict) == change.value


@pytest.mark.parametrize("name", GAMES)
def test_loaded_dict_is_not_shared_with_the_caller(name: str) -> None:
    change = ACCEPTED[name]
    doc = builtin_document(name)
    change.apply(doc)
    loaded = components_of(name, doc)
    change.record_in(doc)[change.field] = change.value + 1
    assert change.read(loaded) == change.value
    assert change.record_in(loaded.to_json_dict())[change.field] == change.value


@pytest.mark.parametrize("name", GAMES)
def test_arrays_are_read_only(name: str) -> None:
    arrays = [v for v in vars(components_of(name)).values() if isinstance(v, np.ndarray)]
    assert arrays
    for array in arrays:
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = array.flat[0]


# ---- malformed data: each game's cases, each naming the field ------------------------------------------------------
def _empty_west_island(doc: dict[str, Any]) -> None:
    for region in doc["regions"]:
        if region["island"] == "west":
            region["island"] = "central"


def _cut_off_north(doc: dict[str, Any]) -> None:
    doc["paths"] = [p for p in doc["paths"] if not (p["a"].startswith("C") and p["b"].startswith("N"))]


def _two_fish_ones(doc: dict[str, Any]) -> None:
    ones = [f for f in doc["fish_tiles"] if f["value"] == 1]
    ones[0]["value"] = ones[1]["value"] = 2


BORA_BORA_BAD: dict[str, tuple[Edit, str]] = {
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


def _all_category_a_three_plus(doc: dict[str, Any]) -> None:
    for tile in doc["home_tiles"]:
        if tile["category"] == "A":
            tile["three_plus"] = True


BAMBOO_BAD: dict[str, tuple[Edit, str]] = {
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


PIG_BAD: dict[str, tuple[Edit, str]] = {
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


BAD = {"bora_bora": BORA_BORA_BAD, "bamboo": BAMBOO_BAD, "pig": PIG_BAD}


@pytest.mark.parametrize(("name", "case"), [pytest.param(name, case, id=f"{name}-{case}") for name in BAD
                                            for case in BAD[name]])
def test_malformed_data_names_the_field(name: str, case: str) -> None:
    change, expected = BAD[name][case]
    doc = builtin_document(name)
    change(doc)
    with pytest.raises(ComponentError) as error:
        components_of(name, doc)
    message = str(error.value)
    assert message.startswith("<dict>: ")
    assert expected in message
    assert "; allowed: " in message


@pytest.mark.parametrize("name", GAMES)
def test_a_file_error_names_the_file_and_the_field(name: str, tmp_path: Path) -> None:
    change, expected = FILE_ERROR[name]
    doc = builtin_document(name)
    change(doc)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ComponentError) as error:
        components_of(name, path)
    assert str(error.value) == f"{path}: {expected}"
    assert (error.value.source, error.value.field) == (str(path), expected.partition(":")[0])


# ---- what is read: the source, the file and its bytes -------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("source", "expected"), [
    (5, "<int>: source: neither a file path nor a dict; allowed: None (the built-in file), a file path"),
    ([1, 2], "<list>: source: neither a file path nor a dict"),
    (b"components.json", "<bytes>: source: neither a file path nor a dict"),
    ("", "'': source: an empty path"),
])
def test_unusable_source(name: str, source: Any, expected: str) -> None:
    with pytest.raises(ComponentError) as error:
        components_of(name, source)
    assert str(error.value).startswith(expected)


@pytest.mark.parametrize("name", GAMES)
def test_unreadable_paths(name: str, tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(ComponentError) as error:
        components_of(name, str(missing))
    assert str(error.value).startswith(f"{missing}: <file>: cannot be read (No such file or directory)")
    with pytest.raises(ComponentError) as error:
        components_of(name, tmp_path / "a\0b.json")
    assert ": <file>: cannot be opened (" in str(error.value)


NOT_REGULAR = "; allowed: a regular file (not a directory, FIFO, device or socket)"


def _refused(name: str, source: Any) -> str:
    with pytest.raises(ComponentError) as error:
        components_of(name, source)
    assert (error.value.field, error.value.allowed) == ("<file>", NOT_REGULAR.removeprefix("; allowed: "))
    return str(error.value)


@pytest.mark.parametrize("name", GAMES)
def test_a_directory_is_refused(name: str, tmp_path: Path) -> None:
    assert _refused(name, tmp_path) == f"{tmp_path}: <file>: a directory{NOT_REGULAR}"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("name", GAMES)
def test_a_fifo_is_refused_without_waiting_for_a_writer(name: str, tmp_path: Path) -> None:
    fifo = tmp_path / "components.json"
    os.mkfifo(fifo)
    messages: list[str] = []
    reader = threading.Thread(target=lambda: messages.append(_refused(name, fifo)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():  # the reader waits in open(): a writer lets it go on, so that the test can end
        with open(fifo, "wb"):
            pass
        reader.join()
        pytest.fail("loading a FIFO waited for a writer")
    assert messages == [f"{fifo}: <file>: a FIFO (named pipe){NOT_REGULAR}"]


@pytest.mark.skipif(not Path("/dev/zero").is_char_device(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("name", GAMES)
def test_a_device_is_refused(name: str) -> None:
    assert _refused(name, "/dev/zero") == f"/dev/zero: <file>: a character device{NOT_REGULAR}"


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets on this system")
@pytest.mark.parametrize("name", GAMES)
def test_a_socket_is_refused(name: str, tmp_path: Path) -> None:
    path = tmp_path / "components.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        assert _refused(name, path) == f"{path}: <file>: a socket{NOT_REGULAR}"


@pytest.mark.parametrize("name", GAMES)
def test_a_path_with_a_line_break_is_quoted(name: str, tmp_path: Path) -> None:
    path = tmp_path / "two\nlines.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ComponentError) as error:
        components_of(name, path)
    assert str(error.value).startswith(f"{str(path)!r}: <document>: not valid JSON")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("name", GAMES)
def test_a_new_game_reports_component_errors(name: str, tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match="<file>: a directory"):
        get_game(name, components=tmp_path).new_initial_state(2, 1)
    with pytest.raises(ComponentError, match="<float>: source"):
        get_game(name, components=1.5).new_initial_state(2, 1)


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


BAD_FILES: dict[str, tuple[bytes, str]] = {
    "binary": (bytes(range(256)), "<file>: a NUL byte at offset 0 (binary data, or UTF-16 or UTF-32 text)"),
    "latin-1": ('{"a": "caf\u00e9"}'.encode("latin-1"), "<file>: not UTF-8 (byte 0xe9 at offset 10)"),
    "UTF-16 with byte-order mark": ('{"a": 1}'.encode("utf-16"), "<file>: UTF-16 or UTF-32 text"),
    "UTF-16 without byte-order mark": ('{"a": 1}'.encode("utf-16-le"), "<file>: a NUL byte at offset 1"),
    "UTF-32": ('{"a": 1}'.encode("utf-32"), "<file>: UTF-16 or UTF-32 text"),
    "empty": (b"", "<file>: empty"),
    "blank": (b" \n\t", "<file>: empty"),
    "unclosed object": (b"{", "<document>: not valid JSON"),
    "syntax error": (b'{\n  "a": 1,\n}', "<document>: not valid JSON: Expecting property name enclosed in double "
                     "quotes at line 3, column 1"),
    "deep nesting": (_deep(200_000).encode(), "<document>: nested too deeply to parse"),
    "NaN": (b'{"fishing_vp": {"value": NaN}}', "<document>: NaN is not a JSON number"),
    "repeated key": (b'{"a": 1, "b": 2, "a": 3}', "<document>: the key 'a' appears twice in one object"),
    "long integer": (b'{"a": ' + b"9" * 5000 + b"}", "<document>: an integer literal of 5000 digits"),
    "array": (b"[]", "<document>: list instead of an object"),
    "too large": (b" " * (MAX_FILE_BYTES + 1), f"<file>: larger than {MAX_FILE_BYTES} bytes"),
}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("case", BAD_FILES)
def test_malformed_files(name: str, case: str, tmp_path: Path) -> None:
    content, expected = BAD_FILES[case]
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ComponentError) as error:
        components_of(name, path)
    assert str(error.value).startswith(f"{path}: {expected}")
    assert "; allowed: " in str(error.value)


@pytest.mark.parametrize("name", GAMES)
def test_utf8_byte_order_mark_and_the_size_limit_are_accepted(name: str, tmp_path: Path) -> None:
    change = ACCEPTED[name]
    doc = builtin_document(name)
    change.apply(doc)
    path = tmp_path / "bom.json"
    path.write_bytes(codecs.BOM_UTF8 + json.dumps(doc).encode())
    assert change.read(components_of(name, path)) == change.value
    text = json.dumps(doc)
    path.write_text(text + " " * (MAX_FILE_BYTES - len(text)), encoding="utf-8")
    assert path.stat().st_size == MAX_FILE_BYTES
    assert change.read(components_of(name, path)) == change.value


# =============================================================================
# Bora Bora's component file
# =============================================================================
@pytest.fixture(scope="module")
def builtin() -> Components:
    return load_components()


@pytest.fixture
def doc(builtin: Components) -> dict[str, Any]:
    return builtin.to_json_dict()


def test_builtin_counts_and_shapes(builtin: Components) -> None:
    c = builtin
    assert c.source_path == "builtin"
    assert len(c.region_ids) == 12
    assert len(c.island_names) == 5
    assert c.land_path.shape == c.water_path.shape == (12, 12)
    assert (c.land_path > 0).sum() == (c.water_path > 0).sum() == 16  # 8 land + 8 water paths, both directions
    assert np.array_equal(c.land_path, c.land_path.T)
    assert np.array_equal(c.water_path, c.water_path.T)
    assert sorted(c.fish_value.tolist()) == [1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6]
    assert len(c.fish_type_names) == 4
    assert c.person_sex.tolist() == [0] * 36 + [1] * 36
    for sex in (0, 1):
        types = c.person_type[c.person_sex == sex]
        assert np.bincount(types, minlength=len(PERSON_TYPES)).tolist() == [3] * 12
        assert sorted(c.person_symbols[c.person_sex == sex].tolist()) == [1] * 12 + [2] * 12 + [3] * 12
    assert len(c.task_ids) == 60
    assert c.task_crane.dtype == np.bool_
    assert c.task_crane.sum() == 7
    assert c.task_crane[:7].all()
    assert c.task_req_kind.shape == c.task_req_count.shape == c.task_req_param.shape == (60, 2)
    assert c.jewelry_kind.shape == (24,)
    assert c.jewelry_kind_names[c.necklace_kind] == "necklace"
    assert sorted(set(zip(c.jewelry_cost.tolist(), c.jewelry_vp.tolist(), strict=True))) == [
        (1, 1), (2, 2), (3, 4), (4, 5), (5, 7), (6, 9)
    ]
    assert c.status_vp.shape == (16,)
    assert c.temple_values.tolist() == [6, 5, 4, 3, 2, 1]
    assert c.ceremony_rows * c.ceremony_cols == c.ceremony_material.size == 12
    assert c.building_values.tolist() == [1, 2, 3, 4, 5, 6]
    assert c.building_vp_by_round.tolist() == [10, 10, 7, 7, 4, 4]
    assert c.temple_vp_by_round.tolist() == [1, 1, 2, 2, 3, 3]
    assert c.start_vp.tolist() == [0, 1, 2, 3]
    assert c.helper_cost.tolist() == [1, 1, 1, 2, 2, 2, 2]
    assert (c.fishing_vp, c.start_huts_on_12th_space, c.regular_person_spaces) == (2, 2, 11)


def test_arrays_are_int8_and_the_crane_flags_bool(builtin: Components) -> None:
    arrays = [v for v in vars(builtin).values() if isinstance(v, np.ndarray)]
    assert len(arrays) == 25
    for array in arrays:
        assert not array.flags.writeable
        assert array.dtype == (np.bool_ if array is builtin.task_crane else np.int8)


def test_confirmed_map_example(builtin: Components) -> None:
    """R 'Expand': from the central mountain, land 4 north, land 2 west, water 5 south, water 4 east."""
    ids = builtin.region_ids
    mountain = ids.index("C_SE")
    assert builtin.region_terrain[mountain] == 0
    land = {ids[j]: int(v) for j, v in enumerate(builtin.land_path[mountain]) if v}
    water = {ids[j]: int(v) for j, v in enumerate(builtin.water_path[mountain]) if v}
    assert land == {"C_NE": 4, "C_SW": 2}
    assert water == {"S_E": 5, "E_S": 4}


def test_task_requirements_are_encoded(builtin: Components) -> None:
    c = builtin
    t06 = c.task_ids.index("T06")
    kinds = [TASK_REQUIREMENT_KINDS[k] for k in c.task_req_kind[t06]]
    assert kinds == ["men", "first_player"]
    assert c.task_req_param[t06].tolist() == [-1, -1]
    t28 = c.task_ids.index("T28")
    assert TASK_REQUIREMENT_KINDS[c.task_req_kind[t28, 0]] == "jewelry_of_kind"
    assert c.task_req_param[t28, 0] == c.necklace_kind
    assert c.task_req_count[t28, 0] == 2
    assert c.task_req_kind[t28, 1] == -1
    assert c.task_req_count[t28, 1] == 0
    t59 = c.task_ids.index("T59")
    assert PERSON_TYPES[c.task_req_param[t59, 0]] == "shell"


def test_marks_and_sources(builtin: Components) -> None:
    assert builtin.marks["regions[3].terrain"] == "CONFIRMED"
    assert builtin.marks["regions[4].terrain"] == "INVENTED"
    assert builtin.marks["building_vp_by_round.values"] == "DERIVED"
    assert builtin.marks["temple_vp_by_round.values"] == "CONFIRMED"
    assert set(builtin.marks.values()) == set(MARKS)
    assert builtin.marks.keys() == builtin.sources.keys()
    assert "R 'Expand' map example" in builtin.sources["paths[0].value"]
    invented = builtin.invented()
    assert "jewelry_tiles[0].vp" in invented
    assert "status_vp.values" in invented
    assert "start_vp.values" not in invented


def test_to_json_dict_is_a_copy(builtin: Components) -> None:
    first = builtin.to_json_dict()
    first["regions"].clear()
    assert len(builtin.to_json_dict()["regions"]) == 12


def test_modified_dict_loads(doc: dict[str, Any]) -> None:
    doc["paths"][0]["value"] = 6
    doc["paths"][0]["mark"] = "INVENTED"
    c = load_components(doc)
    a, b = c.region_ids.index("C_SE"), c.region_ids.index("C_NE")
    assert c.land_path[a, b] == c.land_path[b, a] == 6
    assert c.marks["paths[0].value"] == "INVENTED"
    assert c.source_path == "<dict>"
    assert load_components().land_path[a, b] == 4


def test_deeply_nested_dict_is_refused_with_a_short_message(doc: dict[str, Any]) -> None:
    nested: list[Any] = []
    for _ in range(100_000):
        nested = [nested]
    doc["regions"][0]["id"] = nested
    with pytest.raises(ComponentError) as error:
        load_components(doc)
    assert str(error.value).startswith("<dict>: regions[0].id: [[[[")
    assert str(error.value).endswith("]]]]; allowed: a non-empty string")
    assert len(str(error.value)) < 100


def test_messages_stay_short_for_long_names(doc: dict[str, Any]) -> None:
    doc["islands"][0]["name"] = "x" * 100_000
    with pytest.raises(ComponentError) as error:
        load_components(doc)
    assert str(error.value).startswith("<dict>: regions[0].island: 'central' is not a known name; allowed: xxx")
    assert len(str(error.value)) < 200


def test_component_error_survives_pickling(doc: dict[str, Any]) -> None:
    """Errors raised in worker processes reach the caller pickled."""
    doc["fish_tiles"][1]["value"] = 9
    with pytest.raises(ComponentError) as error:
        load_components(doc)
    copied = pickle.loads(pickle.dumps(error.value))
    assert str(copied) == str(error.value)
    assert (copied.source, copied.field, copied.allowed) == ("<dict>", "fish_tiles[1].value", "an integer 1..6")
