"""Rulebook "Phase B", "The Individual Woman (and Man) Actions" and the Green God; CLARIFICATIONS C#15, C#16.

Every scenario is a 2-player game in round 1, phase B, where seat 0 (first in turn order) uses its abilities. The
seat starts with no person tiles, God cards, God tiles, offerings, shells or materials and one hut on the central
mountain C_SE; each test gives it exactly the tiles and means it needs (tests/scenario.py edits the raw state).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import borabora_sim
from borabora_sim.games.bora_bora.components import GOD_COLOURS, MATERIALS, PERSON_TYPES

from scenario import NO_TILE, PHASE, edited, names, play, set_decision, vp

Raw = dict[str, Any]
Edit = Callable[[Raw], None]

COMP = borabora_sim.load_components()
REGION = {name: r for r, name in enumerate(COMP.region_ids)}
MAN, WOMAN = 0, 1
SEX_NAMES = ("man", "woman")
PERSONS_PER_SEX = 36
SEAT, OTHER = 0, 1
CARDS_PER_COLOUR = 12
GREEN = GOD_COLOURS.index("green")


# =============================================================================
# Scenario building
# =============================================================================
@pytest.fixture(scope="module")
def base() -> borabora_sim.State:
    state = borabora_sim.new_game(players=2, seed=3)
    while state.phase == "setup":
        state.apply(state.legal_actions()[0])
    return state


def type_tiles(sex: int, ptype: str) -> list[int]:
    t = PERSON_TYPES.index(ptype)
    return [i for i in range(sex * PERSONS_PER_SEX, (sex + 1) * PERSONS_PER_SEX) if int(COMP.person_type[i]) == t]


def pick(raw: Raw, sex: int, ptype: str, n: int) -> list[int]:
    """`n` tiles of one sex and type that are on no board, those not on display first."""
    used = {t for s in range(raw["n_players"]) for t in raw["pl"][s]["persons"][: raw["pl"][s]["n_persons"]]}
    free = [t for t in type_tiles(sex, ptype) if t not in used]
    free.sort(key=lambda t: t in raw["person_display"][sex])
    assert len(free) >= n
    return free[:n]


def take_out(pile: list[int], top: int, item: int) -> int:
    """Moves `item` from the undrawn part pile[top:] to the drawn part; returns the new top."""
    if item in pile[top:]:
        i = pile.index(item, top)
        pile[i], pile[top] = pile[top], pile[i]
        return top + 1
    return top


def set_hand(raw: Raw, seat: int, hand: list[int]) -> None:
    """Gives `seat` exactly `hand` God cards (by colour); the draw pile is rebuilt from the rest, discard empty."""
    raw["pl"][seat]["hand"] = list(hand)
    raw["pl"][seat]["known"] = [0] * len(GOD_COLOURS)
    left = [CARDS_PER_COLOUR] * len(GOD_COLOURS)
    for col in raw["god_display"]:
        if col != NO_TILE:
            left[col] -= 1
    for s in range(raw["n_players"]):
        for col, k in enumerate(raw["pl"][s]["hand"]):
            left[col] -= k
    deck = [col for col in range(len(GOD_COLOURS)) for _ in range(left[col])]
    raw["god_deck"] = deck + [0] * (len(raw["god_deck"]) - len(deck))
    raw["deck_top"], raw["deck_end"] = 0, len(deck)
    raw["discard"] = [0] * len(GOD_COLOURS)


def fix_huts(p: Raw, huts_12th: int | None = None) -> None:
    """Keeps 12 huts per player (spaces 1-11, the 12th space, the map), leaving room for the person tiles and,
    unless `huts_12th` says otherwise, one free space for a new person."""
    on_map = bin(p["regions"]).count("1")
    h12 = p["huts_12th"] if huts_12th is None else huts_12th
    room = COMP.regular_person_spaces - p["n_persons"] + p["person_12th"]
    reg = max(0, min(12 - on_map - h12, room if huts_12th is not None else room - 1))
    p["reg_huts"], p["huts_12th"] = reg, 12 - on_map - reg


def give_persons(raw: Raw, seat: int, tiles: list[int]) -> None:
    """Puts person tiles on the seat's board; they leave the piles, and display gaps are refilled from the pile."""
    p = raw["pl"][seat]
    for tile in tiles:
        sex = tile // PERSONS_PER_SEX
        raw["person_top"][sex] = take_out(raw["person_pile"][sex], raw["person_top"][sex], tile)
        p["persons"][p["n_persons"]] = tile
        p["n_persons"] += 1
    for sex, row in enumerate(raw["person_display"]):
        for i, tile in enumerate(row):
            if tile in tiles:
                row[i] = raw["person_pile"][sex][raw["person_top"][sex]]
                raw["person_top"][sex] += 1
    fix_huts(p)


def give_tasks(raw: Raw, tasks: dict[int, list[int]]) -> None:
    """Sets every listed seat's three task slots; the tasks leave the pile and the display."""
    for seat in tasks:
        raw["pl"][seat]["tasks"] = [NO_TILE] * 3
    for seat, ids in tasks.items():
        for t in ids:
            raw["task_top"] = take_out(raw["task_pile"], raw["task_top"], t)
            raw["task_display"] = [NO_TILE if d == t else d for d in raw["task_display"]]
            for s in range(raw["n_players"]):
                raw["pl"][s]["tasks"] = [NO_TILE if x == t else x for x in raw["pl"][s]["tasks"]]
        raw["pl"][seat]["tasks"] = list(ids) + [NO_TILE] * (3 - len(ids))


def settle(raw: Raw, seat: int, regions: list[str]) -> None:
    """The seat's huts on the map stand exactly on these regions' building spaces."""
    p = raw["pl"][seat]
    raw["region_owner"] = [-1 if o == seat else o for o in raw["region_owner"]]
    p["regions"] = 0
    for name in regions:
        r = REGION[name]
        p["regions"] |= 1 << r
        raw["region_owner"][r] = seat
    p["fish_scored"] &= p["regions"]
    fix_huts(p)


def clean(raw: Raw, seat: int) -> None:
    p = raw["pl"][seat]
    p["vp"] = [0] * len(p["vp"])
    p["dice"] = [0, 0, 0]
    p["n_persons"], p["person_12th"], p["shifted"] = 0, 0, 0
    p["persons"] = [0] * len(p["persons"])
    p["ceremony"] = [0] * len(p["ceremony"])
    p["beside"] = [0] * len(p["beside"])
    p["built"], p["offerings"], p["shells"], p["god_tiles"], p["status"] = 0, 0, 0, 0, 0
    set_hand(raw, seat, [0] * len(GOD_COLOURS))


# Tasks no clean player can complete: regions 9, islands 5, buildings 4 / priests 3, jewelry 4, God tiles 2.
IMPOSSIBLE_TASKS = {SEAT: [7, 8, 26], OTHER: [3, 25, 28]}


def phase_b(base: borabora_sim.State, *edits: Edit, order: tuple[int, int] = (SEAT, OTHER),
            other_type: str = "victory_points") -> borabora_sim.State:
    """Round 1, phase B, order[0] to use its abilities. Seat 0 is clean and settled on C_SE; the other seat is clean
    but for a man and a woman of `other_type` (so its own turn is a real decision); then `edits` apply."""

    def fn(raw: Raw) -> None:
        for seat in (SEAT, OTHER):
            clean(raw, seat)
        settle(raw, SEAT, ["C_SE"])
        give_tasks(raw, IMPOSSIBLE_TASKS)
        give_persons(raw, OTHER, pick(raw, MAN, other_type, 1) + pick(raw, WOMAN, other_type, 1))
        raw["order"][:2] = list(order)
        raw["pl"][order[0]]["status_stamp"], raw["pl"][order[1]]["status_stamp"] = 2, 1
        raw["status_clock"] = 2
        raw["tile_low"] = [1] * len(raw["tile_low"])     # a die 1 on every action tile: phase A is over
        raw["phase"], raw["round"], raw["turn_idx"] = PHASE["B"], 1, 1
        set_decision(raw, [("phase_b", order[0], 0, 0)])
        for edit in edits:
            edit(raw)

    state = edited(base, fn)
    assert state.check_invariants() is None
    assert state.phase == "B" and state.decision == "phase_b"
    return state


def persons(sex: int, ptype: str, n: int, seat: int = SEAT) -> Edit:
    return lambda raw: give_persons(raw, seat, pick(raw, sex, ptype, n))


def men(ptype: str, n: int, seat: int = SEAT) -> Edit:
    return persons(MAN, ptype, n, seat)


def women(ptype: str, n: int, seat: int = SEAT) -> Edit:
    return persons(WOMAN, ptype, n, seat)


def field(name: str, value: Any, seat: int = SEAT) -> Edit:
    def edit(raw: Raw) -> None:
        raw["pl"][seat][name] = value

    return edit


def hand(cards: dict[str, int], seat: int = SEAT) -> Edit:
    return lambda raw: set_hand(raw, seat, [cards.get(col, 0) for col in GOD_COLOURS])


def huts(reg: int, h12: int, seat: int = SEAT) -> Edit:
    def edit(raw: Raw) -> None:
        p = raw["pl"][seat]
        fix_huts(p, h12)
        assert (p["reg_huts"], p["huts_12th"]) == (reg, h12)

    return edit


def settled(*regions: str) -> Edit:
    return lambda raw: settle(raw, SEAT, list(regions))


def raw_of(state: borabora_sim.State) -> Raw:
    return state.to_dict()["state"]


def pl(state: borabora_sim.State, seat: int = SEAT) -> Raw:
    return raw_of(state)["pl"][seat]


def use(sex: int, ptype: str) -> str:
    return f"use {SEX_NAMES[sex]} {ptype}"


def my_turn(state: borabora_sim.State) -> bool:
    return state.current_player == SEAT and state.decision == "phase_b"


def abilities(state: borabora_sim.State) -> list[str]:
    """Abilities seat 0 may still use this turn (none once its turn has ended)."""
    return [a for a in names(state) if a.startswith("use ")] if my_turn(state) else []


def greens(state: borabora_sim.State) -> list[str]:
    return [a for a in names(state) if a.startswith("play green")] if my_turn(state) else []


def regions_of(state: borabora_sim.State, seat: int = SEAT) -> set[str]:
    mask = pl(state, seat)["regions"]
    return {name for name, r in REGION.items() if mask >> r & 1}


def expand_targets(state: borabora_sim.State, action: str) -> set[str]:
    """Regions the ability `action` may expand to (a single one is settled automatically); none if not offered."""
    if action not in names(state):
        return set()
    after = play(state.clone(), action)
    if after.decision == "expand":
        return {a.removeprefix("region ") for a in names(after)}
    return regions_of(after) - regions_of(state)


def drain(state: borabora_sim.State, decision: str) -> int:
    """Takes the first choice of every `decision` in a row; returns how many there were."""
    k = 0
    while state.decision == decision:
        state.apply(state.legal_actions()[0])
        k += 1
    return k


def gained(state: borabora_sim.State, action: str, key: str, seat: int = SEAT) -> int:
    before = pl(state, seat)[key]
    after = play(state.clone(), action)
    return pl(after, seat)[key] - before


# =============================================================================
# The twelve abilities and their strength with 1, 2 or 3 identical tiles
# =============================================================================
@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize(("count", "targets"), [(1, {"C_SW"}), (2, {"C_SW", "C_NE"}), (3, {"C_SW", "C_NE"})])
def test_land_path_ability_expands_along_paths_up_to_2_4_any(base, sex, count, targets) -> None:
    # From C_SE: land path 2 to C_SW, land path 4 to C_NE (rulebook "Expand" example).
    state = phase_b(base, persons(sex, "land_path", count))
    assert expand_targets(state, use(sex, "land_path")) == targets


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize(("count", "targets"), [(1, set()), (2, {"N_W"}), (3, {"N_W", "W_N"})])
def test_water_path_ability_expands_along_paths_up_to_2_4_any(base, sex, count, targets) -> None:
    # From C_NW: water path 3 to N_W, water path 6 to W_N; no water path of value 2 or less.
    state = phase_b(base, settled("C_NW"), persons(sex, "water_path", count))
    assert expand_targets(state, use(sex, "water_path")) == targets


def test_path_ability_places_one_hut_from_the_board(base) -> None:
    state = phase_b(base, men("land_path", 2))
    before = pl(state)
    play(state, use(MAN, "land_path"), "region C_NE")
    after = pl(state)
    assert regions_of(state) == {"C_SE", "C_NE"}
    assert raw_of(state)["region_owner"][REGION["C_NE"]] == SEAT
    assert after["reg_huts"] + after["huts_12th"] == before["reg_huts"] + before["huts_12th"] - 1


@pytest.mark.parametrize(("sex", "taken"), [(MAN, "woman"), (WOMAN, "woman"), (MAN, "man"), (WOMAN, "man")])
@pytest.mark.parametrize(("count", "positions"), [(1, 3), (2, 6), (3, 6)])
def test_take_person_ability_reaches_display_positions_3_6_6(base, sex, taken, count, positions) -> None:
    """Woman / Man: as a die 3 on the action tile; two tiles as a 6; the third tile has no effect."""
    state = phase_b(base, persons(sex, taken, count))
    target = WOMAN if taken == "woman" else MAN
    assert NO_TILE not in raw_of(state)["person_display"][target]
    play(state, use(sex, taken))
    assert state.decision == "person"
    assert names(state) == [f"take person at position {i}" for i in range(1, positions + 1)]
    tile = raw_of(state)["person_display"][target][positions - 1]
    play(state, f"take person at position {positions}")
    p = pl(state)
    assert p["persons"][p["n_persons"] - 1] == tile


def test_abilities_act_as_a_die_of_their_strength_whatever_lies_on_the_action_tiles(base) -> None:
    """Phase B places no die: a 1 on every action tile does not stop a take-woman ability acting as a 3."""
    state = phase_b(base, women("woman", 1))
    assert set(raw_of(state)["tile_low"]) == {1}
    play(state, use(WOMAN, "woman"))
    assert names(state) == [f"take person at position {i}" for i in range(1, 4)]


def test_take_person_ability_needs_a_free_person_space(base) -> None:
    def full(raw: Raw) -> None:
        p = raw["pl"][SEAT]
        p["reg_huts"] = COMP.regular_person_spaces - p["n_persons"]
        p["huts_12th"] = 12 - 1 - p["reg_huts"]

    state = phase_b(base, women("woman", 1), women("shell", 1), full)
    assert use(WOMAN, "woman") not in abilities(state)
    assert use(WOMAN, "shell") in abilities(state)


def two_materials(raw: Raw) -> None:
    raw["pl"][SEAT]["ceremony"][0] = raw["pl"][SEAT]["ceremony"][1] = 1   # adjacent spaces 1 and 2


def tile_values(state: borabora_sim.State) -> list[int]:
    return sorted(int(a.split("value ")[1].rstrip(")")) for a in names(state) if a.startswith("building tile"))


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize(("count", "top_value"), [(1, 3), (2, 6), (3, 6)])
def test_build_ability_builds_tiles_up_to_value_3_6_6(base, sex, count, top_value) -> None:
    state = phase_b(base, persons(sex, "build", count), two_materials)
    play(state, use(sex, "build"))
    assert state.decision == "build_tile"
    assert tile_values(state) == [v for v in sorted(int(v) for v in COMP.building_values) if v <= top_value]


def test_build_ability_scores_the_round_value_and_a_fire_bonus(base) -> None:
    state = phase_b(base, men("build", 1), two_materials)
    play(state, use(MAN, "build"), "building tile 1 (value 1)")
    assert vp(state, SEAT, "buildings") == int(COMP.building_vp_by_round[0])
    assert state.decision == "fire_bonus_god"
    assert pl(state)["built"] == 1 and pl(state)["ceremony"][:2] == [2, 2]


def test_build_ability_needs_two_adjacent_materials(base) -> None:
    state = phase_b(base, men("build", 2), men("shell", 1), field("ceremony", [1, 0, 1] + [0] * 9))
    assert use(MAN, "build") not in abilities(state)
    assert use(MAN, "shell") in abilities(state)


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_material_ability_takes_1_2_3_materials_of_any_kind(base, sex, count) -> None:
    state = phase_b(base, persons(sex, "material", count))
    play(state, use(sex, "material"))
    kinds = {a.split("(")[1].rstrip(")") for a in names(state) if a.startswith("ceremony space")}
    assert kinds == set(MATERIALS)          # each material may be of a different kind
    assert drain(state, "material_any") == count
    p = pl(state)
    assert p["ceremony"].count(1) + sum(p["beside"]) == count


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_move_hut_ability_moves_1_2_3_huts_to_the_12th_space(base, sex, count) -> None:
    state = phase_b(base, persons(sex, "move_hut", count), huts(5, 6))
    play(state, use(sex, "move_hut"))
    assert (pl(state)["reg_huts"], pl(state)["huts_12th"]) == (5 - count, 6 + count)


def test_move_hut_ability_moves_as_many_huts_as_are_on_the_board(base) -> None:
    """Ruling R8: three tiles with two huts left on spaces 1-11 move those two."""
    state = phase_b(base, men("move_hut", 3), huts(2, 9))
    play(state, use(MAN, "move_hut"))
    assert (pl(state)["reg_huts"], pl(state)["huts_12th"]) == (0, 11)


def test_move_hut_ability_needs_a_hut_on_spaces_1_to_11(base) -> None:
    state = phase_b(base, men("move_hut", 1), men("shell", 1), huts(0, 11))
    assert use(MAN, "move_hut") not in abilities(state)
    assert use(MAN, "shell") in abilities(state)


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize(("count", "points"), [(1, 2), (2, 4), (3, 6)])
def test_victory_point_ability_scores_2_4_6(base, sex, count, points) -> None:
    state = phase_b(base, persons(sex, "victory_points", count), other_type="shell")
    play(state, use(sex, "victory_points"))
    assert vp(state, SEAT, "person") == points
    assert sum(state.score_breakdown()[SEAT].values()) == state.scores()[SEAT] == points


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_god_card_ability_takes_1_2_3_god_cards(base, sex, count) -> None:
    state = phase_b(base, persons(sex, "god_card", count))
    play(state, use(sex, "god_card"))
    assert state.decision == "take_god_card"
    assert "god card from pile" in names(state) and "god card from display 1" in names(state)
    assert drain(state, "take_god_card") == count
    assert sum(pl(state)["hand"]) == count


def test_god_card_ability_draws_from_the_reshuffled_discard_pile(base) -> None:
    """C#22: when the draw pile is used up, the discard pile is shuffled into a new one."""

    def pile_in_discard(raw: Raw) -> None:
        for i in range(raw["deck_top"], raw["deck_end"]):
            raw["discard"][raw["god_deck"][i]] += 1
        raw["deck_top"] = raw["deck_end"]

    state = phase_b(base, men("god_card", 1), women("shell", 1), pile_in_discard)
    discarded = sum(raw_of(state)["discard"])
    play(state, use(MAN, "god_card"), "god card from pile")
    assert sum(pl(state)["hand"]) == 1
    raw = raw_of(state)
    assert sum(raw["discard"]) == 0 and raw["deck_end"] - raw["deck_top"] == discarded - 1


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_offering_ability_takes_1_2_3_offerings(base, sex, count) -> None:
    state = phase_b(base, persons(sex, "offering", count))
    assert gained(state, use(sex, "offering"), "offerings") == count


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_status_ability_moves_1_2_3_status_steps(base, sex, count) -> None:
    state = phase_b(base, persons(sex, "status", count))
    assert gained(state, use(sex, "status"), "status") == count


def test_status_ability_stops_on_the_last_space_on_top(base) -> None:
    """Ruling R15: steps past space 15 stay on it, on top of a marker already there."""
    state = phase_b(base, men("status", 3), field("status", 14), field("status", 15, OTHER),
                    field("status_stamp", 5, OTHER), lambda raw: raw.update(status_clock=5))
    play(state, use(MAN, "status"))
    assert pl(state)["status"] == 15
    assert pl(state)["status_stamp"] > pl(state, OTHER)["status_stamp"]


@pytest.mark.parametrize("sex", [MAN, WOMAN])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_shell_ability_takes_1_2_3_shells(base, sex, count) -> None:
    state = phase_b(base, persons(sex, "shell", count))
    assert gained(state, use(sex, "shell"), "shells") == count


# =============================================================================
# Combining; one man and one woman ability (C#15)
# =============================================================================
def test_identical_tiles_combine_into_one_action(base) -> None:
    state = phase_b(base, men("victory_points", 3), women("shell", 1), other_type="offering")
    assert abilities(state) == [use(MAN, "victory_points"), use(WOMAN, "shell")]
    play(state, use(MAN, "victory_points"))
    assert vp(state, SEAT, "person") == 6
    assert abilities(state) == [use(WOMAN, "shell")]       # the three men acted once, together


def test_combined_path_finders_cross_one_path_not_two(base) -> None:
    """C#15: two male path-finders cross one path <= 4, not two paths <= 2."""
    state = phase_b(base, men("land_path", 2), women("shell", 1))
    play(state, use(MAN, "land_path"), "region C_SW")
    drain(state, "material")            # the region's sand
    assert regions_of(state) == {"C_SE", "C_SW"}
    assert abilities(state) == [use(WOMAN, "shell")]


def test_men_and_women_never_combine(base) -> None:
    state = phase_b(base, men("victory_points", 1), women("victory_points", 1))
    play(state, use(MAN, "victory_points"))
    assert vp(state, SEAT, "person") == 2
    play(state, use(WOMAN, "victory_points"))
    assert vp(state, SEAT, "person") == 4


def test_a_man_and_a_woman_path_finder_do_not_reach_a_4_path(base) -> None:
    state = phase_b(base, men("land_path", 1), women("land_path", 1))
    assert expand_targets(state, use(MAN, "land_path")) == {"C_SW"}
    assert expand_targets(state, use(WOMAN, "land_path")) == {"C_SW"}


def test_at_most_one_man_ability_per_turn(base) -> None:
    state = phase_b(base, men("victory_points", 1), men("shell", 1), men("offering", 1), women("status", 1))
    assert len(abilities(state)) == 4
    play(state, use(MAN, "shell"))
    assert abilities(state) == [use(WOMAN, "status")]


def test_at_most_one_woman_ability_per_turn(base) -> None:
    state = phase_b(base, women("victory_points", 1), women("shell", 1), men("status", 1))
    play(state, use(WOMAN, "victory_points"))
    assert abilities(state) == [use(MAN, "status")]


@pytest.mark.parametrize("first", [MAN, WOMAN])
def test_one_man_and_one_woman_ability_in_either_order(base, first) -> None:
    state = phase_b(base, men("shell", 1), men("offering", 1), women("shell", 1), women("offering", 1))
    second = 1 - first
    play(state, use(first, "shell"))
    assert abilities(state) == [use(second, "offering"), use(second, "shell")]
    play(state, use(second, "offering"))
    assert not my_turn(state)           # nothing left: the turn ended
    assert (pl(state)["shells"], pl(state)["offerings"]) == (1, 1)


def test_using_an_ability_neither_moves_nor_discards_tiles(base) -> None:
    state = phase_b(base, men("victory_points", 2), women("shell", 1), field("shifted", 0b001))
    before = pl(state)
    play(state, use(MAN, "victory_points"), use(WOMAN, "shell"))
    after = pl(state)
    assert (after["n_persons"], after["persons"], after["shifted"]) == (
        before["n_persons"], before["persons"], before["shifted"])


def test_abilities_are_optional(base) -> None:
    state = phase_b(base, men("victory_points", 1))
    assert "done" in names(state)
    play(state, "done")
    assert vp(state, SEAT, "person") == 0
    assert state.current_player == OTHER and state.decision == "phase_b"


def test_phase_b_is_played_in_turn_order(base) -> None:
    state = phase_b(base, men("shell", 1), order=(OTHER, SEAT))
    assert state.current_player == OTHER
    play(state, use(MAN, "victory_points"), "done")
    assert state.current_player == SEAT and state.decision == "phase_b"
    play(state, use(MAN, "shell"))
    assert state.phase != "B"


def test_path_ability_expansion_may_score_the_fish_with_a_red_god(base) -> None:
    """Red God (phases A or B): a phase-B expansion offers it, after the region's resource."""
    state = phase_b(base, men("land_path", 1), field("god_tiles", 1))
    play(state, use(MAN, "land_path"))
    drain(state, "material")
    assert state.decision == "red_god"
    assert "play red god with god tile" in names(state)


# =============================================================================
# Green God (C#16, ruling R11)
# =============================================================================
GREEN_MEANS = (hand({"green": 1}), field("offerings", 1))


def test_green_god_double_is_offered_in_phase_b(base) -> None:
    state = phase_b(base, men("victory_points", 1), *GREEN_MEANS)
    assert "play green_double god with card" in greens(state)


@pytest.mark.parametrize(("count", "points"), [(1, 4), (2, 8), (3, 12)])
def test_green_god_doubles_the_total_of_identical_tiles(base, count, points) -> None:
    state = phase_b(base, men("victory_points", count), *GREEN_MEANS, other_type="shell")
    play(state, "play green_double god with card", use(MAN, "victory_points"))
    assert vp(state, SEAT, "person") == points


def test_green_god_costs_a_green_card_and_an_offering(base) -> None:
    state = phase_b(base, men("victory_points", 1), women("shell", 1), *GREEN_MEANS)
    play(state, "play green_double god with card")
    assert pl(state)["hand"][GREEN] == 0 and pl(state)["offerings"] == 0
    assert raw_of(state)["discard"][GREEN] == 1


def test_green_god_double_doubles_a_path_ability_to_4(base) -> None:
    state = phase_b(base, men("land_path", 1), women("shell", 1), *GREEN_MEANS)
    play(state, "play green_double god with card")
    assert expand_targets(state, use(MAN, "land_path")) == {"C_SW", "C_NE"}


def test_green_god_double_makes_one_take_tile_act_as_a_6(base) -> None:
    state = phase_b(base, women("man", 1), *GREEN_MEANS)
    play(state, "play green_double god with card", use(WOMAN, "man"))
    assert names(state) == [f"take person at position {i}" for i in range(1, 7)]


@pytest.mark.parametrize(("ptype", "key"), [("offering", "offerings"), ("shell", "shells"), ("status", "status")])
def test_green_god_double_doubles_quantities(base, ptype, key) -> None:
    state = phase_b(base, women(ptype, 2), men("victory_points", 1), *GREEN_MEANS)
    play(state, "play green_double god with card")
    assert gained(state, use(WOMAN, ptype), key) == 4


def test_green_god_double_applies_only_to_the_next_ability(base) -> None:
    state = phase_b(base, men("victory_points", 1), women("victory_points", 1), *GREEN_MEANS)
    play(state, "play green_double god with card", use(MAN, "victory_points"), use(WOMAN, "victory_points"))
    assert vp(state, SEAT, "person") == 4 + 2


def test_green_god_double_is_offered_when_only_the_doubled_ability_is_possible(base) -> None:
    """One water path-finder on C_SE reaches no water path (values 4 and 5); doubled it crosses the 4."""
    state = phase_b(base, men("water_path", 1), *GREEN_MEANS)
    assert use(MAN, "water_path") not in abilities(state)
    assert "play green_double god with card" in greens(state)
    play(state, "play green_double god with card")
    assert expand_targets(state, use(MAN, "water_path")) == {"E_S"}


def test_green_god_extra_activates_a_second_different_type_of_the_same_sex(base) -> None:
    state = phase_b(base, men("victory_points", 1), men("shell", 1), men("offering", 1), *GREEN_MEANS)
    play(state, "play green_extra god with card", use(MAN, "victory_points"))
    assert abilities(state) == [use(MAN, "offering"), use(MAN, "shell")]
    play(state, use(MAN, "shell"))
    assert abilities(state) == []          # no third man ability
    assert vp(state, SEAT, "person") == 2 and pl(state)["shells"] == 1


def test_green_god_extra_keeps_the_other_sex_ability(base) -> None:
    state = phase_b(base, men("victory_points", 1), men("shell", 1), women("offering", 1), *GREEN_MEANS)
    play(state, "play green_extra god with card", use(MAN, "victory_points"), use(MAN, "shell"))
    assert abilities(state) == [use(WOMAN, "offering")]


def test_green_god_extra_may_be_played_after_both_abilities(base) -> None:
    state = phase_b(base, men("victory_points", 1), men("shell", 1), women("offering", 1), *GREEN_MEANS)
    play(state, use(MAN, "victory_points"), use(WOMAN, "offering"))
    assert abilities(state) == []
    assert greens(state) == ["play green_extra god with card"]
    play(state, "play green_extra god with card")
    assert abilities(state) == [use(MAN, "shell")]


def test_green_god_extra_cannot_repeat_a_type(base) -> None:
    state = phase_b(base, men("victory_points", 1), *GREEN_MEANS)
    assert "play green_extra god with card" not in greens(state)   # no second type to activate
    play(state, use(MAN, "victory_points"))
    assert greens(state) == [] and abilities(state) == []


def test_at_most_one_green_god_per_phase_b_turn(base) -> None:
    state = phase_b(base, men("victory_points", 1), men("shell", 1), men("offering", 1), women("status", 1),
                    hand({"green": 2}), field("offerings", 2), field("god_tiles", 1))
    play(state, "play green_double god with card")
    assert greens(state) == []
    play(state, use(MAN, "victory_points"))
    assert greens(state) == []
    assert abilities(state) == [use(WOMAN, "status")]


def test_green_god_may_be_paid_with_a_god_tile_without_an_offering(base) -> None:
    state = phase_b(base, men("victory_points", 1), field("god_tiles", 1))
    assert greens(state) == ["play green_double god with god tile"]
    play(state, "play green_double god with god tile", use(MAN, "victory_points"))
    assert vp(state, SEAT, "person") == 4 and pl(state)["god_tiles"] == 0


def test_green_god_may_be_paid_with_a_pair_of_another_colour(base) -> None:
    state = phase_b(base, men("victory_points", 1), hand({"red": 2}), field("offerings", 1))
    assert greens(state) == ["play green_double god with pair of red"]


def test_green_god_needs_an_offering(base) -> None:
    state = phase_b(base, men("victory_points", 1), hand({"green": 1, "red": 2}))
    assert greens(state) == []


def test_green_god_is_not_played_in_phase_a(base) -> None:
    def die(raw: Raw) -> None:
        raw["phase"], raw["turn_idx"] = PHASE["A"], 1
        raw["pl"][SEAT]["dice"] = [2, 4, 6]
        set_decision(raw, [("die", SEAT, 0, 0)])

    state = edited(phase_b(base, men("victory_points", 1), men("shell", 1), hand({"green": 2}),
                           field("offerings", 1), field("god_tiles", 1)), die)
    assert state.decision == "die"
    assert not [a for a in names(state) if a.startswith("play green")]
    assert "play white god with pair of green" in names(state)     # a pair may act as another God


def test_yellow_god_is_not_played_in_phase_b(base) -> None:
    """Task T44 (4 huts on the 12th space) is one hut short: a Yellow God would help, but only in phase C."""
    state = phase_b(base, men("victory_points", 1), hand({"yellow": 2}), field("offerings", 2),
                    field("god_tiles", 1), huts(8, 3), lambda raw: give_tasks(raw, {SEAT: [43]}))
    assert not [a for a in names(state) if a.startswith("play yellow")]
