"""Bamboo (Germán P. Millán, Devir 2023): component data with provenance and the balance-pattern language."""

from borabora_sim.bamboo.components import (
    BalancePattern,
    BambooComponents,
    ComponentError,
    load_components,
    pattern_fulfilled,
)
from borabora_sim.bamboo.game import Bamboo, new_game, rules_for

__all__ = [
    "BalancePattern", "Bamboo", "BambooComponents", "ComponentError", "load_components", "new_game",
    "pattern_fulfilled", "rules_for",
]
