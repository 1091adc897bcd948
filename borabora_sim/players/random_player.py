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

    def _choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        action = legal[self._rng.randrange(len(legal))]
        self.last_choice = (state.action_to_string(action), len(legal))
        return action

    def explain(self, top: int = 10) -> str:
        check_top(top)
        if self.last_choice is None:
            return "no decision yet"
        name, legal = self.last_choice
        return f"{self.spec()}: chose {name} uniformly at random among {legal} legal action(s)"


__all__ = ["RandomPlayer"]
