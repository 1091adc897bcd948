"""Set-up: common components, player components, tracks and the initial huts.

Rulebook sections "Board and Common Components Setup", "Player Setup & Preparation", "Tracks Setup",
"Initial Hut Placement" and "End of Round and New Round Prep"; CLARIFICATIONS C#27-C#29; engine ruling R17.
"""

from __future__ import annotations

from typing import Any

import pytest

import borabora_sim
from borabora_sim.games.bora_bora.components import load_components

from scenario import NO_TILE, edited, names, play, set_decision, vp

COMPONENTS = load_components()
REGION = {rid: i for i, rid in enumerate(COMPONENTS.region_ids)}
PLAYERS = (2, 3, 4)
RED = 2
OFFERING_RESOURCE = 3
CRANE = {i for i, crane in enumerate(COMPONENTS.task_crane) if crane}


def raw_of(state: borabora_sim.State) -> dict[str, Any]:
    return state.to_dict()["state"]


def one_fish_regions(raw: dict[str, Any]) -> set[int]:
    return {r for r in range(12) if COMPONENTS.fish_value[raw["fish_at"][r]] == 1}


def finish_setup(state: borabora_sim.State) -> list[int]:
    """Plays the set-up (first legal choice each time); returns the seat of each initial-hut decision seen."""
    seen = []
    while state.phase == "setup":
        if state.decision == "setup_hut":
            seen.append(state.current_player)
        state.apply(state.legal_actions()[0])
    return seen


def play_round_quietly(state: borabora_sim.State) -> None:
    """Plays to the next round: every die goes fishing, every optional step is declined, else the first choice."""
    start = state.round
    for _ in range(500):
        if state.round != start or state.is_terminal():
            return
        legal = names(state)
        if state.decision == "die":
            play(state, next(n for n in legal if n.endswith("on fishing")))
        else:
            play(state, "done" if "done" in legal else legal[0])
    raise AssertionError("the round did not end")


# =============================================================================
# Board and common components (rulebook set-up 1-8, C#28, C#29)
# =============================================================================
@pytest.mark.parametrize("players", PLAYERS)
def test_common_components_setup(players: int) -> None:
    """Fish tiles one per region; 6 men and 6 women face up; players + 2 tasks; 24 jewelry tiles on the 6 x 4
    display; 6 God tiles in the temple pile; 5 face-up God cards; empty temple and building spaces."""
    state = borabora_sim.new_game(players=players, seed=21)
    raw = raw_of(state)
    assert sorted(raw["fish_at"]) == list(range(12))
    men, women = raw["person_display"]
    assert all(t < 36 for t in men) and all(36 <= t < 72 for t in women)
    assert len(set(men + women)) == 12
    tasks = [t for t in raw["task_display"] if t != NO_TILE]
    assert len(tasks) == players + 2
    assert raw["task_display"][players + 2:] == [NO_TILE] * (4 - players)
    assert not CRANE & set(tasks)
    jewelry = [t for column in raw["jewelry_display"] for t in column]
    assert sorted(jewelry) == list(range(24))
    assert raw["temple_god_tiles"] == 6
    assert NO_TILE not in raw["god_display"] and len(raw["god_display"]) == 5
    assert raw["temple"] == [-1] * 6
    assert raw["region_owner"] == [-1] * 12
    assert state.check_invariants() is None


@pytest.mark.parametrize("players", PLAYERS)
def test_player_components_setup(players: int) -> None:
    """Each player: 2 God cards, 2 offerings, 1 God tile, 12 huts (two on the 12th space), 6 unbuilt buildings,
    4 priests in the supply, 1 light green (crane) and 2 dark green (parrot) tasks; the God card pile holds the
    rest (60 - 5 face up - 2 per player)."""
    state = borabora_sim.new_game(players=players, seed=4)
    raw = raw_of(state)
    all_tasks = []
    for seat in range(players):
        p = raw["pl"][seat]
        assert sum(p["hand"]) == 2
        assert p["offerings"] == 2
        assert p["god_tiles"] == 1
        assert (p["reg_huts"], p["huts_12th"], p["regions"]) == (10, 2, 0)
        assert p["built"] == 0 and p["ceremony"] == [0] * 12 and p["n_persons"] == 0
        assert state.counters()[seat]["priests"] == 0
        assert [t in CRANE for t in p["tasks"]].count(True) == 1
        assert NO_TILE not in p["tasks"]
        all_tasks += p["tasks"]
    assert len(set(all_tasks)) == 3 * players
    assert raw["deck_end"] - raw["deck_top"] == 60 - 5 - 2 * players


@pytest.mark.parametrize("players", PLAYERS)
def test_unused_light_green_tasks_leave_the_game(players: int) -> None:
    """The light green tasks not dealt are removed: none is in the task pile or on the display, now or later."""
    state = borabora_sim.new_game(players=players, seed=9)
    raw = raw_of(state)
    assert not CRANE & set(raw["task_pile"][raw["task_top"]:])
    assert not CRANE & set(raw["task_display"])
    assert len(raw["task_pile"]) == 53


def test_god_cards_in_hand_are_hidden_from_other_players() -> None:
    """God cards are added to the hand, hidden from the other players."""
    state = borabora_sim.new_game(players=3, seed=2)
    seen_by_1 = state.observation(1)["pl"]
    assert seen_by_1[0]["hand"] is None and seen_by_1[0]["hand_size"] == 2
    assert sum(seen_by_1[1]["hand"]) == 2


@pytest.mark.parametrize("players", PLAYERS)
def test_fewer_players_use_fewer_components(players: int) -> None:
    """With fewer than four players, unused turn order tiles and God tiles go back to the box."""
    raw = raw_of(borabora_sim.new_game(players=players, seed=5))
    assert sorted(raw["order"][:players]) == list(range(players))
    assert raw["order"][players:] == [-1] * (4 - players)
    assert raw["temple_god_tiles"] + sum(raw["pl"][s]["god_tiles"] for s in range(players)) == 6 + players


def test_turn_order_tiles_are_drawn_at_random() -> None:
    """Each player draws a turn order tile at random: every order of seats occurs."""
    orders = {tuple(borabora_sim.new_game(players=3, seed=seed).turn_order) for seed in range(60)}
    assert len(orders) == 6


# =============================================================================
# Tracks (rulebook set-up 10, C#27)
# =============================================================================
@pytest.mark.parametrize("players", PLAYERS)
def test_starting_vp_by_turn_order(players: int) -> None:
    """C#27: the start player begins on 0 VP, the next on 1, then 2 and 3."""
    state = borabora_sim.new_game(players=players, seed=13)
    for position, seat in enumerate(state.turn_order):
        assert vp(state, seat, "start") == position
        assert state.scores()[seat] == position


@pytest.mark.parametrize("players", PLAYERS)
def test_status_markers_start_stacked_with_start_player_on_top(players: int) -> None:
    """Tracks set-up: all status markers start on 0, each later player's underneath the previous one, so with no
    status gained the next round keeps the same turn order (the top marker plays first)."""
    state = borabora_sim.new_game(players=players, seed=17)
    order = state.turn_order
    assert all(raw_of(state)["pl"][s]["status"] == 0 for s in range(players))
    finish_setup(state)
    play_round_quietly(state)
    assert state.round == 2
    assert all(raw_of(state)["pl"][s]["status"] == 0 for s in range(players))
    assert state.turn_order == order


# =============================================================================
# Initial hut placement (rulebook set-up 11, C#27, R17)
# =============================================================================
@pytest.mark.parametrize("players", PLAYERS)
def test_initial_huts_in_reverse_turn_order(players: int) -> None:
    """C#27: the initial huts are placed in REVERSE turn order (a last, forced choice is taken automatically)."""
    for seed in range(4):
        state = borabora_sim.new_game(players=players, seed=seed)
        order = state.turn_order
        seen = finish_setup(state)
        assert seen == order[::-1][:len(seen)]
        assert len(seen) >= players - 1
        assert all(state.counters()[s]["huts_on_map"] == 1 for s in range(players))


@pytest.mark.parametrize("players", PLAYERS)
def test_initial_hut_on_empty_region_beside_a_1_fish_tile(players: int) -> None:
    """C#27: each initial hut goes on an empty building space of one of the regions next to a 1-fish tile."""
    state = borabora_sim.new_game(players=players, seed=8)
    ones = one_fish_regions(raw_of(state))
    assert len(ones) == 4
    first = {REGION[n.removeprefix("region ")] for n in names(state)}
    assert first == ones
    taken = REGION[names(state)[1].removeprefix("region ")]
    play(state, names(state)[1])
    while state.decision != "setup_hut":
        state.apply(state.legal_actions()[0])
    assert {REGION[n.removeprefix("region ")] for n in names(state)} == ones - {taken}
    finish_setup(state)
    raw = raw_of(state)
    owners = [raw["region_owner"][r] for r in sorted(ones)]
    assert sorted(s for s in owners if s >= 0) == list(range(players))
    for seat in range(players):
        (region,) = [r for r in range(12) if raw["pl"][seat]["regions"] & (1 << r)]
        assert region in ones and raw["region_owner"][region] == seat


def test_initial_hut_takes_the_regions_resource() -> None:
    """The player receives the resource of the region: an offering, or a material placed on a free matching
    ceremony space."""
    state = borabora_sim.new_game(players=4, seed=3)
    seat = state.current_player
    kinds = set()
    for name in names(state):
        trial = play(state.clone(), name)
        r = REGION[name.removeprefix("region ")]
        resource = int(COMPONENTS.region_resource[r])
        kinds.add(resource == OFFERING_RESOURCE)
        if trial.decision == "material":
            assert trial.current_player == seat
            spaces = {trial.action_from_string(n) - 102 for n in names(trial)}
            assert {int(COMPONENTS.ceremony_material[s]) for s in spaces} == {resource}
            play(trial, names(trial)[0])
        p = raw_of(trial)["pl"][seat]
        if resource == OFFERING_RESOURCE:
            assert p["offerings"] == 3 and p["ceremony"] == [0] * 12
        else:
            assert p["offerings"] == 2
            filled = [s for s in range(12) if p["ceremony"][s]]
            assert len(filled) == 1 and COMPONENTS.ceremony_material[filled[0]] == resource
    assert kinds == {True, False}


def test_initial_hut_does_not_score_its_fish() -> None:
    """C#27: the initial hut's fish tile is ignored: no Red God is offered even to a player holding one."""
    state = borabora_sim.new_game(players=2, seed=6)
    seat = state.current_player

    def edit(raw: dict[str, Any]) -> None:
        p = raw["pl"][seat]
        for col in range(5):
            raw["discard"][col] += p["hand"][col]
            p["hand"][col] = 0
        top = raw["deck_top"]
        i = next(i for i in range(top, raw["deck_end"]) if raw["god_deck"][i] == RED)
        raw["god_deck"][top], raw["god_deck"][i] = raw["god_deck"][i], raw["god_deck"][top]
        raw["deck_top"] = top + 1
        p["hand"][RED] = 1
        set_decision(raw, [("setup_hut", seat, 0, 0)])

    state = edited(state, edit)
    for name in names(state):
        trial = play(state.clone(), name)
        while trial.phase == "setup" and trial.current_player == seat:
            assert trial.decision != "red_god"
            trial.apply(trial.legal_actions()[0])
        assert raw_of(trial)["pl"][seat]["fish_scored"] == 0
        assert vp(trial, seat, "red_god") == 0 and vp(trial, seat, "fish_tiles") == 0


@pytest.mark.parametrize("players", PLAYERS)
def test_setup_scores_only_the_starting_vp(players: int) -> None:
    """After the set-up, every score is the starting VP: fish next to the initial huts are not scored."""
    state = borabora_sim.new_game(players=players, seed=12)
    finish_setup(state)
    for position, seat in enumerate(state.turn_order):
        assert state.scores()[seat] == position
        assert raw_of(state)["pl"][seat]["fish_scored"] == 0


@pytest.mark.parametrize("players", PLAYERS)
def test_initial_hut_comes_from_regular_space_leaving_two_free(players: int) -> None:
    """R17 / R3: 10 huts on spaces 1-11 and 2 on the 12th; the initial hut leaves a regular space, so two
    person spaces are free when the game starts."""
    state = borabora_sim.new_game(players=players, seed=14)
    finish_setup(state)
    for seat in range(players):
        p = raw_of(state)["pl"][seat]
        assert (p["reg_huts"], p["huts_12th"]) == (9, 2)
        assert p["reg_huts"] + p["huts_12th"] + bin(p["regions"]).count("1") == 12


@pytest.mark.parametrize("players", PLAYERS)
def test_game_starts_with_phase_a_for_the_start_player(players: int) -> None:
    """After the initial huts, round 1 phase A begins: every player has rolled three dice, the start player
    places first, every action tile is empty."""
    state = borabora_sim.new_game(players=players, seed=10)
    finish_setup(state)
    raw = raw_of(state)
    assert (state.round, state.phase, state.decision) == (1, "A", "die")
    assert state.current_player == state.turn_order[0]
    assert raw["tile_low"] == [7] * 7
    for seat in range(players):
        assert all(1 <= d <= 6 for d in raw["pl"][seat]["dice"])


# =============================================================================
# Each round (C#29)
# =============================================================================
@pytest.mark.parametrize("players", PLAYERS)
def test_each_round_new_persons_and_tasks_replace_leftovers(players: int) -> None:
    """C#29: each round 6 new men and 6 new women and players + 2 new tasks are laid out; the leftovers of the
    previous round leave the game."""
    state = borabora_sim.new_game(players=players, seed=19)
    finish_setup(state)
    before = raw_of(state)
    play_round_quietly(state)
    after = raw_of(state)
    assert after["person_top"] == [12, 12]
    for sex in range(2):
        assert NO_TILE not in after["person_display"][sex]
        assert not set(after["person_display"][sex]) & set(before["person_display"][sex])
    old_tasks = {t for t in before["task_display"] if t != NO_TILE}
    new_tasks = [t for t in after["task_display"] if t != NO_TILE]
    assert len(new_tasks) == players + 2
    assert not set(new_tasks) & old_tasks
    held = {t for s in range(players) for t in after["pl"][s]["tasks"]}
    assert not (old_tasks - held) & (set(after["task_pile"][after["task_top"]:]) | set(new_tasks))
    assert after["task_top"] == before["task_top"] + players + 2
