"""The game a browser plays (`borabora play --web`): one game between human and AI seats, changed only by
checked requests, with the HTTP layer kept apart (viewer/server.py) so that it can be tested and reused alone.

Every change (a move, an AI step, an undo, a load) raises `version`; a changing request names the version it was
made at, so a request from a page that shows an older position is refused instead of applied to a game its user
has not seen. Refused requests raise `RequestError` (an HTTP status and a one-line message) before anything
changes.

Undo replays: the game keeps the state it started from (a new game, or the start of a loaded file: its position
for a file of version 1) and every action since, and rebuilds a position by applying the actions again. An AI
seat is seeded afresh for each of its decisions from the game seed, the seat and the number of decisions since
the start, so that the same position always gets the same AI move, however often it is reached by undo.

Advice is computed away from the game: `advice_task` checks the request and copies what the advisor needs into an
`AdviceTask` (which pickles, so that the server can compute it in a process of its own and stop it), and `advise`
computes it. An advisor, and an AI seat of a game the page starts or loads, may ask for at most ADVICE_CAPS of each
budget and search on no more threads than the machine has cores (`check_caps`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from borabora_sim.games import game_spec, get_game
from borabora_sim.kits.click_targets import Target
from borabora_sim.players import make_player
from borabora_sim.players.base import SeededPlayer
from borabora_sim.players.presets import presets_of
from borabora_sim.players.reasons import Reasons
from borabora_sim.protocol import Game, GameState, check_seed
from borabora_sim.viewer import to_svg
from borabora_sim.viewer.registry import renderer_for
from borabora_sim.viewer.web_targets import click_targets

HUMAN = "human"
SAVE_FORMAT = "borabora_sim web game"
SAVE_VERSION = 2                # 2: with the start and the moves since (1, a position alone, still loads)
SAVE_FIELDS = frozenset({"format", "format_version", "game", "seed", "players", "state"})
HISTORY_FIELDS = frozenset({"start", "moves"})
MOVE_FIELDS = frozenset({"seat", "action", "explanation", "reasons", "targets"})
REASONS_FIELDS = frozenset({"headline", "why", "columns", "rows", "weighed", "legend"})
ROW_FIELDS = frozenset({"action", "words", "cells", "chosen"})
DEFAULT_ADVISOR = "strong"      # the preset: the game's strongest search at about 0.1 s a move
# The most search time an advisor may be given, and the most of each budget of a player spec (MCTS's seconds and
# iterations, flat Monte Carlo's rollouts, the learned player's samples): an advice asking for more is refused. A
# preset of the game named alone (strong, best) is always allowed: each is measured to answer within about a second
# in its game (benchmarks/bench_presets.py), whatever its iterations.
ADVICE_SECONDS = 10.0
ADVICE_CAPS: dict[str, float] = {"seconds": ADVICE_SECONDS, "iterations": 100_000, "rollouts": 1_000,
                                 "samples": 1_000}


class RequestError(Exception):
    """A refused request: `status` is the HTTP status (4xx; 503 for an advice the server stopped), the message says
    what was wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def check_caps(spec: str, player: SeededPlayer, game: Game, use: str) -> None:
    """Refuses (400) the `player` of `spec` for `use` ("an advice", "an AI seat"), which the page asks for, if it
    asks for more than ADVICE_CAPS of a budget or searches on more threads than the machine has cores. A preset of
    `game` named alone is always allowed."""
    if spec in presets_of(game):
        return
    over = [f"{budget}={_number(value)}" for budget, cap in ADVICE_CAPS.items()
            if (value := getattr(player, budget, 0)) > cap]
    if over:
        caps = ", ".join(f"{budget} <= {_number(cap)}" for budget, cap in ADVICE_CAPS.items())
        raise RequestError(400, f"{spec} asks for {', '.join(over)}: more than {use} may take; the caps are {caps}")
    cores = os.cpu_count() or 1
    if (threads := getattr(player, "threads", 1)) > cores:
        raise RequestError(400, f"{spec} asks for threads={threads}: this machine has {cores} core(s), so {use} "
                                f"may search on {cores} thread(s) at most")


@dataclass(frozen=True)
class AdviceTask:
    """An advice to compute away from the game: the game by its spec, a copy of the position, the advisor's player
    spec and seed, and the version of the position."""

    game: str
    state: GameState
    player: str
    seed: int
    version: int


ADVICE_OPTIONS = 8              # the options an advice and an AI move's reasons show


def reasons_view(reasons: Reasons | None) -> dict[str, Any] | None:
    """A player's reasons as the page shows them: the headline, the rule, the column headings, the options (best
    first: the action, its words, its values as shown and whether it is the one chosen), how many options were
    weighed and the legend; None for a move with no options weighed."""
    if reasons is None:
        return None
    return {"headline": reasons.headline(), "why": reasons.why, "columns": [c.heading for c in reasons.columns],
            "rows": [{"action": option.action, "words": option.words, "cells": cells, "chosen": k == reasons.chosen}
                     for k, (option, cells) in enumerate(zip(reasons.options, reasons.cells(), strict=True))],
            "weighed": reasons.weighed, "legend": reasons.legend}


def advise(task: AdviceTask) -> dict[str, Any]:
    """What the advisor of `task` would do, and why: the answer of GET /api/advice (the advisor in words, the move in
    the game's words, the advisor's `explain()` and its reasons as a table, `reasons_view`)."""
    game = get_game(task.game)
    advisor = make_player(task.player, None, game)
    advisor.reset(task.seed)
    action = advisor.choose(task.state.clone())
    return {"version": task.version, "player": task.player, "player_words": advisor.in_words(), "action": action,
            "name": task.state.action_to_string(action), "words": game.describe_action(task.state, action),
            "explanation": advisor.explain(ADVICE_OPTIONS), "reasons": reasons_view(advisor.reasons(ADVICE_OPTIONS))}


@dataclass(frozen=True)
class Move:
    """A decision taken: by which seat, the action, its name and its words, and for an AI seat its own explanation,
    its reasons (reasons_view) and the things of the picture that pick the move (as a click would)."""

    seat: int
    action: int
    name: str
    explanation: str | None        # None: a human's move
    words: str = ""
    reasons: dict[str, Any] | None = None
    targets: tuple[Target, ...] = ()


@dataclass(frozen=True)
class StepTask:
    """An AI seat's decision to take away from the game, so that the game is not held while it thinks: the seat,
    its player, a copy of the position, the decision's seed and the version of the position."""

    seat: int
    player: SeededPlayer
    state: GameState
    seed: int
    version: int


def think(game: Game, task: StepTask) -> Move:
    """The move the AI seat of `task` takes, with its explanation, reasons and click targets."""
    player, state = task.player, task.state
    player.reset(task.seed)
    action = player.choose(state.clone())
    targets = click_targets(game.name, state, [action]).get(action, [])
    return Move(task.seat, action, state.action_to_string(action), player.explain(ADVICE_OPTIONS),
                game.describe_action(state, action), reasons_view(player.reasons(ADVICE_OPTIONS)), tuple(targets))


class WebGame:
    """One game between the seats `players` (player specs, "human" for a person) from `start`, a state of
    `game`; `seed` seeds the AI seats."""

    def __init__(self, game: Game, players: Sequence[str], seed: int, start: GameState | None = None) -> None:
        renderer_for(game.name)                    # a game without a picture is refused before anything else
        self.game = game
        self.seed = check_seed(seed)
        self.players = tuple(players)
        self.start = game.new_initial_state(players=len(self.players), seed=self.seed) if start is None else start
        if self.start.num_players != len(self.players):
            raise ValueError(f"the position has {self.start.num_players} seats but {len(self.players)} player "
                             f"specs were given")
        self.ai: dict[int, SeededPlayer] = {seat: make_player(spec, None, game)
                                            for seat, spec in enumerate(self.players) if spec != HUMAN}
        self.humans = tuple(seat for seat, spec in enumerate(self.players) if spec == HUMAN)
        self.moves: list[Move] = []
        self.state = self.start.clone()
        self.version = 0

    # ----------------------------------------------------------------------------------------------------------
    # What the page shows
    # ----------------------------------------------------------------------------------------------------------
    @property
    def viewer(self) -> int | None:
        """The seat whose view is shown: the human seat to move, else the first human seat (None: no human, the
        public view)."""
        seat = self.state.current_player
        if seat in self.humans:
            return seat
        return self.humans[0] if self.humans else None

    def human_to_move(self) -> bool:
        return not self.state.is_terminal() and self.state.current_player in self.humans

    def view(self) -> dict[str, Any]:
        """The position as the page needs it (docs/web_play.md): the seats' players in words, the picture as `viewer`
        sees it, the legal moves
        only when a human is to move (an AI seat's would tell what it holds) in the game's words, the decision, its
        rules hint and the move that ends it, the moves so far, the scores."""
        state = self.state
        legal = state.legal_actions() if self.human_to_move() else []
        targets = click_targets(self.game.name, state, legal)
        words = self.game.describe_actions(state, legal)
        terminal = state.is_terminal()
        end = self.game.end_action
        return {
            "version": self.version,
            "game": game_spec(self.game),
            "seed": self.seed,
            "players": list(self.players),
            "seat_words": [self.ai[seat].in_words() if seat in self.ai else "a person"
                           for seat in range(len(self.players))],
            "viewer": self.viewer,
            "to_move": None if terminal else state.current_player,
            "human_to_move": self.human_to_move(),
            "round": state.round,
            "phase": state.phase,
            "decision": state.decision,
            "phase_words": self.game.describe_phase(state),
            "decision_words": None if terminal else self.game.describe_decision(state),
            "hint": None if terminal else self.game.rules_hint(str(state.decision)),
            "end": ({"action": end, "words": words[legal.index(end)]} if end is not None and end in legal
                    else None),
            "terminal": terminal,
            "scores": state.scores(),
            "unit": self.game.score_unit,
            "winner": state.winner() if terminal else None,
            "legal": [{"action": a, "name": state.action_to_string(a), "words": text, "targets": targets.get(a, [])}
                      for a, text in zip(legal, words, strict=True)],
            "moves": [{"seat": m.seat, "action": m.action, "name": m.name, "words": m.words,
                       "ai": m.explanation is not None} for m in self.moves],
            "can_undo": self._last_human_move() is not None,
            "svg": to_svg(state, self.viewer, self.game),
        }

    def explanation(self, index: int) -> dict[str, Any]:
        """The reasons an AI seat gave for move `index` (0: the first move since the start)."""
        if not 0 <= index < len(self.moves):
            raise RequestError(404, f"no move {index}: {len(self.moves)} move(s) since the start of this game")
        move = self.moves[index]
        if move.explanation is None:
            raise RequestError(404, f"move {index} was a human's ({move.words}): only an AI seat's has reasons")
        return {"move": index, "seat": move.seat, "name": move.name, "words": move.words,
                "explanation": move.explanation, "reasons": move.reasons, "targets": list(move.targets)}

    # ----------------------------------------------------------------------------------------------------------
    # Changes
    # ----------------------------------------------------------------------------------------------------------
    def check_version(self, version: object) -> None:
        if isinstance(version, bool) or not isinstance(version, int):
            raise RequestError(400, f"'version' must be the integer version of the position shown, got {version!r}")
        if version != self.version:
            raise RequestError(409, f"stale request: it was made at version {version}, the game is at version "
                                    f"{self.version}; reload the position")

    def _check_playing(self) -> None:
        if self.state.is_terminal():
            raise RequestError(409, "the game is over")

    def move(self, version: object, seat: object, action: object) -> None:
        """A human seat's decision."""
        self.check_version(version)
        self._check_playing()
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.humans:
            raise RequestError(403, f"'seat' must be a human seat ({', '.join(map(str, self.humans)) or 'none'}), "
                                    f"got {seat!r}")
        to_move = self.state.current_player
        if seat != to_move:
            raise RequestError(409, f"seat {seat} is not to move: seat {to_move} ({self.players[to_move]}) is")
        legal = self.state.legal_actions()
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            names = ", ".join(f"{a} ({text})" for a, text in zip(legal, self.game.describe_actions(self.state, legal),
                                                                  strict=True))
            raise RequestError(400, f"action {action!r} is not legal for seat {seat} now; legal: {names}")
        self._apply(Move(seat, action, self.state.action_to_string(action), None,
                         self.game.describe_action(self.state, action)))

    def step(self, version: object) -> None:
        """The AI seat to move takes its decision (the three steps of `step_task`, `think` and `finish_step` at
        once)."""
        task = self.step_task(version)
        self.finish_step(task, think(self.game, task))

    def step_task(self, version: object) -> StepTask:
        """The decision of the AI seat to move, to be taken by `think` away from the game (which is not changed)."""
        self.check_version(version)
        self._check_playing()
        seat = self.state.current_player
        if seat in self.humans:
            raise RequestError(409, f"seat {seat} is a human seat: it is the human's decision, not an AI's")
        return StepTask(seat, self.ai[seat], self.state.clone(), self._decision_seed(seat), self.version)

    def finish_step(self, task: StepTask, move: Move) -> None:
        """Plays `move`, thought for `task`, unless the game changed since the task was taken (409)."""
        if task.version != self.version:
            raise RequestError(409, f"the game changed while seat {task.seat} ({self.players[task.seat]}) was "
                                    f"thinking: it was at version {task.version}, it is at version {self.version}; "
                                    f"reload the position")
        self._apply(move)

    def undo(self, version: object) -> None:
        """Back to the position before the last human decision (and the AI moves after it)."""
        self.check_version(version)
        last = self._last_human_move()
        if last is None:
            raise RequestError(409, "there is no human decision to undo since the start of this game")
        self.moves = self.moves[:last]
        self.state = self.start.clone()
        for move in self.moves:
            self.state.apply(move.action)
        self.version += 1

    def advice_task(self, spec: object) -> AdviceTask:
        """What the player `spec` (default: the preset strong) needs to advise the human to move (`advise`); the game is
        not changed. A spec that is not an AI player, or asks for more than ADVICE_CAPS, is refused."""
        if not self.human_to_move():
            raise RequestError(409, "advice is for a human's decision, and no human is to move")
        spec = DEFAULT_ADVISOR if spec is None else spec
        if not isinstance(spec, str) or spec == HUMAN:
            raise RequestError(400, f"'player' must be an AI player spec such as strong, best or heuristic, "
                                    f"got {spec!r}")
        try:
            advisor = make_player(spec, None, self.game)
        except (ValueError, TypeError) as error:
            raise RequestError(400, str(error)) from None
        check_caps(spec, advisor, self.game, "an advice")
        return AdviceTask(game_spec(self.game), self.state.clone(), spec, self._decision_seed(len(self.players)),
                          self.version)

    def _decision_seed(self, stream: int) -> int:
        """The seed of an AI decision now: from the game seed, the seat (the advisor's stream is after the
        seats) and the number of decisions since the start."""
        from borabora_sim.simulate import player_seed

        return self.game.derive_seed(player_seed(self.seed, stream, self.game), len(self.moves))

    def _apply(self, move: Move) -> None:
        self.state.apply(move.action)
        self.moves.append(move)
        self.version += 1

    def _last_human_move(self) -> int | None:
        return next((i for i in range(len(self.moves) - 1, -1, -1) if self.moves[i].explanation is None), None)

    def new_game(self, version: object, players: object, seed: object) -> WebGame:
        """A new game of the same game between the seats `players` (player specs, "human" for a person; their
        number is the number of players) from `seed` (None: a random one), at the next version; a request that is
        stale or names bad seats or a bad seed is a RequestError and this game is kept."""
        self.check_version(version)
        if not isinstance(players, list) or not all(isinstance(spec, str) for spec in players):
            raise RequestError(400, f"'players' must be a list of player specs by seat (\"human\" for a person), "
                                    f"got {players!r}")
        if isinstance(seed, bool) or not (seed is None or isinstance(seed, int)):
            raise RequestError(400, f"'seed' must be an integer in [0, 2**64) or null (a random seed), got {seed!r}")
        try:
            started = WebGame(self.game, players, check_seed(seed))
        except (ValueError, TypeError) as error:
            raise RequestError(400, f"the new game was refused: {error}") from None
        started.check_seat_caps()
        started.version = self.version + 1
        return started

    def check_seat_caps(self) -> None:
        """Refuses (400) an AI seat that asks for more than one may take (check_caps): the page gives the seats of
        a new game and of a loaded file, and a seat thinks while holding the server's one place for thinking."""
        for seat, player in self.ai.items():
            check_caps(self.players[seat], player, self.game, "an AI seat")

    # ----------------------------------------------------------------------------------------------------------
    # Saved positions
    # ----------------------------------------------------------------------------------------------------------
    def save(self) -> dict[str, Any]:
        """The position as a file: the game spec, the seed, the seat specs and the whole state (`to_dict`, hidden
        cards included, as the engine saves it), and its history: the state the game started from and every move
        since, with the AI seats' reasons, so that a loaded file shows the moves and can undo them."""
        return {"format": SAVE_FORMAT, "format_version": SAVE_VERSION, "game": game_spec(self.game),
                "seed": self.seed, "players": list(self.players), "state": self.state.to_dict(),
                "start": self.start.to_dict(),
                "moves": [{"seat": m.seat, "action": m.action, "explanation": m.explanation, "reasons": m.reasons,
                           "targets": [list(target) for target in m.targets]} for m in self.moves]}

    @classmethod
    def from_save(cls, data: object, version: int) -> WebGame:
        """The game of a saved file, at `version`; a file that is not one, or whose state the engine refuses, is a
        RequestError (400) naming what is wrong."""
        if not isinstance(data, Mapping):
            raise RequestError(400, f"a saved game is a JSON object, got {type(data).__name__}")
        if "format" in data and "format_version" in data and (
                data["format"] != SAVE_FORMAT or type(data["format_version"]) is not int
                or data["format_version"] not in (1, SAVE_VERSION)):
            raise RequestError(400, f"not a saved game of this version: format {data['format']!r} version "
                                    f"{data['format_version']!r}, expected {SAVE_FORMAT!r} version 1 or "
                                    f"{SAVE_VERSION}")
        expected = SAVE_FIELDS | (HISTORY_FIELDS if data.get("format_version") == SAVE_VERSION else frozenset())
        if set(data) != expected:
            missing, unknown = sorted(expected - set(data)), sorted(set(data) - expected)
            raise RequestError(400, "not a saved game: " + "; ".join(
                part for part in (f"missing {', '.join(missing)}" if missing else "",
                                  f"unknown {', '.join(unknown)}" if unknown else "") if part))
        players, seed = data["players"], data["seed"]
        if not isinstance(players, list) or not all(isinstance(spec, str) for spec in players):
            raise RequestError(400, f"'players' must be a list of player specs, got {players!r}")
        if seed is None:                # the AI seats' seed: a file without one would not replay the same
            raise RequestError(400, "'seed' must be the game's seed, an integer in [0, 2**64), got null")
        try:
            game = get_game(data["game"])
            state = game.state_from_dict(data["state"])
            history = "start" in data
            loaded = cls(game, players, seed, game.state_from_dict(data["start"]) if history else state)
        except (ValueError, TypeError, KeyError) as error:
            raise RequestError(400, f"the saved game was refused: {error}") from None
        loaded.check_seat_caps()
        if history:
            loaded._replay(data["moves"])
            if loaded.state.to_dict() != state.to_dict():
                raise RequestError(400, "the saved game was refused: its moves do not lead from its start to its "
                                        "state")
        loaded.version = version
        return loaded

    def _replay(self, moves: object) -> None:
        """Plays the moves of a saved file again from the start, each checked: legal for the seat to move, with an
        AI seat's explanation and reasons as the page shows them (words are said anew in the game's words)."""
        if not isinstance(moves, list):
            raise RequestError(400, f"'moves' must be the list of the moves since 'start', got {type(moves).__name__}")
        for index, move in enumerate(moves):
            where = f"the saved game was refused: move {index}"
            if not isinstance(move, Mapping) or set(move) != MOVE_FIELDS:
                raise RequestError(400, f"{where} must be an object of exactly {', '.join(sorted(MOVE_FIELDS))}")
            seat, action, explanation = move["seat"], move["action"], move["explanation"]
            state = self.state
            if (state.is_terminal() or seat != state.current_player or isinstance(action, bool)
                    or not isinstance(action, int) or action not in state.legal_actions()):
                raise RequestError(400, f"{where} (seat {seat!r}, action {action!r}) is not a legal move there")
            if not (explanation is None or isinstance(explanation, str)):
                raise RequestError(400, f"{where}: 'explanation' must be a string or null")
            if not _reasons_shape(move["reasons"]) or not _targets_shape(move["targets"]):
                raise RequestError(400, f"{where}: 'reasons' or 'targets' is not as a saved game keeps them")
            self._apply(Move(seat, action, state.action_to_string(action), explanation,
                             self.game.describe_action(state, action), move["reasons"],
                             tuple(list(target) for target in move["targets"])))


def _reasons_shape(value: object) -> bool:
    """Whether `value` is None or reasons as `reasons_view` gives them (the page shows what a file holds)."""
    if value is None:
        return True
    if not isinstance(value, Mapping) or set(value) != REASONS_FIELDS:
        return False
    rows = value["rows"]
    return (all(isinstance(value[key], str) for key in ("headline", "why", "legend"))
            and _strings(value["columns"]) and isinstance(value["weighed"], int) and isinstance(rows, list)
            and all(isinstance(row, Mapping) and set(row) == ROW_FIELDS and isinstance(row["action"], int)
                    and isinstance(row["words"], str) and _strings(row["cells"]) and isinstance(row["chosen"], bool)
                    for row in rows))


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _targets_shape(value: object) -> bool:
    """Whether `value` is a list of click targets, [attribute, value or None]."""
    return isinstance(value, list) and all(
        isinstance(target, list) and len(target) == 2 and isinstance(target[0], str)
        and (target[1] is None or isinstance(target[1], str)) for target in value)


__all__ = ["WebGame"]
