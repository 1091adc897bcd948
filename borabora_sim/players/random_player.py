"""The uniformly random player: the baseline of every ladder."""

from __future__ import annotations

from borabora_sim.players.base import SeededPlayer
from borabora_sim.protocol import GameState


class RandomPlayer(SeededPlayer):
    """Picks a legal action uniformly at random."""

    name = "random"

    def choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        return legal[self._rng.randrange(len(legal))]
