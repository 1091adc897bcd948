"""Bamboo as a game: the entry point `new_game` and the component-table cache."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from typing import Any

from borabora_sim import _bamboo
from borabora_sim.bamboo.components import BambooComponents, load_components
from borabora_sim.errors import check_int
from borabora_sim.game import fingerprint

NUM_ACTIONS: int = _bamboo.NUM_DISTINCT_ACTIONS
PLAYER_COUNTS = (2, 3, 4)
MODES: tuple[str, ...] = _bamboo.MODES

_RULES_CACHE_SIZE = 32
_rules_cache: dict[str, _bamboo.Rules] = {}

ComponentSource = BambooComponents | str | os.PathLike[str] | Mapping[str, Any] | None


def rules_for(components: ComponentSource = None) -> _bamboo.Rules:
    """Compiled component tables for `components` (BambooComponents, a file, a dict, or None for the built-in).
    Tables are shared by content, so loading the same data twice builds them once."""
    if not isinstance(components, BambooComponents):
        components = load_components(components)
    key = fingerprint(components)  # type: ignore[arg-type]
    rules = _rules_cache.get(key)
    if rules is None:
        if len(_rules_cache) >= _RULES_CACHE_SIZE:
            del _rules_cache[next(iter(_rules_cache))]
        rules = _rules_cache[key] = _bamboo.Rules(components, key)
    return rules


def check_seed(seed: object) -> int:
    """A seed is an int in [0, 2**64) (numpy integers too); None draws one at random."""
    if seed is None:
        return secrets.randbits(64)
    try:
        return check_int(seed, "seed", 0, 2**64 - 1)
    except ValueError as error:
        raise type(error)(f"seed must be an int in [0, 2**64) or None, got {seed!r}") from None


def new_game(players: int = 4, seed: int | None = None, components: ComponentSource = None,
             mode: str = "normal") -> _bamboo.State:
    """A new game of Bamboo, set up and waiting on its first real decision (the draft of III.E).

    `mode` is "normal" (daytime side) or "advanced" (nighttime side for every player, rulings B36).

    >>> state = new_game(players=3, seed=7)
    >>> state.phase, state.decision
    ('setup', 'draft')
    """
    return _bamboo.State._new(rules_for(components), _bamboo.check_players(players), check_seed(seed), mode)
