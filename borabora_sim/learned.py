"""The learned evaluation of Bora Bora (docs/learned.md): the shipped network's weights, read from the package, and
the compiled model the players and the search use.

The network sees one seat's features (the compiled `features` of the game, from that seat's viewpoint: its own
hand and the public board), passes them through one hidden tanh layer to one number, and the numbers of all seats
are softmaxed into each seat's probability of winning. The file holds the weights as trained, on standardised
features; `compiled()` folds the standardisation into the first layer for the compiled inference.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from borabora_sim import _search

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_WEIGHTS = DATA_DIR / "learned_bora_bora.npz"
DEFAULT_MANIFEST = DATA_DIR / "learned_bora_bora.json"
ARRAYS = ("w1", "b1", "w2", "b2", "mean", "scale")


@dataclass(frozen=True)
class LearnedWeights:
    """A trained network: w1 (hidden x features), b1, w2 (hidden), b2, and the standardisation of its inputs
    (x - mean) / scale."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float
    mean: np.ndarray
    scale: np.ndarray

    def compiled(self) -> _search.Model:
        """The model for the compiled search and players, the standardisation folded into the first layer."""
        w1 = self.w1 / self.scale
        return _search.Model(w1, self.b1 - w1 @ self.mean, self.w2, self.b2)

    def save(self, path: str | os.PathLike[str]) -> None:
        np.savez(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=np.array(self.b2), mean=self.mean, scale=self.scale)


def load_weights(path: str | os.PathLike[str] = DEFAULT_WEIGHTS) -> LearnedWeights:
    """The network in the .npz file `path` (default: the one shipped with the package)."""
    with np.load(path) as data:
        missing = [name for name in ARRAYS if name not in data.files]
        if missing:
            raise ValueError(f"{path}: not a learned-evaluation file (missing {', '.join(missing)}; expected arrays "
                             f"{', '.join(ARRAYS)})")
        arrays = {name: np.asarray(data[name], dtype=np.float64) for name in ARRAYS}
    inputs = arrays["w1"].shape[1]
    if arrays["mean"].shape != (inputs,) or arrays["scale"].shape != (inputs,) or not (arrays["scale"] > 0).all():
        raise ValueError(f"{path}: mean and scale must have one value per feature ({inputs}), scale > 0")
    return LearnedWeights(arrays["w1"], arrays["b1"], arrays["w2"], float(arrays["b2"]), arrays["mean"],
                          arrays["scale"])


@cache
def default_model() -> _search.Model:
    """The compiled model of the shipped weights (loaded once per process)."""
    return load_weights().compiled()


def manifest(path: str | os.PathLike[str] = DEFAULT_MANIFEST) -> dict[str, Any]:
    """The record of how the shipped weights were made: data, seeds, commit, command, time and training curve."""
    record: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return record
