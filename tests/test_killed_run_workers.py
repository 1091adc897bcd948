"""A simulation run killed while its loky workers start leaves no process behind: each worker ends with the run as
soon as it begins to import the package, not only once its imports are done (seconds later on a busy machine,
made certain here by slowing the workers' import of the compiled engine)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import borabora_sim

psutil = pytest.importorskip("psutil")

ROOT = Path(borabora_sim.__file__).resolve().parent.parent
GRACE = 3.0                 # seconds a worker may take to end after the run is killed
# Makes every process but the first (the run) take 30 s to import the compiled engine, as a worker that is still
# importing when the run is killed.
SLOW_WORKER_IMPORTS = """
import os, sys, time

first = os.environ.setdefault("SLOW_IMPORTS_EXCEPT_IN", str(os.getpid()))


class SlowEngine:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "borabora_sim._engine":
            sys.meta_path.remove(SlowEngine)
            time.sleep(30)
        return None


if first != str(os.getpid()):
    sys.meta_path.insert(0, SlowEngine)
"""


def workers_of(run: psutil.Process) -> list[psutil.Process]:
    return [child for child in run.children(recursive=True) if "popen_loky_posix" in " ".join(child.cmdline())]


@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGTERM])
def test_a_run_killed_while_its_workers_start_leaves_no_process(kill: signal.Signals, tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(SLOW_WORKER_IMPORTS)
    path = os.pathsep.join(filter(None, [str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    env.pop("SLOW_IMPORTS_EXCEPT_IN", None)
    process = subprocess.Popen([sys.executable, "-m", "borabora_sim", "simulate", "--games", "8", "--players",
                                "random,random", "--chunk-size", "1", "--jobs", "2", "--out", str(tmp_path / "run"),
                                "--quiet"], env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run = psutil.Process(process.pid)
    descendants: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers_of(run)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        descendants = run.children(recursive=True)
        assert len(workers_of(run)) == 2, "the run started its two workers"
        process.send_signal(kill)
        process.wait(timeout=30)
        _, alive = psutil.wait_procs(descendants, timeout=GRACE)
        assert alive == [], f"alive {GRACE} s after the run was killed: {[p.cmdline() for p in alive]}"
    finally:
        for leftover in [child for child in descendants if child.is_running()]:
            leftover.kill()
        if process.poll() is None:
            process.kill()
