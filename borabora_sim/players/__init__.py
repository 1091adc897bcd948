"""Players: random, rule-based heuristics, flat Monte Carlo, information-set MCTS (with rollouts or a network),
the learned evaluation and the expert network; and the presets, short names of the strongest of them in each game
(players/presets.py).

>>> from borabora_sim.players import make_player
>>> make_player("heuristic:style=builder,fishing=never", seed=1)
HeuristicPlayer('heuristic:style=builder,fishing=never')
>>> make_player("strong", seed=1, game=get_game("bamboo")).name
'mcts'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from borabora_sim.games import game_names, get_game
from borabora_sim.players.base import Player, SeededPlayer, refused_by_every_game
from borabora_sim.players.expert import ExpertPlayer
from borabora_sim.players.heuristic import STYLES, WEIGHT_NAMES, HeuristicPlayer, weights_for
from borabora_sim.players.learned import LearnedPlayer
from borabora_sim.players.models import files_fingerprint
from borabora_sim.players.presets import PRESETS, preset_names, resolve_preset
from borabora_sim.players.random_player import RandomPlayer
from borabora_sim.players.search import FlatMCPlayer, MCTSPlayer
from borabora_sim.protocol import Game
from borabora_sim.specs import split_spec

PLAYER_TYPES: dict[str, type[SeededPlayer]] = {
    cls.name: cls for cls in (RandomPlayer, HeuristicPlayer, FlatMCPlayer, MCTSPlayer, LearnedPlayer, ExpertPlayer)
}


def make_player(spec: str, seed: int | None = None, game: Game | None = None) -> SeededPlayer:
    """A player from a spec such as "random", "heuristic:style=builder,fishing=never" or
    "mcts:iterations=1000,rollout=heuristic"; styles, weights and action kinds are those of its game. Given `game`,
    it plays that game; without one, the game of the first state it is given (SeededPlayer), and its options need
    only fit some registered game. A preset ("strong", "best", "strong:threads=2") is the player its game declares
    for it (players/presets.py), so it needs `game`. Unknown names or options, values out of range and options that
    contradict or have no effect raise a one-line ValueError saying what is allowed."""
    resolved = resolve_preset(spec, game)       # a preset without a game is refused here
    if game is None or resolved == spec:
        return _make_player(spec, seed, game)
    try:
        player = _make_player(resolved, seed, game)
    except ValueError as exc:           # said of the preset as written, with the spec it stands for
        message, inner = str(exc), f"player spec {resolved!r}: "
        message = message.removeprefix(inner)
        raise ValueError(f"player spec {spec!r} (in {game.name}: {resolved!r}): {message}") from None
    player.preset = split_spec(spec)[0]         # named in words as the preset ("the strong AI")
    return player


def _make_player(spec: str, seed: int | None, game: Game | None) -> SeededPlayer:
    name, options = split_spec(spec)
    cls = PLAYER_TYPES.get(name)
    if cls is None:
        presets = ", ".join(preset_names(game)) or "none"
        raise ValueError(f"unknown player {name!r} in spec {spec!r}; players: {', '.join(PLAYER_TYPES)}; "
                         f"presets: {presets}")
    refusals: dict[str, ValueError] = {}
    for candidate in [game] if game is not None else map(get_game, game_names()):
        try:
            kwargs = parse_options(cls, options, candidate)
            break
        except ValueError as exc:
            refusals[candidate.name] = exc
    else:
        raise ValueError(f"player spec {spec!r}: {refused_by_every_game(refusals)}")
    try:
        return cls(seed=seed, game=game, **kwargs)
    except ValueError as exc:                   # a combination or range of options the player refuses
        raise ValueError(f"player spec {spec!r}: {exc}") from None


def player_files(spec: str, game: Game) -> tuple[Path, ...]:
    """The files a player of `spec` (a preset too) reads in `game`: the network or learned weights its moves depend
    on, or the data file of the heuristic style it plays or rolls out by (a tuned style's, Game.style_files), as the
    player records them while it loads them (SeededPlayer.files_read, borabora_sim.players.models,
    players.heuristic.load_style_for). Empty for random players, heuristics of a style written in code and searches
    without a network whose rollouts are random or play a style written in code. A spec that is no player is a
    ValueError, as for make_player."""
    return make_player(spec, 0, game).files_read()


def files_named(specs: Sequence[str], game: Game) -> list[str]:
    """Every file the players of `specs` read in `game`, each once, sorted: what a refusal names."""
    return sorted({str(path) for spec in dict.fromkeys(specs) for path in player_files(spec, game)})


def player_files_fingerprint(specs: Sequence[str], game: Game) -> str:
    """A short hash of the contents of the files the players of `specs` read in `game` (files_fingerprint): it
    changes when such a file does, and is "" when none of them reads a file."""
    return files_fingerprint([player_files(spec, game) for spec in specs])


def parse_options(cls: type[SeededPlayer], options: Mapping[str, str], game: Game) -> dict[str, Any]:
    """The values of a spec's options for a player of type `cls` in `game`, or a ValueError saying what is
    allowed."""
    params = cls.params(game)
    kwargs = {}
    for key, text in options.items():
        param = params.get(key)
        if param is None:
            allowed = ", ".join(params) or "none"
            raise ValueError(f"player {cls.name!r} has no option {key!r}; options: {allowed}")
        try:
            kwargs[key] = param.parse(text)
        except ValueError as exc:
            raise ValueError(f"option {key}: {exc}") from None
    return kwargs


__all__ = [
    "PLAYER_TYPES",
    "PRESETS",
    "STYLES",
    "WEIGHT_NAMES",
    "ExpertPlayer",
    "FlatMCPlayer",
    "HeuristicPlayer",
    "LearnedPlayer",
    "MCTSPlayer",
    "Player",
    "RandomPlayer",
    "files_fingerprint",
    "files_named",
    "make_player",
    "player_files",
    "player_files_fingerprint",
    "resolve_preset",
    "split_spec",
    "weights_for",
]
