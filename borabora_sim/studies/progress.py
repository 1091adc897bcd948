"""Progress bars for the long steps of a study (tqdm, on stderr)."""

from __future__ import annotations

import sys
from typing import NoReturn

from tqdm import tqdm


def step_bar(total: int, description: str, unit: str, progress: bool | None) -> tqdm[NoReturn]:
    """A bar for one step with its total, so that it shows the time left. `progress`: True shows it, False hides
    it, None shows it only when stderr is a terminal (so runs under tests or into a log file stay quiet)."""
    enabled = sys.stderr.isatty() if progress is None else progress
    return tqdm(total=total, desc=description, unit=unit, disable=not enabled, dynamic_ncols=True, smoothing=0.1,
                file=sys.stderr)


__all__ = ["step_bar"]
