"""The ladder of all players (benchmarks/ladder.py): the Plackett-Luce fit on finishing orders drawn from known
strengths, ties, the balanced schedule, the budget check and the frontier on made-up ratings, and a tiny real
run that is resumed, extended and refused when its CSV belongs to another pool."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from borabora_sim.games import get_game

PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "ladder.py"
_spec = importlib.util.spec_from_file_location("ladder", PATH)
assert _spec is not None and _spec.loader is not None
ladder = importlib.util.module_from_spec(_spec)
sys.modules["ladder"] = ladder
_spec.loader.exec_module(ladder)

TINY_POOL = "random;heuristic:style=balanced;heuristic:style=builder;flatmc:rollouts=2;mcts:iterations=2"


def plackett_luce_games(theta: np.ndarray, games: int, seed: int) -> pd.DataFrame:
    """Games of 4 of the players, the finishing order drawn from the Plackett-Luce model with log-strengths
    `theta`, in the ladder's CSV columns (only those the fit reads)."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(games):
        table = rng.choice(len(theta), 4, replace=False)
        left, order = list(table), []
        while left:
            weights = np.exp(theta[left])
            order.append(left.pop(rng.choice(len(left), p=weights / weights.sum())))
        row: dict[str, object] = {"game": g, "block": g}
        for seat, player in enumerate(table):
            row[f"spec_{seat}"] = f"p{player}"
            row[f"rank_{seat}"] = order.index(player) + 1
        rows.append(row)
    return pd.DataFrame(rows)


def test_plackett_luce_fit_recovers_planted_strengths() -> None:
    theta = np.array([0.0, 0.5, 1.0, -1.0, 2.0, -0.5])
    games = plackett_luce_games(theta, 3000, seed=1)
    pool = [f"p{i}" for i in range(len(theta))]
    fitted = ladder.fit_plackett_luce(ladder.outcomes(games, pool), len(pool))
    error = (fitted - fitted[0]) - theta
    assert np.abs(error).max() < 0.15, error


def test_bootstrap_intervals_cover_the_planted_differences() -> None:
    theta = np.array([0.0, 0.4, 0.8, -0.6, 1.5])
    games = plackett_luce_games(theta, 1500, seed=2)
    pool = [f"p{i}" for i in range(len(theta))]
    fit = ladder.rate(ladder.outcomes(games, pool), len(pool), anchor=0, resamples=200, seed=3)
    assert fit.rating[0] == 0 and np.all(fit.samples[:, 0] == 0)
    for i in range(1, len(theta)):
        lo, hi = fit.interval(i)
        assert lo < ladder.ELO * theta[i] < hi
        assert hi - lo < 200             # about ±60 Elo from 1,500 games: narrow enough to say something


def test_ties_share_the_race_and_the_last_place_carries_nothing() -> None:
    games = pd.DataFrame([{"game": 0, "block": 0, **{f"spec_{s}": f"p{s}" for s in range(4)},
                           **{f"rank_{s}": r for s, r in enumerate(ranks)}}
                          for ranks in ([1, 1, 3, 4], [2, 1, 3, 4], [1, 2, 3, 3])])
    data = ladder.outcomes(games, [f"p{s}" for s in range(4)])
    assert data.players[1].tolist() == [1, 0, 2, 3]                   # best first
    assert data.counted.tolist() == [[1, 1, 1, 0], [1, 1, 1, 0], [1, 1, 0, 0]]
    assert data.risk[0, 1].tolist() == [1, 1, 1, 1]                    # a shared first: both face all four
    assert data.risk[1, 2].tolist() == [0, 0, 1, 1]


def test_a_player_that_never_wins_a_place_stays_finite_and_is_flagged() -> None:
    theta = np.array([0.0, 0.5, 1.0, -0.5, 0.2])
    games = plackett_luce_games(theta, 200, seed=4)
    ranks = games[[f"rank_{s}" for s in range(4)]].to_numpy(copy=True)
    ranks[games[[f"spec_{s}" for s in range(4)]].to_numpy() == "p0"] = 99      # p0 is always last
    games[[f"rank_{s}" for s in range(4)]] = ranks.argsort(axis=1).argsort(axis=1) + 1
    pool = [f"p{i}" for i in range(5)]
    for c in ("score", "cpu", "decisions"):
        for s in range(4):
            games[f"{c}_{s}"] = 1
    fit = ladder.rate(ladder.outcomes(games, pool), len(pool), anchor=1, resamples=20)
    frame = ladder.summary(games, pool, fit).set_index("player")
    assert np.isfinite(fit.rating).all() and fit.rating[0] == fit.rating.min()
    assert frame.loc["p0", "note"].startswith("never finished ahead")
    assert frame.loc["p1", "note"] == "anchor"
    assert frame.loc["p0", "mean_rank"] == 4 and frame.loc["p0", "win_share"] == 0


def test_the_schedule_balances_pairs_and_seats_and_extends_its_prefix() -> None:
    game = get_game()
    pool = [f"heuristic:w_{i}" for i in range(11)]        # names only: the schedule never makes the players
    planned = ladder.schedule(pool, 880, 4, seed=5, game=game)
    pairs: Counter[tuple[str, str]] = Counter()
    seats: Counter[tuple[str, int]] = Counter()
    for g in planned:
        assert len(set(g.specs)) == 4
        pairs.update(itertools.combinations(sorted(g.specs), 2))
        seats.update((spec, s) for s, spec in enumerate(g.specs))
    assert len(pairs) == 55 and max(pairs.values()) - min(pairs.values()) <= 8     # 64 on average
    assert max(seats.values()) - min(seats.values()) <= 2
    assert all(g.rotation == g.index % 4 and g.block == g.index // 4 for g in planned)
    assert len({g.deal_seed for g in planned}) == 220
    assert ladder.schedule(pool, 301, 4, seed=5, game=game) == planned[:301]
    assert ladder.schedule(pool, 301, 4, seed=6, game=game) != planned[:301]


def made_up_fit(ratings: list[float], half_widths: list[float]) -> object:
    """A Fit whose bootstrap samples are uniform around the ratings with the given half widths."""
    rng = np.random.default_rng(0)
    samples = np.array(ratings) + rng.uniform(-1, 1, (400, len(ratings))) * np.array(half_widths)
    return ladder.Fit(rating=np.array(ratings, dtype=float), samples=samples, anchor=0)


def test_budget_steps_name_inversions_and_unresolved_steps() -> None:
    pool = ["random", "mcts:iterations=100", "mcts", "mcts:iterations=300", "flatmc:rollouts=10",
            "flatmc:rollouts=50", "mcts:iterations=300,rollout=heuristic,rollout_depth=30"]
    fit = made_up_fit([0, 100, 150, 400, 50, 40, 500], [1, 10, 10, 10, 30, 30, 10])
    steps = {(s.smaller, s.larger): s for s in ladder.budget_steps(pool, fit)}
    assert set(steps) == {("mcts:iterations=100", "mcts:iterations=300"), ("mcts:iterations=300", "mcts"),
                          ("flatmc:rollouts=10", "flatmc:rollouts=50")}      # "mcts" is 1000 iterations
    assert steps["mcts:iterations=100", "mcts:iterations=300"].verdict == "rises"
    assert steps["mcts:iterations=300", "mcts"].verdict == "INVERSION"
    assert steps["flatmc:rollouts=10", "flatmc:rollouts=50"].verdict == "not resolved (lower, intervals overlap)"
    assert [steps[key].paired for key in sorted(steps)] == ["contains 0", "above 0", "below 0"]
    words = ladder.budget_words(list(steps.values()))
    assert words.startswith("1 inversion(s): mcts is rated below mcts:iterations=300")
    assert "flatmc:rollouts=10 -> flatmc:rollouts=50" in words
    assert ladder.budget_words([]).startswith("No search player")


def test_frontier_keeps_the_strongest_player_for_its_cost() -> None:
    frame = pd.DataFrame({"player": list("abcde"), "rating": [-500, 0, -20, 300, 250],
                          "cpu_ms_per_decision": [0.001, 0.01, 0.01, 30, 50]})
    assert ladder.frontier(frame)["player"].tolist() == ["a", "b", "d"]


def test_the_default_pool_rates_every_style_and_the_learned_players_it_can_make() -> None:
    for name in ("bora_bora", "bamboo"):
        game = get_game(name)
        pool = ladder.default_pool(game)
        assert pool[0] == "random" and len(set(pool)) == len(pool)
        assert all(f"heuristic:style={style}" in pool for style in game.styles)
        assert sum(spec.startswith("mcts:iterations=") for spec in pool) >= 3
        for spec in ladder.LEARNED:
            assert (spec in pool) == (ladder.unavailable(spec, game) is None)
        assert all(ladder.unavailable(spec, game) is None for spec in pool)
        assert "expert" in pool and "mcts:iterations=300,evaluation=net" in pool     # every game here has a network
        guided = "mcts:iterations=300,rollout=heuristic,rollout_depth=30,prior=net"
        assert (guided in pool) == (name == "bora_bora")     # beside the cut-off search of random-rollout games


def test_a_tiny_ladder_runs_resumes_extends_and_refuses_another_pool(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--players", TINY_POOL, "--jobs", "1", "--bootstrap", "20", "--out", str(tmp_path)]
    assert ladder.main([*args, "--games", "8"]) == 0
    games = pd.read_csv(tmp_path / "games.csv")
    assert sorted(games["game"]) == list(range(8))
    assert (games[[f"decisions_{s}" for s in range(4)]] > 0).all().all()
    assert (games[[f"rank_{s}" for s in range(4)]].apply(sorted, axis=1).tolist()
            == [[1, 2, 3, 4]] * 8)                                         # Bora Bora breaks every tie
    table = pd.read_csv(tmp_path / "ratings.csv").set_index("player")
    assert sorted(table.index) == sorted(TINY_POOL.split(";"))
    assert table.loc["heuristic:style=balanced", "rating"] == 0
    assert table["games"].sum() == 8 * 4
    assert (table["cpu_ms_per_decision"] > 0).all()
    text = (tmp_path / "ratings.md").read_text()
    assert "No search player is in the pool at two budgets" in text
    for picture in ("ladder.png", "ladder.svg"):
        assert (tmp_path / picture).stat().st_size > 1000
    before = (tmp_path / "games.csv").read_bytes()
    capsys.readouterr()

    assert ladder.main([*args, "--games", "8"]) == 0                       # resumed: nothing left to play
    assert (tmp_path / "games.csv").read_bytes() == before
    assert "(8 in" in capsys.readouterr().err

    assert ladder.main([*args, "--games", "10"]) == 0                      # extended by two games
    after = pd.read_csv(tmp_path / "games.csv")
    assert sorted(after["game"]) == list(range(10))
    assert (tmp_path / "games.csv").read_bytes().startswith(before)

    other = TINY_POOL.replace("builder", "temple")
    with pytest.raises(SystemExit, match="use another --out"):
        ladder.main(["--players", other, "--jobs", "1", "--games", "8", "--out", str(tmp_path)])


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "random;heuristic;random;flatmc"], "in the pool twice"),
    (["--players", "random;heuristic;heuristic:style=balanced;flatmc"], "are the same player"),
    (["--players", "random;heuristic;flatmc"], "needs at least 4 different players"),
    (["--players", "random;heuristic;flatmc;mcts:budget=3"], "has no option 'budget'"),
    (["--game", "chess"], "unknown game 'chess'"),
    (["--rotations", "5"], "--rotations must be 1-4"),
    (["--games", "0"], "must be a positive integer"),
    (["--players", TINY_POOL, "--anchor", "heuristic:style=temple"], "is not in the pool"),
])
def test_bad_arguments_say_what_is_allowed(argv: list[str], message: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        ladder.main([*argv, "--out", str(tmp_path)])
    assert message in str(exit_info.value) + capsys.readouterr().err
    assert not (tmp_path / "games.csv").exists()
