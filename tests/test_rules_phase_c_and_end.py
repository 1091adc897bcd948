"""Rulebook "Phase C" 1-4, "End of Round and New Round Prep", Yellow God, God tile, "Completing Tasks", "Game End"
and "Final Scoring"; CLARIFICATIONS C#17-C#26.

Scenarios are edited raw states (tests/scenario.py) of 2- and 3-player games whose players start clean: no VP, no
person tiles, God cards, God tiles, offerings, shells or materials, and three tasks none of them can complete.
Phase C is entered the way the game enters it: the last player ends its phase-B turn with "done".
"""

from __future__ import annotations

from typing import Any

import pytest

import borabora_sim
from borabora_sim.games.bora_bora.components import (
    GOD_COLOURS,
    MATERIALS,
    PERSON_TYPES,
    TASK_REQUIREMENT_KINDS,
    load_components,
)

from scenario import PHASE, SOURCE, edited, names, play, set_decision, vp
from test_rules_phase_b import (
    COMP,
    MAN,
    NO_TILE,
    REGION,
    WOMAN,
    Edit,
    Raw,
    clean,
    fix_huts,
    give_persons,
    give_tasks,
    pick,
    pl,
    raw_of,
    set_hand,
    settle,
)

CER_MATERIAL, CER_BUILDING = 1, 2
# Tasks no clean player can complete (regions 9, islands 5, buildings 4 / jewelry 4, God tiles 2, 5 persons shifted /
# 4 huts on the 12th space, 3 men shifted, 3 women shifted).
IMPOSSIBLE = ([7, 8, 26], [25, 28, 46], [43, 44, 45])
TASK = {tid: i for i, tid in enumerate(COMP.task_ids)}
STATUS_VP = [int(v) for v in COMP.status_vp]
TEMPLE_VP = [int(v) for v in COMP.temple_vp_by_round]
KIND = {name: k for k, name in enumerate(COMP.jewelry_kind_names)}


# =============================================================================
# Scenario building
# =============================================================================
def after_setup(players: int, components: Any = None) -> borabora_sim.State:
    state = borabora_sim.new_game(players=players, seed=3, components=components)
    while state.phase == "setup":
        state.apply(state.legal_actions()[0])
    return state


@pytest.fixture(scope="module")
def base2() -> borabora_sim.State:
    return after_setup(2)


@pytest.fixture(scope="module")
def base3() -> borabora_sim.State:
    return after_setup(3)


def scenario(base: borabora_sim.State, phase: str, decision: str, *edits: Edit, order: tuple[int, ...] | None = None,
             round_: int = 1, seat: int | None = None) -> borabora_sim.State:
    """All players clean (seat 0 settled on C_SE, seat 1 on C_NW, seat 2 on E_N), turn order `order` (default by
    seat), the marker stack in that order; `decision` pending for `seat` (default the last player for phase B,
    the first otherwise); then `edits`."""
    n = base.num_players
    order = tuple(range(n)) if order is None else order

    def fn(raw: Raw) -> None:
        for s in range(n):
            clean(raw, s)
            settle(raw, s, [["C_SE", "C_NW", "E_N"][s]])
        give_tasks(raw, {s: IMPOSSIBLE[s] for s in range(n)})
        raw["order"][:n] = list(order)
        for i, s in enumerate(order):
            raw["pl"][s]["status_stamp"] = n - i
        raw["status_clock"] = n
        raw["tile_low"] = [1, 2, 3, 4, 5, 6, 1]
        who = seat if seat is not None else order[n - 1] if phase == "B" else order[0]
        raw["phase"], raw["round"] = PHASE[phase], round_
        raw["turn_idx"] = order.index(who) + 1
        set_decision(raw, [(decision, who, 0, 0)])
        for edit in edits:
            edit(raw)

    state = edited(base, fn)
    assert state.check_invariants() is None
    return state


def end_of_phase_b(base: borabora_sim.State, *edits: Edit, order: tuple[int, ...] | None = None,
                   round_: int = 1) -> borabora_sim.State:
    """Phase B, the last player's turn; it says "done", so phase C is scored and its first real decision waits."""
    state = scenario(base, "B", "phase_b", *edits, order=order, round_=round_)
    return play(state, "done")


def set_(seat: int, **fields: Any) -> Edit:
    def edit(raw: Raw) -> None:
        raw["pl"][seat].update(fields)

    return edit


def cards(seat: int, **by_colour: int) -> Edit:
    return lambda raw: set_hand(raw, seat, [by_colour.get(col, 0) for col in GOD_COLOURS])


def tasks(seat: int, *ids: int) -> Edit:
    return lambda raw: give_tasks(raw, {seat: list(ids)})


def temple(*seats: int) -> Edit:
    def edit(raw: Raw) -> None:
        raw["temple"] = list(seats) + [-1] * (6 - len(seats))

    return edit


def regions(seat: int, *names_: str) -> Edit:
    return lambda raw: settle(raw, seat, list(names_))


def persons_of(seat: int, sex: int, ptype: str, n: int) -> Edit:
    return lambda raw: give_persons(raw, seat, pick(raw, sex, ptype, n))


def give_jewelry(seat: int, *tiles: int) -> Edit:
    def edit(raw: Raw) -> None:
        p = raw["pl"][seat]
        for t in tiles:
            raw["jewelry_display"] = [[NO_TILE if x == t else x for x in col] for col in raw["jewelry_display"]]
            p["jewelry"][p["n_jewelry"]] = t
            p["n_jewelry"] += 1

    return edit


def jewelry_column(round_: int, tiles: list[int]) -> Edit:
    """Puts these jewelry tiles (rows 1-4) in the round's column, swapping them with the tiles there."""

    def edit(raw: Raw) -> None:
        cols = raw["jewelry_display"]
        for row, t in enumerate(tiles):
            for c, col in enumerate(cols):
                if t in col:
                    j = col.index(t)
                    cols[c][j], cols[round_ - 1][row] = cols[round_ - 1][row], t
                    break

    return edit


def jewelry_tiles(kind: str, n: int) -> list[int]:
    return [t for t in range(24) if int(COMP.jewelry_kind[t]) == KIND[kind]][:n]


def tasks_of(state: borabora_sim.State, seat: int) -> list[int]:
    return pl(state, seat)["tasks"]


def finish(state: borabora_sim.State) -> borabora_sim.State:
    """Ends the game from the final task step by saying "done" while it is legal."""
    while not state.is_terminal():
        play(state, "done")
    return state


def final(base: borabora_sim.State, *edits: Edit, order: tuple[int, ...] | None = None) -> borabora_sim.State:
    """After round 6: the final task step of the first player in turn order. No tasks unless `edits` give some; the
    temple's God tiles are gone; the huts stand beside the building spaces (no fish VP) unless `edits` settle them."""

    def after_round_6(raw: Raw) -> None:
        give_tasks(raw, {s: [] for s in range(raw["n_players"])})
        raw["temple_god_tiles"] = 0
        raw["region_owner"] = [-1] * len(raw["region_owner"])

    return scenario(base, "final", "final_tasks", after_round_6, *edits, order=order, round_=6)


# =============================================================================
# Phase C 1: status track (C#17)
# =============================================================================
@pytest.mark.parametrize("space", range(16))
def test_status_scores_the_vp_below_the_marker_space(base2, space) -> None:
    state = end_of_phase_b(base2, set_(0, status=space))
    assert vp(state, 0, "status") == STATUS_VP[space]
    assert vp(state, 1, "status") == STATUS_VP[0]


def test_status_markers_return_to_the_zero_space(base3) -> None:
    state = end_of_phase_b(base3, set_(0, status=4), set_(1, status=15), set_(2, status=1))
    assert [pl(state, s)["status"] for s in range(3)] == [0, 0, 0]


def test_new_turn_order_puts_the_furthest_ahead_first(base3) -> None:
    state = end_of_phase_b(base3, set_(0, status=2), set_(1, status=7), set_(2, status=4))
    assert state.turn_order == [1, 2, 0]


def test_status_tie_goes_to_the_marker_that_arrived_later(base3) -> None:
    """A marker landing on an occupied space goes on top; the top of the stack plays first."""
    state = end_of_phase_b(base3, set_(0, status=5, status_stamp=10), set_(1, status=5, status_stamp=30),
                           set_(2, status=5, status_stamp=20), lambda raw: raw.update(status_clock=30))
    assert state.turn_order == [1, 2, 0]


def test_status_moves_in_phase_b_decide_the_order_of_a_tie(base2) -> None:
    """Seat 0 plays first in phase B and steps to 2; seat 1 then steps to 2 too and lands on top."""
    state = scenario(base2, "B", "phase_b", persons_of(0, MAN, "status", 2), persons_of(0, WOMAN, "shell", 1),
                     persons_of(1, WOMAN, "status", 2), persons_of(1, MAN, "shell", 1), seat=0)
    play(state, "use man status", "done", "use woman status", "done")
    assert state.turn_order == [1, 0]


def test_marker_stack_keeps_the_new_order_while_nobody_moves(base3) -> None:
    state = end_of_phase_b(base3, set_(0, status=2), set_(1, status=7), set_(2, status=4))
    assert state.turn_order == [1, 2, 0]

    def next_phase_b_end(raw: Raw) -> None:
        raw["phase"], raw["turn_idx"] = PHASE["B"], 3
        set_decision(raw, [("phase_b", 0, 0, 0)])

    again = play(edited(state, next_phase_b_end), "done")
    assert again.turn_order == [1, 2, 0]


# =============================================================================
# Phase C 2: temple and God tiles (C#18)
# =============================================================================
@pytest.mark.parametrize("round_", range(1, 7))
def test_temple_scores_1_2_3_vp_per_priest_by_round_pair(base2, round_) -> None:
    state = end_of_phase_b(base2, temple(0, 1, 0), round_=round_)
    per_priest = [1, 1, 2, 2, 3, 3][round_ - 1]
    assert TEMPLE_VP[round_ - 1] == per_priest
    assert (vp(state, 0, "temple"), vp(state, 1, "temple")) == (2 * per_priest, per_priest)


def test_priests_stay_in_the_temple_after_scoring(base2) -> None:
    state = end_of_phase_b(base2, temple(0, 1, 0))
    assert raw_of(state)["temple"] == [0, 1, 0, -1, -1, -1]


def test_most_priests_take_the_top_god_tile(base3) -> None:
    state = end_of_phase_b(base3, temple(0, 2, 1, 2, 1, 2))
    assert [pl(state, s)["god_tiles"] for s in range(3)] == [0, 0, 1]
    assert raw_of(state)["temple_god_tiles"] == 5


@pytest.mark.parametrize(("priests", "winner"), [((1, 0, 0, 1), 1), ((0, 1, 1, 0), 0), ((-1, 1, 0, 0, 1), 1)])
def test_god_tile_tie_goes_to_the_leftmost_priest(base2, priests, winner) -> None:
    state = end_of_phase_b(base2, temple(*priests))
    assert pl(state, winner)["god_tiles"] == 1 and pl(state, 1 - winner)["god_tiles"] == 0


def test_without_priests_the_god_tile_is_removed(base2) -> None:
    state = end_of_phase_b(base2)
    assert raw_of(state)["temple_god_tiles"] == 5
    assert [pl(state, s)["god_tiles"] for s in range(2)] == [0, 0]


def test_status_and_temple_are_scored_before_the_jewelry_step(base2) -> None:
    """Phase C order: status and temple VP are already there when the first jewelry decision is taken."""
    state = end_of_phase_b(base2, set_(0, status=3, shells=5), set_(1, shells=5), temple(1))
    assert state.phase == "C_jewelry"
    assert vp(state, 0, "status") == STATUS_VP[3] and vp(state, 1, "temple") == TEMPLE_VP[0]


# =============================================================================
# Phase C 3: jewelry (C#19, ruling R18)
# =============================================================================
NECKLACES = jewelry_tiles("necklace", 6)      # costs 1..6 shells
COLUMN = [NECKLACES[0], NECKLACES[2], NECKLACES[4], NECKLACES[5]]


def test_jewelry_is_bought_in_the_new_turn_order(base2) -> None:
    state = end_of_phase_b(base2, set_(0, shells=6), set_(1, shells=6, status=3))
    assert state.turn_order == [1, 0]
    assert state.decision == "jewelry" and state.current_player == 1


@pytest.mark.parametrize("round_", [1, 4])
def test_only_affordable_tiles_of_the_round_column_are_offered(base2, round_) -> None:
    state = end_of_phase_b(base2, jewelry_column(round_, COLUMN), set_(0, shells=3), set_(1, shells=3),
                           round_=round_)
    costs = [int(COMP.jewelry_cost[t]) for t in COLUMN]
    assert names(state) == [f"buy jewelry row {j + 1}" for j, c in enumerate(costs) if c <= 3] + ["done"]


def test_buying_jewelry_pays_its_shell_cost(base2) -> None:
    state = end_of_phase_b(base2, jewelry_column(1, COLUMN), set_(0, shells=4), set_(1, shells=4))
    seat = state.current_player
    play(state, "buy jewelry row 2")
    p = pl(state, seat)
    assert p["shells"] == 4 - int(COMP.jewelry_cost[COLUMN[1]])
    assert (p["n_jewelry"], p["jewelry"][0]) == (1, COLUMN[1])
    assert vp(state, seat, "jewelry") == 0           # jewelry VP come at the end


def test_each_player_buys_at_most_one_jewelry_tile(base2) -> None:
    state = end_of_phase_b(base2, jewelry_column(1, COLUMN), set_(0, shells=9), set_(1, shells=9))
    first = state.current_player
    play(state, "buy jewelry row 1")
    assert state.decision == "jewelry" and state.current_player == 1 - first


def test_buying_jewelry_is_optional(base2) -> None:
    state = end_of_phase_b(base2, set_(0, shells=9), set_(1, shells=9))
    first = state.current_player
    play(state, "done")
    assert pl(state, first)["shells"] == 9 and pl(state, first)["n_jewelry"] == 0


def test_unbought_jewelry_of_the_round_is_discarded(base2) -> None:
    state = end_of_phase_b(base2, jewelry_column(2, COLUMN), set_(0, shells=9), set_(1, shells=9), round_=2)
    before = raw_of(state)["jewelry_display"]
    play(state, "buy jewelry row 1", "done")
    after = raw_of(state)["jewelry_display"]
    assert state.phase == "C_task"
    assert after[1] == [NO_TILE] * 4
    assert [col for i, col in enumerate(after) if i != 1] == [col for i, col in enumerate(before) if i != 1]


# =============================================================================
# Phase C 4: tasks (C#20, C#21, ruling R10)
# =============================================================================
def task_step(base: borabora_sim.State, *edits: Edit, order: tuple[int, ...] | None = None,
              seat: int = 0) -> borabora_sim.State:
    return scenario(base, "C_task", "task", *edits, order=order, seat=seat)


def test_completing_a_task_scores_6_vp(base2) -> None:
    state = task_step(base2, tasks(0, TASK["T30"], 7, 8), set_(0, offerings=4))
    play(state, "complete task 1")
    p = pl(state, 0)
    assert vp(state, 0, "tasks") == 6
    assert (p["tasks"][0], p["tasks_done"]) == (NO_TILE, 1)


def test_a_completed_task_spends_nothing(base2) -> None:
    state = task_step(base2, tasks(0, TASK["T30"], 7, 8), set_(0, offerings=4))
    play(state, "complete task 1")
    assert pl(state, 0)["offerings"] == 4


def test_only_one_task_is_completed_per_round(base2) -> None:
    state = task_step(base2, tasks(0, 7, TASK["T30"], TASK["T31"]), set_(0, offerings=4, shells=5))
    assert names(state) == ["complete task 2", "complete task 3"]
    play(state, "complete task 2")
    assert state.current_player == 1
    assert pl(state, 0)["tasks"] == [7, NO_TILE, TASK["T31"]]


def test_a_player_who_can_complete_a_task_may_not_surrender(base2) -> None:
    """Ruling R10."""
    state = task_step(base2, tasks(0, 7, 8, TASK["T30"]), set_(0, offerings=4))
    assert names(state) == ["complete task 3"]


def test_without_a_completable_task_one_must_be_surrendered(base2) -> None:
    state = task_step(base2)
    assert names(state) == ["surrender task 1", "surrender task 2", "surrender task 3"]
    play(state, "surrender task 2")
    p = pl(state, 0)
    assert p["tasks"] == [IMPOSSIBLE[0][0], NO_TILE, IMPOSSIBLE[0][2]]
    assert (p["tasks_done"], vp(state, 0, "tasks")) == (0, 0)


def test_tasks_are_resolved_in_the_new_turn_order(base2) -> None:
    state = end_of_phase_b(base2, set_(1, status=2))
    assert state.turn_order == [1, 0]
    assert state.decision == "task" and state.current_player == 1
    play(state, "surrender task 1")
    assert state.decision == "task" and state.current_player == 0


YELLOW_MEANS = (cards(0, yellow=1), set_(0, offerings=1))


def test_yellow_god_covers_one_missing_unit_for_4_vp(base2) -> None:
    state = task_step(base2, tasks(0, TASK["T31"], 7, 8), set_(0, shells=4), *YELLOW_MEANS)
    assert "complete task 1" not in names(state)
    assert "play yellow god with card" in names(state)
    play(state, "play yellow god with card")       # the only choice left, completing T31, is taken at once
    assert vp(state, 0, "tasks") == 4
    assert pl(state, 0)["hand"][GOD_COLOURS.index("yellow")] == 0 and pl(state, 0)["offerings"] == 0


def test_yellow_god_does_not_cover_two_missing_units(base2) -> None:
    state = task_step(base2, tasks(0, TASK["T31"], 7, 8), set_(0, shells=3), *YELLOW_MEANS)
    assert not [a for a in names(state) if a.startswith("play yellow")]


def test_yellow_god_may_cover_one_whole_requirement_of_two(base2) -> None:
    """T01 needs a man and a woman: with only a man the Yellow God replaces the woman."""
    state = task_step(base2, tasks(0, TASK["T01"], 7, 8), persons_of(0, MAN, "shell", 1), *YELLOW_MEANS)
    play(state, "play yellow god with card")
    assert vp(state, 0, "tasks") == 4


def test_yellow_god_is_not_offered_without_a_task_it_makes_completable(base2) -> None:
    """Ruling R1: T30 is complete without help, the other two tasks are far from complete."""
    state = task_step(base2, tasks(0, TASK["T30"], 7, 8), set_(0, offerings=4), cards(0, yellow=1))
    assert names(state) == ["complete task 1"]


def test_yellow_god_may_be_paid_with_a_god_tile_or_a_pair(base2) -> None:
    state = task_step(base2, tasks(0, TASK["T31"], 7, 8), set_(0, shells=4, offerings=1, god_tiles=1),
                      cards(0, red=2))
    yellows = [a for a in names(state) if a.startswith("play yellow")]
    assert yellows == ["play yellow god with pair of red", "play yellow god with god tile"]


def test_yellow_god_card_spent_on_a_yellow_card_task_is_missing_from_it(base2) -> None:
    """T14 needs 3 yellow cards: with 2, paying the Yellow God with one of them leaves it two short."""
    state = task_step(base2, tasks(0, TASK["T14"], 7, 8), cards(0, yellow=2), set_(0, offerings=1, god_tiles=1))
    yellows = [a for a in names(state) if a.startswith("play yellow")]
    assert yellows == ["play yellow god with god tile"]
    play(state, "play yellow god with god tile")
    assert vp(state, 0, "tasks") == 4


def test_yellow_god_offering_spent_on_an_offering_task_is_missing_from_it(base2) -> None:
    state = task_step(base2, tasks(0, TASK["T30"], 7, 8), cards(0, yellow=1), set_(0, offerings=3, god_tiles=1))
    yellows = [a for a in names(state) if a.startswith("play yellow")]
    assert yellows == ["play yellow god with god tile"]


def test_a_god_tile_does_not_count_as_a_required_god_card(base2) -> None:
    """C#21: T15 needs 2 blue cards; one blue card and God tiles are not enough."""
    state = task_step(base2, tasks(0, TASK["T15"], 7, 8), cards(0, blue=1), set_(0, god_tiles=2))
    assert "complete task 1" not in names(state)


def test_a_same_colour_pair_does_not_count_as_a_required_god_card(base2) -> None:
    """C#21: two red cards do not stand in for the second blue card of T15."""
    state = task_step(base2, tasks(0, TASK["T15"], 7, 8), cards(0, blue=1, red=2), set_(0, offerings=2))
    assert "complete task 1" not in names(state)


def test_a_god_tile_does_not_count_as_a_further_god_colour(base2) -> None:
    """C#21: T20 needs four different God cards."""
    state = task_step(base2, tasks(0, TASK["T20"], 7, 8), cards(0, blue=1, white=1, red=1), set_(0, god_tiles=2))
    assert "complete task 1" not in names(state)


@pytest.fixture(scope="module")
def one_unit_task_base() -> borabora_sim.State:
    doc = load_components().to_json_dict()
    doc["tasks"][TASK["T04"]]["requirements"] = [{"kind": "priests", "count": 1}]
    return after_setup(2, load_components(doc))


def test_yellow_god_never_removes_a_whole_task(one_unit_task_base) -> None:
    """C#20: a task needing just one priest cannot be completed with no priest and a Yellow God."""
    state = task_step(one_unit_task_base, tasks(0, TASK["T04"], 7, 8), *YELLOW_MEANS)
    assert not [a for a in names(state) if a.startswith("play yellow")]


# ---- every requirement kind: completable exactly when it holds -----------------------------------------------
def fish_type_regions(raw: Raw, fish_type: int) -> list[str]:
    return [name for name, r in REGION.items() if int(COMP.fish_type[raw["fish_at"][r]]) == fish_type]


def have_regions(names_: list[str]) -> Edit:
    return regions(0, *names_)


def kind_men(raw: Raw, n: int) -> None:
    give_persons(raw, 0, pick(raw, MAN, "shell", min(n, 3)) + pick(raw, MAN, "offering", max(0, n - 3)))
    give_persons(raw, 0, pick(raw, WOMAN, "shell", 2))


def kind_women(raw: Raw, n: int) -> None:
    give_persons(raw, 0, pick(raw, WOMAN, "shell", min(n, 3)) + pick(raw, WOMAN, "offering", max(0, n - 3)))
    give_persons(raw, 0, pick(raw, MAN, "shell", 2))


def kind_priests(raw: Raw, n: int) -> None:
    raw["temple"] = [0] * n + [1] * 2 + [-1] * (4 - n)


def kind_jewelry(raw: Raw, n: int) -> None:
    give_jewelry(0, *[jewelry_tiles(k, 1)[0] for k in ("necklace", "bracelet", "earrings", "headdress")][:n])(raw)


def kind_first_player(raw: Raw, n: int) -> None:
    give_persons(raw, 0, pick(raw, MAN, "shell", 1))
    raw["order"][:2] = [0, 1] if n else [1, 0]
    raw["turn_idx"] = raw["order"].index(0) + 1


def kind_regions(raw: Raw, n: int) -> None:
    settle(raw, 1, [])
    settle(raw, 0, list(COMP.region_ids[:n]))


def kind_islands(raw: Raw, n: int) -> None:
    settle(raw, 1, [])
    settle(raw, 0, ["C_SE", "C_NW", *["N_W", "E_N", "S_W", "W_N"][: n - 1]])


def kind_god_of_colour(raw: Raw, n: int) -> None:
    set_hand(raw, 0, [n, 2, 0, 0, 0])          # blue; two white cards do not count


def kind_god_one_colour(raw: Raw, n: int) -> None:
    set_hand(raw, 0, [1, 0, n, 1, 0])          # n red


def kind_god_colours(raw: Raw, n: int) -> None:
    set_hand(raw, 0, [2] + [1] * (n - 1) + [0] * (5 - n))


def kind_types(sex: int) -> Any:
    def edit(raw: Raw, n: int) -> None:
        types = ["shell", "offering", "status", "victory_points"][:n]
        give_persons(raw, 0, [pick(raw, sex, t, 1)[0] for t in types] + pick(raw, sex, types[0], 2)[1:])
        give_persons(raw, 0, pick(raw, 1 - sex, "god_card", 1) + pick(raw, 1 - sex, "material", 1))

    return edit


def kind_jewelry_kinds(raw: Raw, n: int) -> None:
    kinds = ("necklace", "bracelet", "earrings", "headdress")[:n]
    give_jewelry(0, *[jewelry_tiles(k, 1)[0] for k in kinds], jewelry_tiles(kinds[0], 2)[1])(raw)


def kind_buildings(raw: Raw, n: int) -> None:
    p = raw["pl"][0]
    p["built"] = (1 << n) - 1
    p["ceremony"] = [CER_BUILDING] * (2 * n) + [CER_MATERIAL] * (12 - 2 * n)


def kind_jewelry_of_kind(raw: Raw, n: int) -> None:
    give_jewelry(0, *jewelry_tiles("necklace", n), *jewelry_tiles("bracelet", 2))(raw)


def kind_counter(key: str) -> Any:
    def edit(raw: Raw, n: int) -> None:
        raw["pl"][0][key] = n

    return edit


def spaces_of(material: str) -> list[int]:
    return [s for s in range(12) if MATERIALS[int(COMP.ceremony_material[s])] == material]


def kind_material(raw: Raw, n: int) -> None:
    """`n` stones on stone spaces; three sand do not count."""
    for s in spaces_of("stone")[:n] + spaces_of("sand")[:3]:
        raw["pl"][0]["ceremony"][s] = CER_MATERIAL


def kind_materials(raw: Raw, n: int) -> None:
    for s in range(n):
        raw["pl"][0]["ceremony"][s] = CER_MATERIAL


def kind_terrain(raw: Raw, n: int) -> None:
    mountains = [name for name, r in REGION.items() if COMP.region_terrain[r] == 0]
    settle(raw, 1, [])
    settle(raw, 0, [*mountains[:n], "C_NW"])


def kind_fish_type(raw: Raw, n: int) -> None:
    settle(raw, 1, [])
    settle(raw, 0, fish_type_regions(raw, 0)[:n] + fish_type_regions(raw, 1)[:1])


def kind_huts_12th(raw: Raw, n: int) -> None:
    fix_huts(raw["pl"][0], n)


def kind_shifted(which: str) -> Any:
    def edit(raw: Raw, n: int) -> None:
        give_persons(raw, 0, pick(raw, MAN, "shell", 3) + pick(raw, MAN, "offering", 2)
                     + pick(raw, WOMAN, "shell", 3) + pick(raw, WOMAN, "offering", 2))
        men_slots, women_slots = [0, 1, 2, 3, 4], [5, 6, 7, 8, 9]
        if which == "men":
            slots = men_slots[:n] + women_slots[:3]
        elif which == "women":
            slots = women_slots[:n] + men_slots[:3]
        else:
            slots = (men_slots[:2] + women_slots[:3])[:n]
        raw["pl"][0]["shifted"] = sum(1 << s for s in slots)

    return edit


def kind_persons_of_type(raw: Raw, n: int) -> None:
    tiles = (pick(raw, MAN, "land_path", 1) + pick(raw, WOMAN, "land_path", 1))[:n]
    give_persons(raw, 0, tiles + pick(raw, MAN, "water_path", 2))


# kind -> (task, builder giving seat 0 exactly n of the requirement, the task's count)
KINDS: dict[str, tuple[str, Any]] = {
    "men": ("T24", kind_men),
    "women": ("T25", kind_women),
    "priests": ("T04", kind_priests),
    "jewelry": ("T26", kind_jewelry),
    "first_player": ("T06", kind_first_player),
    "regions": ("T08", kind_regions),
    "islands": ("T09", kind_islands),
    "god_cards_of_colour": ("T10", kind_god_of_colour),
    "god_cards_one_colour": ("T12", kind_god_one_colour),
    "god_colours": ("T20", kind_god_colours),
    "man_types": ("T21", kind_types(MAN)),
    "woman_types": ("T22", kind_types(WOMAN)),
    "jewelry_kinds": ("T23", kind_jewelry_kinds),
    "buildings": ("T27", kind_buildings),
    "jewelry_of_kind": ("T28", kind_jewelry_of_kind),
    "god_tiles": ("T29", kind_counter("god_tiles")),
    "offerings": ("T30", kind_counter("offerings")),
    "shells": ("T31", kind_counter("shells")),
    "material": ("T32", kind_material),
    "materials": ("T35", kind_materials),
    "terrain_regions": ("T36", kind_terrain),
    "fish_type_regions": ("T40", kind_fish_type),
    "huts_on_12th_space": ("T44", kind_huts_12th),
    "men_shifted": ("T45", kind_shifted("men")),
    "women_shifted": ("T46", kind_shifted("women")),
    "persons_shifted": ("T47", kind_shifted("persons")),
    "persons_of_type": ("T48", kind_persons_of_type),
}


def test_every_requirement_kind_has_a_case() -> None:
    assert set(KINDS) == set(TASK_REQUIREMENT_KINDS)


@pytest.fixture(scope="module")
def kind_bases(base2) -> dict[str, borabora_sim.State]:
    """The built-in game, and one whose task T12 is "3 God cards of one colour" (no built-in task has that kind)."""
    doc = load_components().to_json_dict()
    doc["tasks"][TASK["T12"]]["requirements"] = [{"kind": "god_cards_one_colour", "count": 3}]
    return {"builtin": base2, "god_cards_one_colour": after_setup(2, load_components(doc))}


@pytest.mark.parametrize("short", [False, True], ids=["held", "one_short"])
@pytest.mark.parametrize("kind", TASK_REQUIREMENT_KINDS)
def test_task_is_completable_exactly_when_its_requirement_holds(kind_bases, kind, short) -> None:
    tid, build = KINDS[kind]
    base = kind_bases.get(kind, kind_bases["builtin"])
    t = TASK[tid]
    comp = base.components
    reqs = [(TASK_REQUIREMENT_KINDS[k], int(c)) for k, c in zip(comp.task_req_kind[t], comp.task_req_count[t],
                                                                    strict=True) if k >= 0]
    count = dict(reqs)[kind]
    n = count - 1 if short else count
    state = task_step(base, tasks(0, t), lambda raw: build(raw, n))
    assert ("complete task 1" in names(state)) is not short
    if not short:
        play(state, "complete task 1")
        assert vp(state, 0, "tasks") == 6


@pytest.mark.parametrize("beside", [0, 1])
def test_materials_beside_the_board_count_for_tasks(base2, beside) -> None:
    """T35 needs 5 materials: the 4 stone spaces are full, a fifth stone lies beside the board."""

    def stones(raw: Raw) -> None:
        for s in spaces_of("stone"):
            raw["pl"][0]["ceremony"][s] = CER_MATERIAL
        raw["pl"][0]["beside"] = [0, beside, 0]

    state = task_step(base2, tasks(0, TASK["T35"]), stones)
    assert len(spaces_of("stone")) == 4
    assert ("complete task 1" in names(state)) is bool(beside)


def test_a_hut_moved_beside_the_building_space_still_counts_for_region_tasks(base2) -> None:
    """C#24: three mountain regions, one of them with seat 1's hut on the building space."""
    mountains = [name for name, r in REGION.items() if COMP.region_terrain[r] == 0]

    def displaced(raw: Raw) -> None:
        settle(raw, 0, mountains)
        raw["region_owner"][REGION[mountains[0]]] = 1
        raw["pl"][1]["regions"] |= 1 << REGION[mountains[0]]
        fix_huts(raw["pl"][1])

    state = task_step(base2, tasks(0, TASK["T36"]), displaced)
    assert "complete task 1" in names(state)


# =============================================================================
# Phase C 4: new tasks, end of round (C#20, C#29)
# =============================================================================
def take_task_step(base: borabora_sim.State, *edits: Edit, round_: int = 1) -> borabora_sim.State:
    """Phase C, new tasks: each player has one free slot (its first)."""

    def free_first_slot(raw: Raw) -> None:
        for s in range(raw["n_players"]):
            raw["pl"][s]["tasks"][0] = NO_TILE

    return scenario(base, "C_take_task", "take_task", free_first_slot, *edits, round_=round_)


def test_each_player_takes_a_new_task_from_the_display_in_turn_order(base2) -> None:
    state = take_task_step(base2)
    display = raw_of(state)["task_display"]
    offered = [i for i, t in enumerate(display) if t != NO_TILE]
    assert names(state) == [f"take task {i + 1} from display" for i in offered]
    assert state.current_player == 0
    play(state, f"take task {offered[1] + 1} from display")
    assert pl(state, 0)["tasks"][0] == display[offered[1]]
    assert raw_of(state)["task_display"][offered[1]] == NO_TILE
    assert state.decision == "take_task" and state.current_player == 1


@pytest.mark.parametrize("players", [2, 3])
def test_task_display_holds_players_plus_two_tasks(base2, base3, players) -> None:
    state = base2 if players == 2 else base3
    assert sum(t != NO_TILE for t in raw_of(state)["task_display"]) == players + 2


def test_a_new_task_is_also_taken_in_round_6(base2) -> None:
    state = scenario(base2, "C_task", "task", round_=6)
    play(state, "surrender task 1", "surrender task 1")
    while state.decision == "take_task":
        play(state, names(state)[0])
    assert state.phase in ("final", "end")
    assert NO_TILE not in pl(state, 0)["tasks"] and NO_TILE not in pl(state, 1)["tasks"]


@pytest.mark.parametrize("round_", [1, 5])
def test_new_round_refills_the_displays_and_removes_leftovers(base2, round_) -> None:
    state = take_task_step(base2, round_=round_)
    before = raw_of(state)
    play(state, names(state)[0])
    play(state, names(state)[0])
    after = raw_of(state)
    assert (state.round, state.phase) == (round_ + 1, "A")
    for sex in (MAN, WOMAN):
        top = before["person_top"][sex]
        assert after["person_display"][sex] == before["person_pile"][sex][top: top + 6]
        assert after["person_top"][sex] == top + 6
    new_tasks = before["task_pile"][before["task_top"]: before["task_top"] + 4]
    assert after["task_display"] == [*new_tasks, NO_TILE, NO_TILE]
    assert after["task_top"] == before["task_top"] + 4


def test_new_round_gives_back_and_rolls_the_dice(base2) -> None:
    state = take_task_step(base2)
    play(state, names(state)[0])
    play(state, names(state)[0])
    after = raw_of(state)
    assert after["tile_low"] == [7] * 7
    assert all(1 <= d <= 6 for s in range(2) for d in after["pl"][s]["dice"])
    assert state.decision == "die"


def test_after_round_6_new_tasks_the_final_task_step_follows(base2) -> None:
    state = take_task_step(base2, tasks(0, TASK["T30"], TASK["T31"]), set_(0, offerings=4, shells=5), round_=6)
    tops = raw_of(state)["person_top"]
    play(state, names(state)[0])
    play(state, names(state)[0])
    assert (state.round, state.phase, state.decision) == (6, "final", "final_tasks")
    assert state.current_player == 0
    assert raw_of(state)["person_top"] == tops           # no new round


# =============================================================================
# Game end: the three remaining tasks (C#23, ruling R14)
# =============================================================================
def test_final_tasks_each_completable_task_scores_6(base2) -> None:
    state = final(base2, tasks(0, TASK["T30"], TASK["T31"], TASK["T35"]), set_(0, offerings=4, shells=5),
                  set_(0, beside=[2, 2, 1]))
    assert names(state) == ["complete task 1", "complete task 2", "complete task 3"]
    play(state, "complete task 1")
    assert state.decision == "final_tasks" and state.current_player == 0     # one at a time
    play(state, "complete task 2")
    finish(state)
    assert vp(state, 0, "tasks") == 18
    assert pl(state, 0)["tasks_done"] == 3


def test_final_tasks_stop_only_when_none_is_completable(base2) -> None:
    state = final(base2, tasks(0, TASK["T30"], 7, 8), set_(0, offerings=4))
    assert "done" not in names(state)


def test_final_tasks_allow_one_yellow_god_per_task(base2) -> None:
    """T31 (5 shells) and T24 (4 men) are each one short; two Yellow Gods complete both."""
    state = final(base2, tasks(0, TASK["T31"], TASK["T24"], 7), set_(0, offerings=2, shells=4),
                  persons_of(0, MAN, "shell", 3), cards(0, yellow=2))
    assert not [a for a in names(state) if a.startswith("complete")]
    play(state, "play yellow god with card")
    assert not [a for a in names(state) if a.startswith("play yellow")]      # one Yellow God per task
    play(state, "complete task 1", "play yellow god with card")     # then T24 is completed automatically
    finish(state)
    assert vp(state, 0, "tasks") == 4 + 4


def test_final_tasks_one_yellow_god_cannot_cover_two_units(base2) -> None:
    state = final(base2, tasks(0, TASK["T31"], 7, 8), set_(0, offerings=2, shells=3), cards(0, yellow=2))
    assert names(state) == ["done"]


def test_final_tasks_are_resolved_in_turn_order(base2) -> None:
    state = final(base2, tasks(0, TASK["T30"], TASK["T31"]), set_(0, offerings=4, shells=5),
                  tasks(1, TASK["T35"], 25, 28), set_(1, beside=[5, 0, 0]), order=(1, 0))
    assert state.current_player == 1
    play(state, "complete task 1")
    assert state.current_player == 0


# =============================================================================
# Final scoring (C#22, C#24-C#26)
# =============================================================================
def test_each_unused_god_tile_scores_2_vp(base2) -> None:
    state = finish(final(base2, set_(0, god_tiles=3), set_(1, god_tiles=1)))
    assert (vp(state, 0, "god_tiles"), vp(state, 1, "god_tiles")) == (6, 2)


def fish(region: str, raw: Raw) -> int:
    return int(COMP.fish_value[raw["fish_at"][REGION[region]]])


def test_fish_tiles_score_for_huts_on_building_spaces_only(base2) -> None:
    """C#24: seat 1's hut on C_SE was moved beside the building space when seat 0 expanded there."""

    def displaced(raw: Raw) -> None:
        settle(raw, 0, ["C_SE", "C_NE"])
        settle(raw, 1, ["C_NW"])
        raw["pl"][1]["regions"] |= 1 << REGION["C_SE"]
        fix_huts(raw["pl"][1])

    state = final(base2, displaced)
    raw = raw_of(state)
    finish(state)
    assert vp(state, 0, "fish_tiles") == fish("C_SE", raw) + fish("C_NE", raw)
    assert vp(state, 1, "fish_tiles") == fish("C_NW", raw)


def test_fish_tile_scored_with_a_red_god_scores_again_at_the_end(base2) -> None:
    state = final(base2, regions(0, "C_SE"), set_(0, fish_scored=1 << REGION["C_SE"]))
    raw = raw_of(state)
    finish(state)
    assert vp(state, 0, "fish_tiles") == fish("C_SE", raw)


def test_jewelry_scores_its_printed_vp_at_the_end(base2) -> None:
    tiles = [NECKLACES[5], jewelry_tiles("bracelet", 1)[0]]
    state = finish(final(base2, give_jewelry(0, *tiles)))
    assert vp(state, 0, "jewelry") == sum(int(COMP.jewelry_vp[t]) for t in tiles)


def goal_edit(goal: str, reached: bool) -> Edit:
    def edit(raw: Raw) -> None:
        p = raw["pl"][0]
        if goal == "goal_tasks":
            p["tasks_done"] = 9 if reached else 8
        elif goal == "goal_jewelry":
            give_jewelry(0, *range(6 if reached else 5))(raw)
        elif goal == "goal_ceremony":
            p["ceremony"] = [CER_BUILDING] * 2 + [CER_MATERIAL] * (10 if reached else 9) + [0] * (0 if reached else 1)
            p["built"] = 1
        elif goal == "goal_buildings":
            k = 6 if reached else 5
            p["built"] = (1 << k) - 1
            p["ceremony"] = [CER_BUILDING] * (2 * k) + [0] * (12 - 2 * k)
        elif goal == "goal_regions":
            settle(raw, 1, [])
            settle(raw, 0, list(COMP.region_ids[: 12 if reached else 11]))
        else:   # goal_persons
            settle(raw, 1, [])
            settle(raw, 0, list(COMP.region_ids))
            n = 12 if reached else 11
            give_persons(raw, 0, [pick(raw, MAN, t, 1)[0] for t in PERSON_TYPES[:6]]
                         + [pick(raw, WOMAN, t, 1)[0] for t in PERSON_TYPES[: n - 6]])
            p["person_12th"] = 1 if reached else 0
            fix_huts(p, 0)

    return edit


GOALS = ["goal_tasks", "goal_jewelry", "goal_ceremony", "goal_buildings", "goal_regions", "goal_persons"]


@pytest.mark.parametrize("reached", [True, False], ids=["reached", "one_short"])
@pytest.mark.parametrize("goal", GOALS)
def test_each_of_the_six_goals_scores_6_vp(base2, goal, reached) -> None:
    state = final(base2, goal_edit(goal, reached))
    assert state.check_invariants() is None
    finish(state)
    assert vp(state, 0, goal) == (6 if reached else 0)
    assert vp(state, 1, goal) == 0


def test_leftover_materials_shells_offerings_and_god_cards_score_nothing(base2) -> None:
    rich = finish(final(base2, set_(0, shells=9, offerings=7, beside=[2, 2, 2]), cards(0, blue=3, red=2)))
    poor = finish(final(base2))
    assert rich.scores() == poor.scores()


def test_score_breakdown_sums_to_the_scores(base2) -> None:
    state = final(base2, set_(0, god_tiles=2, tasks_done=9), give_jewelry(0, 3, 9), goal_edit("goal_regions", True),
                  set_(1, vp=[1, 2, 3] + [0] * (len(SOURCE) - 3)))
    finish(state)
    breakdown = state.score_breakdown()
    assert [sum(b.values()) for b in breakdown] == state.scores()
    assert set(breakdown[0]) == set(SOURCE)


@pytest.mark.parametrize(("order", "winner"), [((1, 0), 1), ((0, 1), 0)])
def test_tie_goes_to_the_player_earlier_in_the_last_turn_order(base2, order, winner) -> None:
    state = finish(final(base2, set_(0, god_tiles=1), set_(1, god_tiles=1), order=order))
    assert state.scores()[0] == state.scores()[1]
    assert state.winner() == winner
    assert state.ranks()[winner] == 1 and state.ranks()[1 - winner] == 2


def test_most_victory_points_win(base3) -> None:
    state = finish(final(base3, set_(2, god_tiles=2), set_(0, god_tiles=1), order=(0, 1, 2)))
    assert state.winner() == 2
    assert state.ranks() == [2, 3, 1]


def test_no_winner_before_the_end(base2) -> None:
    state = final(base2, tasks(0, TASK["T30"], 7, 8), set_(0, offerings=4))
    assert state.winner() is None
    play(state, "complete task 1")
    finish(state)
    assert state.is_terminal() and state.winner() == 0
