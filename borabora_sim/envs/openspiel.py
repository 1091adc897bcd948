"""Bora Bora as an OpenSpiel game: ``pyspiel.load_game("python_bora_bora(players=3,seed=7)")``.

Importing this module registers the Python game ``python_bora_bora`` with OpenSpiel. Every rule (legal actions,
transitions, scores, winner) comes from the compiled engine; this module only translates.

- Chance is SAMPLED_STOCHASTIC: the engine draws dice, shuffles and God cards from its own seeded generator
  inside ``apply``, so there are no chance nodes. Game ``k`` started by ``new_initial_state()`` is dealt from seed
  ``derive_seed(seed, k)``; ``seed=-1`` (the default) picks a random base seed. OpenSpiel's ``clone()`` of a
  Python state also calls ``new_initial_state()``, so cloning advances ``k``; pass a seed to
  ``game.new_initial_state(seed)`` to deal one particular game.
- Returns: 1 for the winner after the engine's tie-break (``State.winner()``), 0 for every other seat, given at
  the end only. The returns always sum to 1, so the game is declared CONSTANT_SUM with utility sum 1 and
  utilities in [0, 1].
- Observations: ``observation_tensor`` is ``borabora_sim.envs.observation`` (docs/observation.md);
  ``observation_string`` is the same filtered view as text. ``information_state_string`` adds perfect recall:
  the action history and every chance outcome the seat saw (dice rolled, displays refilled, its own God cards).
- ``resample_from_infostate(player, sampler)`` uses the engine's ``determinize``, so OpenSpiel's IS-MCTS runs.

>>> import pyspiel
>>> import borabora_sim.envs.openspiel
>>> game = pyspiel.load_game("python_bora_bora", {"players": 2, "seed": 1})
>>> state = game.new_initial_state()
>>> state.current_player() in (0, 1)
True
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "borabora_sim.envs.openspiel needs OpenSpiel (the open-spiel package, Python >= 3.11): "
        "pip install 'borabora_sim[openspiel]'"
    ) from exc

from borabora_sim import _engine
from borabora_sim.envs.observation import SIZE, SLICES, encode, observation_text
from borabora_sim.game import NUM_ACTIONS, BoraBora, check_players

SHORT_NAME = "python_bora_bora"
MAX_GAME_LENGTH = 2000
"""Decisions in one game, an upper bound measured with a wide margin: the longest of 20,000 uniformly random games
per player count took 196 / 269 / 341 decisions (2 / 3 / 4 players) and of 1,000 heuristic games 210 / 312 / 378."""

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Bora Bora",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4, "seed": -1},
)


def game_info(players: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=0,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=MAX_GAME_LENGTH,
    )


# =============================================================================
# Perfect recall: what each seat saw happen by chance
# =============================================================================
def _chance_view(engine: Any) -> tuple[tuple[Any, ...], tuple[tuple[int, ...], ...]]:
    """(public chance-dependent fields, each seat's God cards) of an engine state."""
    d = engine.to_dict()["state"]
    n = d["n_players"]
    dice = tuple(tuple(d["pl"][i]["dice"]) for i in range(n))
    public = (dice, tuple(map(tuple, d["person_display"])), tuple(d["task_display"]), tuple(d["god_display"]))
    hands = tuple(tuple(d["pl"][i]["hand"]) for i in range(n))
    return public, hands


def _public_events(old: tuple[Any, ...] | None, new: tuple[Any, ...]) -> str:
    """What everyone learnt by chance between two public views (everything when `old` is None): a dice roll,
    new displayed tiles or cards."""
    parts = []
    if old is None or sum(v > 0 for p in new[0] for v in p) > sum(v > 0 for p in old[0] for v in p):
        parts.append("dice " + "/".join("".join(map(str, p)) for p in new[0]))
    shown = (("men", new[1][0]), ("women", new[1][1]), ("tasks", new[2]), ("gods", new[3]))
    before_all = (None,) * 4 if old is None else (old[1][0], old[1][1], old[2], old[3])
    for (name, after), before in zip(shown, before_all, strict=True):
        if before is None or any(t != 255 and t != b for t, b in zip(after, before, strict=True)):
            parts.append(f"{name} " + ",".join("-" if t == 255 else str(t) for t in after))
    return "; ".join(parts)


class _Record:
    """Immutable record of the chance outcomes each seat has seen (shared by clones; never deep-copied)."""

    __slots__ = ("hands", "last", "private", "public")

    def __init__(self, public: tuple[tuple[int, str], ...], private: tuple[tuple[tuple[int, str], ...], ...],
                 last: tuple[Any, ...], hands: tuple[tuple[int, ...], ...]) -> None:
        self.public = public
        self.private = private
        self.last = last
        self.hands = hands

    @staticmethod
    def start(engine: Any) -> _Record:
        public, hands = _chance_view(engine)
        return _Record(((0, _public_events(None, public)),),
                       tuple(((0, f"hand {_hand(h)}"),) for h in hands), public, hands)

    def after(self, step: int, engine: Any) -> _Record:
        public, hands = _chance_view(engine)
        events = self.public
        text = _public_events(self.last, public)
        if text:
            events = (*events, (step, text))
        private = tuple(seen if new == old else (*seen, (step, f"hand {_hand(new)}"))
                        for seen, old, new in zip(self.private, self.hands, hands, strict=True))
        return _Record(events, private, public, hands)

    def resampled(self, player: int, engine: Any, step: int) -> _Record:
        """The record of a determinization for `player`: the other seats' private history is unknown to it, so
        it is replaced by their sampled hands."""
        public, hands = _chance_view(engine)
        private = tuple(seen if seat == player else ((step, f"hand {_hand(hands[seat])}"),)
                        for seat, seen in enumerate(self.private))
        return _Record(self.public, private, public, hands)

    def text(self, player: int) -> str:
        events = sorted(self.public + self.private[player], key=lambda e: e[0])
        return " | ".join(f"@{step} {text}" for step, text in events)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Record:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Record, (self.public, self.private, self.last, self.hands))


def _hand(hand: tuple[int, ...]) -> str:
    return "".join(map(str, hand))


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
class BoraBoraGame(pyspiel.Game):
    """The OpenSpiel game. Parameters: ``players`` (2-4, default 4), ``seed`` (-1 = random)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(GAME_TYPE.parameter_specification | (params or {}))
        players = check_players(int(params["players"]))
        seed = int(params["seed"])
        super().__init__(GAME_TYPE, game_info(players), params)
        self.bora = BoraBora()
        self.players = players
        self.base_seed = seed if seed >= 0 else secrets.randbits(63)
        self.games_started = 0

    def new_initial_state(self, seed: Any = None) -> BoraBoraState:
        """The next game of this game's seed stream, or the game dealt from `seed` (an int or its text)."""
        if seed is None:
            seed = _engine.derive_seed(self.base_seed, self.games_started)
            self.games_started += 1
        return BoraBoraState(self, self.bora.new_initial_state(self.players, int(seed)))

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
        return TensorObserver(private=iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)


class BoraBoraState(pyspiel.State):
    """An OpenSpiel state wrapping a compiled engine state (``self.engine``)."""

    def __init__(self, game: BoraBoraGame, engine: Any) -> None:
        super().__init__(game)
        self.engine = engine
        self._record: _Record | None = None     # started at the first action or information-state query
        self._cache = _Cache()

    # ---- the OpenSpiel state API ------------------------------------------------
    def current_player(self) -> int:
        if self.engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine.legal_actions()

    def _apply_action(self, action: int) -> None:
        record = self.record()
        self.engine.apply(int(action))
        self._record = record.after(len(self.history()) + 1, self.engine)
        self._cache = _Cache()

    def _action_to_string(self, player: int, action: int) -> str:
        return self.engine.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.engine.is_terminal()

    def returns(self) -> list[float]:
        n = self.engine.num_players
        if not self.engine.is_terminal():
            return [0.0] * n
        winner = self.engine.winner()
        return [1.0 if seat == winner else 0.0 for seat in range(n)]

    def __str__(self) -> str:
        return f"{self.engine!r}\n" + json.dumps(self.engine.to_dict()["state"], sort_keys=True,
                                                 separators=(",", ":"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> BoraBoraState:
        """A state `player_id` cannot tell from this one, with everything hidden from it resampled by the engine
        (``State.determinize``); `probability_sampler()` (a uniform [0, 1) draw) seeds the sample."""
        draw = probability_sampler() if probability_sampler is not None else secrets.randbits(53) / 2**53
        record = self.record()
        state = self.clone()
        state.engine = self.engine.determinize(int(player_id), int(draw * 2**53))
        state._record = record.resampled(int(player_id), state.engine, len(self.history()))
        state._cache = _Cache()
        return state

    # ---- views ----------------------------------------------------------------------
    def record(self) -> _Record:
        if self._record is None:
            self._record = _Record.start(self.engine)
        return self._record

    def observation_dict(self, player: int) -> dict[str, Any]:
        """``engine.observation(player)``, cached until the next action (do not modify it)."""
        obs = self._cache.obs.get(player)
        if obs is None:
            obs = self._cache.obs[player] = self.engine.observation(player)
        return obs

    def information_state_text(self, player: int) -> str:
        history = " ".join(map(str, self.history()))
        seen = self.record().text(player)
        return f"{observation_text(self.observation_dict(player))}\nactions: {history}\nseen: {seen}"


class TensorObserver:
    """The observation tensor (``observation.SLICES``, one named view per slice) and its string."""

    def __init__(self, private: bool = True) -> None:
        self.private = private
        self.tensor = np.zeros(SIZE, dtype=np.float32)
        self.dict = {name: self.tensor[start:stop] for name, (start, stop) in SLICES.items()}
        self._hand = SLICES["p0.god_hand"]

    def set_from(self, state: BoraBoraState, player: int) -> None:
        encode(state.observation_dict(player), state.engine.components, out=self.tensor)
        if not self.private:
            self.tensor[self._hand[0]:self._hand[1]] = 0.0

    def string_from(self, state: BoraBoraState, player: int) -> str:
        obs = state.observation_dict(player)
        if not self.private:
            obs = dict(obs, pl=[dict(p, hand=None, hand_size=sum(p["hand"])) if p["hand"] is not None else p
                                for p in obs["pl"]])
        return observation_text(obs)


class InfoStateObserver:
    """Information-state strings (perfect recall); no tensor."""

    tensor = None

    def __init__(self) -> None:
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: BoraBoraState, player: int) -> None:
        pass

    def string_from(self, state: BoraBoraState, player: int) -> str:
        return state.information_state_text(player)


# =============================================================================
# Search helpers
# =============================================================================
class CompiledRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS / IS-MCTS bots: the value of a state is the mean return of uniformly
    random playouts run inside the compiled engine (``State.step_random``); the prior is uniform."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state: BoraBoraState) -> np.ndarray:
        n = state.engine.num_players
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            playout = state.engine.clone()
            playout.step_random(int(self._rng.integers(2**63)))
            total[playout.winner()] += 1.0
        return total / self.n_rollouts

    def prior(self, state: BoraBoraState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def load(players: int = 4, seed: int = -1) -> BoraBoraGame:
    """``pyspiel.load_game("python_bora_bora", {"players": players, "seed": seed})``."""
    return pyspiel.load_game(SHORT_NAME, {"players": players, "seed": seed})


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, BoraBoraGame)
