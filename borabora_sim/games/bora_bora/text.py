"""A readable text picture of Bora Bora as one player sees it (the terminal game, `borabora play`), in the game's
words. Every line says what it is about on its own ("Seat 1 tasks: ..."), so that the terminal game can show only
the lines that changed since the player's last look."""

from __future__ import annotations

from borabora_sim import _engine
from borabora_sim.games.bora_bora import words as W
from borabora_sim.games.bora_bora.components import GOD_COLOURS, MATERIALS, SEXES

NO_TILE = 255
NO_DIE = 7
CEREMONY = ("·", "M", "B")       # empty, material, building


def render(state: _engine.State, viewer: int | None) -> str:
    """The board as `viewer` sees it: scores, tracks, displays, every player's board, own God cards only."""
    c = state.components
    obs = state.observation(viewer)
    order = ", ".join(f"seat {seat}" for seat in state.turn_order)
    lines = [f"{W.describe_phase(state)}; turn order {order}; "
             + ("an onlooker's view" if viewer is None else f"you are seat {viewer}")]
    lines.append("Victory points: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(state.scores())))
    temple = " ".join("·" if seat < 0 else str(seat) for seat in obs["temple"])
    values = " ".join(str(int(v)) for v in c.temple_values)
    lines.append(f"Temple (priests by seat on spaces of value {values}): {temple}; God tiles left "
                 f"{obs['temple_god_tiles']}")
    tiles = [f"{name} {'-' if obs['tile_low'][slot] == NO_DIE else obs['tile_low'][slot]}"
             for slot, name in W.action_tiles(obs["n_players"])]
    lines.append("Lowest die on each action tile: " + ", ".join(tiles))
    for sex in range(2):
        shown = [f"{i + 1}: {W.tile_face(c, t)}"
                 for i, t in enumerate(obs["person_display"][sex]) if t != NO_TILE]
        lines.append(f"{SEXES[sex].capitalize()} tiles on display: " + ("; ".join(shown) or "none"))
    tasks = [f"{i + 1}: {W.task_words(c, t)}" for i, t in enumerate(obs["task_display"]) if t != NO_TILE]
    lines.append("Tasks on display: " + ("; ".join(tasks) or "none"))
    if not state.is_terminal():
        column = obs["jewelry_display"][obs["round"] - 1]
        jewels = [f"row {j + 1}: {W.jewelry_words(c, t)}" for j, t in enumerate(column) if t != NO_TILE]
        lines.append(f"Jewelry of round {obs['round']}: " + ("; ".join(jewels) or "none"))
    display = [GOD_COLOURS[t] if t != NO_TILE else "-" for t in obs["god_display"]]
    lines.append(f"God cards face up: {', '.join(display)}; draw pile {obs['god_deck']}")
    for seat, p in enumerate(obs["pl"]):
        who = f"Seat {seat}" + (" (you)" if seat == viewer else "")
        regions = [W.region_name(c, r) for r in range(len(c.region_ids)) if p["regions"] >> r & 1]
        persons = [W.person_words(c, t) + (" shifted down" if p["shifted"] >> i & 1 else "")
                   for i, t in enumerate(p["persons"][:p["n_persons"]])]
        if p["hand"] is None:
            hand = f"{p['hand_size']} hidden"
        else:
            hand = ", ".join(f"{GOD_COLOURS[k]} {n}" for k, n in enumerate(p["hand"]) if n) or "none"
        dice = " ".join(str(d) for d in p["dice"] if d) or "none"
        ceremony = "".join(CEREMONY[v] for v in p["ceremony"])
        beside = ", ".join(f"{MATERIALS[m]} {n}" for m, n in enumerate(p["beside"]) if n)
        tasks = [f"{i + 1}: {W.task_words(c, t)}" for i, t in enumerate(p["tasks"]) if t != NO_TILE]
        lines.append(f"{who}: status {p['status']}, dice {dice}, offerings {p['offerings']}, shells {p['shells']}, "
                     f"God tiles {p['god_tiles']}, God cards {hand}")
        lines.append(f"Seat {seat} huts: {', '.join(regions) or 'none'}; {p['reg_huts']} on the board, "
                     f"{p['huts_12th']} on its 12th space")
        lines.append(f"Seat {seat} ceremony spaces (M material, B building): {ceremony}"
                     + (f"; beside the board: {beside}" if beside else ""))
        lines.append(f"Seat {seat} men and women: {'; '.join(persons) or 'none'}")
        lines.append(f"Seat {seat} tasks: {'; '.join(tasks) or 'none'}; {p['tasks_done']} done, "
                     f"{p['n_jewelry']} jewelry")
    return "\n".join(lines)


__all__ = ["render"]
