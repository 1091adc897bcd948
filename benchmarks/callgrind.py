"""Instruction counts of a Python snippet under valgrind's callgrind, repeatable to the instruction on a shared
machine: string hashing is fixed (PYTHONHASHSEED=0) and numpy's OpenBLAS starts no threads (OPENBLAS_NUM_THREADS=1;
how valgrind scheduled them moved counts by up to 15% from run to run). The benchmarks that count instructions
(clone_instructions.py, network_instructions.py) run a snippet twice, with a small and a large amount of work, and
divide the difference by the work: Python's start-up and set-up cancel out."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def callgrind_total(code: str, args: list[str], out: Path) -> int:
    """The instructions callgrind counts for `python -c code *args`, its profile written to `out`."""
    result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
                             code, *args], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"})
    match = re.search(r"Collected : (\d+)", result.stderr)
    if match is None:
        raise RuntimeError(f"callgrind printed no total:\n{result.stderr[-2000:]}")
    return int(match.group(1))
