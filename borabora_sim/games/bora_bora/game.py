"""Bora Bora as a game: the entry point `new_game`, the component-table cache and the game object `BoraBora`
(borabora_sim.protocol.Game) through which players, the simulator and the command line reach the engine."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from borabora_sim import _engine
from borabora_sim.component_files import RulesCache
from borabora_sim.errors import check_players
from borabora_sim.files import read_json
from borabora_sim.games.bora_bora import words
from borabora_sim.games.bora_bora.components import BUILTIN_FILE, Components, load_components
from borabora_sim.games.bora_bora.text import render as render_text
from borabora_sim.games.compiled import CompiledGame
from borabora_sim.protocol import ActionKind, check_seed

if TYPE_CHECKING:
    from borabora_sim.learned import LearnedModel

NUM_ACTIONS: int = _engine.NUM_DISTINCT_ACTIONS
PLAYER_COUNTS = (2, 3, 4)

ComponentSource = Components | str | os.PathLike[str] | Mapping[str, Any] | None
rules_for: RulesCache[Components, _engine.Rules] = RulesCache(Components, load_components, _engine.Rules)
"""Compiled component tables for `components` (a Components, a file, a dict, or None for the built-in), built once
per content."""


def is_fishing(action: int) -> bool:
    """A die placed on the fishing space."""
    placement = _engine.die_placement(action)
    return placement is not None and placement[1] == "fishing"


def new_game(players: int = 4, seed: int | None = None, components: ComponentSource = None) -> _engine.State:
    """A new game, set up and waiting on its first decision (the initial hut of the last player).

    >>> state = new_game(players=3, seed=7)
    >>> state.phase, state.decision
    ('setup', 'setup_hut')
    """
    return _engine.new_state(rules_for(components), check_players(players), check_seed(seed))


# The heuristic's styles. The compiled evaluation (cext/engine_eval.pxi) values a state for a player in VP units:
#
# | weight | what it values |
# |---|---|
# | vp | victory points already scored |
# | priest | each priest x the temple VP of the scorings still to come (less for priests likely pushed out) |
# | status | the status VP the marker will score in this round's phase C |
# | offering, god_card, god_tile, shell | each one held (shells up to 9) |
# | material, material_beside | materials on ceremony spaces / beside the board |
# | person | each man / woman tile x the phase B turns still to come |
# | symbol | each status symbol or shell on a tile not yet shifted down |
# | free_space | each free person space |
# | region | each region with a hut (tasks, the 12-region goal) |
# | fish | the fish value beside each building space holding the player's hut (scored at the end) |
# | task | each held task: 6 VP x (fraction of its requirements met)^2 |
# | goal | each of the six end goals: 6 VP x (progress)^3 |
# | pending | each Helper point, or other half-resolved action, still to spend |
# | fishing | each die placed on the fishing space (the fishing action kind) |
#
# The player judges every legal action by finishing its own compound action greedily (the priest and Fire Bonus
# of a temple die, the points of a Helper die) and evaluating the result.
BALANCED = MappingProxyType({
    "vp": 1.0, "priest": 1.0, "status": 0.8, "offering": 1.0, "god_card": 0.9, "god_tile": 2.5, "shell": 0.5,
    "material": 1.2, "material_beside": 0.6, "person": 0.6, "symbol": 0.3, "free_space": 0.5, "region": 0.3,
    "fish": 0.6, "task": 1.0, "goal": 1.0, "pending": 0.8, "fishing": 0.0,
})
TUNED_STYLES_FILE = BUILTIN_FILE.with_name("tuned_styles.json")
TUNED_STYLES: dict[str, Any] = read_json(TUNED_STYLES_FILE, "the tuned styles of Bora Bora", "reinstall borabora_sim")
STYLES = MappingProxyType({
    "balanced": BALANCED,
    "temple": MappingProxyType({**BALANCED, "priest": 1.5, "status": 1.2, "material": 0.8}),
    "builder": MappingProxyType({**BALANCED, "material": 2.0, "material_beside": 0.9, "goal": 1.6, "priest": 0.8}),
    "expansion": MappingProxyType({**BALANCED, "region": 0.9, "fish": 1.2, "person": 0.8, "priest": 0.8}),
    # Styles found by `borabora tune` (docs/tuning.md), each with the record of how it was obtained.
    **{name: MappingProxyType(entry["weights"]) for name, entry in TUNED_STYLES.items()},
})
# A heuristic of a tuned style plays by the file it is read from and records it (Game.style_files), so that runs
# and questions of it follow the file when the style is tuned again.
STYLE_FILES: Mapping[str, Path] = MappingProxyType(dict.fromkeys(TUNED_STYLES, TUNED_STYLES_FILE))


class BoraBora(CompiledGame):
    """Bora Bora as a game object (borabora_sim.protocol.Game), with the data of `components`.

    >>> game = BoraBora()
    >>> state = game.new_initial_state(players=3, seed=7)
    >>> game.action_name(state.legal_actions()[0]) == state.action_to_string(state.legal_actions()[0])
    True
    """

    name = "bora_bora"
    options: Mapping[str, tuple[str, ...]] = MappingProxyType({})     # no options: the spec is the name
    num_actions = NUM_ACTIONS
    player_counts = PLAYER_COUNTS
    score_unit = "VP"
    sources: tuple[str, ...] = tuple(_engine.SOURCES)
    counters: tuple[str, ...] = tuple(_engine.COUNTER_NAMES)
    # Quick to play, and the heuristic with and without fishing side by side.
    default_players: tuple[str, ...] = ("heuristic", "heuristic:fishing=never", "random", "random")
    weight_names: tuple[str, ...] = tuple(_engine.WEIGHT_NAMES)
    styles = STYLES
    default_style = "balanced"
    style_files = STYLE_FILES
    # fishing=never keeps a heuristic's dice off fishing unless nothing else is legal; prefer values each fishing die
    # at 3 VP more than its rewards.
    action_kinds = MappingProxyType({"fishing": ActionKind(is_fishing, weight="fishing", never=-1000.0, prefer=3.0)})
    search_defaults: Mapping[str, object] = MappingProxyType({})     # the mcts player keeps the library's defaults
    # The presets (players/presets.py), measured in docs/players.md: the search with heuristic rollouts cut off after
    # 30 decisions, at about 0.1 s and 1 s of CPU a move. The network's searches beat it at 0.01 s a move; at the
    # presets' 0.1 s the one guided by the network's priors is not detectably stronger.
    presets: Mapping[str, str] = MappingProxyType({
        "strong": "mcts:iterations=2000,rollout=heuristic,rollout_depth=30",
        "best": "mcts:iterations=20000,rollout=heuristic,rollout_depth=30",
    })
    state_type = _engine.State
    engine: ClassVar[ModuleType] = _engine
    rules_for = rules_for
    rules: _engine.Rules
    words: ClassVar[ModuleType] = words
    end_action_name = "done"

    def render(self, state: _engine.State, viewer: int | None) -> str:
        return render_text(state, viewer)

    # The learned evaluation (docs/learned.md), which only Bora Bora has: its module is loaded by a player of it only.
    def learned_file(self, path: str | None = None) -> Path:
        """The learned-evaluation weights a player reads: the file `path`, or the shipped weights."""
        from borabora_sim.learned import DEFAULT_WEIGHTS

        return DEFAULT_WEIGHTS if path is None else Path(path)

    def learned_model(self, path: str | None = None) -> LearnedModel:
        """The compiled learned evaluation: the shipped weights, or those in the file `path`."""
        from borabora_sim.learned import DEFAULT_WEIGHTS, WEIGHTS_REMEDY, default_model, load_weights

        try:
            return default_model() if path is None else load_weights(path).compiled()
        except OSError as exc:
            raise ValueError(f"the learned-weights file {path or DEFAULT_WEIGHTS} cannot be read: "
                             f"{exc.strerror or exc}; {WEIGHTS_REMEDY}") from None


BoraBora.pickle_states()

__all__ = ["NUM_ACTIONS", "PLAYER_COUNTS", "STYLES", "BoraBora", "is_fishing", "new_game", "rules_for"]
