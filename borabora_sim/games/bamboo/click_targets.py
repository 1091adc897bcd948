"""Which things of Bamboo's picture a click on which picks each legal action in the browser game
(with the rules of borabora_sim.kits.click_targets)."""

from __future__ import annotations

from collections.abc import Sequence

from borabora_sim.games.bamboo.components import ACTIONS
from borabora_sim.games.bamboo.picture import NO_TILE, shoot_name
from borabora_sim.kits.click_targets import Rule, Target, by_name
from borabora_sim.protocol import GameState


def click_targets(state: GameState, actions: Sequence[int]) -> dict[int, list[Target]]:
    """The shoots are found from the mover's observation: the draft pool, the shoots still to place and the new
    shoots on the stalks (an activation picks the new shoots that show its action, a Wildcard's any Wildcard,
    or after Kitsune any new shoot)."""
    seat = state.current_player
    view = state.observation(seat)           # type: ignore[attr-defined]

    def shoots(place: str, kind: str) -> list[Target]:
        """The shoots of that kind ("C2-cook") among the draft pool ("draft") or the shoots to place."""
        return [["data-shoot", f"{place}-{i + 1}"] for i, k in enumerate(view[place.replace("-", "_")])
                if k != NO_TILE and shoot_name(k) == kind]

    def new_shoots(icon: str | None) -> list[Target]:
        """The new shoots on the stalks that show `icon` (None: all of them)."""
        return [["data-shoot", f"stalk-{s + 1}-new-{i + 1}"] for s, stalk in enumerate(view["stalk_new"])
                for i, k in enumerate(stalk) if k != NO_TILE and icon in (None, ACTIONS[k % len(ACTIONS)])]

    rules: list[Rule] = [
        (r"shoot (\w+) (\w+)", lambda m: [*shoots("draft", f"{m[1]}-{m[2]}"),
                                          *shoots("to-place", f"{m[1]}-{m[2]}")]),
        (r"activate wildcard as (\w+)", lambda m: new_shoots(None if view["kitsune"] else "wildcard")),
        (r"activate (\w+)", lambda m: new_shoots(m[1])),
        (r"balance 1 HP", lambda m: [["data-hp-seat", str(seat)]]),
        (r"score (\w+) balance (\d)", lambda m: [["data-balance-slot", f"{seat}-{m[1]}-{m[2]}"]]),
        (r"improve 1 coin", lambda m: [["data-coins", str(seat)]]),
        (r"renew food", lambda m: [["data-food-pile", "1"]]),
        (r"done", lambda m: [["data-decision", None]]),
        (r"(?:visit|incense in) temple (\d)", lambda m: [["data-temple", m[1]]]),
        (r"stalk (\d)", lambda m: [["data-panel", f"stalk-{m[1]}"]]),
        (r"take (\w+)", lambda m: [["data-food-display", m[1]]]),
        (r"pay (\w+)", lambda m: [["data-player-food", f"{seat}-{m[1]}"]]),
        (r"buy home ([AB]) (\d)", lambda m: [["data-home-market", f"{m[1]}-{m[2]}"]]),
        (r"obtain (\w+) balance (\d)", lambda m: [["data-balance-market", f"{m[1]}-{m[2]}"]]),
        (r"gift (\w+)", lambda m: [["data-gift", m[1]]]),
        (r"home space (r\d+c\d+)", lambda m: [["data-home-space", f"{seat}-{m[1]}"]]),
        (r"keep shoot in area (\d)", lambda m: [["data-area", f"{seat}-{m[1]}"]]),
        (r"(?:wake|use) (\w+)", lambda m: [["data-player-spirit", f"{seat}-{m[1]}"]]),
    ]
    return by_name(state, actions, rules)


__all__ = ["click_targets"]
