"""Bamboo's rules, one test per rule: rulebook sections by title, rulings by number (docs/bamboo_rulings.md).

Positions are built by editing saved states (the dict under to_dict()["state"]) and driven by action names.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from borabora_sim import _bamboo
from borabora_sim.games.bamboo import load_components, new_game

NO = 255
KAPPA, TANUKI, ROKUROKUBI, KITSUNE, OOKAMI, BAKENEKO, TENGU = range(7)
RAMEN = 2
COMP = load_components()
Raw = dict[str, Any]


# ---- building positions ----------------------------------------------------------------------------------------------
def edited(state: _bamboo.State, edit: Callable[[Raw], None]) -> _bamboo.State:
    """A copy of `state` after `edit` changed its raw fields; the load checks every law."""
    data = copy.deepcopy(state.to_dict())
    edit(data["state"])
    return _bamboo.State.from_dict(data, state.rules)


def names(state: _bamboo.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: _bamboo.State, *action_names: str) -> _bamboo.State:
    for name in action_names:
        state.apply(state.action_from_string(name))
    return state


def play_until(state: _bamboo.State, done: Callable[[_bamboo.State], bool], seed: int = 0) -> _bamboo.State:
    rng = random.Random(seed)
    while not done(state):
        state.apply(rng.choice(state.legal_actions()))
    return state


def raw(state: _bamboo.State) -> Raw:
    return state.to_dict()["state"]


def at_visit(players: int = 2, seed: int = 1, round_: int = 1, mode: str = "normal") -> _bamboo.State:
    """A state at the first visit decision of the given round's Summer."""
    return play_until(new_game(players, seed, mode=mode),
                      lambda s: s.round == round_ and s.decision == "visit", seed)


def kinds_of(r: Raw, seat: int) -> list[int]:
    return [k for area in r["pl"][seat]["area"] for k in area if k != NO]


def arrange(r: Raw, seat: int, areas: list[list[int]]) -> None:
    """Puts the given shoot kinds (the player's own) into the temple areas, front first."""
    assert sorted(k for area in areas for k in area) == sorted(kinds_of(r, seat))
    r["pl"][seat]["area"] = [area + [NO] * (4 - len(area)) for area in areas]


def give_spirits(r: Raw, seat: int, spirits: dict[int, int], asleep: dict[int, int] | None = None) -> None:
    """Gives `seat` the spirits (awake unless in `asleep`); removed spirits make up the count of 16."""
    for p in r["pl"][:len(r["pl"])]:
        if any(p["spirits"]):
            p["spirits"] = [0] * 7
            p["asleep"] = [0] * 7
    r["pl"][seat]["spirits"] = [spirits.get(s, 0) for s in range(7)]
    r["pl"][seat]["asleep"] = [(asleep or {}).get(s, 0) for s in range(7)]
    in_stacks = [0] * 7
    for t in range(4):
        for i in range(r["spirit_left"][t]):
            in_stacks[r["spirit_stack"][t][i]] += 1
    for t in range(4):  # a spirit given away is swapped out of the hidden part of the stacks where needed
        for i in range(r["spirit_left"][t] - 1):
            s = r["spirit_stack"][t][i]
            if in_stacks[s] + spirits.get(s, 0) > 3:
                u = next(u for u in range(7) if in_stacks[u] + spirits.get(u, 0) < 3)
                r["spirit_stack"][t][i] = u
                in_stacks[s] -= 1
                in_stacks[u] += 1
    missing = 16 - sum(in_stacks) - sum(spirits.values())
    gone = [0] * 7
    for s in range(7):
        take = min(3 - in_stacks[s] - spirits.get(s, 0), missing)
        gone[s] = take
        missing -= take
    assert missing == 0
    r["spirit_gone"] = gone


def mark_scored(player: Raw, tile: int) -> None:
    """Adds balance tile `tile` to a player's scored tiles (taking it out of play is the caller's)."""
    player["scored"][tile // 8] |= 1 << tile % 8
    player["n_scored"] += 1


def scored_tiles(player: Raw) -> list[int]:
    """The balance tiles a player has scored, by id."""
    return [tile for tile in range(68) if player["scored"][tile // 8] >> tile % 8 & 1]


def frame(state: _bamboo.State) -> dict[str, int]:
    r = raw(state)
    return r["stack"][r["sp"] - 1]


# ---- I. Board Set Up, III. Players' Set Up ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_board_and_starting_kit_I_and_III(players: int) -> None:
    """I and III.B-F: 5 HP, 3 coins, 3 sticks in reserve and 4 on the round spaces, 4 set-up shoots one per colour;
    12 shoots on the shaded spaces, 4 spirit stacks of 4, 5 food counters face up, 3 balance tiles per side and 4
    home tiles per category (B4)."""
    r = raw(new_game(players, 5))
    for seat in range(players):
        p = r["pl"][seat]
        assert (p["hp"][0], p["coins"], p["incense"], p["track"], p["last_visit"]) == (5, 3, 3, 4, -1)
        assert sorted(k // 5 for k in kinds_of(r, seat)) == [0, 1, 2, 3]
        assert [area[0] // 5 for area in p["area"]] == [0, 1, 2, 3]
    assert all(k != NO for stalk in r["stalk"] for k in stalk)
    assert r["spirit_left"] == [4, 4, 4, 4]
    assert sum(r["food_display"]) == 5
    assert all(NO not in market for market in r["bal_market"])
    assert all(NO not in market for market in r["home_market"])
    assert sum(k != NO for k in r["draft"]) == 2 * players


def test_setup_left_balance_tile_dealt_face_up_B3() -> None:
    """III.C, B3: each player holds one left balance tile in the first left slot, dealt after the market shows 3."""
    r = raw(new_game(4, 9))
    for seat in range(4):
        tile = r["pl"][seat]["balance"][0][0]
        assert COMP.balance_side[tile] == 0 and r["pl"][seat]["balance"][0][1] == NO
    assert r["bal_left"][0] == 24 - 3 - 4


def test_setup_player_sets_by_turn_order_B2() -> None:
    """B2: set k of the component file goes to the k-th player in turn order from the starting player."""
    state = new_game(3, 4)
    r = raw(state)
    for k in range(3):
        seat = (state.start_player + k) % 3
        own = {int(COMP.shoot_colour[i]) * 5 + int(COMP.shoot_action[i])
               for i in range(36) if COMP.shoot_set[i] == k + 1}
        assert set(kinds_of(r, seat)) == own


def test_setup_two_players_leave_three_plus_home_tiles_in_the_box_I() -> None:
    """I: with 2 players the home tiles marked 3+ are removed; with 3 they are all in play."""
    for players, expected in ((2, 0), (3, 8)):
        r = raw(new_game(players, 2))
        shown = [t for m in r["home_market"] for t in m]
        pile = [r["home_pile"][32 * c + (r["home_top"][c] + k) % 32]
                for c in range(2) for k in range(r["home_left"][c])]
        assert len(shown) + len(pile) == 56 + expected
        assert sum(bool(COMP.home_three_plus[t]) for t in shown + pile) == expected


def test_setup_two_player_ghost_incense_from_the_temple_tiles_B30() -> None:
    """I (2-player games), B30: each temple holds the ghost sticks its temple tile shows; no ghost with 3."""
    r = raw(new_game(2, 6))
    assert sorted(r["incense"][t][4] for t in range(4)) == sorted(COMP.temple_tile_incense.tolist())
    three = raw(new_game(3, 6))
    assert all(three["incense"][t][4] == 0 for t in range(4))


def test_draft_two_passes_in_turn_order_each_pick_to_its_colour_B1() -> None:
    """III.E, B1: the pool holds 2 pieces per player; first, second, ... then again in the same order; each pick
    goes to the area of its colour; the last pick is forced."""
    state = new_game(3, 12)
    order = []
    while state.phase == "setup":
        seat = state.current_player
        order.append(seat)
        kind = state.legal_actions()[0]
        before = raw(state)["pl"][seat]["area"][kind // 5].count(NO)
        state.apply(kind)
        if state.phase == "setup":
            assert raw(state)["pl"][seat]["area"][kind // 5].count(NO) == before - 1
    start = new_game(3, 12).start_player
    assert order == [(start + i) % 3 for i in range(5)]  # the sixth pick is the one piece left: forced
    r = raw(state)
    assert all(len(kinds_of(r, seat)) == 6 for seat in range(3))
    assert all(k == NO for k in r["draft"])


def test_a_loaded_draft_into_a_full_area_stays_playable_B40() -> None:
    """B1, B40: in play an area never overflows during the draft; in a loaded state whose area of the picked colour
    is full, the piece goes to the first area with room."""
    state = new_game(2, 12)
    seat = state.current_player
    kind = state.legal_actions()[0]
    own = kinds_of(raw(state), seat)
    areas: list[list[int]] = [[], [], [], []]
    areas[kind // 5] = own
    state = edited(state, lambda r: arrange(r, seat, areas))
    state.apply(kind)
    r = raw(state)
    first_free = next(t for t in range(4) if t != kind // 5)
    assert kind in r["pl"][seat]["area"][first_free] and state.check_invariants() is None


# ---- Phase 1. Spring -------------------------------------------------------------------------------------------------
def test_spring_stick_before_gift_and_gifts_per_player_B5_B7() -> None:
    """B5, B7: the first player has taken the round-1 stick (4 in reserve) when choosing; 2 gifts face up with 2
    players; the second player's gift is the one left (forced)."""
    state = play_until(new_game(2, 3), lambda s: s.phase == "spring")
    r = raw(state)
    seat = state.current_player
    assert (r["pl"][seat]["incense"], r["pl"][seat]["track"]) == (4, 3)
    assert (r["pl"][1 - seat]["incense"], r["pl"][1 - seat]["track"]) == (3, 4)
    assert bin(r["gifts_up"]).count("1") == 2
    gifts = [a for a in names(state) if a.startswith("gift")]
    assert len(gifts) == 2


def test_gift_fund_gives_two_coins_B8() -> None:
    """B8, Fund: the fund gift gives 2 coins at once."""
    state = play_until(new_game(2, 3), lambda s: s.phase == "spring")
    state = edited(state, lambda r: r.__setitem__("gifts_up", 0b0011))  # tiles 0 (fund) and 1 (cook)
    seat = state.current_player
    coins = raw(state)["pl"][seat]["coins"]
    play(state, "gift fund")
    assert raw(state)["pl"][seat]["coins"] == coins + 2


def test_gift_balance_is_a_full_balance_action_B8_B18() -> None:
    """B8: the balance gift asks the Balance decision with all its options (1 HP, obtain, score)."""
    state = play_until(new_game(2, 3), lambda s: s.phase == "spring")
    state = edited(state, lambda r: r.__setitem__("gifts_up", 0b0101))  # fund and balance
    play(state, "gift balance")
    assert state.decision == "balance"
    assert names(state)[:2] == ["balance 1 HP", "obtain left balance 1"]  # one left slot still free
    assert "obtain center balance 1" in names(state) and "done" not in names(state)


def test_gift_cook_without_any_counter_does_nothing_B21_B40() -> None:
    """B21, B40: a Cook with no counter to take does nothing, and the decision without a legal action is skipped."""
    state = play_until(new_game(2, 3), lambda s: s.phase == "spring")
    seat = state.current_player

    def edit(r: Raw) -> None:
        r["gifts_up"] = 0b0011  # fund and cook
        for p in range(2):
            r["pl"][p]["food"] = [0, 0, 0]
        r["pl"][seat]["food"] = [6, 12, 8]
        r["food_display"], r["food_discard"], r["food_left"] = [0, 0, 0], [0, 0, 0], 0
        r["food_pile"] = [0] * 26
    state = edited(state, edit)
    play(state, "gift cook")
    r = raw(state)
    assert r["pl"][seat]["food"] == [6, 12, 8] and r["pl"][seat]["gifts"][2] == 1
    assert state.phase == "summer" and state.check_invariants() is None


# ---- Phase 2. Summer -------------------------------------------------------------------------------------------------
def test_visit_needs_shoots_and_differs_from_the_previous_area_B10() -> None:
    """Summer step 2, B10: only areas with a shoot, never the area of the previous turn (an earlier Summer too)."""
    state = at_visit(2, 1)
    seat = state.current_player
    r = raw(state)
    ks = kinds_of(r, seat)

    free = edited(state, lambda r: arrange(r, seat, [ks[:3], [], ks[3:], []]))
    assert names(free) == ["visit temple 1", "visit temple 3"]

    def edit(r: Raw) -> None:
        arrange(r, seat, [ks[:3], [], ks[3:], []])
        r["pl"][seat]["last_visit"] = 2
    assert names(edited(state, edit)) == ["visit temple 1"]


def test_offering_is_min_of_shoots_and_incense_with_paid_other_temples_B11() -> None:
    """Summer step 3, B11: 3 shoots and 4 sticks give 3 sticks; the visited temple is free, a lower one costs 1
    coin, a higher one a coin for each stick still to place; sticks go in temple order."""
    state = at_visit(2, 1)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)

    def edit(r: Raw) -> None:
        arrange(r, seat, [ks[3:4], ks[:3], ks[4:5], ks[5:]])
        r["pl"][seat]["coins"] = 2
    state = edited(state, edit)
    play(state, "visit temple 2")
    assert state.decision == "offer" and frame(state)["a"] == 3
    assert names(state) == ["incense in temple 1", "incense in temple 2"]  # temple 3 or 4 would need 3 coins
    play(state, "incense in temple 1")
    assert raw(state)["pl"][seat]["coins"] == 1
    assert names(state) == ["incense in temple 1", "incense in temple 2"]
    play(state, "incense in temple 2")
    assert names(state) == ["incense in temple 2", "incense in temple 3", "incense in temple 4"]
    play(state, "incense in temple 4")
    r = raw(state)
    assert r["pl"][seat]["coins"] == 0 and r["pl"][seat]["sticks_paid"] == 2
    assert [r["incense"][t][seat] for t in range(4)] == [1, 1, 0, 1]
    assert r["stack"][0]["a"] == 3  # three activations


def test_bakeneko_makes_the_offering_free_B12() -> None:
    """B12, B23: Bakeneko is offered before the first stick; then every temple is free."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)

    def edit(r: Raw) -> None:
        arrange(r, seat, [ks[:2], ks[2:4], ks[4:5], ks[5:]])
        r["pl"][seat]["coins"] = 0
        r["pl"][seat]["last_visit"] = 3
        give_spirits(r, seat, {BAKENEKO: 1})
    state = edited(state, edit)
    play(state, "visit temple 1")
    assert names(state) == ["incense in temple 1", "use Bakeneko"]
    play(state, "use Bakeneko")
    assert names(state) == [f"incense in temple {t}" for t in (1, 2, 3, 4)]
    play(state, "incense in temple 3", "incense in temple 4")
    r = raw(state)
    assert r["pl"][seat]["sticks_free"] == 2 and r["pl"][seat]["asleep"][BAKENEKO] == 1


def test_rokurokubi_and_bakeneko_only_before_the_first_stick_B23() -> None:
    """B23: at the offering, Rokurokubi (+2 coins) and Bakeneko are offered before the first stick only."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)

    def edit(r: Raw) -> None:
        arrange(r, seat, [ks[:3], ks[3:4], ks[4:5], ks[5:]])
        r["pl"][seat]["last_visit"] = 3
        r["pl"][seat]["coins"] = 0
        give_spirits(r, seat, {ROKUROKUBI: 1, BAKENEKO: 1})
    state = edited(state, edit)
    play(state, "visit temple 1")
    assert names(state)[-2:] == ["use Rokurokubi", "use Bakeneko"]
    play(state, "use Rokurokubi")
    assert raw(state)["pl"][seat]["coins"] == 2 and names(state)[-1] == "use Bakeneko"
    play(state, "incense in temple 1")
    assert not any(n.startswith("use ") for n in names(state))


def test_tanuki_before_the_offering_pays_for_a_stick_in_another_temple_B23() -> None:
    """B23: "At any moment during that player's turn, they may activate the reward of the Spirit of the Forest
    tile", and Summer step 3: "Players may place 1 or more sticks of incense in a temple of a different color by
    paying 1 coin for each stick". With no coin and an awake Tanuki, the Improve Your Home action taken as 1 coin
    before the offering pays for a stick in another temple; without Tanuki both sticks go to the visited one."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)

    def visit(spirits: dict[int, int]) -> _bamboo.State:
        def edit(r: Raw) -> None:
            arrange(r, seat, [ks[:2], ks[2:4], ks[4:5], ks[5:]])
            r["pl"][seat]["coins"] = 0
            r["pl"][seat]["last_visit"] = 3
            give_spirits(r, seat, spirits)
        return play(edited(state, edit), "visit temple 1")
    without = visit({})
    assert [raw(without)["incense"][t][seat] for t in range(4)] == [2, 0, 0, 0]     # the offering was forced
    state = visit({TANUKI: 1})
    assert state.decision == "offer" and names(state) == ["incense in temple 1", "use Tanuki"]
    before = raw(state)["pl"][seat]
    play(state, "use Tanuki")                       # its Improve Your Home action, taken as 1 coin
    p = raw(state)["pl"][seat]
    assert (p["coins"], p["asleep"][TANUKI]) == (1, 1)
    assert (p["improve_coins"], p["actions"][1]) == (before["improve_coins"] + 1, before["actions"][1] + 1)
    # 1 coin pays for 1 of the 2 sticks: the first went to temple 1 by itself, the second may go anywhere
    assert frame(state)["a"] == 1 and names(state) == [f"incense in temple {t}" for t in (1, 2, 3, 4)]
    play(state, "incense in temple 3")
    r = raw(state)
    assert [r["incense"][t][seat] for t in range(4)] == [1, 0, 1, 0]
    assert r["pl"][seat]["coins"] == 0 and r["pl"][seat]["sticks_paid"] == before["sticks_paid"] + 1
    assert r["stack"][0]["a"] == 2                  # both sticks count for the activations


def test_spirits_are_offered_before_the_offering_only_where_they_change_it_B23() -> None:
    """B23, B39: before the first stick, Bakeneko, and Rokurokubi and Tanuki while their coins would let more sticks
    go to other temples; not Kappa, Kitsune or Tengu, which change nothing there, and no spirit after the first
    stick or on the stalks. A coin spirit not offered there is still offered at the activations."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)
    offered = {TANUKI: 1, ROKUROKUBI: 1, BAKENEKO: 1}

    def offering(coins: int, spirits: dict[int, int]) -> _bamboo.State:
        def edit(r: Raw) -> None:
            arrange(r, seat, [ks[:3], ks[3:4], ks[4:5], ks[5:]])
            r["pl"][seat]["coins"] = coins
            r["pl"][seat]["last_visit"] = 3
            give_spirits(r, seat, spirits)
        return play(edited(state, edit), "visit temple 1")

    def used(s: _bamboo.State) -> list[str]:
        return [n for n in names(s) if n.startswith("use ")]

    assert frame(offering(0, offered))["a"] == 3
    assert used(offering(2, offered)) == ["use Tanuki", "use Rokurokubi", "use Bakeneko"]     # 2 coins, 3 sticks
    assert used(offering(0, {KAPPA: 1, KITSUNE: 1, TENGU: 1})) == []
    rich = offering(3, {TANUKI: 1, ROKUROKUBI: 1})                   # 3 coins: every temple for every stick
    assert used(rich) == [] and names(rich) == [f"incense in temple {t}" for t in (1, 2, 3, 4)]
    play(rich, "incense in temple 1", "incense in temple 1", "incense in temple 1")
    assert rich.decision == "stalk" and used(rich) == []
    rich = play_until(rich, lambda s: s.decision == "activate")
    assert {"use Tanuki", "use Rokurokubi"} <= set(used(rich))
    free = offering(0, offered)
    play(free, "use Bakeneko")                      # every temple is free: coins change nothing
    assert used(free) == []


def test_shoots_go_on_stalks_in_order_at_most_two_each_B13() -> None:
    """Summer step 4, B13: stalks in non-decreasing order, at most 2 new shoots each, room kept for the rest."""
    state = at_visit(2, 1)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)
    state = edited(state, lambda r: arrange(r, seat, [ks[:3], ks[3:4], ks[4:5], ks[5:]]))
    play(state, "visit temple 1")
    while state.decision == "offer":
        play(state, "incense in temple 1")
    assert state.decision == "stalk"
    assert names(state) == ["stalk 1", "stalk 2", "stalk 3"]  # stalk 4 alone has no room for 3 shoots
    play(state, "stalk 2")
    if state.decision == "shoot":
        state.apply(state.legal_actions()[0])
    play(state, "stalk 2")
    if state.decision == "shoot":
        state.apply(state.legal_actions()[0])
    assert names(state) == ["stalk 3", "stalk 4"]
    assert sum(k != NO for k in raw(state)["stalk_new"][1]) == 2


def summer_turn_placed(seed: int = 1) -> tuple[_bamboo.State, int]:
    """A turn at its first activate decision: 3 shoots of area 1 on stalks 1, 1, 2 with 3 sticks."""
    state = at_visit(2, seed)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)
    state = edited(state, lambda r: arrange(r, seat, [ks[:3], ks[3:4], ks[4:5], ks[5:]]))
    play(state, "visit temple 1")
    while state.decision == "offer":
        play(state, "incense in temple 1")
    for stalk in ("stalk 1", "stalk 1", "stalk 2"):
        play(state, stalk)
        if state.decision == "shoot":
            state.apply(state.legal_actions()[0])
    return state, seat


def test_the_worked_example_of_a_summer_turn() -> None:
    """docs/bamboo_actions.md, "A Summer turn, step by step": round 2, the previous visit in temple 1, 2 sticks,
    1 coin and an awake Rokurokubi; area 3 holds C3 cook, C1 fund (an earlier overflow) and C3 wildcard."""
    state = at_visit(2, 3, round_=2)
    seat = state.current_player
    c3_cook, c1_fund, c3_wild = 2 * 5 + 2, 0 * 5 + 3, 2 * 5 + 4

    def edit(r: Raw) -> None:
        own = kinds_of(r, seat)
        spare = [k for k in own if k not in (c3_cook, c1_fund, c3_wild)]
        for k in (c3_cook, c1_fund, c3_wild):
            if k in own:
                continue
            give = spare.pop()
            own[own.index(give)] = k
            for holder in [r["stalk"][s] for s in range(4)] + [r["pl"][1 - seat]["area"][t] for t in range(4)]:
                if k in holder:  # the piece changes places with the one given up, keeping every count
                    holder[holder.index(k)] = give
                    break
        others = [k for k in own if k not in (c3_cook, c1_fund, c3_wild)]
        areas = [[], others[:1], [c3_cook, c1_fund, c3_wild], others[1:]]
        r["pl"][seat]["area"] = [area + [NO] * (4 - len(area)) for area in areas]
        r["pl"][seat]["last_visit"] = 0
        r["pl"][seat]["coins"] = 1
        r["pl"][seat]["incense"] -= 3
        r["incense"][0][seat], r["incense_top"][0][seat], r["stick_clock"] = 3, 1, 1
        give_spirits(r, seat, {ROKUROKUBI: 1})
    state = edited(state, edit)
    assert names(state) == ["visit temple 2", "visit temple 3", "visit temple 4"]
    play(state, "visit temple 3")
    assert names(state) == ["incense in temple 1", "incense in temple 2", "incense in temple 3", "use Rokurokubi"]
    play(state, "use Rokurokubi")
    assert raw(state)["pl"][seat]["coins"] == 3
    assert names(state) == [f"incense in temple {t}" for t in (1, 2, 3, 4)]
    play(state, "incense in temple 3")
    assert names(state) == ["incense in temple 3", "incense in temple 4"]
    play(state, "incense in temple 4")
    assert raw(state)["pl"][seat]["coins"] == 2
    assert names(state) == ["stalk 1", "stalk 2", "stalk 3"]
    play(state, "stalk 2", "shoot C3 cook")
    assert names(state) == ["stalk 2", "stalk 3", "stalk 4"]
    play(state, "stalk 2", "shoot C1 fund")
    assert names(state) == ["stalk 3", "stalk 4"]
    play(state, "stalk 4")  # one kind left: `shoot C3 wildcard` is taken automatically
    assert raw(state)["stalk_new"] == [[NO, NO], [c3_cook, c1_fund], [NO, NO], [c3_wild, NO]]
    assert names(state) == ["activate cook", "activate fund"] + [
        f"activate wildcard as {x}" for x in ("balance", "improve", "cook", "fund")] + ["done"]
    play(state, "activate fund")
    assert raw(state)["pl"][seat]["coins"] == 4
    assert names(state) == ["activate cook"] + [
        f"activate wildcard as {x}" for x in ("balance", "improve", "cook", "fund")] + ["done"]
    play(state, "activate wildcard as improve")
    assert names(state)[0] == "improve 1 coin" and "buy home B 2" in names(state)
    tile = raw(state)["home_market"][1][1]
    field, declined = raw(state)["stalk"], raw(state)["pl"][seat]["declined"]
    play(state, "buy home B 2", "home space r2c4")  # then only `done` is left: the turn ends
    r = raw(state)
    assert r["pl"][seat]["home"][8] == tile and r["pl"][seat]["coins"] == 4 - COMP.home_cost[tile]
    assert r["stalk"][1] == [*field[1][2:], c3_cook, c1_fund] and r["stalk"][3] == [*field[3][1:], c3_wild]
    assert r["pl"][seat]["declined"] == declined and r["visit"] == -1


def test_activate_by_icon_then_done_declines_the_rest_B14_B15() -> None:
    """B14, B15: activations by the shoots' icons; `done` declines the activations left."""
    state, seat = summer_turn_placed()
    assert state.decision == "activate" and frame(state)["a"] == 3
    assert names(state)[-1] == "done"
    first = next(n for n in names(state) if n.startswith("activate "))
    play(state, first)
    while state.decision != "activate":
        state.apply(state.legal_actions()[0])
    play(state, "done")
    r = raw(state)
    assert r["pl"][seat]["declined"] == 2 and r["pl"][seat]["turns"] == 1


def test_end_of_turn_pushes_bottom_shoots_to_the_player_B16() -> None:
    """Summer step 5, B16: a stalk that received k shoots pushes its k bottom shoots to the player; the new ones
    sink into the shaded part, the first placed deepest."""
    state, seat = summer_turn_placed()
    before = raw(state)
    pushed = before["stalk"][0][:2] + before["stalk"][1][:1]
    new1, new2 = before["stalk_new"][0], before["stalk_new"][1]
    play(state, "done")
    after = raw(state)
    assert after["stalk"][0] == before["stalk"][0][2:] + new1
    assert after["stalk"][1] == before["stalk"][1][1:] + new2[:1]
    got = sorted(kinds_of(after, seat) + [k for k in after["received"] if k != NO])
    assert sorted(kinds_of(before, seat) + pushed) == got


def test_received_shoot_of_a_full_area_asks_where_to_keep_it_B17() -> None:
    """Summer step 5, B17: a shoot whose own area is full goes to an area of the player's choice with room."""
    state, seat = summer_turn_placed()
    own = kinds_of(raw(state), seat)  # the 3 shoots not visited
    shaded = [k for stalk in raw(state)["stalk"] for k in stalk]
    colour = next(c for c in range(4) if sum(k // 5 == c for k in shaded) >= 2)

    def edit(r: Raw) -> None:
        areas: list[list[int]] = [[], [], [], []]
        areas[colour] = own
        arrange(r, seat, areas)
        first = [k for k in shaded if k // 5 == colour][:2]  # the two shoots stalk 1 pushes off
        rest = list(shaded)
        for k in first:
            rest.remove(k)
        rest.sort(key=lambda k: k // 5 == colour)  # the one stalk 2 pushes off is of another colour
        column = first + rest
        r["stalk"] = [column[0:3], column[3:6], column[6:9], column[9:12]]
    state = edited(state, edit)
    play(state, "done")
    assert state.decision == "keep_shoot" and state.current_player == seat
    assert names(state) == [f"keep shoot in area {t + 1}" for t in range(4) if t != colour]
    play(state, names(state)[0])
    r = raw(state)
    assert r["pl"][seat]["overflow"] == 1 and len(kinds_of(r, seat)) == 6


def test_fund_gives_two_coins_and_balance_one_hp_actions() -> None:
    """Bamboo Shoot Actions: Fund +2 coins; Balance as 1 HP (B18)."""
    state, seat = summer_turn_placed()
    state = edited(state, lambda r: r.__setitem__("unactivated", [1, 0, 0, 1, 0]))
    coins = raw(state)["pl"][seat]["coins"]
    play(state, "activate fund")
    assert raw(state)["pl"][seat]["coins"] == coins + 2
    play(state, "activate balance", "balance 1 HP")
    assert raw(state)["pl"][seat]["hp"][1] == 1


def test_balance_obtain_then_score_the_same_tile_B18_B19() -> None:
    """B18, B19: obtain + score in one Balance; the pattern is checked in the tile's region when scored."""
    state, seat = summer_turn_placed()
    r0 = raw(state)
    held = {t for p in r0["pl"] for side in p["balance"] for t in side}
    single = next(i for i in range(68) if COMP.balance_side[i] == 0 and i not in held
                  and COMP.balance_patterns[i].comfort_type < 0
                  and bin(COMP.balance_patterns[i].placements[0][0]).count("1") == 1)
    kind = next(t for t in range(4) if COMP.balance_patterns[single].placements[0][1 + t])
    home = next(i for i in range(64) if COMP.home_type[i] == kind and not COMP.home_three_plus[i] and _in_play(r0, i))

    def edit(r: Raw) -> None:
        r["unactivated"] = [1, 0, 0, 0, 0]
        _take_home_tile(r, home)
        r["pl"][seat]["home"][5] = home  # r2c1, inside the left part
        _swap_balance_to_market(r, single, 0, 0)
    state = edited(state, edit)
    play(state, "activate balance", "obtain left balance 1")
    assert "score left balance 2" in names(state) and "done" in names(state) and "balance 1 HP" not in names(state)
    play(state, "score left balance 2")
    r = raw(state)
    assert r["pl"][seat]["hp"][2] == COMP.balance_hp[single] and r["pl"][seat]["n_scored"] == 1
    assert scored_tiles(r["pl"][seat]) == [single]          # kept in front of its owner, in view of all
    assert r["pl"][seat]["balance"][0][1] == NO


def _take_home_tile(r: Raw, tile: int) -> None:
    """Takes `tile` out of its market or pile, putting another tile of the pile in its place."""
    for cat in range(2):
        market = r["home_market"][cat]
        if tile in market:
            i = market.index(tile)
            base = 0 if cat == 0 else 32
            size = 32
            top, left = r["home_top"][cat], r["home_left"][cat]
            market[i] = r["home_pile"][base + top]
            r["home_pile"][base + top] = NO
            r["home_top"][cat] = (top + 1) % size
            r["home_left"][cat] = left - 1
            r["home_unseen"][cat] = min(r["home_unseen"][cat], left - 1)
            return
        base = 0 if cat == 0 else 32
        ring = [(r["home_top"][cat] + k) % 32 for k in range(r["home_left"][cat])]
        tiles = [r["home_pile"][base + j] for j in ring]
        if tile in tiles:
            tiles.remove(tile)
            for j, t in zip(ring, [*tiles, NO], strict=True):
                r["home_pile"][base + j] = t
            r["home_left"][cat] -= 1
            r["home_unseen"][cat] = min(r["home_unseen"][cat], r["home_left"][cat])
            return
    raise AssertionError(f"home tile {tile} is not in a market or pile")


def _swap_balance_to_market(r: Raw, tile: int, side: int, pos: int) -> None:
    """Swaps `tile` (in its side's pile or market) with the tile at market position `pos`."""
    market = r["bal_market"][side]
    if tile in market:
        i = market.index(tile)
        market[i], market[pos] = market[pos], market[i]
        return
    j = r["bal_pile"].index(tile)
    r["bal_pile"][j], market[pos] = market[pos], tile


def test_improve_buys_a_tile_for_its_cost_and_places_it_B20() -> None:
    """Improve Your Home, B20: 1 coin, or a tile the player can pay for; its HP at once; then a home space."""
    state, seat = summer_turn_placed()
    state = edited(state, lambda r: (r.__setitem__("unactivated", [0, 1, 0, 0, 0]),
                                     r["pl"][seat].__setitem__("coins", 9)))
    play(state, "activate improve")
    assert names(state)[0] == "improve 1 coin" and len(names(state)) == 9
    tile = raw(state)["home_market"][0][0]
    play(state, "buy home A 1")
    assert state.decision == "home_space" and len(names(state)) == 15
    play(state, "home space r1c1")
    r = raw(state)
    assert r["pl"][seat]["home"][0] == tile
    assert r["pl"][seat]["coins"] == 9 - COMP.home_cost[tile]
    assert r["pl"][seat]["hp"][3] == COMP.home_hp[tile]


def test_advanced_side_typed_space_takes_only_its_type_B20_advanced_mode() -> None:
    """Advanced Game Mode, B20: a typed space of the night side takes only a tile of its type."""
    state = at_visit(2, 1, mode="advanced")
    seat = state.current_player
    ks = kinds_of(raw(state), seat)
    state = edited(state, lambda r: arrange(r, seat, [ks[:3], ks[3:4], ks[4:5], ks[5:]]))
    play(state, "visit temple 1")
    while state.decision == "offer":
        play(state, "incense in temple 1")
    while state.decision in ("stalk", "shoot"):
        state.apply(state.legal_actions()[0])
    state = edited(state, lambda r: (r.__setitem__("unactivated", [0, 1, 0, 0, 0]),
                                     r["pl"][seat].__setitem__("coins", 9)))
    play(state, "activate improve")
    tile = raw(state)["home_market"][0][0]
    play(state, "buy home A 1")
    typed = {int(c): int(t) for c, t in zip(COMP.night_cells, COMP.night_types, strict=True)}
    spaces = {int(n.split("r")[1][0]) * 5 - 5 + int(n[-1]) - 1 for n in names(state)}
    for cell, t in typed.items():
        assert (cell in spaces) == (t == COMP.home_type[tile])
    assert len(spaces) == 15 - sum(t != COMP.home_type[tile] for t in typed.values())


def test_cook_takes_a_counter_and_the_last_one_refills_the_display_B21() -> None:
    """Cook, B21: a counter by kind; taking the last face-up counter reveals 5 new ones."""
    state, seat = summer_turn_placed()

    def edit(r: Raw) -> None:
        r["unactivated"] = [0, 0, 1, 0, 0]
        shown = r["food_display"]
        back = [shown[0], shown[1], shown[2] - 1] if shown[2] else None
        if back is None:
            pytest.skip("no ramen on display")
        for k in range(3):
            for _ in range(back[k]):
                r["food_pile"][r["food_left"]] = k
                r["food_left"] += 1
        r["food_display"] = [0, 0, 1]
    state = edited(state, edit)
    play(state, "activate cook")
    r = raw(state)
    assert r["pl"][seat]["food"][RAMEN] == 1 and sum(r["food_display"]) == 5


def test_kitsune_turns_the_activations_into_wildcards_B24() -> None:
    """B24: after Kitsune every activation is `activate wildcard as`, for any unactivated shoot."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    ks = kinds_of(raw(state), seat)

    def edit(r: Raw) -> None:
        arrange(r, seat, [ks[:3], ks[3:4], ks[4:5], ks[5:]])
        r["pl"][seat]["last_visit"] = 3
        give_spirits(r, seat, {KITSUNE: 1})
    state = edited(state, edit)
    play(state, "visit temple 1")
    while state.decision in ("offer", "stalk", "shoot"):
        state.apply(state.legal_actions()[0])
    state = edited(state, lambda r: r.__setitem__("unactivated", [1, 1, 1, 0, 0]))
    assert "use Kitsune" in names(state) and "activate wildcard as fund" not in names(state)
    play(state, "use Kitsune")
    assert [n for n in names(state) if n.startswith("activate")] == [
        f"activate wildcard as {x}" for x in ("balance", "improve", "cook", "fund")]
    wild = raw(state)["pl"][seat]["wild_actions"]
    play(state, "activate wildcard as fund")
    assert raw(state)["pl"][seat]["wild_actions"] == wild + 1


def test_tengu_takes_a_counter_and_may_renew_the_display_B25() -> None:
    """B25: Tengu takes a counter and, if wished, renews the display: before the counter, after it, or not at all;
    the counters thrown out go to the discards."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player
    state = edited(state, lambda r: give_spirits(r, seat, {TENGU: 3}))
    state = play_until(state, lambda s: s.decision == "activate" and "use Tengu" in names(s))
    taken = raw(state)["pl"][seat]["food_taken"]
    play(state, "use Tengu")  # renew, then take
    assert state.decision == "renew_food" and names(state)[-1] == "renew food"
    assert all(n.startswith("take ") for n in names(state)[:-1])
    thrown = sum(raw(state)["food_display"]) + sum(raw(state)["food_discard"])
    play(state, "renew food")
    assert sum(raw(state)["food_discard"]) == thrown
    assert state.decision in ("cook", "activate")  # a counter from the new display (forced if one kind)
    if state.decision == "cook":
        state.apply(state.legal_actions()[0])
    play(state, "use Tengu")  # take, then renew
    play(state, names(state)[0])
    assert state.decision == "renew_food" and names(state) == ["renew food", "done"]
    play(state, "renew food")
    assert state.decision == "activate"
    play(state, "use Tengu")  # take only
    play(state, names(state)[0], "done")
    r = raw(state)
    assert r["pl"][seat]["food_taken"] == taken + 3 and r["pl"][seat]["asleep"][TENGU] == 3


def test_cook_reshuffles_the_discards_when_the_pile_runs_out_B21() -> None:
    """B21: taking the last face-up counter with an empty pile shuffles the discards into a new pile and reveals 5."""
    state, _ = summer_turn_placed()

    def edit(r: Raw) -> None:
        r["unactivated"] = [0, 0, 1, 0, 0]
        pile = r["food_pile"][:r["food_left"]]
        discard = [r["food_display"][k] + pile.count(k) for k in range(3)]
        kind = next(k for k in range(3) if discard[k])
        discard[kind] -= 1
        r["food_display"] = [int(k == kind) for k in range(3)]
        r["food_discard"], r["food_left"], r["food_pile"] = discard, 0, [0] * 26
    state = edited(state, edit)
    before = sum(raw(state)["food_discard"])
    state.apply(state.action_from_string("activate cook"))
    r = raw(state)
    assert sum(r["food_display"]) == 5 and sum(r["food_discard"]) == 0 and r["food_left"] == before - 5


def test_kappa_tanuki_rokurokubi_give_extra_actions_B26() -> None:
    """B26: Kappa a Balance, Tanuki an Improve, Rokurokubi a Fund, with no shoot and no incense."""
    state = at_visit(2, 2, round_=2)
    seat = state.current_player

    def edit(r: Raw) -> None:
        give_spirits(r, seat, {KAPPA: 1, TANUKI: 1, ROKUROKUBI: 1})
        r["pl"][seat]["coins"] = 20                 # enough for any offering: no spirit is offered before it
    state = play_until(edited(state, edit), lambda s: s.decision == "activate")
    coins = raw(state)["pl"][seat]["coins"]
    play(state, "use Rokurokubi")
    assert raw(state)["pl"][seat]["coins"] == coins + 2
    play(state, "use Kappa")
    assert state.decision == "balance"
    play(state, "balance 1 HP", "use Tanuki")
    assert state.decision == "improve"
    play(state, "improve 1 coin")
    r = raw(state)
    assert r["pl"][seat]["coins"] == coins + 3 and r["pl"][seat]["asleep"][:3] == [1, 1, 1]


def test_player_without_incense_passes_and_summer_ends_when_all_have_B9() -> None:
    """Summer step 1, B9: only a player without incense passes; Summer ends when every player has passed."""
    state = at_visit(3, 4)
    seen_passed_with_incense = False
    rng = random.Random(1)
    while state.phase == "summer":
        r = raw(state)
        for seat in range(3):
            if r["passed"] >> seat & 1 and r["pl"][seat]["incense"] > 0:
                seen_passed_with_incense = True
        state.apply(rng.choice(state.legal_actions()))
    assert not seen_passed_with_incense
    assert state.phase in ("wake", "feed", "spring")


# ---- Phase 3. Autumn -------------------------------------------------------------------------------------------------
def last_summer_turn(seed: int = 3, round_: int = 1) -> _bamboo.State:
    """The last activate decision of a round's Summer (when `done` ends the Summer)."""
    state = at_visit(2, seed, round_)

    def last(s: _bamboo.State) -> bool:
        r = raw(s)
        return (s.decision == "activate" and r["pl"][1 - s.current_player]["incense"] == 0
                and r["pl"][s.current_player]["incense"] == 0)
    return play_until(state, last, seed)


def test_autumn_majority_takes_the_spirit_ties_to_the_last_offer_B29() -> None:
    """Phase 3 step 1, B29: the most sticks wins; a tie goes to the player whose highest stick lies highest; the
    ghost's sticks lie lowest; the spirit of a temple without incense leaves the game."""
    state = last_summer_turn()
    seat = state.current_player
    other = 1 - seat

    def edit(r: Raw) -> None:
        # 4 sticks each: temple 1 tied 2-2-2 with the ghost, the other player offered last; temple 2: 2-2 and the
        # ghost's 6; temples 3 and 4 empty
        r["incense"] = [[0] * 5 for _ in range(4)]
        r["incense_top"] = [[0] * 5 for _ in range(4)]
        for t, ghost in ((0, 2), (1, 6)):
            r["incense"][t][seat] = r["incense"][t][other] = 2
            r["incense"][t][4] = ghost
        # the turn in progress offered last, its 2 sticks in temple 2 (its stamp is the clock's, 3)
        r["incense_top"][0][seat], r["incense_top"][0][other] = 1, 2
        r["incense_top"][1][seat], r["incense_top"][1][other] = 3, 1
        r["stick_clock"], r["sticks_placed"] = 3, 2
    state = edited(state, edit)
    face_up = [raw(state)["spirit_stack"][t][3] for t in range(4)]
    gone = sum(raw(state)["spirit_gone"])
    play(state, "done")
    while state.phase == "summer":
        play(state, "done")
    r = raw(state)
    assert r["pl"][other]["spirits"][face_up[0]] == 1 and sum(r["pl"][seat]["spirits"]) == 0
    assert r["spirit_left"] == [3, 3, 3, 3]
    assert sum(r["spirit_gone"]) == gone + 3  # the ghost's temple 2 and the empty temples 3 and 4


def test_autumn_incense_comes_back_and_the_ghost_gets_new_sticks_B30() -> None:
    """Phase 3 step 2, B30: every stick goes back to its reserve; the ghost's sticks are dealt again."""
    state = play_until(new_game(2, 5), lambda s: s.phase == "wake" or (s.round == 2 and s.phase == "spring"))
    r = raw(state)
    assert all(r["incense"][t][s] == 0 for t in range(4) for s in range(4))
    assert sum(r["incense"][t][4] for t in range(4)) == sum(COMP.temple_tile_incense)
    assert [r["pl"][s]["incense"] + r["pl"][s]["track"] for s in range(2)] == [7, 7]


# ---- Phase 4. Winter -------------------------------------------------------------------------------------------------
def test_wake_pays_the_printed_cost_and_kitsune_wakes_free_B28() -> None:
    """Winter step 1, B28: sleeping spirits wake for their cost, one at a time in spirit order; Kitsune for free,
    without a decision."""
    state = last_summer_turn(5, round_=2)
    seat = state.current_player
    state = edited(state, lambda r: (give_spirits(r, seat, {KAPPA: 1, KITSUNE: 1, OOKAMI: 1},
                                                  {KAPPA: 1, KITSUNE: 1, OOKAMI: 1}),
                                     r["pl"][seat].__setitem__("coins", 3)))
    while state.phase == "summer":
        play(state, "done")
    state = play_until(state, lambda s: (s.decision == "wake" and s.current_player == seat) or s.phase != "wake")
    r = raw(state)
    assert r["pl"][seat]["asleep"][KITSUNE] == 0 and r["pl"][seat]["spirit_woken"][KITSUNE] == 1
    assert names(state) == ["wake Kappa", "wake Ookami", "done"]
    play(state, "wake Kappa")
    assert names(state) == ["wake Ookami", "done"]
    play(state, "wake Ookami")
    r = raw(state)
    assert r["pl"][seat]["coins"] == 0 and r["pl"][seat]["asleep"][:5] == [0, 0, 0, 0, 0]


def feed_position(food: list[int], homes: int, ookami: bool = False, seed: int = 5,
                  extra: Callable[[Raw, int], None] | None = None) -> tuple[_bamboo.State, int]:
    """A Winter of round 2 just before feeding: the seat to feed holds `food` and `homes` home tiles; `extra`
    edits the last Summer turn further."""
    state = last_summer_turn(seed, round_=2)
    seat = state.current_player

    def edit(r: Raw) -> None:
        for h in range(homes):
            tile = next(t for t in range(64) if COMP.home_type[t] == 0 and not COMP.home_three_plus[t]
                        and t not in [x for p in r["pl"] for x in p["home"]] and _in_play(r, t))
            _take_home_tile(r, tile)
            r["pl"][seat]["home"][[0, 1, 2, 3, 4, 5, 6, 8][h]] = tile
        _set_food(r, seat, food)
        if ookami:
            give_spirits(r, seat, {OOKAMI: 1})
        if extra:
            extra(r, seat)
    state = edited(state, edit)
    while state.phase == "summer":
        play(state, "done")
    return state, seat


def _in_play(r: Raw, tile: int) -> bool:
    markets = [t for m in r["home_market"] for t in m]
    pile = [r["home_pile"][(0 if c == 0 else 32) + (r["home_top"][c] + k) % 32]
            for c in range(2) for k in range(r["home_left"][c])]
    return tile in markets or tile in pile


def _set_food(r: Raw, seat: int, food: list[int]) -> None:
    """Gives `seat` the counters in `food`, taken from the pile (the pile keeps its other counters)."""
    for k in range(3):
        have = r["pl"][seat]["food"][k]
        while have < food[k]:
            j = r["food_pile"][:r["food_left"]].index(k)
            r["food_pile"][j] = r["food_pile"][r["food_left"] - 1]
            r["food_pile"][r["food_left"] - 1] = 0
            r["food_left"] -= 1
            have += 1
        while have > food[k]:
            r["food_pile"][r["food_left"]] = k
            r["food_left"] += 1
            have -= 1
        r["pl"][seat]["food"][k] = food[k]


def test_feed_must_pay_counters_and_loses_hp_per_unit_short_B31() -> None:
    """Winter step 2, B31: 3 home tiles owe 3 units; a player holding 1 rice pays it and loses 1 HP."""
    state, seat = feed_position([0, 1, 0], 3)
    hunger = raw(state)["pl"][seat]["hp"][4]
    state = play_until(state, lambda s: s.round > 2)
    r = raw(state)
    assert r["pl"][seat]["hp"][4] == hunger - 1 and r["pl"][seat]["food"] == [0, 0, 0]


def test_hp_can_fall_below_zero_B32() -> None:
    """B32: HP have no floor; a player at 0 who cannot feed the family goes below 0."""
    state, seat = feed_position([0, 0, 0], 2)

    def edit(r: Raw) -> None:
        r["pl"][seat]["hp"] = [0] * len(r["pl"][seat]["hp"])
    state = play_until(edited(state, edit), lambda s: s.round > 2)
    assert state.scores()[seat] == -2


def test_feed_offers_only_payments_that_complete_the_debt_B31_B39() -> None:
    """B31, B39: counters paid from the least nourishing kind up, a kind offered only when it and the larger
    ones cover what is owed; excess is lost."""
    state, seat = feed_position([1, 0, 1], 3)
    state = play_until(state, lambda s: s.decision == "feed" or s.round > 2)
    assert state.current_player == seat and names(state) == ["pay tea", "pay ramen"]
    play(state, "pay tea")
    assert names(state) == ["pay ramen"] or state.decision != "feed"
    r = raw(state)
    assert r["pl"][seat]["food"] == [0, 0, 0] and r["pl"][seat]["food_wasted"] == 1 and r["pl"][seat]["hp"][4] == 0


def test_ookami_pays_four_units_before_any_counter_B27() -> None:
    """B27: Ookami is offered before the first counter and pays 4 units (excess lost)."""
    state, seat = feed_position([0, 2, 0], 3, ookami=True)
    state = play_until(state, lambda s: s.decision == "feed" or s.round > 2)
    assert state.current_player == seat and names(state) == ["use Ookami", "pay rice"]
    play(state, "use Ookami")
    r = raw(state)
    assert r["pl"][seat]["food"] == [0, 2, 0] and r["pl"][seat]["food_wasted"] == 1


def test_ookami_won_in_autumn_feeds_the_family_that_winter_B28() -> None:
    """B28: a spirit won in Autumn arrives awake, so an Ookami won then is offered at the feed step of that Winter."""
    def win_ookami(r: Raw, seat: int) -> None:
        give_spirits(r, seat, {})
        top = r["spirit_left"][0] - 1
        spot = next((t, i) for t in range(4) for i in range(r["spirit_left"][t]) if r["spirit_stack"][t][i] == OOKAMI)
        r["spirit_stack"][spot[0]][spot[1]], r["spirit_stack"][0][top] = r["spirit_stack"][0][top], OOKAMI
        r["incense"] = [[0] * 5 for _ in range(4)]
        r["incense_top"] = [[0] * 5 for _ in range(4)]
        r["incense"][0][seat], r["incense"][1][1 - seat] = 5, 5
        r["incense_top"][0][seat], r["incense_top"][1][1 - seat] = 2, 1
        r["stick_clock"] = 2
    state, seat = feed_position([0, 2, 0], 3, extra=win_ookami)
    assert raw(state)["pl"][seat]["spirits"][OOKAMI] == 1
    state = play_until(state, lambda s: s.decision == "feed" or s.round > 2)
    assert state.current_player == seat and names(state) == ["use Ookami", "pay rice"]


def test_winter_passes_the_start_player_and_updates_the_markets_B33() -> None:
    """Winter steps 3-5, B33: the marker passes clockwise; the lowest tile of each market goes under its stack;
    the food display is filled to 5."""
    state = play_until(new_game(3, 7), lambda s: s.phase == "summer", 7)
    before = raw(state)
    state = play_until(state, lambda s: s.round == 2, 7)
    after = raw(state)
    assert after["start_seat"] == (before["start_seat"] + 1) % 3
    lowest = before["home_market"][0][0]
    assert lowest not in after["home_market"][0] or after["home_left"][0] == 0
    assert after["home_unseen"][0] < after["home_left"][0]  # the tile sent under is known


# ---- Hidden information ---------------------------------------------------------------------------------------------
def test_observation_hides_only_the_order_of_what_lies_face_down_B37() -> None:
    """III (open information), B37: an observation keeps everything but the unseen part of each stack, the food
    pile's order (its counts stay), the spirits under the face-up ones and the seeds; it is the same for every
    seat but for whose view it is."""
    state = play_until(new_game(3, 4), lambda s: s.round == 2 and s.phase == "summer", 4)
    r = raw(state)
    seen = [state.observation(p) for p in range(3)]
    assert all({k: v for k, v in o.items() if k != "viewer"} == {k: v for k, v in seen[0].items() if k != "viewer"}
               for o in seen)
    o = seen[0]
    assert "rng" not in o and "event_rng" not in o
    assert o["food_pile"] == [r["food_pile"][:r["food_left"]].count(k) for k in range(3)]
    assert all(o["spirit_stack"][t][:2] == [NO, NO] and o["spirit_stack"][t][2] == r["spirit_stack"][t][2]
               for t in range(4))
    hidden = sum(v == NO for v in o["home_pile"]) - sum(v == NO for v in r["home_pile"])
    assert hidden == sum(r["home_unseen"]) > 0
    assert o["pl"] == r["pl"][:3] and o["home_market"] == r["home_market"]
    assert state.observation(None) == dict(o, viewer=None)          # the public view: no seat named


def test_gifts_and_ghost_sticks_come_from_their_own_chance_stream() -> None:
    """docs/bamboo_state.md, chance: the gifts revealed each Spring and the ghost's sticks each round are drawn
    from `event_rng`, so two games of one seed see the same ones whatever is played."""
    def events(pick: int) -> list[tuple[int, int, list[int]]]:
        state = new_game(2, 31)
        rng = random.Random(pick)
        seen = []
        while not state.is_terminal():
            r = raw(state)
            if state.phase == "spring" and r["turn_idx"] == 1 and state.decision == "gift":
                seen.append((state.round, r["gifts_up"], [r["incense"][t][4] for t in range(4)]))
            state.apply(rng.choice(state.legal_actions()))
        return seen
    first, second = events(1), events(2)
    assert [e[0] for e in first] == [1, 2, 3, 4] and first == second


# ---- VI. End of the Game and Final Score -----------------------------------------------------------------------------
def test_game_ends_after_the_fourth_winter_B6() -> None:
    """IV, B6: four rounds; the game ends after the fourth Winter, every spirit stack empty."""
    state = play_until(new_game(4, 8), lambda s: s.is_terminal(), 8)
    r = raw(state)
    assert r["round"] == 4 and r["spirit_left"] == [0, 0, 0, 0] and state.current_player == -1


def test_final_scoring_spirits_harmony_half_balance_night_spaces_B34() -> None:
    """VI, B34: +2 per distinct spirit, -2 per point of left/right comfort difference, half (rounded up) of
    each unscored balance tile whose pattern is met, -1 per uncovered typed space on the night side."""
    state = play_until(new_game(2, 9, mode="advanced"), lambda s: s.is_terminal(), 9)
    for seat, b in enumerate(state.score_breakdown()):
        r = raw(state)["pl"][seat]
        assert b["spirit_types"] == 2 * sum(1 for n in r["spirits"] if n)
        left = sum(COMP.home_comfort[t] for i, t in enumerate(r["home"]) if t != NO and i % 5 < 2)
        right = sum(COMP.home_comfort[t] for i, t in enumerate(r["home"]) if t != NO and i % 5 > 2)
        assert b["harmony"] == -2 * abs(left - right)
        uncovered = sum(1 for c in COMP.night_cells if r["home"][c] == NO)
        assert b["night_spaces"] == -uncovered
        assert b["half_balance"] >= 0


def test_night_side_is_a_flag_per_player_B36() -> None:
    """B36, Advanced Game Mode: the night side is stored per player; only its owner loses HP for uncovered typed
    spaces at the end."""
    state = last_summer_turn(11, round_=4)
    typed = [int(c) for c in COMP.night_cells]
    ok = [s for s in range(2) if all(raw(state)["pl"][s]["home"][c] == NO for c in typed)]
    night = ok[0]
    state = edited(state, lambda r: r["pl"][night].__setitem__("advanced", 1))
    state = play_until(state, lambda s: s.is_terminal(), 11)
    r = raw(state)
    uncovered = sum(r["pl"][night]["home"][c] == NO for c in typed)
    assert state.score_breakdown()[night]["night_spaces"] == -uncovered
    assert state.score_breakdown()[1 - night]["night_spaces"] == 0


def test_winner_most_hp_then_comfort_else_shared_B35() -> None:
    """VI, B35: most HP wins; ties go to the most comfort; players still tied share the victory (1/k each)."""
    state = play_until(new_game(2, 10), lambda s: s.is_terminal(), 10)
    scores = state.scores()
    assert state.winners() == (scores.index(max(scores)),) or scores[0] == scores[1]
    assert state.winner() == state.winners()[0]
    low = scores.index(min(scores))

    def tie(r: Raw) -> None:
        r["pl"][low]["hp"][0] += abs(scores[0] - scores[1])
    tied = edited(state, tie)
    assert tied.scores()[0] == tied.scores()[1]
    comfort = tied.comfort()
    if comfort[0] != comfort[1]:
        assert tied.winners() == (comfort.index(max(comfort)),) and sorted(tied.ranks()) == [1, 2]
        assert tied.winner() == comfort.index(max(comfort))
    else:
        assert tied.winners() == (0, 1) and tied.returns() == [0.5, 0.5] and tied.ranks() == [1, 1]
        assert tied.winner() == 0, "the protocol's one winner: the lowest of the seats sharing the victory"
