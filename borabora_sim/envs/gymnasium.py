"""Bora Bora as a single-agent Gymnasium environment: the learner takes one seat, players fill the others.

The opponents are player specs for ``borabora_sim.players.make_player`` (or player objects with ``choose(state)``),
one per other seat, in seat order after the learner's seat is removed; the number of players is
``len(opponents) + 1``. Observations are the learner's ``borabora_sim.envs.observation`` tensor; actions are the
engine's action ids; ``info["action_mask"]`` (int8) marks the legal ones.

Rewards: with ``reward="win"`` (default) 1 when the game ends with the learner the winner (after the engine's
tie-break), else 0; with ``reward="vp"`` the victory points the learner gained since its previous action (its own
action and the opponents' moves up to its next decision; the first step also counts the VP it had at reset), so an
episode's return is its final score. An illegal
action ends the episode with ``illegal_reward`` (default -1) and ``info["illegal_action"] = True``, leaving the
game unchanged.

>>> from borabora_sim.envs.gymnasium import BoraBoraEnv
>>> env = BoraBoraEnv(opponents=["heuristic", "random"], seat=0)
>>> obs, info = env.reset(seed=1)
>>> int(info["action_mask"].sum()) >= 2
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "borabora_sim.envs.gymnasium needs Gymnasium: pip install 'borabora_sim[rl]'"
    ) from exc

from borabora_sim.envs.observation import HIGH, LOW, SIZE, observation_tensor
from borabora_sim.game import NUM_ACTIONS, PLAYER_COUNTS, BoraBora, ComponentSource
from borabora_sim.players import make_player
from borabora_sim.render import render as render_text

ENV_ID = "borabora_sim/BoraBora-v0"
REWARDS = ("win", "vp")


class BoraBoraEnv(gymnasium.Env):
    """The learner's seat against `opponents`. Arguments: ``opponents`` (specs or players), ``seat`` (the learner's
    seat, or None for a random seat each episode), ``reward`` ("win" or "vp"), ``illegal_reward``, ``render_mode``
    ("ansi" returns the learner's text board, "human" prints it), ``components`` (component data)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, opponents: Sequence[Any] = ("heuristic", "heuristic", "heuristic"), seat: int | None = None,
                 reward: str = "win", illegal_reward: float = -1.0, render_mode: str | None = None,
                 components: ComponentSource = None) -> None:
        if isinstance(opponents, str):
            raise ValueError("opponents must be a list of player specs, one per other seat, e.g. ['heuristic']")
        self.opponents = list(opponents)
        self.players = len(self.opponents) + 1
        if self.players not in PLAYER_COUNTS:
            raise ValueError(f"opponents must fill 1 to 3 other seats (2-4 players); got {len(self.opponents)}")
        for spec in self.opponents:
            if isinstance(spec, str):
                make_player(spec)                      # reject a bad spec now, with make_player's message
            elif not callable(getattr(spec, "choose", None)):
                raise ValueError(f"an opponent must be a player spec or have choose(state); got {spec!r}")
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ValueError(f"seat must be None or in 0..{self.players - 1}; got {seat!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}; got {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}; got {render_mode!r}")
        self.fixed_seat = seat
        self.reward_kind = reward
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.game = BoraBora(components)
        self.observation_space = spaces.Box(low=LOW, high=HIGH, shape=(SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.state: Any = None
        self.seat = 0
        self.seats: dict[int, Any] = {}
        self._score = 0
        self._over = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
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
                self.seats[seat] = make_player(spec, seed=player_seed)
            else:
                if callable(getattr(spec, "reset", None)):
                    spec.reset(player_seed)
                self.seats[seat] = spec
        self._over = False
        self._play_opponents()
        self._score = 0                         # the starting VP count as gained in the first step
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
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
        if self.reward_kind == "vp":
            reward = float(score - self._score)
        else:
            reward = 1.0 if terminated and self.state.winner() == self.seat else 0.0
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
        return observation_tensor(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not self.state.is_terminal():
            mask[self.state.legal_actions()] = 1
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat}
        if self.state.is_terminal():
            info["scores"] = self.state.scores()
            info["winner"] = self.state.winner()
        return info

    def action_masks(self) -> np.ndarray:
        """The legal-action mask as booleans (the method name sb3-contrib's MaskablePPO looks for)."""
        return self._info()["action_mask"].astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = render_text(self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="borabora_sim.envs.gymnasium:BoraBoraEnv")
