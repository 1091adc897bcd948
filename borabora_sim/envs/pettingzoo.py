"""The library's games as PettingZoo AEC environments: every registered game with an observation encoder, named
``<name>_v0``: ``env(game=<spec>, **options)``, the game ``borabora_sim.games.DEFAULT_GAME`` when none is named.

Agents ``player_0`` .. ``player_{n-1}`` are the seats that decide (a game's parts that never decide are not
agents). Observations are ``{"observation": float32 tensor, "action_mask": int8}`` (the tensor of the game's
encoder, ``borabora_sim.envs.encoders``; the mask is all zeros except for the agent to move). Actions are the
engine's action ids (``Discrete(game.num_actions)``).

Rewards: with ``reward="win"`` (default) the winner gets +1 when the game ends and everyone else 0; when a victory
is shared each of the *k* winners gets 1/*k*. With ``reward="score"`` (also named by the game's score unit,
``Encoder.score_unit``) every agent receives, after each step, the points it gained (or lost) in that step (the
first step also hands out the starting points), so an episode's return is the agent's final score.

``env()`` adds PettingZoo's standard wrappers (an illegal action ends the game with -1 for the agent that made it);
``raw_env`` is the bare environment, on which an illegal action raises ``IllegalActionError``.

>>> from borabora_sim.envs.encoders import encoded_games
>>> from borabora_sim.envs.pettingzoo import env
>>> e = env(players=2)
>>> e.reset(seed=1)
>>> obs, reward, termination, truncation, info = e.last()
>>> obs["action_mask"].dtype.name
'int8'
>>> all(env(game=name, players=3).metadata["name"] == f"{name}_v0" for name in encoded_games())
True
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "borabora_sim.envs.pettingzoo needs PettingZoo and Gymnasium: pip install 'borabora_sim[rl]'"
    ) from exc

from borabora_sim.component_files import ComponentSource
from borabora_sim.envs import encoders
from borabora_sim.envs.encoders import encoder_for, resolve_game
from borabora_sim.errors import check_players
from borabora_sim.games import DEFAULT_GAME
from borabora_sim.kits.encoding import win_shares


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (illegal actions end the game; out-of-range actions and calls out of order raise);
    arguments as for ``raw_env``."""
    environment: AECEnv = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """The bare AEC environment. Arguments: ``players`` (one of the game's player counts), ``reward`` ("win",
    "score" or the game's unit), ``render_mode`` ("ansi" returns the text board of the agent to move, "human"
    prints it), ``components`` (component data), ``game`` (a game spec, its name and options, or a game object;
    default ``borabora_sim.games.DEFAULT_GAME``) and the game's options as keywords. ``metadata["name"]`` is
    ``<game>_v0``, the class's that of the default game."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": f"{DEFAULT_GAME}_v0", "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(self, players: int = 4, reward: str = "win", render_mode: str | None = None,
                 components: ComponentSource = None, game: Any = DEFAULT_GAME, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}; got {render_mode!r}")
        self.game = resolve_game(game, components, options)
        self.encoder = encoder_for(self.game)
        # pettingzoo reads the metadata of the environment, where each names its game
        self.metadata = {**type(self).metadata, "name": f"{self.game.name}_v0"}  # type: ignore[misc]
        self.players = check_players(players, tuple(self.game.player_counts))
        self.reward_kind = reward
        self._scored = encoders.check_reward(reward, self.encoder) == "score"
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        n_actions = self.game.num_actions
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=self.encoder.low, high=self.encoder.high, shape=(self.encoder.size,),
                                          dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(n_actions) for agent in self.possible_agents}
        self._rng = np.random.default_rng()
        self.game_state: Any = None

    # ---- spaces -------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---- the AEC API ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; the same `seed` deals the same game (None continues this environment's seed stream)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_state = self.game.new_initial_state(self.players, int(self._rng.integers(2**63)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._scores = [0] * self.players        # the starting points count as gained in the first step
        self.agent_selection = self.possible_agents[self.game_state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if not self.game_state.is_terminal() and self.game_state.current_player == seat:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.encoder.tensor(self.game_state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is still playing: step needs an action, got None")
        self._cumulative_rewards[agent] = 0.0
        self.game_state.apply(int(action))
        scores = self.game_state.scores()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._scored:
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = float(scores[seat] - self._scores[seat])
        self._scores = scores
        if self.game_state.is_terminal():
            if not self._scored:
                for name, share in zip(self.possible_agents, win_shares(self.game_state), strict=True):
                    self.rewards[name] = share
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None or self.game_state is None:
            return None
        seat = self.possible_agents.index(self.agent_selection)
        text = self.game.render(self.game_state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


__all__ = ["env", "raw_env"]
