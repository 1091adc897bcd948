"""The player protocol and player specs ("name:key=value,...") for the simulator and the command line."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from borabora_sim.games import game_names, game_of, get_game
from borabora_sim.players.reasons import PERCENT, Column, Option, Reasons, top_options
from borabora_sim.protocol import ActionKind, Game, GameState

# What a player may be told about each of the game's action kinds (protocol.ActionKind).
KIND_SETTINGS = ("never", "normal", "prefer")
# How close to the best value a move of a preferred kind must be for a player that values its options to take it.
PREFER_MARGIN = 0.02


@runtime_checkable
class Player(Protocol):
    """Anything that picks a legal action for the player to move."""

    def choose(self, state: GameState) -> int: ...


@dataclass(frozen=True)
class Param:
    """A player parameter settable from a spec string."""

    parse: Callable[[str], Any]
    help: str


class SeededPlayer:
    """Base for players with their own random stream: `reset(seed)` restarts it.

    A player plays one game at a time, and its options mean what that game makes of them: its styles, weights,
    action kinds and search defaults. Made with `game`, it plays that game only. Made without one, it takes the game
    of the first state it is given (`choose`, `option_values`) and resolves its options there: an option that game
    does not have, or a value it does not allow, is a one-line ValueError naming the game and what it allows. Until
    then it reads (its settings, `spec()`) as it would play the first registered game its options fit, the default
    game first; options that fit no game are refused at once. A state of another game than the one it plays is
    refused in one line; `reset` lets a player made without a game take the game of its next state again. States of
    the player's game with other component data or options (bamboo:mode=advanced) are played with its settings.
    """

    name: ClassVar[str]
    game: Game              # the game its settings are for
    preset: str | None = None   # the preset it was made as ("strong"), which names it in words
    bound: bool             # whether it plays that game only: given it, or given a state of it since the last reset

    @classmethod
    def params(cls, game: Game) -> dict[str, Param]:
        """The options of a spec of this player in `game`."""
        return {}

    def __init__(self, seed: int | None = None, game: Game | None = None,
                 settings: Mapping[str, Any] = MappingProxyType({}),
                 game_options: Mapping[str, object] = MappingProxyType({})) -> None:
        # The options as given, which _configure resolves against a game: `settings` are the player's own
        # parameters, `game_options` are named by a game (its action kinds, its weights) and may be unknown to another.
        self._given = (dict(settings), dict(game_options))
        self._game_given = game is not None
        if game is None:
            game = self._first_fitting_game()
        else:
            self._configure_for(game)
        self.game = game
        self.reset(seed)

    def _configure(self, game: Game, *args: Any, **options: Any) -> None:
        """Sets the player's settings from its options (`settings` and `game_options` by name) as `game` makes of
        them; an option or value the game does not allow is a one-line TypeError or ValueError saying what is
        allowed. Players with options override it with their own parameters; one that plays by a model read from a
        file loads it through borabora_sim.players.models, which records the file (`files_read`), and one that
        plays by a heuristic style (a heuristic; a search's heuristic rollouts or cut-offs; the learned player's
        finish of its turn) obtains its weights through players.heuristic.load_style_for, which records the file of
        a style read from one."""

    def _configure_for(self, game: Game) -> None:
        """Configures the player for `game` from the options it was given, the files it reads recorded anew."""
        self._files: list[Path] = []
        self._configure(game, **self._given[0], **self._given[1])

    def record_file(self, path: Path) -> None:
        """Notes that the player's moves depend on the contents of the file `path` (borabora_sim.players.models
        calls it as it loads a model, players.heuristic.load_style_for as it gives the weights of a style read from
        a data file)."""
        if path not in self._files:
            self._files.append(path)

    def files_read(self) -> tuple[Path, ...]:
        """The files the player's moves depend on besides its spec and seed: the network or learned weights it
        plays by (its game's shipped file, or the one its options name), or the data file of the heuristic style it
        plays or rolls out by (a tuned style's, every style of Pig: Game.style_files), in the order it read them. A
        run records their contents (borabora_sim.players.files_fingerprint), so that games played after such a file
        changed are never mixed with games played before. Empty for players that read none (random, a heuristic of
        a style written in code, a search without a network whose rollouts are random or play a style written in
        code)."""
        return tuple(self._files)

    def _first_fitting_game(self) -> Game:
        """The first registered game the player's options fit, the player configured for it; else the error of
        every game."""
        refusals: dict[str, TypeError | ValueError] = {}
        for name in game_names():
            game = get_game(name)
            try:
                self._configure_for(game)
            except (TypeError, ValueError) as error:
                refusals[name] = error
            else:
                return game
        raise refused_by_every_game(refusals)

    def bind(self, state: GameState) -> None:
        """Makes the player play the game of `state` (borabora_sim.games.game_of), if it plays none yet; a state of
        another game than the one it plays is a one-line ValueError."""
        if self.bound and isinstance(state, self.game.state_type):
            return
        game = game_of(state)
        if self.bound:
            why, how = (("the game it was made for", "make it without game= to play any game") if self._game_given
                        else ("the game of its first state", "reset() it to play another game"))
            raise ValueError(f"player {self.name!r} plays {self.game.name} ({why}) and was given a state of "
                             f"{game.name}; {how}")
        params = self.params(game)
        unknown = [key for key in self._given[1] if key not in params]
        if unknown:
            raise ValueError(f"player {self.name!r} has no option {', '.join(map(repr, unknown))} in game "
                             f"{game.name!r}; options: {', '.join(params) or 'none'}")
        if game != self.game:
            try:
                self._configure_for(game)
            except (TypeError, ValueError) as error:
                self._configure_for(self.game)                                      # left as it was
                raise ValueError(f"player {self.name!r} in game {game.name!r}: {error}") from None
        self.game, self.bound = game, True

    def reset(self, seed: int | None = None) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)):
            raise TypeError(f"seed must be an integer or None, got {seed!r}")
        self.seed = None if seed is None else int(seed)
        self._rng = random.Random(self.seed)
        self.bound = self._game_given

    def next_seed(self) -> int:
        return self._rng.getrandbits(64)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec()!r})"

    def spec(self) -> str:
        return self.name

    def in_words(self) -> str:
        """The player as a person reads it, where its explanations name it: "the strong AI" for a preset (which
        make_player records in `preset`), otherwise what it is ("the balanced heuristic")."""
        return f"the {self.preset} AI" if self.preset else self.kind_words()

    def kind_words(self) -> str:
        """What the player is, in words: "the random player"."""
        return f"the {self.name} player"

    def __getattr__(self, name: str) -> str:
        """The player's setting of one of the game's action kinds, read as an attribute (`player.fishing`)."""
        settings = self.__dict__.get("kind_settings", {})
        if name in settings:
            setting: str = settings[name]
            return setting
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def choose(self, state: GameState) -> int:
        """A legal action for the player to move in `state`, played as the state's game (bind)."""
        self.bind(state)
        return self._choose(state)

    def _choose(self, state: GameState) -> int:
        raise NotImplementedError

    def explain(self, top: int = 10) -> str:
        """The last decision in the game's words: the action chosen and, for the players that weigh options, the
        `top` options with the value each was given (its `reasons`: a headline, a table and a legend)."""
        raise NotImplementedError

    def reasons(self, top: int = 10) -> Reasons | None:
        """Why the last decision was taken, with the `top` options weighed (borabora_sim.players.reasons); None for
        a player that weighs no options, before its first decision and for a decision it did not weigh."""
        check_top(top)
        return None


def refused_by_every_game(refusals: Mapping[str, TypeError | ValueError]) -> TypeError | ValueError:
    """One error for options that every game refused (by game name): the refusal they share, else each game's in
    one line (a TypeError if every refusal is one)."""
    errors = list(refusals.values())
    if all(str(error) == str(errors[0]) for error in errors):
        return errors[0]
    kind = TypeError if all(isinstance(error, TypeError) for error in errors) else ValueError
    return kind("; ".join(f"in game {name!r}, {error}" for name, error in refusals.items()))


def kind_settings(kinds: Mapping[str, ActionKind], given: Mapping[str, object]) -> dict[str, str]:
    """The setting of every kind in `kinds` (normal where not given or None), or an error saying what is
    allowed."""
    given = {kind: setting for kind, setting in given.items() if setting is not None}
    for kind, setting in given.items():
        if setting not in KIND_SETTINGS:
            raise ValueError(f"{kind} must be one of {', '.join(KIND_SETTINGS)}; got {setting!r}")
    return {kind: str(given.get(kind, "normal")) for kind in kinds}


class ValuedKindChoices:
    """The action-kind settings of a player that gives every legal option a value (search, learned): `never`
    drops the kind's moves from its own decisions unless nothing else is legal; `prefer` takes the best move of
    the kind when its value is near enough to the best (`_near_best`, described by `prefer_words`). Needs `game`
    and `kind_settings`."""

    game: Game
    kind_settings: dict[str, str]
    prefer_words: ClassVar[str] = f"within {PREFER_MARGIN} of the value of {{best}}"  # {best}: what it is set against

    @staticmethod
    def _near_best(value: float, best: float) -> bool:
        """Whether an option of a preferred kind valued `value` is taken over the choice valued `best`."""
        return value >= best - PREFER_MARGIN

    @classmethod
    def kind_params(cls, game: Game) -> dict[str, Param]:
        """A spec option per action kind of `game`."""
        return {kind: Param(parse_choice(*KIND_SETTINGS),
                            f"never: no {kind} move at its own decisions unless nothing else is legal; prefer: a "
                            f"{kind} move whenever one is {cls.prefer_words.format(best='the best option')}")
                for kind in game.action_kinds}

    def _set_kinds(self, game: Game, kinds: Mapping[str, object]) -> None:
        """Sets `kind_settings` from the options given, or says which are unknown and what the kinds are."""
        unknown = [key for key in kinds if key not in game.action_kinds]
        if unknown:
            raise TypeError(f"unknown option(s) {', '.join(unknown)}; the action kinds of {game.name}: "
                            f"{', '.join(game.action_kinds) or 'none'}")
        self.kind_settings = kind_settings(game.action_kinds, kinds)

    def _kinds_set_to(self, setting: str) -> list[str]:
        return [kind for kind, value in self.kind_settings.items() if value == setting]

    def _of_kinds(self, action: int, kinds: list[str]) -> bool:
        return any(self.game.action_kinds[kind].contains(action) for kind in kinds)

    def _without_avoided(self, legal: list[int]) -> tuple[list[int], str]:
        """The legal actions left by the `never` settings (all of them if none would be left), and the reason
        to name when a single one is left."""
        avoided = self._kinds_set_to("never")
        others = [a for a in legal if not self._of_kinds(a, avoided)] if avoided else legal
        why = (f"the only legal action that is not {' or '.join(avoided)} "
               f"({', '.join(f'{kind}=never' for kind in avoided)})")
        return others or legal, why

    def _preferred(self, ranked: Sequence[tuple[int, float]]) -> int | None:
        """Among options in the player's order of choice as (action, value), the first being its choice: the
        index of the first option of a preferred kind whose value is near enough to the choice's, when that is not
        the choice itself; else None."""
        preferred = self._kinds_set_to("prefer")
        near = [index for index, (action, value) in enumerate(ranked)
                if preferred and self._of_kinds(action, preferred) and self._near_best(value, ranked[0][1])]
        return near[0] if near and near[0] > 0 else None

    def _preference_rule(self, state: GameState, passed_over: int, choice_rule: str) -> str:
        """How a choice moved by a preference was made, in words: over the action `passed_over` of `state`."""
        preferred = self._kinds_set_to("prefer")
        best = self.game.describe_action(state, passed_over)
        return (f"a {' or '.join(preferred)} move {self.prefer_words.format(best=best)} "
                f"({', '.join(f'{kind}=prefer' for kind in preferred)}), {choice_rule}")


def check_top(top: int) -> int:
    if isinstance(top, bool) or not isinstance(top, int) or top <= 0:
        raise ValueError(f"top must be a positive integer (how many options to list), got {top!r}")
    return top


def check_int(name: str, value: object, minimum: int, allowed: str) -> int:
    """`value` as an int if it is one (not a bool) and at least `minimum`; else an error saying what is allowed."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be {allowed}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return int(value)


def check_number(name: str, value: object, low: float, high: float, allowed: str) -> float:
    """`value` as a float if it is a finite real number (not a bool) in [low, high]; else an error saying what is
    allowed."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{name} must be {allowed}, got {value!r}")
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return float(value)


def parse_choice(*allowed: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}; got {text!r}")
        return text
    return parse


def parse_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"must be an integer; got {text!r}") from None


def parse_positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise ValueError(f"must be a positive integer; got {text!r}")
    return value


def parse_float(text: str) -> float:
    """A finite number (rejects 'nan' and 'inf')."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ValueError(f"must be a finite number; got {text!r}")
    return value


def parse_bool(text: str) -> bool:
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"must be true or false; got {text!r}")


@dataclass(frozen=True)
class RatedOption:
    """One legal action of a decision with the value a player gave it."""

    action: int
    name: str
    value: float


class OptionRatingPlayer(ValuedKindChoices, SeededPlayer):
    """A player that rates every legal option and plays the best (learned, expert): equal ones told apart by its
    own random stream, the action-kind settings applied. `_rated_options` rates them, best first; its `reasons`
    show them in the game's words, under `value_column` (a percentage), chosen by `choice_rule`, with `legend`."""

    choice_rule: ClassVar[str]
    value_column: ClassVar[str]
    legend: ClassVar[str]

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.last_options: list[RatedOption] = []
        self.last_action: int | None = None
        self.last_state: GameState | None = None            # the position of the last decision
        self.last_rule = self.choice_rule                   # how the last choice was made, in words

    def _rated_options(self, state: GameState) -> list[RatedOption]:
        raise NotImplementedError

    def _choose(self, state: GameState) -> int:
        allowed, _ = self._without_avoided(state.legal_actions())
        self.last_state = state.clone()
        if len(allowed) == 1:
            self.last_options, self.last_action = [], allowed[0]
            return allowed[0]
        options = [o for o in self._rated_options(state) if o.action in allowed]
        best = [o for o in options if o.value == options[0].value]
        chosen = best[self._rng.randrange(len(best))] if len(best) > 1 else best[0]
        preferred = self._preferred([(chosen.action, chosen.value)] + [(o.action, o.value) for o in options])
        self.last_rule = self.choice_rule
        if preferred is not None:
            self.last_rule = self._preference_rule(state, chosen.action, self.choice_rule)
            chosen = options[preferred - 1]
        self.last_options, self.last_action = options, chosen.action
        return chosen.action

    def explain(self, top: int = 10) -> str:
        """The last decision in the game's words: the chosen action and the `top` options with the value each was
        given (`reasons`)."""
        check_top(top)
        if self.last_action is None or self.last_state is None:
            return "no decision yet"
        reasons = self.reasons(top)
        if reasons is None:
            words = self.game.describe_action(self.last_state, self.last_action)
            return f"{self.in_words()}: played the only legal action, {words}"
        return reasons.text()

    def reasons(self, top: int = 10) -> Reasons | None:
        check_top(top)
        if self.last_action is None or self.last_state is None or not self.last_options:
            return None
        words = self.game.describe_actions(self.last_state, [o.action for o in self.last_options])
        rows = [Option(o.action, text, (o.value,)) for o, text in zip(self.last_options, words, strict=True)]
        shown, chosen = top_options(rows, self.last_action, top)
        return Reasons(self.in_words(), self.last_action, shown[chosen].words, self.last_rule,
                       (Column(self.value_column, PERCENT),), shown, chosen, len(self.last_options), self.legend)


__all__ = ["OptionRatingPlayer", "Player", "RatedOption", "SeededPlayer"]
