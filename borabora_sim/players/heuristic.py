"""Rule-based players: the game's compiled evaluation with named weights, styles and action-kind preferences.

The evaluation values a state for a player in the game's score units, as a weighted sum of features; the game
names the weights (`Game.weight_names`), offers styles (sets of weight values) and may name action kinds whose
weight a `<kind>=never|prefer` option sets (Bora Bora: `fishing`; game.py describes its weights). The player
judges every legal action by finishing its own compound action greedily and evaluating the result, on a
determinization of what it can see.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from borabora_sim.games import get_game
from borabora_sim.players.base import (
    KIND_SETTINGS,
    Param,
    SeededPlayer,
    check_number,
    check_top,
    kind_settings,
    parse_bool,
    parse_choice,
    parse_float,
)
from borabora_sim.players.reasons import DIFFERENCE, Column, Option, Reasons, top_options
from borabora_sim.protocol import ActionKind, Game, GameState

# The default game's weight names and styles, as before games were named.
WEIGHT_NAMES: tuple[str, ...] = get_game().weight_names
STYLES: Mapping[str, Mapping[str, float]] = get_game().styles


def heuristic_kinds(game: Game) -> dict[str, ActionKind]:
    """The action kinds a heuristic can be told about: those with a weight."""
    return {name: kind for name, kind in game.action_kinds.items() if kind.weight is not None}


def weights_for(style: str | None = None, /, *settings: str, game: Game | None = None,
                **overrides: object) -> np.ndarray:
    """The weight vector of a style of `game`'s heuristic (default: the default game and its default style), with
    the settings of its action kinds (never, normal or prefer, in the order of the game's action kinds) and single
    weights overridden. Style and settings are positional so that a keyword can override any weight, a kind's own
    too: `weights_for("builder", "never", vp=2.5)`."""
    game = get_game() if game is None else game
    style = game.default_style if style is None else style
    if style not in game.styles:
        raise ValueError(f"unknown style {style!r}; styles: {', '.join(game.styles)}")
    kinds = heuristic_kinds(game)
    if len(settings) > len(kinds):
        raise ValueError(f"{len(settings)} action-kind settings given; the heuristic of {game.name} has "
                         f"{len(kinds)} ({', '.join(kinds) or 'none'})")
    values = dict(game.styles[style])
    for name, setting in kind_settings(kinds, dict(zip(kinds, settings, strict=False))).items():
        if setting != "normal":
            kind = kinds[name]
            chosen = kind.never if setting == "never" else kind.prefer
            assert chosen is not None, "an action kind with a weight has its never and prefer values"
            values[str(kind.weight)] = chosen
    for key, value in overrides.items():
        if key not in values:
            raise ValueError(f"unknown weight {key!r}; weights: {', '.join(game.weight_names)}")
        values[key] = check_number(f"weight {key}", value, -math.inf, math.inf, "a finite number")
    return np.array([values[name] for name in game.weight_names], dtype=np.float64)


def style_file(game: Game, style: str | None = None) -> Path | None:
    """The data file the weights of `style` (default: the game's default style) of `game`'s heuristic are read from
    (a tuned style's, every style of Pig: Game.style_files), or None for a style written in code."""
    return game.style_files.get(game.default_style if style is None else style)


def load_style_for(player: SeededPlayer, game: Game, style: str | None = None, /, *settings: str,
                   **overrides: object) -> np.ndarray:
    """The weights of `weights_for(style, *settings, game=game, **overrides)` for `player`, the data file the style
    is read from (`style_file`) recorded on it as for a network (borabora_sim.players.models): a style written in
    code records none. Every player that plays by a style obtains its weights here: a heuristic, and the rollouts
    or cut-offs of a search or the learned player's finish of its turn. Weights that override every one of the
    style's play by none of its file, which is then not recorded."""
    weights = weights_for(style, *settings, game=game, **overrides)
    path = style_file(game, style)
    if path is not None and not set(game.weight_names) <= set(overrides):
        player.record_file(path)
    return weights


@dataclass(frozen=True)
class OptionValue:
    """One legal action of the last decision with the evaluation the heuristic gave it (score units)."""

    action: int
    name: str
    value: float


class HeuristicPlayer(SeededPlayer):
    """A greedy player on the compiled evaluation. A decision takes tens of microseconds. Options: `style`,
    `thorough`, a setting per action kind of the game (`fishing="never"`) and weights as `w_<name>`. A style read
    from a data file (`style=tuned`) is among the files the player reads (`files_read`).

    >>> from borabora_sim import new_game
    >>> player = HeuristicPlayer(style="builder", fishing="never", seed=1)
    >>> state = new_game(seed=3)
    >>> player.choose(state) in state.legal_actions()
    True
    """

    name = "heuristic"

    @classmethod
    def params(cls, game: Game) -> dict[str, Param]:
        return {
            "style": Param(parse_choice(*game.styles), f"one of {', '.join(game.styles)}"),
            **{kind: Param(parse_choice(*KIND_SETTINGS), " | ".join(KIND_SETTINGS)) for kind in heuristic_kinds(game)},
            "thorough": Param(parse_bool, "finish own compound actions before judging (default true)"),
            **{f"w_{name}": Param(parse_float, f"override the '{name}' weight") for name in game.weight_names},
        }

    def __init__(self, style: str | None = None, thorough: bool = True, seed: int | None = None,
                 game: Game | None = None, **options: object) -> None:
        super().__init__(seed, game, {"style": style, "thorough": thorough}, options)

    def _configure(self, game: Game, style: str | None, thorough: bool, **options: object) -> None:
        if not game.styles:
            raise ValueError(f"{game.name} has no heuristic; play it with random, mcts or flatmc")
        kinds = heuristic_kinds(game)
        unknown = [key for key in options if key not in kinds and not key.startswith("w_")]
        if unknown:
            raise TypeError(f"unknown option(s) {', '.join(unknown)}; the action kinds of {game.name}: "
                            f"{', '.join(kinds) or 'none'}; weights are given as w_<name>, e.g. "
                            f"w_{game.weight_names[0]}=2 (names: {', '.join(game.weight_names)})")
        for name, kind in kinds.items():
            if options.get(name) is not None and f"w_{kind.weight}" in options:
                raise ValueError(f"{name}={options[name]} and w_{kind.weight} both set the {kind.weight} weight; "
                                 "give only one of them")
        if not isinstance(thorough, bool):
            raise TypeError(f"thorough must be true or false, got {thorough!r}")
        self.style = game.default_style if style is None else style
        self.thorough = thorough
        self.kind_settings = kind_settings(kinds, {key: value for key, value in options.items() if key in kinds})
        self.overrides = {key.removeprefix("w_"): value for key, value in options.items() if key.startswith("w_")}
        self.weights = load_style_for(self, game, self.style, *self.kind_settings.values(), **self.overrides)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.last_decision: tuple[GameState, int, int] | None = None     # (state, determinization seed, action)

    def _choose(self, state: GameState) -> int:
        seed = self.next_seed()
        action = self.game.heuristic_action(state, self.weights, seed, self.thorough)
        self.last_decision = (state.clone(), seed, action)
        return action

    def option_values(self, state: GameState, seed: int) -> list[OptionValue]:
        """Every legal action with the value the compiled evaluation gives the mover after it, as `choose` judged
        it with this seed (same determinization, own compound action finished when thorough), best first."""
        self.bind(state)
        values = self.game.heuristic_option_values(state, self.weights, seed, self.thorough)
        options = [OptionValue(a, state.action_to_string(a), float(v)) for a, v in values]
        return sorted(options, key=lambda option: -option.value)

    def explain(self, top: int = 10) -> str:
        """The last decision in the game's words: the chosen action and the `top` options, each with its
        evaluation against the best option's (`reasons`)."""
        reasons = self.reasons(top)
        return "no decision yet" if reasons is None else reasons.text()

    def reasons(self, top: int = 10) -> Reasons | None:
        """The options of the last decision by the evaluation the choice was made with, best first, each as the
        game's points against the best (the evaluation values what is held too, so its own level is no forecast of
        the final score)."""
        check_top(top)
        if self.last_decision is None:
            return None
        state, seed, action = self.last_decision
        options = self.option_values(state, seed)
        words = self.game.describe_actions(state, [option.action for option in options])
        best = options[0].value
        rows = [Option(option.action, text, (option.value - best,)) for option, text in zip(options, words,
                                                                                                strict=True)]
        shown, chosen = top_options(rows, action, top)
        unit = self.game.score_unit
        how = "after finishing its own compound action" if self.thorough else "after this step alone"
        legend = (f"{unit} vs best: the heuristic's evaluation of the position after each move ({unit} scored plus "
                  f"its worth of what is held), against its best move; not a forecast of the final score")
        return Reasons(self.in_words(), action, shown[chosen].words, f"the best by its evaluation {how}",
                       (Column(f"{unit} vs best", DIFFERENCE),), shown, chosen, len(options), legend)

    def kind_words(self) -> str:
        return f"the {self.style.replace('_', '-')} heuristic"

    def spec(self) -> str:
        kinds = heuristic_kinds(self.game)
        options = [f"style={self.style}"]
        options += [f"{name}={setting}" for name, setting in self.kind_settings.items()
                    if kinds[name].weight not in self.overrides]
        options += [] if self.thorough else ["thorough=false"]
        options += [f"w_{key}={value:g}" for key, value in self.overrides.items()]
        return f"{self.name}:{','.join(options)}"


__all__ = ["STYLES", "WEIGHT_NAMES", "HeuristicPlayer", "load_style_for", "style_file", "weights_for"]
