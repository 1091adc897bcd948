#!/usr/bin/env python
"""Bamboo engine benchmarks, measured in one run so that the ratios are fair.

Measures, on one core:
  1. compiled random playouts (`_bamboo.random_playouts`): microseconds per real decision and complete games per
     second for 2, 3 and 4 players (normal mode; 4 players also on the advanced side);
  2. Python-driven stepping (`legal_actions()` + `apply()` from a Python loop), Bamboo against Bora Bora with the
     same loop, repeats interleaved;
  3. clone cost: `State.clone()` from Python (which includes creating the Python object), Bamboo's and Bora
     Bora's timed in alternation and their ratio, an empty call on the same object for the baseline, and the
     raw copy of the C state (`STATE_BYTES` bytes) done by numpy in batches, into a buffer that stays in the
     cache and into one that does not: what a compiled search pays per copy (the engine has no compiled clone
     loop to time);
  4. state size (`STATE_BYTES` of both engines).

Every measurement is warmed up, then repeated (`--repeats`, best kept).

Usage:
    python benchmarks/bench_bamboo.py [--games N] [--repeats R] [--json PATH]

`--games N` is the number of compiled playouts per row and repeat; the Python-stepping runs play whole games
until 10*N steps per engine and repeat, and the clone rows time 10*N clones.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS threads competing for the 2nd core

import numpy as np

import borabora_sim
from borabora_sim import _bamboo, _engine
from borabora_sim.games.bamboo import new_game, rules_for

from machine import machine_info
from timing import best_of, random_games, random_walk, time_calls

DEFAULT_GAMES = 20_000
SEED = 20240601
RAW_COPIES = 100_000


# ---------------------------------------------------------------------------
# 1. compiled random playouts
# ---------------------------------------------------------------------------
def bench_playouts(games: int, repeats: int) -> list[dict]:
    rules = rules_for()
    rows = []
    for players, mode in ((4, "normal"), (3, "normal"), (2, "normal"), (4, "advanced")):
        _bamboo.random_playouts(rules, max(100, games // 50), players, SEED, mode)  # warm-up
        stats = _bamboo.random_playouts(rules, games, players, SEED, mode)

        def run(players: int = players, mode: str = mode) -> float:
            t0 = time.perf_counter()
            _bamboo.random_playouts(rules, games, players, SEED, mode)
            return time.perf_counter() - t0

        seconds = best_of(repeats, run)
        decisions = float(stats["decisions"].mean())
        rows.append({
            "players": players, "mode": mode, "games": games, "seconds": seconds, "games_per_s": games / seconds,
            "decisions_per_game": decisions, "moves_per_game": float(stats["moves"].mean()),
            "us_per_decision": seconds / (games * decisions) * 1e6,
        })
    return rows


# ---------------------------------------------------------------------------
# 2. Python-driven stepping
# ---------------------------------------------------------------------------
class SteppingRun(NamedTuple):
    seconds: float  # all steps, game creation excluded
    steps: int
    games: int


def stepper(make: Callable[[int], object]) -> Callable[[int], SteppingRun]:
    def run(step_budget: int) -> SteppingRun:
        return SteppingRun(*random_games(make, step_budget, SEED))
    return run


def bench_python_stepping(step_budget: int, repeats: int) -> list[dict]:
    bora = borabora_sim.BoraBora()
    engines = [
        ("borabora 4p", stepper(lambda seed: bora.new_initial_state(4, seed))),
        ("bamboo 4p", stepper(lambda seed: new_game(4, seed))),
        ("borabora 2p", stepper(lambda seed: bora.new_initial_state(2, seed))),
        ("bamboo 2p", stepper(lambda seed: new_game(2, seed))),
    ]
    for _, run in engines:  # warm-up
        run(max(1000, step_budget // 20))
    best: dict[str, SteppingRun] = {}
    for _ in range(repeats):  # interleaved: each repeat runs every engine once
        for label, run in engines:
            result = run(step_budget)
            if label not in best or result.seconds < best[label].seconds:
                best[label] = result
    rows = []
    for label, _ in engines:
        r = best[label]
        base = best["borabora " + label.split()[1]]
        rows.append({
            "engine": label, "steps": r.steps, "games": r.games, "steps_per_game": r.steps / r.games,
            "us_per_step": r.seconds / r.steps * 1e6,
            "ratio_vs_borabora": (r.seconds / r.steps) / (base.seconds / base.steps),
        })
    return rows


# ---------------------------------------------------------------------------
# 3. clone cost
# ---------------------------------------------------------------------------
def state_bytes_view(state: _bamboo.State) -> np.ndarray:
    """The C state's bytes, read through the capsule `search_handles()` exposes (a copy, owned by numpy)."""
    capsule = state.search_handles()[2]
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    address = get(capsule, b"borabora_sim.bamboo.state")
    return np.frombuffer((ctypes.c_uint8 * _bamboo.STATE_BYTES).from_address(address), dtype=np.uint8).copy()


def raw_copy_us(state: _bamboo.State, repeats: int, rows: int, passes: int) -> float:
    """Microseconds per copy of the STATE_BYTES-byte C state into a `rows`-row buffer, `passes` times, one numpy
    call per pass (one contiguous block per destination row: the memcpy a compiled search does, without Python).
    A small buffer stays in the cache, as a search's scratch state does; a large one measures memory bandwidth."""
    src = state_bytes_view(state)
    dst = np.empty((rows, src.size), dtype=np.uint8)
    dst[:] = src  # warm-up: touches every destination page

    def run() -> float:
        t0 = time.perf_counter()
        for _ in range(passes):
            dst[:] = src
        return time.perf_counter() - t0

    seconds = best_of(repeats, run)
    assert (dst[-1] == src).all()
    return seconds / (rows * passes) * 1e6


def bench_clone(count: int, repeats: int) -> list[dict]:
    s = random_walk(new_game(4, SEED), 150, SEED)
    b = random_walk(borabora_sim.new_game(4, SEED), 150, SEED)
    # the two engines' clones are timed in alternation, so that load elsewhere hits both alike (their ratio)
    bamboo_us = borabora_us = float("inf")
    for _ in range(repeats):
        bamboo_us = min(bamboo_us, time_calls(s.clone, count, 1))
        borabora_us = min(borabora_us, time_calls(b.clone, count, 1))
    return [
        {"what": "bamboo State.clone() from Python", "us": bamboo_us},
        {"what": "bamboo is_terminal() (empty-call baseline)", "us": time_calls(s.is_terminal, count, repeats)},
        {"what": f"bamboo raw {_bamboo.STATE_BYTES}-byte copy, in cache (numpy, 256-row buffer)",
         "us": raw_copy_us(s, repeats, 256, max(1, count // 256))},
        {"what": f"bamboo raw {_bamboo.STATE_BYTES}-byte copy, to memory (numpy, {RAW_COPIES}-row buffer)",
         "us": raw_copy_us(s, repeats, RAW_COPIES, 1)},
        {"what": "bamboo new_game(4)", "us": time_calls(lambda: new_game(4, SEED), count // 10, repeats)},
        {"what": "borabora State.clone() from Python", "us": borabora_us},
    ]


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------
def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = "| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    body = ["| " + " | ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
            + " |" for r in rows]
    return "\n".join([line, sep, *body])


def report(results: dict) -> str:
    info = results["machine"]
    clone_us = {r["what"].split()[0]: r["us"] for r in results["clone"] if "clone()" in r["what"]}
    return "\n".join([
        f"Bamboo engine benchmark  {info['date']}  commit {info['commit']}",
        f"{info['cpu']}, {info['cpu_count']} cores, Python {info['python']}, load average "
        f"{info['load_average'][0]:.2f}; best of {results['repeats']} repeats, one core",
        "",
        f"1. Compiled random playouts (_bamboo.random_playouts, {results['games']} games per row)",
        table(["players", "mode", "games/s", "decisions/game", "moves/game", "us/decision"],
              [[str(r["players"]), r["mode"], f"{r['games_per_s']:,.0f}", f"{r['decisions_per_game']:.1f}",
                f"{r['moves_per_game']:.1f}", f"{r['us_per_decision']:.3f}"] for r in results["playouts"]]),
        "",
        f"2. Python-driven stepping (legal_actions + apply per step, about {results['step_budget']} steps per row;"
        " x = time per step relative to Bora Bora with the same players)",
        table(["engine", "us/step", "x", "steps/game"],
              [[r["engine"], f"{r['us_per_step']:.2f}", f"{r['ratio_vs_borabora']:.2f}", f"{r['steps_per_game']:.1f}"]
               for r in results["stepping"]]),
        "",
        f"3. Clone cost (mid-game 4-player states) and state size: bamboo STATE_BYTES = {results['state_bytes']}, "
        f"borabora STATE_BYTES = {results['borabora_state_bytes']}",
        table(["operation", "us/call"], [[r["what"], f"{r['us']:.3f}"] for r in results["clone"]]),
        f"bamboo clone / borabora clone (timed in alternation): {clone_us['bamboo'] / clone_us['borabora']:.2f}",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"compiled playouts per row and repeat (default {DEFAULT_GAMES}); "
                        "Python stepping and cloning use 10x this many steps / clones")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per measurement, best kept (default 3)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the results as JSON to PATH")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be positive")

    started = time.perf_counter()
    step_budget = 10 * args.games
    results: dict = {"machine": machine_info(), "games": args.games, "repeats": args.repeats,
                     "step_budget": step_budget, "state_bytes": _bamboo.STATE_BYTES,
                     "borabora_state_bytes": _engine.STATE_BYTES}
    results["playouts"] = bench_playouts(args.games, args.repeats)
    results["stepping"] = bench_python_stepping(step_budget, args.repeats)
    results["clone"] = bench_clone(step_budget, args.repeats)
    results["wall_seconds"] = time.perf_counter() - started

    print(report(results))
    print(f"\n(total {results['wall_seconds']:.1f} s)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
