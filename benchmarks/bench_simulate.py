#!/usr/bin/env python
"""Simulator benchmarks: what the batch simulator costs on top of the compiled engine, and what a second
worker brings.

Measures, with all-random 4-player games (the compiled fast path of `simulate`):
  a. the raw compiled playout rate (`random_playouts`, one core, no output) against the end-to-end rate of
     `simulate(games, ["random"] * 4, out=DIR, load=False, n_jobs=1)` (seeds, tables, Parquet files, manifest):
     their ratio is the simulator's overhead (goal: end-to-end at least 80% of raw);
  b. the same run with 2 workers (loky processes) against 1 worker: the speed-up (goal: at least 1.6x), with
     the one-time start-up of the worker processes measured apart. On a shared machine the second core may
     not be free, so the speed-up the machine allows right now is measured too (bare compiled playouts in 2
     processes against 1, no simulator) and the simulator's share of it is reported as its parallel efficiency;
  c. the time 1,000,000 random 4-player games would take on 2 workers (extrapolated from b), and the Parquet
     size on disk; with `--million` the run is made for real.

Every timing is repeated (`--repeats`, best kept) and the repeats of raw, 1-worker and 2-worker runs are
interleaved, so that load from elsewhere on the machine hits them alike.

Usage:
    python benchmarks/bench_simulate.py [--games N] [--repeats R] [--million] [--json PATH]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS threads competing for the 2nd core

from borabora_sim import _engine
from borabora_sim.games.bora_bora.game import rules_for
from borabora_sim.runs import RunDirectory
from borabora_sim.simulate import default_chunk_size, simulate

PLAYERS = ["random"] * 4
SEED = 20240601
MILLION = 1_000_000
GOAL_OVERHEAD = 0.80
GOAL_SPEEDUP = 1.6


def directory_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def timed_run(games: int, jobs: int, scratch: Path, tag: str) -> tuple[float, int]:
    """Seconds for one streamed run of `games` random 4-player games on `jobs` workers, and its bytes on disk."""
    out = scratch / tag
    start = time.perf_counter()
    simulate(games, PLAYERS, seed=SEED, n_jobs=jobs, out=out, load=False, progress=False)
    seconds = time.perf_counter() - start
    size = directory_bytes(out)
    shutil.rmtree(out)
    return seconds, size


def raw_seconds(games: int, first_game: int = 0) -> float:
    rules = rules_for()
    start = time.perf_counter()
    _engine.random_playouts(rules, games, 4, SEED, first_game=first_game)
    return time.perf_counter() - start


def bare_seconds(pool: ProcessPoolExecutor, games: int, processes: int) -> float:
    """Wall time of `games` compiled playouts split over `processes` processes of `pool` (no simulator)."""
    share = games // processes
    start = time.perf_counter()
    list(pool.map(raw_seconds, [share] * processes, [k * share for k in range(processes)]))
    return time.perf_counter() - start


def table(rows: list[tuple[str, str, str]]) -> str:
    head = ("measurement", "value", "note")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(3)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    for name, value, note in rows:
        lines.append(f"| {name.ljust(widths[0])} | {value.rjust(widths[1])} | {note.ljust(widths[2])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000, help="games per timed run (default 200,000)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of each timing, best kept (default 3)")
    parser.add_argument("--million", action="store_true", help="also run 1,000,000 games on 2 workers for real")
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args(argv)
    games, repeats = args.games, args.repeats
    chunk = default_chunk_size(PLAYERS)
    began = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="bench_simulate_") as tmp:
        scratch = Path(tmp)
        # warm-up: the component tables, the compiled engine, pandas/pyarrow, and the one-time start-up of the
        # 2 worker processes (loky keeps them for the later runs), measured as cold minus warm of a small run
        raw_seconds(2000)
        timed_run(2 * chunk, 1, scratch, "warm1")
        cold2, _ = timed_run(2 * chunk, 2, scratch, "cold2")
        warm2, _ = timed_run(2 * chunk, 2, scratch, "warm2")
        startup = max(0.0, cold2 - warm2)

        raw, one, two, bare1, bare2, size = [], [], [], [], [], 0
        with ProcessPoolExecutor(2) as pool:
            bare_seconds(pool, 4000, 2)                                     # start and warm the 2 processes
            for k in range(repeats):
                raw.append(raw_seconds(games))
                seconds, size = timed_run(games, 1, scratch, f"one{k}")
                one.append(seconds)
                two.append(timed_run(games, 2, scratch, f"two{k}")[0])
                bare1.append(bare_seconds(pool, games // 4, 1))
                bare2.append(bare_seconds(pool, games // 4, 2))
        raw_rate, one_rate, two_rate = games / min(raw), games / min(one), games / min(two)
        overhead = one_rate / raw_rate
        speedup = min(one) / min(two)
        capacity = min(bare1) / min(bare2)
        bytes_per_game = size / games
        million_seconds = MILLION / two_rate + startup

        real = None
        if args.million:
            start = time.perf_counter()
            simulate(MILLION, PLAYERS, seed=SEED, n_jobs=2, out=scratch / "million", load=False, progress=False)
            real = time.perf_counter() - start
            real_bytes = directory_bytes(scratch / "million")
            real_rows = len(RunDirectory(scratch / "million").read(columns=["game_id"]))
            assert real_rows == 4 * MILLION

    def verdict(ok: bool) -> str:
        return "meets the goal" if ok else "BELOW the goal"

    rows = [
        ("a. raw compiled playouts, 1 core", f"{raw_rate:,.0f} games/s", "random_playouts, no output"),
        ("a. simulate(out=DIR, load=False), 1 worker", f"{one_rate:,.0f} games/s",
         f"Parquet, chunks of {chunk:,} games"),
        ("a. end-to-end / raw", f"{overhead:.0%}",
         f"goal >= {GOAL_OVERHEAD:.0%}: {verdict(overhead >= GOAL_OVERHEAD)}"),
        ("b. simulate(out=DIR, load=False), 2 workers", f"{two_rate:,.0f} games/s", "loky processes, warm"),
        ("b. speed-up of 2 workers over 1", f"{speedup:.2f}x",
         f"goal >= {GOAL_SPEEDUP}x: {verdict(speedup >= GOAL_SPEEDUP)}"),
        ("b. speed-up the machine allows now", f"{capacity:.2f}x", "bare compiled playouts, 2 processes over 1"),
        ("b. parallel efficiency", f"{speedup / capacity:.0%}", "simulator speed-up / machine speed-up"),
        ("b. start-up of the 2 worker processes", f"{startup:.2f} s", "once per worker pool"),
        ("c. Parquet on disk", f"{bytes_per_game:.0f} B/game", f"{bytes_per_game * MILLION / 1e6:,.0f} MB per 1M"),
        ("c. 1,000,000 games on 2 workers (estimate)", f"{million_seconds:,.0f} s",
         f"{million_seconds / 60:.1f} min, from b"),
    ]
    if real is not None:
        rows.append(("c. 1,000,000 games on 2 workers (run)", f"{real:,.0f} s",
                     f"{MILLION / real:,.0f} games/s, {real_bytes / 1e6:,.0f} MB on disk"))
    print(f"Simulator benchmark: random 4-player games, {games:,} games per run, best of {repeats}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(table(rows))
    print("raw / 1 worker / 2 workers, each repeat (s): " + "; ".join(
        f"{r:.2f} / {o:.2f} / {t:.2f}" for r, o, t in zip(raw, one, two, strict=True)))
    print(f"total {time.perf_counter() - began:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "date": datetime.datetime.now().isoformat(timespec="seconds"), "machine": platform.platform(),
            "cpus": os.cpu_count(), "python": platform.python_version(), "games": games, "repeats": repeats,
            "raw_games_per_s": raw_rate, "one_worker_games_per_s": one_rate, "two_workers_games_per_s": two_rate,
            "end_to_end_over_raw": overhead, "speedup_two_workers": speedup, "machine_speedup": capacity,
            "worker_startup_s": startup,
            "parquet_bytes_per_game": bytes_per_game, "million_estimate_s": million_seconds,
            "million_run_s": real, "raw_s": raw, "one_worker_s": one, "two_workers_s": two,
        }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
