"""Bora Bora as a game: the entry point `new_game` and the component-table cache."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Mapping
from typing import Any

from borabora_sim import _engine
from borabora_sim.components import Components, load_components
from borabora_sim.errors import check_int

NUM_ACTIONS: int = _engine.NUM_DISTINCT_ACTIONS
PLAYER_COUNTS = (2, 3, 4)

_RULES_CACHE_SIZE = 32
_rules_cache: dict[str, _engine.Rules] = {}

ComponentSource = Components | str | os.PathLike[str] | Mapping[str, Any] | None


_fingerprints: dict[int, tuple[Components, str]] = {}


def fingerprint(components: Components) -> str:
    """A short hash of the component data: saved states name the data they were played with."""
    known = _fingerprints.get(id(components))
    if known is not None and known[0] is components:
        return known[1]
    text = json.dumps(components.to_json_dict(), sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    if len(_fingerprints) >= _RULES_CACHE_SIZE:
        del _fingerprints[next(iter(_fingerprints))]
    _fingerprints[id(components)] = (components, digest)
    return digest


def rules_for(components: ComponentSource = None) -> _engine.Rules:
    """Compiled component tables for `components` (a Components, a file, a dict, or None for the built-in).
    Tables are shared by content, so loading the same data twice builds them once."""
    if not isinstance(components, Components):
        components = load_components(components)
    key = fingerprint(components)
    rules = _rules_cache.get(key)
    if rules is None:
        if len(_rules_cache) >= _RULES_CACHE_SIZE:
            del _rules_cache[next(iter(_rules_cache))]
        rules = _rules_cache[key] = _engine.Rules(components, key)
    return rules


def is_fishing(action: int) -> bool:
    """A die placed on the fishing space."""
    placement = _engine.die_placement(action)
    return placement is not None and placement[1] == "fishing"


def check_players(players: object) -> int:
    return int(_engine.check_players(players))


def check_seed(seed: object) -> int:
    """A seed is an int in [0, 2**64) (numpy integers too); None draws one at random."""
    if seed is None:
        return secrets.randbits(64)
    try:
        return check_int(seed, "seed", 0, 2**64 - 1)
    except ValueError as error:     # the same class (ArgumentTypeError or ValueError), the message of new_game
        raise type(error)(f"seed must be an int in [0, 2**64) or None, got {seed!r}") from None


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
