"""Timing helpers shared by the benchmark scripts: best-of-n, because the machine is shared and noisy."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any


def best_of(repeats: int, fn: Callable[[], float]) -> float:
    """The smallest of `repeats` timings returned by `fn` (seconds)."""
    return min(fn() for _ in range(repeats))


def time_calls(fn: Callable[[], object], count: int, repeats: int) -> float:
    """Best-of-`repeats` microseconds per call of `fn`, over `count` calls (loop overhead included)."""
    fn()

    def run() -> float:
        t0 = time.perf_counter()
        for _ in range(count):
            fn()
        return time.perf_counter() - t0

    return best_of(repeats, run) / count * 1e6


def random_games(make: Callable[[int], Any], step_budget: int, seed: int) -> tuple[float, int, int]:
    """Plays whole games of uniformly random legal moves from the Python API, game `k` made by `make(seed + k)` and
    its moves drawn from `random.Random(seed + k)` (the same games every call), until `step_budget` steps: the
    seconds spent stepping (making the games excluded), the steps and the games."""
    elapsed, steps, games = 0.0, 0, 0
    while steps < step_budget:
        state = make(seed + games)
        rng = random.Random(seed + games)
        start = time.perf_counter()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        elapsed += time.perf_counter() - start
        games += 1
    return elapsed, steps, games


def random_walk(state: Any, steps: int, seed: int) -> Any:
    """`state` after `steps` uniformly random legal moves drawn from `random.Random(seed)`: a position to time from."""
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state
