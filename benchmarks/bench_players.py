#!/usr/bin/env python
"""Strength and speed of the borabora_sim AI players.

1. Strength ladder: 4-player games, the tested player against three copies of an opponent, seats rotated (game g
   puts the tested player in seat g mod 4). Per row: wins with a Wilson 95% interval (compared with the 25% a
   player of equal strength would win), and the mean VP margin over the best opponent. Rows:
     balanced, temple, builder, expansion   heuristic:style=<style>        vs 3 x random
     flatmc50                               flatmc:rollouts=50             vs 3 x heuristic (balanced)
     mcts250, mcts1000, mcts4000            mcts:iterations=<n>            vs 3 x heuristic (balanced)
2. Speed (one core, in this process): MCTS iterations per second and flat Monte Carlo rollouts per second from a
   few 4-player mid-game positions, and the time per decision of the heuristic and random players.

Seeds are derived per game from --seed and the game index, so a row's numbers do not depend on --jobs, and
every ladder row plays the same deals. Each row is printed (and flushed) as soon as it is done; progress with an
estimate of the time left goes to stderr.

Usage:
    python benchmarks/bench_players.py [--games N] [--jobs J] [--rows ROWS] [--seed S] [--json PATH]

`--rows` is a comma-separated list of row names, or `ladder` (every strength row above), `heuristic` (the four
styles), `mcts` (the three MCTS rows), `speed`; the default is the ladder and speed. Extra rows, run only when
named: `temple_vs_h`, `builder_vs_h`, `expansion_vs_h` (group `styles`) and `prefer_vs_h` (a style or the
fishing=prefer heuristic vs 3 balanced heuristics), `mcts1000cut` (MCTS 1000 iterations with heuristic rollouts
cut off after 30 decisions, vs 3 balanced heuristics); `all` is everything. Rough cost per 4-player game on
one core: heuristic vs random 0.001 s, flatmc50 0.55 s, mcts250 0.55 s, mcts1000 2.4 s, mcts4000 10 s.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS threads competing for the other core

import borabora_sim
from borabora_sim import _engine
from borabora_sim.match import play_game
from borabora_sim.players import STYLES, FlatMCPlayer, HeuristicPlayer, MCTSPlayer, make_player
from borabora_sim.stats import wilson_interval

from machine import machine_info

SEED = 20_260_601
PLAYERS = 4
BASELINE = 1 / PLAYERS
DEFAULT_GAMES = 400


@dataclass(frozen=True)
class Row:
    name: str
    tested: str                 # player spec of the tested seat
    opponent: str               # player spec of the three other seats
    seconds_per_game: float     # rough cost of one game on one core, for the estimate before a row starts


LADDER = [
    *(Row(style, f"heuristic:style={style}", "random", 0.01) for style in STYLES),
    Row("flatmc50", "flatmc:rollouts=50", "heuristic:style=balanced", 0.55),
    Row("mcts250", "mcts:iterations=250", "heuristic:style=balanced", 0.55),
    Row("mcts1000", "mcts:iterations=1000", "heuristic:style=balanced", 2.4),
    Row("mcts4000", "mcts:iterations=4000", "heuristic:style=balanced", 10.0),
]
# Extra rows, run only when named: the styles against each other, and MCTS with heuristic cut-off rollouts.
EXTRA = [
    *(Row(f"{style}_vs_h", f"heuristic:style={style}", "heuristic:style=balanced", 0.005)
      for style in STYLES if style != "balanced"),
    Row("prefer_vs_h", "heuristic:fishing=prefer", "heuristic:style=balanced", 0.005),
    Row("mcts1000cut", "mcts:iterations=1000,rollout=heuristic,rollout_depth=30", "heuristic:style=balanced", 3.7),
]
DEFAULT_ROWS = [row.name for row in LADDER] + ["speed"]
ROW_NAMES = [row.name for row in LADDER + EXTRA] + ["speed"]
ALIASES = {
    "ladder": [row.name for row in LADDER],
    "styles": [row.name for row in EXTRA if row.name.endswith("_vs_h")],
    "heuristic": list(STYLES),
    "mcts": ["mcts250", "mcts1000", "mcts4000"],
    "default": DEFAULT_ROWS,
    "all": ROW_NAMES,
}


# ---------------------------------------------------------------------------------------------------------------
# 1. strength ladder
# ---------------------------------------------------------------------------------------------------------------
def game_seed(base: int, index: int) -> int:
    return int(_engine.derive_seed(base, index))


def play_one(tested: str, opponent: str, base_seed: int, index: int) -> dict:
    """Game `index` of a row: the tested player in seat index mod 4; every seed derives from (base_seed, index)."""
    seed = game_seed(base_seed, index)
    seat = index % PLAYERS
    players = [make_player(tested if s == seat else opponent, seed=game_seed(seed, 1 + s)) for s in range(PLAYERS)]
    start = time.process_time()
    record = play_game(players, seed=seed)
    cpu = time.process_time() - start
    best_other = max(score for s, score in enumerate(record.scores) if s != seat)
    return {"index": index, "seat": seat, "scores": record.scores, "winner": record.winner,
            "won": record.winner == seat, "margin": record.scores[seat] - best_other, "cpu_seconds": cpu}


def run_row(row: Row, games: int, jobs: int, base_seed: int, pool: ProcessPoolExecutor | None) -> dict:
    estimate = row.seconds_per_game * games / max(1, jobs)
    print(f"[{row.name}] {games} games, {row.tested} vs 3 x {row.opponent}; estimated {estimate / 60:.1f} min "
          f"with {jobs} job(s)", file=sys.stderr, flush=True)
    start = time.perf_counter()
    results: list[dict] = []
    every = max(1, games // 10)

    def progress() -> None:
        done = len(results)
        if done % every and done != games:
            return
        elapsed = time.perf_counter() - start
        wins = sum(r["won"] for r in results)
        left = elapsed / done * (games - done)
        print(f"[{row.name}] {done}/{games} games, {wins} wins, {elapsed:.0f} s elapsed, ~{left:.0f} s left",
              file=sys.stderr, flush=True)

    if pool is None:
        for index in range(games):
            results.append(play_one(row.tested, row.opponent, base_seed, index))
            progress()
    else:
        futures = [pool.submit(play_one, row.tested, row.opponent, base_seed, index) for index in range(games)]
        for future in as_completed(futures):
            results.append(future.result())
            progress()
    results.sort(key=lambda r: r["index"])
    wall = time.perf_counter() - start
    wins = sum(r["won"] for r in results)
    lo, hi = wilson_interval(wins, games)
    margins = [r["margin"] for r in results]
    margin_half = 1.959964 * statistics.stdev(margins) / math.sqrt(games) if games > 1 else float("nan")
    seats = [sum(r["won"] for r in results if r["seat"] == s) for s in range(PLAYERS)]
    return {
        "row": row.name, "tested": row.tested, "opponent": row.opponent, "games": games,
        "wins": wins, "win_rate": wins / games, "wilson_lo": lo, "wilson_hi": hi,
        "vs_baseline": "above" if lo > BASELINE else "below" if hi < BASELINE else "n.s.",
        "mean_margin": statistics.fmean(margins), "margin_ci95": margin_half,
        "mean_score": statistics.fmean(r["scores"][r["seat"]] for r in results),
        "mean_opponent_score": statistics.fmean(
            statistics.fmean(sc for s, sc in enumerate(r["scores"]) if s != r["seat"]) for r in results),
        "wins_by_seat": seats,
        "cpu_seconds_per_game": statistics.fmean(r["cpu_seconds"] for r in results),
        "wall_seconds": wall,
    }


def ladder_header(width: int) -> str:
    return (f"| {'row':<14} | {'tested':<{width}} | {'vs 3 x':<24} | {'games':>5} | {'wins':>4} | {'win rate':>8} | "
            f"{'Wilson 95%':<13} | {'vs 25%':<6} | {'VP margin':>13} | {'s/game':>7} |")


def ladder_line(r: dict, width: int) -> str:
    interval = f"{r['wilson_lo']:.3f}-{r['wilson_hi']:.3f}"
    margin = f"{r['mean_margin']:+.1f} ± {r['margin_ci95']:.1f}"
    return (f"| {r['row']:<14} | {r['tested']:<{width}} | {r['opponent']:<24} | {r['games']:>5} | {r['wins']:>4} | "
            f"{r['win_rate']:>8.3f} | {interval:<13} | {r['vs_baseline']:<6} | {margin:>13} | "
            f"{r['cpu_seconds_per_game']:>7.3f} |")


# ---------------------------------------------------------------------------------------------------------------
# 2. speed
# ---------------------------------------------------------------------------------------------------------------
def midgame_positions(count: int = 4) -> list[borabora_sim.State]:
    """Die-placement decisions of rounds 2..5 of heuristic 4-player games, one per game, with 5+ legal actions."""
    positions = []
    game = 0
    while len(positions) < count:
        want_round = 2 + len(positions) % 4
        seats = [HeuristicPlayer(seed=100 * game + s) for s in range(PLAYERS)]
        state = borabora_sim.new_game(PLAYERS, seed=game_seed(SEED ^ 0x5BEED, game))
        while not state.is_terminal():
            if state.round == want_round and state.decision == "die" and len(state.legal_actions()) >= 5:
                positions.append(state.clone())
                break
            state.apply(seats[state.current_player].choose(state))
        game += 1
    return positions


def decision_states(games: int = 10) -> list[borabora_sim.State]:
    """Every decision state of `games` 4-player games between balanced heuristic players."""
    states = []
    for game in range(games):
        seats = [HeuristicPlayer(seed=100 * game + s) for s in range(PLAYERS)]
        state = borabora_sim.new_game(PLAYERS, seed=game_seed(SEED ^ 0xDEC, game))
        while not state.is_terminal():
            states.append(state.clone())
            state.apply(seats[state.current_player].choose(state))
    return states


def time_search(make, positions: list[borabora_sim.State], repeats: int) -> tuple[int, float]:
    """(work units done, best total seconds) of one search per position; work = player.last_iterations."""
    best = math.inf
    done = 0
    for _ in range(repeats):
        player = make()
        player.choose(positions[0])                  # warm-up
        done = 0
        t0 = time.perf_counter()
        for state in positions:
            player.choose(state)
            done += player.last_iterations
        best = min(best, time.perf_counter() - t0)
    return done, best


def bench_speed(repeats: int = 3) -> dict:
    positions = midgame_positions()
    search_rows = []
    for label, make, unit in (
        ("mcts:iterations=2000 (random rollouts)", lambda: MCTSPlayer(iterations=2000, seed=1), "iterations"),
        ("mcts:iterations=2000,rollout=heuristic", lambda: make_player("mcts:iterations=2000,rollout=heuristic",
                                                                      seed=1), "iterations"),
        ("mcts:iterations=2000,rollout=heuristic,rollout_depth=30",
         lambda: make_player("mcts:iterations=2000,rollout=heuristic,rollout_depth=30", seed=1), "iterations"),
        ("flatmc:rollouts=50 (random rollouts)", lambda: FlatMCPlayer(rollouts=50, seed=1), "rollouts"),
        ("flatmc:rollouts=50,rollout=heuristic", lambda: make_player("flatmc:rollouts=50,rollout=heuristic",
                                                                    seed=1), "rollouts"),
    ):
        done, seconds = time_search(make, positions, repeats)
        search_rows.append({"player": label, "unit": unit, "positions": len(positions), "work": done,
                            "seconds": seconds, "per_second": done / seconds,
                            "ms_per_decision": 1000 * seconds / len(positions)})
        print(f"| {label:<55} | {len(positions):>9} | {done:>8} {unit:<10} | {done / seconds:>10,.0f} /s | "
              f"{1000 * seconds / len(positions):>9.1f} |", flush=True)

    states = decision_states()
    decision_rows = []
    specs = [*(f"heuristic:style={style}" for style in STYLES), "heuristic:thorough=false", "random"]
    for spec in specs:
        best = math.inf
        for _ in range(repeats):
            player = make_player(spec, seed=1)
            t0 = time.perf_counter()
            for state in states:
                player.choose(state)
            best = min(best, time.perf_counter() - t0)
        us = 1e6 * best / len(states)
        decision_rows.append({"player": spec, "decisions": len(states), "us_per_decision": us})
    return {"positions": len(positions), "search": search_rows, "decisions": decision_rows,
            "decision_states": len(states)}


DECISION_HEADER = f"| {'player':<38} | {'us/decision':>11} |"
SEARCH_HEADER = f"| {'player':<55} | {'positions':>9} | {'work':>19} | {'rate':>13} | {'ms/choose':>9} |"


def print_decision_rows(speed: dict) -> None:
    print(f"\nTime per decision ({speed['decision_states']} decision states of 10 heuristic 4-player games; "
          "choose() from Python, one core)")
    print(DECISION_HEADER)
    print(separator(DECISION_HEADER))
    for r in speed["decisions"]:
        print(f"| {r['player']:<38} | {r['us_per_decision']:>11.1f} |", flush=True)


# ---------------------------------------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------------------------------------
def separator(header: str) -> str:
    """The markdown rule under a table header."""
    return "|" + "|".join("-" * len(cell) for cell in header[1:-1].split("|")) + "|"


def parse_rows(text: str) -> list[str]:
    rows: list[str] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        names = ALIASES.get(item, [item])
        for name in names:
            if name not in ROW_NAMES:
                raise argparse.ArgumentTypeError(
                    f"unknown row {item!r}; rows: {', '.join(ROW_NAMES)}; groups: {', '.join(ALIASES)}")
            if name not in rows:
                rows.append(name)
    if not rows:
        raise argparse.ArgumentTypeError("no rows given")
    return rows


def positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=positive, default=DEFAULT_GAMES, help="games per ladder row (default 400)")
    parser.add_argument("--jobs", type=positive, default=2, help="worker processes for the ladder (default 2)")
    parser.add_argument("--rows", type=parse_rows, default=DEFAULT_ROWS,
                        help=f"comma-separated rows: {', '.join(ROW_NAMES)}, or {', '.join(ALIASES)}")
    parser.add_argument("--seed", type=int, default=SEED, help=f"base seed of the ladder games (default {SEED})")
    parser.add_argument("--json", metavar="PATH", help="also write every number to PATH")
    args = parser.parse_args(argv)

    info = machine_info()
    results: dict = {"machine": info, "games": args.games, "jobs": args.jobs, "seed": args.seed,
                     "rows": args.rows, "ladder": [], "speed": None}
    print(f"borabora_sim player benchmark  {info['date']}")
    print(f"{info['cpu']}, {info['cpu_count']} cores, Python {info['python']}; commit {info['commit']}, "
          f"seed {args.seed}", flush=True)

    ladder_rows = [row for row in LADDER + EXTRA if row.name in args.rows]
    if ladder_rows:
        print(f"\n1. Strength ladder ({PLAYERS}-player games, seats rotated, {args.games} games per row, "
              f"{args.jobs} job(s); win rate with Wilson 95% interval vs the {BASELINE:.0%} baseline; "
              "VP margin = tested score - best opponent score, mean ± 95% half-width; s/game = CPU s per game)")
        width = max(len(row.tested) for row in ladder_rows)
        print(ladder_header(width))
        print(separator(ladder_header(width)), flush=True)
        pool = ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else None
        try:
            for row in ladder_rows:
                r = run_row(row, args.games, args.jobs, args.seed, pool)
                results["ladder"].append(r)
                print(ladder_line(r, width), flush=True)
        finally:
            if pool is not None:
                pool.shutdown()

    if "speed" in args.rows:
        print("\n2. Search speed (one core; one decision per position from 4 mid-game 4-player positions, "
              "best of 3)")
        print(SEARCH_HEADER)
        print(separator(SEARCH_HEADER), flush=True)
        results["speed"] = bench_speed()
        print_decision_rows(results["speed"])

    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
