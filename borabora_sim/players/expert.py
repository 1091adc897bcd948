"""The expert player: the move the game's policy-and-value network rates best, in one pass, with no search
(docs/expert.md). The network reads only what the player can see (its own hand, the public board)."""

from __future__ import annotations

from dataclasses import dataclass

from borabora_sim import _search
from borabora_sim.network import network_model
from borabora_sim.players.base import Param, SeededPlayer, ValuedKindChoices, check_top
from borabora_sim.protocol import Game, GameState


@dataclass(frozen=True)
class PolicyOption:
    """One legal action of the last decision with the probability the network's policy gave it."""

    action: int
    name: str
    probability: float


class ExpertPlayer(ValuedKindChoices, SeededPlayer):
    """The legal action with the highest probability under the game's network (its shipped one, or the one in
    `network`); equal ones are told apart by the player's own random stream. A setting per action kind
    (`fishing=never|prefer`) works as for the search players, on probabilities."""

    name = "expert"

    @classmethod
    def params(cls, game: Game) -> dict[str, Param]:
        return {"network": Param(str, "a network file (.npz) instead of the game's own"), **cls.kind_params(game)}

    def __init__(self, seed: int | None = None, game: Game | None = None, network: str | None = None,
                 **kinds: object) -> None:
        super().__init__(seed, game, {"network": network}, kinds)

    def _configure(self, game: Game, network: str | None, **kinds: object) -> None:
        self._set_kinds(game, kinds)
        self.model = network_model(game, network)
        if self.model.num_actions == 0:
            raise ValueError(f"the network {network} has no policy head: the expert player needs one")
        self.network = network

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.last_options: list[PolicyOption] = []
        self.last_action: int | None = None

    def policy(self, state: GameState, seed: int = 0) -> list[PolicyOption]:
        """Every legal action with the policy's probability of it, most likely first, judged on the determinization
        `seed` of what the player cannot see."""
        self.bind(state)
        options = [PolicyOption(a, state.action_to_string(a), p)
                   for a, p in _search.policy(state.search_handles(), self.model, seed)]
        return sorted(options, key=lambda option: -option.probability)

    def _choose(self, state: GameState) -> int:
        legal = state.legal_actions()
        allowed, _ = self._without_avoided(legal)
        if len(allowed) == 1:
            self.last_options, self.last_action = [], allowed[0]
            return allowed[0]
        options = [o for o in self.policy(state, self.next_seed()) if o.action in allowed]
        best = [o for o in options if o.probability == options[0].probability]
        chosen = best[self._rng.randrange(len(best))] if len(best) > 1 else best[0]
        preferred = self._preferred([(chosen.action, chosen.probability)]
                                    + [(o.action, o.probability) for o in options])
        if preferred is not None:
            chosen = options[preferred - 1]
        self.last_options, self.last_action = options, chosen.action
        return chosen.action

    def explain(self, top: int = 10) -> str:
        """The last decision: the chosen action and the `top` options with the policy's probability of each."""
        check_top(top)
        if self.last_action is None:
            return "no decision yet"
        if not self.last_options:
            return f"{self.spec()}: played the only legal action"
        chosen = next(o for o in self.last_options if o.action == self.last_action)
        lines = [f"{self.spec()}: chose {chosen.name} (policy {chosen.probability:.1%}) among "
                 f"{len(self.last_options)} legal action(s), each rated by the network in one pass"]
        shown = self.last_options[:top]
        if chosen not in shown:
            shown = [*shown[:top - 1], chosen]
        lines += [f"  {o.name:<40} policy {o.probability:6.1%}" + ("  chosen" if o.action == self.last_action
                                                                  else "") for o in shown]
        return "\n".join(lines)

    def spec(self) -> str:
        options = [f"network={self.network}"] if self.network else []
        options += [f"{kind}={setting}" for kind, setting in self.kind_settings.items() if setting != "normal"]
        return self.name + (":" + ",".join(options) if options else "")


__all__ = ["ExpertPlayer"]
