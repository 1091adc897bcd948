"""A game written in plain Python: the rules as a few methods over a position (a dict of plain values), and
everything else the shared layers need (borabora_sim.protocol.Game and GameState) derived from them. Such a game
plays with every player (the searches through borabora_sim.players.python_search), the simulator, questions,
replays and the adapters; compiling it (borabora_sim.games.compiled) is an optional second step for speed.

A game subclasses `PythonGame` and writes:

- `name`, `player_counts`, `action_names` (what programs read, one per action id) and `score_unit`;
- `start(players, chance)`: the position of a new game (`chance.below(n)` draws an int in [0, n));
- `to_move(position)`: the seat that decides now, -1 once the game is over;
- `legal(position)`: the legal action ids, in increasing order;
- `play(position, action, chance)`: applies a legal action to the position, in place;
- `scores(position)`: each seat's score; the ranks follow from it (a tie shares the place, and the win) unless
  `ranks(position)` says otherwise;
- in words: `describe_action`, `describe_decision`, `rules_hint` (defaults read the action names);
- optionally `hide(position, player, chance)` (resample what `player` cannot see; nothing by default),
  `check(position)` (the laws of a loaded position: a reason it breaks one, or None), and a heuristic:
  `weight_names`, `styles` and `value(position, action, weights)`, the worth of an action to its mover.

>>> from borabora_sim.games import get_game
>>> nim = get_game("nim")
>>> state = nim.new_initial_state(players=2, seed=1)
>>> state.legal_actions(), nim.describe_action(state, 2)
([0, 1, 2], 'Take 3 stones')
"""

from __future__ import annotations

import copy
import hashlib
import json
import operator
import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from borabora_sim.errors import ArgumentTypeError, IllegalActionError, StateFormatError, check_int, check_players
from borabora_sim.protocol import ActionKind, check_seed

MASK64 = 2**64 - 1
GOLDEN = 0x9E3779B97F4A7C15
FORMAT_VERSION = 1
SAVED_KEYS = ("format", "version", "players", "moves", "chance", "state")     # to_dict's keys


def splitmix(z: int) -> int:
    """splitmix64's finaliser: a well-spread 64-bit number from any 64-bit number (as the compiled games mix)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def mix_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run with master `seed`, as the compiled games derive it."""
    return splitmix((seed + (index + 1) * GOLDEN) & MASK64)


def _one_integer(action: object, within: str, then: str) -> int:
    """`action` as an int, as the compiled games take one: a bool, a float or a str is an IllegalActionError, an
    array of one element an ArgumentTypeError; `within` follows "an int" in the message, `then` ends it."""
    if isinstance(action, bool) or not hasattr(type(action), "__index__"):
        raise IllegalActionError(f"action must be an int{within}, got {action!r}{then}")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:                   # has __index__ but is not one integer (a numpy array of one element)
        raise ArgumentTypeError(f"an action is one integer{within}, got {type(action).__name__} {action!r}"
                                f"{then}") from None


class Chance:
    """The game's dice and shuffles: a splitmix64 stream whose whole state is one int (kept in the saved state)."""

    def __init__(self, state: int) -> None:
        self.state = state

    def below(self, n: int) -> int:
        """An int in [0, n)."""
        self.state = (self.state + GOLDEN) & MASK64
        return ((splitmix(self.state) >> 32) * n) >> 32

    def shuffle(self, items: list[Any]) -> None:
        """Shuffles `items` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class PythonState:
    """A game of a PythonGame in progress (borabora_sim.protocol.GameState): its position and its chance."""

    def __init__(self, game: PythonGame, players: int, position: dict[str, Any], chance: int, moves: int = 0):
        self.game = game
        self._players = players
        self.position = position
        self.chance = chance
        self.move_count = moves

    # ---- where the game is ----------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._players

    @property
    def current_player(self) -> int:
        return self.game.to_move(self.position)

    @property
    def round(self) -> int:
        return int(self.position.get("round", 1))

    @property
    def phase(self) -> str:
        return "end" if self.is_terminal() else self.game.phase_of(self.position)

    @property
    def decision(self) -> str | None:
        return None if self.is_terminal() else self.game.decision_of(self.position)

    def is_terminal(self) -> bool:
        return self.current_player < 0

    # ---- moves ----------------------------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else list(self.game.legal(self.position))

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    def apply(self, action: object) -> None:
        """Applies a legal action; an illegal one raises IllegalActionError and changes nothing."""
        legal = self.legal_actions()
        number = _one_integer(action, "", f"; {self._legal_text(legal)}")
        if not 0 <= number < self.game.num_actions:
            raise IllegalActionError(f"action {number} is outside [0, {self.game.num_actions}); "
                                     f"{self._legal_text(legal)}")
        if number not in legal:
            if not legal:
                raise IllegalActionError(f"the game is over: no action is legal (got {number})")
            raise IllegalActionError(f"action {number} ({self.game.action_names[number]}) is not legal for player "
                                     f"{self.current_player} at decision '{self.decision}'; {self._legal_text(legal)}")
        chance = Chance(self.chance)
        self.game.play(self.position, number, chance)
        self.chance = chance.state
        self.move_count += 1

    def _legal_text(self, legal: Sequence[int]) -> str:
        if not legal:
            return "the game is over: no action is legal"
        return "legal: " + ", ".join(f"{a} ({self.game.action_names[a]})" for a in legal)

    def action_to_string(self, action: object) -> str:
        count = self.game.num_actions
        number = _one_integer(action, f" in [0, {count})", "")
        if not 0 <= number < count:
            raise IllegalActionError(f"action must be in [0, {count}), got {number}")
        return self.game.action_name(number)

    def action_from_string(self, text: str) -> int:
        if not isinstance(text, str):
            raise ArgumentTypeError(f"an action name must be a str, got {type(text).__name__}")
        try:
            return self.game.action_names.index(text.strip())
        except ValueError:
            legal = ", ".join(repr(self.game.action_names[a]) for a in self.legal_actions())
            raise IllegalActionError(f"unknown action name {text!r}; legal now: {legal}") from None

    def clone(self) -> PythonState:
        return type(self)(self.game, self._players, copy.deepcopy(self.position), self.chance, self.move_count)

    __copy__ = clone

    def __deepcopy__(self, memo: object) -> PythonState:
        return self.clone()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PythonState) and other.to_dict() == self.to_dict()

    __hash__ = None     # type: ignore[assignment]   # mutable, compared by value

    def __reduce__(self) -> tuple[Any, ...]:
        return self.game.state_from_dict, (self.to_dict(),)

    # ---- the end --------------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [int(score) for score in self.game.scores(self.position)]

    def score_breakdown(self) -> list[dict[str, int]]:
        return [{self.game.sources[0]: score} for score in self.scores()]

    def counters(self) -> list[dict[str, int]]:
        first = self.position.get("first_seat", 0)
        return [{**self.game.count(self.position, seat), "start_position": (seat - first) % self._players}
                for seat in range(self._players)]

    def ranks(self) -> list[int]:
        return list(self.game.ranks(self.position))

    def winners(self) -> list[int]:
        """The seats sharing the victory once the game is over (empty before)."""
        return [seat for seat, rank in enumerate(self.ranks()) if rank == 1] if self.is_terminal() else []

    def winner(self) -> int | None:
        return self.winners()[0] if self.is_terminal() else None

    def returns(self) -> list[float]:
        """Each seat's share of the win: 1 for a sole winner, split among seats sharing it; 0 before the end."""
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self._players)]

    # ---- what a seat sees -----------------------------------------------------------------------------------
    def determinize(self, player: int, seed: int) -> PythonState:
        """A copy in which everything `player` cannot see is drawn again and future chance is seeded by `seed`."""
        player = check_int(player, "player", 0, self._players - 1)
        twin = self.clone()
        chance = Chance(check_seed(seed))
        self.game.hide(twin.position, player, chance)
        twin.chance = chance.state
        return twin

    def observation(self, player: int | None) -> dict[str, Any]:
        """The position as seat `player` (None: an onlooker) sees it: a determinization's for another viewer
        would differ only in what the game hides."""
        if player is not None:
            player = check_int(player, "player", 0, self._players - 1)
        return {**self.game.observe(self.position, player), "viewer": player}

    # ---- the saved form -------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"format": self.game.format, "version": FORMAT_VERSION, "players": self._players,
                "moves": self.move_count, "chance": f"{self.chance:016x}", "state": copy.deepcopy(self.position)}

    def __repr__(self) -> str:
        return f"<{self.game.name} state, move {self.move_count}, {self.game.describe_phase(self)}>"


class PythonGame:
    """The game object of a game written in Python (see the module docstring for what a game writes)."""

    name: ClassVar[str]
    action_names: ClassVar[tuple[str, ...]]
    player_counts: tuple[int, ...] = (2,)
    score_unit: str = "PTS"
    sources: tuple[str, ...] = ("play",)
    source_words: ClassVar[Mapping[str, str]] = MappingProxyType({"play": "points of play"})
    default_player_count: ClassVar[int] = 2
    options: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    default_players: tuple[str, ...] = ("random", "random")
    weight_names: tuple[str, ...] = ()
    styles: Mapping[str, Mapping[str, float]] = MappingProxyType({})
    default_style: str = ""
    style_files: Mapping[str, Path] = MappingProxyType({})
    action_kinds: Mapping[str, ActionKind] = MappingProxyType({})
    search_defaults: Mapping[str, object] = MappingProxyType({})
    presets: Mapping[str, str] = MappingProxyType({})
    end_action: int | None = None
    counters: tuple[str, ...] = ("start_position",)
    decisions: tuple[str, ...] = ("move",)         # every value decision_of gives
    phases: tuple[str, ...] = ("play", "end")      # every value phase_of gives, and "end"
    state_type: ClassVar[type[PythonState]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Each game its own state class, so that borabora_sim.games.game_of tells the games' states apart.
        cls.state_type = type(f"{cls.__name__}State", (PythonState,), {"__module__": cls.__module__})

    def __init__(self, components: object = None) -> None:
        if components is not None:
            raise ValueError(f"{self.name} has no component data to replace (got {components!r})")

    # ---- what the game writes -------------------------------------------------------------------------------
    def start(self, players: int, chance: Chance) -> dict[str, Any]:
        raise NotImplementedError

    def to_move(self, position: Mapping[str, Any]) -> int:
        raise NotImplementedError

    def legal(self, position: Mapping[str, Any]) -> Sequence[int]:
        raise NotImplementedError

    def play(self, position: dict[str, Any], action: int, chance: Chance) -> None:
        raise NotImplementedError

    def scores(self, position: Mapping[str, Any]) -> Sequence[int]:
        raise NotImplementedError

    def ranks(self, position: Mapping[str, Any]) -> list[int]:
        """1-based places by score, seats with the same score sharing one."""
        scores = list(self.scores(position))
        return [1 + sum(other > score for other in scores) for score in scores]

    def hide(self, position: dict[str, Any], player: int, chance: Chance) -> None:
        """Draws again, in place, what `player` cannot see (nothing: a game of open information)."""

    def observe(self, position: Mapping[str, Any], player: int | None) -> dict[str, Any]:
        """What seat `player` sees of the position (all of it: a game of open information)."""
        return copy.deepcopy(dict(position))

    def count(self, position: Mapping[str, Any], seat: int) -> dict[str, int]:
        """The seat's behaviour counters (`counters` but start_position, which follows from `first_seat`)."""
        return {}

    def check(self, position: Mapping[str, Any], players: int) -> str | None:
        """Why a loaded position of a game of `players` breaks a law of the game, or None when it keeps them all."""
        return None

    def value(self, position: Mapping[str, Any], action: int, weights: np.ndarray) -> float:
        """The heuristic's worth of `action` to the seat to move, by the weights `weight_names` name."""
        raise NotImplementedError(f"{self.name} has no heuristic")

    def phase_of(self, position: Mapping[str, Any]) -> str:
        return "play"

    def decision_of(self, position: Mapping[str, Any]) -> str:
        return "move"

    # ---- words (defaults a game may replace) ----------------------------------------------------------------
    def describe_action(self, state: Any, action: int) -> str:
        return self.action_name(action).capitalize()

    def describe_actions(self, state: Any, actions: Sequence[int]) -> list[str]:
        return [self.describe_action(state, action) for action in actions]

    def describe_decision(self, state: Any) -> str:
        return "Choose your move"

    def describe_phase(self, state: Any) -> str:
        return "Game over" if state.is_terminal() else f"Move {state.move_count + 1}"

    def rules_hint(self, decision: str) -> str:
        return "Choose one of the legal moves."

    def describe_source(self, source: str) -> str:
        return self.source_words[source]

    def render(self, state: Any, viewer: int | None) -> str:
        """The game in text for the terminal: where it is, the decision and the scores."""
        lines = [self.describe_phase(state)]
        if not state.is_terminal():
            lines.append(f"Seat {state.current_player} to move: {self.describe_decision(state)}")
        lines.append("Scores: " + ", ".join(f"seat {seat} {score}" for seat, score in enumerate(state.scores())))
        return "\n".join(lines)

    # ---- the protocol, derived ------------------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return len(self.action_names)

    @property
    def format(self) -> str:
        return f"borabora_sim.{self.name}.state"

    @property
    def fingerprint(self) -> str:
        """A hash of the rules' data (a Python game has none but its actions and sizes)."""
        text = json.dumps([self.name, list(self.action_names), list(self.player_counts)])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def action_name(self, action: int) -> str:
        return self.action_names[action]

    def new_initial_state(self, players: int | None = None, seed: int | None = None) -> PythonState:
        players = check_players(self.default_player_count if players is None else players, self.player_counts)
        chance = Chance(check_seed(seed))
        position = self.start(players, chance)
        return self.state_type(self, players, position, chance.state)

    def for_state(self, state: Any) -> PythonGame:
        return self

    def state_from_dict(self, data: Mapping[str, Any]) -> PythonState:
        """The state `to_dict` saved; a field of the wrong type or outside the game's laws is a StateFormatError."""
        if not isinstance(data, Mapping):
            raise StateFormatError(f"a saved state must be a dict, got {type(data).__name__}")
        unknown = sorted(map(repr, set(data) - set(SAVED_KEYS)))
        missing = [repr(key) for key in SAVED_KEYS if key not in data]
        if unknown or missing:
            wrong = "; ".join(f"{what} field(s) {', '.join(keys)}"
                              for what, keys in (("unknown", unknown), ("missing", missing)) if keys)
            raise StateFormatError(f"{wrong}; a saved state has {', '.join(SAVED_KEYS)}")
        for key, want in (("format", self.format), ("version", FORMAT_VERSION)):
            if data[key] != want or isinstance(data[key], bool):
                raise StateFormatError(f"field '{key}' is {data[key]!r}; expected {want!r}")
        try:
            players = check_players(data["players"], self.player_counts)
            moves = check_int(data["moves"], "moves", 0, 2**31 - 1)
        except ValueError as error:     # ArgumentTypeError too: the message names the field and what it allows
            raise StateFormatError(f"field {error}") from None
        text = data["chance"]
        if not (isinstance(text, str) and re.fullmatch("[0-9a-fA-F]{16}", text)):
            raise StateFormatError(f"field 'chance' must be 16 hex digits, got {text!r}")
        chance = int(text, 16)
        if not isinstance(data["state"], Mapping):
            raise StateFormatError("field 'state' must be an object")
        position = copy.deepcopy(dict(data["state"]))
        problem = self.check(position, players)
        if problem is not None:
            raise StateFormatError(problem)
        return self.state_type(self, players, position, chance, moves)

    def derive_seed(self, seed: int, index: int) -> int:
        return mix_seed(check_seed(seed), check_int(index, "index", 0, MASK64))

    def random_game_actions(self, players: int, game_seed: int) -> list[int]:
        """The moves of the uniformly random game with seed `game_seed` (as random_playouts plays it)."""
        state = self.new_initial_state(players, game_seed)
        pick = random.Random(game_seed)
        actions = []
        while not state.is_terminal():
            legal = state.legal_actions()
            actions.append(legal[pick.randrange(len(legal))])
            state.apply(actions[-1])
        return actions

    def random_playouts(self, games: int, players: int, seed: int, first_game: int = 0) -> dict[str, np.ndarray]:
        """Uniformly random games, game i from derive_seed(seed, first_game + i), in the compiled games' arrays."""
        out: dict[str, list[Any]] = {key: [] for key in ("scores", "ranks", "breakdown", "counters", "winner",
                                                         "decisions", "moves")}
        games = check_int(games, "games", 0, 2**31 - 1)
        players = check_players(players, self.player_counts)
        seed = check_seed(seed)
        first_game = check_int(first_game, "first_game", 0, MASK64 - games)
        for index in range(first_game, first_game + games):
            game_seed = self.derive_seed(seed, index)
            state = self.new_initial_state(players, game_seed)
            for action in self.random_game_actions(players, game_seed):
                state.apply(action)
            out["scores"].append(state.scores())
            out["ranks"].append(state.ranks())
            out["breakdown"].append([[row[source] for source in self.sources] for row in state.score_breakdown()])
            out["counters"].append([[row[name] for name in self.counters] for row in state.counters()])
            out["winner"].append(state.winner())
            out["decisions"].append(state.move_count)
            out["moves"].append(state.move_count)
        shapes = {"scores": (0, players), "ranks": (0, players), "breakdown": (0, players, len(self.sources)),
                  "counters": (0, players, len(self.counters))}
        return {key: np.asarray(values, dtype=np.int64) if values else np.zeros(shapes.get(key, (0,)), np.int64)
                for key, values in out.items()}

    def heuristic_option_values(self, state: Any, weights: np.ndarray, seed: int,
                                thorough: bool = True) -> list[tuple[int, float]]:
        """Every legal action with the heuristic's worth of it to the mover (`value`)."""
        return [(action, float(self.value(state.position, action, weights))) for action in state.legal_actions()]

    def heuristic_action(self, state: Any, weights: np.ndarray, seed: int, thorough: bool = True) -> int:
        """The action of the best worth, a tie broken at random by `seed`."""
        values = self.heuristic_option_values(state, weights, seed, thorough)
        best = max(value for _, value in values)
        tied = [action for action, value in values if value == best]
        return tied[random.Random(seed).randrange(len(tied))]


__all__ = ["Chance", "PythonGame", "PythonState", "mix_seed"]
