"""The search players' algorithms over the game protocol alone, for games written in Python
(borabora_sim.games.python_game), which have no compiled interface (`search_handles`). The same information-set
MCTS and flat Monte Carlo as the compiled ones (borabora_sim._search), with the same results: (iterations or
rollouts done, [(action, visits, mean reward)] in the order the search ranks them). Slower by two orders of
magnitude, and without what needs compiled parts: several threads, cut-off rollouts, networks.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from borabora_sim.protocol import Game, GameState


def _mix(seed: int, index: int) -> int:
    """A well-spread 64-bit seed from (seed, index): splitmix64's finaliser, as the compiled searches mix."""
    z = (seed + (index + 1) * 0x9E3779B97F4A7C15) & (2**64 - 1)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return z ^ (z >> 31)


@dataclass
class Rollout:
    """How a search finishes a game from a leaf and what it counts as the reward."""

    game: Game
    weights: np.ndarray | None          # the heuristic's weights when rollouts follow it, else None (random)
    margin: float                       # the weight of the normalised score margin in the reward

    def rewards(self, state: GameState, rng: random.Random) -> list[float]:
        """Plays `state` to its end and gives each seat's reward in [0, 1]."""
        while not state.is_terminal():
            if self.weights is not None:
                state.apply(self.game.heuristic_action(state, self.weights, rng.getrandbits(64), False))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
        shares = list(state.returns())                      # type: ignore[attr-defined]
        if self.margin > 0:
            scores = state.scores()
            low, high = min(scores), max(scores)
            spread = [(score - low) / (high - low) if high > low else 0.5 for score in scores]
            shares = [(1 - self.margin) * share + self.margin * part
                      for share, part in zip(shares, spread, strict=True)]
        return shares


@dataclass
class Node:
    mover: int = -1                     # who made the move into this node
    visits: int = 0
    total: float = 0.0                  # the mover's rewards added up
    available: int = 0                  # how often its move was legal when its parent was passed (ISMCTS)
    children: dict[int, Node] = field(default_factory=dict)


def _budget(iterations: int, seconds: float) -> tuple[int, float]:
    return (iterations, math.inf) if seconds <= 0 else (2**62, time.perf_counter() + seconds)


def run_mcts(state: GameState, player: int, rollout: Rollout, root_actions: Sequence[int], iterations: int,
             seconds: float, c: float, seed: int) -> tuple[int, list[tuple[int, int, float]]]:
    """Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) for `player` from `state`, the
    root restricted to `root_actions`: UCB over availability counts, one node expanded an iteration."""
    rng = random.Random(seed)
    root = Node()
    allowed = set(root_actions)
    most, deadline = _budget(iterations, seconds)
    done = 0
    while done < most and (done == 0 or time.perf_counter() < deadline):
        world = state.determinize(player, _mix(seed, done))
        node, path = root, [root]
        while not world.is_terminal():
            legal = [a for a in world.legal_actions() if node is not root or a in allowed]
            for action in legal:
                if action in node.children:
                    node.children[action].available += 1
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                node.children[action] = Node(mover=world.current_player, available=1)
            else:
                action = max(legal, key=lambda a: _ucb(node.children[a], c))
            node = node.children[action]
            world.apply(action)
            path.append(node)
            if node.visits == 0:
                break
        reward = rollout.rewards(world, rng)
        for visited in path[1:]:
            visited.visits += 1
            visited.total += reward[visited.mover]
        done += 1
    stats = [(action, child.visits, child.total / max(1, child.visits)) for action, child in root.children.items()]
    stats.sort(key=lambda s: (-s[1], -s[2], s[0]))
    return done, stats


def _ucb(node: Node, c: float) -> float:
    return node.total / node.visits + c * math.sqrt(math.log(max(1, node.available)) / node.visits)


def run_flat_mc(state: GameState, player: int, rollout: Rollout, actions: Sequence[int], rollouts: int,
                seed: int) -> tuple[int, list[tuple[int, int, float]]]:
    """Flat Monte Carlo: every action judged by the same `rollouts` paired determinizations and rollouts."""
    totals = dict.fromkeys(actions, 0.0)
    for k in range(rollouts):
        world = state.determinize(player, _mix(seed, k))
        for action in actions:
            trial = world.clone()
            trial.apply(action)
            totals[action] += rollout.rewards(trial, random.Random(_mix(seed ^ 0x5BD1E995, k)))[player]
    stats = [(action, rollouts, totals[action] / max(1, rollouts)) for action in actions]
    stats.sort(key=lambda s: (-s[2], s[0]))
    return rollouts * len(actions), stats


__all__ = ["Rollout", "run_flat_mc", "run_mcts"]
