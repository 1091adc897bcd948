"""The picture of a Bamboo state: the temples with their incense and spirits, the reed field, the markets, the
season track, the food, the turn in progress and every player's board, as an SVG tree.

Everything is drawn from `state.observation(viewer)` and the component tables. Bamboo hides no hand; what is
hidden is the order of the face-down stacks (home and balance tiles, food, the spirits under the face-up ones),
and the picture shows only their sizes, so a determinized copy of a state draws the same. Each drawn thing
carries a data attribute naming it (data-shoot="stalk-2-1", data-home-space="0-r1c3", ...). The top-level
children are panels (<g data-panel=...>), which the replay stores once for all the frames they do not change in:
what never changes (frames of the temples and the reed field) is apart from what does.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from borabora_sim import _bamboo
from borabora_sim.games.bamboo import layout as B
from borabora_sim.games.bamboo import words as W
from borabora_sim.games.bamboo.components import ACTIONS, COLOURS, HOME_TYPES, SIDES, SPIRIT_EFFECTS, BambooComponents
from borabora_sim.kits import house_style as L
from borabora_sim.kits.svg import board_places, hit_area, label, panel, root, seat_chip, seat_text, sub, title

NO_TILE = 255
GHOST = 4                        # the ghost's column of the temples' incense
# The season of each phase (setup comes before the first Spring; wake and feed are Winter's decisions).
SEASON_OF_PHASE = {"spring": 0, "summer": 1, "wake": 3, "feed": 3}


def shoot_name(kind: int) -> str:
    """A shoot kind as the action names spell it, joined: "C2-cook"."""
    return f"{COLOURS[kind // len(ACTIONS)]}-{ACTIONS[kind % len(ACTIONS)]}"


def draw(state: _bamboo.State, viewer: int | None = None) -> ET.Element:
    """The picture of `state` as `viewer` sees it (None: the public view, which differs from a seat's only in
    naming no board "you": every seat sees the same things in Bamboo)."""
    view = state.observation(viewer)
    c = state.components
    players = len(view["pl"])
    places = board_places(B.WIDTH, B.BOARD_GAP, players, B.BOARDS_PER_ROW)
    height = B.BOARDS_TOP + (places[-1][1] + 1) * (B.BOARD_HEIGHT + B.BOARD_GAP)
    svg = root(B.WIDTH, height, font_family=L.FONT, data_game="bamboo", data_viewer=seat_text(viewer),
               data_players=players)
    sub(svg, "rect", x=0, y=0, width=B.WIDTH, height=height, fill=L.BACKGROUND, data_panel="background")
    _header(svg, state, viewer)
    _temples(svg, c, view)
    _stalks(svg, view)
    _markets(svg, c, view)
    _seasons(svg, c, view)
    _food(svg, c, view)
    _turn(svg, c, view)
    for seat, (x, row, board_width) in enumerate(places):
        _player_board(svg, c, view, seat, x, B.BOARDS_TOP + row * (B.BOARD_HEIGHT + B.BOARD_GAP), board_width,
                      viewer)
    return svg


# ---------------------------------------------------------------------------------------------------------------
# Pieces
# ---------------------------------------------------------------------------------------------------------------
def _shoot(parent: ET.Element, kind: int, x: float, y: float, r: float = B.SHOOT_RADIUS, **data: object) -> None:
    """A bamboo shoot centred on (x, y): its temple's colour and its icon's letter."""
    colour, icon = divmod(kind, len(ACTIONS))
    group = sub(parent, "g", data_kind=shoot_name(kind), **data)
    sub(group, "circle", cx=x, cy=y, r=r, fill=B.TEMPLE_COLOURS[colour], stroke="#1d3b1d")
    size = max(L.MIN_TEXT, r * 1.05)
    label(group, x, y + size * 0.36, B.ICON_LETTERS[icon], size=size, anchor="middle", font_weight="bold",
          fill="#ffffff")
    title(group, W.shoot_title(kind))


def _sticks(parent: ET.Element, x: float, y: float, count: int, colour: str, **data: object) -> None:
    """`count` sticks of incense side by side, their feet on y."""
    w, h = B.STICK
    group = sub(parent, "g", data_count=count, **data)
    for i in range(count):
        sub(group, "rect", x=x + i * (w + 2), y=y - h, width=w, height=h, rx=1.5, fill=colour, stroke="#333333",
            stroke_width=0.5)


def _home_tile(parent: ET.Element, c: BambooComponents, tile: int, x: float, y: float, w: float, h: float,
               priced: bool, **data: object) -> None:
    """A home tile: its type's colour and letter and its comfort; in a market also its cost and HP."""
    kind = int(c.home_type[tile])
    comfort, cost, hp = int(c.home_comfort[tile]), int(c.home_cost[tile]), int(c.home_hp[tile])
    group = sub(parent, "g", data_tile=c.home_tile_ids[tile], data_type=HOME_TYPES[kind], data_comfort=comfort,
                data_cost=cost if priced else None, data_hp=hp if priced else None, **data)
    sub(group, "rect", x=x, y=y, width=w, height=h, rx=4, fill=B.HOME_TYPE_COLOURS[kind], stroke="#5a4a3a")
    if priced:
        label(group, x + 6, y + 16, B.HOME_TYPE_LETTERS[kind], size=B.TEXT, font_weight="bold")
        label(group, x + w - 6, y + 16, "\u2665" * comfort, size=B.SMALL, anchor="end", fill="#7a1f1f")
        label(group, x + w / 2, y + h - 24, HOME_TYPES[kind], size=B.SMALL, anchor="middle")
        label(group, x + w / 2, y + h - 7, f"{cost}c, {hp} HP", size=B.SMALL, anchor="middle")
    else:
        label(group, x + w / 2, y + h / 2 + 1, B.HOME_TYPE_LETTERS[kind], size=B.TEXT, anchor="middle",
              font_weight="bold")
        label(group, x + w / 2, y + h - 2, "\u2665" * comfort, size=B.SMALL, anchor="middle", fill="#7a1f1f")
    title(group, f"home tile {c.home_tile_ids[tile]}: {HOME_TYPES[kind]}, comfort {comfort}, costs {cost} coins, "
                 f"{hp} HP")


def _pattern_cells(c: BambooComponents, tile: int) -> list[tuple[int, int, int]]:
    """The spaces of a shape pattern as (row, col, type or -1 for any), from its first placement, moved to the
    top left."""
    cover, *needs = c.balance_patterns[tile].placements[0]
    cells = []
    for cell in range(c.home_rows * c.home_cols):
        if cover >> cell & 1:
            kind = next((t for t, need in enumerate(needs) if need >> cell & 1), -1)
            cells.append((*divmod(cell, c.home_cols), kind))
    top, left = min(r for r, _, _ in cells), min(col for _, col, _ in cells)
    return [(r - top, col - left, kind) for r, col, kind in cells]


def _balance_tile(parent: ET.Element, c: BambooComponents, tile: int, x: float, y: float, **data: object) -> None:
    """A balance tile: its HP, its pattern (the shape, each space in its type's colour, grey for any type; or a
    type total) and the comfort the pattern needs."""
    w, h = B.BALANCE_TILE
    side, hp = int(c.balance_side[tile]), int(c.balance_hp[tile])
    pattern = c.balance_patterns[tile]
    group = sub(parent, "g", data_tile=c.balance_ids[tile], data_side=SIDES[side], data_hp=hp, **data)
    sub(group, "rect", x=x, y=y, width=w, height=h, rx=4, fill=B.BALANCE_FILL[side], stroke="#6d5c8a")
    label(group, x + w / 2, y + 16, f"{hp} HP", size=B.TEXT, anchor="middle", font_weight="bold")
    if pattern.comfort_type >= 0:
        kind = pattern.comfort_type
        sub(group, "rect", x=x + w / 2 - 16, y=y + 22, width=32, height=26, rx=3, fill=B.HOME_TYPE_COLOURS[kind],
            stroke="#555555")
        label(group, x + w / 2, y + 40, f"\u03a3{B.HOME_TYPE_LETTERS[kind]}", size=B.SMALL, anchor="middle")
    else:
        cells = _pattern_cells(c, tile)
        rows, cols = 1 + max(r for r, _, _ in cells), 1 + max(col for _, col, _ in cells)
        px = x + (w - cols * B.PATTERN_CELL) / 2
        py = y + 21 + (3 - rows) * B.PATTERN_CELL / 2
        for r, col, kind in cells:
            sub(group, "rect", x=px + col * B.PATTERN_CELL, y=py + r * B.PATTERN_CELL, width=B.PATTERN_CELL,
                height=B.PATTERN_CELL, fill=B.HOME_TYPE_COLOURS[kind] if kind >= 0 else B.ANY_TYPE,
                stroke="#555555", stroke_width=0.5)
    text = f"\u2265{pattern.min_comfort}\u2665" if pattern.min_comfort else SIDES[side]
    label(group, x + w / 2, y + h - 7, text, size=B.SMALL, anchor="middle")
    title(group, f"balance tile {c.balance_ids[tile]} ({SIDES[side]}): {hp} HP; {_pattern_text(c, tile)}")


def _pattern_text(c: BambooComponents, tile: int) -> str:
    pattern = c.balance_patterns[tile]
    if pattern.comfort_type >= 0:
        return f"at least {pattern.min_comfort} comfort in {HOME_TYPES[pattern.comfort_type]} tiles"
    cells = _pattern_cells(c, tile)
    rows = 1 + max(r for r, _, _ in cells)
    cols = 1 + max(col for _, col, _ in cells)
    grid = [["."] * cols for _ in range(rows)]
    for r, col, kind in cells:
        grid[r][col] = B.HOME_TYPE_LETTERS[kind] if kind >= 0 else "*"
    comfort = f", at least {pattern.min_comfort} comfort on them" if pattern.min_comfort else ""
    return f"the shape {' / '.join(''.join(row) for row in grid)}{comfort}"


def _spirit_tile(parent: ET.Element, c: BambooComponents, spirit: int, x: float, y: float, w: float, h: float,
                 copies: int = 1, asleep: int = 0) -> None:
    """A Spirit of the Forest: its name, and when there is room its effect and wake-up cost; `copies` of it of
    which `asleep` are asleep (marked zz; greyed when all are)."""
    effect = SPIRIT_EFFECTS[int(c.spirit_effect[spirit])]
    amount, cost = int(c.spirit_amount[spirit]), int(c.spirit_wake_cost[spirit])
    sleeping = asleep == copies
    sub(parent, "rect", x=x, y=y, width=w, height=h, rx=4, fill=B.SPIRIT_ASLEEP if sleeping else B.SPIRIT_FILL,
        stroke="#8a6d2b", stroke_dasharray="4 3" if sleeping else None)
    name = c.spirit_names[spirit] + (f" \u00d7{copies}" if copies > 1 else "")
    name += (" zz" if sleeping else f", {asleep} zz") if asleep else ""
    full = h >= 50
    label(parent, x + w / 2, y + (18 if full else h / 2 + 5), name, size=B.TEXT if full else B.SMALL,
          anchor="middle", font_weight="bold" if full else None)
    if full:
        text = W.SPIRIT_EFFECT_SHORT[effect].format(amount=amount)
        label(parent, x + w / 2, y + 35, text, size=B.SMALL, anchor="middle")
        label(parent, x + w / 2, y + 51, f"wake: {cost} coin{'s' if cost != 1 else ''}", size=B.SMALL,
              anchor="middle", fill="#555555")
    title(parent, f"{W.spirit_words(c, spirit)}; wakes for {cost} coin{'s' if cost != 1 else ''}")


def _count_box(parent: ET.Element, x: float, y: float, w: float, text: str, **data: object) -> ET.Element:
    """A line of text in a light box 28 units high (a pile's size): a click target of its own."""
    group = sub(parent, "g", **data)
    sub(group, "rect", x=x, y=y, width=w, height=28, rx=4, fill="#f4efe0", stroke="#d8cca8")
    label(group, x + 7, y + 19, text, size=B.TEXT)
    return group


# ---------------------------------------------------------------------------------------------------------------
# Header
# ---------------------------------------------------------------------------------------------------------------
def _header(svg: ET.Element, state: _bamboo.State, viewer: int | None) -> None:
    group = sub(svg, "g", data_panel="header")
    if state.is_terminal():
        returns = state.returns()                  # a shared victory gives each winner an equal share (B35)
        seats = [str(seat) for seat, share in enumerate(returns) if share == max(returns)]
        line = (f"Bamboo: game over, winner seat {seats[0]}" if len(seats) == 1
                else f"Bamboo: game over, a shared victory of seats {', '.join(seats)}")
    else:
        season = ("set-up" if state.phase == "setup"
                  else B.SEASON_NAMES[SEASON_OF_PHASE[state.phase]].lower())
        line = (f"Bamboo: round {state.round}, {season}; seat {state.current_player} decides "
                f"({W.DECISION_WORDS[str(state.decision)]})")
    decides = sub(group, "g", data_round=state.round, data_phase=state.phase, data_to_move=state.current_player,
                  data_decision=None if state.is_terminal() else state.decision)
    hit_area(decides, 10, 10, min(len(line) * 11.5, B.WIDTH - 200), 30)
    label(decides, 12, 32, line, size=20, font_weight="bold", fill=L.TEXT)
    seen = "public view" if viewer is None else f"as seat {viewer} sees it"
    label(group, B.WIDTH - 12, 32, seen, size=B.TEXT, anchor="end", fill=L.MUTED)


# ---------------------------------------------------------------------------------------------------------------
# Temples, reed field, markets
# ---------------------------------------------------------------------------------------------------------------
TEMPLE_STEP = 178                # from one temple's frame to the next


def _temple_x(t: int) -> float:
    return B.TEMPLES[0] + 10 + t * TEMPLE_STEP


def _temples(svg: ET.Element, c: BambooComponents, view: dict[str, Any]) -> None:
    """Each temple: its face-up spirit and the tiles left in its stack, the 2-player ghost's temple tile, and the
    incense offered there from the bottom (the ghost's, always lowest) to the top (the seat that offered last)."""
    x, y, _, h = B.TEMPLES
    tw = TEMPLE_STEP - 6
    frames = panel(svg, "temples", B.TEMPLES, "Temples: spirits and incense")
    for t in range(len(COLOURS)):
        tx = _temple_x(t)
        sub(frames, "rect", x=tx, y=y + 28, width=tw, height=h - 74, rx=5, fill=B.TEMPLE_FILLS[t],
            stroke=B.TEMPLE_COLOURS[t], data_temple=t + 1)
    spirits = sub(svg, "g", data_panel="temple-spirits")
    incense = sub(svg, "g", data_panel="incense")
    for t in range(len(COLOURS)):
        tx = _temple_x(t)
        left = view["spirit_left"][t]
        label(spirits, tx + 7, y + 46, f"Temple {t + 1}", size=B.TEXT, font_weight="bold", fill=B.TEMPLE_COLOURS[t])
        label(spirits, tx + tw - 7, y + 46, f"stack {left}", size=B.SMALL, anchor="end", fill="#555555",
              data_spirit_stack=t + 1, data_count=left)
        if left:
            spirit = view["spirit_stack"][t][left - 1]
            group = sub(spirits, "g", data_temple_spirit=t + 1, data_spirit=c.spirit_names[spirit])
            _spirit_tile(group, c, spirit, tx + 5, y + 54, tw - 10, 60)
        else:
            sub(spirits, "rect", x=tx + 5, y=y + 54, width=tw - 10, height=60, rx=4, fill="none", stroke="#aaaaaa",
                stroke_dasharray="4 4")
            label(spirits, tx + tw / 2, y + 89, "no spirit left", size=B.SMALL, anchor="middle", fill="#555555")
        ghost = view["incense"][t][GHOST]
        if len(view["pl"]) == 2:
            tile = sub(spirits, "g", data_temple_tile=t + 1, data_ghost_sticks=ghost)
            sub(tile, "rect", x=tx + 5, y=y + 120, width=tw - 10, height=26, rx=3, fill="#f1e4d3", stroke=B.GHOST)
            label(tile, tx + tw / 2, y + 138, f"temple tile: {ghost} ghost", size=B.SMALL, anchor="middle",
                  fill=B.GHOST)
        # Incense: a row per seat, the ghost at the bottom, then by the stamp of each seat's highest stick.
        rows = [(0, GHOST)] if ghost else []
        rows += sorted((view["incense_top"][t][seat], seat) for seat in range(len(view["pl"]))
                       if view["incense"][t][seat])
        base = y + h - 54
        for level, (_, seat) in enumerate(rows):
            ry = base - level * 30
            count = view["incense"][t][seat]
            if seat == GHOST:
                colour = B.GHOST
                sub(incense, "circle", cx=tx + 20, cy=ry - 12, r=12, fill=B.GHOST, stroke="#222222")
            else:
                colour = L.SEAT_COLOURS[seat]
                seat_chip(incense, tx + 20, ry - 12, seat, r=12)
            _sticks(incense, tx + 40, ry + 1, count, colour, data_incense=f"{t + 1}-{_seat_name(seat)}",
                    data_level=level + 1)
    gone = [(name, n) for name, n in zip(c.spirit_names, view["spirit_gone"], strict=True) if n]
    label(spirits, x + 10, y + h - 26, "left the game:" if gone else "no spirit has left the game", size=B.SMALL,
          fill="#555555")
    for i, (name, n) in enumerate(gone):            # four a line, two lines for all seven
        row, col = divmod(i, 4)
        label(spirits, x + 110 + col * 150, y + h - 26 + row * 17, f"{name} {n}", size=B.SMALL,
              data_spirit_gone=name, data_count=n)


def _seat_name(seat: int) -> str:
    return "ghost" if seat == GHOST else str(seat)


def _stalks(svg: ET.Element, view: dict[str, Any]) -> None:
    """The reed field: on each stalk its shaded spaces (bottom first) and the entry spaces of this turn."""
    x, y, _, h = B.STALKS
    frames = panel(svg, "stalks", B.STALKS, "Reed field")
    depth, entries = len(view["stalk"][0]), len(view["stalk_new"][0])
    bottom = y + h - 46
    top = bottom - (depth + entries - 1) * B.STALK_SPACE
    for s in range(len(view["stalk"])):
        sx = x + 38 + s * 58
        sub(frames, "line", x1=sx, y1=bottom + 18, x2=sx, y2=top - 20, stroke="#5f8f3a", stroke_width=7,
            stroke_linecap="round")
        label(frames, sx, bottom + 36, f"stalk {s + 1}", size=B.SMALL, anchor="middle", fill="#555555")
        for level in range(depth + entries):
            cy = bottom - level * B.STALK_SPACE
            sub(frames, "circle", cx=sx, cy=cy, r=B.SHOOT_RADIUS + 2, fill=B.SHADED if level < depth else B.ENTRY,
                stroke="#8a7d55", stroke_dasharray=None if level < depth else "4 3")
        shoots = sub(svg, "g", data_panel=f"stalk-{s + 1}")       # one a stalk: a turn changes one or two
        hit_area(shoots, sx - B.SHOOT_RADIUS - 2, top - B.SHOOT_RADIUS - 2, 2 * B.SHOOT_RADIUS + 4,
                 bottom - top + 2 * B.SHOOT_RADIUS + 4)         # the whole stalk takes a click, shoots or none
        for level, kind in enumerate(view["stalk"][s]):
            _shoot(shoots, kind, sx, bottom - level * B.STALK_SPACE, data_shoot=f"stalk-{s + 1}-{level + 1}")
        for i, kind in enumerate(view["stalk_new"][s]):
            if kind != NO_TILE:
                _shoot(shoots, kind, sx, bottom - (depth + i) * B.STALK_SPACE, data_shoot=f"stalk-{s + 1}-new-{i + 1}")


def _markets(svg: ET.Element, c: BambooComponents, view: dict[str, Any]) -> None:
    """The face-up home tiles of both categories and balance tiles of the three sides, from the lowest position
    (the one that leaves first in Winter); of the stacks, only their size and how many of their tiles are known
    (sent under in a Winter, in view)."""
    x, y, _, _ = B.MARKETS
    frame = panel(svg, "markets", B.MARKETS, "Markets (lowest position first) and stacks")
    tw, th = B.HOME_TILE
    for cat, row in enumerate(view["home_market"]):
        ry = y + 30 + cat * (th + 8)
        name = "AB"[cat]
        label(frame, x + 10, ry + 24, name, size=18, font_weight="bold", fill=L.MUTED)
        group = sub(svg, "g", data_panel=f"home-market-{name}")
        for position, tile in enumerate(row):
            if tile != NO_TILE:
                _home_tile(group, c, tile, x + 34 + position * (tw + 6), ry, tw, th, priced=True,
                           data_home_market=f"{name}-{position + 1}")
        _stack_label(group, x + 34 + 4 * (tw + 6) + 6, ry + 26, view["home_left"][cat], view["home_unseen"][cat],
                     data_home_stack=name)
    bw, bh = B.BALANCE_TILE
    by = y + 30 + 2 * (th + 8) + 18
    for side, row in enumerate(view["bal_market"]):
        sx = x + 10 + side * 240
        label(frame, sx, by - 4, f"balance: {SIDES[side]}", size=B.SMALL, font_weight="bold", fill="#555555")
        group = sub(svg, "g", data_panel=f"balance-market-{SIDES[side]}")
        for position, tile in enumerate(row):
            if tile != NO_TILE:
                _balance_tile(group, c, tile, sx + position * (bw + 5), by + 2, data_balance_market=f"{SIDES[side]}-"
                              f"{position + 1}")
        _stack_label(group, sx, by + bh + 20, view["bal_left"][side], view["bal_unseen"][side],
                     data_balance_stack=SIDES[side])


def _stack_label(parent: ET.Element, x: float, y: float, size: int, unseen: int, **data: str) -> None:
    known = size - unseen
    text = label(parent, x, y, f"stack {size}" + (f" ({known} known)" if known else ""), size=B.SMALL,
                 fill="#555555", data_count=size, data_unseen=unseen, **data)
    if known:
        title(text, f"{known} of them known, at the bottom (sent under in a Winter)")


# ---------------------------------------------------------------------------------------------------------------
# Seasons, food, the turn in progress
# ---------------------------------------------------------------------------------------------------------------
def _seasons(svg: ET.Element, c: BambooComponents, view: dict[str, Any]) -> None:
    """The round and season track, the starting player marker, the gifts face up in Spring and the set-up draft
    pool."""
    x, y, _, _ = B.SEASONS
    track = panel(svg, "seasons", B.SEASONS, "Rounds and seasons")
    phase = _bamboo.PHASES[view["phase"]]
    season = SEASON_OF_PHASE.get(phase)
    now = sub(svg, "g", data_panel="season-now")          # the track never changes; only this mark moves
    group = sub(svg, "g", data_panel="season-state")
    rounds = c.setup["rounds"]
    per_round = (B.SEASONS[2] - 20) / max(rounds, 1)
    cell = min(26.0, (per_round - 8) / len(B.SEASON_NAMES))
    for rnd in range(rounds):
        for k, name in enumerate(B.SEASON_NAMES):
            cx = x + 10 + rnd * per_round + k * (cell + 1)
            box = sub(track, "g", data_season=f"{rnd + 1}-{name.lower()}")
            sub(box, "rect", x=cx, y=y + 52, width=cell, height=28, rx=3, fill="#ffffff", stroke="#bbbbbb")
            label(box, cx + cell / 2, y + 71, name[:2], size=B.SMALL, anchor="middle")
            title(box, f"round {rnd + 1}, {name}")
            if rnd + 1 == view["round"] and k == season:
                sub(now, "rect", x=cx, y=y + 52, width=cell, height=28, rx=3, fill=B.CURRENT, fill_opacity=0.6,
                    stroke="#d6b44a", stroke_width=2, data_current_season=f"{rnd + 1}-{name.lower()}")
        label(track, x + 10 + rnd * per_round + 2 * (cell + 1), y + 46, f"round {rnd + 1}", size=B.SMALL,
              anchor="middle", fill="#555555")
    label(track, x + 10, y + 112, "first player", size=B.SMALL, fill="#555555")
    seat_chip(group, x + 110, y + 107, view["start_seat"], r=13, data_start_player=view["start_seat"])
    state_text = {"setup": "set-up: the draft", "end": "the game is over"}.get(phase, "")
    label(group, x + 140, y + 112, state_text, size=B.SMALL, fill="#555555")
    gifts = [g for g in range(len(c.gift_action)) if view["gifts_up"] >> g & 1]
    label(group, x + 10, y + 152, "gifts face up:" if gifts else "", size=B.SMALL, fill="#555555")
    for i, g in enumerate(gifts):
        action = ACTIONS[int(c.gift_action[g])]
        gift = sub(group, "g", data_gift=action)
        gx = x + 110 + i * 82
        sub(gift, "rect", x=gx, y=y + 134, width=78, height=28, rx=4, fill="#e5f2d6", stroke="#5f8f3a")
        label(gift, gx + 39, y + 153, action, size=B.SMALL, anchor="middle")
    pool = [kind for kind in view["draft"] if kind != NO_TILE]
    if pool:
        label(group, x + 10, y + 200, "draft pool", size=B.SMALL, fill="#555555")
    for i, kind in enumerate(view["draft"]):
        if kind != NO_TILE:
            _shoot(group, kind, x + 110 + B.SHOOT_RADIUS + (i % 8) * 32, y + 195 + (i // 8) * 32,
                   data_shoot=f"draft-{i + 1}")


def _food(svg: ET.Element, c: BambooComponents, view: dict[str, Any]) -> None:
    """The face-up food counters, the pile (its size) and the discards, by kind."""
    x, y, w, _ = B.FOOD
    group = panel(svg, "food", B.FOOD, "Food counters")
    label(group, x + 10, y + 54, "display", size=B.SMALL, fill="#555555")
    position = 0
    for kind, name in enumerate(c.food_names):
        count = view["food_display"][kind]
        counters = sub(group, "g", data_food_display=name, data_count=count)
        for i in range(position, position + count):
            _food_counter(counters, c, kind, x + 84 + i * 32, y + 49)
        position += count
    _count_box(group, x + 84 + 5 * 32, y + 35, 90, f"pile {view['food_left']}", data_food_pile=1,
               data_count=view["food_left"])
    label(group, x + 380, y + 54, "discards", size=B.SMALL, fill="#555555")
    for kind, name in enumerate(c.food_names):
        discard = sub(group, "g", data_food_discard=name, data_count=view["food_discard"][kind])
        _food_counter(discard, c, kind, x + 460 + kind * 84, y + 49)
        label(discard, x + 478 + kind * 84, y + 54, f"\u00d7{view['food_discard'][kind]}", size=B.TEXT)
    label(group, x + 10, y + 96, "food units: " + ", ".join(f"{name} {int(v)}" for name, v in
                                                              zip(c.food_names, c.food_value, strict=True)),
          size=B.SMALL, fill="#555555")
    del w


def _food_counter(parent: ET.Element, c: BambooComponents, kind: int, x: float, y: float) -> None:
    sub(parent, "circle", cx=x, cy=y, r=14, fill=B.FOOD_COLOURS[kind], stroke="#6b5a3a")
    label(parent, x, y + 5, int(c.food_value[kind]), size=B.TEXT, anchor="middle", font_weight="bold")


def _turn(svg: ET.Element, c: BambooComponents, view: dict[str, Any]) -> None:
    """The Summer turn in progress (the visited area, the sticks offered, the shoots still to place and to
    activate, the spirits' flags, the shoots received), a home tile waiting for its space, and the decisions
    pending."""
    x, y, w, _ = B.TURN
    panel(svg, "turn", B.TURN, "Turn in progress and pending decisions")
    group = sub(svg, "g", data_panel="turn-state")
    stack = view["stack"]
    pending = W.pending_words([(_bamboo.DECISIONS[f["kind"]], f["player"]) for f in reversed(stack)])
    label(group, x + 10, y + 48, pending, size=B.SMALL, data_stack=len(stack))
    if view["visit"] < 0:
        label(group, x + 10, y + 70, "no Summer turn in progress", size=B.SMALL, fill="#555555")
    else:
        seat = stack[0]["player"]            # the turn's first decision is at the bottom of the stack
        flags = [name for name, on in (("Kitsune: activations are Wildcards", view["kitsune"]),
                                       ("Bakeneko: other temples free", view["bakeneko"])) if on]
        text = (f"seat {seat} visits temple area {view['visit'] + 1}; {view['sticks_placed']} stick(s) offered"
                + "".join(f"; {flag}" for flag in flags))
        label(group, x + 10, y + 70, text, size=B.SMALL, data_visit=view["visit"] + 1)
        waiting = [f"{ACTIONS[icon]} {n}" for icon, n in enumerate(view["unactivated"]) if n]
        label(group, x + 10, y + 92, f"placed, not yet activated: {', '.join(waiting) or 'none'}", size=B.SMALL,
              data_unactivated=sum(view["unactivated"]))
    label(group, x + 10, y + 145, "to place", size=B.SMALL, fill="#555555")
    for i, kind in enumerate(view["to_place"]):
        if kind != NO_TILE:
            _shoot(group, kind, x + 90 + i * 32, y + 140, data_shoot=f"to-place-{i + 1}")
    label(group, x + 240, y + 145, "received", size=B.SMALL, fill="#555555")
    for i, kind in enumerate(view["received"][: view["n_received"]]):
        _shoot(group, kind, x + 320 + i * 32, y + 140, data_shoot=f"received-{i + 1}")
    bought = [f["a"] for f in stack if _bamboo.DECISIONS[f["kind"]] == "home_space"]
    if bought:
        label(group, x + w - 118, y + 120, "bought, to place:", size=B.SMALL, anchor="end", fill="#555555")
        _home_tile(group, c, bought[0], x + w - 110, y + 110, B.HOME_TILE[0], B.HOME_TILE[1], priced=True,
                   data_pending_home=1)


# ---------------------------------------------------------------------------------------------------------------
# Player boards
# ---------------------------------------------------------------------------------------------------------------
def _player_board(svg: ET.Element, c: BambooComponents, view: dict[str, Any], seat: int, x: float, y: float,
                  w: float, viewer: int | None) -> None:
    """The board of `seat`: HP, coins, incense and food; its temple areas with the action marker; its balance
    tiles above its home; its spirits. Each part is a panel of its own (most moves change one or two)."""
    p = view["pl"][seat]
    board = sub(svg, "g", data_panel=f"player-{seat}", data_player=seat)
    sub(board, "rect", x=x, y=y, width=w, height=B.BOARD_HEIGHT, rx=6, fill=L.PANEL_FILL,
        stroke=L.SEAT_COLOURS[seat], stroke_width=2.5)
    sub(board, "rect", x=x, y=y, width=w, height=30, rx=6, fill=L.SEAT_COLOURS[seat])
    label(board, x + w - 10, y + 21, "nighttime" if p["advanced"] else "daytime", size=B.SMALL, anchor="end",
          fill=L.SEAT_TEXT[seat])
    label(board, x + 50, y + 60, "incense", size=B.SMALL, fill="#555555")
    rounds = c.setup["rounds"]
    sticks = c.setup["incense_per_player"]
    rx = x + 106 + sticks * (B.STICK[0] + 2) + 8
    fx = rx + rounds * 18 + 36
    for k in range(rounds):
        sub(board, "rect", x=rx + k * 18, y=y + 38, width=16, height=30, rx=2, fill="#ffffff", stroke="#bbbbbb")
    for kind in range(len(c.food_names)):
        _food_counter(board, c, kind, fx + kind * 64, y + 54)
    # The HP, balance tiles scored and comfort; the incense (reserve, round spaces); coins and food: three
    # panels, as each changes at other moves.
    score = sub(svg, "g", data_panel=f"player-{seat}-score", data_player=seat)
    you = " (you)" if viewer == seat else ""
    first = ", first player" if view["start_seat"] == seat else ""
    hp = sum(p["hp"])
    heading = sub(score, "g", data_hp_seat=seat, data_hp=hp)
    hit_area(heading, x + 6, y + 2, 300, 26)
    label(heading, x + 10, y + 21, f"Seat {seat}{you}: {hp} HP{first}", size=16, font_weight="bold",
          fill=L.SEAT_TEXT[seat])
    title(heading, ", ".join(f"{name.replace('_', ' ')} {v}" for name, v in zip(_bamboo.SOURCES, p["hp"],
                                                                                 strict=True) if v))
    left, right, total = _comfort(c, p["home"])
    beside = x + 10 + c.home_cols * B.HOME_CELL + 20            # the spirits, then the scored tiles, right of the home
    _scored(score, c, p, seat, beside, y + B.BOARD_HEIGHT - 40, x + w - 10 - beside)
    label(score, x + w - 10, y + 60, f"comfort {total} (left {left}, right {right})", size=B.SMALL, anchor="end",
          fill="#555555", data_comfort=seat, data_left=left, data_right=right)
    incense = sub(svg, "g", data_panel=f"player-{seat}-incense", data_player=seat)
    _sticks(incense, x + 106, y + 68, p["incense"], L.SEAT_COLOURS[seat], data_incense_reserve=seat)
    for k in range(rounds):
        stick = int(k >= rounds - p["track"])
        space = sub(incense, "g", data_round_space=f"{seat}-{k + 1}", data_stick=stick)
        if stick:
            sub(space, "rect", x=rx + k * 18 + 5, y=y + 40, width=B.STICK[0], height=26, rx=1.5,
                fill=L.SEAT_COLOURS[seat], stroke="#333333", stroke_width=0.5)
    goods = sub(svg, "g", data_panel=f"player-{seat}-goods", data_player=seat)
    coins = sub(goods, "g", data_coins=seat, data_count=p["coins"])
    sub(coins, "circle", cx=x + 26, cy=y + 54, r=15, fill=B.COIN, stroke="#8a6d1b")
    label(coins, x + 26, y + 59, p["coins"], size=B.TEXT, anchor="middle", font_weight="bold")
    title(coins, f"{p['coins']} coin{'s' if p['coins'] != 1 else ''}")
    for kind, name in enumerate(c.food_names):
        food = sub(goods, "g", data_player_food=f"{seat}-{name}", data_count=p["food"][kind])
        hit_area(food, fx + kind * 64 - 14, y + 40, 50, 28)
        label(food, fx + kind * 64 + 17, y + 59, f"\u00d7{p['food'][kind]}", size=B.TEXT)
        title(food, f"{p['food'][kind]} {name}")
    _areas(svg, p, seat, x, y + 80, w)
    _home(svg, c, p, seat, x, y + 148, w)
    _spirits(svg, c, p, seat, beside, y + 252, x + w - 10)


def _scored(parent: ET.Element, c: BambooComponents, p: dict[str, Any], seat: int, x: float, y: float,
            w: float) -> None:
    """The balance tiles `seat` has scored, in a row on its board (each was shown to every player when scored):
    a small tile of its side's colour showing its HP; they overlap when there are more than the row holds."""
    tiles = [tile for tile in range(len(c.balance_ids)) if p["scored"][tile // 8] >> tile % 8 & 1]
    label(parent, x, y + 19, f"scored balance {p['n_scored']}", size=B.SMALL, data_balance_scored=seat,
          data_count=p["n_scored"])
    tw, th = B.SCORED_TILE
    first = x + 130
    step = min(tw + 4, (x + w - tw - first) / max(1, len(tiles) - 1))
    for i, tile in enumerate(tiles):
        side, hp = int(c.balance_side[tile]), int(c.balance_hp[tile])
        tx = first + i * step
        group = sub(parent, "g", data_scored_balance=f"{seat}-{c.balance_ids[tile]}", data_side=SIDES[side],
                    data_hp=hp)
        sub(group, "rect", x=tx, y=y, width=tw, height=th, rx=3, fill=B.BALANCE_FILL[side], stroke="#6d5c8a")
        label(group, tx + tw / 2, y + 19, f"{hp}", size=B.TEXT, anchor="middle", font_weight="bold")
        title(group, f"balance tile {c.balance_ids[tile]} ({SIDES[side]}), scored for {hp} HP; "
                     f"{_pattern_text(c, tile)}")


def _comfort(c: BambooComponents, home: list[int]) -> tuple[int, int, int]:
    """The comfort of the home tiles on the left part, on the right part and on the whole home (harmony compares
    the first two; the third breaks ties)."""
    def on(mask: int) -> int:
        return sum(int(c.home_comfort[tile]) for cell, tile in enumerate(home) if tile != NO_TILE and mask >> cell & 1)
    return on(c.region_masks[0]), on(c.region_masks[2]), on(c.region_masks[1])


def _areas(svg: ET.Element, p: dict[str, Any], seat: int, x: float, y: float, w: float) -> None:
    """The four temple areas with their shoots, front first, and the action marker on the last area visited."""
    group = sub(svg, "g", data_panel=f"player-{seat}-areas", data_player=seat)
    aw = (w - 20 - 3 * 6) / len(p["area"])
    for t, area in enumerate(p["area"]):
        ax = x + 10 + t * (aw + 6)
        box = sub(group, "g", data_area=f"{seat}-{t + 1}")
        sub(box, "rect", x=ax, y=y, width=aw, height=60, rx=4, fill=B.TEMPLE_FILLS[t], stroke=B.TEMPLE_COLOURS[t])
        label(box, ax + 6, y + 16, f"area {t + 1}", size=B.SMALL, fill=B.TEMPLE_COLOURS[t], font_weight="bold")
        step = min(2 * B.SHOOT_RADIUS + 4, (aw - 8) / len(area))
        for i, kind in enumerate(area):
            if kind != NO_TILE:
                _shoot(box, kind, ax + 4 + step / 2 + i * step, y + 40, r=min(B.SHOOT_RADIUS, step / 2 - 1),
                       data_shoot=f"{seat}-area-{t + 1}-{i + 1}")
        if p["last_visit"] == t:
            marker = sub(group, "g", data_action_marker=seat, data_area=t + 1)
            sub(marker, "polygon", points=f"{ax + aw - 22:.1f},{y + 4} {ax + aw - 6:.1f},{y + 4} "
                                          f"{ax + aw - 14:.1f},{y + 16}", fill="#222222")
            title(marker, "action marker: the area of the last visit (not to be visited next)")


def _home(svg: ET.Element, c: BambooComponents, p: dict[str, Any], seat: int, x: float, y: float, w: float) -> None:
    """The balance slots (left, center, right, front first) above the home grid; on the nighttime side the typed
    spaces are edged in their type's colour and lettered."""
    group = sub(svg, "g", data_panel=f"player-{seat}-home", data_player=seat)
    bw, bh = B.BALANCE_TILE
    step = min(bw + 6, (w - 20) / (len(SIDES) * len(p["balance"][0])))
    for side, slots in enumerate(p["balance"]):
        for j, tile in enumerate(slots):
            sx = x + 10 + (side * len(slots) + j) * step
            if tile == NO_TILE:
                sub(group, "rect", x=sx, y=y, width=bw, height=bh, rx=4, fill="none", stroke="#bbbbbb",
                    stroke_dasharray="4 4")
                label(group, sx + bw / 2, y + bh / 2 + 5, SIDES[side], size=B.SMALL, anchor="middle", fill="#888888")
            else:
                _balance_tile(group, c, tile, sx, y, data_balance_slot=f"{seat}-{SIDES[side]}-{j + 1}")
    typed = dict(zip(map(int, c.night_cells), map(int, c.night_types), strict=True)) if p["advanced"] else {}
    cell = B.HOME_CELL
    gy = y + bh + 28
    label(group, x + 10, gy - 8, "home", size=B.SMALL, fill="#555555")
    for index, tile in enumerate(p["home"]):
        row, col = divmod(index, c.home_cols)
        sx, sy = x + 10 + col * cell, gy + row * cell
        kind = typed.get(index)
        space = sub(group, "g", data_home_space=f"{seat}-r{row + 1}c{col + 1}",
                    data_night_type=HOME_TYPES[kind] if kind is not None else None)
        sub(space, "rect", x=sx, y=sy, width=cell - 3, height=cell - 3, rx=3, fill="#f4efe2",
            stroke=B.HOME_TYPE_COLOURS[kind] if kind is not None else "#bbbbbb", stroke_width=3 if kind is not None
            else 1)
        if kind is not None:
            label(space, sx + (cell - 3) / 2, sy + cell / 2 + 4, B.HOME_TYPE_LETTERS[kind], size=B.TEXT,
                  anchor="middle", fill=B.HOME_TYPE_COLOURS[kind])
        if tile != NO_TILE:
            _home_tile(space, c, tile, sx + 2, sy + 2, cell - 7, cell - 7, priced=False)


def _spirits(svg: ET.Element, c: BambooComponents, p: dict[str, Any], seat: int, x: float, y: float,
             right: float) -> None:
    """The spirits held, a tile per kind with its copies and how many of them are asleep (greyed when all are)."""
    group = sub(svg, "g", data_panel=f"player-{seat}-spirits", data_player=seat)
    label(group, x, y - 8, "spirits (zz: asleep)" if any(p["spirits"]) else "no spirit yet", size=B.SMALL,
          fill="#555555")
    held = [(spirit, n, asleep) for spirit, (n, asleep) in enumerate(zip(p["spirits"], p["asleep"], strict=True)) if n]
    per_row = max(2, int((right - x + 6) // 150))
    tw = (right - x + 6) / per_row - 6
    for k, (spirit, n, asleep) in enumerate(held):
        row, col = divmod(k, per_row)
        tile = sub(group, "g", data_player_spirit=f"{seat}-{c.spirit_names[spirit]}", data_count=n, data_asleep=asleep)
        _spirit_tile(tile, c, spirit, x + col * (tw + 6), y + row * 33, tw, 29, copies=n, asleep=asleep)


__all__ = ["draw"]
