"""The game protocol that players, the simulator, the statistics and the command line use, independent of any
one game. A game plugs in by implementing `Game` (and states implementing `GameState`) and registering itself in
`borabora_sim.games`."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from borabora_sim.errors import check_int

if TYPE_CHECKING:
    from typing_extensions import CapsuleType


@runtime_checkable
class GameState(Protocol):
    """A sequential game with integer actions in [0, Game.num_actions).

    `winner()` is always a single seat once the game is over: the first by the game's own ranking and
    tie-breaks. Where a game lets players share a victory (Bamboo, B35), it is the lowest of the seats sharing
    it; those seats all have rank 1 in `ranks()`, the game's state names them in `winners()`, the compiled reward
    (`returns`) splits the win among them, and the simulator marks such games `tied_first`. Bora Bora always
    breaks ties down to one seat.
    """

    @property
    def current_player(self) -> int: ...          # -1 when terminal
    @property
    def num_players(self) -> int: ...
    @property
    def round(self) -> int: ...                   # headings of logs
    @property
    def phase(self) -> str: ...
    @property
    def decision(self) -> str | None: ...         # the name of the pending decision, None when terminal
    def legal_actions(self) -> list[int]: ...
    def legal_action_mask(self) -> np.ndarray: ...
    def apply(self, action: int) -> None: ...
    def clone(self) -> GameState: ...
    def is_terminal(self) -> bool: ...
    def scores(self) -> list[int]: ...
    def score_breakdown(self) -> list[dict[str, int]]: ...      # per seat: points by Game.sources
    def counters(self) -> list[dict[str, int]]: ...             # per seat: Game.counters
    def winner(self) -> int | None: ...           # None until the end; then one seat (see below)
    def ranks(self) -> list[int]: ...             # 1-based; seats sharing a victory share rank 1
    def determinize(self, player: int, seed: int) -> GameState: ...
    def action_to_string(self, action: int) -> str: ...
    def action_from_string(self, text: str) -> int: ...
    def to_dict(self) -> dict[str, Any]: ...


@runtime_checkable
class CompiledState(GameState, Protocol):
    """The state of a compiled game, which the compiled searches (borabora_sim._search) play on; a game written in
    Python (borabora_sim.games.python_game) has none, and its searches run in Python."""

    # the C game interface (cext/game_api.pxd): capsules of the game's functions, its rules and the state, and the
    # object that owns the memory they point into
    def search_handles(self) -> tuple[CapsuleType, CapsuleType, CapsuleType, object]: ...


@dataclass(frozen=True)
class ActionKind:
    """A kind of action that players can be told to avoid or to prefer: the option `<kind>=never|normal|prefer`
    of every player that weighs options. Search players filter (never) or favour (prefer) the actions for which
    `contains(action)` holds; the heuristic sets its weight `weight` (which values taking such actions) to the value
    `never` or `prefer`, and keeps the style's value for normal. A kind without a weight is not an option of the
    heuristic."""

    contains: Callable[[int], bool]
    weight: str | None = None
    never: float | None = None
    prefer: float | None = None

    def __post_init__(self) -> None:
        if (self.weight is None) != (self.never is None) or (self.weight is None) != (self.prefer is None):
            raise ValueError("an action kind gives its heuristic weight together with its never and prefer values")


@runtime_checkable
class Game(Protocol):
    """What the players, the simulator and the command line need from a game. `borabora_sim.games.get_game`
    returns one from a spec (its name and options, `--game`, the run manifest); game objects are immutable and
    compare equal when they play with the same data and options."""

    name: str                                   # the registered name
    options: Mapping[str, tuple[str, ...]]      # the game's options (`bamboo:mode=advanced`): each with its
    #                                             allowed values, the default first; the game object holds the
    #                                             value of each as the attribute of that name
    num_actions: int                            # actions are ints in [0, num_actions)
    player_counts: tuple[int, ...]              # the numbers of players the game allows
    score_unit: str                             # the score's unit, "VP" or "HP": the player rows' score column is
    #                                             its lower case (vp), the sources' columns <unit>_<source> (vp_fish)
    sources: tuple[str, ...]                    # score sources: keys of score_breakdown(), one column each
    decisions: tuple[str, ...]                  # every value of state.decision (the kinds of decision)
    phases: tuple[str, ...]                     # every value of state.phase
    counters: tuple[str, ...]                   # behaviour counters: keys of counters(), one column each; they
    #                                             include start_position (the seat's place in the first turn order)
    default_players: tuple[str, ...]            # player specs of a simulation when none are named
    fingerprint: str                            # a hash of the component data (a resumed run needs the same)
    weight_names: tuple[str, ...]               # the heuristic's weight vector, by name
    styles: Mapping[str, Mapping[str, float]]   # heuristic styles: a value for every weight name
    default_style: str                          # the style of a heuristic given none
    style_files: Mapping[str, Path]             # each style whose weights are read from a data file (a tuned
    #                                             style), with that file; a style written in code is not in it.
    #                                             A heuristic of such a style records the file (files_read)
    action_kinds: Mapping[str, ActionKind]      # named kinds of action players may avoid or prefer
    search_defaults: Mapping[str, object]       # options of the mcts player that its spec leaves out (c, rollout,
    #                                             rollout_depth, margin, temperature); the library's defaults fill
    #                                             the rest
    presets: Mapping[str, str]                  # short names of its strongest players for a person ("strong",
    #                                             "best"): each the player spec it stands for in this game
    #                                             (borabora_sim.players.presets)
    state_type: type[GameState]                 # the class of the game's states: borabora_sim.games.game_of finds
    #                                             a state's game by it
    end_action: int | None                      # the action that ends or declines the step pending ("done"; Pig's
    #                                             hold ends the turn): browser play gives it a button of its own

    def new_initial_state(self, players: int = ..., seed: int | None = ...) -> GameState:
        """A new game, set up and waiting on its first decision (seed None: drawn at random)."""
    def for_state(self, state: GameState) -> Game:
        """The game `state` (one of state_type) is played in: this game with the state's own component data and
        options."""
    def state_from_dict(self, data: Mapping[str, Any]) -> GameState:
        """The state `GameState.to_dict()` saved, refused when it is not safe to play on."""
    def action_name(self, action: int) -> str:
        """The name of an action id, as in action_to_string."""
    def derive_seed(self, seed: int, index: int) -> int:
        """The seed of game `index` of a run with master `seed` (also the players' seeds from a game seed)."""
    def random_playouts(self, games: int, players: int, seed: int, first_game: int = 0) -> dict[str, np.ndarray]:
        """Uniformly random games in compiled code, game i from derive_seed(seed, first_game + i): arrays
        `scores`, `ranks` (games x players), `breakdown` (x sources), `counters` (x counters), `winner`,
        `decisions` and `moves` (per game)."""
    def random_game_actions(self, players: int, game_seed: int) -> list[int]:
        """The actions of random_playouts' game with seed `game_seed` (to replay it)."""
    def heuristic_action(self, state: GameState, weights: np.ndarray, seed: int, thorough: bool = True) -> int:
        """The compiled heuristic policy's action for the player to move, judged on a determinization seeded by
        `seed`; `thorough` finishes the mover's own compound action before judging."""
    def heuristic_option_values(self, state: GameState, weights: np.ndarray, seed: int,
                                thorough: bool = True) -> list[tuple[int, float]]:
        """Every legal action with the value heuristic_action with the same seed gave it."""
    def render(self, state: GameState, viewer: int | None) -> str:
        """The game as `viewer` sees it (None: an onlooker, the public view), in text (the terminal game), in the
        game's words."""
    # The game's words: what a person reads (logs, replays, browser play, the terminal, explain()) names actions,
    # decisions, phases and score sources as the rulebook does, never by the engine's names (action_to_string,
    # state.decision, state.phase, Game.sources), which stay what programs read.
    def describe_actions(self, state: GameState, actions: Sequence[int]) -> list[str]:
        """Each of `actions` (legal in `state`, not terminal) in words, as the player to move reads it at the
        decision pending: "Place a 3 on the Temple action"."""
    def describe_action(self, state: GameState, action: int) -> str:
        """One action in words (describe_actions)."""
    def describe_decision(self, state: GameState) -> str:
        """The decision `state` waits on, in words addressed to its player ("Take a new task tile")."""
    def describe_phase(self, state: GameState) -> str:
        """Where the game is: "Round 2, phase A: dice and actions"; "Game over" at the end."""
    def rules_hint(self, decision: str) -> str:
        """One line of the rules on the decision kind `decision` (a value of `state.decision`)."""
    def describe_source(self, source: str) -> str:
        """A score source (one of `sources`) in words ("fish tiles at the end")."""


def search_handles(state: GameState) -> tuple[CapsuleType, CapsuleType, CapsuleType, object]:
    """The compiled interface of `state` (CompiledState.search_handles); the state of a game written in Python is
    refused in one line, since what asks for it (a network, the learned evaluation) needs a compiled game."""
    if not isinstance(state, CompiledState):
        raise ValueError(f"{type(state).__name__} is the state of a game written in Python: networks, the learned "
                         "evaluation and compiled search need a compiled game; use random, heuristic, mcts or flatmc")
    return state.search_handles()


def check_seed(seed: object) -> int:
    """A seed is an int in [0, 2**64) (numpy integers too); None draws one at random."""
    if seed is None:
        return secrets.randbits(64)
    try:
        return check_int(seed, "seed", 0, 2**64 - 1)
    except ValueError as error:     # the same class (ArgumentTypeError or ValueError), the message of new_game
        raise type(error)(f"seed must be an int in [0, 2**64) or None, got {seed!r}") from None


__all__ = ["ActionKind", "CompiledState", "Game", "GameState", "search_handles"]
