#!/usr/bin/env python
"""Instructions per `State.clone()` from Python, both engines, counted by valgrind's callgrind.

Timings of a 0.1 µs call move with the load of a shared machine; instruction counts do not. Each engine is run
twice under callgrind, once making no clones and once making `--clones` clones of the same mid-game 4-player
state; the difference divided by the number of clones is the cost of one clone, Python's call and object set-up
included. A run repeats to the instruction (callgrind.py says how).

    python benchmarks/clone_instructions.py [--clones 100000]

Needs valgrind on the PATH (Debian: apt-get install valgrind); takes about a minute.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from callgrind import callgrind_total

CLONER = """
import sys
import borabora_sim
from borabora_sim.games.bamboo import new_game as new_bamboo
engine, count = sys.argv[1], int(sys.argv[2])
state = borabora_sim.new_game(4, 1) if engine == "bora_bora" else new_bamboo(4, 1)
for _ in range(20):
    state.apply(state.legal_actions()[0])
clone = state.clone
for _ in range(count):
    clone()
"""


def instructions(engine: str, clones: int, workdir: Path) -> int:
    """Instructions callgrind counts for the whole run of CLONER."""
    return callgrind_total(CLONER, [engine, str(clones)], workdir / f"callgrind.{engine}.{clones}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clones", type=int, default=100_000, help="clones per counted run (default 100,000)")
    args = parser.parse_args()
    if args.clones < 1:
        parser.error(f"--clones must be a positive integer, got {args.clones}")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not on the PATH (Debian: apt-get install valgrind)")
    print("| engine | instructions per clone() |\n|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for engine in ("bora_bora", "bamboo"):
            work = Path(tmp)
            per_clone = (instructions(engine, args.clones, work) - instructions(engine, 0, work)) / args.clones
            print(f"| {engine} | {per_clone:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
