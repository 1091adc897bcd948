"""Types of the compiled game-agnostic search (cext/search.pyx)."""

from collections.abc import Iterable
from typing import Final, Literal, SupportsIndex, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import CapsuleType, Self, disjoint_base

SEED_MAX: Final[int]
BUDGET_MAX: Final[int]
THREADS_MAX: Final[int]

@overload
def run_mcts(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], root_player: SupportsIndex,
             iterations: SupportsIndex = 1000, seconds: float = 0.0, c_uct: float = 0.7,
             heuristic_rollout: bool = False, rollout_depth: SupportsIndex = -1, margin_weight: float = 0.0,
             temperature: float = 10.0, weights: npt.ArrayLike | None = None, seed: SupportsIndex = 0,
             max_nodes: SupportsIndex = 0, root_actions: Iterable[int] | None = None, threads: SupportsIndex = 1,
             model: Model | None = None, c_puct: float = 0.0, noise_alpha: float = 0.0,
             noise_fraction: float = 0.25, rollout_leaves: bool = False,
             root_values: Literal[False] = False) -> tuple[int, list[tuple[int, int, float]]]: ...
@overload
def run_mcts(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], root_player: SupportsIndex,
             iterations: SupportsIndex = 1000, seconds: float = 0.0, c_uct: float = 0.7,
             heuristic_rollout: bool = False, rollout_depth: SupportsIndex = -1, margin_weight: float = 0.0,
             temperature: float = 10.0, weights: npt.ArrayLike | None = None, seed: SupportsIndex = 0,
             max_nodes: SupportsIndex = 0, root_actions: Iterable[int] | None = None, threads: SupportsIndex = 1,
             model: Model | None = None, c_puct: float = 0.0, noise_alpha: float = 0.0,
             noise_fraction: float = 0.25, rollout_leaves: bool = False, *,
             root_values: Literal[True]) -> tuple[int, list[tuple[int, int, float]], list[float]]: ...
def run_flat_mc(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], root_player: SupportsIndex,
                actions: Iterable[int], rollouts: SupportsIndex = 100, seconds: float = 0.0,
                heuristic_rollout: bool = False, rollout_depth: SupportsIndex = -1, margin_weight: float = 0.0,
                temperature: float = 10.0, weights: npt.ArrayLike | None = None, seed: SupportsIndex = 0,
                model: Model | None = None) -> tuple[int, list[tuple[int, int, float]]]: ...

# The networks (cext/learned.pxi, cext/model.pxd)
_Layer = tuple[npt.ArrayLike, npt.ArrayLike]
_Policy = _Layer | tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike]     # (w, b) or (w, b, linear)

@disjoint_base
class Model:
    def __new__(cls, layers: Iterable[_Layer], value: tuple[npt.ArrayLike, float],
                policy: _Policy | None = None, finish: npt.ArrayLike | None = None,
                heuristic: float = 0.0) -> Self: ...
    @property
    def num_features(self) -> int: ...
    @property
    def hidden(self) -> tuple[int, ...]: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def finish(self) -> npt.NDArray[np.float64] | None: ...
    @property
    def heuristic(self) -> float: ...

def features(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object],
             seat: SupportsIndex) -> npt.NDArray[np.float64]: ...
def win_probabilities(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], model: Model) -> list[float]: ...
def policy(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], model: Model,
           seed: SupportsIndex = 0) -> list[tuple[int, float]]: ...
def afterstate_features(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object],
                        seed: SupportsIndex = 0, finish: npt.ArrayLike | None = None
                        ) -> tuple[list[int], npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...
def learned_option_values(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], model: Model,
                          weights: npt.ArrayLike, seed: SupportsIndex,
                          samples: SupportsIndex = 1) -> list[tuple[int, float]]: ...
def self_play(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], weights: npt.ArrayLike,
              seed: SupportsIndex, keep: float = 0.1, explore: float = 0.0, model: Model | None = None,
              learned_seats: Iterable[int] = ()
              ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
