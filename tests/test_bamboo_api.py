"""The Python surface of the compiled Bamboo engine: creating games, its action names, and what a saved state of
Bamboo must satisfy to load. The API every game shares (new_game's arguments, illegal actions, action names, seats,
seeds and counts, the random playouts): tests/test_state_api.py. Saved states of every game (round trips, the
fields every saved state has, pickling and copies): tests/test_saved_states.py."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import play_random

from borabora_sim import _bamboo
from borabora_sim.errors import StateFormatError
from borabora_sim.games.bamboo import load_components, new_game, rules_for
from borabora_sim.games.bamboo.components import ENGINE_NUMBERS


def test_state_is_the_designed_872_bytes() -> None:
    assert _bamboo.STATE_BYTES == 872


def test_new_game_waits_on_the_draft() -> None:
    state = new_game(players=3, seed=7)
    assert (state.phase, state.decision, state.round, state.num_players) == ("setup", "draft", 1, 3)
    assert state.current_player == state.start_player
    assert len(state.legal_actions()) >= 2


def test_new_game_refuses_an_unknown_mode() -> None:
    with pytest.raises(ValueError, match="mode must be one of normal, advanced"):
        new_game(2, 1, mode="night")


def test_advanced_mode_sets_every_board_to_the_night_side() -> None:
    raw = new_game(3, 5, mode="advanced").to_dict()["state"]
    assert [raw["pl"][i]["advanced"] for i in range(4)] == [1, 1, 1, 0]


def test_bamboo_action_names() -> None:
    state = new_game(2, 3)
    assert state.action_to_string(51) == "balance 1 HP"
    assert state.action_to_string(76 + 6) == "home space r2c2"
    assert state.action_to_string(44 + 3) == "use Kitsune"


def test_legal_action_mask_matches_legal_actions() -> None:
    state = play_random(new_game(4, 2), 2, 40)
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (110,)
    assert list(np.flatnonzero(mask)) == state.legal_actions()


def test_shoots_waiting_for_the_stalks_without_their_stalk_decision_are_refused_B40() -> None:
    """A turn whose shoots are still to be placed is waiting on the stalk decision; a saved state that dropped that
    decision from its stack (one found by the mutation property test) would play on with the shoots in limbo."""
    state = new_game(3, 0)
    while state.decision != "stalk":
        state.apply(state.legal_actions()[0])
    data = state.to_dict()
    assert data["state"]["sp"] == 2 and data["state"]["to_place"][0] != 255
    data["state"]["sp"] = 1
    with pytest.raises(StateFormatError, match="turn in progress"):
        _bamboo.State.from_dict(data, rules_for())


def test_an_offering_dropped_from_the_stack_before_its_sticks_are_placed_is_refused_B40() -> None:
    """While sticks of a visit are still to be offered the offer decision is on the stack; without it the sticks
    would never be placed (found by the mutation property test)."""
    state = new_game(4, 0)
    while state.decision != "offer":
        state.apply(state.legal_actions()[0])
    data = state.to_dict()
    assert data["state"]["sp"] == 3 and data["state"]["stack"][2]["a"] > 0
    data["state"]["sp"] = 2
    with pytest.raises(StateFormatError, match=r"arguments \(a, b\) are out of range or the premise"):
        _bamboo.State.from_dict(data, rules_for())


def test_a_finished_game_scores_and_ranks() -> None:
    state = play_random(new_game(3, 21), 21)
    assert state.is_terminal() and state.current_player == -1 and state.legal_actions() == []
    scores = state.scores()
    assert scores == [sum(b.values()) for b in state.score_breakdown()]
    winners = state.winners()
    assert winners and all(state.ranks()[w] == 1 for w in winners) and state.winner() == min(winners)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_rules_are_shared_by_content() -> None:
    assert rules_for() is rules_for(load_components())
    assert new_game(2, 1).rules is new_game(3, 2).rules


def test_search_handles_name_bamboo_capsules() -> None:
    vtable, rules, state, owner = new_game(2, 1).search_handles()
    assert "GameVTable" in repr(vtable)
    assert repr(rules).find(".rules") > 0 and repr(state).find(".state") > 0
    assert isinstance(owner, _bamboo.State)


def test_compiled_search_runs_on_bamboo_unchanged() -> None:
    """borabora_sim._search reaches Bamboo only through its GameVTable."""
    from borabora_sim import _search
    state = play_random(new_game(3, 5), 5, 25)
    before = state.to_dict()
    done, children = _search.run_mcts(state.search_handles(), state.current_player, iterations=300, seed=2)
    assert done == 300
    assert sorted(a for a, _, _ in children) == state.legal_actions()
    assert sum(v for _, v, _ in children) == 300
    assert all(0.0 <= r <= 1.0 for _, _, r in children)
    assert state.to_dict() == before


def test_random_playouts_in_advanced_mode_score_nothing_above_zero_on_night_spaces() -> None:
    rules = new_game(2, 1).rules
    out = _bamboo.random_playouts(rules, 50, 4, 7, mode="advanced")
    assert (out["breakdown"].sum(axis=2) == out["scores"]).all()
    assert (out["breakdown"][:, :, _bamboo.SOURCES.index("night_spaces")] <= 0).all()
    assert (out["breakdown"][:, :, _bamboo.SOURCES.index("night_spaces")] < 0).any()
    again = _bamboo.random_playouts(rules, 50, 4, 7, mode="advanced")
    assert all((out[k] == again[k]).all() for k in out)


def test_behaviour_counters_are_read_from_the_state() -> None:
    state = play_random(new_game(2, 13), 13)
    rows = state.counters()
    raw = state.to_dict()["state"]["pl"]
    names = state.rules.counter_names
    assert len(names) == 36 and list(rows[0]) == [*names, "start_position"]
    assert sorted(row["start_position"] for row in rows) == [0, 1]
    for seat in range(2):
        assert rows[seat]["turns"] == raw[seat]["turns"] == sum(rows[seat][f"visits_{t}"] for t in (1, 2, 3, 4))
        assert rows[seat]["woken_Kitsune"] == raw[seat]["spirit_woken"][3]
    out = _bamboo.random_playouts(state.rules, 5, 2, 3)
    assert out["counters"].shape == (5, 2, 36) and (out["counters"][:, :, 0] > 0).all()


@pytest.mark.parametrize("number", sorted(ENGINE_NUMBERS))
def test_rules_guard_every_number_the_compiled_engine_is_built_for(number: str) -> None:
    """load_components refuses these numbers with a ComponentError (tests/test_component_refusals.py); Rules, which
    sizes the compiled arrays, refuses them again for components edited after loading, so that ENGINE_NUMBERS and
    the compiled constants cannot drift apart."""
    components = load_components()
    table, field = number.split(".")
    wrong = ENGINE_NUMBERS[number] + 1
    if table == "home":
        edited = dataclasses.replace(components, **{f"home_{field}": wrong})
    else:
        edited = dataclasses.replace(components, **{table: {**getattr(components, table), field: wrong}})
    with pytest.raises(ValueError, match=r"the compiled engine is built for"):
        _bamboo.Rules(edited, "test")
    _bamboo.Rules(components, "test")


# ---- the stick clock of a saved Summer turn (docs/bamboo_state.md, "What a loaded state must satisfy") -------------
def offering_not_begun(seed: int, first: bool) -> _bamboo.State:
    """A Summer turn at its offering before its first stick: the first turn of a Summer (stick_clock 1), or a later
    one whose previous stamp, stick_clock - 1, is on another seat's sticks."""
    state = new_game(3, seed)
    rng = random.Random(seed)
    while True:
        r = state.to_dict()["state"]
        if state.decision == "offer" and r["sticks_placed"] == 0:
            clock, mover = r["stick_clock"], state.current_player
            others = [r["incense_top"][t][s] for t in range(4) for s in range(3) if s != mover]
            if (first and clock == 1) or (not first and clock >= 2 and clock - 1 in others):
                return state
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("case", ["first_turn_clock_0", "clock_of_the_previous_turn", "stamped_before_a_stick"])
def test_a_summer_turn_in_progress_needs_a_stick_stamp_of_its_own_to_load(case: str) -> None:
    """A saved Summer turn whose stick_clock was 0, or the stamp already on another seat's sticks, was accepted;
    its next stick then carried no stamp, or shared one with another seat's stick in that temple (the Autumn
    tie-break could not tell which lies higher), which broke the incense law, and the state's own to_dict() was
    refused from then on. The turn's stamp is the clock, moved on by its visit, and it is on the mover's sticks
    exactly once some are placed: a state saying otherwise is refused, naming the field and the law."""
    if case == "stamped_before_a_stick":
        state = offering_not_begun(3, first=False)
        while state.decision != "activate":                 # the sticks placed carry the turn's stamp
            state.apply(state.legal_actions()[0])
        edit = {"sticks_placed": 0}
    else:
        state = offering_not_begun(1 if case == "first_turn_clock_0" else 2, first=case == "first_turn_clock_0")
        edit = {"stick_clock": state.to_dict()["state"]["stick_clock"] - 1}
    assert _bamboo.State.from_dict(state.to_dict(), state.rules) == state
    data = state.to_dict()
    data["state"].update(edit)
    with pytest.raises(StateFormatError, match=r"stick_clock: a Summer turn in progress has its own stamp"):
        _bamboo.State.from_dict(data, rules_for())


def test_a_visit_decision_of_a_seat_without_incense_is_refused_B9() -> None:
    """B9: only a seat with incense visits. A saved visit decision of a seat whose sticks all lie in the temples was
    accepted; the visit then asked for an offering of no stick, whose first "stick" took the reserve from 0 to 255.
    Such a state, and a visit of a seat that has passed, are refused."""
    state = new_game(2, 1)
    rng = random.Random(1)
    while not (state.decision == "visit" and state.round == 2):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    data = state.to_dict()
    r = data["state"]
    temple = (r["pl"][seat]["last_visit"] + 1) % 4
    r["incense"][temple][seat] += r["pl"][seat]["incense"]
    r["pl"][seat]["incense"] = 0
    r["incense_top"][temple][seat] = r["stick_clock"] = max(1, r["stick_clock"])
    with pytest.raises(StateFormatError, match=r"arguments \(a, b\) are out of range or the premise it was offered on"):
        _bamboo.State.from_dict(data, rules_for())
    data = state.to_dict()
    data["state"]["passed"] = 1 << seat
    with pytest.raises(StateFormatError, match=r"arguments \(a, b\) are out of range or the premise it was offered on"):
        _bamboo.State.from_dict(data, rules_for())


# ---- the balance tiles each player scored ---------------------------------------------------------------------
def scored_of(player: dict[str, Any]) -> set[int]:
    return {tile for tile in range(68) if player["scored"][tile // 8] >> tile % 8 & 1}


def with_scored_tiles() -> _bamboo.State:
    """A 3-player game in its second Summer in which seat 0 has scored 3 balance tiles and seat 2 one, taken from
    the stacks (a tile scored leaves play for good)."""
    state = play_random(new_game(3, 4), 4, 150)
    data = state.to_dict()
    r = data["state"]
    for seat, side in ((0, 0), (0, 1), (0, 2), (2, 2)):
        at = (0, 24, 44)[side] + (r["bal_top"][side] + r["bal_left"][side] - 1) % (24, 20, 24)[side]
        tile, r["bal_pile"][at] = r["bal_pile"][at], 255
        r["bal_left"][side] -= 1
        r["bal_unseen"][side] = min(r["bal_unseen"][side], r["bal_left"][side])
        r["pl"][seat]["scored"][tile // 8] |= 1 << tile % 8
        r["pl"][seat]["n_scored"] += 1
    return _bamboo.State.from_dict(data, rules_for())


def test_the_balance_tiles_a_player_scores_are_kept_and_add_up_to_the_hp_they_gave() -> None:
    """"Score Balance": the tile scored is shown to all and goes to its owner's scored-tile space. The state keeps
    which tiles each player scored: in a random game where several players scored, each player's tiles are worth
    exactly the HP of its scored source, and they survive saving and loading."""
    game = rules_for().components
    seed = _bamboo.derive_seed(7, 1026)
    state = new_game(4, seed)
    for action in _bamboo.random_game_actions(rules_for(), 4, seed):
        state.apply(action)
    raw = state.to_dict()["state"]
    scorers = 0
    for seat, p in enumerate(raw["pl"][:4]):
        tiles = scored_of(p)
        assert len(tiles) == p["n_scored"]
        assert sum(int(game.balance_hp[t]) for t in tiles) == state.score_breakdown()[seat]["balance_scored"]
        scorers += bool(tiles)
    assert scorers >= 2
    assert _bamboo.State.from_dict(json.loads(json.dumps(state.to_dict())), state.rules) == state


def _scored_and_in_a_market(r: dict[str, Any]) -> None:
    tile = r["bal_market"][0][0]
    r["pl"][1]["scored"][tile // 8] |= 1 << tile % 8
    r["pl"][1]["n_scored"] += 1


def _miscounted(r: dict[str, Any]) -> None:
    r["pl"][2]["n_scored"] = 2


def _beyond_the_68_tiles(r: dict[str, Any]) -> None:
    r["pl"][0]["scored"][8] |= 1 << 4                       # tile 68
    r["pl"][0]["n_scored"] += 1


def _scored_by_two_players(r: dict[str, Any]) -> None:
    r["pl"][1]["scored"], r["pl"][1]["n_scored"] = list(r["pl"][0]["scored"]), r["pl"][0]["n_scored"]


@pytest.mark.parametrize("edit", [_scored_and_in_a_market, _miscounted, _beyond_the_68_tiles, _scored_by_two_players])
def test_from_dict_refuses_scored_balance_tiles_in_play_twice_or_miscounted(edit: Callable[[dict[str, Any]], None],
                                                                            ) -> None:
    data = with_scored_tiles().to_dict()
    edit(data["state"])
    with pytest.raises(StateFormatError, match=r"balance tiles: each tile once among piles, markets, slots and the "
                                               r"players' scored sets, all 68, sides matching, and n_scored"):
        _bamboo.State.from_dict(data, rules_for())


def test_every_seat_observes_which_balance_tiles_each_player_scored() -> None:
    """Scored tiles lie in view of all: each seat's observation, its tensor and the picture show every player's."""
    from xml.etree import ElementTree

    from borabora_sim.games.bamboo.observation import observation_tensor, player_slice
    from borabora_sim.viewer import to_svg

    state = with_scored_tiles()
    game = state.components
    expected = [scored_of(p) for p in state.to_dict()["state"]["pl"][:3]]
    assert [len(tiles) for tiles in expected] == [3, 0, 1]
    for viewer in range(3):
        view = state.observation(viewer)
        assert [scored_of(p) for p in view["pl"]] == expected
        vector = observation_tensor(state, viewer)
        for seat in range(3):
            start, stop = player_slice((seat - viewer) % 3, "balance_scored_tiles")
            assert set(np.flatnonzero(vector[start:stop])) == expected[seat]
            assert vector[player_slice((seat - viewer) % 3, "balance_scored")[0]] == len(expected[seat])
        tree = ElementTree.fromstring(to_svg(state, viewer))
        drawn = {e.attrib["data-scored-balance"]: int(e.attrib["data-hp"]) for e in tree.iter()
                 if "data-scored-balance" in e.attrib}
        assert drawn == {f"{seat}-{game.balance_ids[t]}": int(game.balance_hp[t]) for seat in range(3)
                         for t in expected[seat]}


# ---- an action is one integer -------------------------------------------------------------------------------------

