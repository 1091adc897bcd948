#!/usr/bin/env python
"""Strength and speed of the players built on the learned evaluation (docs/learned.md).

Rows (4-player games; every seed derives from --seed and the game index, as in bench_players.py, so a row's numbers
do not depend on --jobs and rows with the same --seed play the same deals):

  vs3      the tested player against three copies of an opponent (default `heuristic:style=balanced`), seats
           rotated (game g puts it in seat g mod 4); an equal player wins 25%. Also the tested player's CPU time
           per decision, measured around its own `choose` calls.
  h2h      two players head to head, two seats each: game g gives player A the g-th of the six pairs of seats
           (cycled), so each side sits everywhere equally often; an equal pair wins 50% (the share of games a seat
           of A wins).

Usage:
    python benchmarks/bench_learned.py vs3 --tested learned --games 1000 --jobs 2
    python benchmarks/bench_learned.py h2h \\
        --a mcts:seconds=0.01,rollout=heuristic,rollout_depth=20,evaluation=learned \\
        --b mcts:seconds=0.01,rollout=heuristic,rollout_depth=30 --games 780 --jobs 2 --seed 777

Each run prints one Markdown table row (and --json appends a record) with wins, the Wilson 95% interval and the CPU
seconds; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from borabora_sim import _engine
from borabora_sim.match import play_game
from borabora_sim.players import make_player
from borabora_sim.stats import wilson_interval

from machine import machine_info

SEED = 20_260_601               # bench_players.py's: the same deals
PLAYERS = 4
PAIRS = list(itertools.combinations(range(PLAYERS), 2))


def game_seed(base: int, index: int) -> int:
    return int(_engine.derive_seed(base, index))


def play_vs3(tested: str, opponent: str, base_seed: int, index: int) -> dict:
    """Game `index`: the tested player in seat index mod 4, its decisions timed (CPU)."""
    seed = game_seed(base_seed, index)
    seat = index % PLAYERS
    players = [make_player(tested if s == seat else opponent, seed=game_seed(seed, 1 + s)) for s in range(PLAYERS)]
    timed = players[seat]
    choose = timed.choose
    spent = [0.0, 0]

    def choose_timed(state):  # type: ignore[no-untyped-def]
        start = time.process_time()
        action = choose(state)
        spent[0] += time.process_time() - start
        spent[1] += 1
        return action

    timed.choose = choose_timed  # type: ignore[method-assign]
    start = time.process_time()
    record = play_game(players, seed=seed)
    return {"index": index, "won": record.winner == seat, "cpu": time.process_time() - start,
            "decision_cpu": spent[0], "decisions": spent[1]}


def play_h2h(a: str, b: str, base_seed: int, index: int) -> dict:
    """Game `index`: player A in the seats of pair index mod 6, player B in the other two."""
    seed = game_seed(base_seed, index)
    seats_a = PAIRS[index % len(PAIRS)]
    players = [make_player(a if s in seats_a else b, seed=game_seed(seed, 1 + s)) for s in range(PLAYERS)]
    start = time.process_time()
    record = play_game(players, seed=seed)
    return {"index": index, "won": record.winner in seats_a, "cpu": time.process_time() - start}


def run(kind: str, first: str, second: str, games: int, jobs: int, seed: int) -> list[dict]:
    work = play_vs3 if kind == "vs3" else play_h2h
    results: list[dict] = []
    start = time.perf_counter()
    every = max(1, games // 20)
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(work, first, second, seed, index) for index in range(games)]
        for future in as_completed(futures):
            results.append(future.result())
            if len(results) % every == 0:
                elapsed = time.perf_counter() - start
                print(f"{len(results)}/{games} games, {sum(r['won'] for r in results)} wins, {elapsed:.0f} s, "
                      f"~{elapsed / len(results) * (games - len(results)):.0f} s left", file=sys.stderr, flush=True)
    return sorted(results, key=lambda r: r["index"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("vs3", "h2h"))
    parser.add_argument("--tested", default="learned", help="vs3: the tested player")
    parser.add_argument("--opponent", default="heuristic:style=balanced", help="vs3: the three others")
    parser.add_argument("--a", help="h2h: player A")
    parser.add_argument("--b", help="h2h: player B")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", help="append the result as one JSON line to this file")
    args = parser.parse_args()
    if args.kind == "h2h" and not (args.a and args.b):
        parser.error("h2h needs --a and --b")
    first, second = (args.tested, args.opponent) if args.kind == "vs3" else (args.a, args.b)
    start = time.perf_counter()
    results = run(args.kind, first, second, args.games, args.jobs, args.seed)
    wall = time.perf_counter() - start
    wins = sum(r["won"] for r in results)
    low, high = wilson_interval(wins, len(results))
    cpu = sum(r["cpu"] for r in results)
    record = {"kind": args.kind, "first": first, "second": second, "games": len(results), "wins": wins,
              "rate": wins / len(results), "wilson_low": low, "wilson_high": high, "cpu_seconds": cpu,
              "wall_seconds": wall, "jobs": args.jobs, "seed": args.seed, "machine": machine_info()}
    if args.kind == "vs3":
        decisions = sum(r["decisions"] for r in results)
        record["ms_per_decision"] = 1000 * sum(r["decision_cpu"] for r in results) / decisions
        extra = f" | {record['ms_per_decision']:.3f} ms/decision"
    else:
        extra = ""
    print(f"| {args.kind} | {first} | {second} | {len(results)} | {wins} | {wins / len(results):.3f} | "
          f"{low:.3f}-{high:.3f} | {cpu:.0f} CPU s{extra} |", flush=True)
    if args.json:
        with open(args.json, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
