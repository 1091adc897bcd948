"""A readable text picture of Bamboo as one player sees it (the terminal game, `borabora play`), in the game's
words. Every line says what it is about on its own ("Seat 1 home: ..."), so that the terminal game can show only the
lines that changed since the player's last look."""

from __future__ import annotations

from borabora_sim import _bamboo
from borabora_sim.games.bamboo import words as W
from borabora_sim.games.bamboo.components import ACTIONS, HOME_TYPES, SIDES

NO_TILE = 255


def render(state: _bamboo.State, viewer: int | None) -> str:
    """A Bamboo game as `viewer` sees it (its observation: no stack order, no hidden spirit): HP, coins, food,
    incense, temples, the reed field, the markets and every player's areas, home and balance tiles."""
    c = state.components
    obs = state.observation(viewer)

    def shoot(kind: int) -> str:
        """A shoot: its icon and the temple of its colour, "Cook (2)"."""
        return f"{W.ACTION_WORDS[ACTIONS[kind % len(ACTIONS)]]} ({kind // len(ACTIONS) + 1})"

    def home_tile(tile: int) -> str:
        return f"{HOME_TYPES[int(c.home_type[tile])]} {int(c.home_comfort[tile])}\u2665"

    if state.is_terminal():
        lines = ["Game over"]
    else:
        lines = [f"{W.describe_phase(state)}; seat {state.current_player} decides: {W.describe_decision(state)}"]
    for t in range(4):
        left = obs["spirit_left"][t]
        face_up = c.spirit_names[obs["spirit_stack"][t][left - 1]] if left else "none"
        sticks = [f"{'ghost' if seat == 4 else f'seat {seat}'} {n}" for seat, n in enumerate(obs["incense"][t]) if n]
        lines.append(f"Temple {t + 1}: spirit {face_up} ({left} left); incense {' '.join(sticks) or 'none'}")
    stalks = [", ".join(shoot(k) for k in obs["stalk"][s]) for s in range(4)]
    lines.append("Bamboo stalks, bottom first (shoot: icon and its temple): " + "; ".join(
        f"{s + 1}: {stalk}" for s, stalk in enumerate(stalks)))
    homes = [home_tile(t) + f" cost {int(c.home_cost[t])} HP {int(c.home_hp[t])}"
             for row in obs["home_market"] for t in row if t != NO_TILE]
    lines.append("Home market: " + "; ".join(homes))
    balance = [f"{SIDES[d]} {int(c.balance_hp[t])} HP" for d, row in enumerate(obs["bal_market"]) for t in row
               if t != NO_TILE]
    lines.append("Balance market: " + "; ".join(balance))
    food = ", ".join(f"{name} {n}" for name, n in zip(c.food_names, obs["food_display"], strict=True))
    lines.append(f"Food display: {food}")
    scores = state.scores()
    for seat, p in enumerate(obs["pl"]):
        me = " (you)" if seat == viewer else ""
        held = ", ".join(f"{name} {n}" for name, n in zip(c.food_names, p["food"], strict=True) if n) or "none"
        spirits = ", ".join(f"{name} {n - a}/{n}" for name, n, a in zip(c.spirit_names, p["spirits"], p["asleep"],
                                                                      strict=True) if n) or "none"
        lines.append(f"Seat {seat}{me}: {scores[seat]} HP, {p['coins']} coins, incense {p['incense']} "
                     f"(+{p['track']} due), food {held}, spirits awake/held {spirits}")
        areas = [f"{t + 1}: " + (", ".join(shoot(k) for k in area if k != NO_TILE) or "empty")
                 for t, area in enumerate(p["area"])]
        lines.append(f"Seat {seat} temple areas: {'; '.join(areas)}; last visit {p['last_visit'] + 1 or '-'}")
        home = " | ".join(" ".join(home_tile(t) if t != NO_TILE else "·" for t in p["home"][r * 5:r * 5 + 5])
                          for r in range(3))
        lines.append(f"Seat {seat} home (rows): {home}")
        tiles = [f"{SIDES[d]} {int(c.balance_hp[t])} HP" for d, row in enumerate(p["balance"]) for t in row
                 if t != NO_TILE]
        lines.append(f"Seat {seat} balance tiles: {', '.join(tiles) or 'none'}; {p['n_scored']} scored")
    return "\n".join(lines)


__all__ = ["render"]
