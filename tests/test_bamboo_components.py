"""Bamboo's component data (borabora_sim/games/bamboo/components.py) and its balance-pattern language. What every
game's component file does alike (users' files, malformed data and files, read-only arrays), Bamboo's cases
among them, is tested in tests/test_components.py."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from borabora_sim.games.bamboo import (
    BalancePattern,
    BambooComponents,
    ComponentError,
    load_components,
    pattern_fulfilled,
)
from borabora_sim.games.bamboo.components import (
    ACTIONS,
    COLOURS,
    HOME_TYPES,
    MARKS,
    MAX_FILE_BYTES,
    SHOOT_SETUPS,
    SIDES,
    SPIRIT_EFFECTS,
    TYPE_LETTERS,
    HomeCell,
)
from borabora_sim.games.bora_bora import components as borabora_components

ROWS, COLS = 3, 5  # R Balance: the home is 5 spaces wide by 3 spaces tall
PROVENANCE_KEYS = {"mark", "marks", "source", "sources"}


@pytest.fixture(scope="module")
def builtin() -> BambooComponents:
    return load_components()


@pytest.fixture
def doc(builtin: BambooComponents) -> dict[str, Any]:
    return builtin.to_json_dict()


def test_builtin_file_loads(builtin: BambooComponents) -> None:
    assert builtin.source_path == "builtin"
    assert load_components() is builtin
    assert (builtin.home_rows, builtin.home_cols) == (ROWS, COLS)
    assert len(builtin.balance_patterns) == len(builtin.balance_ids) == 68
    assert builtin.invented() == [path for path, mark in builtin.marks.items() if mark == "INVENTED"]
    assert "home_tiles[0].category" in builtin.invented()
    assert repr(builtin) == f"BambooComponents(source_path='builtin', invented_fields={len(builtin.invented())})"


def _field_paths(doc: dict[str, Any]) -> set[str]:
    paths = set()
    for section, value in doc.items():
        if section == "format_version":
            continue
        records = value if isinstance(value, list) else [value]
        for i, record in enumerate(records):
            prefix = f"{section}[{i}]" if isinstance(value, list) else section
            paths |= {f"{prefix}.{key}" for key in record if key not in PROVENANCE_KEYS}
    return paths


def test_every_value_has_a_mark_and_a_source(builtin: BambooComponents, doc: dict[str, Any]) -> None:
    assert set(builtin.marks) == _field_paths(doc)
    assert builtin.marks.keys() == builtin.sources.keys()
    assert set(builtin.marks.values()) == set(MARKS)
    assert all(source.strip() for source in builtin.sources.values())


def test_marks_follow_the_research_notes(builtin: BambooComponents) -> None:
    """Counts and structure are CONFIRMED; per-tile contents INVENTED; inferences DERIVED."""
    marks = builtin.marks
    for i in range(64):
        assert marks[f"home_tiles[{i}].id"] == "CONFIRMED"
        assert {marks[f"home_tiles[{i}].{key}"] for key in ("category", "type", "comfort", "cost", "hp",
                                                              "three_plus")} == {"INVENTED"}
    for i in range(len(builtin.spirit_names)):
        assert {marks[f"spirits[{i}].{key}"] for key in ("name", "copies", "wake_cost", "effect")} == {"CONFIRMED"}
    assert [marks[f"temple_tiles[{i}].incense"] for i in range(4)] == ["INVENTED"] * 4
    assert marks["home.cols"] == marks["home.rows"] == "CONFIRMED"
    assert marks["home.left_cols"] == marks["home.right_cols"] == marks["setup.home_face_up"] == "DERIVED"
    assert marks["board.stalk_shaded_spaces"] == marks["board.temple_area_spaces"] == "INVENTED"
    assert marks["setup.start_hp"] == marks["scoring.harmony_hp"] == "CONFIRMED"
    assert {marks[f"shoots[{i}].colour"] for i in range(36)} == {"INVENTED"}
    assert {marks[f"night_spaces[{i}].type"] for i in range(len(builtin.night_cells))} == {"INVENTED"}
    assert {marks[f"food[{i}].count"] for i in range(3)} == {"CONFIRMED"}


def test_counts_match_the_rulebook(builtin: BambooComponents) -> None:
    c = builtin
    assert len(c.home_tile_ids) == 64
    assert set(c.home_category.tolist()) == {0, 1}
    assert 0 < c.home_three_plus.sum() < 64
    assert set(c.home_comfort.tolist()) == {1, 2, 3}
    assert np.bincount(c.balance_side).tolist() == [24, 20, 24]
    expected_spirits = {"Kappa": 1, "Tanuki": 1, "Rokurokubi": 1, "Kitsune": 0, "Ookami": 2, "Bakeneko": 1, "Tengu": 1}
    assert dict(zip(c.spirit_names, c.spirit_wake_cost.tolist(), strict=True)) == expected_spirits
    assert c.spirit_copies.tolist() == [3] * 7
    assert c.spirit_amount[c.spirit_names.index("Ookami")] == 4
    assert c.setup["spirit_stacks"] * c.setup["spirit_stack_size"] == 16
    assert set(c.temple_tile_incense.tolist()) == {0, 2, 3}
    assert sorted(ACTIONS[a] for a in c.gift_action) == ["balance", "cook", "fund", "improve"]
    assert np.bincount(c.shoot_setup).tolist() == [16, 12, 8]
    assert dict(zip(c.food_names, zip(c.food_count.tolist(), c.food_value.tolist(), strict=True), strict=True)) == {
        "tea": (6, 1), "rice": (12, 2), "ramen": (8, 3)}
    assert dict(zip(c.coin_values.tolist(), c.coin_counts.tolist(), strict=True)) == {1: 36, 3: 15}
    assert (c.setup["incense_per_player"], c.setup["start_incense"], c.setup["ghost_extra_incense"]) == (7, 3, 1)
    assert (c.setup["start_hp"], c.setup["start_coins"], c.setup["rounds"]) == (5, 3, 4)
    assert (c.actions["fund_coins"], c.actions["balance_steps"], c.actions["balance_hp"]) == (2, 2, 1)
    assert (c.scoring["spirit_type_hp"], c.scoring["harmony_hp"], c.scoring["unscored_balance_divisor"]) == (2, 2, 2)
    assert [mask.bit_count() for mask in c.region_masks] == [6, 15, 6]
    assert c.region_masks[0] & c.region_masks[2] == 0


def test_each_player_set_has_one_shoot_of_each_colour_and_action(builtin: BambooComponents) -> None:
    """R III.D."""
    c = builtin
    for number in range(1, 5):
        own = c.shoot_set == number
        assert sorted(c.shoot_colour[own].tolist()) == list(range(len(COLOURS)))
        assert sorted(ACTIONS[a] for a in c.shoot_action[own]) == ["balance", "cook", "fund", "improve"]
    assert set(c.shoot_set[c.shoot_setup != SHOOT_SETUPS.index("player")].tolist()) == {0}


def test_the_setup_table_is_read_only(builtin: BambooComponents) -> None:
    with pytest.raises(TypeError):
        builtin.setup["start_hp"] = 9  # type: ignore[index]


def test_compiled_patterns_are_plain_ints(builtin: BambooComponents) -> None:
    for pattern in builtin.balance_patterns:
        assert all(type(x) is int for x in (pattern.region, pattern.min_comfort, pattern.comfort_type))
        for placement in pattern.placements:
            assert len(placement) == 1 + len(HOME_TYPES)
            assert all(type(mask) is int and 0 <= mask < 1 << ROWS * COLS for mask in placement)
            cover, *needs = placement
            assert cover & ~pattern.region == 0
            assert all(need & ~cover == 0 for need in needs)


def test_night_spaces(builtin: BambooComponents) -> None:
    cells = builtin.night_cells.tolist()
    assert len(set(cells)) == len(cells) > 0
    assert all(0 <= cell < ROWS * COLS for cell in cells)
    assert {HOME_TYPES[t] for t in builtin.night_types} == set(HOME_TYPES)


def test_the_error_class_and_file_limit_are_bora_boras() -> None:
    assert ComponentError is borabora_components.ComponentError
    assert MAX_FILE_BYTES == borabora_components.MAX_FILE_BYTES


# ---- the balance-pattern language: the rulebook's examples ----------------------------------------------------------

# R Balance, in the file's notation: (pattern, min_comfort, HP).
EXAMPLES: dict[str, tuple[list[str] | str, int, int]] = {
    "one_decoration": (["D"], 0, 2),
    "garden_with_faith_to_its_right": (["GF"], 0, 3),
    "decoration_above_faith": (["D", "F"], 0, 3),
    "garden_faith_decoration_column": (["G", "F", "D"], 0, 5),
    "diagonal_four": ([".F.", "T.G", ".D."], 0, 8),
    "five_in_a_row_with_two_gardens": (["**GG*"], 0, 6),
    "seven_comfort_in_faith": ("faith", 7, 4),
    "tool_and_any_to_its_right_4_comfort": (["T*"], 4, 3),
    "four_adjacent_9_comfort": (["**", "**"], 9, 5),
}
TOO_WIDE_FOR_A_SIDE = ("diagonal_four", "five_in_a_row_with_two_gardens")


def _fits(name: str, side: str) -> bool:
    return side == "center" or name not in TOO_WIDE_FOR_A_SIDE


@pytest.fixture(scope="module")
def examples(builtin: BambooComponents) -> dict[tuple[str, str], BalancePattern]:
    """Every example on every side it fits, written over the first tiles of that side and compiled by the loader."""
    doc = builtin.to_json_dict()
    where = {}
    for side in SIDES:
        slots = iter(i for i, tile in enumerate(doc["balance_tiles"]) if tile["side"] == side)
        for name, (pattern, least, hp) in EXAMPLES.items():
            if _fits(name, side):
                where[name, side] = i = next(slots)
                doc["balance_tiles"][i].update(pattern=pattern, min_comfort=least, hp=hp)
    compiled = load_components(doc).balance_patterns
    return {key: compiled[i] for key, i in where.items()}


def test_the_builtin_file_holds_every_rulebook_example(builtin: BambooComponents, doc: dict[str, Any]) -> None:
    for name, (pattern, least, hp) in EXAMPLES.items():
        found = [i for i, tile in enumerate(doc["balance_tiles"])
                 if (tile["pattern"], tile["min_comfort"], tile["hp"]) == (pattern, least, hp)]
        assert len(found) == 1, name
        i = found[0]
        marks = {key: builtin.marks[f"balance_tiles[{i}].{key}"] for key in ("hp", "min_comfort", "side", "pattern")}
        assert marks["hp"] == marks["min_comfort"] == "CONFIRMED"
        assert marks["side"] == "INVENTED"  # R does not say which stack
        shown_not_described = name == "four_adjacent_9_comfort"
        assert marks["pattern"] == ("INVENTED" if shown_not_described else "CONFIRMED")


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("name", TOO_WIDE_FOR_A_SIDE)
def test_examples_too_wide_for_a_side_part_are_refused_there(doc: dict[str, Any], name: str, side: str) -> None:
    pattern, least, hp = EXAMPLES[name]
    next(tile for tile in doc["balance_tiles"] if tile["side"] == side).update(pattern=pattern, min_comfort=least,
                                                                                hp=hp)
    with pytest.raises(ComponentError, match=f"pattern: fits nowhere in the {side} part of the home"):
        load_components(doc)


def home(*blocks: tuple[str, int, int]) -> list[HomeCell]:
    """A home from blocks (picture, top row, left column); a picture is rows split by '/', cells like 'G2' or '.'."""
    cells: list[HomeCell] = [None] * (ROWS * COLS)
    for picture, top, left in blocks:
        for r, row in enumerate(picture.split("/")):
            for c, token in enumerate(row.split()):
                if token != ".":
                    cells[(top + r) * COLS + left + c] = (TYPE_LETTERS.index(token[0]), int(token[1:]))
    return cells


def inside(side: str, width: int) -> int:
    """The left column of a block of that width inside the side's part, touching its inner edge."""
    return {"left": 2 - width, "center": COLS - width, "right": 3}[side]


def outside(side: str, width: int) -> int:
    """The same block moved one column towards the centre, so that it leaves the side's part."""
    return {"left": 3 - width, "right": 2}[side]


def sides_for(name: str) -> list[str]:
    return [side for side in SIDES if _fits(name, side)]


@pytest.mark.parametrize("side", sides_for("one_decoration"))
def test_one_decoration(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["one_decoration", side]
    col = inside(side, 1)
    assert pattern_fulfilled(p, home(("D1", 1, col)))
    assert pattern_fulfilled(p, home(("D1", 2, col), ("F3 G3", 0, inside(side, 2))))
    assert not pattern_fulfilled(p, home(("F3", 1, col)))  # wrong type
    assert not pattern_fulfilled(p, home())
    if side != "center":
        assert not pattern_fulfilled(p, home(("D1", 1, outside(side, 1))))  # outside the region


@pytest.mark.parametrize("side", sides_for("garden_with_faith_to_its_right"))
def test_garden_with_faith_to_its_right(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["garden_with_faith_to_its_right", side]
    col = inside(side, 2)
    assert pattern_fulfilled(p, home(("G1 F1", 2, col)))
    assert not pattern_fulfilled(p, home(("G1 D1", 2, col)))  # wrong type
    assert not pattern_fulfilled(p, home(("F1 G1", 2, col)))  # faith on the left: wrong position
    assert not pattern_fulfilled(p, home(("G1 ./F1 .", 1, col)))  # faith below: not rotated
    if side != "center":
        assert not pattern_fulfilled(p, home(("G1 F1", 2, outside(side, 2))))


@pytest.mark.parametrize("side", sides_for("decoration_above_faith"))
def test_decoration_above_faith(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["decoration_above_faith", side]
    col = inside(side, 1)
    assert pattern_fulfilled(p, home(("D1/F1", 1, col)))
    assert not pattern_fulfilled(p, home(("D1/G1", 1, col)))  # wrong type
    assert not pattern_fulfilled(p, home(("F1/D1", 1, col)))  # upside down
    assert not pattern_fulfilled(p, home(("D1/./F1", 0, col)))  # not adjacent
    assert not pattern_fulfilled(p, home(("D1 F1", 0, inside(side, 2))))  # side by side: not rotated
    if side != "center":
        assert not pattern_fulfilled(p, home(("D1/F1", 0, outside(side, 1))))


@pytest.mark.parametrize("side", sides_for("garden_faith_decoration_column"))
def test_garden_faith_decoration_column(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["garden_faith_decoration_column", side]
    col = inside(side, 1)
    assert pattern_fulfilled(p, home(("G1/F1/D1", 0, col)))
    assert not pattern_fulfilled(p, home(("G1/F1/T1", 0, col)))  # wrong type
    assert not pattern_fulfilled(p, home(("D1/F1/G1", 0, col)))  # reversed
    if side == "center":
        assert not pattern_fulfilled(p, home(("G1 F1 D1", 0, 1)))  # in a row: not rotated
    else:
        assert not pattern_fulfilled(p, home(("G1/F1/D1", 0, outside(side, 1))))


@pytest.mark.parametrize("side", sides_for("diagonal_four"))
def test_diagonal_four(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["diagonal_four", side]
    assert len(p.placements) == 3  # a 3 x 3 shape in a 5 x 3 home
    assert pattern_fulfilled(p, home((". F1 ./T1 . G1/. D1 .", 0, 2)))
    assert pattern_fulfilled(p, home((". F1 ./T1 G3 G1/. D1 .", 0, 0)))  # the middle space is not part of it
    assert not pattern_fulfilled(p, home((". F1 ./T1 . D1/. D1 .", 0, 1)))  # wrong type
    assert not pattern_fulfilled(p, home((". T1 ./D1 . F1/. G1 .", 0, 1)))  # turned a quarter: not rotated
    assert not pattern_fulfilled(p, home((". F1 ./G1 . T1/. D1 .", 0, 1)))  # mirrored
    assert not pattern_fulfilled(p, home((". F1 . ./T1 . . G1/. D1 . .", 0, 1)))  # garden one space too far


@pytest.mark.parametrize("side", sides_for("five_in_a_row_with_two_gardens"))
def test_five_in_a_row_with_two_gardens(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["five_in_a_row_with_two_gardens", side]
    for row in range(ROWS):
        assert pattern_fulfilled(p, home(("D1 T1 G1 G1 F1", row, 0)))
    assert pattern_fulfilled(p, home(("G1 G1 G1 G1 G1", 1, 0)))  # "any" includes garden
    assert not pattern_fulfilled(p, home(("D1 T1 G1 F1 F1", 0, 0)))  # wrong type
    assert not pattern_fulfilled(p, home(("D1 G1 G1 T1 F1", 0, 0)))  # gardens one space to the left
    assert not pattern_fulfilled(p, home(("D1 T1 G1 G1 .", 0, 0)))  # the last tile missing


@pytest.mark.parametrize("side", sides_for("seven_comfort_in_faith"))
def test_seven_comfort_in_faith(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["seven_comfort_in_faith", side]
    col = inside(side, 2)
    assert pattern_fulfilled(p, home(("F3 ./. F1/F3 .", 0, col)))
    assert pattern_fulfilled(p, home(("F3 F3/F1 .", 0, col)))
    assert not pattern_fulfilled(p, home(("F3 ./. F2/F1 .", 0, col)))  # one point short
    assert not pattern_fulfilled(p, home(("F3 ./. D3/F3 .", 0, col)))  # other types do not count
    if side == "center":
        assert pattern_fulfilled(p, home(("F3", 0, 0), ("F1", 1, 2), ("F3", 2, 4)))  # anywhere in the home
    else:
        assert not pattern_fulfilled(p, home(("F3 F3", 0, col), ("F1", 1, outside(side, 1))))


@pytest.mark.parametrize("side", sides_for("tool_and_any_to_its_right_4_comfort"))
def test_tool_and_any_to_its_right_4_comfort(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["tool_and_any_to_its_right_4_comfort", side]
    col = inside(side, 2)
    assert pattern_fulfilled(p, home(("T3 D1", 1, col)))
    assert pattern_fulfilled(p, home(("T1 T3", 1, col)))  # "any" includes tools (a ruling, see the docs)
    assert not pattern_fulfilled(p, home(("T2 D1", 1, col)))  # one point short
    assert not pattern_fulfilled(p, home(("T2 D1/G3 G3", 1, col)))  # tiles beside the pattern do not count
    assert not pattern_fulfilled(p, home(("G3 D1", 1, col)))  # wrong type
    assert not pattern_fulfilled(p, home(("D1 T3", 1, col)))  # the other tile on the left
    assert not pattern_fulfilled(p, home(("T3 ./D3 .", 1, col)))  # the other tile below
    if side != "center":
        assert not pattern_fulfilled(p, home(("T3 D1", 1, outside(side, 2))))


@pytest.mark.parametrize("side", sides_for("four_adjacent_9_comfort"))
def test_four_adjacent_9_comfort(examples: dict[tuple[str, str], BalancePattern], side: str) -> None:
    p = examples["four_adjacent_9_comfort", side]
    col = inside(side, 2)
    assert pattern_fulfilled(p, home(("D3 F2/G2 T2", 1, col)))
    assert not pattern_fulfilled(p, home(("D3 F2/G2 T1", 1, col)))  # one point short
    assert not pattern_fulfilled(p, home(("D3 F3/G3 .", 1, col)))  # three tiles only
    assert not pattern_fulfilled(p, home(("D3 F2/G2 ./T2 .", 0, col)))  # 9 comfort in another shape
    if side == "center":
        assert not pattern_fulfilled(p, home(("D3 F2 G2 T2", 1, 0)))  # in a row
    else:
        assert not pattern_fulfilled(p, home(("D3 F2/G2 T2", 1, outside(side, 2))))


# ---- the compiled form against a direct reading of the file ---------------------------------------------------------

def _reference(tile: dict[str, Any], home_cells: list[HomeCell]) -> bool:
    """The pattern language read straight from the file's notation, with no compiling."""
    columns = {"left": range(2), "center": range(COLS), "right": range(COLS - 2, COLS)}[tile["side"]]
    at = {(i // COLS, i % COLS): cell for i, cell in enumerate(home_cells) if cell is not None and i % COLS in columns}
    pattern, least = tile["pattern"], tile["min_comfort"]
    if isinstance(pattern, str):
        return sum(comfort for kind, comfort in at.values() if HOME_TYPES[kind] == pattern) >= least
    cells = [(r, c, letter) for r, row in enumerate(pattern) for c, letter in enumerate(row) if letter != "."]
    for dr in range(-ROWS, ROWS):
        for dc in range(-COLS, COLS):
            found = [at.get((r + dr, c + dc)) for r, c, _ in cells]
            if all(cell is not None and (letter == "*" or TYPE_LETTERS[cell[0]] == letter)
                   for cell, (_, _, letter) in zip(found, cells, strict=True)) \
                    and sum(cell[1] for cell in found if cell is not None) >= least:
                return True
    return False


def test_compiled_patterns_agree_with_a_direct_reading(builtin: BambooComponents, doc: dict[str, Any]) -> None:
    rng = random.Random(20230)
    outcomes = set()
    for _ in range(120):
        fill = rng.random()
        home_cells: list[HomeCell] = [(rng.randrange(4), rng.randint(1, 3)) if rng.random() < fill else None
                                      for _ in range(ROWS * COLS)]
        for tile, pattern in zip(doc["balance_tiles"], builtin.balance_patterns, strict=True):
            expected = _reference(tile, home_cells)
            assert pattern_fulfilled(pattern, home_cells) == expected, (tile["id"], home_cells)
            outcomes.add(expected)
    assert outcomes == {True, False}


def test_spirit_effects_are_all_known(builtin: BambooComponents) -> None:
    assert sorted(SPIRIT_EFFECTS[e] for e in builtin.spirit_effect) == sorted(SPIRIT_EFFECTS)
