"""Small helpers to write a study's Markdown report (no extra dependency)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd


def markdown_table(frame: pd.DataFrame, formats: dict[str, str] | None = None, index: bool = True) -> str:
    """A DataFrame as a GitHub Markdown table; `formats` maps a column to a format spec such as ".1%"."""
    formats = formats or {}
    table = frame.reset_index() if index else frame
    header = [str(c) for c in table.columns]
    rows = []
    for _, row in table.iterrows():
        cells = []
        for column in table.columns:
            value = row[column]
            spec = formats.get(str(column))
            if spec and isinstance(value, int | float) and pd.notna(value):
                cells.append(format(value, spec))
            elif isinstance(value, float) and value.is_integer() and abs(value) < 1e12:
                cells.append(str(int(value)))       # an int column made float by a row of mixed types
            elif isinstance(value, float):
                cells.append(f"{value:.3g}")
            else:
                cells.append(str(value))
        rows.append(cells)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines)


def section(title: str, *parts: str | Sequence[str]) -> str:
    body = []
    for part in parts:
        body.extend([part] if isinstance(part, str) else list(part))
    return "\n\n".join([f"## {title}", *body])


__all__ = ["markdown_table", "section"]
