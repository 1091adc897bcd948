"""Bora Bora as a game: the entry point `new_game` and the component-table cache."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from typing import Any

from borabora_sim import _engine
from borabora_sim.components import Components, load_components

NUM_ACTIONS: int = _engine.NUM_DISTINCT_ACTIONS
PLAYER_COUNTS = (2, 3, 4)

_rules_cache: dict[int, _engine.Rules] = {}

ComponentSource = Components | str | os.PathLike[str] | Mapping[str, Any] | None


def rules_for(components: ComponentSource = None) -> _engine.Rules:
    """Compiled component tables for `components` (a Components, a file, a dict, or None for the built-in)."""
    if not isinstance(components, Components):
        components = load_components(components)
    rules = _rules_cache.get(id(components))
    if rules is None or rules.components is not components:
        rules = _engine.Rules(components)
        _rules_cache[id(components)] = rules
    return rules


def check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    return players


def check_seed(seed: object) -> int:
    """A seed is an int in [0, 2**64); None draws one at random."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64) or None, got {seed!r}")
    return seed


def new_game(players: int = 4, seed: int | None = None, components: ComponentSource = None) -> _engine.State:
    """A new game, set up and waiting on its first decision (the initial hut of the last player).

    >>> state = new_game(players=3, seed=7)
    >>> state.phase, state.decision
    ('setup', 'setup_hut')
    """
    return _engine.new_state(rules_for(components), check_players(players), check_seed(seed))


class BoraBora:
    """The game object of the game protocol (borabora_sim.protocol.Game)."""

    name = "bora_bora"
    num_actions = NUM_ACTIONS
    player_counts = PLAYER_COUNTS

    def __init__(self, components: ComponentSource = None) -> None:
        self.rules = rules_for(components)

    def new_initial_state(self, players: int = 4, seed: int | None = None) -> _engine.State:
        return _engine.new_state(self.rules, check_players(players), check_seed(seed))

    def action_name(self, action: int) -> str:
        return str(self.rules.action_names[action])
