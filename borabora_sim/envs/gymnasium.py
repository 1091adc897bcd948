"""The library's games as single-agent Gymnasium environments: the learner takes one seat, players fill the others.

``GameEnv(game, opponents, ...)`` plays any registered game with an observation encoder; importing this module
registers it for each of them as ``borabora_sim/<Title>-v0`` (``env_id(game)``), with the game fixed, so that
``gymnasium.make(env_id(name), opponents=[...], **options)`` takes the game's options as keywords. The opponents
are player specs for ``borabora_sim.players.make_player`` (or player objects with ``choose(state)``), one per other
seat, in seat order after the learner's seat is removed; the number of players is ``len(opponents) + 1`` (only
the seats that decide count: a game's parts that never decide need no opponent). Observations are the learner's
tensor (the game's encoder, ``borabora_sim.envs.encoders``); actions are the engine's action ids;
``info["action_mask"]`` (int8) marks the legal ones.

Rewards: with ``reward="win"`` (default) 1 when the game ends with the learner the winner, 1/*k* when it shares the
victory with *k* - 1 others, else 0; with ``reward="score"`` (also named by the game's score unit,
``Encoder.score_unit``) the points the learner gained since its previous action (its own action and the opponents'
moves up to its next decision; the first step also counts the points it had at reset), so an episode's return is
its final score. An illegal action ends the episode with ``illegal_reward`` (default -1) and
``info["illegal_action"] = True``, leaving the game unchanged.

>>> import gymnasium
>>> from borabora_sim.envs.gymnasium import GameEnv, env_id
>>> from borabora_sim.games import DEFAULT_GAME
from borabora_sim.kits.encoding import win_shares
>>> env = GameEnv(DEFAULT_GAME, opponents=["heuristic", "random"], seat=0)
>>> obs, info = env.reset(seed=1)
>>> int(info["action_mask"].sum()) >= 2
True
>>> obs, info = gymnasium.make(env_id(DEFAULT_GAME), opponents=["random"], reward="score").reset(seed=1)
>>> info["seat"] in (0, 1)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "borabora_sim.envs.gymnasium needs Gymnasium: pip install 'borabora_sim[rl]'"
    ) from exc

from borabora_sim.component_files import ComponentSource
from borabora_sim.envs import encoders
from borabora_sim.envs.encoders import encoded_games, encoder_for, resolve_game
from borabora_sim.games import DEFAULT_GAME
from borabora_sim.kits.encoding import win_shares
from borabora_sim.players import make_player


def env_id(game: Any) -> str:
    """The Gymnasium id of a game (name, spec or game object): ``borabora_sim/<Title>-v0``."""
    return f"borabora_sim/{encoder_for(game).title.replace(' ', '')}-v0"


class GameEnv(gymnasium.Env):
    """The learner's seat in `game` against `opponents`. Arguments: ``game`` (a game spec, its name and options, or
    a game object; default ``borabora_sim.games.DEFAULT_GAME``), ``opponents`` (specs or players), ``seat`` (the
    learner's seat, or None for a random seat each episode), ``reward`` ("win", "score" or the game's unit),
    ``illegal_reward``, ``render_mode`` ("ansi" returns the learner's text board, "human" prints it),
    ``components`` (component data) and the game's options as keywords."""

    # gymnasium.Env declares metadata an instance attribute with a class default, not a ClassVar
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, game: Any = DEFAULT_GAME, opponents: Sequence[Any] = ("heuristic", "heuristic", "heuristic"),
                 seat: int | None = None, reward: str = "win", illegal_reward: float = -1.0,
                 render_mode: str | None = None, components: ComponentSource = None, **options: Any) -> None:
        self.game = resolve_game(game, components, options)
        self.encoder = encoder_for(self.game)
        if isinstance(opponents, str):
            raise ValueError("opponents must be a list of player specs, one per other seat, e.g. ['heuristic']")
        self.opponents = list(opponents)
        self.players = len(self.opponents) + 1
        counts = tuple(self.game.player_counts)
        if self.players not in counts:
            raise ValueError(f"opponents must fill {min(counts) - 1} to {max(counts) - 1} other seats "
                             f"({min(counts)}-{max(counts)} players); got {len(self.opponents)}")
        for spec in self.opponents:
            if isinstance(spec, str):
                make_player(spec, game=self.game)      # reject a bad spec now, with make_player's message
            elif not callable(getattr(spec, "choose", None)):
                raise ValueError(f"an opponent must be a player spec or have choose(state); got {spec!r}")
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ValueError(f"seat must be None or in 0..{self.players - 1}; got {seat!r}")
        self._scored = encoders.check_reward(reward, self.encoder) == "score"
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}; got {render_mode!r}")
        self.fixed_seat = seat
        self.reward_kind = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(low=self.encoder.low, high=self.encoder.high, shape=(self.encoder.size,),
                                            dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: Any = None
        self.seat = 0
        self.seats: dict[int, Any] = {}
        self._score = 0
        self._over = False

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; the same `seed` gives the same game, seat and opponent behaviour."""
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.players))
        self.state = self.game.new_initial_state(self.players, int(rng.integers(2**63)))
        others = [s for s in range(self.players) if s != self.seat]
        self.seats = {}
        for seat, spec in zip(others, self.opponents, strict=True):
            player_seed = int(rng.integers(2**63))
            if isinstance(spec, str):
                self.seats[seat] = make_player(spec, seed=player_seed, game=self.game)
            else:
                if callable(getattr(spec, "reset", None)):
                    spec.reset(player_seed)
                self.seats[seat] = spec
        self._over = False
        self._play_opponents()
        self._score = 0                         # the starting points count as gained in the first step
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        if action not in self.state.legal_actions():
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        self.state.apply(action)
        self._play_opponents()
        score = self.state.scores()[self.seat]
        terminated = self.state.is_terminal()
        reward = float(score - self._score) if self._scored else win_shares(self.state)[self.seat]
        self._score = score
        self._over = terminated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def _play_opponents(self) -> None:
        while not self.state.is_terminal() and self.state.current_player != self.seat:
            player = self.seats[self.state.current_player]
            self.state.apply(int(player.choose(self.state)))

    def _observation(self) -> np.ndarray:
        return self.encoder.tensor(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if not self.state.is_terminal():
            mask[self.state.legal_actions()] = 1
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat}
        if self.state.is_terminal():
            info["scores"] = self.state.scores()
            info["winner"] = self.state.winner()
            info["ranks"] = self.state.ranks()
        return info

    def action_masks(self) -> np.ndarray:
        """The legal-action mask as booleans (the method name sb3-contrib's MaskablePPO looks for)."""
        mask: np.ndarray = self._info()["action_mask"].astype(bool)
        return mask

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = self.game.render(self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _register() -> None:
    """Registers ``borabora_sim/<Title>-v0``, GameEnv with ``game=<name>``, for every game with an encoder."""
    for name in encoded_games():
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(id=env_id(name), entry_point=f"{__name__}:GameEnv", kwargs={"game": name})


_register()


__all__ = ["GameEnv", "env_id"]
