"""What every game compiled through the shared engine includes (cext/game_state.pxi, cext/game_module.pxi) does the
same way as a game object (borabora_sim.protocol.Game): a game's class names its compiled module, its component
cache and its words (the module that names its actions, decisions and sources as its rules do), and adds only what
is its own (its options, its picture in text)."""

from __future__ import annotations

import copyreg
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from borabora_sim.component_files import RulesCache
from borabora_sim.errors import check_players
from borabora_sim.protocol import GameState, check_seed


def _unpickled_state(game: type[CompiledGame], saved: Mapping[str, Any], components: dict[str, Any] | None) -> Any:
    """A state of `game` that was pickled: its saved form loaded with its component data (None: the built-in)."""
    return game(components).state_from_dict(saved)


class CompiledGame:
    """The game object of a compiled engine `engine` with the component tables `rules_for(components)`. A game with
    options (Bamboo's mode) passes them to the engine's entry points through `engine_options()`."""

    name: ClassVar[str]
    engine: ClassVar[ModuleType]            # the compiled module: borabora_sim._<game>
    rules_for: ClassVar[RulesCache[Any, Any]]
    words: ClassVar[ModuleType]             # borabora_sim.games.<game>.words
    end_action_name: ClassVar[str]          # the engine's name of the action that ends the step pending
    default_player_count: ClassVar[int] = 4

    def __init__(self, components: Any = None) -> None:
        self.rules = type(self).rules_for(components)

    def engine_options(self) -> tuple[object, ...]:
        """The game's options as the engine's new_state, random_playouts and random_game_actions take them."""
        return ()

    @property
    def decisions(self) -> tuple[str, ...]:
        """Every kind of decision (the values of state.decision)."""
        return tuple(self.engine.DECISIONS)

    @property
    def phases(self) -> tuple[str, ...]:
        """Every phase (the values of state.phase)."""
        return tuple(self.engine.PHASES)

    @property
    def fingerprint(self) -> str:
        """The component data's hash (a resumed run needs the same)."""
        return str(self.rules.fingerprint)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CompiledGame) and type(other) is type(self) and other.fingerprint == self.fingerprint

    def __hash__(self) -> int:
        return hash((self.name, self.fingerprint))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(components {self.fingerprint})"

    def new_initial_state(self, players: int | None = None, seed: int | None = None) -> Any:
        players = self.default_player_count if players is None else players
        return self.engine.new_state(self.rules, check_players(players), check_seed(seed), *self.engine_options())

    def for_state(self, state: Any) -> CompiledGame:
        """The game `state` is played in: this game with the state's component data."""
        return type(self)(state.components)

    def state_from_dict(self, data: Mapping[str, Any]) -> Any:
        return self.engine.State.from_dict(data, self.rules)

    @classmethod
    def pickle_states(cls) -> None:
        """Lets pickle save the states of the game's engine, which knows no game to load them with: a state is
        pickled as its saved form and its component data, and loaded again through this game."""
        copyreg.pickle(cls.engine.State, cls._reduce_state)

    @classmethod
    def _reduce_state(cls, state: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        components = state.components
        data = None if components.source_path == "builtin" else components.to_json_dict()
        return _unpickled_state, (cls, state.to_dict(), data)

    def action_name(self, action: int) -> str:
        return str(self.rules.action_names[action])

    def derive_seed(self, seed: int, index: int) -> int:
        return int(self.engine.derive_seed(seed, index))

    def random_playouts(self, games: int, players: int, seed: int, first_game: int = 0) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = self.engine.random_playouts(self.rules, games, players, seed,
                                                                 *self.engine_options(), first_game=first_game)
        if "start_position" in out:                         # a counter column of the game's rows
            out["counters"] = np.concatenate([out["counters"], out.pop("start_position")[:, :, None]], axis=2)
        return out

    def random_game_actions(self, players: int, game_seed: int) -> list[int]:
        return list(self.engine.random_game_actions(self.rules, players, game_seed, *self.engine_options()))

    def heuristic_action(self, state: GameState, weights: np.ndarray, seed: int, thorough: bool = True) -> int:
        return int(self.engine.heuristic_action(state, weights, seed, thorough))

    def heuristic_option_values(self, state: GameState, weights: np.ndarray, seed: int,
                                thorough: bool = True) -> list[tuple[int, float]]:
        values: list[tuple[int, float]] = self.engine.heuristic_option_values(state, weights, seed, thorough)
        return values

    @property
    def end_action(self) -> int:
        """The action that ends the step pending: browser play gives it a button of its own."""
        return int(self.rules.action_ids[self.end_action_name])

    def describe_actions(self, state: Any, actions: Sequence[int]) -> list[str]:
        described: list[str] = self.words.describe_actions(state, actions)
        return described

    def describe_action(self, state: Any, action: int) -> str:
        return str(self.words.describe_action(state, action))

    def describe_decision(self, state: Any) -> str:
        return str(self.words.describe_decision(state))

    def describe_phase(self, state: Any) -> str:
        return str(self.words.describe_phase(state))

    def rules_hint(self, decision: str) -> str:
        return str(self.words.rules_hint(decision))

    def describe_source(self, source: str) -> str:
        return str(self.words.source_words(source))


__all__ = ["CompiledGame"]
