"""Property tests over random 2-, 3- and 4-player games.

Hypothesis draws the game seed and the seed of a `random.Random` that picks uniformly among the legal
actions. Every property is checked along whole games, from set-up to the final scoring.

Stated bound: a game ends after fewer than MAX_MOVES applied actions (automatic single-option moves
included); uniformly random games need fewer than 400.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import borabora_sim
from borabora_sim import NUM_ACTIONS, IllegalActionError, State, _engine, new_game

MAX_MOVES = 2000
HUTS = 12
PRIESTS = 4
CARDS_PER_COLOUR = 12
TEMPLE_GOD_TILES = 6
STATUS_TOP = 15
PERSONS_PER_SEX = 36
PERSON_SPACES = 12
NO_TILE = 255
ROUNDS = 6
PHASE_ORDER = ("setup", "A", "B", "C_jewelry", "C_task", "C_take_task", "final", "end")  # chronological
AFTER_PHASE_A = ("B", "C_jewelry", "C_task", "C_take_task", "final", "end")
AFTER_ROUND_SCORING = ("C_jewelry", "C_task", "C_take_task", "final", "end")

PLAYERS = st.sampled_from((2, 3, 4))
SEEDS = st.integers(0, 2**64 - 1)
CHOICES = st.integers(0, 2**32 - 1)


def games(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def play(players: int, seed: int, choice_seed: int) -> Iterator[State]:
    """Yields the same State object before each decision and once more when the game is over."""
    state = new_game(players, seed)
    rng = random.Random(choice_seed)
    yield state
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        assert state.move_count < MAX_MOVES
        yield state


def final_state(players: int, seed: int, choice_seed: int) -> State:
    *_, state = play(players, seed, choice_seed)
    return state


def state_hash(state: State) -> str:
    return hashlib.sha256(json.dumps(state.to_dict(), sort_keys=True).encode()).hexdigest()


def popcount(mask: int) -> int:
    return bin(mask).count("1")


# ---- views of the raw state (to_dict()["state"]; fields as commented in cext/state.pxd) -------------------------
def seats(raw: dict[str, Any]) -> list[dict[str, Any]]:
    return raw["pl"][: raw["n_players"]]


def person_tiles(raw: dict[str, Any]) -> list[int]:
    tiles = [t for sex in range(2) for t in raw["person_pile"][sex][raw["person_top"][sex]:]]
    tiles += [t for row in raw["person_display"] for t in row if t != NO_TILE]
    tiles += [t for p in seats(raw) for t in p["persons"][: p["n_persons"]]]
    return tiles


def task_tiles(raw: dict[str, Any]) -> list[int]:
    tiles = list(raw["task_pile"][raw["task_top"]:])
    tiles += [t for t in raw["task_display"] if t != NO_TILE]
    tiles += [t for p in seats(raw) for t in p["tasks"] if t != NO_TILE]
    return tiles


def jewelry_tiles(raw: dict[str, Any]) -> list[int]:
    tiles = [t for column in raw["jewelry_display"] for t in column if t != NO_TILE]
    tiles += [t for p in seats(raw) for t in p["jewelry"][: p["n_jewelry"]]]
    return tiles


def god_cards_by_colour(raw: dict[str, Any]) -> list[int]:
    counts = list(raw["discard"])
    for colour in raw["god_deck"][raw["deck_top"]: raw["deck_end"]]:
        counts[colour] += 1
    for colour in raw["god_display"]:
        if colour != NO_TILE:
            counts[colour] += 1
    for p in seats(raw):
        for colour, n in enumerate(p["hand"]):
            counts[colour] += n
    return counts


def god_tiles_held(raw: dict[str, Any]) -> int:
    """God tiles that reached a player: on a board or already played."""
    return sum(p["god_tiles"] + p["god_tiles_played"] for p in seats(raw))


def round_scorings_done(state: State) -> int:
    return state.round - 1 + (state.phase in AFTER_ROUND_SCORING)


# =============================================================================
# Conservation
# =============================================================================
@pytest.mark.slow
@games(300)
@given(PLAYERS, SEEDS, CHOICES)
def test_components_are_conserved_after_every_step(players: int, seed: int, choice_seed: int) -> None:
    """12 huts and 4 priests per player, 12 God cards of each colour; tiles are never created and leave
    play only where the rules remove them (display leftovers, unbought jewelry, resolved tasks)."""
    prev: dict[str, Any] | None = None
    prev_round = prev_phase = None
    for state in play(players, seed, choice_seed):
        assert state.check_invariants() is None
        raw = state.to_dict()["state"]
        for p in seats(raw):
            assert p["reg_huts"] + p["huts_12th"] + popcount(p["regions"]) == HUTS
        for seat in range(players):
            assert raw["temple"].count(seat) <= PRIESTS
        assert god_cards_by_colour(raw) == [CARDS_PER_COLOUR] * 5
        assert raw["temple_god_tiles"] == TEMPLE_GOD_TILES - round_scorings_done(state)
        assert players <= god_tiles_held(raw) <= players + TEMPLE_GOD_TILES - raw["temple_god_tiles"]
        persons, tasks, jewelry = person_tiles(raw), task_tiles(raw), jewelry_tiles(raw)
        for tiles in (persons, tasks, jewelry):
            assert len(tiles) == len(set(tiles))
        if prev is None:
            assert sorted(persons) == list(range(2 * PERSONS_PER_SEX))
            assert sorted(jewelry) == list(range(24))
        else:
            new_round = state.round == prev_round + 1
            for now, before in ((persons, person_tiles(prev)), (tasks, task_tiles(prev)),
                                (jewelry, jewelry_tiles(prev))):
                assert set(now) <= set(before), "a tile appeared from nowhere"
            lost_persons = set(person_tiles(prev)) - set(persons)
            if lost_persons:
                assert new_round and lost_persons <= {t for row in prev["person_display"] for t in row}
            lost_tasks = set(task_tiles(prev)) - set(tasks)  # resolved from a board, or display leftovers
            assert lost_tasks <= {t for p in seats(prev) for t in p["tasks"]} | set(prev["task_display"])
            if lost_tasks & set(prev["task_display"]) and not new_round:
                assert prev_phase == "C_take_task"  # taken in round 6 and resolved at once in the final scoring
            lost_jewelry = set(jewelry_tiles(prev)) - set(jewelry)
            if lost_jewelry:  # only the unbought tiles of the round's column, when its jewelry step ends (R18)
                jewelry_step = (prev_round, PHASE_ORDER.index("C_jewelry"))
                assert (prev_round, PHASE_ORDER.index(prev_phase)) <= jewelry_step
                assert (state.round, PHASE_ORDER.index(state.phase)) > jewelry_step
                assert lost_jewelry <= set(prev["jewelry_display"][prev_round - 1])
            assert god_tiles_held(raw) >= god_tiles_held(prev)
        prev, prev_round, prev_phase = raw, state.round, state.phase


@pytest.mark.slow
@games(300)
@given(PLAYERS, SEEDS, CHOICES)
def test_each_player_places_all_three_dice_every_round(players: int, seed: int, choice_seed: int) -> None:
    for state in play(players, seed, choice_seed):
        if state.phase in AFTER_PHASE_A:
            for p in seats(state.to_dict()["state"]):
                assert p["dice"] == [0, 0, 0]
                assert sum(p["dice_placed"]) == 3 * state.round
    assert state.round == ROUNDS


# =============================================================================
# Value ranges
# =============================================================================
@pytest.mark.slow
@games(200)
@given(PLAYERS, SEEDS, CHOICES)
def test_values_stay_in_range_and_victory_points_never_decrease(players: int, seed: int, choice_seed: int) -> None:
    last_scores = [0] * players
    for state in play(players, seed, choice_seed):
        raw = state.to_dict()["state"]
        assert 1 <= state.round <= ROUNDS
        assert state.phase in _engine.PHASES
        assert sorted(state.turn_order) == list(range(players))
        assert all(1 <= low <= 7 for low in raw["tile_low"])
        assert all(-1 <= seat < players for seat in raw["temple"])
        for r, owner in enumerate(raw["region_owner"]):
            assert owner == -1 or raw["pl"][owner]["regions"] >> r & 1
        for p in seats(raw):
            assert 0 <= p["status"] <= STATUS_TOP
            assert all(0 <= d <= 6 for d in p["dice"])
            assert all(v >= 0 for v in p["vp"])
            assert p["reg_huts"] + p["n_persons"] - p["person_12th"] <= PERSON_SPACES - 1
            assert not (p["person_12th"] and p["huts_12th"])
            assert p["n_persons"] <= PERSON_SPACES and p["shifted"] < 1 << p["n_persons"]
            assert all(k <= h for k, h in zip(p["known"], p["hand"], strict=True))
            assert max(p["offerings"], p["shells"], *p["beside"]) < 100  # an unsigned underflow would wrap
            assert p["god_tiles"] <= 1 + TEMPLE_GOD_TILES
            assert p["n_jewelry"] <= ROUNDS and p["tasks_done"] <= ROUNDS + 3
            assert popcount(p["built"]) * 2 == p["ceremony"].count(2)
        scores = state.scores()
        assert all(now >= before for now, before in zip(scores, last_scores, strict=True))
        last_scores = scores
        if state.is_terminal():
            assert state.current_player == -1 and state.decision is None
        else:
            assert 0 <= state.current_player < players
            assert state.decision in _engine.DECISIONS


@games(500)
@given(PLAYERS, SEEDS, CHOICES)
def test_score_breakdown_sums_to_scores(players: int, seed: int, choice_seed: int) -> None:
    for state in play(players, seed, choice_seed):
        breakdown = state.score_breakdown()
        assert len(breakdown) == players
        for seat, row in enumerate(breakdown):
            assert tuple(row) == borabora_sim.SOURCES
            assert sum(row.values()) == state.scores()[seat]


@games(500)
@given(PLAYERS, SEEDS, CHOICES)
def test_final_ranks_and_winner_follow_the_scores(players: int, seed: int, choice_seed: int) -> None:
    state = final_state(players, seed, choice_seed)
    scores, ranks, winner = state.scores(), state.ranks(), state.winner()
    assert sorted(ranks) == list(range(1, players + 1))
    assert ranks[winner] == 1
    assert scores[winner] == max(scores)
    tied = [s for s in state.turn_order if scores[s] == max(scores)]
    assert winner == tied[0]  # a tie goes to the tied player earlier in the last turn order (C#26)


# =============================================================================
# Legal actions
# =============================================================================
@games(500)
@given(PLAYERS, SEEDS, CHOICES)
def test_legal_action_mask_agrees_with_legal_actions(players: int, seed: int, choice_seed: int) -> None:
    for state in play(players, seed, choice_seed):
        legal = state.legal_actions()
        mask = state.legal_action_mask()
        assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.bool_
        assert np.flatnonzero(mask).tolist() == legal
        assert legal == sorted(set(legal))
        assert all(0 <= a < NUM_ACTIONS for a in legal)


@games(500)
@given(PLAYERS, SEEDS, CHOICES)
def test_nonterminal_state_waits_on_a_real_choice(players: int, seed: int, choice_seed: int) -> None:
    """Ruling R7: single-option decisions are automatic, so a pending decision has two or more options."""
    for state in play(players, seed, choice_seed):
        if state.is_terminal():
            assert state.legal_actions() == []
            assert state.winner() in range(players)
        else:
            assert len(state.legal_actions()) >= 2
            assert state.winner() is None


@games(500)
@given(PLAYERS, SEEDS, CHOICES)
def test_every_legal_action_applies(players: int, seed: int, choice_seed: int) -> None:
    """Each legal action, applied on a clone, is accepted and leaves a consistent state."""
    for state in play(players, seed, choice_seed):
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            assert child.check_invariants() is None
            assert child.move_count > state.move_count
            assert child.is_terminal() or len(child.legal_actions()) >= 2


@pytest.mark.slow
@games(300)
@given(PLAYERS, SEEDS, CHOICES)
def test_illegal_action_raises_and_leaves_state_unchanged(players: int, seed: int, choice_seed: int) -> None:
    probe = random.Random(choice_seed + 1)
    for state in play(players, seed, choice_seed):
        if probe.random() > 0.05 and not state.is_terminal():
            continue
        legal = state.legal_actions()
        illegal = sorted(set(range(NUM_ACTIONS)) - set(legal))
        before = state.to_dict()
        for action in [*probe.sample(illegal, 3), -1, NUM_ACTIONS]:
            try:
                state.apply(action)
            except IllegalActionError as error:
                assert isinstance(error, ValueError)
            else:
                raise AssertionError(f"illegal action {action} was accepted")
            assert state.to_dict() == before
            assert state.legal_actions() == legal


@games(500)
@given(PLAYERS, SEEDS, CHOICES)
def test_game_ends_within_the_move_bound(players: int, seed: int, choice_seed: int) -> None:
    decisions = 0
    for state in play(players, seed, choice_seed):
        decisions += not state.is_terminal()
    assert state.is_terminal() and state.phase == "end" and state.round == ROUNDS
    assert decisions <= state.move_count < MAX_MOVES


# =============================================================================
# Copies, determinism, serialisation
# =============================================================================
@games(300)
@given(PLAYERS, SEEDS, CHOICES)
def test_acting_on_a_clone_never_changes_the_original(players: int, seed: int, choice_seed: int) -> None:
    probe = random.Random(choice_seed + 1)
    for state in play(players, seed, choice_seed):
        if probe.random() > 0.03 or state.is_terminal():
            continue
        before = state.to_dict()
        child = state.clone()
        while not child.is_terminal():
            legal = child.legal_actions()
            child.apply(legal[probe.randrange(len(legal))])
        assert state.to_dict() == before
        assert child.to_dict() != before
    # and the other way round: a clone does not follow its original
    start = new_game(players, seed)
    copy = start.clone()
    snapshot = copy.to_dict()
    start.apply(start.legal_actions()[0])
    assert copy.to_dict() == snapshot


@games(300)
@given(PLAYERS, SEEDS, CHOICES)
def test_same_seed_and_actions_give_the_same_game(players: int, seed: int, choice_seed: int) -> None:
    first = [(tuple(s.legal_actions()), s.move_count) for s in play(players, seed, choice_seed)]
    second = [(tuple(s.legal_actions()), s.move_count) for s in play(players, seed, choice_seed)]
    assert first == second
    assert final_state(players, seed, choice_seed).to_dict() == final_state(players, seed, choice_seed).to_dict()


SUBPROCESS_GAMES = [(2, 0, 1), (3, 12345, 2), (4, 2**64 - 1, 3), (4, 77, 4)]
SUBPROCESS_SCRIPT = """
import hashlib, json, random, sys
import borabora_sim
hashes = []
for players, seed, choice_seed in json.loads(sys.argv[1]):
    state = borabora_sim.new_game(players, seed)
    rng = random.Random(choice_seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    hashes.append(hashlib.sha256(json.dumps(state.to_dict(), sort_keys=True).encode()).hexdigest())
print(json.dumps(hashes))
"""


def test_final_state_hash_is_the_same_in_another_process(tmp_path: Path) -> None:
    # the child imports the very package under test, from a folder where no source tree can shadow it
    root = str(Path(borabora_sim.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root, PYTHONHASHSEED="12345")
    result = subprocess.run([sys.executable, "-c", SUBPROCESS_SCRIPT, json.dumps(SUBPROCESS_GAMES)],
                            capture_output=True, text=True, env=env, timeout=120, check=True, cwd=tmp_path)
    here = [state_hash(final_state(*game)) for game in SUBPROCESS_GAMES]
    assert json.loads(result.stdout) == here


@pytest.mark.slow
@games(300)
@given(PLAYERS, SEEDS, CHOICES)
def test_to_dict_from_dict_round_trips_through_json(players: int, seed: int, choice_seed: int) -> None:
    probe = random.Random(choice_seed + 1)
    for state in play(players, seed, choice_seed):
        if probe.random() > 0.04 and not state.is_terminal():
            continue
        data = state.to_dict()
        copy = State.from_dict(json.loads(json.dumps(data)), state.rules)
        assert copy.to_dict() == data
        assert copy.legal_actions() == state.legal_actions()
        assert (copy.scores(), copy.round, copy.phase, copy.decision) == (
            state.scores(), state.round, state.phase, state.decision)
        if not state.is_terminal():  # the copy plays on exactly like the original
            action = state.legal_actions()[-1]
            twin = state.clone()
            twin.apply(action)
            copy.apply(action)
            assert copy.to_dict() == twin.to_dict()


# =============================================================================
# Hidden information
# =============================================================================
def hidden_parts(raw: dict[str, Any], viewer: int) -> dict[str, Any]:
    return {
        "other_hands": [p["hand"] for seat, p in enumerate(seats(raw)) if seat != viewer],
        "god_deck": raw["god_deck"][raw["deck_top"]: raw["deck_end"]],
        "person_piles": [raw["person_pile"][sex][raw["person_top"][sex]:] for sex in range(2)],
        "task_pile": raw["task_pile"][raw["task_top"]:],
    }


@pytest.mark.slow
@games(200)
@given(PLAYERS, SEEDS, CHOICES, SEEDS)
def test_determinize_keeps_everything_the_player_sees(players: int, seed: int, choice_seed: int,
                                                       det_seed: int) -> None:
    probe = random.Random(choice_seed + 1)
    for state in play(players, seed, choice_seed):
        if probe.random() > 0.04:
            continue
        for viewer in range(players):
            sample = state.determinize(viewer, det_seed)
            assert sample.check_invariants() is None
            assert sample.observation(viewer) == state.observation(viewer)
            assert [sum(p["hand"]) for p in seats(sample.to_dict()["state"])] == [
                sum(p["hand"]) for p in seats(state.to_dict()["state"])]
            if viewer == state.current_player:
                assert sample.legal_actions() == state.legal_actions()


@pytest.mark.slow
@games(150)
@given(PLAYERS, SEEDS, CHOICES)
def test_determinize_resamples_hidden_information(players: int, seed: int, choice_seed: int) -> None:
    probe = random.Random(choice_seed + 1)
    for state in play(players, seed, choice_seed):
        if probe.random() > 0.03 or state.is_terminal():
            continue
        viewer = probe.randrange(players)
        raw = state.to_dict()["state"]
        original = hidden_parts(raw, viewer)
        samples = [hidden_parts(state.determinize(viewer, s).to_dict()["state"], viewer) for s in range(32)]
        for sex in range(2):
            if len(set(original["person_piles"][sex])) >= 2:
                assert any(s["person_piles"][sex] != original["person_piles"][sex] for s in samples)
        if len(original["task_pile"]) >= 2:
            assert any(s["task_pile"] != original["task_pile"] for s in samples)
        unknown = sum(h - k for seat, p in enumerate(seats(raw)) if seat != viewer
                      for h, k in zip(p["hand"], p["known"], strict=True))
        pool = set(original["god_deck"]) | {c for seat, p in enumerate(seats(raw)) if seat != viewer
                                            for c in range(5) if p["hand"][c] > p["known"][c]}
        if unknown and len(pool) >= 2:
            assert any(s["other_hands"] != original["other_hands"] for s in samples)
        for s in samples:
            assert [sum(h) for h in s["other_hands"]] == [sum(h) for h in original["other_hands"]]
