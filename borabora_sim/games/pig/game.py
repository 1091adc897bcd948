"""Pig as a game: the entry point `new_game`, the component-table cache and the game object `Pig`
(borabora_sim.protocol.Game) through which players, the simulator and the command line reach the engine."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, ClassVar

from borabora_sim import _pig
from borabora_sim.component_files import RulesCache
from borabora_sim.errors import check_players
from borabora_sim.files import read_json
from borabora_sim.games.compiled import CompiledGame
from borabora_sim.games.pig import words
from borabora_sim.games.pig.components import BUILTIN_FILE, PigComponents, load_components
from borabora_sim.games.pig.text import render as render_text
from borabora_sim.protocol import ActionKind, check_seed

NUM_ACTIONS: int = _pig.NUM_DISTINCT_ACTIONS
PLAYER_COUNTS = (2, 3, 4)

ComponentSource = PigComponents | str | os.PathLike[str] | Mapping[str, Any] | None
rules_for: RulesCache[PigComponents, _pig.Rules] = RulesCache(PigComponents, load_components, _pig.Rules)
"""Compiled component tables for `components` (PigComponents, a file, a dict, or None for the built-in), built once
per content."""


def new_game(players: int = 2, seed: int | None = None, components: ComponentSource = None) -> _pig.State:
    """A new game of Pig: the first seat drawn from `seed`, its compulsory first roll made, and its choice to roll
    again or hold waiting.

    >>> state = new_game(players=2, seed=7)
    >>> state.decision, state.legal_actions(), 2 <= state.turn_total <= 6
    ('roll_or_hold', [0, 1], True)
    """
    return _pig.new_state(rules_for(components), check_players(players), check_seed(seed))


# The heuristic's styles (data/styles.json, each with its source): the numbers of a hold rule that the compiled
# heuristic (cext/pig_heuristic.pxi) follows. The mover holds once its turn total reaches a target:
#
# | weight | what it sets |
# |---|---|
# | hold_at | the target when the mover's score equals the best other seat's |
# | pace | the target's change per point the best other seat is ahead (behind: less) |
# | race_within | once a seat is this close to the goal, the target is the goal itself (0: never) |
#
# A bank that reaches the goal wins at once, so the target is never more than the points the mover lacks.
STYLES_FILE = BUILTIN_FILE.with_name("styles.json")
STYLE_SOURCES: dict[str, Any] = read_json(STYLES_FILE, "the styles of Pig's heuristic", "reinstall borabora_sim")
STYLES: Mapping[str, Mapping[str, float]] = MappingProxyType({
    name: MappingProxyType({key: float(value) for key, value in entry["weights"].items()})
    for name, entry in STYLE_SOURCES.items()})
# Every style is read from that file, so a heuristic plays by it and records it (Game.style_files): runs and
# questions of it follow the file when a style in it changes.
STYLE_FILES: Mapping[str, Path] = MappingProxyType(dict.fromkeys(STYLES, STYLES_FILE))


class Pig(CompiledGame):
    """Pig as a game object (borabora_sim.protocol.Game), with the goal and die of `components`: the game spec
    "pig" (borabora_sim.games.get_game). Pig has no option.

    >>> game = Pig()
    >>> state = game.new_initial_state(players=3, seed=7)
    >>> [game.action_name(action) for action in state.legal_actions()]
    ['roll', 'hold']
    """

    name = "pig"
    options: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    num_actions = NUM_ACTIONS
    player_counts = PLAYER_COUNTS
    score_unit = "PTS"                                                  # points
    sources: tuple[str, ...] = tuple(_pig.SOURCES)
    counters: tuple[str, ...] = (*_pig.COUNTER_NAMES, "start_position")
    default_players: tuple[str, ...] = ("heuristic", "heuristic:style=hold20")
    weight_names: tuple[str, ...] = tuple(_pig.WEIGHT_NAMES)
    styles = STYLES
    default_style = "keep_pace"
    style_files = STYLE_FILES
    action_kinds: Mapping[str, ActionKind] = MappingProxyType({})     # no kind of action to avoid or prefer
    # mcts: rollouts by the heuristic, to the end of the game (a game of Pig is a few dozen decisions)
    search_defaults: Mapping[str, object] = MappingProxyType({"rollout": "heuristic"})
    # The presets (players/presets.py), measured in docs/players.md: the search guided by the game's network
    # (PUCT), which beat the search above at the same CPU, at about 0.1 s and 1 s of CPU a move.
    presets: Mapping[str, str] = MappingProxyType({
        "strong": "mcts:iterations=40000,evaluation=net",
        "best": "mcts:iterations=200000,evaluation=net",
    })
    state_type = _pig.State
    engine: ClassVar[ModuleType] = _pig
    rules_for = rules_for
    rules: _pig.Rules
    words: ClassVar[ModuleType] = words
    end_action_name = "hold"
    default_player_count = 2

    def render(self, state: _pig.State, viewer: int | None) -> str:
        return render_text(state, viewer)


Pig.pickle_states()

__all__ = ["NUM_ACTIONS", "PLAYER_COUNTS", "STYLES", "Pig", "new_game", "rules_for"]
