"""The library's games as OpenSpiel games: ``python_<name>`` for every registered game with an observation
encoder (``borabora_sim.envs.encoders.encoded_games()``).

Importing this module registers one Python game with OpenSpiel for each of them, all made by ``SpielGame``:
``pyspiel.load_game("python_<name>(players=3,seed=7)")``, with the game's options as further parameters. Every
rule (legal actions, transitions, scores, ranks) comes from the game's compiled engine; this module only
translates, the same way for every game.

- Parameters: ``players`` (default: the most the game allows), ``seed`` (-1, the default, picks a random base
  seed) and the game's own options (``Game.options``) with their defaults.
- Chance is SAMPLED_STOCHASTIC: the engine draws dice, shuffles and reveals from its own seeded generators inside
  ``apply``, so there are no chance nodes. Game ``k`` started by ``new_initial_state()`` is dealt from seed
  ``derive_seed(seed, k)``; ``seed=-1`` (the default) picks a random base seed. OpenSpiel's ``clone()`` of a
  Python state also calls ``new_initial_state()``, so cloning advances ``k``; pass a seed to
  ``game.new_initial_state(seed)`` to deal one particular game.
- Returns, given at the end only: 1 to the winner, 0 to every other seat; where a victory is shared (the seats
  ranked 1 in ``State.ranks()``) each of the *k* winners gets 1/*k* (``borabora_sim.kits.encoding.win_shares``).
  The returns always sum to 1: the game is declared CONSTANT_SUM with utility sum 1 and utilities in [0, 1], and
  ``rewards()`` is 0 until the end and then the returns.
- Observations: ``observation_tensor`` is the tensor of the game's encoder (``GameRecord.encoder``);
  ``observation_string`` is the same filtered view as text. ``information_state_string`` adds perfect recall: the
  action history and every chance outcome the seat saw (what the encoder's chance view shows it).
- ``resample_from_infostate(player, sampler)`` uses the engine's ``determinize``, so OpenSpiel's IS-MCTS runs.
- The players are the seats that decide; a game's parts that never decide are not players.

>>> import pyspiel
>>> import borabora_sim.envs.openspiel as bb_spiel
>>> from borabora_sim.envs.encoders import encoded_games
>>> from borabora_sim.games import DEFAULT_GAME
>>> game = pyspiel.load_game(bb_spiel.short_name(DEFAULT_GAME), {"players": 2, "seed": 1})
>>> game.new_initial_state().current_player() in (0, 1)
True
>>> all(pyspiel.load_game(bb_spiel.short_name(name), {"players": 3}).num_players() == 3 for name in encoded_games())
True
"""

from __future__ import annotations

import functools
import json
import secrets
from typing import Any, ClassVar, cast

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "borabora_sim.envs.openspiel needs OpenSpiel (the open-spiel package, Python >= 3.11): "
        "pip install 'borabora_sim[openspiel]'"
    ) from exc

from borabora_sim.envs.encoders import encoded_games, encoder_for, game_name
from borabora_sim.errors import check_players
from borabora_sim.games import DEFAULT_GAME, get_game, parse_game_spec
from borabora_sim.kits.encoding import Encoder, ObservedState, win_shares
from borabora_sim.protocol import GameState

_BASE_PARAMETERS = ("players", "seed")


def short_name(game: Any) -> str:
    """The OpenSpiel name of a game (a name, spec or game object): ``python_<name>``."""
    return f"python_{game_name(game)}"


@functools.cache
def game_type(game: str = DEFAULT_GAME) -> pyspiel.GameType:
    """The OpenSpiel game type of a game: its parameters are players, seed and the game's options."""
    name = game_name(game)
    board = get_game(name)
    options = {key: values[0] for key, values in board.options.items()}
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Python {encoder_for(name).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(board.player_counts),
        min_num_players=min(board.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": max(board.player_counts), "seed": -1, **options},
    )


def game_info(players: int, game: Any = DEFAULT_GAME) -> pyspiel.GameInfo:
    """The sizes of a game (a name, spec or game object) with `players` seats."""
    board = get_game(game) if isinstance(game, str) else game
    return pyspiel.GameInfo(
        num_distinct_actions=board.num_actions,
        max_chance_outcomes=0,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=encoder_for(board).max_game_length,
    )


# =============================================================================
# Perfect recall: what each seat saw happen by chance
# =============================================================================
def _event(step: int, text: str) -> tuple[tuple[int, str], ...]:
    return ((step, text),) if text else ()


class _Record:
    """Immutable record of the chance outcomes each seat has seen (shared by clones; never deep-copied). What a
    seat sees by chance is the game's (``Encoder.chance_view``, ``chance_events``, ``private_events``)."""

    __slots__ = ("hands", "last", "private", "public")

    def __init__(self, public: tuple[tuple[int, str], ...], private: tuple[tuple[tuple[int, str], ...], ...],
                 last: tuple[Any, ...], hands: tuple[Any, ...]) -> None:
        self.public = public
        self.private = private
        self.last = last
        self.hands = hands              # each seat's private view at the last step

    @staticmethod
    def start(state: SpielState) -> _Record:
        encoder = state.encoder
        public, hands = encoder.chance_view(state.engine, state.observation_dict)
        return _Record(_event(0, encoder.chance_events(None, public)),
                       tuple(_event(0, encoder.private_events(None, h)) for h in hands), public, hands)

    def after(self, step: int, state: SpielState) -> _Record:
        encoder = state.encoder
        public, hands = encoder.chance_view(state.engine, state.observation_dict)
        events = self.public + _event(step, encoder.chance_events(self.last, public))
        private = tuple(seen + _event(step, encoder.private_events(old, new))
                        for seen, old, new in zip(self.private, self.hands, hands, strict=True))
        return _Record(events, private, public, hands)

    def resampled(self, player: int, state: SpielState, step: int) -> _Record:
        """The record of `state`, a determinization for `player`: the other seats' private history is unknown to
        it, so it is replaced by their sampled private views."""
        encoder = state.encoder
        public, hands = encoder.chance_view(state.engine, state.observation_dict)
        private = tuple(seen if seat == player else _event(step, encoder.private_events(None, hands[seat]))
                        for seat, seen in enumerate(self.private))
        return _Record(self.public, private, public, hands)

    def text(self, player: int) -> str:
        events = sorted(self.public + self.private[player], key=lambda e: e[0])
        return " | ".join(f"@{step} {text}" for step, text in events)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Record:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Record, (self.public, self.private, self.last, self.hands))


class _Cache:
    """Observations of the current state by seat; a copy starts empty."""

    __slots__ = ("obs",)

    def __init__(self) -> None:
        self.obs: dict[int, dict[str, Any]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Cache, ())


# =============================================================================
# Game and state
# =============================================================================
class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """One of the library's games in OpenSpiel (``python_<game>``). Parameters: ``players``, ``seed``
    (-1 = random) and the game's options (``Game.options``); `game` is the registered name of a game with an
    encoder (default ``borabora_sim.games.DEFAULT_GAME``). ``self.game`` is the library's game object
    (``borabora_sim.games.get_game``)."""

    _creators: ClassVar[dict[str, functools.partial[SpielGame]]] = {}     # OpenSpiel's creator by game (_register)

    def __init__(self, params: dict[str, Any] | None = None, game: str = DEFAULT_GAME) -> None:
        name, in_spec = parse_game_spec(game)
        if in_spec:
            raise ValueError(f"SpielGame takes a game's name, its options as parameters: SpielGame({{..., "
                             f"{', '.join(repr(key) for key in in_spec)}: ...}}, game={name!r}); got game={game!r}")
        kind = game_type(name)
        params = dict(kind.parameter_specification | (params or {}))
        options = {key: value for key, value in params.items() if key not in _BASE_PARAMETERS}
        board = get_game(name, **options)
        players = check_players(int(params["players"]), tuple(board.player_counts))
        seed = int(params["seed"])
        super().__init__(kind, game_info(players, board), params)
        self.game = board
        self.encoder = encoder_for(board)
        self.players = players
        self.base_seed = seed if seed >= 0 else secrets.randbits(63)
        self.games_started = 0

    def new_initial_state(self, seed: Any = None) -> SpielState:
        """The next game of this game's seed stream, or the game dealt from `seed` (an int or its text)."""
        if seed is None:
            seed = self.game.derive_seed(self.base_seed, self.games_started)
            self.games_started += 1
        # the states of a game with an encoder say what a seat sees (borabora_sim.kits.encoding.ObservedState)
        engine = cast(ObservedState, self.game.new_initial_state(self.players, int(seed)))
        return SpielState(self, engine)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.perfect_recall:
            if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise ValueError("perfect-recall observations are available only as the information state "
                                 "(public information and the seat's own private information)")
            return InfoStateObserver()
        if not iig_obs_type.public_info or iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations are available with public information and the seat's own private "
                             "information (private_info SINGLE_PLAYER) or none of it (NONE)")
        return TensorObserver(self.encoder,
                              private=iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)


class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """An OpenSpiel state wrapping the state of the game's engine (``self.engine``)."""

    def __init__(self, game: SpielGame, engine: ObservedState) -> None:
        super().__init__(game)
        self.engine = engine
        self.encoder = game.encoder
        self._record: _Record | None = None     # started at the first action or information-state query
        self._cache = _Cache()

    # ---- the OpenSpiel state API ------------------------------------------------
    def current_player(self) -> int:
        if self.engine.is_terminal():
            terminal: int = pyspiel.PlayerId.TERMINAL
            return terminal
        return self.engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine.legal_actions()

    def _apply_action(self, action: int) -> None:
        record = self.record()
        self.engine.apply(int(action))
        self._cache = _Cache()
        self._record = record.after(len(self.history()) + 1, self)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.engine.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        """0 for every seat until the end; then 1 to the winner, 1/k to each of k seats sharing a victory."""
        return win_shares(self.engine)

    def __str__(self) -> str:
        return f"{self.engine!r}\n" + json.dumps(self.engine.to_dict()["state"], sort_keys=True,
                                                 separators=(",", ":"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> SpielState:
        """A state `player_id` cannot tell from this one, with everything hidden from it resampled by the engine
        (``State.determinize``); `probability_sampler()` (a uniform [0, 1) draw) seeds the sample."""
        draw = probability_sampler() if probability_sampler is not None else secrets.randbits(53) / 2**53
        record = self.record()
        state: SpielState = self.clone()
        state.engine = self.engine.determinize(int(player_id), int(draw * 2**53))
        state._cache = _Cache()
        state._record = record.resampled(int(player_id), state, len(self.history()))
        return state

    # ---- views ----------------------------------------------------------------------
    def record(self) -> _Record:
        if self._record is None:
            self._record = _Record.start(self)
        return self._record

    def observation_dict(self, player: int) -> dict[str, Any]:
        """``engine.observation(player)``, cached until the next action (do not modify it). Where every seat sees
        the same (``Encoder.views_alike``), one seat's observation is relabelled for the others."""
        cache = self._cache.obs
        obs = cache.get(player)
        if obs is None:
            if cache and self.encoder.views_alike:
                obs = cache[player] = dict(next(iter(cache.values())), viewer=player)
            else:
                obs = cache[player] = self.engine.observation(player)
        return obs

    def information_state_text(self, player: int) -> str:
        history = " ".join(map(str, self.history()))
        seen = self.record().text(player)
        return f"{self.encoder.text(self.observation_dict(player))}\nactions: {history}\nseen: {seen}"


class TensorObserver:
    """The observation tensor (the encoder's slices, one named view per slice) and its string; without private
    information (``private=False``) the encoder's private slices are zero and its private view is left out."""

    def __init__(self, encoder: Encoder, private: bool = True) -> None:
        self.private = private
        self.encoder = encoder
        self.tensor = np.zeros(self.encoder.size, dtype=np.float32)
        self.dict = self.encoder.names_of(self.tensor)

    def set_from(self, state: SpielState, player: int) -> None:
        self.encoder.encode(state.observation_dict(player), state.engine.components, out=self.tensor)
        if not self.private:
            for name in self.encoder.private_slices:
                self.dict[name][:] = 0.0

    def string_from(self, state: SpielState, player: int) -> str:
        obs = state.observation_dict(player)
        if not self.private:
            obs = self.encoder.hide_private(obs)
        return self.encoder.text(obs)


class InfoStateObserver:
    """Information-state strings (perfect recall); no tensor."""

    tensor = None

    def __init__(self) -> None:
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        pass

    def string_from(self, state: SpielState, player: int) -> str:
        return state.information_state_text(player)


# =============================================================================
# Search helpers
# =============================================================================
class CompiledRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS / IS-MCTS bots: the value of a state is the mean return (1/k to each of k
    winners) of uniformly random playouts of the engine state; the prior is uniform. A playout runs inside compiled
    code where the engine state has such a call (``step_random(seed)``), else one compiled ``apply`` per
    decision."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state: SpielState) -> np.ndarray:
        total = np.zeros(state.engine.num_players)
        for _ in range(self.n_rollouts):
            playout = state.engine.clone()
            self._play_out(playout)
            total += win_shares(playout)
        return total / self.n_rollouts

    def _play_out(self, engine: GameState) -> None:
        step_random = getattr(engine, "step_random", None)
        if step_random is not None:
            step_random(int(self._rng.integers(2**63)))
            return
        while not engine.is_terminal():
            legal = engine.legal_actions()
            engine.apply(legal[int(self._rng.integers(len(legal)))])

    def prior(self, state: SpielState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def load(players: int = 4, seed: int = -1, game: str = DEFAULT_GAME, **options: Any) -> SpielGame:
    """``pyspiel.load_game("python_<game>", {"players": players, "seed": seed, **options})``; `game` is a game
    name or spec (its name and options), `options` the game's options as keywords."""
    name, options = parse_game_spec(game, **options)
    encoder_for(name)                   # a game without an encoder is refused here, in one line
    loaded: SpielGame = pyspiel.load_game(short_name(name), {"players": players, "seed": seed, **options})
    return loaded


def _register() -> None:
    """Registers ``python_<game>``, made by SpielGame, for every game with an encoder. OpenSpiel's registry lets go
    of its creators when the process exits, after the interpreter has finalized, and freeing a Python object then
    aborts the process; a class lives to the end, so SpielGame keeps each creator (``_creators``)."""
    registered = set(pyspiel.registered_names())
    for name in encoded_games():
        if short_name(name) not in registered:
            creator = SpielGame._creators[name] = functools.partial(SpielGame, game=name)
            pyspiel.register_game(game_type(name), creator)


_register()


__all__ = ["CompiledRolloutEvaluator", "SpielGame", "SpielState", "load", "short_name"]
