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
from borabora_sim.kits import house_style as S
from borabora_sim.kits.svg import board_places, hit_area, label, panel, root, seat_chip, seat_text, sub, title

NO_TILE = 255
NO_DIE = 7                      # tile_low of an action tile without a die
CEREMONY_CONTENT = ("empty", "material", "building")


def draw(state: _engine.State, viewer: int | None = None) -> ET.Element:
    """The picture of `state` as `viewer` sees it (None: the public view)."""
    view = state.observation(viewer)
    c = state.components
    players = len(view["pl"])
    width = L.WIDTH
    places = board_places(width, L.BOARD_GAP, players, L.BOARDS_PER_ROW)
    rows = places[-1][1] + 1
    height = L.BOARDS_TOP + rows * (L.BOARD_HEIGHT + L.BOARD_GAP)
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
    for seat, (x, row, board_width) in enumerate(places):
        _player_board(svg, c, view, seat, x, L.BOARDS_TOP + row * (L.BOARD_HEIGHT + L.BOARD_GAP), board_width)
    return svg


# ---------------------------------------------------------------------------------------------------------------
# Shared pieces
# ---------------------------------------------------------------------------------------------------------------
def _die(parent: ET.Element, x: float, y: float, value: int, colour: str = "#ffffff", **data: object) -> None:
    """A die showing `value` with its pips, top-left corner at (x, y)."""
    group = sub(parent, "g", data_value=value, **data)
    sub(group, "rect", x=x, y=y, width=L.DIE, height=L.DIE, rx=5, fill=colour, stroke="#333333")
    pip = "#ffffff" if colour != "#ffffff" else "#222222"
    for px, py in L.PIPS[value]:
        sub(group, "circle", cx=x + px * L.DIE, cy=y + py * L.DIE, r=L.DIE / 10, fill=pip)


def _hut(parent: ET.Element, x: float, y: float, seat: int, size: float = 11, **data: object) -> None:
    """A hut in the seat's colour, centred on (x, y), `size` units from its centre to its sides."""
    points = [(x - size, y + size), (x - size, y - size * 0.1), (x, y - size), (x + size, y - size * 0.1),
              (x + size, y + size)]
    sub(parent, "polygon", points=" ".join(f"{px:.1f},{py:.1f}" for px, py in points), fill=S.SEAT_COLOURS[seat],
        stroke="#222222", data_seat=seat, **data)


def _person_label(c: Components, tile: int) -> str:
    return L.PERSON_LABELS[int(c.person_type[tile])]


def _person_tile(parent: ET.Element, c: Components, tile: int, x: float, y: float, w: float, h: float,
                 shifted: bool = False, **data: object) -> None:
    """A man / woman tile: its type and its printed symbols (status symbols or shells)."""
    sex = SEXES[int(c.person_sex[tile])]
    group = sub(parent, "g", data_tile=tile, data_sex=sex, data_type=PERSON_TYPES[int(c.person_type[tile])],
                data_shifted=int(shifted) if shifted else None, **data)
    sub(group, "rect", x=x, y=y, width=w, height=h, rx=4, fill=L.SEX_COLOURS[sex], stroke="#555555",
        stroke_dasharray="4 3" if shifted else None, opacity=0.55 if shifted else None)
    label(group, x + w / 2, y + h / 2 - 3, _person_label(c, tile), size=L.TEXT, anchor="middle")
    symbol = "status" if sex == "man" else "shell"
    label(group, x + w / 2, y + h / 2 + 14, f"{int(c.person_symbols[tile])} {symbol}", size=L.SMALL,
          anchor="middle", fill="#555555")
    title(group, W.person_words(c, tile) + (" (shifted down)" if shifted else ""))


def requirement_text(c: Components, task: int) -> list[str]:
    """A task's requirements in the game's words, one per requirement ("huts in 3 mountain regions")."""
    return W.requirement_words(c, task)


def _task_tile(parent: ET.Element, c: Components, task: int, x: float, y: float, w: float, h: float,
               **data: object) -> None:
    """A task tile: its requirements, wrapped to the tile's width (the whole text in its tooltip). The tiles carry
    no number in the box, so none is drawn (the data's id stays on the element for programs)."""
    crane = bool(c.task_crane[task])
    group = sub(parent, "g", data_task=c.task_ids[task], data_crane=int(crane) if crane else None, **data)
    sub(group, "rect", x=x, y=y, width=w, height=h, rx=4, fill=L.CRANE_TASK_FILL if crane else L.TASK_FILL,
        stroke="#6b8a4a")
    requirements = requirement_text(c, task)
    lines = [line for part in requirements for line in wrap(part, max(6, int((w - 10) / (L.SMALL * 0.57))))]
    for i, line in enumerate(lines[: int((h - 8) // 15)]):
        label(group, x + 6, y + 18 + 15 * i, line, size=L.SMALL, font_weight="bold" if i == 0 else None)
    title(group, f"Task: {' + '.join(requirements)}")


def _box(parent: ET.Element, x: float, y: float, w: float, h: float, text: str, size: float = L.TEXT,
         fill: str = "#f4efe0", **data: object) -> ET.Element:
    """A thing shown as a line of text in a light box (a count, a pile): a click target of its own."""
    group = sub(parent, "g", **data)
    sub(group, "rect", x=x, y=y, width=w, height=h, rx=4, fill=fill, stroke="#d8cca8")
    label(group, x + 7, y + h / 2 + size * 0.36, text, size=size)
    return group


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
    decides = sub(group, "g", data_round=state.round, data_phase=state.phase, data_to_move=state.current_player,
                  data_decision=None if state.is_terminal() else state.decision)
    hit_area(decides, 10, 10, min(len(line) * 11.5, L.WIDTH - 200), 30)
    label(decides, 12, 32, line, size=20, font_weight="bold", fill=S.TEXT)
    label(group, L.WIDTH - 12, 32, seen, size=L.TEXT, anchor="end", fill=S.MUTED)


# ---------------------------------------------------------------------------------------------------------------
# Map
# ---------------------------------------------------------------------------------------------------------------
def map_layout(c: Components) -> tuple[list[tuple[float, float]], list[tuple[float, float, float, float]]]:
    """Centres of the regions and bounding boxes (x0, y0, x1, y1) of the islands, in the map's own coordinates
    (origin at the centre of the first island). The first island of the file is in the middle, the others on a
    ring around it in file order, clockwise from the top, as close as leaves ISLAND_GAP of sea between it and
    each of them; each island's regions sit on a grid in file order, rows along the ring (so two regions of the
    north island lie side by side, two of the east island one above the other)."""
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

    pad = L.REGION_RADIUS + L.ISLAND_PAD

    def half(offsets: list[tuple[float, float]]) -> tuple[float, float]:
        """Half the width and half the height of an island's box."""
        return (max(abs(dx) for dx, _ in offsets) + pad, max(abs(dy) for _, dy in offsets) + pad)

    angles = [-math.pi / 2 + 2 * math.pi * k / max(1, islands - 1) for k in range(islands - 1)]
    offsets = [grid(len(members[0]), False)]
    offsets += [grid(len(members[i + 1]), abs(math.cos(a)) > abs(math.sin(a)) + 1e-9) for i, a in enumerate(angles)]
    middle_w, middle_h = half(offsets[0])

    def distance(angle: float, outer: list[tuple[float, float]]) -> float:
        """How far out an island goes so that its box is clear of the middle island's, across or up and down."""
        w, h = half(outer)
        across, down = abs(math.cos(angle)), abs(math.sin(angle))
        ways = [(middle_w + w + L.ISLAND_GAP) / across if across > 1e-9 else math.inf,
                (middle_h + h + L.ISLAND_GAP) / down if down > 1e-9 else math.inf]
        return min(ways)

    ring = max([L.ISLAND_RING] + [distance(a, o) for a, o in zip(angles, offsets[1:], strict=True)])
    centres = [(0.0, 0.0)] + [(ring * math.cos(a), ring * math.sin(a)) for a in angles]
    positions: list[tuple[float, float]] = [(0.0, 0.0)] * len(c.region_ids)
    boxes = []
    for island, (cx, cy) in enumerate(centres):
        for region, (dx, dy) in zip(members[island], offsets[island], strict=True):
            positions[region] = (cx + dx, cy + dy)
        xs = [cx + dx for dx, _ in offsets[island]]
        ys = [cy + dy for _, dy in offsets[island]]
        boxes.append((min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad))
    return positions, boxes


def _hexagon(x: float, y: float, r: float) -> str:
    return " ".join(f"{x + r * math.cos(math.pi / 6 + k * math.pi / 3):.1f},"
                    f"{y + r * math.sin(math.pi / 6 + k * math.pi / 3):.1f}" for k in range(6))


def _name_lines(name: str) -> list[str]:
    """A region's name on two lines where it is long ("Central" / "mountain")."""
    if len(name) <= 9 or " " not in name:
        return [name]
    first, rest = name.split(" ", 1)
    return [first, rest]


def _map(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, w, h = L.MAP
    group = panel(svg, "map", L.MAP, "Islands")
    positions, boxes = map_layout(c)
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y1 = max(b[3] for b in boxes)
    inner_w, inner_h = w - 16, h - L.MAP_TITLE - 12
    scale = min(inner_w / (x1 - x0), inner_h / (y1 - y0))
    dx = x + 8 + (inner_w - (x1 - x0) * scale) / 2 - x0 * scale
    dy = y + L.MAP_TITLE + 6 + (inner_h - (y1 - y0) * scale) / 2 - y0 * scale
    # A map scaled down (a component file with more regions) keeps its text at the least size, drawn larger.
    grow = max(1.0, 1.0 / scale)
    sub(group, "rect", x=x + 6, y=y + L.MAP_TITLE + 2, width=w - 12, height=h - L.MAP_TITLE - 8, rx=4, fill=L.SEA)
    transform = f"translate({dx:.1f} {dy:.1f}) scale({scale:.3f})"
    board = sub(group, "g", transform=transform)
    for name, (bx0, by0, bx1, by1) in zip(c.island_names, boxes, strict=True):
        sub(board, "rect", x=bx0, y=by0, width=bx1 - bx0, height=by1 - by0, rx=30, fill=L.ISLAND_FILL,
            stroke="#c9b47a", data_island=name)
    paths = _paths(c)
    for a, b, kind, _, shift in paths:
        (ax, ay), (bx, by) = _shifted(positions[a], positions[b], shift)
        sub(board, "line", x1=ax, y1=ay, x2=bx, y2=by, stroke=L.LAND_PATH if kind == "land" else L.WATER_PATH,
            stroke_width=5, stroke_dasharray=None if kind == "land" else "10 6", stroke_linecap="round")
    owners = view["region_owner"]
    for r, rid in enumerate(c.region_ids):
        rx, ry = positions[r]
        terrain = TERRAINS[int(c.region_terrain[r])]
        region = sub(board, "g", data_region=rid, data_island=c.island_names[int(c.region_island[r])],
                     data_terrain=terrain)
        sub(region, "polygon", points=_hexagon(rx, ry, L.REGION_RADIUS), fill=L.TERRAIN_COLOURS[terrain],
            stroke="#5b4a2a", stroke_width=1.5)
        name = W.region_name(c, r)
        lines = _name_lines(name)
        for i, line in enumerate(lines):
            label(region, rx, ry - 36 + 15 * i + (7 if len(lines) == 1 else 0), line, size=L.SMALL * grow,
                  anchor="middle", font_weight="bold")
        resource = ("sand", "stone", "wood", "offering")[int(c.region_resource[r])]
        label(region, rx, ry + 44, resource, size=L.SMALL * grow, anchor="middle", fill="#222222")
        title(region, f"{name}: {terrain}, {resource}")
        sub(region, "circle", cx=rx - 21, cy=ry + 8, r=15, fill=L.BUILDING_SPACE, stroke="#5b4a2a",
            data_building_space=rid)
        tile = view["fish_at"][r]
        fish_type = c.fish_type_names[int(c.fish_type[tile])]
        fish = sub(region, "g", data_fish=rid, data_value=int(c.fish_value[tile]), data_type=fish_type)
        sub(fish, "rect", x=rx + 2, y=ry - 11, width=36, height=38, rx=5, fill=L.FISH_FILL, stroke="#2f6fb0")
        label(fish, rx + 20, ry + 5, int(c.fish_value[tile]), size=L.BIG * grow, anchor="middle",
              font_weight="bold", fill="#2f6fb0")
        label(fish, rx + 20, ry + 22, fish_type, size=L.SMALL * grow, anchor="middle", fill="#2f6fb0")
    for a, b, kind, value, shift in paths:
        (ax, ay), (bx, by) = _shifted(positions[a], positions[b], shift)
        colour = L.LAND_PATH if kind == "land" else L.WATER_PATH
        path = sub(board, "g", data_path=f"{c.region_ids[a]}-{c.region_ids[b]}", data_kind=kind, data_value=value)
        sub(path, "circle", cx=(ax + bx) / 2, cy=(ay + by) / 2, r=12 * grow, fill="#ffffff", stroke=colour,
            stroke_width=2)
        label(path, (ax + bx) / 2, (ay + by) / 2 + 5 * grow, value, size=L.TEXT * grow, anchor="middle",
              font_weight="bold", fill=colour)
    # The huts are a panel of their own: the map under them changes only at set-up.
    huts = sub(svg, "g", data_panel="huts", transform=transform)
    for r, rid in enumerate(c.region_ids):
        if owners[r] >= 0:
            rx, ry = positions[r]
            _hut(huts, rx - 21, ry + 8, owners[r], data_hut=rid)


def _paths(c: Components) -> list[tuple[int, int, str, int, float]]:
    """Every path once: its ends, kind, value and a sideways shift that keeps a land and a water path between
    the same two regions apart."""
    out = []
    n = len(c.region_ids)
    for a in range(n):
        for b in range(a + 1, n):
            both = c.land_path[a, b] > 0 and c.water_path[a, b] > 0
            for kind, table, shift in (("land", c.land_path, -14.0), ("water", c.water_path, 14.0)):
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
    space, step = 78, 86
    for t, (value, seat) in enumerate(zip(c.temple_values, view["temple"], strict=True)):
        sx = x + 10 + t * step
        cell = sub(group, "g", data_temple_space=t, data_value=int(value))
        sub(cell, "rect", x=sx, y=y + 28, width=space, height=74, rx=5, fill="#efe6cf", stroke="#8f7a48")
        label(cell, sx + space / 2, y + 46, f"value {int(value)}", size=L.SMALL, anchor="middle", fill="#555555")
        if seat >= 0:
            seat_chip(cell, sx + space / 2, y + 74, seat, r=14, data_priest=t)
    gx = x + w - 130
    tiles = sub(group, "g", data_temple_god_tiles=view["temple_god_tiles"])
    sub(tiles, "rect", x=gx, y=y + 28, width=118, height=74, rx=6, fill="#d9c27a", stroke="#8f7a48")
    label(tiles, gx + 59, y + 50, "God tiles", size=L.TEXT, anchor="middle")
    label(tiles, gx + 59, y + 84, view["temple_god_tiles"], size=22, anchor="middle", font_weight="bold")


def _action_tiles(svg: ET.Element, view: dict[str, Any]) -> None:
    x, y, _, _ = L.ACTION_TILES
    group = panel(svg, "action_tiles", L.ACTION_TILES, "Action tiles (lowest die on each)")
    tiles = [(slot, name) for slot, name in enumerate(L.ACTION_TILE_NAMES[len(view["pl"])]) if name is not None]
    dice = sub(svg, "g", data_panel="action_dice")     # apart from the tiles, which never change
    width, step, top, high = 84, 90, y + 28, 94
    fishing = sub(group, "g", data_action_tile="fishing")
    sub(fishing, "rect", x=x + 10, y=top, width=width, height=high, rx=6, fill="#cfe8f3", stroke="#2f6fb0")
    label(fishing, x + 10 + width / 2, top + 20, "fishing", size=L.TEXT, anchor="middle")
    for k, (slot, name) in enumerate(tiles):
        tx = x + 10 + (k + 1) * step
        tile = sub(group, "g", data_action_tile=name)
        sub(tile, "rect", x=tx, y=top, width=width, height=high, rx=6, fill="#f1e2bd", stroke="#8f7a48")
        for i, part in enumerate(name.split("/")):
            label(tile, tx + width / 2, top + 20 + 16 * i, part + ("/" if i == 0 and "/" in name else ""),
                  size=L.TEXT, anchor="middle")
        low = view["tile_low"][slot]
        if low != NO_DIE:
            _die(dice, tx + (width - L.DIE) / 2, top + high - L.DIE - 8, low, data_die=name)


def _status_track(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, _, _ = L.STATUS_TRACK
    group = panel(svg, "status_track", L.STATUS_TRACK, "Status track (space, VP in phase C)")
    cell = 45
    for s in range(len(c.status_vp)):
        sx = x + 10 + s * cell
        space = sub(group, "g", data_status_space=s)
        sub(space, "rect", x=sx, y=y + 28, width=cell - 3, height=42, rx=4, fill="#efe6cf", stroke="#8f7a48")
        label(space, sx + (cell - 3) / 2, y + 46, s, size=L.TEXT, anchor="middle", font_weight="bold")
        label(space, sx + (cell - 3) / 2, y + 63, f"{int(c.status_vp[s])}VP", size=L.SMALL, anchor="middle",
              fill="#555555")
    markers = sub(svg, "g", data_panel="status_markers")     # apart from the track, which never changes
    stacks: dict[int, list[tuple[int, int]]] = {}
    for seat, p in enumerate(view["pl"]):
        stacks.setdefault(p["status"], []).append((p["status_stamp"], seat))
    for status, seats in stacks.items():
        for level, (_, seat) in enumerate(sorted(seats)):       # higher stamp: on top, drawn last
            cx = x + 10 + status * cell + (cell - 3) / 2
            seat_chip(markers, cx, y + 90 + 30 * level, seat, r=14, data_status_seat=seat, data_status=status)


def _score_track(svg: ET.Element, state: _engine.State, view: dict[str, Any]) -> None:
    x, y, w, _ = L.SCORE_TRACK
    group = panel(svg, "score_track", L.SCORE_TRACK, "Victory points and turn order")
    scores = state.scores()
    top = max(50, *scores)
    room = w - 230                                 # leaves room for the labels and the turn order
    for seat, score in enumerate(scores):
        by = y + 28 + seat * 30
        bar = sub(group, "g", data_score_seat=seat, data_vp=score)
        sub(bar, "rect", x=x + 8, y=by, width=room + 100, height=28, fill="#ffffff", fill_opacity=0)
        length = room * score / top
        label(bar, x + 12, by + 19, f"s{seat}", size=L.TEXT)
        sub(bar, "rect", x=x + 40, y=by + 6, width=length, height=16, fill=S.SEAT_COLOURS[seat])
        label(bar, x + 46 + length, by + 19, f"{score} VP", size=L.TEXT)
    order = [seat for seat in view["order"] if seat >= 0]
    ox = x + w - 40
    label(group, ox - 22, y + 47, "order", size=L.SMALL, anchor="end", fill="#555555")
    for position, seat in enumerate(order):
        seat_chip(group, ox, y + 42 + position * 30, seat, r=14, data_turn_position=position + 1)


# ---------------------------------------------------------------------------------------------------------------
# Displays
# ---------------------------------------------------------------------------------------------------------------
def _persons(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, _, _ = L.PERSONS
    group = panel(svg, "persons", L.PERSONS, "Man and woman displays")
    w, h, step = 96, 60, 102
    for sex, name in enumerate(SEXES):
        ry = y + 44 + sex * (h + 24)
        label(group, x + 10, ry + 22, name, size=L.TEXT, font_weight="bold")
        label(group, x + 10, ry + 42, f"pile {view['person_pile'][sex]}", size=L.SMALL, fill="#555555",
              data_person_pile=name, data_count=view["person_pile"][sex])
        for position, tile in enumerate(view["person_display"][sex]):
            px = x + 86 + position * step
            label(group, px + w / 2, ry - 4, position + 1, size=L.SMALL, anchor="middle", fill="#555555")
            if tile == NO_TILE:
                sub(group, "rect", x=px, y=ry, width=w, height=h, rx=4, fill="none", stroke="#bbbbbb",
                    stroke_dasharray="4 4")
                continue
            _person_tile(group, c, tile, px, ry, w, h, data_person_display=f"{name}-{position + 1}")


def _tasks(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, _, _ = L.TASKS
    group = panel(svg, "tasks", L.TASKS, f"Task display (pile {view['task_pile']})")
    w, h, step = 116, 100, 121
    for position, task in enumerate(view["task_display"]):
        tx = x + 10 + position * step
        if task == NO_TILE:
            sub(group, "rect", x=tx, y=y + 28, width=w, height=h, rx=4, fill="none", stroke="#bbbbbb",
                stroke_dasharray="4 4")
            continue
        _task_tile(group, c, task, tx, y + 28, w, h, data_task_display=position + 1)


def _jewelry(svg: ET.Element, c: Components, view: dict[str, Any]) -> None:
    x, y, _, _ = L.JEWELRY
    group = panel(svg, "jewelry", L.JEWELRY, "Jewelry (rounds 1-6)")
    w, h, step = 72, 36, 75
    for rnd, column in enumerate(view["jewelry_display"]):
        cx = x + 10 + rnd * step
        current = rnd + 1 == view["round"]
        if current:
            sub(group, "rect", x=cx - 2, y=y + 26, width=w + 4, height=4 * (h + 3) + 22, rx=4,
                fill=L.CURRENT_COLUMN, data_current_round=rnd + 1)
        label(group, cx + w / 2, y + 42, f"round {rnd + 1}", size=L.SMALL, anchor="middle", fill="#555555")
        for row, tile in enumerate(column):
            if tile == NO_TILE:
                continue
            ty = y + 48 + row * (h + 3)
            kind = c.jewelry_kind_names[int(c.jewelry_kind[tile])]
            jewel = sub(group, "g", data_jewelry=f"{rnd + 1}-{row + 1}", data_tile=tile, data_kind=kind)
            sub(jewel, "rect", x=cx, y=ty, width=w, height=h, rx=4, fill=L.JEWELRY_FILL, stroke="#a88a4a")
            label(jewel, cx + w / 2, ty + 15, kind[:9], size=L.SMALL, anchor="middle")
            label(jewel, cx + w / 2, ty + 31, f"{int(c.jewelry_cost[tile])}sh {int(c.jewelry_vp[tile])}VP",
                  size=L.SMALL, anchor="middle", fill="#555555")
            title(jewel, f"{kind}: costs {int(c.jewelry_cost[tile])} shells, {int(c.jewelry_vp[tile])} VP")


def _god_text(name: str) -> str:
    return "#222222" if name in ("white", "yellow") else "#ffffff"


def _gods(svg: ET.Element, view: dict[str, Any]) -> None:
    x, y, _, _ = L.GODS
    group = panel(svg, "gods", L.GODS, "God cards")
    step = 49
    for position, colour in enumerate(view["god_display"]):
        gx = x + 10 + position * step
        if colour == NO_TILE:
            continue
        name = GOD_COLOURS[colour]
        card = sub(group, "g", data_god_display=position + 1, data_colour=name)
        sub(card, "rect", x=gx, y=y + 30, width=step - 3, height=58, rx=5, fill=L.GOD_COLOURS[name],
            stroke="#333333")
        label(card, gx + (step - 3) / 2, y + 64, name, size=L.SMALL, anchor="middle", fill=_god_text(name))
        title(card, f"{name} God card")
    _box(group, x + 10, y + 96, 150, 30, f"draw pile {view['god_deck']}", data_god_deck=view["god_deck"])
    label(group, x + 10, y + 148, "discard", size=L.SMALL, fill="#555555")
    for colour, count in enumerate(view["discard"]):
        name = GOD_COLOURS[colour]
        dx = x + 10 + colour * step
        pile = sub(group, "g", data_god_discard=name, data_count=count)
        sub(pile, "rect", x=dx, y=y + 156, width=step - 3, height=32, rx=4, fill=L.GOD_COLOURS[name],
            stroke="#333333")
        label(pile, dx + (step - 3) / 2, y + 177, count, size=L.TEXT, anchor="middle", fill=_god_text(name))
        title(pile, f"{name} God cards discarded")


# ---------------------------------------------------------------------------------------------------------------
# Player boards
# ---------------------------------------------------------------------------------------------------------------
def _player_board(svg: ET.Element, c: Components, view: dict[str, Any], seat: int, x: float, y: float,
                  w: float) -> None:
    """The board of `seat`: its dice, God cards and counts, then its persons, ceremony grid, buildings, tasks and
    jewelry."""
    p = view["pl"][seat]
    group = sub(svg, "g", data_panel=f"player-{seat}", data_player=seat)
    sub(group, "rect", x=x, y=y, width=w, height=L.BOARD_HEIGHT, rx=6, fill=S.PANEL_FILL,
        stroke=S.SEAT_COLOURS[seat], stroke_width=2.5)
    sub(group, "rect", x=x, y=y, width=w, height=30, rx=6, fill=S.SEAT_COLOURS[seat])
    you = " (you)" if view["viewer"] == seat else ""
    priests = sum(1 for s in view["temple"] if s == seat)
    label(group, x + 10, y + 21, f"Seat {seat}{you}: {sum(p['vp'])} VP, status {p['status']}", size=16,
          font_weight="bold", fill=S.SEAT_TEXT[seat])
    # Dice still to place this round.
    label(group, x + 10, y + 62, "dice", size=L.SMALL, fill="#555555")
    for i, value in enumerate(p["dice"]):
        if value:
            _die(group, x + 48 + i * (L.DIE + 6), y + 40, value, colour=S.SEAT_COLOURS[seat],
                 data_player_die=f"{seat}-{i}")
    # God cards: the hand only for its owner, otherwise its size and the cards seen taken face up.
    gx = x + 190
    if p["hand"] is not None:
        label(group, gx, y + 62, "God cards", size=L.SMALL, fill="#555555")
        cards = [(GOD_COLOURS[k], n) for k, n in enumerate(p["hand"]) if n]
        for i, (name, n) in enumerate(cards):
            _god_chip(group, gx + 78 + i * 52, y + 41, name, n, data_god_hand=f"{seat}-{name}")
    else:
        label(group, gx, y + 62, f"God cards: {p['hand_size']} in hand; seen:", size=L.SMALL, fill="#555555",
              data_hand_size=p["hand_size"], data_hand_seat=seat)
        known = [(GOD_COLOURS[k], n) for k, n in enumerate(p["known"]) if n]
        for i, (name, n) in enumerate(known):
            _god_chip(group, gx + 210 + i * 52, y + 41, name, n, data_god_known=f"{seat}-{name}")
    # Counts, each in a box of its own (some pick a move in browser play).
    counts = (("offerings", p["offerings"]), ("shells", p["shells"]), ("god tiles", p["god_tiles"]),
              ("priests", priests), ("tasks done", p["tasks_done"]), ("huts on board", p["reg_huts"]),
              ("huts on 12th", p["huts_12th"]))
    bw = (w - 20 - 3 * 6) / 4
    for i, (name, value) in enumerate(counts):
        key = name.replace(" ", "_")
        _box(group, x + 10 + (i % 4) * (bw + 6), y + 80 + (i // 4) * 34, bw, 30, f"{name} {value}",
             data_count=key, data_value=value, data_player_count=f"{seat}-{key}")
    # Persons on the board; the ceremony grid, tasks and persons are panels of their own, so that the replay stores
    # them once for the many moves that change only the counts above.
    persons = sub(svg, "g", data_panel=f"player-{seat}-persons", data_player=seat)
    py = y + 150
    label(persons, x + 10, py + 14, f"persons ({p['n_persons']})", size=L.SMALL, fill="#555555")
    pw = (w - 20 - 5 * 5) / 6
    for i, tile in enumerate(p["persons"][: p["n_persons"]]):
        _person_tile(persons, c, tile, x + 10 + (i % 6) * (pw + 5), py + 20 + (i // 6) * 48, pw, 44,
                     shifted=bool(p["shifted"] >> i & 1), data_person_slot=f"{seat}-{i}")
    # Ceremony grid, buildings, materials beside the board.
    _ceremony(sub(svg, "g", data_panel=f"player-{seat}-ceremony", data_player=seat), c, p, seat, x + 10, y + 270)
    # Tasks held and jewelry bought.
    tasks = sub(svg, "g", data_panel=f"player-{seat}-tasks", data_player=seat)
    tx = x + 10 + max(int(c.ceremony_cols) * 33, 3 * 33) + 130
    tw = (x + w - 10 - tx - 2 * 6) / 3
    label(tasks, tx, y + 284, "tasks", size=L.SMALL, fill="#555555")
    for i, task in enumerate(p["tasks"]):
        if task != NO_TILE:
            _task_tile(tasks, c, task, tx + i * (tw + 6), y + 290, tw, 100, data_player_task=f"{seat}-{i + 1}")
    jewels = [c.jewelry_kind_names[int(c.jewelry_kind[t])] for t in p["jewelry"][: p["n_jewelry"]]]
    jewelry = sub(tasks, "g", data_player_jewelry=seat, data_count=len(jewels))
    label(jewelry, tx, y + 412, f"jewelry: {', '.join(jewels) or 'none'}", size=L.TEXT)


def _god_chip(parent: ET.Element, x: float, y: float, name: str, count: int, **data: object) -> None:
    chip = sub(parent, "g", data_colour=name, data_count=count, **data)
    sub(chip, "rect", x=x, y=y, width=46, height=28, rx=4, fill=L.GOD_COLOURS[name], stroke="#333333")
    label(chip, x + 23, y + 19, count, size=L.TEXT, anchor="middle", font_weight="bold", fill=_god_text(name))
    title(chip, f"{count} {name} God card{'s' if count != 1 else ''}")


def _ceremony(parent: ET.Element, c: Components, p: dict[str, Any], seat: int, x: float, y: float) -> None:
    """The ceremony grid (each space's material; a material on it, or a building over it), then beside it the
    building tiles (value; built or not) and the materials beside the board."""
    label(parent, x, y + 14, "ceremony", size=L.SMALL, fill="#555555")
    cell, step = 30, 33
    for s, content in enumerate(p["ceremony"]):
        row, col = divmod(s, int(c.ceremony_cols))
        material = MATERIALS[int(c.ceremony_material[s])]
        sx, sy = x + col * step, y + 20 + row * step
        space = sub(parent, "g", data_ceremony=f"{seat}-{s}", data_material=material,
                    data_content=CEREMONY_CONTENT[content])
        sub(space, "rect", x=sx, y=sy, width=cell, height=cell, rx=3, fill=L.MATERIAL_COLOURS[material],
            opacity=1 if content else 0.35, stroke="#555555")
        if content == 1:
            sub(space, "rect", x=sx + 7, y=sy + 7, width=16, height=16, fill=L.MATERIAL_COLOURS[material],
                stroke="#222222")
        elif content == 2:
            sub(space, "rect", x=sx + 2, y=sy + 2, width=cell - 4, height=cell - 4, fill="#5b3a1a", opacity=0.85)
            label(space, sx + cell / 2, sy + cell / 2 + 5, "B", size=L.TEXT, anchor="middle", font_weight="bold",
                  fill="#ffffff")
    bx0 = x + max(int(c.ceremony_cols), 3) * step + 12
    label(parent, bx0, y + 14, "buildings", size=L.SMALL, fill="#555555")
    for k, value in enumerate(c.building_values):
        built = bool(p["built"] >> k & 1)
        building = sub(parent, "g", data_building=f"{seat}-{k}", data_value=int(value), data_built=int(built))
        bx, by = bx0 + (k % 3) * step, y + 20 + (k // 3) * step
        sub(building, "rect", x=bx, y=by, width=cell, height=cell, rx=3,
            fill="#5b3a1a" if built else "#ffffff", stroke="#5b3a1a")
        label(building, bx + cell / 2, by + cell / 2 + 5, int(value), size=L.TEXT, anchor="middle",
              fill="#ffffff" if built else "#5b3a1a")
    beside = [(MATERIALS[m], n) for m, n in enumerate(p["beside"]) if n]
    text = ", ".join(f"{n} {m}" for m, n in beside) or "none"
    rows = (len(p["ceremony"]) + int(c.ceremony_cols) - 1) // int(c.ceremony_cols)
    _box(parent, x, y + 28 + max(rows, 3) * step, bx0 - x + 3 * step - 3, 30, f"beside: {text}",
         data_beside=seat)


__all__ = ["draw", "map_layout"]
