"""Ties a worker process of a simulation run to the process that started it, as the first thing the package does
when imported: a run killed while its workers start leaves none behind.

A loky worker (borabora_sim.simulate) is a fresh interpreter that imports the package, and the modules the task
needs, before it runs anything of the run's, which takes seconds on a busy machine; a worker initializer would come
too late for a run killed in that time. The run names itself in the environment variable PARENT_VARIABLE while it
starts its workers; a process that finds it there takes it out (its own children do not inherit it) and ends with
that process: at once if it is already gone, else by a signal from the kernel when it goes (`exit_with_parent`).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PARENT_VARIABLE = "BORABORA_SIM_WORKER_OF"
PR_SET_PDEATHSIG = 1        # Linux prctl(2): the signal a process receives when the thread that made it ends


def exit_with_parent(parent: int) -> None:
    """Ends this process as soon as the process `parent` that started it is gone, even when that process was
    killed with SIGKILL (idle workers would otherwise wait minutes for work). On Linux the kernel kills it at once
    (a watching thread could wait for the GIL as long as a compiled search holds it); elsewhere a thread checks the
    parent twice a second."""
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0:
            if os.getppid() != parent:      # the parent ended before the request: nobody will send the signal
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _tie_to_parent() -> None:
    parent = os.environ.pop(PARENT_VARIABLE, "")
    if parent.isdecimal():
        exit_with_parent(int(parent))


_tie_to_parent()
