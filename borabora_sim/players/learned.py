"""The learned player: one ply over the legal actions judged by the learned evaluation (docs/learned.md).

For each legal action the player finishes its own turn with the greedy heuristic (the priest and Fire Bonus of a
temple die, the points of a Helper die, the rest of a phase B turn) and asks the compiled model for its probability
of winning from there, on a determinization of what it can see (its own hand, the public board); the best action
wins. The whole judgement runs in compiled code: a decision takes well under a millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass

from borabora_sim import _search
from borabora_sim.learned import default_model, load_weights
from borabora_sim.players.base import (
    Param,
    SeededPlayer,
    ValuedKindChoices,
    check_int,
    check_top,
    parse_choice,
    parse_positive_int,
)
from borabora_sim.players.heuristic import weights_for
from borabora_sim.protocol import Game, GameState


def learned_model(game: Game, path: str | None = None) -> _search.Model:
    """The compiled model of `game` (the shipped weights, or those in the file `path`); only Bora Bora has one."""
    if game.name != "bora_bora":
        raise ValueError(f"the learned evaluation exists for bora_bora only, not for {game.name}")
    return default_model() if path is None else load_weights(path).compiled()


@dataclass(frozen=True)
class LearnedOption:
    """One legal action of the last decision with the win probability the model gave the mover after it."""

    action: int
    name: str
    value: float


class LearnedPlayer(ValuedKindChoices, SeededPlayer):
    """Greedy on the learned evaluation: each legal action, with the rest of the player's turn played by the
    heuristic (`style`), judged by the model's win probability on `samples` determinizations (default 1). A
    setting per action kind (`fishing=never|prefer`) works as for the search players.

    >>> from borabora_sim import new_game
    >>> player = LearnedPlayer(seed=1)
    >>> state = new_game(seed=3)
    >>> player.choose(state) in state.legal_actions()
    True
    """

    name = "learned"

    @classmethod
    def params(cls, game: Game) -> dict[str, Param]:
        return {
            "samples": Param(parse_positive_int, "determinizations each action is judged on (default 1)"),
            "style": Param(parse_choice(*game.styles), "the heuristic that finishes the turn (default balanced)"),
            **cls.kind_params(game),
        }

    def __init__(self, samples: int = 1, style: str | None = None, seed: int | None = None, game: Game | None = None,
                 weights_file: str | None = None, **kinds: object) -> None:
        super().__init__(seed, game, {"samples": samples, "style": style, "weights_file": weights_file}, kinds)

    def _configure(self, game: Game, samples: int, style: str | None, weights_file: str | None,
                   **kinds: object) -> None:
        self._set_kinds(game, kinds)
        self.model = learned_model(game, weights_file)
        self.samples = check_int("samples", samples, 1, "a positive integer")
        if style is not None and style not in game.styles:
            raise ValueError(f"unknown style {style!r}; styles: {', '.join(game.styles)}")
        self.style = game.default_style if style is None else style
        self.weights = weights_for(self.style, game=game)
        self.weights_file = weights_file

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.last_options: list[LearnedOption] = []
        self.last_action: int | None = None

    def option_values(self, state: GameState, seed: int) -> list[LearnedOption]:
        """Every legal action with the mover's win probability after it by the model, best first."""
        self.bind(state)
        values = _search.learned_option_values(state.search_handles(), self.model, self.weights, seed, self.samples)
        options = [LearnedOption(a, state.action_to_string(a), float(v)) for a, v in values]
        return sorted(options, key=lambda option: -option.value)

    def _choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        allowed, _ = self._without_avoided(legal)
        if len(allowed) == 1:
            self.last_options, self.last_action = [], allowed[0]
            return allowed[0]
        options = [o for o in self.option_values(state, self.next_seed()) if o.action in allowed]
        best = [o for o in options if o.value == options[0].value]
        chosen = best[self._rng.randrange(len(best))] if len(best) > 1 else best[0]
        preferred = self._preferred([(chosen.action, chosen.value)] + [(o.action, o.value) for o in options])
        if preferred is not None:
            chosen = options[preferred - 1]
        self.last_options, self.last_action = options, chosen.action
        return chosen.action

    def explain(self, top: int = 10) -> str:
        """The last decision: the chosen action and the `top` options with the win probability each was given."""
        check_top(top)
        if self.last_action is None:
            return "no decision yet"
        if not self.last_options:
            return f"{self.spec()}: played the only legal action"
        chosen = next(o for o in self.last_options if o.action == self.last_action)
        lines = [f"{self.spec()}: chose {chosen.name} (win probability {chosen.value:.3f}) among "
                 f"{len(self.last_options)} legal action(s), each judged by the learned evaluation after the rest "
                 "of the turn"]
        shown = self.last_options[:top]
        if chosen not in shown:
            shown = [*shown[:top - 1], chosen]
        lines += [f"  {o.name:<40} win probability {o.value:.3f}" + ("  chosen" if o.action == self.last_action
                                                                       else "") for o in shown]
        return "\n".join(lines)

    def spec(self) -> str:
        options = [f"samples={self.samples}"] if self.samples != 1 else []
        options += [f"style={self.style}"] if self.style != self.game.default_style else []
        options += [f"{kind}={setting}" for kind, setting in self.kind_settings.items() if setting != "normal"]
        return self.name + (":" + ",".join(options) if options else "")


__all__ = ["LearnedPlayer"]
