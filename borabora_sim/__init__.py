"""borabora_sim: a fast, faithful Bora Bora rules engine with AI players and strategy statistics.

>>> import borabora_sim
>>> state = borabora_sim.new_game(players=4, seed=1)
>>> state.apply(state.legal_actions()[0])

Strategy questions are answered by `borabora_sim.questions.ask` (`from borabora_sim.questions import ask`): the
question engine sits above the games and loads pandas and every game, so the package does not import it.
"""

from importlib.metadata import PackageNotFoundError, version

from borabora_sim import _worker_start  # noqa: F401  (first: a worker of a run killed as it starts ends with it)
from borabora_sim._engine import COMPILED, SOURCES, State, random_playouts
from borabora_sim.errors import IllegalActionError, StateFormatError
from borabora_sim.games.bora_bora.components import ComponentError, Components, load_components
from borabora_sim.games.bora_bora.game import NUM_ACTIONS, BoraBora, new_game, rules_for

try:
    __version__ = version("borabora_sim")          # pyproject.toml's version, as installed
except PackageNotFoundError:                        # a source tree on the path, never installed
    __version__ = "0+unknown"


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
