#!/usr/bin/env python
"""Component-file validation time against file size: it should grow linearly, up to the size limit.

Each row grows the built-in component document in one direction (extra jewelry kinds; one huge source text;
a huge `symbols` list; extra ceremony rows) to a quarter, half and all of `MAX_FILE_BYTES` of JSON, then times
`load_components` on the file and on the parsed dict (best of `--repeats`). Most of these documents are
refused, which is the point: a refusal must cost no more than a read. Linear means `us/KB` stays flat along a
row. The last row is the 80,000 extra jewelry kinds of the hardening issue, passed as a dict.

Usage:
    python benchmarks/bench_components.py [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from borabora_sim.games.bora_bora.components import MAX_FILE_BYTES, ComponentError, load_components

Grow = Callable[[dict[str, Any], int], None]


def jewelry_kinds(doc: dict[str, Any], n: int) -> None:
    doc["jewelry_kinds"] += [{"name": f"kind{i}", "mark": "INVENTED", "source": "x"} for i in range(n)]


def long_source(doc: dict[str, Any], n: int) -> None:
    doc["regions"][0]["source"] = "x" * n


def symbols(doc: dict[str, Any], n: int) -> None:
    doc["person_tiles"][0]["symbols"] += [1] * n


def ceremony_rows(doc: dict[str, Any], n: int) -> None:
    doc["ceremony"]["materials"] += [["sand"]] * n


GROWTHS: dict[str, tuple[Grow, int]] = {  # how to grow, and roughly how many JSON bytes one unit adds
    "jewelry kinds": (jewelry_kinds, 58),
    "one source text": (long_source, 1),
    "symbols list": (symbols, 3),
    "ceremony rows": (ceremony_rows, 12),
}


def best_time(repeats: int, load: Callable[[], Any]) -> tuple[float, str]:
    """Fastest of `repeats` loads (seconds), and the outcome: 'loaded' or the refusal's field."""
    best, outcome = float("inf"), ""
    for _ in range(repeats):
        start = time.perf_counter()
        try:
            load()
            outcome = "loaded"
        except ComponentError as error:
            outcome = f"refused at {error.field}"
        best = min(best, time.perf_counter() - start)
    return best, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    base = load_components().to_json_dict()
    base_bytes = len(json.dumps(base))
    print(f"{'growth':<16} {'KB':>6} {'file s':>8} {'dict s':>8} {'file us/KB':>11}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "grown.json"
        for name, (grow, unit) in GROWTHS.items():
            for share in (4, 2, 1):
                doc = json.loads(json.dumps(base))
                grow(doc, (MAX_FILE_BYTES // share - base_bytes - 64) // unit)
                text = json.dumps(doc)
                path.write_text(text, encoding="utf-8")
                file_s, outcome = best_time(args.repeats, lambda: load_components(path))
                dict_s, _ = best_time(args.repeats, lambda doc=doc: load_components(doc))
                kb = len(text) / 1024
                print(f"{name:<16} {kb:>6.0f} {file_s:>8.4f} {dict_s:>8.4f} {file_s / kb * 1e6:>11.1f}  {outcome}")
    doc = json.loads(json.dumps(base))
    jewelry_kinds(doc, 80_000)
    seconds, outcome = best_time(args.repeats, lambda: load_components(doc))
    print(f"80,000 extra jewelry kinds as a dict: {seconds:.4f} s, {outcome}")


if __name__ == "__main__":
    main()
