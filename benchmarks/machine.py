"""The machine a benchmark ran on, recorded with its numbers (shared by the benchmark scripts)."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).resolve().parent,
                              capture_output=True, text=True, check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine_info() -> dict:
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "python": platform.python_version(), "platform": platform.platform(), "cpu": cpu_name(),
            "cpu_count": os.cpu_count(), "commit": git_commit(), "load_average": os.getloadavg()}
