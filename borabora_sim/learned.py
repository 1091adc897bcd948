"""The learned evaluation of Bora Bora (docs/learned.md): the shipped network's weights, read from the package, and
the compiled model the players and the search use.

The network sees one seat's features (the compiled `features` of the game, from that seat's viewpoint: its own
hand and the public board), passes them through one hidden tanh layer to one number, and the numbers of all seats
are softmaxed into each seat's probability of winning. The file holds the weights as trained, on standardised
features; `compiled()` folds the standardisation into the first layer for the compiled inference.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from borabora_sim import _search
from borabora_sim.files import magnitude_problem, npz_bytes, read_arrays, read_json, write_bytes

DATA_DIR = Path(__file__).resolve().parent / "games" / "bora_bora" / "data"
DEFAULT_WEIGHTS = DATA_DIR / "learned_bora_bora.npz"
DEFAULT_MANIFEST = DATA_DIR / "learned_bora_bora.json"
ARRAYS = ("w1", "b1", "w2", "b2", "mean", "scale")
WEIGHTS_FILE = "a learned-evaluation file"
WEIGHTS_REMEDY = ("give a .npz file written by borabora train-learned (arrays w1: hidden x features, b1 and w2: "
                  "hidden, b2: a number, mean and scale: features)")
# The keys of a manifest, as `train` writes them
MANIFEST_KEYS = ("what", "features", "hidden", "config", "data", "data_styles", "validation", "commit", "command",
                 "seconds", "jobs", "curves")
MANIFEST_FILE = "the manifest of learned weights"
MANIFEST_REMEDY = "give the .json file borabora train-learned wrote beside the weights"
LearnedModel = _search.Model                # what the players and the search evaluate with (LearnedWeights.compiled)


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
        return _search.Model([(w1, self.b1 - w1 @ self.mean)], (self.w2, self.b2))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the weights to the .npz file `path` (that very name), whole or not at all."""
        write_bytes(Path(path), npz_bytes({"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": np.array(self.b2),
                                            "mean": self.mean, "scale": self.scale}))


def load_weights(path: str | os.PathLike[str] = DEFAULT_WEIGHTS) -> LearnedWeights:
    """The network in the .npz file `path` (default: the one shipped with the package), or a ValueError naming the
    file and what is wrong with it: shapes that do not fit one network, a number out of bounds
    (borabora_sim.files.magnitude_problem)."""
    arrays = {name: value.astype(np.float64) for name, value in
              read_arrays(path, ARRAYS, WEIGHTS_FILE, WEIGHTS_REMEDY).items()}
    problem = _weights_problem(arrays)
    if problem:
        raise ValueError(f"{path} is not {WEIGHTS_FILE}: {problem}; {WEIGHTS_REMEDY}")
    return LearnedWeights(arrays["w1"], arrays["b1"], arrays["w2"], float(arrays["b2"]), arrays["mean"],
                          arrays["scale"])


def _weights_problem(arrays: dict[str, np.ndarray]) -> str | None:
    """What keeps the arrays from being one network, or None."""
    w1 = arrays["w1"]
    if w1.ndim != 2 or 0 in w1.shape:
        return f"w1 has shape {w1.shape}, not (hidden units, features)"
    hidden, features = w1.shape
    wanted = {"b1": (hidden,), "w2": (hidden,), "b2": (), "mean": (features,), "scale": (features,)}
    for name, shape in wanted.items():
        if arrays[name].shape != shape:
            return f"{name} has shape {arrays[name].shape}, not {shape} (w1 is {hidden} x {features})"
    return magnitude_problem(arrays)


@cache
def default_model() -> _search.Model:
    """The compiled model of the shipped weights (loaded once per process)."""
    return load_weights().compiled()


def manifest(path: str | os.PathLike[str] = DEFAULT_MANIFEST) -> dict[str, Any]:
    """The record of how the weights were made (default: the shipped ones): data, seeds, commit, command, time and
    training curve; a ValueError naming the file if it is not such a record."""
    record = read_json(path, MANIFEST_FILE, MANIFEST_REMEDY)
    if not isinstance(record, dict) or set(record) != set(MANIFEST_KEYS):
        found = sorted(record) if isinstance(record, dict) else f"a JSON {type(record).__name__}"
        raise ValueError(f"{path} is not {MANIFEST_FILE}: it holds {found}, not an object with the keys "
                         f"{', '.join(MANIFEST_KEYS)}; {MANIFEST_REMEDY}")
    for key in ("features", "hidden"):
        if not _is_count(record[key]):
            raise ValueError(f"{path} is not {MANIFEST_FILE}: {key} is {record[key]!r}, not a positive integer; "
                             f"{MANIFEST_REMEDY}")
    if not isinstance(record["config"], dict) or not isinstance(record["curves"], list):
        raise ValueError(f"{path} is not {MANIFEST_FILE}: config must be an object and curves a list; "
                         f"{MANIFEST_REMEDY}")
    return record


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


__all__ = ["LearnedModel", "LearnedWeights", "default_model", "load_weights", "manifest"]
