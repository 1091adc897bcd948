"""The uniformly random player: the baseline of every ladder."""

from __future__ import annotations

from borabora_sim.players.base import SeededPlayer, check_top
from borabora_sim.protocol import GameState


class RandomPlayer(SeededPlayer):
    """Picks a legal action uniformly at random."""

    name = "random"

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.last_choice: tuple[str, int] | None = None       # (action name, number of legal actions)
        self.last_state: GameState | None = None                # the position of the last decision

    def _choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        action = legal[self._rng.randrange(len(legal))]
        self.last_choice = (state.action_to_string(action), len(legal))
        self.last_state = state.clone()
        return action

    def explain(self, top: int = 10) -> str:
        check_top(top)
        if self.last_choice is None or self.last_state is None:
            return "no decision yet"
        name, legal = self.last_choice
        words = self.game.describe_action(self.last_state, self.last_state.action_from_string(name))
        return f"{self.in_words()}: chose {words} uniformly at random among {legal} legal action(s)"


__all__ = ["RandomPlayer"]
