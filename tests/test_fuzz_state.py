"""Fuzzing State.from_dict: mutated saved states are refused with StateFormatError, or play on safely.

Hypothesis draws batches of mutations (tests/state_mutations.py: integer fields of real saved states set to
edge values of their types and of the game's ranges). Each batch is judged in a child process, so a crash of
the compiled engine fails the test with the batch that caused it instead of killing the test run. Every
accepted state plays on for up to 300 random steps with the invariants checked after each one.

The clock and order fields of every game that names them (CLOCK_FIELDS of its samples: rounds, phases, turns,
turn orders, stamps and clocks) get a fuzz of their own: small edits of states met at every kind of decision of
every round, each accepted state played to the end of the game with random legal actions, saving and loading back
unchanged after every step.

More cases: BORABORA_FUZZ_EXAMPLES=2000 pytest tests/test_fuzz_state.py (25 cases an example); the sanitizer
build in docs/fuzzing.md runs the same cases with memory errors caught where they happen.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import first_position, sample, samples_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from state_mutations import (
    CLOCK_VALUES,
    EDGE_VALUES,
    Case,
    ClockCase,
    base_states,
    clock_bases,
    clock_bases_with,
    clock_edit,
    clock_fields,
    clock_judge,
    clock_leaves,
    judge,
    leaves,
    mutated,
)

import borabora_sim
from borabora_sim import State, StateFormatError, rules_for
from borabora_sim.games import game_names

CASES_PER_EXAMPLE = 25
EXAMPLES = int(os.environ.get("BORABORA_FUZZ_EXAMPLES", "30"))
JUDGE = Path(__file__).with_name("state_mutations.py")


@st.composite
def cases(draw: st.DrawFn) -> Case:
    base = draw(st.integers(0, len(base_states()) - 1))
    values = st.one_of(st.sampled_from(EDGE_VALUES), st.integers(-300, 70000))
    edits = draw(st.lists(st.tuples(st.integers(0, len(leaves(base)) - 1), values), min_size=1, max_size=3))
    return base, edits


def judged_in_child(batch: list[Case]) -> list[str]:
    done = subprocess.run([sys.executable, str(JUDGE), "--stdin"], input=json.dumps(batch), capture_output=True,
                          text=True, timeout=600)
    crashed = f"the engine crashed (exit {done.returncode}) on one of {batch}:\n{done.stderr[-2000:]}"
    assert done.returncode == 0, crashed
    return done.stdout.splitlines()


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cases(), min_size=CASES_PER_EXAMPLE, max_size=CASES_PER_EXAMPLE))
def test_mutated_saved_states_are_refused_cleanly_or_play_on_with_invariants_holding(batch: list[Case]) -> None:
    verdicts = judged_in_child(batch)
    assert len(verdicts) == len(batch)
    wrong = [(case, verdict) for case, verdict in zip(batch, verdicts, strict=True) if verdict.startswith("misbehaved")]
    assert not wrong, wrong


def test_the_judge_tells_refusals_from_games_played_on() -> None:
    """The fuzz verdicts can fail: a harmless edit plays on, a harmful one is refused."""
    base = next(i for i, saved in enumerate(base_states()) if saved["state"]["phase"] == 1)   # phase A
    paths = leaves(base)
    n_moves = paths.index(("n_moves",))
    turn_idx = paths.index(("turn_idx",))
    assert judge((base, [(n_moves, 7)])) == "played"
    assert judge((base, [(turn_idx, -128)])) == "refused"


# ---- the clock and order fields of every game ----------------------------------------------------------------
CLOCK_EXAMPLES = int(os.environ.get("BORABORA_CLOCK_FUZZ_EXAMPLES", "6"))
CLOCK_CASES_PER_EXAMPLE = 25


@st.composite
def clock_edits(draw: st.DrawFn, game: str, base: int, field: int) -> tuple[list[object], int]:
    value = draw(st.one_of(st.none(), st.sampled_from(CLOCK_VALUES)))
    return clock_edit(game, base, field, draw(st.integers(0, 63)), value, draw(st.sampled_from((-1, 1))))


@st.composite
def clock_cases(draw: st.DrawFn, game: str) -> ClockCase:
    """A field first (each is edited as often), a base state holding it, and one time in four a second edit of
    that state; a value one more or one less than the present one, or a small one."""
    field = draw(st.integers(0, len(clock_fields(game)) - 1))
    base = draw(st.sampled_from(clock_bases_with(game, field)))
    edits = [draw(clock_edits(game, base, field))]
    if draw(st.integers(0, 3)) == 0:
        other = draw(st.sampled_from([f for f, paths in enumerate(clock_leaves(game, base)) if paths]))
        edits.append(draw(clock_edits(game, base, other)))
    return game, base, edits


def clock_judged_in_child(game: str, batch: list[ClockCase]) -> list[str]:
    cases = [[base, edits] for _, base, edits in batch]
    done = subprocess.run([sys.executable, str(JUDGE), "--clock", game, "--stdin"], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=1200)
    crashed = f"the engine crashed (exit {done.returncode}) on one of {batch}:\n{done.stderr[-2000:]}"
    assert done.returncode == 0, crashed
    return done.stdout.splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
@settings(max_examples=CLOCK_EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_edited_clock_and_order_fields_are_refused_or_play_to_the_end_loading_back_at_every_step(
        game: str, data: st.DataObject) -> None:
    sample(game, "CLOCK_FIELDS", "clock fields")
    batch = data.draw(st.lists(clock_cases(game), min_size=CLOCK_CASES_PER_EXAMPLE, max_size=CLOCK_CASES_PER_EXAMPLE))
    verdicts = clock_judged_in_child(game, batch)
    assert len(verdicts) == len(batch)
    wrong = [(case, verdict) for case, verdict in zip(batch, verdicts, strict=True) if verdict.startswith("misbehaved")]
    assert not wrong, wrong


def _first_base(game: str, holding: dict[str, int]) -> int:
    """The first base state of the clock fuzz of `game` whose body holds the values `holding`."""
    return next(i for i, saved in enumerate(clock_bases(game))
                if all(saved["state"][field] == value for field, value in holding.items()))


@pytest.mark.parametrize("game", game_names())
def test_the_clock_judge_tells_refusals_from_games_played_to_the_end(game: str) -> None:
    """The clock fuzz can fail: a harmless edit plays to the end, one that breaks a law is refused (CLOCK_VERDICTS
    of the samples of every game that names its clock fields)."""
    sample(game, "CLOCK_FIELDS", "clock fields")
    verdicts = getattr(samples_of(game), "CLOCK_VERDICTS", ())
    assert {verdict for *_, verdict in verdicts} == {"played", "refused"}, "the clock judge's verdicts, both of them"
    for holding, field, value, verdict in verdicts:
        base = _first_base(game, holding)
        new = clock_bases(game)[base]["state"]["n_moves"] + 1 if value is None else value
        assert clock_judge((game, base, [(list(field), new)])) == verdict, (field, new)


# ---- the accepted impossibilities found by fuzzing, each one named ----------------------------------------------
def saved_midgame() -> dict:
    base = next(i for i, saved in enumerate(base_states()) if saved["state"]["phase"] == 1 and
                saved["state"]["n_players"] == 4)
    return mutated((base, []))


def edited_saved(*edits: tuple) -> dict:
    """The saved mid-game state with each (path..., value) edit applied to its body."""
    data = saved_midgame()
    for *path, value in edits:
        target = data["state"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(("edits", "named"), [
    ([("turn_idx", -128)], "turn_idx"),
    ([("stack", 0, "player", 4)], "stack"),
    ([("stack", 0, "player", -1)], "stack"),
    ([("stack", 0, "kind", 7), ("stack", 0, "a", 3), ("stack", 0, "b", 100)], r"arguments \(a, b\)"),   # sex 100
    ([("stack", 0, "kind", 2), ("stack", 0, "a", 127)], r"arguments \(a, b\)"),                       # Helper 127
    ([("stack", 0, "kind", 4), ("stack", 0, "a", 6)], r"arguments \(a, b\)"),                         # Red God
    ([("person_top", 0, 37)], "person_top"),
    ([("pl", 0, "vp", 0, 32767)], "victory points"),
    ([("pl", 0, "offerings", 255)], "at most 120"),
    ([("pl", 0, "shells", 255)], "at most 120"),
    ([("blue", 255)], "God effect flags"),
    ([("deck_end", 61)], "God cards"),
    ([("pl", 3, "n_persons", 13)], "person"),
    ([("status_clock", 65535)], "status_clock"),
], ids=["turn_idx", "player_4", "player_minus_1", "person_sex_100", "helper_127_points", "red_god_without_hut",
        "person_pile_overdrawn", "vp_32767", "offerings_255", "shells_255", "blue_flag_255", "deck_beyond_60",
        "13_persons", "status_clock"])
def test_from_dict_refuses_fields_that_would_break_play(edits: list[tuple], named: str) -> None:
    with pytest.raises(StateFormatError, match=named):
        State.from_dict(edited_saved(*edits), rules_for())


# ---- R21: what keeps a loaded state playable ----------------------------------------------------------------------
def first_die_decision(players: int = 4) -> State:
    state = borabora_sim.new_game(players, seed=3)
    while state.phase == "setup":
        state.apply(state.legal_actions()[0])
    return state


def test_r21_a_die_turn_without_a_die_is_skipped() -> None:
    state = first_die_decision()
    order = state.turn_order
    data = state.to_dict()
    data["state"]["pl"][order[1]]["dice"] = [0, 0, 0]
    loaded = State.from_dict(data, rules_for())
    loaded.apply(loaded.action_from_string(next(n for n in map(loaded.action_to_string, loaded.legal_actions())
                                                if n.endswith("on fishing"))))
    assert loaded.current_player == order[2]
    assert loaded.check_invariants() is None


def test_r21_an_empty_person_pile_leaves_the_next_display_empty() -> None:
    state = first_die_decision()
    data = state.to_dict()
    data["state"]["person_top"][0] = 36             # no man left to draw
    loaded = State.from_dict(data, rules_for())
    rng = random.Random(1)
    while loaded.round == 1:
        legal = loaded.legal_actions()
        loaded.apply(legal[rng.randrange(len(legal))])
    men, women = loaded.to_dict()["state"]["person_display"]
    assert men == [255] * 6 and 255 not in women
    assert loaded.check_invariants() is None


def first_decision_of(kind: str, seed: int = 5) -> State:
    state: State = first_position("bora_bora", 4, lambda s: s.decision == kind, seeds=range(seed, seed + 1))
    return state


def test_r21_a_player_with_six_jewelry_tiles_is_offered_no_more() -> None:
    state = first_decision_of("jewelry")
    data = state.to_dict()
    raw = data["state"]
    seat = raw["stack"][raw["sp"] - 1]["player"]
    later = [tile for column in raw["jewelry_display"][raw["round"]:] for tile in column if tile != 255][:6]
    assert len(later) == 6
    raw["jewelry_display"] = [[255 if tile in later else tile for tile in column] for column in raw["jewelry_display"]]
    raw["pl"][seat]["jewelry"], raw["pl"][seat]["n_jewelry"], raw["pl"][seat]["shells"] = later, 6, 100
    loaded = State.from_dict(data, rules_for())
    assert [loaded.action_to_string(a) for a in loaded.legal_actions()] == ["done"]
    raw["pl"][seat]["n_jewelry"] = 5
    assert len(State.from_dict(data, rules_for()).legal_actions()) > 1  # with a free slot the round's tiles are offered


def test_r21_a_player_holding_three_tasks_is_offered_no_task_to_take() -> None:
    state = first_decision_of("take_task")
    data = state.to_dict()
    raw = data["state"]
    seat = raw["stack"][raw["sp"] - 1]["player"]
    free = raw["pl"][seat]["tasks"].index(255)
    spare = raw["task_pile"][raw["task_top"]]
    raw["pl"][seat]["tasks"][free] = spare
    raw["task_top"] += 1
    with pytest.raises(StateFormatError, match=r"take_task.*has no legal action"):
        State.from_dict(data, rules_for())
