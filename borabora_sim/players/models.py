"""The models players play by that are read from files: a game's policy-and-value network (borabora_sim.network)
and a game's learned evaluation, which a game that has one gives (LearnedEvaluation: Bora Bora's,
borabora_sim.learned).

A player loads such a model only through the functions here, given itself: each records the file on the player
(`SeededPlayer.record_file`) as it loads the model, so that `files_read` names every file a player's moves depend
on and a run can record their contents (borabora_sim.players.files_fingerprint). A player that loaded a model
some other way would play by a file its runs do not record: a changed network would then be mixed into the games
it had already played. The weights of a heuristic style read from a data file (a tuned style, Game.style_files)
are obtained the same way by every player that plays by one (a heuristic, a search's heuristic rollouts or
cut-offs, the learned player's finish of its turn), through borabora_sim.players.heuristic.load_style_for.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from borabora_sim import _search
from borabora_sim.files import check_regular, sha256
from borabora_sim.games import game_names, get_game
from borabora_sim.network import network_model, network_path
from borabora_sim.players.base import SeededPlayer
from borabora_sim.protocol import Game


def network_file(game: Game, path: str | None = None) -> Path:
    """The network file a player of `game` reads: `path`, or the game's shipped network."""
    return network_path(game) if path is None else Path(path)


@runtime_checkable
class LearnedEvaluation(Protocol):
    """What a game with a learned evaluation adds to the game object: the file of its weights a player reads and the
    compiled model (for `path` None: the shipped weights)."""

    def learned_file(self, path: str | None = None) -> Path: ...

    def learned_model(self, path: str | None = None) -> _search.Model: ...


def load_network_for(player: SeededPlayer, game: Game, path: str | None = None) -> _search.Model:
    """The compiled network of `game` (its shipped one, or the one in the file `path`) for `player`, the file
    recorded on it."""
    model = network_model(game, path)
    player.record_file(network_file(game, path))
    return model


def load_learned_for(player: SeededPlayer, game: Game, path: str | None = None) -> _search.Model:
    """The compiled learned evaluation of `game` (the shipped weights, or those in the file `path`) for `player`,
    the file recorded on it; a ValueError for a game without one."""
    if not isinstance(game, LearnedEvaluation):
        having = [name for name in game_names() if isinstance(get_game(name), LearnedEvaluation)]
        raise ValueError(f"the learned evaluation exists for {', '.join(having)} only, not for {game.name}")
    model = game.learned_model(path)
    player.record_file(game.learned_file(path))
    return model


def file_digest(path: Path) -> str:
    """The sha256 of the bytes of the file `path`, or a ValueError naming the file (a FIFO or a device is refused
    before it is opened)."""
    try:
        check_regular(path, "a file a player reads", "give the player a regular file")
        return sha256(path)
    except OSError as exc:
        raise ValueError(f"the file {path}, which a player reads, cannot be read: {exc.strerror or exc}") from None


def files_fingerprint(files: Sequence[Sequence[Path]]) -> str:
    """A short hash of the contents of the files each player reads (one list per player, seat by seat, as
    `files_read` gives it): "" when no player reads a file, so that a run or question of such players keeps the
    fingerprint it had before files were recorded. Only the contents count, not where the files are."""
    digests: dict[Path, str] = {}
    for path in {path for read in files for path in read}:
        digests[path] = file_digest(path)
    contents = [[digests[path] for path in read] for read in files]
    if not any(contents):
        return ""
    return hashlib.sha256(json.dumps(contents).encode()).hexdigest()[:16]


__all__ = ["LearnedEvaluation", "file_digest", "files_fingerprint", "load_learned_for", "load_network_for",
           "network_file"]
