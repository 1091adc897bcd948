"""borabora_sim: a fast, faithful Bora Bora rules engine with AI players and strategy statistics.

>>> import borabora_sim
>>> state = borabora_sim.new_game(players=4, seed=1)
>>> state.apply(state.legal_actions()[0])

Strategy questions are answered by `borabora_sim.questions.ask` (`from borabora_sim.questions import ask`): the
question engine sits above the games and loads pandas and every game, so the package does not import it.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from borabora_sim import _worker_start  # noqa: F401  (first: a worker of a run killed as it starts ends with it)
from borabora_sim.component_files import ComponentError
from borabora_sim.errors import IllegalActionError, StateFormatError

if TYPE_CHECKING:
    from borabora_sim._engine import COMPILED, SOURCES, State, random_playouts
    from borabora_sim.games.bora_bora.components import Components, load_components
    from borabora_sim.games.bora_bora.game import NUM_ACTIONS, BoraBora, new_game, rules_for

try:
    __version__ = version("borabora_sim")          # pyproject.toml's version, as installed
except PackageNotFoundError:                        # a source tree on the path, never installed
    __version__ = "0+unknown"

# Bora Bora's names, each loaded from its module on first use (PEP 562), so that importing the package, or any module
# below the games (the protocol, the specs), loads no game and no compiled engine
_GAME_NAMES = {
    "COMPILED": "borabora_sim._engine",
    "SOURCES": "borabora_sim._engine",
    "State": "borabora_sim._engine",
    "random_playouts": "borabora_sim._engine",
    "Components": "borabora_sim.games.bora_bora.components",
    "load_components": "borabora_sim.games.bora_bora.components",
    "NUM_ACTIONS": "borabora_sim.games.bora_bora.game",
    "BoraBora": "borabora_sim.games.bora_bora.game",
    "new_game": "borabora_sim.games.bora_bora.game",
    "rules_for": "borabora_sim.games.bora_bora.game",
}


def __getattr__(name: str) -> Any:
    module = _GAME_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value                         # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_GAME_NAMES})


__all__ = [
    "COMPILED",
    "NUM_ACTIONS",
    "SOURCES",
    "BoraBora",
    "ComponentError",
    "Components",
    "IllegalActionError",
    "State",
    "StateFormatError",
    "load_components",
    "new_game",
    "random_playouts",
    "rules_for",
]
