"""Timing helpers shared by the benchmark scripts: best-of-n, because the machine is shared and noisy."""

from __future__ import annotations

import time
from collections.abc import Callable


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
