"""Bamboo (Germán P. Millán, Devir 2023): the game (`new_game`, its compiled `State`, compiled `random_playouts`),
its component data with provenance and the balance-pattern language."""

from borabora_sim._bamboo import SOURCES, State, random_playouts
from borabora_sim.games.bamboo.components import (
    BalancePattern,
    BambooComponents,
    ComponentError,
    load_components,
    pattern_fulfilled,
)
from borabora_sim.games.bamboo.game import Bamboo, new_game, rules_for

__all__ = [
    "SOURCES", "BalancePattern", "Bamboo", "BambooComponents", "ComponentError", "State", "load_components",
    "new_game", "pattern_fulfilled", "random_playouts", "rules_for",
]
