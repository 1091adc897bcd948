"""Phase A dice placement, fishing, expanding, the man / woman actions and the Blue, White and Red Gods.

Rulebook sections "Phase A", "Expand", "Woman Action", "Man Action", "Fishing", "Using God Cards" and
"The Two or Three Player Game"; CLARIFICATIONS C#1-C#10 and C#22; engine rulings R1, R2, R3 and R13.
Each test builds its position by editing a real game state (tests/scenario.py) and then drives it by action names.
"""

from __future__ import annotations

from typing import Any

import pytest

import borabora_sim
from borabora_sim.games.bora_bora.components import PERSON_TYPES, load_components

from scenario import NO_TILE, PHASE, edited, names, play, set_decision, vp

COMPONENTS = load_components()
REGION = {rid: i for i, rid in enumerate(COMPONENTS.region_ids)}
BLUE, WHITE, RED, GREEN, YELLOW = range(5)
CER_MATERIAL = 1
DIE_ACTIONS = ("helper", "temple", "build", "man", "woman", "land_path", "water_path")
OFFERING_RESOURCE = 3


# =============================================================================
# Building positions
# =============================================================================
def phase_a(players: int = 4, seed: int = 1) -> borabora_sim.State:
    """A new game played through its set-up (first legal choice each time) to the first die decision."""
    state = borabora_sim.new_game(players=players, seed=seed)
    while state.phase == "setup":
        state.apply(state.legal_actions()[0])
    assert state.decision == "die"
    return state


def set_regions(raw: dict[str, Any], seat: int, regions: list[str], on_space: bool = True) -> None:
    """Gives `seat` huts in exactly `regions` (on the building spaces unless on_space is False)."""
    p = raw["pl"][seat]
    for r, owner in enumerate(raw["region_owner"]):
        if owner == seat:
            raw["region_owner"][r] = -1
    mask = 0
    for rid in regions:
        mask |= 1 << REGION[rid]
        if on_space:
            raw["region_owner"][REGION[rid]] = seat
    p["regions"] = mask
    p["fish_scored"] &= mask
    p["reg_huts"] = 12 - p["huts_12th"] - len(regions)


def no_gods(raw: dict[str, Any], seat: int) -> None:
    """`seat` holds no God card and no God tile."""
    set_hand(raw, seat, {})
    raw["pl"][seat]["god_tiles"] = 0


def set_hand(raw: dict[str, Any], seat: int, cards: dict[int, int]) -> None:
    """Replaces the hand of `seat`: its cards go to the discard pile, the new ones come off the draw pile."""
    p = raw["pl"][seat]
    for col in range(5):
        raw["discard"][col] += p["hand"][col]
        p["hand"][col] = 0
        p["known"][col] = 0
    for col, count in cards.items():
        for _ in range(count):
            top = raw["deck_top"]
            i = next(i for i in range(top, raw["deck_end"]) if raw["god_deck"][i] == col)
            raw["god_deck"][top], raw["god_deck"][i] = raw["god_deck"][i], raw["god_deck"][top]
            raw["deck_top"] = top + 1
            p["hand"][col] += 1


def give_person(raw: dict[str, Any], seat: int, sex: int, ptype: str) -> int:
    """Moves a person tile of `sex` and type `ptype` from its draw pile (or, if none is left there, from the
    display, refilled from the pile) onto the board of `seat`."""
    top = raw["person_top"][sex]
    pile = raw["person_pile"][sex]
    display = raw["person_display"][sex]
    want = PERSON_TYPES.index(ptype)
    in_pile = [i for i in range(top, 36) if COMPONENTS.person_type[pile[i]] == want]
    if in_pile:
        i = in_pile[0]
        pile[top], pile[i] = pile[i], pile[top]
        tile = pile[top]
    else:
        i = next(i for i, t in enumerate(display) if t != NO_TILE and COMPONENTS.person_type[t] == want)
        tile, display[i] = display[i], pile[top]
    raw["person_top"][sex] = top + 1
    p = raw["pl"][seat]
    p["persons"][p["n_persons"]] = tile
    p["n_persons"] += 1
    return tile


def die_turn(state: borabora_sim.State, frames: list[tuple[str, int, int, int]], dice: dict[int, tuple[int, ...]],
             edit=None) -> borabora_sim.State:
    """`state` with the decision stack `frames` (bottom first), the given dice per seat and a further edit."""

    def change(raw: dict[str, Any]) -> None:
        set_decision(raw, frames)
        for seat, values in dice.items():
            raw["pl"][seat]["dice"] = list(values) + [0] * (3 - len(values))
        if edit is not None:
            edit(raw)

    return edited(state, change)


def able_to_do_everything(raw: dict[str, Any], seats: list[int]) -> None:
    """Every die action is feasible for these seats: a hut in C_SE (as displaced huts for all but the first),
    two adjacent materials, free person spaces."""
    for k, seat in enumerate(seats):
        set_regions(raw, seat, ["C_SE"], on_space=(k == 0))
        raw["pl"][seat]["ceremony"][0] = CER_MATERIAL
        raw["pl"][seat]["ceremony"][1] = CER_MATERIAL


def finish_turn(state: borabora_sim.State, seat: int) -> None:
    """Resolves the sub-decisions of `seat` ("done" when possible, else the last legal action)."""
    for _ in range(50):
        if state.current_player != seat or state.decision == "die":
            return
        legal = names(state)
        play(state, "done" if "done" in legal else legal[-1])
    raise AssertionError("the turn did not end")


def raw_of(state: borabora_sim.State) -> dict[str, Any]:
    return state.to_dict()["state"]


def place_names(state: borabora_sim.State, action: str) -> set[int]:
    """Die values that may now be placed on `action`."""
    legal = set(names(state))
    return {v for v in range(1, 7) if f"place {v} on {action}" in legal}


def fish_value(state: borabora_sim.State, rid: str) -> int:
    return int(COMPONENTS.fish_value[raw_of(state)["fish_at"][REGION[rid]]])


# =============================================================================
# Phase A: the lower-value rule (C#1) and fishing
# =============================================================================
@pytest.fixture(scope="module")
def start4() -> borabora_sim.State:
    return phase_a(4, seed=1)


def test_die_must_be_strictly_lower_than_lowest_on_tile(start4: borabora_sim.State) -> None:
    """Rulebook example: a 5 and a 3 on an action tile (any colours): only a 1 or a 2 may be placed there."""
    a, b, c = start4.turn_order[:3]
    state = die_turn(start4, [("die", c, 0, 0), ("die", b, 0, 0), ("die", a, 0, 0)], {a: (5,), b: (3,)})
    play(state, "place 5 on helper", "done", "place 3 on helper", "done")
    assert state.current_player == c and state.decision == "die"
    for dice in ((1, 2, 3), (4, 5, 6)):
        trial = die_turn(state, [("die", c, 0, 0)], {c: dice})
        assert place_names(trial, "helper") == {1, 2} & set(dice)
        assert place_names(trial, "fishing") == set(dice)


def test_lower_value_rule_is_per_action_tile(start4: borabora_sim.State) -> None:
    """A die on one action tile does not restrict the other tiles (4 players: seven separate tiles)."""
    a, b = start4.turn_order[:2]
    state = die_turn(start4, [("die", b, 0, 0), ("die", a, 0, 0)], {a: (1,), b: (6, 6, 6)},
                     edit=lambda raw: able_to_do_everything(raw, [a, b]))
    play(state, "place 1 on temple")
    finish_turn(state, a)
    assert state.current_player == b
    assert place_names(state, "temple") == set()
    for action in ("helper", "build", "man", "woman", "land_path", "water_path"):
        assert place_names(state, action) == {6}, action


def test_fishing_takes_any_die_and_scores_2_vp(start4: borabora_sim.State) -> None:
    """Fishing: any die, whatever is already there, 2 VP; it lowers no action tile."""
    a, b = start4.turn_order[:2]
    state = die_turn(start4, [("die", b, 0, 0), ("die", a, 0, 0)], {a: (1,), b: (6,)})
    play(state, "place 1 on fishing")
    assert vp(state, a, "fishing") == 2
    assert raw_of(state)["tile_low"] == [7] * 7
    assert "place 6 on fishing" in names(state)
    play(state, "place 6 on fishing")
    assert vp(state, b, "fishing") == 2


def test_each_player_places_three_dice_one_at_a_time_in_turn_order() -> None:
    """Phase A: in turn order each player places one die, until all have placed three; fishing takes any
    number of dice (2 VP each)."""
    state = phase_a(3, seed=5)
    order = state.turn_order
    seen = []
    while state.phase == "A":
        assert state.decision == "die"
        seen.append(state.current_player)
        legal = names(state)
        play(state, next(n for n in legal if n.endswith("on fishing")))
    assert seen == order * 3
    assert state.round == 1 and state.phase != "setup"
    for seat in order:
        assert vp(state, seat, "fishing") == 6
        assert state.counters()[seat]["dice_fishing"] == 3


def test_dice_are_rolled_for_each_round() -> None:
    """Each player rolls three dice (1..6) at the start of phase A."""
    for seed in range(5):
        raw = raw_of(phase_a(4, seed=seed))
        for seat in range(4):
            assert all(1 <= d <= 6 for d in raw["pl"][seat]["dice"])


# =============================================================================
# Action tiles per player count; combined tiles (C#4)
# =============================================================================
def blocked_by(base: borabora_sim.State, action: str) -> frozenset[str]:
    """The die actions on which a 4 may no longer be placed after another player placed a 4 on `action`."""
    a, b = base.turn_order[:2]
    state = die_turn(base, [("die", b, 0, 0), ("die", a, 0, 0)], {a: (4, 4, 4), b: (4, 4, 4)},
                     edit=lambda raw: able_to_do_everything(raw, [a, b]))
    assert all(place_names(state, act) == {4} for act in DIE_ACTIONS)
    play(state, f"place 4 on {action}")
    finish_turn(state, a)
    assert state.current_player == b and state.decision == "die"
    return frozenset(act for act in DIE_ACTIONS if not place_names(state, act))


@pytest.mark.parametrize(("players", "tiles", "combined"), [
    (2, 5, [{"man", "woman"}, {"land_path", "water_path"}]),
    (3, 6, [{"land_path", "water_path"}]),
    (4, 7, []),
])
def test_action_tiles_per_player_count(players: int, tiles: int, combined: list[set[str]]) -> None:
    """2 players: 5 tiles (Man / Woman and Land / Water combined); 3 players: 6 (Land / Water combined);
    4 players: 7. A die on a combined tile blocks both of its actions."""
    base = phase_a(players, seed=3)
    groups = {blocked_by(base, action) for action in DIE_ACTIONS}
    assert len(groups) == tiles
    for group in combined:
        assert frozenset(group) in groups
    assert all(len(g) == 1 for g in groups if set(g) not in combined)


@pytest.mark.parametrize(("players", "first", "second", "high", "dice", "expected"), [
    (2, "man", "woman", 3, (1, 2, 3), {1, 2}),
    (2, "woman", "man", 3, (1, 2, 3), {1, 2}),
    (2, "land_path", "water_path", 5, (4, 5, 6), {4}),
    (3, "water_path", "land_path", 5, (4, 5, 6), {4}),
])
def test_combined_tile_has_one_lowering_sequence(players: int, first: str, second: str, high: int,
                                                 dice: tuple[int, ...], expected: set[int]) -> None:
    """C#4: a combined tile is ONE tile: after a 3 on "Man / Woman" the next die there must be 1 or 2 whichever
    action it takes (likewise after a 5 on "Land / Water": only 4 or less)."""
    base = phase_a(players, seed=11)
    a, b = base.turn_order[:2]
    state = die_turn(base, [("die", b, 0, 0), ("die", a, 0, 0)], {a: (high,), b: dice},
                     edit=lambda raw: able_to_do_everything(raw, [a, b]))
    play(state, f"place {high} on {first}")
    finish_turn(state, a)
    assert state.current_player == b
    assert place_names(state, second) == expected
    assert place_names(state, first) == expected
    assert place_names(state, "helper") == set(dice)


# =============================================================================
# Blue God (C#2, R1)
# =============================================================================
def blocked_position(start: borabora_sim.State, seat: int, dice: tuple[int, ...], low: int, cards: dict[int, int],
                     offerings: int = 1, god_tiles: int = 0, tiles: tuple[int, ...] = (0,)) -> borabora_sim.State:
    """`seat` to place one of `dice`; the given action tile slots hold a die of value `low`."""

    def edit(raw: dict[str, Any]) -> None:
        for t in tiles:
            raw["tile_low"][t] = low
        set_hand(raw, seat, cards)
        raw["pl"][seat]["offerings"] = offerings
        raw["pl"][seat]["god_tiles"] = god_tiles

    other = start.turn_order[1]
    return die_turn(start, [("die", other, 0, 0), ("die", seat, 0, 0)], {seat: dice}, edit=edit)


def test_blue_god_offered_only_when_it_unlocks_a_placement(start4: borabora_sim.State) -> None:
    """R1: the Blue God is offered only when a die is held back by the lower-value rule."""
    seat = start4.turn_order[0]
    free = blocked_position(start4, seat, (3, 3, 3), 7, {BLUE: 1})
    assert "play blue god with card" not in names(free)
    held = blocked_position(start4, seat, (3, 3, 3), 3, {BLUE: 1})
    assert "place 3 on helper" not in names(held)
    assert "play blue god with card" in names(held)


def test_blue_god_allows_equal_or_higher_die(start4: borabora_sim.State) -> None:
    """C#2: with a Blue God a die may go on a tile whose lowest die is equal or lower; it costs a card and an
    offering."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (3, 5, 6), 3, {BLUE: 1}, offerings=2)
    assert place_names(state, "helper") == set()
    play(state, "play blue god with card")
    assert place_names(state, "helper") == {3, 5, 6}
    raw = raw_of(state)
    assert raw["pl"][seat]["hand"][BLUE] == 0 and raw["pl"][seat]["offerings"] == 1
    assert raw["discard"][BLUE] >= 1


def test_blue_god_placement_keeps_the_lowest_die_on_the_tile(start4: borabora_sim.State) -> None:
    """A die placed with the Blue God on top of a lower one does not raise the tile's lowest value."""
    seat, other = start4.turn_order[:2]

    def edit(raw: dict[str, Any]) -> None:
        raw["tile_low"][0] = 3
        set_hand(raw, seat, {BLUE: 1})
        raw["pl"][seat]["offerings"] = 1

    state = die_turn(start4, [("die", other, 0, 0), ("die", seat, 0, 0)], {seat: (5,), other: (1, 2, 4)}, edit=edit)
    play(state, "play blue god with card", "place 5 on helper", "done")
    assert state.current_player == other
    assert place_names(state, "helper") == {1, 2}


def test_one_blue_god_per_die(start4: borabora_sim.State) -> None:
    """C#2: a Blue God serves one die only; it cannot be stacked, and the player's next die needs another."""
    seat = start4.turn_order[0]

    def edit(raw: dict[str, Any]) -> None:
        raw["tile_low"][0] = 1
        set_hand(raw, seat, {BLUE: 2})
        raw["pl"][seat]["offerings"] = 2

    state = die_turn(start4, [("die", seat, 0, 0), ("die", seat, 0, 0)], {seat: (4, 5)}, edit=edit)
    play(state, "play blue god with card")
    assert not any(n.startswith("play blue god") for n in names(state))
    play(state, "place 4 on helper", "done")
    assert state.current_player == seat and state.decision == "die"
    assert place_names(state, "helper") == set()
    assert "play blue god with card" in names(state)


# =============================================================================
# White God (C#3, R1)
# =============================================================================
def test_white_god_acts_as_a_6(start4: borabora_sim.State) -> None:
    """White God: a 1 on the woman tile takes a woman as if it were a 6 (positions 1-6)."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (1,), 7, {WHITE: 1})
    play(state, "play white god with card", "place 1 on woman")
    assert state.decision == "person"
    assert names(state) == [f"take person at position {i}" for i in range(1, 7)]


def test_white_god_die_keeps_its_value_for_later_placements(start4: borabora_sim.State) -> None:
    """C#3: the die keeps its real value on the tile: after a White-God 2, only a 1 may follow."""
    seat, other = start4.turn_order[:2]

    def edit(raw: dict[str, Any]) -> None:
        set_hand(raw, seat, {WHITE: 1})
        raw["pl"][seat]["offerings"] = 1

    state = die_turn(start4, [("die", other, 0, 0), ("die", seat, 0, 0)], {seat: (2,), other: (1, 2, 3)}, edit=edit)
    play(state, "play white god with card", "place 2 on helper")
    assert state.decision == "helper"
    play(state, *["victory point"] * 6)
    assert vp(state, seat, "helper") == 6
    assert state.current_player == other
    assert place_names(state, "helper") == {1}


def test_white_god_does_not_lift_the_lower_value_rule(start4: borabora_sim.State) -> None:
    """C#3: a White God does not make an illegal placement legal (that is the Blue God's job)."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (3, 4), 3, {WHITE: 1})
    play(state, "play white god with card")
    assert place_names(state, "helper") == set()
    assert place_names(state, "fishing") == {3, 4}


def test_white_god_offered_only_with_a_die_below_6(start4: borabora_sim.State) -> None:
    """R1: the White God is not offered when every die left shows a 6."""
    seat = start4.turn_order[0]
    assert "play white god with card" not in names(blocked_position(start4, seat, (6, 6), 7, {WHITE: 1}))
    assert "play white god with card" in names(blocked_position(start4, seat, (6, 5), 7, {WHITE: 1}))


def test_blue_and_white_gods_only_in_phase_a(start4: borabora_sim.State) -> None:
    """Blue and White God (Phase A only): not offered in phase B."""
    seat = start4.turn_order[0]

    def edit(raw: dict[str, Any]) -> None:
        raw["phase"] = PHASE["B"]
        set_decision(raw, [("phase_b", seat, 0, 0)])
        set_hand(raw, seat, {BLUE: 2, WHITE: 2})
        raw["pl"][seat]["offerings"] = 2
        raw["pl"][seat]["god_tiles"] = 1
        give_person(raw, seat, 0, "victory_points")

    state = edited(start4, edit)
    legal = names(state)
    assert "use man victory_points" in legal
    assert not any(n.startswith(("play blue", "play white")) for n in legal)


# =============================================================================
# Paying for Gods (C#22)
# =============================================================================
def test_god_card_needs_an_offering(start4: borabora_sim.State) -> None:
    """To play a God card you must give up an offering; without one, no card may be played."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (3, 4), 3, {BLUE: 2, WHITE: 2}, offerings=0)
    assert not any(n.startswith("play ") for n in names(state))


def test_same_colour_pair_acts_as_any_god_for_one_offering(start4: borabora_sim.State) -> None:
    """Two God cards of the same colour plus one offering: any God action (here a Blue God from two reds)."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (3, 4), 3, {RED: 2}, offerings=2)
    assert "play blue god with pair of red" in names(state)
    play(state, "play blue god with pair of red")
    raw = raw_of(state)
    assert raw["pl"][seat]["hand"][RED] == 0
    assert raw["pl"][seat]["offerings"] == 1
    assert place_names(state, "helper") == {3, 4}


def test_pair_of_the_gods_own_colour_not_offered(start4: borabora_sim.State) -> None:
    """R1: a same-colour pair is not offered as its own colour (a single card does the same for less)."""
    seat = start4.turn_order[0]
    legal = names(blocked_position(start4, seat, (3, 4), 3, {BLUE: 2}))
    assert "play blue god with card" in legal
    assert "play blue god with pair of blue" not in legal


def test_same_colour_pair_stays_within_that_gods_phase(start4: borabora_sim.State) -> None:
    """C#22: a pair acts as any God within that God's phase: in phase A no Green or Yellow God is offered."""
    seat = start4.turn_order[0]
    legal = names(blocked_position(start4, seat, (3, 4), 3, {RED: 2, GREEN: 2, YELLOW: 2}, god_tiles=1))
    assert "play blue god with pair of green" in legal
    assert not any(n.startswith(("play green", "play yellow", "play red")) for n in legal)


def test_god_tile_needs_no_offering_and_is_removed(start4: borabora_sim.State) -> None:
    """God tile: used in place of any God card, without an offering; then it leaves the game."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (3, 4), 3, {}, offerings=0, god_tiles=1)
    assert "play blue god with god tile" in names(state)
    play(state, "play blue god with god tile")
    raw = raw_of(state)["pl"][seat]
    assert raw["god_tiles"] == 0 and raw["god_tiles_played"] == 1 and raw["offerings"] == 0
    assert place_names(state, "helper") == {3, 4}
    assert state.counters()[seat]["god_blue"] == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_unused_god_tiles_score_2_vp_at_the_end(players: int) -> None:
    """C#22: each God tile still held at the end of the game scores 2 VP (a played one scores nothing)."""
    for seed in range(3):
        state = borabora_sim.new_game(players=players, seed=seed)
        state.step_random(seed)
        assert state.is_terminal()
        raw = raw_of(state)
        for seat in range(players):
            assert vp(state, seat, "god_tiles") == 2 * raw["pl"][seat]["god_tiles"]


def test_discard_pile_reshuffled_when_draw_pile_runs_out(start4: borabora_sim.State) -> None:
    """Used God cards go to a discard pile, which is shuffled into a new draw pile when the pile runs out."""
    seat = start4.turn_order[0]

    def edit(raw: dict[str, Any]) -> None:
        for i in range(raw["deck_top"], raw["deck_end"]):
            raw["discard"][raw["god_deck"][i]] += 1
        raw["deck_top"] = raw["deck_end"]
        set_decision(raw, [("helper", seat, 2, 0)])

    state = edited(start4, edit)
    before = sum(raw_of(state)["pl"][seat]["hand"])
    pooled = sum(raw_of(state)["discard"])
    assert "god card from pile" in names(state)
    play(state, "god card from pile")
    raw = raw_of(state)
    assert sum(raw["pl"][seat]["hand"]) == before + 1
    assert sum(raw["discard"]) == 0
    assert raw["deck_end"] - raw["deck_top"] == pooled - 1
    assert state.check_invariants() is None


# =============================================================================
# Expand: paths (C#6), the map example, one hut per region (C#7), resources (C#8, R2), huts (R3)
# =============================================================================
MAP_EXAMPLE = {("land", "C_NE"): 4, ("land", "C_SW"): 2, ("water", "S_E"): 5, ("water", "E_S"): 4}


def expand_choice(start: borabora_sim.State, seat: int, regions: list[str], strength: int, path: int,
                  edit=None) -> borabora_sim.State:
    """`seat` (huts in `regions`) about to choose the region of an expansion of the given strength."""
    other = next(s for s in start.turn_order if s != seat)

    def change(raw: dict[str, Any]) -> None:
        set_regions(raw, seat, regions)
        set_decision(raw, [("die", other, 0, 0), ("expand", seat, strength, path)])
        if edit is not None:
            edit(raw)

    return edited(start, change)


def region_choices(state: borabora_sim.State) -> set[str]:
    return {n.removeprefix("region ") for n in names(state) if n.startswith("region ")}


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("path", ["land", "water"])
def test_map_example_paths_from_central_mountain(start4: borabora_sim.State, path: str, value: int) -> None:
    """Rulebook map example, from the central mountain C_SE: land 4 to C_NE, land 2 to C_SW, water 5 to S_E,
    water 4 to E_S; the die is the highest path value allowed; never diagonally to the forests C_NW / E_N / S_W."""
    seat = start4.turn_order[0]
    expected = {rid for (kind, rid), v in MAP_EXAMPLE.items() if kind == path and v <= value}
    if expected:  # with no reachable region the expansion cannot even be chosen (checked below)
        state = expand_choice(start4, seat, ["C_SE"], value, 0 if path == "land" else 1)
        assert region_choices(state) == expected
    paths = COMPONENTS.land_path if path == "land" else COMPONENTS.water_path
    printed = {rid: int(paths[REGION["C_SE"], r]) for rid, r in REGION.items() if paths[REGION["C_SE"], r]}
    assert printed == {rid: v for (kind, rid), v in MAP_EXAMPLE.items() if kind == path}
    die = die_turn(start4, [("die", start4.turn_order[1], 0, 0), ("die", seat, 0, 0)], {seat: (value,)},
                   edit=lambda raw: set_regions(raw, seat, ["C_SE"]))
    assert place_names(die, f"{path}_path") == ({value} if expected else set())
    if not expected:
        return
    play(die, f"place {value} on {path}_path")
    if len(expected) >= 2:
        assert region_choices(die) == expected
    else:
        (only,) = expected
        assert raw_of(die)["pl"][seat]["regions"] & (1 << REGION[only])
    for forest in ("C_NW", "E_N", "S_W"):
        assert forest not in region_choices(die)


def test_no_diagonal_expansion_even_with_a_6(start4: borabora_sim.State) -> None:
    """"You are not allowed to expand diagonally": a 6 from C_SE never reaches C_NW, E_N or S_W."""
    seat = start4.turn_order[0]
    land = region_choices(expand_choice(start4, seat, ["C_SE"], 6, 0))
    water = region_choices(expand_choice(start4, seat, ["C_SE"], 6, 1))
    assert land == {"C_NE", "C_SW"} and water == {"S_E", "E_S"}


def test_one_hut_per_player_per_region(start4: borabora_sim.State) -> None:
    """C#7: a player never expands into a region holding one of their huts (even a hut moved beside the space)."""
    seat = start4.turn_order[0]
    state = expand_choice(start4, seat, ["C_SE", "C_NE"], 6, 0)
    assert region_choices(state) == {"C_SW", "C_NW"}

    def beside(raw: dict[str, Any]) -> None:
        set_regions(raw, seat, ["C_SE", "C_SW"], on_space=False)
        raw["region_owner"][REGION["C_SE"]] = seat

    state = expand_choice(start4, seat, ["C_SE"], 6, 0, edit=beside)
    assert region_choices(state) == {"C_NE", "C_NW"}


def test_expanding_displaces_hut_which_stays_in_region(start4: borabora_sim.State) -> None:
    """A hut already on the new region's building space moves beside it and stays in the region."""
    seat, other = start4.turn_order[:2]

    def edit(raw: dict[str, Any]) -> None:
        set_regions(raw, other, ["C_NE", "C_SW"])

    state = expand_choice(start4, seat, ["C_SE"], 6, 0, edit=edit)
    play(state, "region C_SW")
    raw = raw_of(state)
    assert raw["region_owner"][REGION["C_SW"]] == seat
    assert raw["pl"][other]["regions"] & (1 << REGION["C_SW"])
    assert raw["pl"][seat]["regions"] & (1 << REGION["C_SW"])
    assert state.counters()[other]["huts_on_map"] == 2
    assert state.check_invariants() is None


def test_expanding_hut_comes_from_board_and_frees_a_person_space(start4: borabora_sim.State) -> None:
    """C#7: the hut comes from the player board and frees a person space (R3: a regular space first)."""
    seat, other = start4.turn_order[:2]

    def edit(raw: dict[str, Any]) -> None:
        p = raw["pl"][seat]
        p["huts_12th"] = 1
        set_regions(raw, seat, ["C_SE"])
        give_person(raw, seat, 1, "shell")
        raw["tile_low"][5] = 7
        set_decision(raw, [("die", other, 0, 0), ("die", seat, 0, 0), ("die", seat, 0, 0)])
        p["dice"] = [6, 6, 0]

    state = edited(start4, edit)
    raw = raw_of(state)["pl"][seat]
    assert (raw["reg_huts"], raw["huts_12th"], raw["n_persons"]) == (10, 1, 1)
    assert place_names(state, "woman") == set() and place_names(state, "man") == set()
    play(state, "place 6 on land_path", "region C_NE")
    finish_turn(state, seat)
    raw = raw_of(state)["pl"][seat]
    assert (raw["reg_huts"], raw["huts_12th"]) == (9, 1)
    assert state.current_player == seat and state.decision == "die"
    assert place_names(state, "woman") == {6}


def test_expanding_hut_comes_from_12th_space_last(start4: borabora_sim.State) -> None:
    """R3: only when no regular space holds a hut does the hut come from the 12th space."""
    seat = start4.turn_order[0]

    def edit(raw: dict[str, Any]) -> None:
        p = raw["pl"][seat]
        p["huts_12th"] = 11
        set_regions(raw, seat, ["C_SE"])

    state = expand_choice(start4, seat, ["C_SE"], 6, 1, edit=edit)
    assert raw_of(state)["pl"][seat]["reg_huts"] == 0
    play(state, "region E_S")
    finish_turn(state, seat)
    raw = raw_of(state)["pl"][seat]
    assert (raw["reg_huts"], raw["huts_12th"]) == (0, 10)


def test_region_offering_is_always_taken(start4: borabora_sim.State) -> None:
    """R2 (C#8): the new region's resource is taken; an offering region gives one offering, without a choice."""
    seat = start4.turn_order[0]
    state = expand_choice(start4, seat, ["C_SE"], 6, 0, edit=lambda raw: no_gods(raw, seat))
    assert COMPONENTS.region_resource[REGION["C_NE"]] == OFFERING_RESOURCE
    offerings = raw_of(state)["pl"][seat]["offerings"]
    play(state, "region C_NE")
    assert raw_of(state)["pl"][seat]["offerings"] == offerings + 1
    assert state.decision == "die" and state.current_player != seat


def test_region_material_goes_on_a_matching_ceremony_space(start4: borabora_sim.State) -> None:
    """R2 (C#8): a material region's material must be placed on a free matching ceremony space (no decline)."""
    seat = start4.turn_order[0]
    state = expand_choice(start4, seat, ["C_SE"], 6, 0, edit=lambda raw: no_gods(raw, seat))
    sand = COMPONENTS.region_resource[REGION["C_SW"]]
    before = raw_of(state)["pl"][seat]["ceremony"]
    play(state, "region C_SW")
    assert state.decision == "material"
    spaces = [i for i, m in enumerate(COMPONENTS.ceremony_material) if m == sand and before[i] == 0]
    assert sorted(names(state)) == sorted(state.action_to_string(102 + s) for s in spaces)
    play(state, names(state)[0])
    after = raw_of(state)["pl"][seat]["ceremony"]
    assert sum(after) == sum(before) + 1


def test_expand_needs_a_reachable_region(start4: borabora_sim.State) -> None:
    """C#6: a path's value must not exceed the die; with no reachable region the action cannot be chosen."""
    seat, other = start4.turn_order[:2]
    state = die_turn(start4, [("die", other, 0, 0), ("die", seat, 0, 0)], {seat: (1, 3)},
                     edit=lambda raw: set_regions(raw, seat, ["C_SE"]))
    assert place_names(state, "land_path") == {3}
    assert place_names(state, "water_path") == set()


@pytest.mark.parametrize(("count", "land", "water"), [
    (1, {"C_SW"}, set()),
    (2, {"C_SW", "C_NE"}, {"E_S", "N_W"}),
    (3, {"C_SW", "C_NE"}, {"E_S", "N_W", "S_E", "W_N"}),
])
def test_phase_b_path_strength_2_4_any(start4: borabora_sim.State, count: int, land: set[str],
                                       water: set[str]) -> None:
    """C#6: in phase B path-finder tiles expand along a path of value <= 2 (one tile), <= 4 (two), any (three)."""
    seat = start4.turn_order[0]
    reached = {}
    for path in ("land_path", "water_path"):
        def edit(raw: dict[str, Any], path: str = path) -> None:
            raw["phase"] = PHASE["B"]
            set_regions(raw, seat, ["C_SE", "C_NW"])
            for _ in range(count):
                give_person(raw, seat, 0, path)
            set_decision(raw, [("phase_b", seat, 0, 0)])

        state = edited(start4, edit)
        if f"use man {path}" not in names(state):
            reached[path] = set()
            continue
        before = raw_of(state)["pl"][seat]["regions"]
        play(state, f"use man {path}")
        if state.decision == "expand":
            reached[path] = region_choices(state)
        else:
            new = raw_of(state)["pl"][seat]["regions"] & ~before
            reached[path] = {rid for rid, r in REGION.items() if new & (1 << r)}
    assert reached == {"land_path": land, "water_path": water}


# =============================================================================
# Red God (C#9, R13)
# =============================================================================
def red_position(start: borabora_sim.State, seat: int, cards: dict[int, int], offerings: int,
                 god_tiles: int = 0, regions: tuple[str, ...] = ("C_SE",), other_edit=None) -> borabora_sim.State:
    def edit(raw: dict[str, Any]) -> None:
        set_hand(raw, seat, cards)
        raw["pl"][seat]["offerings"] = offerings
        raw["pl"][seat]["god_tiles"] = god_tiles
        if other_edit is not None:
            other_edit(raw)

    return expand_choice(start, seat, list(regions), 6, 1, edit=edit)


def test_red_god_scores_the_new_regions_fish_when_expanding(start4: borabora_sim.State) -> None:
    """Red God: on expanding, score the new region's fish tile now, paying a card and an offering."""
    seat = start4.turn_order[0]
    state = red_position(start4, seat, {RED: 1}, 1)
    play(state, "region S_E")
    assert state.decision == "red_god" and state.current_player == seat
    assert "done" in names(state)
    play(state, "play red god with card")
    raw = raw_of(state)["pl"][seat]
    assert vp(state, seat, "red_god") == fish_value(state, "S_E")
    assert raw["fish_scored"] == 1 << REGION["S_E"]
    assert raw["hand"][RED] == 0
    assert raw["offerings"] == 1          # one paid, one from the plains region
    assert state.current_player != seat


def test_red_god_decision_comes_after_the_resource_and_done_declines(start4: borabora_sim.State) -> None:
    """R13: the Red God decision follows the region's resource; "done" declines and scores nothing."""
    seat = start4.turn_order[0]
    state = red_position(start4, seat, {RED: 1}, 1)
    play(state, "region E_S")
    assert state.decision == "material"
    play(state, names(state)[0])
    assert state.decision == "red_god"
    play(state, "done")
    assert vp(state, seat, "red_god") == 0
    raw = raw_of(state)["pl"][seat]
    assert raw["fish_scored"] == 0 and raw["hand"][RED] == 1


def test_red_god_at_most_once_per_region(start4: borabora_sim.State) -> None:
    """C#9: no more than one Red God per region: after one, no second is offered."""
    seat = start4.turn_order[0]
    state = red_position(start4, seat, {RED: 2}, 3)
    play(state, "region S_E", "play red god with card")
    assert vp(state, seat, "red_god") == fish_value(state, "S_E")
    assert state.current_player != seat
    assert not any(n.startswith("play red") for n in names(state))


def test_red_god_fish_tile_stays_for_other_players(start4: borabora_sim.State) -> None:
    """The fish tile remains in place: another player expanding into the region may score it too."""
    seat, other = start4.turn_order[:2]
    state = red_position(start4, seat, {RED: 1}, 1)
    play(state, "region S_E", "play red god with card")
    value = fish_value(state, "S_E")

    def edit(raw: dict[str, Any]) -> None:
        set_hand(raw, other, {RED: 1})
        raw["pl"][other]["offerings"] = 1
        set_regions(raw, other, ["S_W"])
        set_decision(raw, [("die", seat, 0, 0), ("expand", other, 2, 0)])

    state = edited(state, edit)
    assert state.decision == "expand"
    play(state, "region S_E")
    assert state.decision == "red_god"
    play(state, "play red god with card")
    assert vp(state, other, "red_god") == value == vp(state, seat, "red_god")


def test_red_god_needs_an_offering(start4: borabora_sim.State) -> None:
    """A Red God card costs an offering: without one (and without a God tile) it is not offered."""
    seat = start4.turn_order[0]
    state = red_position(start4, seat, {RED: 2}, 0)
    play(state, "region E_S")
    if state.decision == "material":
        play(state, names(state)[0])
    assert state.decision != "red_god" and state.current_player != seat
    assert vp(state, seat, "red_god") == 0


def test_red_god_can_be_paid_with_the_offering_of_the_new_region(start4: borabora_sim.State) -> None:
    """R13 / rulebook Expand: the resource is taken first, then the Red God decision: the offering just taken
    from a plains region can pay for the Red God."""
    seat = start4.turn_order[0]
    state = red_position(start4, seat, {RED: 1}, 0)
    assert COMPONENTS.region_resource[REGION["S_E"]] == OFFERING_RESOURCE
    play(state, "region S_E")
    assert state.decision == "red_god"
    assert "play red god with card" in names(state)
    play(state, "play red god with card")
    assert vp(state, seat, "red_god") == fish_value(state, "S_E")
    assert raw_of(state)["pl"][seat]["offerings"] == 0


def test_red_god_with_god_tile_needs_no_offering(start4: borabora_sim.State) -> None:
    """A God tile may act as the Red God without an offering."""
    seat = start4.turn_order[0]
    state = red_position(start4, seat, {}, 0, god_tiles=1)
    play(state, "region E_S")
    if state.decision == "material":
        play(state, names(state)[0])
    assert state.decision == "red_god"
    assert names(state) == ["play red god with god tile", "done"]
    play(state, "play red god with god tile")
    assert vp(state, seat, "red_god") == fish_value(state, "E_S")
    assert raw_of(state)["pl"][seat]["god_tiles"] == 0


def test_red_god_only_when_expanding(start4: borabora_sim.State) -> None:
    """Red God: played only when placing a hut on a new region, never at an ordinary die decision."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (3, 4), 3, {RED: 2, BLUE: 1}, offerings=2, god_tiles=1)
    legal = names(state)
    assert "play blue god with card" in legal
    assert not any(n.startswith("play red") for n in legal)


def test_red_god_in_phase_b_expansion(start4: borabora_sim.State) -> None:
    """Red God (Phases A or B): a phase B path-finder expansion may score the new region's fish."""
    seat = start4.turn_order[0]

    def edit(raw: dict[str, Any]) -> None:
        raw["phase"] = PHASE["B"]
        set_regions(raw, seat, ["C_SE"])
        give_person(raw, seat, 1, "land_path")
        set_hand(raw, seat, {RED: 1})
        raw["pl"][seat]["offerings"] = 1
        set_decision(raw, [("phase_b", seat, 0, 0)])

    state = edited(start4, edit)
    play(state, "use woman land_path")
    if state.decision == "material":
        play(state, names(state)[0])
    assert state.decision == "red_god"
    play(state, "play red god with card")
    assert vp(state, seat, "red_god") == fish_value(state, "C_SW")


def test_fish_scored_at_most_once_per_player_per_region(start4: borabora_sim.State) -> None:
    """C#9: fish are scored only while expanding, and a player never expands twice into one region: a region
    whose fish the player already scored is not offered again."""
    seat = start4.turn_order[0]

    def edit(raw: dict[str, Any]) -> None:
        set_regions(raw, seat, ["C_SE", "E_S"])
        raw["pl"][seat]["fish_scored"] = 1 << REGION["E_S"]

    state = red_position(start4, seat, {RED: 1}, 1, other_edit=edit)
    assert state.decision == "expand"
    assert region_choices(state) <= {"S_E"}
    assert "region E_S" not in names(state)


# =============================================================================
# Man / Woman action (C#5, C#10)
# =============================================================================
def test_woman_example_4_die_takes_positions_1_to_4(start4: borabora_sim.State) -> None:
    """Rulebook example: a 4 on the woman tile takes a woman from display positions 1-4, not 5 or 6."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (4,), 7, {})
    play(state, "place 4 on woman")
    assert state.decision == "person"
    assert names(state) == [f"take person at position {i}" for i in range(1, 5)]
    display = raw_of(state)["person_display"][1]
    play(state, "take person at position 3")
    raw = raw_of(state)
    assert raw["person_display"][1][2] == NO_TILE
    assert raw["pl"][seat]["persons"][raw["pl"][seat]["n_persons"] - 1] == display[2]


@pytest.mark.parametrize("value", range(1, 7))
def test_man_action_takes_from_positions_up_to_the_die(start4: borabora_sim.State, value: int) -> None:
    """Man action: as the woman action, from display positions 1..die value."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (value,), 7, {})
    before = raw_of(state)["pl"][seat]["n_persons"]
    play(state, f"place {value} on man")
    if value == 1:
        assert raw_of(state)["pl"][seat]["n_persons"] == before + 1
        assert raw_of(state)["person_display"][0][0] == NO_TILE
    else:
        assert names(state) == [f"take person at position {i}" for i in range(1, value + 1)]


def test_taken_display_position_cannot_be_taken_again(start4: borabora_sim.State) -> None:
    """A taken tile leaves the display: later takers only see the positions still holding a tile."""
    seat, other = start4.turn_order[:2]
    state = die_turn(start4, [("die", other, 0, 0), ("die", seat, 0, 0)], {seat: (3,), other: (2,)})
    play(state, "place 3 on woman", "take person at position 1")
    assert state.current_player == other
    play(state, "place 2 on woman")
    assert raw_of(state)["person_display"][1][:2] == [NO_TILE, NO_TILE]
    assert raw_of(state)["pl"][other]["n_persons"] == 1


def test_person_action_needs_a_free_person_space(start4: borabora_sim.State) -> None:
    """C#5: without a free person space the man and woman actions cannot be chosen."""
    seat = start4.turn_order[0]

    def edit(raw: dict[str, Any]) -> None:
        p = raw["pl"][seat]
        set_regions(raw, seat, ["C_SE"])
        for _ in range(11 - p["reg_huts"]):
            give_person(raw, seat, 1, "shell")

    state = die_turn(start4, [("die", start4.turn_order[1], 0, 0), ("die", seat, 0, 0)], {seat: (6, 5)},
                     edit=edit)
    p = raw_of(state)["pl"][seat]
    assert p["huts_12th"] == 2 and p["reg_huts"] + p["n_persons"] == 11
    assert place_names(state, "woman") == set() and place_names(state, "man") == set()
    assert place_names(state, "helper") == {5, 6}


def test_new_person_tile_does_nothing_when_taken(start4: borabora_sim.State) -> None:
    """C#10: placing a new tile does nothing further; its ability waits for phase B."""
    seat = start4.turn_order[0]
    state = blocked_position(start4, seat, (6,), 7, {})
    types = [int(COMPONENTS.person_type[t]) for t in raw_of(state)["person_display"][1]]
    pos = next((i for i, t in enumerate(types) if PERSON_TYPES[t] in ("victory_points", "offering", "shell",
                                                                     "status")), 0)
    before = raw_of(state)["pl"][seat]
    score = state.scores()[seat]
    play(state, "place 6 on woman", f"take person at position {pos + 1}")
    after = raw_of(state)["pl"][seat]
    assert state.scores()[seat] == score
    for key in ("offerings", "shells", "status", "hand", "ceremony", "regions"):
        assert after[key] == before[key], key
    assert after["n_persons"] == before["n_persons"] + 1
    assert state.current_player != seat


def test_build_needs_two_orthogonally_adjacent_materials(start4: borabora_sim.State) -> None:
    """C#5 / R5: the build action needs materials on two orthogonally adjacent ceremony spaces."""
    seat = start4.turn_order[0]
    cols = COMPONENTS.ceremony_cols

    def with_materials(spaces: tuple[int, int]):
        def edit(raw: dict[str, Any]) -> None:
            raw["pl"][seat]["ceremony"] = [CER_MATERIAL if i in spaces else 0 for i in range(12)]
        return die_turn(start4, [("die", start4.turn_order[1], 0, 0), ("die", seat, 0, 0)], {seat: (6,)},
                        edit=edit)

    assert place_names(with_materials((0, 2)), "build") == set()
    assert place_names(with_materials((0, cols + 1)), "build") == set()
    assert place_names(with_materials((0, 1)), "build") == {6}
    assert place_names(with_materials((0, cols)), "build") == {6}
