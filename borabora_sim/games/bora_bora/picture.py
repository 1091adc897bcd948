"""The picture of a Bora Bora state: the island map, the temple, the action tiles, the tracks, the displays and
every player's board, as an SVG tree.

Everything is drawn from `state.observation(viewer)` (the public view for viewer None) and the component tables,
so a hidden card is never in the picture of a seat that cannot see it, and an edited component file redraws the
map. Each drawn thing carries a data attribute naming it (data-region="C_NW", data-priest="2", ...), so that tests
and scripts can find it. The top-level children of the picture are panels (<g data-panel=...>), which the replay
viewer stores once for all the frames in which they do not change.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from textwrap import wrap
from typing import Any

from borabora_sim import _engine
from borabora_sim.games.bora_bora import layout as L
from borabora_sim.games.bora_bora import words as W
from borabora_sim.games.bora_bora.components import (
    GOD_COLOURS,
    MATERIALS,
    PERSON_TYPES,
    SEXES,
    TERRAINS,
    Components,
)
from borabora_sim.viewer import layout as S
from borabora_sim.viewer.svg import board_slots, label, panel, root, seat_chip, seat_text, sub, title

NO_TILE = 255
NO_DIE = 7                      # tile_low of an action tile without a die
CEREMONY_CONTENT = ("empty", "material", "building")


def draw(state: _engine.State, viewer: int | None = None) -> ET.Element:
    """The picture of `state` as `viewer` sees it (None: the public view)."""
    view = state.observation(viewer)
    c = state.components
    players = len(view["pl"])
    width = L.WIDTH
    height = L.BOARDS_TOP + L.BOARD_HEIGHT + 10
    svg = root(width, height, font_family=S.FONT, data_game="bora_bora", data_viewer=seat_text(viewer),
               data_players=players)
    sub(svg, "rect", x=0, y=0, width=width, height=height, fill=S.BACKGROUND, data_panel="background")
    _header(svg, state, viewer)
    _map(svg, c, view)
    _temple(svg, c, view)
    _action_tiles(svg, view)
    _status_track(svg, c, view)
    _score_track(svg, state, view)
    _persons(svg, c, view)
    _tasks(svg, c, view)
    _jewelry(svg, c, view)
    _gods(svg, view)
    for seat, (x, board_width) in enumerate(board_slots(width, L.BOARD_GAP, players)):
        _player_board(svg, c, view, seat, x, board_width)
    return svg


# ---------------------------------------------------------------------------------------------------------------
# Shared pieces
# ---------------------------------------------------------------------------------------------------------------
def _die(parent: ET.Element, x: float, y: float, value: int, colour: str = "#ffffff", **data: object) -> None:
    """A die showing `value` with its pips, top-left corner at (x, y)."""
    group = sub(parent, "g", data_value=value, **data)
    sub(group, "rect", x=x, y=y, width=L.DIE, height=L.DIE, rx=4, fill=colour, stroke="#333333")
    pip = "#ffffff" if colour != "#ffffff" else "#222222"
    for px, py in L.PIPS[value]:
        sub(group, "circle", cx=x + px * L.DIE, cy=y + py * L.DIE, r=2.2, fill=pip)


def _hut(parent: ET.Element, x: float, y: float, seat: int, **data: object) -> None:
    """A hut in the seat's colour, centred on (x, y)."""
    points = [(x - 8, y + 7), (x - 8, y - 1), (x, y - 9), (x + 8, y - 1), (x + 8, y + 7)]
    sub(parent, "polygon", points=" ".join(f"{px:g},{py:g}" for px, py in points), fill=S.SEAT_COLOURS[seat],
        stroke="#222222", data_seat=seat, **data)


def _person_label(c: Components, tile: int) -> str:
    return L.PERSON_LABELS[int(c.person_type[tile])]


def _person_tile(parent: ET.Element, c: Components, tile: int, x: float, y: float, w: float, h: float,
                 shifted: bool = False, **data: object) -> None:
    """A man / woman tile: its type and its printed symbols (status symbols or shells)."""
    sex = SEXES[int(c.person_sex[tile])]
    group = sub(parent, "g", data_tile=tile, data_sex=sex, data_type=PERSON_TYPES[int(c.person_type[tile])],
                data_shifted=int(shifted) if shifted else None, **data)
    sub(group, "rect", x=x, y=y, width=w, height=h, rx=3, fill=L.SEX_COLOURS[sex], stroke="#555555",
        stroke_dasharray="3 2" if shifted else None, opacity=0.55 if shifted else None)
    label(group, x + w / 2, y + h * 0.45, _person_label(c, tile), size=min(9.0, w / 5.5), anchor="middle")
    symbol = "status" if sex == "man" else "shell"
    label(group, x + w / 2, y + h * 0.85, f"{int(c.person_symbols[tile])} {symbol}", size=min(8.0, w / 6.5),
          anchor="middle", fill=S.MUTED)
    title(group, W.person_words(c, tile) + (" (shifted down)" if shifted else ""))


def requirement_text(c: Components, task: int) -> list[str]:
    """A task's requirements in the game's words, one per requirement ("huts in 3 mountain regions")."""
    return W.requirement_words(c, task)


def _task_tile(parent: ET.Element, c: Components, task: int, x: float, y: float, w: float, h: float,
               **data: object) -> None:
    """A task tile: its id and its requirements, wrapped to the tile's width."""
    crane = bool(c.task_crane[task])
    group = sub(parent, "g", data_task=c.task_ids[task], data_crane=int(crane) if crane else None, **data)
    sub(group, "rect", x=x, y=y, width=w, height=h, rx=3, fill=L.CRANE_TASK_FILL if crane else L.TASK_FILL,
        stroke="#6b8a4a")
    label(group, x + 4, y + 11, c.task_ids[task], size=9, font_weight="bold")
    requirements = requirement_text(c, task)
    lines = [line for part in requirements for line in wrap(part, max(8, int(w / 4.6)))]
    for i, line in enumerate(lines[: int((h - 14) // 9)]):
        label(group, x + 4, y + 21 + 9 * i, line, size=7.5)
    title(group, f"{c.task_ids[task]}: {' + '.join(requirements)}")


# ---------------------------------------------------------------------------------------------------------------
# Header
# ---------------------------------------------------------------------------------------------------------------
def _header(svg: ET.Element, state: _engine.State, viewer: int | None) -> None:
    group = sub(svg, "g", data_panel="header")
    if state.is_terminal():
        line = f"Bora Bora: game over, winner seat {state.winner()}"
    else:
        line = (f"Bora Bora: {W.describe_phase(state)}; seat {state.current_player} decides "
                f"({W.DECISION_WORDS.get(str(state.decision), str(state.decision))})")
    seen = "public view" if viewer is None else f"as seat {viewer} sees it"
    label(group, 12, 24, line, size=16, font_weight="bold", fill=S.TEXT, data_round=state.round,
          data_phase=state.phase, data_to_move=state.current_player,
          data_decision=None if state.is_terminal() else state.decision)
    label(group, L.WIDTH - 12, 24, seen, size=12, anchor="end", fill=S.MUTED)


# ---------------------------------------------------------------------------------------------------------------
# Map
# ---------------------------------------------------------------------------------------------------------------
def map_layout(c: Components) -> tuple[list[tuple[float, float]], list[tuple[float, float, float, float]]]:
    """Centres of the regions and bounding boxes (x0, y0, x1, y1) of the islands, in the map's own coordinates
    (origin at the centre of the first island). The first island of the file is in the middle, the others on a
    ring around it in file order, clockwise from the top; each island's regions sit on a grid in file order, rows
    along the ring (so two regions of the north island lie side by side, two of the east island one above the
    other)."""
    islands = len(c.island_names)
    members = [[r for r in range(len(c.region_ids)) if int(c.region_island[r]) == i] for i in range(islands)]

    def grid(count: int, upright: bool) -> list[tuple[float, float]]:
        across = math.ceil(math.sqrt(count))
        down = math.ceil(count / across)
        cells = [(k % across, k // across) for k in range(count)]
        if upright:
            across, down = down, across
            cells = [(row, col) for col, row in cells]
        return [((col - (across - 1) / 2) * L.REGION_STEP, (row - (down - 1) / 2) * L.REGION_STEP)
                for col, row in cells]

    def extent(offsets: list[tuple[float, float]]) -> float:
        return max(max(abs(dx), abs(dy)) for dx, dy in offsets) + L.REGION_RADIUS + L.ISLAND_PAD

    angles = [-math.pi / 2 + 2 * math.pi * k / max(1, islands - 1) for k in range(islands - 1)]
    offsets = [grid(len(members[0]), False)]
    offsets += [grid(len(members[i + 1]), abs(math.cos(a)) > abs(math.sin(a)) + 1e-9) for i, a in enumerate(angles)]
    ring = max([L.ISLAND_RING] + [extent(offsets[0]) + extent(o) + 8 for o in offsets[1:]])
    centres = [(0.0, 0.0)] + [(ring * math.cos(a), ring * math.sin(a)) for a in angles]
    positions: list[tuple[float, float]] = [(0.0, 0.0)] * len(c.region_ids)
    boxes = []
    for island, (cx, cy) in enumerate(centres):
        for region, (dx, dy) in zip(members[island], offsets[island], strict=True):
            positions[region] = (cx + dx, cy + dy)
        xs = [cx + dx for dx, _ in offsets[island]]
        ys = [cy + dy for _, dy in offsets[island]]
        pad = L.REGION_RADIUS + L.ISLAND_PAD
        boxes.append((min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad))
    return positions, boxes


def _hexagon(x: float, y: float, r: float) -> str:
    return " ".join(f"{x + r * math.cos(math.pi / 6 + k * math.pi / 3):.1f},"
                    f"{y + r * math.sin(math.pi / 6 + k * math.pi / 3):.1f}" for k in range(6))


def _map(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, w, h = L.MAP
    group = panel(svg, "map", L.MAP, "Islands")
    positions, boxes = map_layout(c)
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y1 = max(b[3] for b in boxes)
    inner_w, inner_h = w - 16, h - L.MAP_TITLE - 12
    scale = min(1.0, inner_w / (x1 - x0), inner_h / (y1 - y0))
    dx = x + 8 + (inner_w - (x1 - x0) * scale) / 2 - x0 * scale
    dy = y + L.MAP_TITLE + 6 + (inner_h - (y1 - y0) * scale) / 2 - y0 * scale
    sub(group, "rect", x=x + 6, y=y + L.MAP_TITLE + 2, width=w - 12, height=h - L.MAP_TITLE - 8, rx=4, fill=L.SEA)
    transform = f"translate({dx:.1f} {dy:.1f}) scale({scale:.3f})"
    board = sub(group, "g", transform=transform)
    for name, (bx0, by0, bx1, by1) in zip(c.island_names, boxes, strict=True):
        sub(board, "rect", x=bx0, y=by0, width=bx1 - bx0, height=by1 - by0, rx=26, fill=L.ISLAND_FILL,
            stroke="#c9b47a", data_island=name)
    paths = _paths(c)
    for a, b, kind, _, shift in paths:
        (ax, ay), (bx, by) = _shifted(positions[a], positions[b], shift)
        sub(board, "line", x1=ax, y1=ay, x2=bx, y2=by, stroke=L.LAND_PATH if kind == "land" else L.WATER_PATH,
            stroke_width=4, stroke_dasharray=None if kind == "land" else "9 5", stroke_linecap="round")
    owners = view["region_owner"]
    for r, rid in enumerate(c.region_ids):
        rx, ry = positions[r]
        terrain = TERRAINS[int(c.region_terrain[r])]
        region = sub(board, "g", data_region=rid, data_island=c.island_names[int(c.region_island[r])],
                     data_terrain=terrain)
        sub(region, "polygon", points=_hexagon(rx, ry, L.REGION_RADIUS), fill=L.TERRAIN_COLOURS[terrain],
            stroke="#5b4a2a", stroke_width=1.5)
        name = W.region_name(c, r)
        label(region, rx, ry - 20, name, size=9, anchor="middle", font_weight="bold")
        resource = ("sand", "stone", "wood", "offering")[int(c.region_resource[r])]
        label(region, rx, ry + 30, resource, size=8, anchor="middle", fill="#333333")
        title(region, f"{name}: {terrain}, {resource}")
        sub(region, "circle", cx=rx - 12, cy=ry + 4, r=11, fill=L.BUILDING_SPACE, stroke="#5b4a2a",
            data_building_space=rid)
        tile = view["fish_at"][r]
        fish_type = c.fish_type_names[int(c.fish_type[tile])]
        fish = sub(region, "g", data_fish=rid, data_value=int(c.fish_value[tile]), data_type=fish_type)
        sub(fish, "rect", x=rx + 3, y=ry - 8, width=22, height=22, rx=5, fill=L.FISH_FILL, stroke="#2f6fb0")
        label(fish, rx + 14, ry + 5, int(c.fish_value[tile]), size=11, anchor="middle", font_weight="bold",
              fill="#2f6fb0")
        label(fish, rx + 14, ry + 12.5, fish_type, size=6.5, anchor="middle", fill="#2f6fb0")
    for a, b, kind, value, shift in paths:
        (ax, ay), (bx, by) = _shifted(positions[a], positions[b], shift)
        colour = L.LAND_PATH if kind == "land" else L.WATER_PATH
        path = sub(board, "g", data_path=f"{c.region_ids[a]}-{c.region_ids[b]}", data_kind=kind, data_value=value)
        sub(path, "circle", cx=(ax + bx) / 2, cy=(ay + by) / 2, r=9, fill="#ffffff", stroke=colour, stroke_width=2)
        label(path, (ax + bx) / 2, (ay + by) / 2 + 4, value, size=11, anchor="middle", font_weight="bold",
              fill=colour)
    # The huts are a panel of their own: the map under them changes only at set-up.
    huts = sub(svg, "g", data_panel="huts", transform=transform)
    for r, rid in enumerate(c.region_ids):
        if owners[r] >= 0:
            rx, ry = positions[r]
            _hut(huts, rx - 12, ry + 4, owners[r], data_hut=rid)


def _paths(c: Components) -> list[tuple[int, int, str, int, float]]:
    """Every path once: its ends, kind, value and a sideways shift that keeps a land and a water path between
    the same two regions apart."""
    out = []
    n = len(c.region_ids)
    for a in range(n):
        for b in range(a + 1, n):
            both = c.land_path[a, b] > 0 and c.water_path[a, b] > 0
            for kind, table, shift in (("land", c.land_path, -7.0), ("water", c.water_path, 7.0)):
                if table[a, b] > 0:
                    out.append((a, b, kind, int(table[a, b]), shift if both else 0.0))
    return out


def _shifted(p: tuple[float, float], q: tuple[float, float], shift: float
             ) -> tuple[tuple[float, float], tuple[float, float]]:
    length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    nx, ny = -(q[1] - p[1]) / length * shift, (q[0] - p[0]) / length * shift
    return (p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny)


# ---------------------------------------------------------------------------------------------------------------
# Temple, action tiles, tracks
# ---------------------------------------------------------------------------------------------------------------
def _temple(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, w, _ = L.TEMPLE
    per_priest = int(c.temple_vp_by_round[view["round"] - 1])
    group = panel(svg, "temple", L.TEMPLE, f"Temple ({per_priest} VP per priest this round)")
    space = 50
    for t, (value, seat) in enumerate(zip(c.temple_values, view["temple"], strict=True)):
        sx = x + 12 + t * (space + 6)
        cell = sub(group, "g", data_temple_space=t, data_value=int(value))
        sub(cell, "rect", x=sx, y=y + 24, width=space, height=60, rx=4, fill="#efe6cf", stroke="#8f7a48")
        label(cell, sx + space / 2, y + 38, f"value {int(value)}", size=9, anchor="middle", fill=S.MUTED)
        if seat >= 0:
            seat_chip(cell, sx + space / 2, y + 60, seat, r=12, data_priest=t)
    gx = x + w - 70
    tiles = sub(group, "g", data_temple_god_tiles=view["temple_god_tiles"])
    sub(tiles, "rect", x=gx, y=y + 30, width=56, height=48, rx=6, fill="#d9c27a", stroke="#8f7a48")
    label(tiles, gx + 28, y + 50, "God tiles", size=9, anchor="middle")
    label(tiles, gx + 28, y + 69, view["temple_god_tiles"], size=15, anchor="middle", font_weight="bold")


def _action_tiles(svg: ET.Element, view: dict[str, Any]) -> None:
    x, y, _, _ = L.ACTION_TILES
    group = panel(svg, "action_tiles", L.ACTION_TILES, "Action tiles (lowest die on each)")
    tiles = [(slot, name) for slot, name in enumerate(L.ACTION_TILE_NAMES[len(view["pl"])]) if name is not None]
    dice = sub(svg, "g", data_panel="action_dice")     # apart from the tiles, which never change
    width = 44
    fishing = sub(group, "g", data_action_tile="fishing")
    sub(fishing, "rect", x=x + 10, y=y + 26, width=width, height=84, rx=5, fill="#cfe8f3", stroke="#2f6fb0")
    label(fishing, x + 10 + width / 2, y + 40, "fishing", size=9, anchor="middle")
    for k, (slot, name) in enumerate(tiles):
        tx = x + 10 + (k + 1) * (width + 4)
        tile = sub(group, "g", data_action_tile=name)
        sub(tile, "rect", x=tx, y=y + 26, width=width, height=84, rx=5, fill="#f1e2bd", stroke="#8f7a48")
        for i, part in enumerate(name.split("/")):
            label(tile, tx + width / 2, y + 40 + 10 * i, part + ("/" if i == 0 and "/" in name else ""), size=9,
                  anchor="middle")
        low = view["tile_low"][slot]
        if low != NO_DIE:
            _die(dice, tx + (width - L.DIE) / 2, y + 70, low, data_die=name)


def _status_track(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, _, _ = L.STATUS_TRACK
    group = panel(svg, "status_track", L.STATUS_TRACK, "Status track (space, VP in phase C)")
    cell = 24.5
    for s in range(len(c.status_vp)):
        sx = x + 8 + s * cell
        space = sub(group, "g", data_status_space=s)
        sub(space, "rect", x=sx, y=y + 24, width=cell - 2, height=30, rx=3, fill="#efe6cf", stroke="#8f7a48")
        label(space, sx + cell / 2 - 1, y + 37, s, size=9, anchor="middle", font_weight="bold")
        label(space, sx + cell / 2 - 1, y + 50, f"{int(c.status_vp[s])}VP", size=7, anchor="middle", fill=S.MUTED)
    markers = sub(svg, "g", data_panel="status_markers")     # apart from the track, which never changes
    stacks: dict[int, list[tuple[int, int]]] = {}
    for seat, p in enumerate(view["pl"]):
        stacks.setdefault(p["status"], []).append((p["status_stamp"], seat))
    for status, seats in stacks.items():
        for level, (_, seat) in enumerate(sorted(seats)):       # higher stamp: on top, drawn last
            sx = x + 8 + status * cell + cell / 2 - 1
            seat_chip(markers, sx, y + 66 + 14 * level, seat, r=7, data_status_seat=seat, data_status=status)


def _score_track(svg: ET.Element, state: _engine.State, view: dict[str, Any]) -> None:
    x, y, w, _ = L.SCORE_TRACK
    group = panel(svg, "score_track", L.SCORE_TRACK, "Victory points and turn order")
    scores = state.scores()
    top = max(50, *scores)
    for seat, score in enumerate(scores):
        by = y + 24 + seat * 15
        bar = sub(group, "g", data_score_seat=seat, data_vp=score)
        length = (w - 150) * score / top           # leaves room for the label and the turn order
        sub(bar, "rect", x=x + 30, y=by, width=length, height=11, fill=S.SEAT_COLOURS[seat])
        label(bar, x + 10, by + 10, f"s{seat}", size=9)
        label(bar, x + 36 + length, by + 10, f"{score} VP", size=9)
    order = [seat for seat in view["order"] if seat >= 0]
    ox = x + w - 60
    label(group, ox - 6, y + 33, "order", size=9, anchor="end", fill=S.MUTED)
    for position, seat in enumerate(order):
        seat_chip(group, ox + 12, y + 30 + position * 17, seat, r=7, data_turn_position=position + 1)


# ---------------------------------------------------------------------------------------------------------------
# Displays
# ---------------------------------------------------------------------------------------------------------------
def _persons(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, _, _ = L.PERSONS
    group = panel(svg, "persons", L.PERSONS, "Man and woman displays")
    w, h = 60, 64
    for sex, name in enumerate(SEXES):
        ry = y + 26 + sex * (h + 20)
        label(group, x + 8, ry + 12, name, size=10, font_weight="bold")
        label(group, x + 8, ry + 26, f"pile {view['person_pile'][sex]}", size=8, fill=S.MUTED,
              data_person_pile=name, data_count=view["person_pile"][sex])
        for position, tile in enumerate(view["person_display"][sex]):
            px = x + 60 + position * (w + 6)
            label(group, px + w / 2, ry - 2, position + 1, size=8, anchor="middle", fill=S.MUTED)
            if tile == NO_TILE:
                sub(group, "rect", x=px, y=ry, width=w, height=h, rx=3, fill="none", stroke="#cccccc",
                    stroke_dasharray="3 3")
                continue
            _person_tile(group, c, tile, px, ry, w, h, data_person_display=f"{name}-{position + 1}")


def _tasks(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, _, _ = L.TASKS
    group = panel(svg, "tasks", L.TASKS, f"Task display (pile {view['task_pile']})")
    w, h = 70, 84
    for position, task in enumerate(view["task_display"]):
        tx = x + 8 + position * (w + 4)
        if task == NO_TILE:
            sub(group, "rect", x=tx, y=y + 24, width=w, height=h, rx=3, fill="none", stroke="#cccccc",
                stroke_dasharray="3 3")
            continue
        _task_tile(group, c, task, tx, y + 24, w, h, data_task_display=position + 1)


def _jewelry(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, _, _ = L.JEWELRY
    group = panel(svg, "jewelry", L.JEWELRY, "Jewelry (rounds 1-6)")
    w, h = 38, 22
    for rnd, column in enumerate(view["jewelry_display"]):
        cx = x + 8 + rnd * (w + 3)
        current = rnd + 1 == view["round"]
        if current:
            sub(group, "rect", x=cx - 2, y=y + 20, width=w + 4, height=4 * (h + 2) + 16, rx=3, fill=L.CURRENT_COLUMN,
                data_current_round=rnd + 1)
        label(group, cx + w / 2, y + 30, f"r{rnd + 1}", size=8, anchor="middle", fill=S.MUTED)
        for row, tile in enumerate(column):
            if tile == NO_TILE:
                continue
            ty = y + 34 + row * (h + 2)
            kind = c.jewelry_kind_names[int(c.jewelry_kind[tile])]
            jewel = sub(group, "g", data_jewelry=f"{rnd + 1}-{row + 1}", data_tile=tile, data_kind=kind)
            sub(jewel, "rect", x=cx, y=ty, width=w, height=h, rx=3, fill=L.JEWELRY_FILL, stroke="#a88a4a")
            label(jewel, cx + w / 2, ty + 10, kind[:8], size=7, anchor="middle")
            label(jewel, cx + w / 2, ty + 19, f"{int(c.jewelry_cost[tile])}sh {int(c.jewelry_vp[tile])}VP", size=7,
                  anchor="middle", fill=S.MUTED)
            title(jewel, f"{kind}: costs {int(c.jewelry_cost[tile])} shells, {int(c.jewelry_vp[tile])} VP")


def _gods(svg: ET.Element, view: dict[str, Any]) -> None:
    x, y, _, _ = L.GODS
    group = panel(svg, "gods", L.GODS, "God cards")
    for position, colour in enumerate(view["god_display"]):
        gx = x + 8 + position * 36
        if colour == NO_TILE:
            continue
        name = GOD_COLOURS[colour]
        card = sub(group, "g", data_god_display=position + 1, data_colour=name)
        sub(card, "rect", x=gx, y=y + 24, width=32, height=44, rx=4, fill=L.GOD_COLOURS[name], stroke="#333333")
        label(card, gx + 16, y + 50, name, size=7, anchor="middle", fill="#222222" if name in ("white", "yellow")
              else "#ffffff")
    label(group, x + 8, y + 86, f"draw pile {view['god_deck']}", size=9, data_god_deck=view["god_deck"])
    label(group, x + 8, y + 102, "discard", size=9, fill=S.MUTED)
    for colour, count in enumerate(view["discard"]):
        name = GOD_COLOURS[colour]
        dx = x + 8 + colour * 36
        pile = sub(group, "g", data_god_discard=name, data_count=count)
        sub(pile, "rect", x=dx, y=y + 108, width=32, height=20, rx=3, fill=L.GOD_COLOURS[name], stroke="#333333")
        label(pile, dx + 16, y + 122, count, size=10, anchor="middle",
              fill="#222222" if name in ("white", "yellow") else "#ffffff")


# ---------------------------------------------------------------------------------------------------------------
# Player boards
# ---------------------------------------------------------------------------------------------------------------
def _player_board(svg: ET.Element, c: Components, view: dict[str, Any], seat: int, x: float, w: float) -> None:
    """The board of `seat`: its counts, dice and God cards, then its persons, ceremony grid and tasks."""
    p = view["pl"][seat]
    y = L.BOARDS_TOP
    group = sub(svg, "g", data_panel=f"player-{seat}", data_player=seat)
    sub(group, "rect", x=x, y=y, width=w, height=L.BOARD_HEIGHT, rx=6, fill=S.PANEL_FILL,
        stroke=S.SEAT_COLOURS[seat], stroke_width=2.5)
    sub(group, "rect", x=x, y=y, width=w, height=22, rx=6, fill=S.SEAT_COLOURS[seat])
    you = " (you)" if view["viewer"] == seat else ""
    priests = sum(1 for s in view["temple"] if s == seat)
    label(group, x + 8, y + 16, f"Seat {seat}{you}: {sum(p['vp'])} VP, status {p['status']}", size=12,
          font_weight="bold", fill=S.SEAT_TEXT[seat])
    # Dice still to place this round.
    label(group, x + 8, y + 42, "dice", size=9, fill=S.MUTED)
    for i, value in enumerate(p["dice"]):
        if value:
            _die(group, x + 40 + i * (L.DIE + 6), y + 27, value, colour=S.SEAT_COLOURS[seat],
                 data_player_die=f"{seat}-{i}")
    # Counts.
    counts = (("offerings", p["offerings"]), ("shells", p["shells"]), ("god tiles", p["god_tiles"]),
              ("priests", priests), ("tasks done", p["tasks_done"]), ("huts on board", p["reg_huts"]),
              ("huts on 12th", p["huts_12th"]))
    for i, (name, value) in enumerate(counts):
        cx = x + 8 + (i % 4) * (w - 16) / 4
        cy = y + 64 + (i // 4) * 14
        key = name.replace(" ", "_")
        label(group, cx, cy, f"{name} {value}", size=9, data_count=key, data_value=value,
              data_player_count=f"{seat}-{key}")
    # God cards: the hand only for its owner, otherwise its size and the cards seen taken face up.
    gy = y + 94
    if p["hand"] is not None:
        label(group, x + 8, gy + 11, "God cards", size=9, fill=S.MUTED)
        cards = [(GOD_COLOURS[k], n) for k, n in enumerate(p["hand"]) if n]
        for i, (name, n) in enumerate(cards):
            _god_chip(group, x + 64 + i * 34, gy, name, n, data_god_hand=f"{seat}-{name}")
    else:
        label(group, x + 8, gy + 11, f"God cards: {p['hand_size']} in hand; seen:", size=9, fill=S.MUTED,
              data_hand_size=p["hand_size"], data_hand_seat=seat)
        known = [(GOD_COLOURS[k], n) for k, n in enumerate(p["known"]) if n]
        for i, (name, n) in enumerate(known):
            _god_chip(group, x + 150 + i * 34, gy, name, n, data_god_known=f"{seat}-{name}")
    # Persons on the board; the ceremony grid, tasks and persons are panels of their own, so that the replay stores
    # them once for the many moves that change only the counts above.
    persons = sub(svg, "g", data_panel=f"player-{seat}-persons", data_player=seat)
    py = y + 116
    label(persons, x + 8, py + 10, f"persons ({p['n_persons']})", size=9, fill=S.MUTED)
    pw = (w - 16 - 5 * 3) / 6
    for i, tile in enumerate(p["persons"][: p["n_persons"]]):
        _person_tile(persons, c, tile, x + 8 + (i % 6) * (pw + 3), py + 14 + (i // 6) * 33, pw, 30,
                     shifted=bool(p["shifted"] >> i & 1), data_person_slot=f"{seat}-{i}")
    # Ceremony grid, buildings, materials beside the board.
    _ceremony(sub(svg, "g", data_panel=f"player-{seat}-ceremony", data_player=seat), c, p, seat, x + 8, y + 200)
    # Tasks held and jewelry bought.
    tasks = sub(svg, "g", data_panel=f"player-{seat}-tasks", data_player=seat)
    tx = x + 8 + c.ceremony_cols * 26 + 70
    tw = max(40.0, (x + w - 8 - tx - 2 * 3) / 3)
    label(tasks, tx, y + 210, "tasks", size=9, fill=S.MUTED)
    for i, task in enumerate(p["tasks"]):
        if task != NO_TILE:
            _task_tile(tasks, c, task, tx + i * (tw + 3), y + 214, tw, 84, data_player_task=f"{seat}-{i + 1}")
    jewels = [c.jewelry_kind_names[int(c.jewelry_kind[t])] for t in p["jewelry"][: p["n_jewelry"]]]
    jewelry = sub(tasks, "g", data_player_jewelry=seat, data_count=len(jewels))
    label(jewelry, tx, y + 316, f"jewelry: {', '.join(jewels) or 'none'}", size=9)


def _god_chip(parent: ET.Element, x: float, y: float, name: str, count: int, **data: object) -> None:
    chip = sub(parent, "g", data_colour=name, data_count=count, **data)
    sub(chip, "rect", x=x, y=y, width=30, height=16, rx=3, fill=L.GOD_COLOURS[name], stroke="#333333")
    label(chip, x + 15, y + 12, count, size=10, anchor="middle",
          fill="#222222" if name in ("white", "yellow") else "#ffffff")
    title(chip, f"{count} {name} God card{'s' if count != 1 else ''}")


def _ceremony(parent: ET.Element, c: Components, p: dict[str, Any], seat: int, x: float, y: float) -> None:
    """The ceremony grid (each space's material; a material on it, or a building over it), the building tiles
    (value; built or not) and the materials beside the board."""
    label(parent, x, y + 10, "ceremony", size=9, fill=S.MUTED)
    cell = 24
    for s, content in enumerate(p["ceremony"]):
        row, col = divmod(s, int(c.ceremony_cols))
        material = MATERIALS[int(c.ceremony_material[s])]
        sx, sy = x + col * (cell + 2), y + 14 + row * (cell + 2)
        space = sub(parent, "g", data_ceremony=f"{seat}-{s}", data_material=material,
                    data_content=CEREMONY_CONTENT[content])
        sub(space, "rect", x=sx, y=sy, width=cell, height=cell, rx=2, fill=L.MATERIAL_COLOURS[material],
            opacity=1 if content else 0.35, stroke="#555555")
        if content == 1:
            sub(space, "rect", x=sx + 6, y=sy + 6, width=12, height=12, fill=L.MATERIAL_COLOURS[material],
                stroke="#222222")
        elif content == 2:
            sub(space, "rect", x=sx + 2, y=sy + 2, width=cell - 4, height=cell - 4, fill="#5b3a1a", opacity=0.85)
            label(space, sx + cell / 2, sy + cell / 2 + 4, "B", size=11, anchor="middle", font_weight="bold",
                  fill="#ffffff")
    by = y + 18 + int(c.ceremony_rows) * (cell + 2)
    label(parent, x, by + 8, "buildings", size=9, fill=S.MUTED)
    for k, value in enumerate(c.building_values):
        built = bool(p["built"] >> k & 1)
        building = sub(parent, "g", data_building=f"{seat}-{k}", data_value=int(value), data_built=int(built))
        bx = x + k * 17
        sub(building, "rect", x=bx, y=by + 12, width=15, height=15, rx=2,
            fill="#5b3a1a" if built else "#ffffff", stroke="#5b3a1a")
        label(building, bx + 7.5, by + 23, int(value), size=9, anchor="middle",
              fill="#ffffff" if built else "#5b3a1a")
    beside = [(MATERIALS[m], n) for m, n in enumerate(p["beside"]) if n]
    text = ", ".join(f"{n} {m}" for m, n in beside) or "none"
    label(parent, x, by + 42, f"beside: {text}", size=9, data_beside=seat)


__all__ = ["draw", "map_layout"]
