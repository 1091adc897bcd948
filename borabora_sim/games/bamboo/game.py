"""Bamboo as a game: the entry point `new_game`, the component-table cache and the game object `Bamboo`
(borabora_sim.protocol.Game) through which players, the simulator and the command line reach the engine."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, ClassVar

from borabora_sim import _bamboo
from borabora_sim.component_files import RulesCache
from borabora_sim.errors import check_players
from borabora_sim.files import read_json
from borabora_sim.games.bamboo import words
from borabora_sim.games.bamboo.components import BUILTIN_FILE, BambooComponents, load_components
from borabora_sim.games.bamboo.text import render as render_text
from borabora_sim.games.compiled import CompiledGame
from borabora_sim.protocol import ActionKind, check_seed

NUM_ACTIONS: int = _bamboo.NUM_DISTINCT_ACTIONS
PLAYER_COUNTS = (2, 3, 4)
MODES: tuple[str, ...] = _bamboo.MODES

_RULES_CACHE_SIZE = 32
ComponentSource = BambooComponents | str | os.PathLike[str] | Mapping[str, Any] | None
rules_for: RulesCache[BambooComponents, _bamboo.Rules] = RulesCache(BambooComponents, load_components,
                                                                  _bamboo.Rules)
"""Compiled component tables for `components` (BambooComponents, a file, a dict, or None for the built-in), built
once per content."""


def new_game(players: int = 4, seed: int | None = None, components: ComponentSource = None,
             mode: str = "normal") -> _bamboo.State:
    """A new game of Bamboo, set up and waiting on its first real decision (the draft of III.E).

    `mode` is "normal" (daytime side) or "advanced" (nighttime side for every player, rulings B36).

    >>> state = new_game(players=3, seed=7)
    >>> state.phase, state.decision
    ('setup', 'draft')
    """
    return _bamboo.State._new(rules_for(components), check_players(players), check_seed(seed), mode)


# The heuristic's styles. The compiled evaluation (cext/bamboo_eval.pxi) values a state for a player in HP units:
#
# | weight | what it values |
# |---|---|
# | hp | happiness points already scored |
# | coin | each coin, while a Summer is still to come |
# | food | each food unit held, up to the units the coming Winters will ask (1 per home tile each) |
# | hunger | each unit the next feeding would lack (x the HP it costs) |
# | incense | each stick still in the reserve in Summer (a turn or an activation to come) |
# | shoot_balance ... shoot_wild | each shoot in a temple area by its icon, x half the Summers still to come (at |
# |   | most 1); also what an action of that kind under way is worth (x pending) |
# | comfort | each comfort point of the home tiles (the tie-break, the balance patterns) |
# | harmony | the harmony penalty (2 HP a point of left/right difference at the end): the share of the difference |
# |   | that home tiles to come could close (typical comfort, one a Summer, on the lighter side's empty spaces) |
# |   | still expected to cost; the rest of it costs in full |
# | night_space | the advanced side's penalty for its empty typed spaces as it would score now |
# | balance_met | the chance that a held balance tile whose pattern is met is still scored in full (its HP, less |
# |   | the half Balance action a Score Balance costs) rather than left to the half HP of the end |
# | balance_near | a held tile not met yet: what it would be worth met, x this chance for each home tile its |
# |   | pattern still lacks (nothing once the pattern is out of reach or the seat has no action to come) |
# | spirit_kind | each distinct spirit held (x the 2 HP variety scores at the end) |
# | spirit_awake | each awake spirit tile (an action to come), x the Summers still to come as for shoots |
# | majority | each temple whose face-up spirit the seat's incense would take now (+2 HP if a new kind) |
# | pending | each activation left in the turn, and each action begun (x its shoot weight) |
#
# The player judges every legal action by finishing its own step greedily (a visit with its whole turn: the
# offering, the stalks, the activations and their actions; a gift with its action) and evaluating the result.
BALANCED = MappingProxyType({
    "hp": 1.0, "coin": 0.5, "food": 0.4, "hunger": 0.8, "incense": 0.3, "shoot_balance": 1.0,
    "shoot_improve": 1.0, "shoot_cook": 0.6, "shoot_fund": 0.8, "shoot_wild": 1.2, "comfort": 0.3, "harmony": 0.25,
    "night_space": 0.7, "balance_met": 0.95, "balance_near": 0.3, "spirit_kind": 0.8, "spirit_awake": 1.0,
    "majority": 0.6, "pending": 1.0,
})
TUNED_STYLES_FILE = BUILTIN_FILE.with_name("tuned_styles.json")
TUNED_STYLES: dict[str, Any] = read_json(TUNED_STYLES_FILE, "the tuned styles of Bamboo", "reinstall borabora_sim")
STYLES = MappingProxyType({
    "balanced": BALANCED,
    "builder": MappingProxyType({**BALANCED, "comfort": 0.6, "coin": 0.7, "shoot_improve": 1.4, "harmony": 0.4,
                                 "balance_near": 0.4, "shoot_balance": 1.2}),
    "spirits": MappingProxyType({**BALANCED, "majority": 1.2, "spirit_kind": 1.2, "spirit_awake": 1.4,
                                 "incense": 0.4, "coin": 0.6}),
    # Styles found by `borabora tune --game bamboo` (docs/tuning.md), each with the record of how it was obtained.
    **{name: MappingProxyType(entry["weights"]) for name, entry in TUNED_STYLES.items()},
})
# A heuristic of a tuned style plays by the file it is read from and records it (Game.style_files), so that runs
# and questions of it follow the file when the style is tuned again.
STYLE_FILES: Mapping[str, Path] = MappingProxyType(dict.fromkeys(TUNED_STYLES, TUNED_STYLES_FILE))


class Bamboo(CompiledGame):
    """Bamboo as a game object (borabora_sim.protocol.Game), with the data of `components` and the `mode`
    "normal" (daytime side) or "advanced" (nighttime side for every player, B36): the game spec "bamboo" or
    "bamboo:mode=advanced" (borabora_sim.games.get_game).

    Its states are those of `new_game`: winner() is one seat, the lowest of those sharing a victory (winners()
    names them all).

    >>> game = Bamboo()
    >>> state = game.new_initial_state(players=3, seed=7)
    >>> game.action_name(state.legal_actions()[0]) == state.action_to_string(state.legal_actions()[0])
    True
    """

    name = "bamboo"
    options: Mapping[str, tuple[str, ...]] = MappingProxyType({"mode": MODES})     # the spec bamboo:mode=advanced
    num_actions = NUM_ACTIONS
    player_counts = PLAYER_COUNTS
    score_unit = "HP"                                                   # happiness points
    sources: tuple[str, ...] = tuple(_bamboo.SOURCES)
    default_players: tuple[str, ...] = ("heuristic", "heuristic:style=spirits", "random", "random")
    weight_names: tuple[str, ...] = tuple(_bamboo.WEIGHT_NAMES)
    styles = STYLES
    default_style = "balanced"
    style_files = STYLE_FILES
    action_kinds: Mapping[str, ActionKind] = MappingProxyType({})     # no kind of action to avoid or prefer yet
    # mcts: random rollouts cut off at the end of the turn 25 decisions in (four turns or so), judged by the
    # evaluation at 4 HP per e-fold (benchmarks/README_players.md, "Bamboo: the search's settings")
    search_defaults: Mapping[str, object] = MappingProxyType({"rollout_depth": 25, "temperature": 4.0})
    # The presets (players/presets.py), measured in docs/players.md: the network's search at about 0.1 s of CPU a
    # move, which beat the search with the defaults above at equal CPU, and the same search at ten times that.
    presets: Mapping[str, str] = MappingProxyType({
        "strong": "mcts:iterations=3500,evaluation=net",
        "best": "mcts:iterations=35000,evaluation=net",
    })
    state_type = _bamboo.State
    engine: ClassVar[ModuleType] = _bamboo
    rules_for = rules_for
    rules: _bamboo.Rules
    words: ClassVar[ModuleType] = words
    end_action_name = "done"

    def __init__(self, components: ComponentSource = None, mode: str = "normal") -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        super().__init__(components)
        self.mode = mode
        self.counters: tuple[str, ...] = (*self.rules.counter_names, "start_position")

    def engine_options(self) -> tuple[object, ...]:
        return (self.mode,)

    @property
    def fingerprint(self) -> str:
        """The component data's hash, with the mode when it is not the normal one (a resumed run needs both)."""
        base = str(self.rules.fingerprint)
        return base if self.mode == "normal" else f"{base}-{self.mode}"

    def __repr__(self) -> str:
        return f"Bamboo(components {self.rules.fingerprint}, mode {self.mode})"

    def for_state(self, state: _bamboo.State) -> Bamboo:
        """The game `state` is played in: Bamboo with the state's component data and mode (the side of the boards,
        which the state's player boards record)."""
        advanced = state.observation(None)["pl"][0]["advanced"]
        return Bamboo(state.components, "advanced" if advanced else "normal")

    def render(self, state: _bamboo.State, viewer: int | None) -> str:
        return render_text(state, viewer)


Bamboo.pickle_states()

__all__ = ["MODES", "NUM_ACTIONS", "PLAYER_COUNTS", "STYLES", "Bamboo", "new_game", "rules_for"]
