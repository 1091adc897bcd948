"""A game written in plain Python (borabora_sim.games.python_game), through Nim, the library's example of one
(borabora_sim/games/nim.py): its rules, its saved states, its searches in Python, and that the command line
simulates it and the question engine answers every form of question about it. What every game must do is checked
by the shared suite (test_game_api.py and the rest), which Nim runs without a line of its own there."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from borabora_sim.errors import IllegalActionError, StateFormatError
from borabora_sim.games import get_game
from borabora_sim.games.nim import PILE
from borabora_sim.games.python_game import Chance, PythonState, mix_seed
from borabora_sim.match import play_game
from borabora_sim.players import make_player
from borabora_sim.questions import ask


def nim_at(pile: int, players: int = 2, seed: int = 1) -> PythonState:
    """A game of Nim with `pile` stones left, seat 0 to move, reached by legal moves."""
    state = get_game("nim").new_initial_state(players=players, seed=seed)
    saved = state.to_dict()
    taken = [0] * players
    taken[1] = PILE - pile
    saved["state"] = {"pile": pile, "to_move": 0, "first_seat": 0, "taken": taken,
                      "last_taker": -1 if pile == PILE else 1}
    return get_game("nim").state_from_dict(saved)


def test_a_player_takes_one_to_three_stones_and_whoever_takes_the_last_stone_wins() -> None:
    state = nim_at(2)
    assert state.legal_actions() == [0, 1]                  # take 1 or 2: no more than the pile holds
    with pytest.raises(IllegalActionError, match=r"legal: 0 \(take_1\), 1 \(take_2\)"):
        state.apply(2)
    state.apply(1)
    assert state.is_terminal() and state.scores() == [1, 0] and state.winner() == 0 and state.ranks() == [1, 2]
    assert state.returns() == [1.0, 0.0] and state.score_breakdown() == [{"last_stone": 1}, {"last_stone": 0}]


def test_who_moves_first_is_drawn_from_the_seed() -> None:
    firsts = {get_game("nim").new_initial_state(players=3, seed=seed).current_player for seed in range(40)}
    assert firsts == {0, 1, 2}
    state = get_game("nim").new_initial_state(players=3, seed=7)
    assert state.counters()[state.current_player]["start_position"] == 0


def test_chance_draws_evenly_and_seeds_spread() -> None:
    chance = Chance(5)
    counts = [0] * 4
    for _ in range(4000):
        counts[chance.below(4)] += 1
    assert all(900 < count < 1100 for count in counts)
    assert len({mix_seed(1, index) for index in range(1000)}) == 1000


def test_the_perfect_rule_wins_every_two_player_game_it_starts_against_any_player() -> None:
    nim = get_game("nim")
    for seed in range(20):
        for opponent in ("random", "heuristic:style=greedy"):
            start = nim.new_initial_state(players=2, seed=seed).current_player
            specs = ["heuristic:style=perfect", opponent] if start == 0 else [opponent, "heuristic:style=perfect"]
            record = play_game([make_player(spec, seed=seed, game=nim) for spec in specs], seed, nim)
            assert record.winner == start


@pytest.mark.parametrize(("pile", "winning"), [(5, 0), (6, 1), (7, 2), (9, 0)])
def test_the_tree_search_in_python_finds_the_winning_take(pile: int, winning: int) -> None:
    player = make_player("mcts:iterations=3000", seed=3, game=get_game("nim"))
    assert player.choose(nim_at(pile)) == winning
    assert "Take" in player.explain()
    assert make_player("flatmc:rollouts=300,rollout=heuristic", seed=3, game=get_game("nim")).choose(
        nim_at(pile)) == winning


@pytest.mark.parametrize(("spec", "says"), [
    ("mcts:threads=2", "written in Python"), ("mcts:evaluation=net", "written in Python"),
    ("flatmc:rollout_depth=3", "written in Python"), ("expert", "no network"), ("learned", "bora_bora only"),
])
def test_what_needs_a_compiled_game_is_refused_in_one_line(spec: str, says: str) -> None:
    with pytest.raises(ValueError, match=says) as error:
        make_player(spec, seed=1, game=get_game("nim"))
    assert "\n" not in str(error.value)


def test_a_saved_state_loads_and_pickles_and_a_malformed_one_is_refused_by_name() -> None:
    state = nim_at(10)
    state.apply(1)
    again = get_game("nim").state_from_dict(state.to_dict())
    assert again == state and pickle.loads(pickle.dumps(state)) == state
    broken = state.to_dict()
    broken["state"]["pile"] = 30
    with pytest.raises(StateFormatError, match="add up to 21"):
        get_game("nim").state_from_dict(broken)
    broken = state.to_dict()
    broken["chance"] = "zz"
    with pytest.raises(StateFormatError):
        get_game("nim").state_from_dict(broken)
    with pytest.raises(StateFormatError, match=r"^missing field\(s\) .version., .*; a saved state has format, version"):
        get_game("nim").state_from_dict({"format": "nim"})


def test_the_command_line_simulates_nim_and_prints_its_summary(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "borabora_sim", "simulate", "--game", "nim", "--games", "60",
                           "--out", str(tmp_path / "run"), "--jobs", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "60 games" in done.stdout and "heuristic:style=greedy" in done.stdout
    assert "the point for taking the last stone" in done.stdout


@pytest.mark.parametrize("form", ["setup", "policy", "choice"])
def test_every_form_of_question_is_answered_for_nim(form: str, tmp_path: Path) -> None:
    common = {"game": "nim", "seed": 5, "sizes": {"quick": {"games": 60}}}
    questions = {
        "setup": {"title": "Is moving first an advantage in Nim?", "form": "setup", "vary": "players",
                  "arms": [2], "rungs": ["perfect"]},
        "policy": {"title": "Does leaving a multiple of four beat greedy play?", "form": "policy", "players": 2,
                   "rungs": ["greedy"], "arms": {"greedy": {"value": "", "words": "greedy play"},
                                                 "perfect": {"value": "style=perfect",
                                                             "words": "leaving a multiple of four"}}},
        "choice": {"title": "When is taking three stones best?", "form": "choice", "group": "take_3",
                   "players": 2, "rungs": ["greedy"]},
    }
    answer = ask({**common, **questions[form]}, out=tmp_path / form, size="quick", jobs=1)
    first = answer.lead[0]
    assert first and "take_3" not in first and "nim" not in first.lower().split()
    assert (tmp_path / form / "report.md").is_file()
    if form == "setup":             # the first seat always wins with the perfect rule
        assert first.startswith("Yes:") and "100%" in first
