#!/usr/bin/env python
"""Peak memory of `borabora simulate --out` (and of `borabora report` on its result) against the number of games.

Each size runs `borabora simulate --games N --players random,random,random,random --jobs 2 --out DIR --quiet`
in a subprocess, then `borabora report DIR`, and samples the resident memory (RSS) of the process and of all
its children (the loky workers and their helpers) every 20 ms. Reported per size: the peak of the whole tree
(the sum over the processes at one moment; shared pages are counted once per process, so this overstates a
little) and the peak of the main process alone. A least-squares line through the sizes extrapolates the peaks to
10,000,000 games: memory is flat when its slope is about zero.

Usage:
    python benchmarks/bench_memory.py [--sizes 20000 200000 1000000] [--json PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine_info

PLAYERS = "random,random,random,random"
TARGET = 10_000_000
MB = 1e6


def peak_memory(command: list[str]) -> tuple[float, float, float]:
    """Runs `command`; returns (peak bytes of the process tree, peak bytes of the process, seconds)."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    root = psutil.Process(process.pid)
    tree_peak = main_peak = 0
    while process.poll() is None:
        try:
            main = root.memory_info().rss
            children = root.children(recursive=True)
        except psutil.NoSuchProcess:
            break
        total = main
        for child in children:
            with contextlib.suppress(psutil.NoSuchProcess):       # a worker that just ended
                total += child.memory_info().rss
        tree_peak, main_peak = max(tree_peak, total), max(main_peak, main)
        time.sleep(0.02)
    seconds = time.perf_counter() - began
    if process.wait() != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()}")
    process.stderr.close()
    return tree_peak, main_peak, seconds


def extrapolate(sizes: list[int], values: list[float]) -> tuple[float, float]:
    """(value at TARGET games, slope in bytes per game) of the least-squares line through the points."""
    slope, intercept = np.polyfit(sizes, values, 1)
    return slope * TARGET + intercept, slope


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 200_000, 1_000_000],
                        help="numbers of games (default 20000 200000 1000000)")
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args(argv)
    script = shutil.which("borabora")
    if script is None:
        raise SystemExit("the borabora command is not installed: pip install -e .")

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_memory_") as tmp:
        for games in args.sizes:
            out = Path(tmp) / f"run{games}"
            simulate = peak_memory([script, "simulate", "--games", str(games), "--players", PLAYERS, "--jobs", "2",
                                    "--out", str(out), "--quiet"])
            report = peak_memory([script, "report", str(out)])
            rows.append({"games": games, "simulate_tree": simulate[0], "simulate_main": simulate[1],
                         "simulate_s": simulate[2], "report": report[0], "report_s": report[2],
                         "files": len(list((out / "players").glob("chunk-*.parquet")))})
            shutil.rmtree(out)
            print(f"{games:,} games done", file=sys.stderr)

    sizes = [row["games"] for row in rows]
    print(f"Peak memory of `borabora simulate --out` ({PLAYERS}, 2 workers) and `borabora report`")
    print("| games | simulate: whole tree | simulate: main process | simulate time | report | chunk files |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['games']:,} | {row['simulate_tree'] / MB:,.0f} MB | {row['simulate_main'] / MB:,.0f} MB | "
              f"{row['simulate_s']:,.0f} s | {row['report'] / MB:,.0f} MB | {row['files']:,} |")
    estimates = {key: extrapolate(sizes, [row[key] for row in rows])
                 for key in ("simulate_tree", "simulate_main", "report")}
    print(f"| {TARGET:,} (extrapolated) | {estimates['simulate_tree'][0] / MB:,.0f} MB | "
          f"{estimates['simulate_main'][0] / MB:,.0f} MB | | {estimates['report'][0] / MB:,.0f} MB | |")
    print("slope, bytes per game: " + ", ".join(f"{key} {slope:.2f}" for key, (_, slope) in estimates.items()))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine_info(), "players": PLAYERS, "rows": rows,
                                               "extrapolated_to": TARGET,
                                               "estimates": {k: v[0] for k, v in estimates.items()},
                                               "slopes": {k: v[1] for k, v in estimates.items()}}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
