"""Bamboo (Germán P. Millán, Devir 2023): component data with provenance and the balance-pattern language."""

from borabora_sim.bamboo.components import (
    BalancePattern,
    BambooComponents,
    ComponentError,
    load_components,
    pattern_fulfilled,
)

__all__ = ["BalancePattern", "BambooComponents", "ComponentError", "load_components", "pattern_fulfilled"]
