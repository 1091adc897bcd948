"""Types of the compiled Bora Bora engine (cext/engine.pyx); what it shares with the Bamboo engine is typed in
_compiled_game.pyi."""

from collections.abc import Mapping
from typing import Any, Final, SupportsIndex

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

from borabora_sim._compiled_game import COMP_DTYPE as COMP_DTYPE
from borabora_sim._compiled_game import DECISIONS as DECISIONS
from borabora_sim._compiled_game import FEATURE_NAMES_GLOBAL as FEATURE_NAMES_GLOBAL
from borabora_sim._compiled_game import FEATURE_NAMES_SEAT as FEATURE_NAMES_SEAT
from borabora_sim._compiled_game import FORMAT as FORMAT
from borabora_sim._compiled_game import FORMAT_VERSION as FORMAT_VERSION
from borabora_sim._compiled_game import FRAME_DTYPE as FRAME_DTYPE
from borabora_sim._compiled_game import GAME_DTYPE as GAME_DTYPE
from borabora_sim._compiled_game import INVARIANTS as INVARIANTS
from borabora_sim._compiled_game import NUM_DISTINCT_ACTIONS as NUM_DISTINCT_ACTIONS
from borabora_sim._compiled_game import PHASES as PHASES
from borabora_sim._compiled_game import PLAYER_DTYPE as PLAYER_DTYPE
from borabora_sim._compiled_game import SEED_FIELDS as SEED_FIELDS
from borabora_sim._compiled_game import SEED_MAX as SEED_MAX
from borabora_sim._compiled_game import SOURCES as SOURCES
from borabora_sim._compiled_game import STATE_BYTES as STATE_BYTES
from borabora_sim._compiled_game import VTABLE as VTABLE
from borabora_sim._compiled_game import WEIGHT_NAMES as WEIGHT_NAMES
from borabora_sim._compiled_game import CompiledRules, CompiledState
from borabora_sim._compiled_game import derive_seed as derive_seed
from borabora_sim.games.bora_bora.components import Components

COMPILED: Final[bool]
DIE_ACTIONS: Final[tuple[str, ...]]
MATERIALS: Final[tuple[str, ...]]
PERSON_TYPES: Final[tuple[str, ...]]
GOD_EFFECTS: Final[tuple[str, ...]]
GOD_COLOUR_NAMES: Final[tuple[str, ...]]
COUNTER_NAMES: Final[tuple[str, ...]]

@disjoint_base
class EngineRules(CompiledRules[Components]): ...

class Rules(EngineRules):
    """Component tables in C form, shared read-only by every state of a game."""

    def __new__(cls, components: Components, fingerprint: str) -> Self: ...

@disjoint_base
class EngineState(CompiledState[Rules, Components]): ...

class State(EngineState):
    """A Bora Bora game in progress. Create one with `borabora_sim.new_game()`."""

    @property
    def turn_order(self) -> list[int]: ...
    @property
    def first_turn_order(self) -> list[int]: ...
    def step_random(self, seed: SupportsIndex) -> int: ...
    def counters(self) -> list[dict[str, int]]: ...
    @staticmethod
    def from_dict(data: Mapping[str, Any], rules: Rules) -> State: ...

def die_placement(action: SupportsIndex) -> tuple[int, str] | None: ...
def new_state(rules: Rules, players: SupportsIndex, seed: SupportsIndex) -> State: ...
def random_game_actions(rules: Rules, players: SupportsIndex, game_seed: SupportsIndex) -> list[int]: ...
def random_playouts(rules: Rules, games: SupportsIndex, players: SupportsIndex, seed: SupportsIndex,
                    first_game: SupportsIndex = 0) -> dict[str, npt.NDArray[np.signedinteger[Any]]]: ...
def evaluate_state(state: State, weights: npt.NDArray[np.float64]) -> list[float]: ...
def heuristic_action(state: State, weights: npt.NDArray[np.float64], seed: SupportsIndex,
                     thorough: bool = True) -> int: ...
def heuristic_option_values(state: State, weights: npt.NDArray[np.float64], seed: SupportsIndex,
                            thorough: bool = True) -> list[tuple[int, float]]: ...
