"""Types of the compiled Bamboo engine (cext/bamboo.pyx); what it shares with the Bora Bora engine is typed in
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
from borabora_sim.games.bamboo.components import BambooComponents

NO_TILE_ID: Final[int]
MODES: Final[tuple[str, ...]]
ACTIONS: Final[tuple[str, ...]]
COLOURS: Final[tuple[str, ...]]
HOME_CATEGORIES: Final[tuple[str, ...]]
SIDES: Final[tuple[str, ...]]

@disjoint_base
class EngineRules(CompiledRules[BambooComponents]): ...

@disjoint_base
class Rules(EngineRules):
    """Component tables in C form, shared read-only by every state of a game."""

    @property
    def counter_names(self) -> tuple[str, ...]: ...
    def __new__(cls, components: BambooComponents, fingerprint: str) -> Self: ...

@disjoint_base
class EngineState(CompiledState[Rules, BambooComponents]): ...

class State(EngineState):
    """A Bamboo game in progress. Create one with `borabora_sim.games.bamboo.new_game()`."""

    @classmethod
    def _new(cls, rules: Rules, players: SupportsIndex, seed: SupportsIndex, mode: str) -> State: ...
    @property
    def start_player(self) -> int: ...
    def comfort(self) -> list[int]: ...
    def winners(self) -> tuple[int, ...]: ...
    def returns(self) -> list[float]: ...
    def counters(self) -> list[dict[str, int]]: ...
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: Rules) -> State: ...

def new_state(rules: Rules, players: SupportsIndex, seed: SupportsIndex, mode: str = "normal") -> State: ...
def random_game_actions(rules: Rules, players: SupportsIndex, game_seed: SupportsIndex,
                        mode: str = "normal") -> list[int]: ...
def random_playouts(rules: Rules, games: SupportsIndex, players: SupportsIndex, seed: SupportsIndex,
                    mode: str = "normal", first_game: SupportsIndex = 0,
                    ) -> dict[str, npt.NDArray[np.signedinteger[Any]]]: ...
def evaluate_state(state: State, weights: npt.NDArray[np.float64]) -> list[float]: ...
def heuristic_action(state: State, weights: npt.NDArray[np.float64], seed: SupportsIndex,
                     thorough: bool = True) -> int: ...
def heuristic_option_values(state: State, weights: npt.NDArray[np.float64], seed: SupportsIndex,
                            thorough: bool = True) -> list[tuple[int, float]]: ...
