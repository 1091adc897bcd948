"""Playing one game between players: the unit of work of the simulator and the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from borabora_sim.games import get_game
from borabora_sim.players import Player
from borabora_sim.protocol import Game, GameState

# The players of `borabora simulate` and `simulate()` when none are named: the default game's
# (`Game.default_players`); another game plays its own.
DEFAULT_PLAYERS: tuple[str, ...] = get_game().default_players


@dataclass
class GameRecord:
    """The outcome of one game, by seat."""

    seed: int
    scores: list[int]
    winner: int
    ranks: list[int]
    breakdown: list[dict[str, int]]
    counters: list[dict[str, int]]
    decisions: int          # choices made by players (forced moves are not counted)
    seconds: float
    actions: list[int] = field(default_factory=list)


def play_game(players: Sequence[Player], seed: int, game: Game | None = None, keep_actions: bool = False,
              on_decision: Callable[[GameState, int, int], None] | None = None) -> GameRecord:
    """Plays one game; players[i] sits in seat i. Each player's choice is checked by `apply`.
    `on_decision(state, seat, action)` is called before each choice is applied (decision logs). `game`: the
    default game when None."""
    game = get_game() if game is None else game
    start = time.perf_counter()
    state = game.new_initial_state(players=len(players), seed=seed)
    actions: list[int] = []
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player
        action = players[seat].choose(state)
        if on_decision is not None:
            on_decision(state, seat, action)
        state.apply(action)
        decisions += 1
        if keep_actions:
            actions.append(action)
    winner = state.winner()
    assert winner is not None, "a finished game has a winner"
    return GameRecord(seed=seed, scores=state.scores(), winner=winner, ranks=state.ranks(),
                      breakdown=state.score_breakdown(), counters=state.counters(), decisions=decisions,
                      seconds=time.perf_counter() - start, actions=actions)


__all__ = ["DEFAULT_PLAYERS", "GameRecord", "play_game"]
