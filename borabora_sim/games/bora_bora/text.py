"""A readable text picture of Bora Bora as one player sees it (the terminal game, `borabora play`)."""

from __future__ import annotations

from borabora_sim import _engine
from borabora_sim.games.bora_bora.components import (
    GOD_COLOURS,
    MATERIALS,
    PERSON_TYPES,
    SEXES,
    TASK_REQUIREMENT_KINDS,
    Components,
)

NO_TILE = 255
CEREMONY = ("·", "M", "B")       # empty, material, building


def _person(components: Components, tile: int) -> str:
    sex = SEXES[int(components.person_sex[tile])]
    return f"{sex} {PERSON_TYPES[int(components.person_type[tile])]} ({int(components.person_symbols[tile])})"


def _task(components: Components, task: int) -> str:
    parts = []
    for kind, count, param in zip(components.task_req_kind[task], components.task_req_count[task],
                                  components.task_req_param[task], strict=True):
        if kind >= 0:
            name = TASK_REQUIREMENT_KINDS[int(kind)]
            parts.append(f"{int(count)} {name}" + (f"[{int(param)}]" if param >= 0 else ""))
    return f"{components.task_ids[task]}: " + " + ".join(parts)


def render(state: _engine.State, viewer: int) -> str:
    """The board as `viewer` sees it: scores, tracks, displays, every player's board, own God cards only."""
    c = state.components
    obs = state.observation(viewer)
    lines = [f"Round {obs['round']}, phase {state.phase}; turn order {state.turn_order}; "
             f"you are seat {viewer}"]
    scores = state.scores()
    lines.append("VP: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(scores)))
    temple = ["·" if seat < 0 else str(seat) for seat in obs["temple"]]
    lines.append(f"Temple (values {list(map(int, c.temple_values))}): [{' '.join(temple)}]; "
                 f"God tiles left {obs['temple_god_tiles']}")
    lows = ["-" if v == 7 else str(v) for v in obs["tile_low"]]
    lines.append(f"Lowest die on action tiles (helper, temple, build, man, woman, land, water): {' '.join(lows)}")
    for sex in range(2):
        shown = [f"{i + 1}: {_person(c, t)}" for i, t in enumerate(obs["person_display"][sex]) if t != NO_TILE]
        lines.append(f"{SEXES[sex].capitalize()} display: " + "; ".join(shown))
    tasks = [f"{i + 1}: {_task(c, t)}" for i, t in enumerate(obs["task_display"]) if t != NO_TILE]
    lines.append("Task display: " + "; ".join(tasks))
    column = obs["jewelry_display"][obs["round"] - 1]
    jewels = [f"row {j + 1}: cost {int(c.jewelry_cost[t])} VP {int(c.jewelry_vp[t])}"
              for j, t in enumerate(column) if t != NO_TILE]
    lines.append("Jewelry this round: " + ("; ".join(jewels) or "none"))
    display = [GOD_COLOURS[t] if t != NO_TILE else "-" for t in obs["god_display"]]
    lines.append(f"God cards face up: {', '.join(display)}; draw pile {obs['god_deck']}")
    for seat, p in enumerate(obs["pl"]):
        me = " (you)" if seat == viewer else ""
        regions = [rid for r, rid in enumerate(c.region_ids) if p["regions"] >> r & 1]
        persons = [_person(c, t) + (" shifted" if p["shifted"] >> i & 1 else "")
                   for i, t in enumerate(p["persons"][:p["n_persons"]])]
        if p["hand"] is None:
            hand = f"{p['hand_size']} hidden"
        else:
            hand = ", ".join(f"{GOD_COLOURS[k]} {n}" for k, n in enumerate(p["hand"]) if n) or "none"
        ceremony = "".join(CEREMONY[v] for v in p["ceremony"])
        beside = ", ".join(f"{MATERIALS[m]} {n}" for m, n in enumerate(p["beside"]) if n)
        beside = f", beside {beside}" if beside else ""
        tasks = [_task(c, t) for t in p["tasks"] if t != NO_TILE]
        lines.append(f"-- seat {seat}{me}: status {p['status']}, dice {[d for d in p['dice'] if d]}, "
                     f"offerings {p['offerings']}, shells {p['shells']}, God tiles {p['god_tiles']}, "
                     f"God cards {hand}")
        lines.append(f"   huts on map: {', '.join(regions) or 'none'}; on board {p['reg_huts']} + "
                     f"{p['huts_12th']} on the 12th space; ceremony {ceremony}{beside}")
        lines.append(f"   persons: {'; '.join(persons) or 'none'}")
        lines.append(f"   tasks: {'; '.join(tasks)}; done {p['tasks_done']}, jewelry {p['n_jewelry']}")
    return "\n".join(lines)


__all__ = ["render"]
