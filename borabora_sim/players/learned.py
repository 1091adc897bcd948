"""The learned player: one ply over the legal actions judged by the learned evaluation (docs/learned.md).

For each legal action the player finishes its own turn with the greedy heuristic (the priest and Fire Bonus of a
temple die, the points of a Helper die, the rest of a phase B turn) and asks the compiled model for its probability
of winning from there, on a determinization of what it can see (its own hand, the public board); the best action
wins. The whole judgement runs in compiled code: a decision takes well under a millisecond.
"""

from __future__ import annotations

from borabora_sim import _search
from borabora_sim.players.base import (
    OptionRatingPlayer,
    Param,
    RatedOption,
    check_int,
    parse_choice,
    parse_positive_int,
)
from borabora_sim.players.heuristic import load_style_for
from borabora_sim.players.models import load_learned_for
from borabora_sim.protocol import Game, GameState, search_handles


class LearnedPlayer(OptionRatingPlayer):
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
    choice_rule = "the best win chance by the learned evaluation after the rest of its turn"
    value_column = "win chance"
    legend = ("win chance: the learned evaluation's probability that the player wins, after the move and the rest of "
              "its turn played by the heuristic")

    @classmethod
    def params(cls, game: Game) -> dict[str, Param]:
        return {
            "samples": Param(parse_positive_int, "determinizations each action is judged on (default 1)"),
            "style": Param(parse_choice(*game.styles), "the heuristic that finishes the turn (default balanced)"),
            "weights_file": Param(str, "a learned-weights file (.npz, written by borabora train-learned) instead "
                                       "of the shipped one"),
            **cls.kind_params(game),
        }

    def __init__(self, samples: int = 1, style: str | None = None, seed: int | None = None, game: Game | None = None,
                 weights_file: str | None = None, **kinds: object) -> None:
        super().__init__(seed, game, {"samples": samples, "style": style, "weights_file": weights_file}, kinds)

    def _configure(self, game: Game, samples: int, style: str | None, weights_file: str | None,
                   **kinds: object) -> None:
        self._set_kinds(game, kinds)
        self.model = load_learned_for(self, game, weights_file)
        self.samples = check_int("samples", samples, 1, "a positive integer")
        if style is not None and style not in game.styles:
            raise ValueError(f"unknown style {style!r}; styles: {', '.join(game.styles)}")
        self.style = game.default_style if style is None else style
        self.weights = load_style_for(self, game, self.style)        # a tuned style's file recorded
        self.weights_file = weights_file

    def option_values(self, state: GameState, seed: int) -> list[RatedOption]:
        """Every legal action with the mover's win probability after it by the model, best first."""
        self.bind(state)
        values = _search.learned_option_values(search_handles(state), self.model, self.weights, seed, self.samples)
        options = [RatedOption(a, state.action_to_string(a), float(v)) for a, v in values]
        return sorted(options, key=lambda option: -option.value)

    def _rated_options(self, state: GameState) -> list[RatedOption]:
        return self.option_values(state, self.next_seed())

    def spec(self) -> str:
        options = [f"samples={self.samples}"] if self.samples != 1 else []
        options += [f"style={self.style}"] if self.style != self.game.default_style else []
        options += [f"weights_file={self.weights_file}"] if self.weights_file else []
        options += [f"{kind}={setting}" for kind, setting in self.kind_settings.items() if setting != "normal"]
        return self.name + (":" + ",".join(options) if options else "")


__all__ = ["LearnedPlayer"]
