"""Bamboo rules not checked elsewhere, one test per rule (docs/bamboo_rules_coverage.md maps every rule to its tests).

Rulebook sections are named by their titles, rulings by number (docs/bamboo_rulings.md). Positions are built by
editing saved states and driven by action names, with the helpers of tests/test_bamboo_rules.py.
"""

from __future__ import annotations

import math
import random

import pytest
from test_bamboo_rules import (
    BAKENEKO,
    COMP,
    KAPPA,
    KITSUNE,
    NO,
    OOKAMI,
    ROKUROKUBI,
    TANUKI,
    TENGU,
    Raw,
    _in_play,
    _set_food,
    _take_home_tile,
    arrange,
    at_visit,
    edited,
    feed_position,
    give_spirits,
    kinds_of,
    last_summer_turn,
    mark_scored,
    names,
    play,
    play_until,
    raw,
    summer_turn_placed,
)

from borabora_sim import _bamboo
from borabora_sim.games.bamboo import new_game, pattern_fulfilled

BAL_BASE, BAL_SIZE = (0, 24, 44), (24, 20, 24)
HOME_BASE, HOME_SIZE = (0, 32), (32, 32)


# ---- helpers: tiles back into their stacks -----------------------------------------------------------------------
def _return_home_tile(r: Raw, tile: int) -> None:
    """Puts `tile` at the bottom of its category's stack."""
    cat = int(COMP.home_category[tile])
    r["home_pile"][HOME_BASE[cat] + (r["home_top"][cat] + r["home_left"][cat]) % HOME_SIZE[cat]] = tile
    r["home_left"][cat] += 1


def _return_balance_tile(r: Raw, tile: int) -> None:
    """Puts `tile` at the bottom of its side's stack."""
    side = int(COMP.balance_side[tile])
    r["bal_pile"][BAL_BASE[side] + (r["bal_top"][side] + r["bal_left"][side]) % BAL_SIZE[side]] = tile
    r["bal_left"][side] += 1


def _clear_home(r: Raw, seat: int) -> None:
    for cell, tile in enumerate(r["pl"][seat]["home"]):
        if tile != NO:
            _return_home_tile(r, tile)
            r["pl"][seat]["home"][cell] = NO


def _home_tile(r: Raw, comfort: int | None = None, type_: int | None = None) -> int:
    """A home tile still in a stack or market, of the given comfort and type, taken out of it."""
    tile = next(t for t in range(64) if (comfort is None or COMP.home_comfort[t] == comfort)
                and (type_ is None or COMP.home_type[t] == type_) and _in_play(r, t)
                and t not in r["home_market"][0] + r["home_market"][1])
    _take_home_tile(r, tile)
    return tile


def _stack_order(r: Raw, key: str, base: int, size: int, cat: int) -> list[int]:
    top, left = r[key.replace("pile", "top")][cat], r[key.replace("pile", "left")][cat]
    return [r[key][base + (top + k) % size] for k in range(left)]


def _take_balance_tile(r: Raw, tile: int) -> None:
    """Takes `tile` out of its market, stack or slot; the top tile of its stack takes its place there."""
    side = int(COMP.balance_side[tile])
    ring = _stack_order(r, "bal_pile", BAL_BASE[side], BAL_SIZE[side], side)
    in_slot = [(p, j) for p in range(len(r["pl"])) for j in range(2) if r["pl"][p]["balance"][side][j] == tile]
    if tile in ring:
        ring.remove(tile)
    elif tile in r["bal_market"][side]:
        r["bal_market"][side][r["bal_market"][side].index(tile)] = ring.pop(0)
    else:
        p, j = in_slot[0]
        r["pl"][p]["balance"][side][j] = ring.pop(0)
    r["bal_top"][side] = 0
    for k in range(BAL_SIZE[side]):
        r["bal_pile"][BAL_BASE[side] + k] = ring[k] if k < len(ring) else NO
    r["bal_left"][side] = len(ring)
    r["bal_unseen"][side] = min(r["bal_unseen"][side], len(ring))


def _clear_balance(r: Raw, seat: int) -> None:
    for side in range(3):
        for slot in range(2):
            tile = r["pl"][seat]["balance"][side][slot]
            if tile != NO:
                _return_balance_tile(r, tile)
                r["pl"][seat]["balance"][side][slot] = NO


def _placed_turn(spirits: dict[int, int]) -> tuple[_bamboo.State, int]:
    """A round-2 turn at its first activate decision, 3 shoots placed, the seat holding the awake `spirits`."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)

    def edit(r: Raw) -> None:
        arrange(r, seat, [ks[:3], ks[3:4], ks[4:5], ks[5:]])
        r["pl"][seat]["last_visit"] = 3
        give_spirits(r, seat, spirits)
    state = edited(state, edit)
    play(state, "visit temple 1")
    while state.decision in ("offer", "stalk", "shoot"):
        state.apply(state.legal_actions()[0])
    return state, seat


# ---- I. Board Set Up ---------------------------------------------------------------------------------------------
def test_board_setup_spirit_stacks_are_16_of_the_21_tiles_at_random_I() -> None:
    """I: 4 stacks of 4 spirit tiles (at most the 3 copies of each spirit), the 5 left over out of the game; the
    stacks differ from game to game."""
    stacks = set()
    for seed in range(6):
        r = raw(new_game(3, seed))
        tiles = [s for stack in r["spirit_stack"] for s in stack]
        assert len(tiles) == 16 and all(tiles.count(s) <= 3 for s in range(7))
        assert sum(r["spirit_gone"]) == 0 and all(not any(p["spirits"]) for p in r["pl"])
        stacks.add(tuple(tiles))
    assert len(stacks) == 6


def test_board_setup_the_12_board_shoots_fill_the_shaded_spaces_at_random_I() -> None:
    """I: the 12 Bamboo Shoots with the board-setup icon go at random, face up, onto the 12 shaded spaces."""
    board = sorted(int(COMP.shoot_colour[i]) * 5 + int(COMP.shoot_action[i])
                   for i in range(36) if COMP.shoot_setup[i] == 1)
    layouts = set()
    for seed in range(5):
        field = [k for stalk in raw(new_game(2, seed))["stalk"] for k in stalk]
        assert sorted(field) == board
        layouts.add(tuple(field))
    assert len(board) == 12 and len(layouts) == 5


def test_home_tiles_four_types_comfort_1_to_3_two_categories_home_tiles() -> None:
    """Home Tiles, II: 64 tiles in two categories, each of one of 4 types (decoration, faith, garden, tools) with
    1, 2 or 3 comfort points; the engine's tie-break sums that comfort (VI)."""
    assert sorted(set(COMP.home_type.tolist())) == [0, 1, 2, 3]
    assert sorted(set(COMP.home_comfort.tolist())) == [1, 2, 3]
    assert sorted(set(COMP.home_category.tolist())) == [0, 1] and len(COMP.home_type) == 64
    state = last_summer_turn(11, round_=4)
    r = raw(state)
    assert state.comfort() == [sum(int(COMP.home_comfort[t]) for t in p["home"] if t != NO) for p in r["pl"][:2]]


def test_board_setup_food_counters_26_face_down_and_5_revealed_I() -> None:
    """I, Cook: 26 counters (6 tea, 12 rice, 8 ramen) mixed face down, 5 of them revealed on the board."""
    r = raw(new_game(2, 4))
    pile = r["food_pile"][:r["food_left"]]
    assert sum(r["food_display"]) == 5 and r["food_left"] == 21 and r["food_discard"] == [0, 0, 0]
    assert [r["food_display"][k] + pile.count(k) for k in range(3)] == [6, 12, 8]


def test_board_setup_starting_player_is_drawn_by_chance_I() -> None:
    """I: "Decide by chance who will be the Starting Player": over a few seeds every seat of 4 starts."""
    assert {new_game(4, seed).start_player for seed in range(40)} == {0, 1, 2, 3}


def test_board_setup_gift_tiles_are_fund_cook_balance_improve_I_spring() -> None:
    """I, Phase 1: the 4 gift tiles carry the Fund, Cook, Balance and Improve Your Home actions; with 4 players all
    four are revealed to the first player."""
    state = play_until(new_game(4, 3), lambda s: s.phase == "spring")
    assert sorted(names(state)) == ["gift balance", "gift cook", "gift fund", "gift improve"]


def test_board_setup_balance_markets_3_face_up_per_type_from_their_own_stacks_I() -> None:
    """I: the balance tiles are separated by type, each stack mixed, 3 revealed per type."""
    orders = set()
    for seed in range(3):
        r = raw(new_game(2, seed))
        for side in range(3):
            assert len(r["bal_market"][side]) == 3
            assert all(COMP.balance_side[t] == side for t in r["bal_market"][side])
            assert all(COMP.balance_side[t] == side for t in _stack_order(r, "bal_pile", BAL_BASE[side],
                                                                            BAL_SIZE[side], side))
        orders.add(tuple(r["bal_market"][0]))
    assert len(orders) == 3


def test_coin_reserve_is_unlimited_B22() -> None:
    """III (coins), B22: coins are one number and the reserve never runs out: Fund pays 2 even at 200 coins."""
    state, seat = summer_turn_placed()
    state = edited(state, lambda r: (r.__setitem__("unactivated", [0, 0, 0, 1, 0]),
                                     r["pl"][seat].__setitem__("coins", 200)))
    play(state, "activate fund")
    assert raw(state)["pl"][seat]["coins"] == 202


# ---- IV. The Game, V. turn order ---------------------------------------------------------------------------------
def test_four_rounds_of_spring_summer_autumn_winter_in_order_IV() -> None:
    """IV: 4 rounds, each Spring, Summer, (Autumn, which asks nothing), Winter (wake, feed), then the end."""
    state = new_game(3, 14)
    seen: list[tuple[int, str]] = [(state.round, state.phase)]
    rng = random.Random(14)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        if (state.round, state.phase) != seen[-1]:
            seen.append((state.round, state.phase))
    order = {"setup": 0, "spring": 1, "summer": 2, "wake": 3, "feed": 4, "end": 5}
    assert [rnd for rnd, _ in seen] == sorted(rnd for rnd, _ in seen)
    for rnd in range(1, 5):
        phases = [order[p] for r_, p in seen if r_ == rnd]
        assert phases == sorted(phases) and order["summer"] in phases
    assert seen[-1] == (4, "end")


def test_turns_go_clockwise_from_the_starting_player_V() -> None:
    """V (Starting Player Marker and the Order of Turns): the gifts of Spring and the first turns of Summer go
    clockwise from the seat holding the marker."""
    state = play_until(new_game(4, 21), lambda s: s.phase == "spring")
    start = state.start_player
    seats = []
    rng = random.Random(2)
    while state.phase == "spring":
        if state.decision == "gift":
            seats.append(state.current_player)
        state.apply(rng.choice(state.legal_actions()))
    assert seats == [(start + i) % 4 for i in range(3)]  # the fourth gift is forced
    turns = []
    while len(turns) < 4:
        if state.decision == "visit":
            turns.append(state.current_player)
        state.apply(rng.choice(state.legal_actions()))
    assert turns == [(start + i) % 4 for i in range(4)]


# ---- Phase 1. Spring ---------------------------------------------------------------------------------------------
def test_spring_a_chosen_gift_goes_face_down_and_is_not_offered_again_B7() -> None:
    """Phase 1, B7: the chosen gift tile goes back face down; later players that Spring choose among the rest."""
    state = play_until(new_game(3, 8), lambda s: s.phase == "spring")
    first = names(state)
    assert len(first) == 3
    play(state, first[0])
    state = play_until(state, lambda s: s.decision == "gift")
    assert names(state) == first[1:]


def test_spring_gift_improve_is_an_improve_your_home_action_B8() -> None:
    """B8: the improve gift asks the Improve Your Home decision (1 coin or a purchase)."""
    state = play_until(new_game(2, 3), lambda s: s.phase == "spring")
    state = edited(state, lambda r: r.__setitem__("gifts_up", 0b1001))  # fund and improve
    seat = state.current_player
    coins = raw(state)["pl"][seat]["coins"]
    play(state, "gift improve")
    assert state.decision == "improve" and names(state)[0] == "improve 1 coin"
    play(state, "improve 1 coin")
    assert raw(state)["pl"][seat]["coins"] == coins + 1


def test_spirits_are_not_used_in_spring_B8_B23() -> None:
    """B8, B23: awake Summer spirits are not offered at a gift or inside a gift's action."""
    state = play_until(new_game(2, 3), lambda s: s.phase == "summer" and s.round == 1)
    state = play_until(state, lambda s: s.round == 2 and s.phase == "spring", 3)
    seat = state.current_player

    def edit(r: Raw) -> None:
        give_spirits(r, seat, {KAPPA: 1, TANUKI: 1, ROKUROKUBI: 1, TENGU: 1})
        r["gifts_up"] = 0b0101  # fund and balance
    state = edited(state, edit)
    assert not any(n.startswith("use ") for n in names(state))
    play(state, "gift balance")
    assert state.decision == "balance" and not any(n.startswith("use ") for n in names(state))


# ---- Phase 2. Summer ---------------------------------------------------------------------------------------------
def test_offered_sticks_go_on_top_of_those_already_in_the_temple_summer_3() -> None:
    """Summer step 3: new sticks are placed on top of the sticks already in the temple (theirs or others')."""
    state = at_visit(2, 1, round_=2)
    seat = state.current_player
    r = raw(state)
    temple = next(t for t in range(4) if r["pl"][seat]["area"][t][0] != NO and t != r["pl"][seat]["last_visit"])
    play(state, f"visit temple {temple + 1}")
    while state.decision == "offer":
        play(state, f"incense in temple {temple + 1}")
    r = raw(state)
    assert r["incense_top"][temple][seat] == max(r["incense_top"][temple]) == r["stick_clock"]
    assert all(r["incense_top"][temple][s] < r["stick_clock"] for s in range(5) if s != seat)


def test_after_a_turn_the_next_player_in_turn_order_plays_summer_5() -> None:
    """Summer step 5: once a turn is over it is the next player's turn."""
    state, seat = summer_turn_placed()
    play(state, "done")
    while state.decision == "keep_shoot":
        state.apply(state.legal_actions()[0])
    assert state.decision == "visit" and state.current_player == 1 - seat


def test_balance_obtain_needs_a_free_slot_no_more_than_two_of_a_type_B18() -> None:
    """Balance, B18: "You cannot have more than 2 tiles of the same type": with two left tiles held, no left tile
    is offered; a scored tile frees its slot."""
    state, seat = summer_turn_placed()

    def edit(r: Raw) -> None:
        r["unactivated"] = [1, 0, 0, 0, 0]
        extra = r["bal_market"][0][2]
        r["bal_market"][0][2] = _stack_order(r, "bal_pile", 0, 24, 0)[0]
        r["bal_pile"][r["bal_top"][0]] = NO
        r["bal_top"][0] = (r["bal_top"][0] + 1) % 24
        r["bal_left"][0] -= 1
        r["bal_unseen"][0] = min(r["bal_unseen"][0], r["bal_left"][0])
        r["pl"][seat]["balance"][0][1] = extra
    state = edited(state, edit)
    play(state, "activate balance")
    offered = names(state)
    assert not any(n.startswith("obtain left") for n in offered)
    assert "obtain center balance 1" in offered and "obtain right balance 1" in offered


def test_balance_market_slides_down_and_reveals_a_tile_from_its_stack_B4() -> None:
    """Obtain Balance, B4: the tiles left slide down and a new one from the same stack fills the top position."""
    state, seat = summer_turn_placed()
    state = edited(state, lambda r: r.__setitem__("unactivated", [1, 0, 0, 0, 0]))
    before = raw(state)
    market, top = before["bal_market"][1], _stack_order(before, "bal_pile", 24, 20, 1)[0]
    play(state, "activate balance", "obtain center balance 1")
    r = raw(state)
    assert r["pl"][seat]["balance"][1][0] == market[0]
    assert r["bal_market"][1] == [market[1], market[2], top] and r["bal_left"][1] == before["bal_left"][1] - 1


def test_balance_market_of_an_empty_stack_is_not_refilled_B4() -> None:
    """Obtain Balance, B4: "If there are no more tiles of a certain type, then the space is left empty"."""
    state, seat = summer_turn_placed()

    def edit(r: Raw) -> None:
        r["unactivated"] = [1, 0, 0, 0, 0]
        for k in range(r["bal_left"][2]):  # the right stack leaves play as if scored
            at = 44 + (r["bal_top"][2] + k) % 24
            mark_scored(r["pl"][1 - seat], r["bal_pile"][at])
            r["bal_pile"][at] = NO
        r["bal_left"][2] = r["bal_unseen"][2] = 0
    state = edited(state, edit)
    market = raw(state)["bal_market"][2]
    play(state, "activate balance", "obtain right balance 2")
    assert raw(state)["bal_market"][2] == [market[0], market[2], NO]
    play(state, "obtain right balance 2")
    assert raw(state)["bal_market"][2] == [market[0], NO, NO]


def test_improve_market_slides_down_and_reveals_a_tile_from_its_stack_B4() -> None:
    """Improve Your Home, B4: the tiles left slide down and the dispenser fills the top position."""
    state, seat = summer_turn_placed()
    state = edited(state, lambda r: (r.__setitem__("unactivated", [0, 1, 0, 0, 0]),
                                     r["pl"][seat].__setitem__("coins", 9)))
    before = raw(state)
    market, top = before["home_market"][1], _stack_order(before, "home_pile", 32, 32, 1)[0]
    play(state, "activate improve", "buy home B 2", "home space r3c3")
    r = raw(state)
    assert r["pl"][seat]["home"][12] == market[1]
    assert r["home_market"][1] == [market[0], market[2], market[3], top]


def test_improve_market_of_an_empty_dispenser_is_not_refilled_B4() -> None:
    """Improve Your Home, B4: "If there are no more tiles in the dispenser, the empty space is not filled"."""
    state, seat = summer_turn_placed()
    other = 1 - seat

    def edit(r: Raw) -> None:
        r["unactivated"] = [0, 1, 0, 0, 0]
        r["pl"][seat]["coins"] = 20
        _clear_home(r, seat)
        _clear_home(r, other)
        pile = _stack_order(r, "home_pile", 0, 32, 0)
        cells = [(other, c) for c in range(15)] + [(seat, c) for c in range(15)]
        for (p, c), tile in zip(cells, pile, strict=False):  # category A's stack goes into the two homes
            r["pl"][p]["home"][c] = tile
        for k in range(len(pile)):
            r["home_pile"][(r["home_top"][0] + k) % 32] = NO
        r["home_left"][0] = r["home_unseen"][0] = 0
    state = edited(state, edit)
    assert raw(state)["home_left"][0] == 0
    market = raw(state)["home_market"][0]
    play(state, "activate improve", "buy home A 1")
    if state.decision == "home_space":
        state.apply(state.legal_actions()[0])
    assert raw(state)["home_market"][0] == [market[1], market[2], market[3], NO]


def test_cook_display_is_refilled_only_when_its_last_counter_is_taken_B21() -> None:
    """Cook, B21: "The food counters are only replenished once you have used all of those present"."""
    state, seat = summer_turn_placed()
    state = edited(state, lambda r: r.__setitem__("unactivated", [0, 0, 1, 0, 0]))
    shown = raw(state)["food_display"]
    left, held = raw(state)["food_left"], sum(raw(state)["pl"][seat]["food"])
    play(state, "activate cook")
    if state.decision == "cook":
        state.apply(state.legal_actions()[0])
    r = raw(state)
    assert sum(shown) >= 2 and sum(r["food_display"]) == sum(shown) - 1 and r["food_left"] == left
    assert sum(r["pl"][seat]["food"]) == held + 1


def test_a_spirit_used_sleeps_and_is_not_offered_again_that_turn_spirits() -> None:
    """The Spirits of the Forest: a used tile is turned (asleep) and cannot be used again until woken."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    state = edited(state, lambda r: give_spirits(r, seat, {ROKUROKUBI: 1}))
    state = play_until(state, lambda s: s.decision == "activate")
    play(state, "use Rokurokubi")
    assert "use Rokurokubi" not in names(state) and raw(state)["pl"][seat]["asleep"][ROKUROKUBI] == 1


# ---- Phase 4. Winter ---------------------------------------------------------------------------------------------
def test_feed_paid_counters_go_to_the_discards_winter_2() -> None:
    """Winter step 2: the counters paid are left aside, apart from the pile (the discards)."""
    state, seat = feed_position([1, 1, 0], 3, extra=lambda r, seat: _set_food(r, 1 - seat, [0, 0, 0]))
    discards = raw(state)["food_discard"]
    state = play_until(state, lambda s: s.round > 2)
    r = raw(state)
    assert r["pl"][seat]["food"] == [0, 0, 0]
    assert r["food_discard"] == [discards[0] + 1, discards[1] + 1, discards[2]]


def test_winter_balance_markets_lowest_tile_under_its_stack_and_food_refilled_B33() -> None:
    """Winter steps 4-5, B33: the lowest tile of each balance type and home category goes to the bottom of its
    stack, the others slide down and the top is filled; the food display is filled up to 5."""
    state = last_summer_turn(3, round_=1)
    play(state, "done")
    while state.phase == "summer":
        play(state, "done")
    before = raw(last_summer_turn(3, round_=1))
    state = play_until(state, lambda s: s.round == 2)
    after = raw(state)
    for side in range(3):
        low = before["bal_market"][side]
        stack = _stack_order(after, "bal_pile", BAL_BASE[side], BAL_SIZE[side], side)
        assert after["bal_market"][side][:2] == low[1:] and stack[-1] == low[0]
    for cat in range(2):
        low = before["home_market"][cat]
        stack = _stack_order(after, "home_pile", HOME_BASE[cat], HOME_SIZE[cat], cat)
        assert after["home_market"][cat][:3] == low[1:] and stack[-1] == low[0]
    assert sum(after["food_display"]) == 5


# ---- Advanced Game Mode, VI. End of the Game and Final Score ----------------------------------------------------
def test_final_harmony_example_5_left_8_right_loses_6_hp_VI() -> None:
    """VI: "5 comfort points on the left and 8 on the right is a 3-point difference, so the player loses 6 HP";
    the centre column counts for neither side."""
    state = last_summer_turn(11, round_=4)
    seat = state.current_player

    def edit(r: Raw) -> None:
        _clear_home(r, seat)
        for cell, comfort in ((0, 3), (5, 2), (4, 3), (9, 3), (14, 2), (2, 3), (7, 3)):
            r["pl"][seat]["home"][cell] = _home_tile(r, comfort)
    state = edited(state, edit)
    state = play_until(state, lambda s: s.is_terminal(), 11)
    assert state.score_breakdown()[seat]["harmony"] == -6


def test_final_spirits_two_hp_per_distinct_spirit_example_VI() -> None:
    """VI: "a player who has gathered 5 Spirits of the Forest, 4 of those unique, gets 8 HP", asleep ones too."""
    state = last_summer_turn(11, round_=4)
    seat, other = state.current_player, 1 - state.current_player

    def edit(r: Raw) -> None:
        face_up = [r["spirit_stack"][t][0] for t in range(4)]
        others = [s for s in range(7) if s not in face_up]
        give_spirits(r, seat, {others[0]: 2, others[1]: 1, others[2]: 1, face_up[0]: 1}, {others[0]: 1})
        # every stick of the seat goes to temple 1, where it wins; the other player's to temple 2
        for p in (seat, other):
            total = sum(r["incense"][t][p] for t in range(4))
            for t in range(4):
                r["incense"][t][p] = 0
                r["incense_top"][t][p] = 0
            r["incense"][0 if p == seat else 1][p] = total
        clock = r["stick_clock"]
        r["incense_top"][0][seat] = clock
        r["incense_top"][1][other] = clock - 1
        for t in range(4):
            if r["incense_top"][t][4] and t in (0, 1):
                r["incense_top"][t][4] = min(r["incense_top"][t][4], clock - 2)
    state = edited(state, edit)
    held = raw(state)["pl"][seat]["spirits"]
    assert sum(held) == 5 and sum(1 for n in held if n) == 4
    state = play_until(state, lambda s: s.is_terminal(), 11)
    held = raw(state)["pl"][seat]["spirits"]
    assert sum(held) == 6 and sum(1 for n in held if n) == 4  # the spirit won is one of a kind already held
    assert state.score_breakdown()[seat]["spirit_types"] == 8


def test_final_half_of_an_unscored_met_balance_tile_rounded_up_VI() -> None:
    """VI, B34: an unscored balance tile whose pattern is met gives half its HP rounded up (3 HP give 2)."""
    state = last_summer_turn(11, round_=4)
    seat = state.current_player
    odd = next(i for i in range(68) if COMP.balance_hp[i] % 2 and COMP.balance_side[i] == 0
               and COMP.balance_patterns[i].comfort_type < 0 and COMP.balance_patterns[i].min_comfort == 0)
    pattern = COMP.balance_patterns[odd]

    def edit(r: Raw) -> None:
        for side in range(3):
            for slot in range(2):
                tile = r["pl"][seat]["balance"][side][slot]
                if tile != NO:
                    _return_balance_tile(r, tile)
                    r["pl"][seat]["balance"][side][slot] = NO
        _clear_home(r, seat)
        if odd in r["bal_market"][0]:
            r["bal_market"][0][r["bal_market"][0].index(odd)] = _stack_order(r, "bal_pile", 0, 24, 0)[0]
            r["bal_pile"][r["bal_top"][0]] = NO
            r["bal_top"][0] = (r["bal_top"][0] + 1) % 24
        else:
            ring = _stack_order(r, "bal_pile", 0, 24, 0)
            ring.remove(odd)
            for k, t in enumerate([*ring, NO]):
                r["bal_pile"][(r["bal_top"][0] + k) % 24] = t
        r["bal_left"][0] -= 1
        r["bal_unseen"][0] = min(r["bal_unseen"][0], r["bal_left"][0])
        r["pl"][seat]["balance"][0][0] = odd
        occupied, *types = pattern.placements[0]
        for cell in range(15):
            if occupied >> cell & 1:
                kind = next((k for k in range(4) if types[k] >> cell & 1), None)
                r["pl"][seat]["home"][cell] = _home_tile(r, type_=kind)
    state = edited(state, edit)
    state = play_until(state, lambda s: s.is_terminal(), 11)
    assert state.score_breakdown()[seat]["half_balance"] == math.ceil(COMP.balance_hp[odd] / 2)
    assert COMP.balance_hp[odd] % 2 == 1


def test_game_can_not_continue_once_over_VI() -> None:
    """VI: once the fourth Winter is over nothing is legal and the scores are final."""
    state = play_until(new_game(2, 4), lambda s: s.is_terminal(), 4)
    assert state.legal_actions() == [] and state.phase == "end"
    assert state.scores() == [sum(b.values()) for b in state.score_breakdown()]


def test_ookami_gives_food_only_in_winter_not_offered_in_summer_spirits() -> None:
    """The Spirits of the Forest: Ookami acts in the feed step of Winter, never at a Summer activation."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    state = edited(state, lambda r: give_spirits(r, seat, {OOKAMI: 1}))
    state = play_until(state, lambda s: s.decision == "activate")
    assert "use Ookami" not in names(state)


def test_same_home_tiles_meet_several_balance_tiles_B19() -> None:
    """B19: scoring uses up no home tile, so one tile meets two balance tiles scored in one Balance action."""
    state, seat = summer_turn_placed()
    single, pair = 4, 13  # one tile of type 0 in the left part; type 0 and any tile to its right, 4 comfort
    assert COMP.balance_patterns[pair].min_comfort == 4

    def edit(r: Raw) -> None:
        r["unactivated"] = [1, 0, 0, 0, 0]
        _clear_balance(r, seat)
        _clear_home(r, seat)
        for j, tile in enumerate((single, pair)):
            _take_balance_tile(r, tile)
            r["pl"][seat]["balance"][0][j] = tile
        r["pl"][seat]["home"][0] = _home_tile(r, comfort=3, type_=0)
        r["pl"][seat]["home"][1] = _home_tile(r, comfort=1)
    state = edited(state, edit)
    hp = raw(state)["pl"][seat]["hp"][2]
    play(state, "activate balance")
    assert "score left balance 1" in names(state) and "score left balance 2" in names(state)
    play(state, "score left balance 1")
    assert "score left balance 1" in names(state)  # the tile left slides into the first slot
    play(state, "score left balance 1")
    r = raw(state)
    assert r["pl"][seat]["hp"][2] == hp + COMP.balance_hp[single] + COMP.balance_hp[pair]
    assert r["pl"][seat]["balance"][0] == [NO, NO] and r["pl"][seat]["home"][0] != NO


def test_improve_without_coins_for_any_tile_takes_the_coin_B20_B38() -> None:
    """B20, B38: a tile is offered only if the player can pay for it; with no coins the 1 coin is the only option
    and is taken automatically."""
    state, seat = summer_turn_placed()
    state = edited(state, lambda r: (r.__setitem__("unactivated", [0, 1, 0, 0, 0]),
                                     r["pl"][seat].__setitem__("coins", 0)))
    play(state, "activate improve")  # the last activation: the turn then ends by itself
    assert state.decision != "improve" and raw(state)["pl"][seat]["coins"] == 1


def test_kitsune_is_offered_only_while_it_changes_something_B24() -> None:
    """B24, B39: Kitsune is not offered when the only shoots left to activate are Wildcards."""
    state, _ = _placed_turn({KITSUNE: 1})
    assert "use Kitsune" not in names(edited(state, lambda r: r.__setitem__("unactivated", [0, 0, 0, 0, 1])))
    assert "use Kitsune" in names(edited(state, lambda r: r.__setitem__("unactivated", [0, 0, 1, 0, 1])))


def test_tengu_is_not_offered_without_a_counter_to_take_or_reveal_B25() -> None:
    """B25: with no counter on the display, in the pile or among the discards, Tengu is not offered."""
    state, seat = _placed_turn({TENGU: 1})
    assert "use Tengu" in names(state)

    def edit(r: Raw) -> None:
        pile = r["food_pile"][:r["food_left"]]
        for k in range(3):
            r["pl"][1 - seat]["food"][k] += r["food_display"][k] + pile.count(k) + r["food_discard"][k]
        r["food_display"], r["food_discard"], r["food_left"] = [0, 0, 0], [0, 0, 0], 0
        r["food_pile"] = [0] * 26
    assert "use Tengu" not in names(edited(state, edit))


def test_ookami_is_not_used_when_no_food_is_owed_B27() -> None:
    """B27: a player with no home tile owes nothing; Ookami is not offered and stays awake."""
    state, seat = feed_position([0, 2, 0], 0, ookami=True, extra=lambda r, seat: _clear_home(r, seat))
    seen: list[tuple[str, int]] = []

    def over(s: _bamboo.State) -> bool:
        seen.append((s.decision, s.current_player))
        return s.round > 2
    state = play_until(state, over)
    assert ("feed", seat) not in seen
    r = raw(state)
    assert r["pl"][seat]["asleep"][OOKAMI] == 0 and r["pl"][seat]["food"] == [0, 2, 0]


def test_the_fourth_winter_still_feeds_the_family_B6() -> None:
    """B6: the Winter of round 4 keeps its feed step: each home tile not fed costs 1 HP at the end."""
    state = last_summer_turn(11, round_=4)
    seat = state.current_player

    def edit(r: Raw) -> None:
        _clear_home(r, seat)
        for cell in (0, 1, 2):
            r["pl"][seat]["home"][cell] = _home_tile(r)
        _set_food(r, seat, [0, 0, 0])
        give_spirits(r, seat, {})                   # no Ookami, no Tengu: no food to come
    state = edited(state, edit)
    hunger = raw(state)["pl"][seat]["hp"][4]
    while state.phase == "summer":
        play(state, "done")
    state = play_until(state, lambda s: s.is_terminal(), 11)
    assert state.score_breakdown()[seat]["hunger"] == hunger - 3


def test_winter_market_tile_comes_straight_back_when_its_stack_is_empty_B33() -> None:
    """B33: the lowest tile goes under its stack; if that stack held nothing else, it comes straight back on top."""
    state = last_summer_turn(3, round_=1)
    seat = state.current_player

    def edit(r: Raw) -> None:
        for k in range(r["bal_left"][2]):
            at = 44 + (r["bal_top"][2] + k) % 24
            mark_scored(r["pl"][1 - seat], r["bal_pile"][at])
            r["bal_pile"][at] = NO
        r["bal_left"][2] = r["bal_unseen"][2] = 0
    state = edited(state, edit)
    market = raw(state)["bal_market"][2]
    while state.phase == "summer":
        play(state, "done")
    state = play_until(state, lambda s: s.round == 2)
    r = raw(state)
    assert r["bal_market"][2] == [market[1], market[2], market[0]] and r["bal_left"][2] == 0


def test_an_unscored_balance_tile_not_met_gives_nothing_at_the_end_VI() -> None:
    """VI: "If the pattern is not fulfilled there are no effects at all"."""
    state = last_summer_turn(11, round_=4)
    seat = state.current_player

    def edit(r: Raw) -> None:
        _clear_balance(r, seat)
        _clear_home(r, seat)
        _take_balance_tile(r, 4)  # one tile of type 0 in the left part: an empty home does not meet it
        r["pl"][seat]["balance"][0][0] = 4
    state = play_until(edited(state, edit), lambda s: s.is_terminal(), 11)
    assert raw(state)["pl"][seat]["balance"][0][0] == 4
    assert state.score_breakdown()[seat]["half_balance"] == 0


def _at_wake(spirit: int, coins: int) -> tuple[_bamboo.State, int, list[tuple[str, int]]]:
    """Winter of round 2 with the seat holding one sleeping `spirit` and `coins`: the state at the seat's wake
    decision (or after the wake step), the seat, and the decisions met on the way."""
    state = last_summer_turn(5, round_=2)
    seat = state.current_player
    state = edited(state, lambda r: (give_spirits(r, seat, {spirit: 1}, {spirit: 1}),
                                     r["pl"][seat].__setitem__("coins", coins)))
    while state.phase == "summer":
        play(state, "done")
    seen: list[tuple[str, int]] = []

    def reached(s: _bamboo.State) -> bool:
        seen.append((s.decision, s.current_player))
        return (s.decision == "wake" and s.current_player == seat) or s.phase != "wake"
    return play_until(state, reached), seat, seen


@pytest.mark.parametrize("spirit", [KAPPA, TANUKI, ROKUROKUBI, OOKAMI, BAKENEKO, TENGU],
                         ids=lambda s: COMP.spirit_names[s])
def test_waking_a_spirit_costs_its_printed_coins_winter_1(spirit: int) -> None:
    """Winter step 1, The Spirits of the Forest: Kappa, Tanuki, Rokurokubi, Bakeneko and Tengu wake for 1 coin,
    Ookami for 2; a player short of the cost is not asked."""
    cost = int(COMP.spirit_wake_cost[spirit])
    assert cost == (2 if spirit == OOKAMI else 1)
    state, seat, seen = _at_wake(spirit, cost - 1)
    assert ("wake", seat) not in seen and raw(state)["pl"][seat]["asleep"][spirit] == 1
    state, seat, _ = _at_wake(spirit, cost)
    assert names(state) == [f"wake {COMP.spirit_names[spirit]}", "done"]
    play(state, f"wake {COMP.spirit_names[spirit]}")
    assert raw(state)["pl"][seat]["coins"] == 0 and raw(state)["pl"][seat]["asleep"][spirit] == 0


# ---- random games against a direct reading of the rulebook ------------------------------------------------------
SIDE_NAMES = ("left", "center", "right")
RANDOM_GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(3)]


def _home_cells(home: list[int]) -> list[tuple[int, int] | None]:
    return [None if t == NO else (int(COMP.home_type[t]), int(COMP.home_comfort[t])) for t in home]


@pytest.mark.parametrize(("players", "seed"), RANDOM_GAMES)
def test_autumn_spirits_go_to_the_majority_in_random_games_B29(players: int, seed: int) -> None:
    """Phase 3 step 1, B29, read directly at the end of every Summer: in each temple the most sticks (ghost
    included), a tie to the highest stick, takes the face-up spirit; nobody takes it from an empty temple."""
    state = new_game(players, seed)
    rng = random.Random(seed)
    summers = 0
    while not state.is_terminal():
        before = raw(state) if state.phase == "summer" else None
        state.apply(rng.choice(state.legal_actions()))
        if before is None or state.phase == "summer":
            continue
        summers += 1
        expected = [list(p["spirits"]) for p in before["pl"][:players]]
        for t in range(4):
            count, top = before["incense"][t], before["incense_top"][t]
            best = max(range(5), key=lambda q, count=count, top=top: (count[q], top[q]))
            if count[best] and best < players:
                expected[best][before["spirit_stack"][t][before["spirit_left"][t] - 1]] += 1
        assert [p["spirits"] for p in raw(state)["pl"][:players]] == expected
    assert summers == 4


@pytest.mark.parametrize(("players", "seed"), RANDOM_GAMES)
def test_final_score_sources_match_a_direct_reading_in_random_games_VI(players: int, seed: int) -> None:
    """VI, B34, read directly on the final homes: 2 HP per distinct spirit, -2 per point of left/right comfort
    difference, half (rounded up) of each unscored met balance tile, -1 per uncovered typed space (advanced)."""
    state = play_until(new_game(players, seed, mode="advanced" if seed % 2 else "normal"),
                       lambda s: s.is_terminal(), seed)
    r = raw(state)
    for seat, got in enumerate(state.score_breakdown()):
        p = r["pl"][seat]
        home = _home_cells(p["home"])
        left = sum(c[1] for i, c in enumerate(home) if c and i % 5 < 2)
        right = sum(c[1] for i, c in enumerate(home) if c and i % 5 > 2)
        assert got["spirit_types"] == 2 * sum(1 for n in p["spirits"] if n)
        assert got["harmony"] == -2 * abs(left - right)
        assert got["half_balance"] == sum(math.ceil(COMP.balance_hp[t] / 2) for side in p["balance"] for t in side
                                          if t != NO and pattern_fulfilled(COMP.balance_patterns[t], home))
        assert got["night_spaces"] == (-sum(p["home"][c] == NO for c in COMP.night_cells) if p["advanced"] else 0)


@pytest.mark.parametrize(("players", "seed"), RANDOM_GAMES)
def test_balance_offers_exactly_the_met_tiles_and_the_free_slots_in_random_games_B18_B19(players: int,
                                                                                          seed: int) -> None:
    """Balance, B18, B19, read directly at every Balance decision: a held tile may be scored exactly when its
    pattern is met in the player's home; a face-up tile may be obtained exactly when its type has a free slot."""
    state = new_game(players, seed)
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal():
        if state.decision == "balance":
            decisions += 1
            r = raw(state)
            p = r["pl"][state.current_player]
            home = _home_cells(p["home"])
            expected = set()
            for side in range(3):
                for j, t in enumerate(p["balance"][side]):
                    if t != NO and pattern_fulfilled(COMP.balance_patterns[t], home):
                        expected.add(f"score {SIDE_NAMES[side]} balance {j + 1}")
                if NO in p["balance"][side]:
                    expected |= {f"obtain {SIDE_NAMES[side]} balance {i + 1}"
                                 for i, t in enumerate(r["bal_market"][side]) if t != NO}
            assert {n for n in names(state) if n.startswith(("score", "obtain"))} == expected
        state.apply(rng.choice(state.legal_actions()))
    assert decisions > 0
