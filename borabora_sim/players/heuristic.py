"""Rule-based players: a compiled evaluation with named weights and switchable preferences.

The evaluation (cext/engine_eval.pxi) values a state for a player in victory-point units:

| weight | what it values |
|---|---|
| vp | victory points already scored |
| priest | each priest x the temple VP of the scorings still to come (less for priests likely pushed out) |
| status | the status VP the marker will score in this round's phase C |
| offering, god_card, god_tile, shell | each one held (shells up to 9) |
| material, material_beside | materials on ceremony spaces / beside the board |
| person | each man / woman tile x the phase B turns still to come |
| symbol | each status symbol or shell on a tile not yet shifted down |
| free_space | each free person space |
| region | each region with a hut (tasks, the 12-region goal) |
| fish | the fish value beside each building space holding the player's hut (scored at the end) |
| task | each held task: 6 VP x (fraction of its requirements met)^2 |
| goal | each of the six end goals: 6 VP x (progress)^3 |
| pending | each Helper point, or other half-resolved action, still to spend |
| fishing | each die placed on the fishing space (the fishing switch) |

The player judges every legal action by finishing its own compound action greedily (the priest and Fire Bonus
of a temple die, the points of a Helper die) and evaluating the result, on a determinization of what it can see.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

import numpy as np

from borabora_sim import _engine
from borabora_sim.players.base import (
    Param,
    SeededPlayer,
    check_number,
    check_top,
    parse_bool,
    parse_choice,
    parse_float,
)
from borabora_sim.protocol import GameState

WEIGHT_NAMES: tuple[str, ...] = tuple(_engine.WEIGHT_NAMES)

BALANCED = MappingProxyType({
    "vp": 1.0, "priest": 1.0, "status": 0.8, "offering": 1.0, "god_card": 0.9, "god_tile": 2.5, "shell": 0.5,
    "material": 1.2, "material_beside": 0.6, "person": 0.6, "symbol": 0.3, "free_space": 0.5, "region": 0.3,
    "fish": 0.6, "task": 1.0, "goal": 1.0, "pending": 0.8, "fishing": 0.0,
})
STYLES = MappingProxyType({
    "balanced": BALANCED,
    "temple": MappingProxyType({**BALANCED, "priest": 1.5, "status": 1.2, "material": 0.8}),
    "builder": MappingProxyType({**BALANCED, "material": 2.0, "material_beside": 0.9, "goal": 1.6, "priest": 0.8}),
    "expansion": MappingProxyType({**BALANCED, "region": 0.9, "fish": 1.2, "person": 0.8, "priest": 0.8}),
})
FISHING_BIAS = MappingProxyType({"never": -1000.0, "normal": 0.0, "prefer": 3.0})


def weights_for(style: str = "balanced", fishing: str = "normal", /, **overrides: float) -> np.ndarray:
    """The weight vector of a style, with the fishing switch and single weights overridden (style and fishing are
    positional so that `fishing=` can override the fishing weight itself)."""
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")
    if fishing not in FISHING_BIAS:
        raise ValueError(f"fishing must be one of {', '.join(FISHING_BIAS)}; got {fishing!r}")
    values = dict(STYLES[style])
    values["fishing"] = FISHING_BIAS[fishing]
    for key, value in overrides.items():
        if key not in values:
            raise ValueError(f"unknown weight {key!r}; weights: {', '.join(WEIGHT_NAMES)}")
        values[key] = check_number(f"weight {key}", value, -math.inf, math.inf, "a finite number")
    return np.array([values[name] for name in WEIGHT_NAMES], dtype=np.float64)


@dataclass(frozen=True)
class OptionValue:
    """One legal action of the last decision with the evaluation the heuristic gave it (VP units)."""

    action: int
    name: str
    value: float


class HeuristicPlayer(SeededPlayer):
    """A greedy player on the compiled evaluation. A decision takes tens of microseconds.

    >>> from borabora_sim import new_game
    >>> player = HeuristicPlayer(style="builder", fishing="never", seed=1)
    >>> state = new_game(seed=3)
    >>> player.choose(state) in state.legal_actions()
    True
    """

    name = "heuristic"
    params: ClassVar[dict[str, Param]] = {
        "style": Param(parse_choice(*STYLES), f"one of {', '.join(STYLES)}"),
        "fishing": Param(parse_choice(*FISHING_BIAS), "never | normal | prefer"),
        "thorough": Param(parse_bool, "finish own compound actions before judging (default true)"),
        **{f"w_{name}": Param(parse_float, f"override the '{name}' weight") for name in WEIGHT_NAMES},
    }

    def __init__(self, style: str = "balanced", fishing: str | None = None, thorough: bool = True,
                 seed: int | None = None, **weights: float) -> None:
        unknown = [key for key in weights if not key.startswith("w_")]
        if unknown:
            raise TypeError(f"unknown option(s) {', '.join(unknown)}; weights are given as w_<name>, "
                            f"e.g. w_vp=2 (names: {', '.join(WEIGHT_NAMES)})")
        if fishing is not None and "w_fishing" in weights:
            raise ValueError(f"fishing={fishing} and w_fishing both set the fishing weight; give only one of them")
        if not isinstance(thorough, bool):
            raise TypeError(f"thorough must be true or false, got {thorough!r}")
        self.style = style
        self.fishing = fishing or "normal"
        self.thorough = thorough
        self.overrides = {key.removeprefix("w_"): value for key, value in weights.items()}
        self.weights = weights_for(style, self.fishing, **self.overrides)
        super().__init__(seed)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.last_decision: tuple[GameState, int, int] | None = None     # (state, determinization seed, action)

    def choose(self, state: GameState) -> int:
        seed = self.next_seed()
        action = int(_engine.heuristic_action(state, self.weights, seed, self.thorough))
        self.last_decision = (state.clone(), seed, action)
        return action

    def option_values(self, state: GameState, seed: int) -> list[OptionValue]:
        """Every legal action with the value the compiled evaluation gives the mover after it, as `choose` judged
        it with this seed (same determinization, own compound action finished when thorough), best first."""
        values = _engine.heuristic_option_values(state, self.weights, seed, self.thorough)
        options = [OptionValue(a, state.action_to_string(a), float(v)) for a, v in values]
        return sorted(options, key=lambda option: -option.value)

    def explain(self, top: int = 10) -> str:
        """The last decision: the chosen action and the `top` options with the evaluation each was given."""
        check_top(top)
        if self.last_decision is None:
            return "no decision yet"
        state, seed, action = self.last_decision
        options = self.option_values(state, seed)
        chosen = next(option for option in options if option.action == action)
        how = "after finishing its own compound action" if self.thorough else "after this step alone"
        lines = [f"{self.spec()}: chose {chosen.name} (evaluation {chosen.value:.2f}) among {len(options)} legal "
                 f"action(s), each judged by the evaluation in VP units {how}"]
        shown = options[:top] if chosen in options[:top] else [*options[:top - 1], chosen]
        lines += [f"  {o.name:<40} evaluation {o.value:>8.2f}" + ("  chosen" if o.action == action else "")
                  for o in shown]
        return "\n".join(lines)

    def spec(self) -> str:
        options = [f"style={self.style}"] + ([] if "fishing" in self.overrides else [f"fishing={self.fishing}"])
        options += [] if self.thorough else ["thorough=false"]
        options += [f"w_{key}={value:g}" for key, value in self.overrides.items()]
        return f"{self.name}:{','.join(options)}"
