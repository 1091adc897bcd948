"""Where a result came from: the commit of the source tree that produced it, recorded in the manifests of trained
weights and networks and in the record of a tuning run."""

from __future__ import annotations

import subprocess
from pathlib import Path


def package_commit() -> str | None:
    """The commit of the package's source tree, when it is a git checkout (else None)."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent, capture_output=True,
                             text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


__all__ = ["package_commit"]
