#!/usr/bin/env python
"""Root-parallel MCTS: what a second thread buys for one decision.

1. Speed: iterations done in `--seconds` (default 1) per decision by MCTS with threads=1 and threads=2 (each game's
   mcts defaults), from fixed mid-game 4-player positions of Bora Bora and of Bamboo (decisions with 5+ legal
   actions 30-75% of the way through a game between heuristic players). Each position is searched in the order
   1, 2, 2, 1 threads, so a change of the machine's load during the run weighs on both alike; the ratio is that of
   iterations in the same run. CPU/wall is the process's CPU time over the wall time of those searches: near 2
   for threads=2 only if the second core was free. The machine's load average is printed before and after: with
   a 1-minute load above ~1.5 other work held a core and the ratio does not measure the search.
2. Strength at equal wall time (`--games` > 0): 4-player Bora Bora, two seats MCTS(seconds=S, threads=2) and two
   MCTS(seconds=S, threads=1) with S = `--strength-seconds` (default 0.01). Game g uses the deal of game g // 2 and
   the seats of arrangement g mod 6 (every way of giving two of the four seats to threads=2, each followed by its
   complement, so every deal is played from both sides). Win share of the threads=2 seats with a Wilson 95%
   interval (50%: no difference); paired deals make the outcomes of a pair negatively correlated, so the interval
   is if anything too wide. The games run one at a time: the threads need both cores.

Usage:
    python benchmarks/bench_threads.py [--seconds T] [--games N] [--strength-seconds S] [--seed SEED] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS threads competing for the cores

from borabora_sim.games import get_game
from borabora_sim.players import HeuristicPlayer, MCTSPlayer, make_player
from borabora_sim.protocol import Game, GameState
from borabora_sim.stats import wilson_interval

from machine import machine_info

SEED = 20_261_130
PLAYERS = 4
POSITIONS_PER_GAME = 4
GAMES = ("bora_bora", "bamboo")
# Seats of the threads=2 players, each arrangement followed by its complement (the same deal from the other side).
ARRANGEMENTS = [seats for pair in combinations(range(PLAYERS), 2) if 0 in pair
                for seats in (pair, tuple(s for s in range(PLAYERS) if s not in pair))]


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def midgame_positions(game: Game, count: int, seed: int) -> list[GameState]:
    """One decision with 5+ legal actions per game between heuristic players, at 30%, 45%, 60%, 75%, ... of that
    game's decisions."""
    positions: list[GameState] = []
    index = 0
    while len(positions) < count:
        seats = [HeuristicPlayer(seed=100 * index + s, game=game) for s in range(PLAYERS)]
        state = game.new_initial_state(players=PLAYERS, seed=game.derive_seed(seed, index))
        states = []
        while not state.is_terminal():
            states.append(state.clone())
            state.apply(seats[state.current_player].choose(state))
        wanted = 0.30 + 0.15 * (len(positions) % 4)
        choices = [s for s in states[int(wanted * len(states)):] if len(s.legal_actions()) >= 5]
        if choices:
            positions.append(choices[0])
        index += 1
    return positions


def search_once(game: Game, state: GameState, seconds: float, threads: int) -> tuple[int, float, float]:
    """(iterations, wall seconds, CPU seconds) of one decision."""
    player = make_player(f"mcts:seconds={seconds:g},threads={threads}", seed=1, game=game)
    assert isinstance(player, MCTSPlayer)
    wall, cpu = time.perf_counter(), time.process_time()
    player.choose(state)
    return player.last_iterations, time.perf_counter() - wall, time.process_time() - cpu


def bench_speed(seconds: float, seed: int) -> list[dict]:
    rows = []
    header = (f"| {'game':<9} | {'position':>8} | {'legal':>5} | {'it/decision, 1 thread':>21} | "
              f"{'it/decision, 2 threads':>22} | {'ratio':>5} | {'CPU/wall 1':>10} | {'CPU/wall 2':>10} |")
    print(header)
    print("|" + "|".join("-" * len(cell) for cell in header[1:-1].split("|")) + "|", flush=True)
    for name in GAMES:
        game = get_game(name)
        for number, state in enumerate(midgame_positions(game, POSITIONS_PER_GAME, seed)):
            runs: dict[int, list[tuple[int, float, float]]] = {1: [], 2: []}
            for threads in (1, 2, 2, 1):
                runs[threads].append(search_once(game, state, seconds, threads))
            row = {"game": name, "position": number, "legal": len(state.legal_actions())}
            for threads, done in runs.items():
                row[f"iterations_{threads}"] = statistics.fmean(r[0] for r in done)
                row[f"cpu_per_wall_{threads}"] = sum(r[2] for r in done) / sum(r[1] for r in done)
            row["ratio"] = row["iterations_2"] / row["iterations_1"]
            rows.append(row)
            print(f"| {name:<9} | {number:>8} | {row['legal']:>5} | {row['iterations_1']:>21,.0f} | "
                  f"{row['iterations_2']:>22,.0f} | {row['ratio']:>5.2f} | {row['cpu_per_wall_1']:>10.2f} | "
                  f"{row['cpu_per_wall_2']:>10.2f} |", flush=True)
    for name in GAMES:
        mine = [r for r in rows if r["game"] == name]
        one, two = sum(r["iterations_1"] for r in mine), sum(r["iterations_2"] for r in mine)
        print(f"{name}: {two / one:.2f} x the iterations with 2 threads ({len(mine)} positions, totals)")
    return rows


def play(seed: int, fast_seats: tuple[int, ...], seconds: float, stats: dict[int, dict[str, float]]) -> int:
    """One game; returns the winner's seat. Adds each search's iterations and wall and CPU time to `stats` by
    thread count."""
    game = get_game("bora_bora")
    players = [MCTSPlayer(seconds=seconds, threads=2 if seat in fast_seats else 1,
                          seed=game.derive_seed(seed, 1 + seat), game=game) for seat in range(PLAYERS)]
    state = game.new_initial_state(players=PLAYERS, seed=seed)
    while not state.is_terminal():
        player = players[state.current_player]
        wall, cpu = time.perf_counter(), time.process_time()
        action = player.choose(state)
        if player.last_iterations:
            totals = stats[player.threads]
            totals["decisions"] += 1
            totals["iterations"] += player.last_iterations
            totals["wall"] += time.perf_counter() - wall
            totals["cpu"] += time.process_time() - cpu
        state.apply(action)
    winner = state.winner()
    assert winner is not None
    return winner


def bench_strength(games: int, seconds: float, seed: int) -> dict:
    game = get_game("bora_bora")
    stats = {threads: {"decisions": 0, "iterations": 0, "wall": 0.0, "cpu": 0.0} for threads in (1, 2)}
    wins = 0
    loads = [os.getloadavg()[0]]
    start = time.perf_counter()
    cpu_start = time.process_time()
    for index in range(games):
        fast = ARRANGEMENTS[index % len(ARRANGEMENTS)]
        winner = play(game.derive_seed(seed, index // 2), fast, seconds, stats)
        wins += winner in fast
        loads.append(os.getloadavg()[0])
        if (index + 1) % 20 == 0 or index + 1 == games:
            elapsed = time.perf_counter() - start
            print(f"  {index + 1}/{games} games, threads=2 seats won {wins}, load {load()}, {elapsed:.0f} s, "
                  f"~{elapsed / (index + 1) * (games - index - 1):.0f} s left", file=sys.stderr, flush=True)
    lo, hi = wilson_interval(wins, games)
    result = {"games": games, "seconds": seconds, "wins_threads_2": wins, "share": wins / games,
              "wilson_lo": lo, "wilson_hi": hi, "load_1min_mean": statistics.fmean(loads),
              "load_1min_max": max(loads), "wall_seconds": time.perf_counter() - start,
              "cpu_seconds": time.process_time() - cpu_start}
    for threads, totals in stats.items():
        result[f"iterations_per_decision_{threads}"] = totals["iterations"] / max(1, totals["decisions"])
        result[f"cpu_per_wall_{threads}"] = totals["cpu"] / max(1e-9, totals["wall"])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per decision of the speed part (default 1)")
    parser.add_argument("--games", type=int, default=0, help="strength games (default 0: speed only)")
    parser.add_argument("--strength-seconds", type=float, default=0.01,
                        help="time per decision of the strength games (default 0.01)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"base seed of positions and games (default {SEED})")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed part")
    parser.add_argument("--json", metavar="PATH", help="also write every number to PATH")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.strength_seconds <= 0 or args.games < 0:
        parser.error("--seconds and --strength-seconds must be > 0, --games >= 0")

    info = machine_info()
    print(f"borabora_sim root-parallel MCTS benchmark  {info['date']}")
    print(f"{info['cpu']}, {info['cpu_count']} cores, Python {info['python']}; commit {info['commit']}, "
          f"seed {args.seed}")
    print(f"load average (1, 5, 15 min) at the start: {load()}", flush=True)
    results: dict = {"machine": info, "seed": args.seed}
    if not args.no_speed:
        print(f"\n1. Iterations per decision in {args.seconds:g} s, threads=1 vs 2 (each game's mcts defaults; "
              "mean of 2 searches each, in the order 1, 2, 2, 1)")
        results["speed"] = {"seconds": args.seconds, "rows": bench_speed(args.seconds, args.seed),
                            "load_after": os.getloadavg()}
        print(f"load average after the speed part: {load()}", flush=True)
    if args.games:
        print(f"\n2. Strength at equal wall time: 4-player Bora Bora, 2 x mcts:seconds={args.strength_seconds:g},"
              f"threads=2 vs 2 x mcts:seconds={args.strength_seconds:g} (threads=1), {args.games} games, "
              "paired deals, seats rotated", flush=True)
        r = bench_strength(args.games, args.strength_seconds, args.seed)
        results["strength"] = r
        print(f"threads=2 seats won {r['wins_threads_2']} of {r['games']} games: {r['share']:.3f} "
              f"(Wilson 95% {r['wilson_lo']:.3f}-{r['wilson_hi']:.3f}; 0.5 = no difference)")
        print(f"iterations per decision: threads=1 {r['iterations_per_decision_1']:,.0f}, threads=2 "
              f"{r['iterations_per_decision_2']:,.0f} (ratio "
              f"{r['iterations_per_decision_2'] / r['iterations_per_decision_1']:.2f}); CPU/wall of the searches: "
              f"threads=1 {r['cpu_per_wall_1']:.2f}, threads=2 {r['cpu_per_wall_2']:.2f}")
        print(f"1-min load average during the games: mean {r['load_1min_mean']:.2f}, max {r['load_1min_max']:.2f}; "
              f"{r['wall_seconds']:.0f} s wall, {r['cpu_seconds']:.0f} s CPU")
    print(f"load average (1, 5, 15 min) at the end: {load()}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
