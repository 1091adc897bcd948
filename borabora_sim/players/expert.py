"""The expert player: the move the game's policy-and-value network rates best, in one pass, with no search
(docs/expert.md). The network reads only what the player can see (its own hand, the public board)."""

from __future__ import annotations

from borabora_sim import _search
from borabora_sim.players.base import OptionRatingPlayer, Param, RatedOption
from borabora_sim.players.models import load_network_for
from borabora_sim.protocol import Game, GameState, search_handles

# How likely, against the best move, a move of a preferred kind must be for `prefer` to take it. An additive margin of
# probability would almost never move a confident policy's choice; taking the kind's move whenever legal would make
# `prefer` a different game (Bora Bora's expert fishing at every turn scores about 41 VP).
PREFER_SHARE = 0.25


class ExpertPlayer(OptionRatingPlayer):
    """The legal action with the highest probability under the game's network (its shipped one, or the one in
    `network`); equal ones are told apart by the player's own random stream. A setting per action kind
    (`fishing=never|prefer`) works as for the search players, except that a probability is a preference, not a
    win chance: `prefer` takes the kind's most likely move when it is at least PREFER_SHARE as likely as the best,
    as if the kind's logits were raised by ln(1 / PREFER_SHARE)."""

    name = "expert"
    choice_rule = "the network's most likely move"
    value_column = "preference"
    legend = ("preference: the policy network's probability of picking the move, rated in one pass (a preference, "
              "not a win chance)")
    prefer_words = "at least a quarter as likely as {best}"

    @staticmethod
    def _near_best(value: float, best: float) -> bool:
        return value >= PREFER_SHARE * best

    @classmethod
    def params(cls, game: Game) -> dict[str, Param]:
        return {"network": Param(str, "a network file (.npz) instead of the game's own"), **cls.kind_params(game)}

    def __init__(self, seed: int | None = None, game: Game | None = None, network: str | None = None,
                 **kinds: object) -> None:
        super().__init__(seed, game, {"network": network}, kinds)

    def _configure(self, game: Game, network: str | None, **kinds: object) -> None:
        self._set_kinds(game, kinds)
        self.model = load_network_for(self, game, network)
        if self.model.num_actions == 0:
            raise ValueError(f"the network {network or f'{game.name} ships'} has no policy head: the expert player "
                             "needs one; give network=FILE with a network written by borabora train")
        self.network = network

    def policy(self, state: GameState, seed: int = 0) -> list[RatedOption]:
        """Every legal action with the policy's probability of it, most likely first, judged on the determinization
        `seed` of what the player cannot see."""
        self.bind(state)
        options = [RatedOption(a, state.action_to_string(a), p)
                   for a, p in _search.policy(search_handles(state), self.model, seed)]
        return sorted(options, key=lambda option: -option.value)

    def _rated_options(self, state: GameState) -> list[RatedOption]:
        return self.policy(state, self.next_seed())

    def spec(self) -> str:
        options = [f"network={self.network}"] if self.network else []
        options += [f"{kind}={setting}" for kind, setting in self.kind_settings.items() if setting != "normal"]
        return self.name + (":" + ",".join(options) if options else "")


__all__ = ["ExpertPlayer"]
