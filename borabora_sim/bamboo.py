"""Bamboo's front door, as `borabora_sim` itself is the default game's: `from borabora_sim.bamboo import new_game`.

The game lives in its package, borabora_sim.games.bamboo; these are its public names, under the short path that
users' code and tools import.
"""

from borabora_sim.games.bamboo import (
    SOURCES,
    BalancePattern,
    Bamboo,
    BambooComponents,
    ComponentError,
    State,
    load_components,
    new_game,
    pattern_fulfilled,
    random_playouts,
    rules_for,
)

__all__ = [
    "SOURCES", "BalancePattern", "Bamboo", "BambooComponents", "ComponentError", "State", "load_components",
    "new_game", "pattern_fulfilled", "random_playouts", "rules_for",
]
