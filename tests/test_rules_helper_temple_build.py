"""Rulebook "Helper", "Temple", "Build", "The Fire Bonus" and material placement; CLARIFICATIONS C#11-C#14.

Every scenario starts from a 2-player game in phase A with the first player's die to place, edited through its raw
state (tests/scenario.py). The player to move has no God cards or God tiles, so no God play clutters the choices.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import borabora_sim
from borabora_sim.games.bora_bora.components import MATERIALS, PERSON_TYPES

from scenario import NO_TILE, edited, names, play, set_decision, vp

Raw = dict[str, Any]
Edit = Callable[[Raw, int], None]

COMP = borabora_sim.load_components()
CER_EMPTY, CER_MATERIAL, CER_BUILDING = 0, 1, 2
MAN, WOMAN = 0, 1
PERSONS_PER_SEX = 36
PRIESTS = 4


# =============================================================================
# Scenario building
# =============================================================================
@pytest.fixture(scope="module")
def base() -> borabora_sim.State:
    """Round 1, phase A: the start player (seat 1 of 2) places a die; each player has one hut on the map."""
    state = borabora_sim.new_game(players=2, seed=3)
    while state.phase == "setup":
        state.apply(state.legal_actions()[0])
    assert state.phase == "A" and state.decision == "die"
    return state


def mover(state: borabora_sim.State) -> int:
    return state.current_player


def other(state: borabora_sim.State) -> int:
    return 1 - state.current_player


def strip_gods(raw: Raw, seat: int) -> None:
    """Moves the seat's God cards to the discard pile and removes its God tiles."""
    p = raw["pl"][seat]
    for col, n in enumerate(p["hand"]):
        raw["discard"][col] += n
    p["hand"] = [0] * len(p["hand"])
    p["known"] = [0] * len(p["known"])
    p["god_tiles"] = 0


def clear_board(raw: Raw, seat: int) -> None:
    """Empty ceremony spaces, nothing beside the board, nothing built."""
    p = raw["pl"][seat]
    p["ceremony"] = [CER_EMPTY] * len(p["ceremony"])
    p["beside"] = [0] * len(p["beside"])
    p["built"] = 0


def person_tile(sex: int, symbols: int, skip: tuple[int, ...] = ()) -> int:
    """A man (sex 0) or woman (sex 1) tile showing `symbols` status symbols / shells."""
    for tile in range(sex * PERSONS_PER_SEX, (sex + 1) * PERSONS_PER_SEX):
        if int(COMP.person_symbols[tile]) == symbols and tile not in skip:
            return tile
    raise AssertionError(f"no tile of sex {sex} with {symbols} symbols")


def give_person(raw: Raw, seat: int, tile: int, shifted: bool = False, make_room: bool = True) -> int:
    """Puts person `tile` on the seat's board (taking it out of the pile / display); returns its board slot.
    With `make_room`, a hut moves from a regular space to the 12th space when no regular space is free."""
    for row in raw["person_display"]:
        for i, t in enumerate(row):
            if t == tile:
                row[i] = NO_TILE
    sex = tile // PERSONS_PER_SEX
    pile, top = raw["person_pile"][sex], raw["person_top"][sex]
    if tile in pile[top:]:
        i = pile.index(tile, top)
        pile[i], pile[top] = pile[top], pile[i]
        raw["person_top"][sex] = top + 1
    p = raw["pl"][seat]
    if make_room and COMP.regular_person_spaces - p["reg_huts"] - p["n_persons"] <= 0:
        p["reg_huts"] -= 1          # make room: a hut goes to the 12th space
        p["huts_12th"] += 1
    slot = p["n_persons"]
    p["persons"][slot] = tile
    if shifted:
        p["shifted"] |= 1 << slot
    p["n_persons"] = slot + 1
    return slot


def scenario(base: borabora_sim.State, dice: tuple[int, int, int], edit: Edit | None = None) -> borabora_sim.State:
    """The base state with the mover's dice set, its God cards and tiles removed, then `edit(raw, mover)`."""
    seat = mover(base)

    def fn(raw: Raw) -> None:
        raw["pl"][seat]["dice"] = list(dice)
        strip_gods(raw, seat)
        if edit is not None:
            edit(raw, seat)

    state = edited(base, fn)
    assert state.check_invariants() is None
    return state


def raw_of(state: borabora_sim.State) -> Raw:
    return state.to_dict()["state"]


def player(state: borabora_sim.State, seat: int) -> Raw:
    return raw_of(state)["pl"][seat]


def helper_points(state: borabora_sim.State) -> int:
    raw = raw_of(state)
    top = raw["stack"][raw["sp"] - 1]
    assert state.decision == "helper"
    return int(top["a"])


def space_name(s: int) -> str:
    return f"ceremony space {s + 1} ({MATERIALS[int(COMP.ceremony_material[s])]})"


def spaces_of(material: str) -> list[int]:
    m = MATERIALS.index(material)
    return [s for s in range(12) if int(COMP.ceremony_material[s]) == m]


def temple_name(t: int) -> str:
    return f"temple space {t + 1} (value {int(COMP.temple_values[t])})"


def tile_name(k: int) -> str:
    return f"building tile {k + 1} (value {int(COMP.building_values[k])})"


def pair_name(a: int, b: int) -> str:
    return f"ceremony pair {a + 1}+{b + 1}"


def set_ceremony(cells: dict[int, int], built: int = 0) -> Edit:
    def edit(raw: Raw, seat: int) -> None:
        clear_board(raw, seat)
        p = raw["pl"][seat]
        for s, v in cells.items():
            p["ceremony"][s] = v
        p["built"] = built

    return edit


def chain(*edits: Edit) -> Edit:
    def edit(raw: Raw, seat: int) -> None:
        for e in edits:
            e(raw, seat)

    return edit


def fire_bonus_taken(state: borabora_sim.State) -> borabora_sim.State:
    """Resolves a pending Fire Bonus with an offering and a shell."""
    assert state.decision == "fire_bonus_god"
    play(state, "offering")
    assert state.decision == "fire_bonus_status"
    return play(state, "shell")


# =============================================================================
# Helper (rulebook "Helper" action; C#11)
# =============================================================================
def test_helper_is_always_choosable_and_die_value_gives_its_points(base: borabora_sim.State) -> None:
    for value in range(1, 7):
        state = scenario(base, (value, value, value), clear_board)
        assert f"place {value} on helper" in names(state)
        play(state, f"place {value} on helper")
        assert state.current_player == mover(base)
        assert helper_points(state) == value


HELPER_TRADES = [
    # (trade, action name, cost of the rulebook)
    ("tattoo", "shift down person 1", 1),
    ("shells", "shift down person 2", 1),
    ("victory_point", "victory point", 1),
    ("offering", "offering", 2),
    ("god_card", "god card from pile", 2),
    ("material", space_name(0), 2),
    ("move_hut", "move hut to 12th space", 2),
]


@pytest.mark.parametrize(("trade", "action", "cost"), HELPER_TRADES, ids=[t[0] for t in HELPER_TRADES])
def test_helper_trade_costs_die_points(base: borabora_sim.State, trade: str, action: str, cost: int) -> None:
    """Tattoo, shells and 1 VP cost 1 point each; offering, God card, material and move hut 2 each (C#11)."""
    assert int(COMP.helper_cost[[t[0] for t in HELPER_TRADES].index(trade)]) == cost

    def edit(raw: Raw, seat: int) -> None:
        clear_board(raw, seat)
        give_person(raw, seat, person_tile(MAN, 1))
        give_person(raw, seat, person_tile(WOMAN, 1))

    state = play(scenario(base, (3, 3, 3), edit), "place 3 on helper")
    assert action in names(state)
    play(state, action)
    assert helper_points(state) == 3 - cost
    two_point_items = {"offering", "god card from pile", "move hut to 12th space", space_name(0)}
    if 3 - cost < 2:
        assert not two_point_items & set(names(state))
    else:
        assert "offering" in names(state)


def test_helper_one_point_offers_only_one_point_trades(base: borabora_sim.State) -> None:
    def edit(raw: Raw, seat: int) -> None:
        clear_board(raw, seat)
        give_person(raw, seat, person_tile(MAN, 2))

    state = play(scenario(base, (1, 5, 5), edit), "place 1 on helper")
    assert sorted(names(state)) == sorted(["victory point", "shift down person 1", "done"])


def test_helper_victory_point_per_die_point(base: borabora_sim.State) -> None:
    seat = mover(base)
    state = play(scenario(base, (4, 4, 4), clear_board), "place 4 on helper", *["victory point"] * 4)
    assert vp(state, seat, "helper") == 4
    assert state.current_player != seat          # 4 points spent: the Helper action is over


def test_helper_offering_costs_two_points(base: borabora_sim.State) -> None:
    seat = mover(base)
    state = scenario(base, (4, 4, 4), clear_board)
    before = player(state, seat)["offerings"]
    play(state, "place 4 on helper", "offering", "offering")
    assert player(state, seat)["offerings"] == before + 2
    assert state.current_player != seat          # 4 points spent: the Helper action is over


def test_anna_tattoos_two_men_shells_one_woman_and_buys_an_offering(base: borabora_sim.State) -> None:
    """Rulebook example: a 5 on Helper; two men with 5 status symbols in all move her marker from 0 to the first
    space below the 4; one woman gives 3 shells; the last two points buy one offering."""
    seat = mover(base)
    man_a, man_b = person_tile(MAN, 2), person_tile(MAN, 3)
    woman = person_tile(WOMAN, 3)

    def edit(raw: Raw, s: int) -> None:
        clear_board(raw, s)
        raw["pl"][s]["status"] = 0
        for tile in (man_a, man_b, woman):
            give_person(raw, s, tile)

    state = scenario(base, (5, 2, 2), edit)
    offerings, shells = player(state, seat)["offerings"], player(state, seat)["shells"]
    play(state, "place 5 on helper", "shift down person 1", "shift down person 2")
    p = player(state, seat)
    assert p["status"] == 5
    assert int(COMP.status_vp[5]) == 4 and int(COMP.status_vp[4]) < 4     # the first space below the 4
    assert helper_points(state) == 3
    play(state, "shift down person 3")
    assert player(state, seat)["shells"] == shells + 3
    assert helper_points(state) == 2
    play(state, "offering")
    p = player(state, seat)
    assert p["offerings"] == offerings + 1
    assert p["shifted"] == 0b111
    assert state.current_player != seat


def test_ben_wood_tattoo_shells_and_two_victory_points(base: borabora_sim.State) -> None:
    """Rulebook example: a 6 on Helper; one wood (-2), tattoo one man (-1), shells from a woman (-1), 2 VP (-2)."""
    seat = mover(base)
    man, woman = person_tile(MAN, 1), person_tile(WOMAN, 2)

    def edit(raw: Raw, s: int) -> None:
        clear_board(raw, s)
        raw["pl"][s]["status"] = 0
        give_person(raw, s, man)
        give_person(raw, s, woman)

    state = scenario(base, (6, 1, 1), edit)
    shells = player(state, seat)["shells"]
    wood = spaces_of("wood")[0]
    play(state, "place 6 on helper", space_name(wood))
    assert helper_points(state) == 4
    play(state, "shift down person 1")
    assert helper_points(state) == 3
    play(state, "shift down person 2")
    assert helper_points(state) == 2
    play(state, "victory point", "victory point")
    p = player(state, seat)
    assert p["ceremony"][wood] == CER_MATERIAL
    assert p["status"] == 1
    assert p["shells"] == shells + 2
    assert vp(state, seat, "helper") == 2
    assert state.current_player != seat


def test_ben_god_card_offering_and_material_of_choice(base: borabora_sim.State) -> None:
    """Rulebook example: a 6 on Helper buys 1 God card (-2), 1 offering (-2) and 1 material of his choice (-2)."""
    seat = mover(base)
    state = scenario(base, (6, 1, 1), clear_board)
    before = player(state, seat)
    stone = spaces_of("stone")[0]
    play(state, "place 6 on helper", "god card from pile")
    assert helper_points(state) == 4
    play(state, "offering")
    assert helper_points(state) == 2
    assert space_name(spaces_of("sand")[0]) in names(state)        # any kind of material may be chosen
    play(state, space_name(stone))
    p = player(state, seat)
    assert sum(p["hand"]) == sum(before["hand"]) + 1
    assert p["offerings"] == before["offerings"] + 1
    assert p["ceremony"][stone] == CER_MATERIAL
    assert state.current_player != seat


def test_tattoo_moves_status_by_the_man_s_symbols(base: borabora_sim.State) -> None:
    seat = mover(base)

    def edit(raw: Raw, s: int) -> None:
        raw["pl"][s]["status"] = 2
        give_person(raw, s, person_tile(MAN, 3))

    state = play(scenario(base, (1, 1, 1), edit), "place 1 on helper", "shift down person 1")
    assert player(state, seat)["status"] == 5


def test_tattoo_past_last_status_space_stays_on_it(base: borabora_sim.State) -> None:
    """Ruling R15: status steps past the last space stay on it."""
    seat = mover(base)

    def edit(raw: Raw, s: int) -> None:
        raw["pl"][s]["status"] = 14
        give_person(raw, s, person_tile(MAN, 3))

    state = play(scenario(base, (1, 1, 1), edit), "place 1 on helper", "shift down person 1")
    assert player(state, seat)["status"] == 15
    assert state.check_invariants() is None


def test_collect_shells_takes_the_woman_s_shells(base: borabora_sim.State) -> None:
    seat = mover(base)
    state = scenario(base, (1, 1, 1), lambda raw, s: give_person(raw, s, person_tile(WOMAN, 2)))
    shells = player(state, seat)["shells"]
    play(state, "place 1 on helper", "shift down person 1")
    assert player(state, seat)["shells"] == shells + 2
    assert player(state, seat)["status"] == player(base, seat)["status"]


def test_man_is_tattooed_only_once(base: borabora_sim.State) -> None:
    """C#11: a tattooed (shifted) man may not be tattooed again, in the same action or later."""

    def edit(raw: Raw, s: int) -> None:
        give_person(raw, s, person_tile(MAN, 2))
        give_person(raw, s, person_tile(MAN, 1), shifted=True)      # tattooed in an earlier turn

    state = play(scenario(base, (6, 6, 6), edit), "place 6 on helper")
    assert "shift down person 1" in names(state)
    assert "shift down person 2" not in names(state)
    play(state, "shift down person 1")
    assert helper_points(state) == 5
    assert not any(n.startswith("shift down") for n in names(state))


def test_woman_collects_shells_only_once(base: borabora_sim.State) -> None:
    """C#11: a woman shifted down has collected her shells for the rest of the game."""

    def edit(raw: Raw, s: int) -> None:
        give_person(raw, s, person_tile(WOMAN, 3), shifted=True)
        give_person(raw, s, person_tile(WOMAN, 1))

    state = play(scenario(base, (6, 6, 6), edit), "place 6 on helper")
    assert "shift down person 1" not in names(state)
    assert "shift down person 2" in names(state)
    play(state, "shift down person 2")
    assert not any(n.startswith("shift down") for n in names(state))


def test_unused_helper_points_are_lost_on_done(base: borabora_sim.State) -> None:
    """C#11: "done" ends the Helper action; the points left over are not kept."""
    seat = mover(base)
    state = scenario(base, (5, 2, 2), clear_board)
    before = player(state, seat)
    play(state, "place 5 on helper", "victory point")
    assert helper_points(state) == 4
    play(state, "done")
    assert not (state.decision == "helper" and state.current_player == seat)
    assert state.current_player == other(base)
    after = player(state, seat)
    assert vp(state, seat, "helper") == 1
    assert after["offerings"] == before["offerings"] and sum(after["hand"]) == sum(before["hand"])
    assert raw_of(state)["sp"] == 1                      # only the next player's die decision is pending


def test_helper_god_card_from_display_is_replaced_from_pile(base: borabora_sim.State) -> None:
    seat = mover(base)
    state = play(scenario(base, (2, 2, 2), clear_board), "place 2 on helper")
    raw = raw_of(state)
    taken, top = raw["god_display"][2], raw["deck_top"]
    next_card = raw["god_deck"][top]
    hand = list(player(state, seat)["hand"])
    assert "god card from display 3" in names(state) and "god card from pile" in names(state)
    play(state, "god card from display 3")
    raw = raw_of(state)
    assert raw["pl"][seat]["hand"][taken] == hand[taken] + 1
    assert raw["pl"][seat]["known"][taken] == 1           # taken face up: the others saw it
    assert raw["god_display"][2] == next_card
    assert raw["deck_top"] == top + 1
    assert state.check_invariants() is None


def empty_pile(raw: Raw, seat: int) -> None:
    """The draw pile runs out: its cards go to the discard pile."""
    for col in raw["god_deck"][raw["deck_top"]:raw["deck_end"]]:
        raw["discard"][col] += 1
    raw["deck_top"] = raw["deck_end"]


def test_god_pile_is_reshuffled_from_discards_when_empty(base: borabora_sim.State) -> None:
    """C#22: discarded God cards are reshuffled into a new pile when the pile runs out."""
    seat = mover(base)
    state = scenario(base, (2, 2, 2), chain(clear_board, empty_pile))
    discarded = sum(raw_of(state)["discard"])
    assert discarded > 0
    play(state, "place 2 on helper")
    assert "god card from pile" in names(state)
    hand = sum(player(state, seat)["hand"])
    play(state, "god card from pile")
    raw = raw_of(state)
    assert sum(raw["pl"][seat]["hand"]) == hand + 1
    assert sum(raw["discard"]) == 0
    assert raw["deck_end"] - raw["deck_top"] == discarded - 1
    assert state.check_invariants() is None


def test_display_refill_reshuffles_discards_when_pile_is_empty(base: borabora_sim.State) -> None:
    state = play(scenario(base, (2, 2, 2), chain(clear_board, empty_pile)), "place 2 on helper")
    discarded = sum(raw_of(state)["discard"])
    play(state, "god card from display 1")
    raw = raw_of(state)
    assert raw["god_display"][0] != NO_TILE
    assert sum(raw["discard"]) == 0
    assert raw["deck_end"] - raw["deck_top"] == discarded - 1
    assert state.check_invariants() is None


def test_no_god_card_from_pile_when_pile_and_discards_are_empty(base: borabora_sim.State) -> None:
    def edit(raw: Raw, seat: int) -> None:
        clear_board(raw, seat)
        # every card outside the display goes to the other player's hand
        other_seat = 1 - seat
        for col in raw["god_deck"][raw["deck_top"]:raw["deck_end"]]:
            raw["pl"][other_seat]["hand"][col] += 1
        for col, n in enumerate(raw["discard"]):
            raw["pl"][other_seat]["hand"][col] += n
        raw["discard"] = [0] * len(raw["discard"])
        raw["deck_top"] = raw["deck_end"]

    state = play(scenario(base, (2, 2, 2), edit), "place 2 on helper")
    assert "god card from pile" not in names(state)
    assert "god card from display 1" in names(state)
    play(state, "god card from display 1")
    assert raw_of(state)["god_display"][0] == NO_TILE      # nothing left to refill it
    assert state.check_invariants() is None


def test_move_hut_moves_a_board_hut_to_the_12th_space(base: borabora_sim.State) -> None:
    """C#11: move hut takes a hut from the player board's regular spaces to the 12th space, which holds any number;
    huts on the map are not moved."""
    seat = mover(base)
    state = scenario(base, (6, 6, 6), clear_board)
    before = player(state, seat)
    owners = list(raw_of(state)["region_owner"])
    play(state, "place 6 on helper", "move hut to 12th space", "move hut to 12th space", "move hut to 12th space")
    after = player(state, seat)
    assert after["reg_huts"] == before["reg_huts"] - 3
    assert after["huts_12th"] == before["huts_12th"] + 3
    assert after["regions"] == before["regions"]
    assert raw_of(state)["region_owner"] == owners
    assert state.check_invariants() is None


def test_move_hut_not_offered_without_a_hut_on_a_regular_space(base: borabora_sim.State) -> None:
    def edit(raw: Raw, seat: int) -> None:
        p = raw["pl"][seat]
        p["huts_12th"] += p["reg_huts"]
        p["reg_huts"] = 0

    state = play(scenario(base, (6, 6, 6), edit), "place 6 on helper")
    assert "move hut to 12th space" not in names(state)
    assert "offering" in names(state)


def test_move_hut_not_offered_when_a_person_covers_the_12th_space(base: borabora_sim.State) -> None:
    """Ruling R4: once a person tile is on the 12th space, huts cannot move there."""

    def edit(raw: Raw, seat: int) -> None:
        p = raw["pl"][seat]
        # huts: 1 on the map, 10 on regular spaces, the other one placed on the map too
        p["reg_huts"] = 10
        p["huts_12th"] = 0
        free = next(r for r in range(12) if raw["region_owner"][r] == -1 and not p["regions"] >> r & 1)
        p["regions"] |= 1 << free
        raw["region_owner"][free] = seat
        give_person(raw, seat, person_tile(MAN, 1))                   # the last regular space
        give_person(raw, seat, person_tile(MAN, 2), make_room=False)  # the 12th space
        p["person_12th"] = 1

    state = play(scenario(base, (6, 6, 6), edit), "place 6 on helper")
    assert player(state, mover(base))["reg_huts"] > 0
    assert "move hut to 12th space" not in names(state)


# =============================================================================
# Material placement (rulebook "Helper: Building materials", "Build"; C#8)
# =============================================================================
def test_helper_material_goes_on_a_free_matching_ceremony_space(base: borabora_sim.State) -> None:
    seat = mover(base)
    state = play(scenario(base, (2, 2, 2), set_ceremony({0: CER_MATERIAL})), "place 2 on helper")
    offered = names(state)
    assert space_name(0) not in offered                            # already holds a material
    for s in range(1, 12):
        assert space_name(s) in offered
    assert not any(n.endswith("beside board") for n in offered)    # every material still has a free space
    wood = spaces_of("wood")[1]
    play(state, space_name(wood))
    p = player(state, seat)
    assert p["ceremony"][wood] == CER_MATERIAL and p["beside"] == [0, 0, 0]


def test_helper_material_beside_board_only_without_free_matching_space(base: borabora_sim.State) -> None:
    seat = mover(base)
    full_wood = {s: CER_MATERIAL for s in spaces_of("wood")}
    state = play(scenario(base, (2, 2, 2), set_ceremony(full_wood)), "place 2 on helper")
    offered = names(state)
    assert "wood beside board" in offered
    assert "sand beside board" not in offered and "stone beside board" not in offered
    play(state, "wood beside board")
    p = player(state, seat)
    assert p["beside"][MATERIALS.index("wood")] == 1
    assert [p["ceremony"][s] for s in spaces_of("wood")] == [CER_MATERIAL] * 4


def test_building_spaces_take_no_more_materials(base: borabora_sim.State) -> None:
    """Rulebook "Build": building tiles placed on ceremony spaces cannot be moved again."""
    sand_a, sand_b = spaces_of("sand")[0], spaces_of("sand")[1]
    # sand spaces 1 and 4 hold buildings (a tile covers a pair); the other two hold materials
    cells = {0: CER_BUILDING, 1: CER_BUILDING, 3: CER_BUILDING, 7: CER_BUILDING}
    cells.update({s: CER_MATERIAL for s in spaces_of("sand") if s not in cells})
    state = play(scenario(base, (2, 2, 2), set_ceremony(cells, built=0b11)), "place 2 on helper")
    offered = names(state)
    assert space_name(sand_a) not in offered and space_name(sand_b) not in offered
    assert "sand beside board" in offered


def test_region_material_with_several_free_spaces_lets_the_player_choose_among_matching_ones(
    base: borabora_sim.State,
) -> None:
    """C#8: a region's material goes on a free matching ceremony space (the player picks which)."""
    seat = mover(base)

    def edit(raw: Raw, s: int) -> None:
        clear_board(raw, s)
        set_decision(raw, [("expand", s, 6, 0)])          # a land path of any value

    state = scenario(base, (6, 6, 6), edit)
    region = next(n for n in names(state) if COMP.region_resource[COMP.region_ids.index(n.split()[1])] < 3)
    material = MATERIALS[int(COMP.region_resource[COMP.region_ids.index(region.split()[1])])]
    play(state, region)
    assert state.decision == "material" and state.current_player == seat
    assert sorted(names(state)) == sorted(space_name(s) for s in spaces_of(material))


def test_region_material_goes_on_the_only_free_matching_space_at_once(base: borabora_sim.State) -> None:
    seat = mover(base)
    probe = scenario(base, (6, 6, 6), lambda raw, s: set_decision(raw, [("expand", s, 6, 0)]))
    region = next(n for n in names(probe) if COMP.region_resource[COMP.region_ids.index(n.split()[1])] < 3)
    material = MATERIALS[int(COMP.region_resource[COMP.region_ids.index(region.split()[1])])]
    last = spaces_of(material)[-1]

    def edit(raw: Raw, s: int) -> None:
        set_ceremony({t: CER_MATERIAL for t in spaces_of(material)[:-1]})(raw, s)
        set_decision(raw, [("expand", s, 6, 0)])

    state = play(scenario(base, (6, 6, 6), edit), region)
    assert state.decision != "material"
    assert player(state, seat)["ceremony"][last] == CER_MATERIAL


def test_region_material_goes_beside_board_without_free_matching_space(base: borabora_sim.State) -> None:
    seat = mover(base)
    probe = scenario(base, (6, 6, 6), lambda raw, s: set_decision(raw, [("expand", s, 6, 0)]))
    region = next(n for n in names(probe) if COMP.region_resource[COMP.region_ids.index(n.split()[1])] < 3)
    m = int(COMP.region_resource[COMP.region_ids.index(region.split()[1])])

    def edit(raw: Raw, s: int) -> None:
        set_ceremony({t: CER_MATERIAL for t in spaces_of(MATERIALS[m])})(raw, s)
        set_decision(raw, [("expand", s, 6, 0)])

    state = play(scenario(base, (6, 6, 6), edit), region)
    assert state.decision != "material"
    assert player(state, seat)["beside"][m] == 1


# =============================================================================
# Status track: a marker landing on an occupied space goes on top (rulebook "Helper"; phase C turn order)
# =============================================================================
@pytest.mark.parametrize(("symbols", "mover_first"), [(3, True), (2, False)])
def test_status_marker_landing_on_occupied_space_goes_on_top(
    base: borabora_sim.State, symbols: int, mover_first: bool
) -> None:
    """The start player already stands on space 3; the other player's tattoo brings it to 3 (on top: it starts
    phase C's new turn order) or to 2 (behind)."""
    first, second = raw_of(base)["order"][0], raw_of(base)["order"][1]

    def edit(raw: Raw) -> None:
        for seat in (first, second):
            strip_gods(raw, seat)
            raw["pl"][seat]["dice"] = [0, 0, 0]
        raw["pl"][first]["status"] = 3
        raw["pl"][second]["status"] = 0
        give_person(raw, second, person_tile(MAN, symbols))
        raw["turn_idx"] = 6                           # every die placed: this Helper action ends phase A
        set_decision(raw, [("helper", second, 1, 0)])

    state = edited(base, edit)
    play(state, "shift down person 1")
    assert player(state, second)["status"] == symbols
    while state.phase == "B":
        play(state, "done")
    assert state.phase.startswith("C")
    assert state.turn_order == ([second, first] if mover_first else [first, second])


# =============================================================================
# Temple (rulebook "Temple"; C#12; ruling R9)
# =============================================================================
def set_temple(spaces: list[int | str]) -> Edit:
    """Temple contents left to right: 'me' (the mover), 'them' (the other seat) or -1."""

    def edit(raw: Raw, seat: int) -> None:
        raw["temple"] = [seat if v == "me" else 1 - seat if v == "them" else -1 for v in spaces]

    return edit


@pytest.mark.parametrize("die", [2, 3, 4, 5, 6])
def test_temple_space_value_at_most_die(base: borabora_sim.State, die: int) -> None:
    state = play(scenario(base, (die, die, die)), f"place {die} on temple")
    assert state.decision == "temple"
    assert sorted(names(state)) == sorted(temple_name(t) for t in range(6) if int(COMP.temple_values[t]) <= die)


def test_temple_die_one_places_on_the_value_one_space(base: borabora_sim.State) -> None:
    seat = mover(base)
    state = play(scenario(base, (1, 1, 1)), "place 1 on temple")
    t = list(COMP.temple_values).index(1)
    assert raw_of(state)["temple"][t] == seat
    assert state.decision == "fire_bonus_god"           # the only space: placed at once, Fire Bonus follows


def test_temple_priests_shift_along_arrows_up_to_first_empty_space(base: borabora_sim.State) -> None:
    seat, them = mover(base), other(base)
    state = scenario(base, (6, 6, 6), set_temple(["them", "them", -1, "them", -1, -1]))
    play(state, "place 6 on temple", temple_name(0))
    assert raw_of(state)["temple"] == [seat, them, them, them, -1, -1]


def test_temple_priest_on_an_empty_space_pushes_nobody(base: borabora_sim.State) -> None:
    seat, them = mover(base), other(base)
    state = scenario(base, (6, 6, 6), set_temple(["them", -1, "them", -1, -1, -1]))
    play(state, "place 6 on temple", temple_name(1))
    assert raw_of(state)["temple"] == [them, seat, them, -1, -1, -1]


def test_last_priest_drops_off_back_to_owner_who_can_place_it_again(base: borabora_sim.State) -> None:
    """C#12: the priest pushed off the end returns to its owner's supply."""
    seat, them = mover(base), other(base)
    state = scenario(base, (6, 6, 6), set_temple(["me", "them", "me", "them", "them", "them"]))

    def their_die(raw: Raw) -> None:
        raw["pl"][them]["dice"] = [6, 6, 6]
        raw["tile_low"] = [7] * len(raw["tile_low"])
        set_decision(raw, [("die", them, 0, 0)])

    assert state.counters()[them]["priests"] == PRIESTS
    assert "place 6 on temple" not in names(edited(state, their_die))
    play(state, "place 6 on temple", temple_name(0))
    assert raw_of(state)["temple"] == [seat, seat, them, seat, them, them]
    assert state.counters()[them]["priests"] == PRIESTS - 1
    assert "place 6 on temple" in names(edited(state, their_die))


def test_temple_not_choosable_with_no_priest_left(base: borabora_sim.State) -> None:
    full = scenario(base, (6, 6, 6), set_temple(["me", "me", "me", "me", -1, -1]))
    assert not any(n.endswith(" on temple") for n in names(full))
    three = scenario(base, (6, 6, 6), set_temple(["me", "me", "me", -1, -1, -1]))
    assert "place 6 on temple" in names(three)


def test_each_new_priest_gives_a_fire_bonus(base: borabora_sim.State) -> None:
    seat = mover(base)
    state = play(scenario(base, (6, 6, 6)), "place 6 on temple", temple_name(2))
    assert state.decision == "fire_bonus_god" and state.current_player == seat
    fire_bonus_taken(state)
    assert state.current_player != seat          # one Fire Bonus only


# =============================================================================
# The Fire Bonus (rulebook "The Fire Bonus"; C#14; ruling R6)
# =============================================================================
def test_fire_bonus_first_choice_is_god_card_from_pile_or_display_or_offering(base: borabora_sim.State) -> None:
    state = play(scenario(base, (6, 6, 6)), "place 6 on temple", temple_name(0))
    expected = ["god card from pile"] + [f"god card from display {i}" for i in range(1, 6)] + ["offering"]
    assert sorted(names(state)) == sorted(expected)


def test_cleo_fire_bonus_god_card_and_shell(base: borabora_sim.State) -> None:
    """Rulebook example: after placing a priest Cleo takes a God card and a shell; she may not take two offerings,
    nor an offering and a God card."""
    seat = mover(base)
    state = play(scenario(base, (6, 6, 6)), "place 6 on temple", temple_name(0))
    before = player(state, seat)
    play(state, "god card from display 1")
    assert state.decision == "fire_bonus_status" and state.current_player == seat
    assert sorted(names(state)) == sorted(["status step", "shell"])     # no second God card, no offering now
    play(state, "shell")
    after = player(state, seat)
    assert sum(after["hand"]) == sum(before["hand"]) + 1
    assert after["shells"] == before["shells"] + 1
    assert after["offerings"] == before["offerings"]
    assert after["status"] == before["status"]
    assert state.current_player != seat


def test_fire_bonus_offering_and_status_step(base: borabora_sim.State) -> None:
    seat = mover(base)
    state = play(scenario(base, (6, 6, 6)), "place 6 on temple", temple_name(0))
    before = player(state, seat)
    play(state, "offering")
    assert sorted(names(state)) == sorted(["status step", "shell"])
    play(state, "status step")
    after = player(state, seat)
    assert after["offerings"] == before["offerings"] + 1
    assert after["status"] == before["status"] + 1
    assert sum(after["hand"]) == sum(before["hand"]) and after["shells"] == before["shells"]


def test_fire_bonus_god_card_from_pile(base: borabora_sim.State) -> None:
    """Ruling R6: a Fire Bonus God card may come from the pile."""
    seat = mover(base)
    state = play(scenario(base, (6, 6, 6)), "place 6 on temple", temple_name(0))
    raw = raw_of(state)
    top_card, display = raw["god_deck"][raw["deck_top"]], list(raw["god_display"])
    hand = list(player(state, seat)["hand"])
    play(state, "god card from pile")
    raw = raw_of(state)
    assert raw["pl"][seat]["hand"][top_card] == hand[top_card] + 1
    assert raw["god_display"] == display


def test_fire_bonus_offering_taken_at_once_when_no_god_card_is_left(base: borabora_sim.State) -> None:
    seat = mover(base)

    def edit(raw: Raw, s: int) -> None:
        them = 1 - s
        for col in raw["god_deck"][raw["deck_top"]:raw["deck_end"]]:
            raw["pl"][them]["hand"][col] += 1
        for i, col in enumerate(raw["god_display"]):
            raw["pl"][them]["hand"][col] += 1
            raw["god_display"][i] = NO_TILE
        for col, n in enumerate(raw["discard"]):
            raw["pl"][them]["hand"][col] += n
        raw["discard"] = [0] * len(raw["discard"])
        raw["deck_top"] = raw["deck_end"]

    state = scenario(base, (6, 6, 6), edit)
    offerings = player(state, seat)["offerings"]
    play(state, "place 6 on temple", temple_name(0))
    assert state.decision == "fire_bonus_status"
    assert player(state, seat)["offerings"] == offerings + 1


def test_fire_bonus_status_step_lands_on_top(base: borabora_sim.State) -> None:
    seat, them = mover(base), other(base)

    def edit(raw: Raw, s: int) -> None:
        raw["pl"][1 - s]["status"] = 4
        raw["pl"][s]["status"] = 3

    state = play(scenario(base, (6, 6, 6), edit), "place 6 on temple", temple_name(0), "offering", "status step")
    p, q = player(state, seat), player(state, them)
    assert p["status"] == q["status"] == 4
    assert p["status_stamp"] > q["status_stamp"]


# =============================================================================
# Build (rulebook "Build"; C#5, C#13; ruling R5)
# =============================================================================
PAIR_ROW = {0: CER_MATERIAL, 1: CER_MATERIAL}                    # a sand and a stone side by side


@pytest.mark.parametrize("die", [1, 2, 3, 6])
def test_build_tile_value_at_most_die(base: borabora_sim.State, die: int) -> None:
    state = play(scenario(base, (die, die, die), set_ceremony(PAIR_ROW)), f"place {die} on build")
    tiles = [k for k in range(6) if int(COMP.building_values[k]) <= die]
    if len(tiles) > 1:
        assert state.decision == "build_tile"
        assert sorted(names(state)) == sorted(tile_name(k) for k in tiles)
    else:
        assert state.decision == "fire_bonus_god"           # one tile, one pair: built at once
        assert player(state, mover(base))["built"] == 1 << tiles[0]


def test_built_tile_is_not_offered_again(base: borabora_sim.State) -> None:
    cells = dict(PAIR_ROW)
    cells.update({8: CER_BUILDING, 9: CER_BUILDING})
    state = play(scenario(base, (3, 3, 3), set_ceremony(cells, built=0b010)), "place 3 on build")
    assert sorted(names(state)) == sorted([tile_name(0), tile_name(2)])


def test_build_not_choosable_without_unbuilt_tile_of_value_at_most_die(base: borabora_sim.State) -> None:
    cells = dict(PAIR_ROW)
    cells.update({8: CER_BUILDING, 9: CER_BUILDING})
    state = scenario(base, (1, 2, 2), set_ceremony(cells, built=0b001))
    assert "place 1 on build" not in names(state)
    assert "place 2 on build" in names(state)


BUILD_LAYOUTS = [
    # (name, ceremony cells, built bits, buildable)
    ("horizontal pair", {0: CER_MATERIAL, 1: CER_MATERIAL}, 0, True),
    ("vertical pair", {0: CER_MATERIAL, 4: CER_MATERIAL}, 0, True),
    ("diagonal only", {0: CER_MATERIAL, 5: CER_MATERIAL}, 0, False),
    ("gap in a row", {0: CER_MATERIAL, 2: CER_MATERIAL}, 0, False),
    ("row end to next row start", {3: CER_MATERIAL, 4: CER_MATERIAL}, 0, False),
    ("material next to a building", {0: CER_BUILDING, 1: CER_BUILDING, 2: CER_MATERIAL, 5: CER_MATERIAL}, 1, False),
    ("single material", {6: CER_MATERIAL}, 0, False),
]


@pytest.mark.parametrize(("layout", "cells", "built", "buildable"), BUILD_LAYOUTS, ids=[b[0] for b in BUILD_LAYOUTS])
def test_build_needs_two_orthogonally_adjacent_material_spaces(
    base: borabora_sim.State, layout: str, cells: dict[int, int], built: int, buildable: bool
) -> None:
    """C#5, C#13: no two horizontally or vertically adjacent ceremony spaces with materials: Build not choosable."""
    state = scenario(base, (6, 6, 6), set_ceremony(cells, built))
    assert ("place 6 on build" in names(state)) == buildable


def test_materials_beside_the_board_cannot_build(base: borabora_sim.State) -> None:
    def edit(raw: Raw, seat: int) -> None:
        set_ceremony({0: CER_MATERIAL})(raw, seat)
        raw["pl"][seat]["beside"] = [2, 2, 2]

    assert "place 6 on build" not in names(scenario(base, (6, 6, 6), edit))


def test_build_pair_of_any_two_materials(base: borabora_sim.State) -> None:
    """Ruling R5: any two orthogonally adjacent spaces holding materials (here sand + stone) may be built on."""
    assert COMP.ceremony_material[0] != COMP.ceremony_material[1]
    state = play(scenario(base, (1, 1, 1), set_ceremony(PAIR_ROW)), "place 1 on build")
    assert player(state, mover(base))["built"] == 1


def test_build_offers_exactly_the_adjacent_material_pairs(base: borabora_sim.State) -> None:
    cells = {0: CER_MATERIAL, 1: CER_MATERIAL, 4: CER_MATERIAL, 6: CER_MATERIAL}
    state = play(scenario(base, (2, 2, 2), set_ceremony(cells)), "place 2 on build", tile_name(1))
    assert state.decision == "build_pair"
    assert sorted(names(state)) == sorted([pair_name(0, 1), pair_name(0, 4)])


def test_build_replaces_two_materials_with_the_building_tile(base: borabora_sim.State) -> None:
    seat = mover(base)
    cells = {0: CER_MATERIAL, 1: CER_MATERIAL, 4: CER_MATERIAL}
    state = play(scenario(base, (4, 4, 4), set_ceremony(cells)), "place 4 on build", tile_name(3), pair_name(0, 4))
    p = player(state, seat)
    assert p["ceremony"][0] == p["ceremony"][4] == CER_BUILDING
    assert p["ceremony"][1] == CER_MATERIAL
    assert p["built"] == 1 << 3
    assert state.check_invariants() is None


@pytest.mark.parametrize(("round_", "points"), [(1, 10), (2, 10), (3, 7), (4, 7), (5, 4), (6, 4)])
def test_build_scores_10_7_4_by_round_pair(base: borabora_sim.State, round_: int, points: int) -> None:
    seat = mover(base)

    def edit(raw: Raw, s: int) -> None:
        set_ceremony(PAIR_ROW)(raw, s)
        raw["round"] = round_

    state = scenario(base, (1, 1, 1), edit)
    before = vp(state, seat, "buildings")
    play(state, "place 1 on build")
    assert int(COMP.building_vp_by_round[round_ - 1]) == points
    assert vp(state, seat, "buildings") == before + points


def test_build_gives_a_fire_bonus(base: borabora_sim.State) -> None:
    seat = mover(base)
    cells = {0: CER_MATERIAL, 1: CER_MATERIAL, 4: CER_MATERIAL}
    state = play(scenario(base, (6, 6, 6), set_ceremony(cells)), "place 6 on build", tile_name(5))
    assert state.decision == "build_pair"
    play(state, pair_name(0, 1))
    assert state.decision == "fire_bonus_god" and state.current_player == seat
    before = player(state, seat)
    fire_bonus_taken(state)
    after = player(state, seat)
    assert after["offerings"] == before["offerings"] + 1 and after["shells"] == before["shells"] + 1


# =============================================================================
# Build and materials through phase B abilities (rulebook "The Individual Woman (and Man) Actions")
# =============================================================================
def person_of_type(sex: int, ptype: str) -> int:
    t = PERSON_TYPES.index(ptype)
    return next(k for k in range(sex * PERSONS_PER_SEX, (sex + 1) * PERSONS_PER_SEX) if int(COMP.person_type[k]) == t)


def at_phase_b(base: borabora_sim.State, edit: Edit) -> borabora_sim.State:
    """The mover's phase B turn (every die placed), after `edit(raw, mover)`."""
    seat = mover(base)

    def fn(raw: Raw) -> None:
        for s in range(raw["n_players"]):
            raw["pl"][s]["dice"] = [0, 0, 0]
        strip_gods(raw, seat)
        raw["phase"] = 2
        raw["turn_idx"] = raw["order"].index(seat) + 1
        set_decision(raw, [("phase_b", seat, 0, 0)])
        edit(raw, seat)

    state = edited(base, fn)
    assert state.phase == "B" and state.check_invariants() is None
    return state


def test_build_ability_builds_tile_of_value_at_most_3_with_fire_bonus(base: borabora_sim.State) -> None:
    """A single build tile builds as if a 3 were placed on Build; the building gives its VP and a Fire Bonus."""
    seat = mover(base)

    def edit(raw: Raw, s: int) -> None:
        set_ceremony(PAIR_ROW)(raw, s)
        give_person(raw, s, person_of_type(WOMAN, "build"))

    state = at_phase_b(base, edit)
    before = vp(state, seat, "buildings")
    play(state, "use woman build")
    assert state.decision == "build_tile"
    assert sorted(names(state)) == sorted(tile_name(k) for k in range(6) if int(COMP.building_values[k]) <= 3)
    play(state, tile_name(2))
    assert state.decision == "fire_bonus_god" and state.current_player == seat
    assert vp(state, seat, "buildings") == before + int(COMP.building_vp_by_round[0])
    assert player(state, seat)["built"] == 1 << 2


def test_material_ability_goes_on_matching_space_or_beside_board(base: borabora_sim.State) -> None:
    seat = mover(base)
    full_wood = {s: CER_MATERIAL for s in spaces_of("wood")}

    def edit(raw: Raw, s: int) -> None:
        set_ceremony(full_wood)(raw, s)
        give_person(raw, s, person_of_type(MAN, "material"))

    state = play(at_phase_b(base, edit), "use man material")
    assert state.decision == "material_any"
    free = [s for s in range(12) if s not in full_wood]
    assert sorted(names(state)) == sorted([space_name(s) for s in free] + ["wood beside board"])
    play(state, "wood beside board")
    assert player(state, seat)["beside"][MATERIALS.index("wood")] == 1
