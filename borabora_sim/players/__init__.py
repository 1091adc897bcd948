"""Players: random, rule-based heuristics, flat Monte Carlo and information-set MCTS.

>>> from borabora_sim.players import make_player
>>> make_player("heuristic:style=builder,fishing=never", seed=1)
HeuristicPlayer('heuristic:style=builder,fishing=never')
"""

from __future__ import annotations

from borabora_sim.games import get_game
from borabora_sim.players.base import Player, SeededPlayer
from borabora_sim.players.heuristic import STYLES, WEIGHT_NAMES, HeuristicPlayer, weights_for
from borabora_sim.players.learned import LearnedPlayer
from borabora_sim.players.random_player import RandomPlayer
from borabora_sim.players.search import FlatMCPlayer, MCTSPlayer
from borabora_sim.protocol import Game
from borabora_sim.specs import split_spec

PLAYER_TYPES: dict[str, type[SeededPlayer]] = {
    cls.name: cls for cls in (RandomPlayer, HeuristicPlayer, FlatMCPlayer, MCTSPlayer, LearnedPlayer)
}


def make_player(spec: str, seed: int | None = None, game: Game | None = None) -> SeededPlayer:
    """A player of `game` (default: the default game) from a spec such as "random",
    "heuristic:style=builder,fishing=never" or "mcts:iterations=1000,rollout=heuristic"; styles, weights and
    action kinds are the game's. Unknown names or options, values out of range and options that contradict or
    have no effect raise a one-line ValueError saying what is allowed."""
    name, options = split_spec(spec)
    cls = PLAYER_TYPES.get(name)
    if cls is None:
        raise ValueError(f"unknown player {name!r} in spec {spec!r}; players: {', '.join(PLAYER_TYPES)}")
    game = get_game() if game is None else game
    params = cls.params(game)
    kwargs = {}
    for key, text in options.items():
        param = params.get(key)
        if param is None:
            allowed = ", ".join(params) or "none"
            raise ValueError(f"player spec {spec!r}: player {name!r} has no option {key!r}; options: {allowed}")
        try:
            kwargs[key] = param.parse(text)
        except ValueError as exc:
            raise ValueError(f"player spec {spec!r}: option {key}: {exc}") from None
    try:
        return cls(seed=seed, game=game, **kwargs)
    except ValueError as exc:                   # a combination or range of options the player refuses
        raise ValueError(f"player spec {spec!r}: {exc}") from None


__all__ = [
    "PLAYER_TYPES",
    "STYLES",
    "WEIGHT_NAMES",
    "FlatMCPlayer",
    "HeuristicPlayer",
    "LearnedPlayer",
    "MCTSPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
    "split_spec",
    "weights_for",
]
