"""Types of the compiled game-agnostic search (cext/search.pyx)."""

from collections.abc import Iterable
from typing import Final, SupportsIndex

import numpy.typing as npt
from typing_extensions import CapsuleType

SEED_MAX: Final[int]
BUDGET_MAX: Final[int]
THREADS_MAX: Final[int]

def run_mcts(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], root_player: SupportsIndex,
             iterations: SupportsIndex = 1000, seconds: float = 0.0, c_uct: float = 0.7,
             heuristic_rollout: bool = False, rollout_depth: SupportsIndex = -1, margin_weight: float = 0.0,
             temperature: float = 10.0, weights: npt.ArrayLike | None = None, seed: SupportsIndex = 0,
             max_nodes: SupportsIndex = 0, root_actions: Iterable[int] | None = None, threads: SupportsIndex = 1,
             ) -> tuple[int, list[tuple[int, int, float]]]: ...
def run_flat_mc(handles: tuple[CapsuleType, CapsuleType, CapsuleType, object], root_player: SupportsIndex,
                actions: Iterable[int], rollouts: SupportsIndex = 100, seconds: float = 0.0,
                heuristic_rollout: bool = False, rollout_depth: SupportsIndex = -1, margin_weight: float = 0.0,
                temperature: float = 10.0, weights: npt.ArrayLike | None = None, seed: SupportsIndex = 0,
                ) -> tuple[int, list[tuple[int, int, float]]]: ...
