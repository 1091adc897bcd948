"""The picture of a Pig state: a race track with a lane per seat (its banked points toward the goal, the mover's
turn total drawn on from them, how the seat's last turn ended), the die as last rolled with the turn total it made,
and how the last turn ended, as an SVG tree.

Everything is drawn from `state.observation(viewer)` and the component data; Pig hides nothing, so the seats'
pictures differ only in which lane says "you". Each drawn thing carries a data attribute naming it (data-lane,
data-score-seat, data-at-stake, data-seat-last-turn, data-die, data-turn-total, data-last-turn). The top-level
children are panels
(<g data-panel=...>): the track's frame and scale never change, a lane changes when its seat banks or rolls.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from borabora_sim import _pig
from borabora_sim.games.pig import layout as P
from borabora_sim.kits import house_style as L
from borabora_sim.kits.svg import hit_area, label, panel, root, seat_chip, seat_text, sub, title


def draw(state: _pig.State, viewer: int | None = None) -> ET.Element:
    """The picture of `state` as `viewer` sees it (None: the public view, which differs from a seat's only in
    naming no lane "you")."""
    view = state.observation(viewer)
    goal = state.components.goal
    players = len(view["pl"])
    track_height = 54 + P.LANE * players
    turn_top = P.TRACK_TOP + track_height + 8
    height = turn_top + P.TURN_HEIGHT + 10
    svg = root(P.WIDTH, height, font_family=L.FONT, data_game="pig", data_viewer=seat_text(viewer),
               data_players=players)
    sub(svg, "rect", x=0, y=0, width=P.WIDTH, height=height, fill=L.BACKGROUND, data_panel="background")
    _header(svg, state, viewer)
    _track(svg, view, goal, track_height, viewer)
    _turn(svg, view, state.components.faces, turn_top)
    return svg


def _header(svg: ET.Element, state: _pig.State, viewer: int | None) -> None:
    group = sub(svg, "g", data_panel="header")
    if state.is_terminal():
        line = f"Pig: game over, seat {state.winner()} reached {state.components.goal} and wins"
    else:
        line = f"Pig: round {state.round}; seat {state.current_player} decides: roll again or hold"
    decides = sub(group, "g", data_round=state.round, data_phase=state.phase, data_to_move=state.current_player,
                  data_decision=None if state.is_terminal() else state.decision)
    hit_area(decides, 10, 10, min(len(line) * 11.5, P.WIDTH - 150), 30)
    label(decides, 12, 32, line, size=20, font_weight="bold", fill=L.TEXT)
    label(group, P.WIDTH - 12, 32, "public view" if viewer is None else f"as seat {viewer} sees it", size=P.TEXT,
          anchor="end", fill=L.MUTED)


def _x(points: float, goal: int) -> float:
    """The x of `points` on a lane (the goal and beyond at the goal's line)."""
    span = P.WIDTH - 10 - P.TRACK_LEFT - P.TRACK_RIGHT
    return P.TRACK_LEFT + span * min(points, goal) / goal


def _track(svg: ET.Element, view: dict[str, Any], goal: int, height: float, viewer: int | None) -> None:
    """The frame and scale (a panel of its own: they never change), then each seat's lane."""
    box = (10, P.TRACK_TOP, P.WIDTH - 20, height)
    frame = panel(svg, "track", box, f"Race to {goal}")
    top = P.TRACK_TOP + 30
    bottom = top + P.LANE * len(view["pl"])
    step = P.TICK * max(1, goal // (10 * P.TICK))          # ten ticks or so
    for points in range(0, goal + 1, step):
        sub(frame, "line", x1=_x(points, goal), y1=top, x2=_x(points, goal), y2=bottom, stroke="#e4dcc2")
        label(frame, _x(points, goal), bottom + 16, points, size=P.SMALL, anchor="middle", fill="#555555")
    line = sub(frame, "g", data_goal=goal)
    sub(line, "line", x1=_x(goal, goal), y1=top - 4, x2=_x(goal, goal), y2=bottom, stroke=P.GOAL_LINE, stroke_width=3)
    label(line, _x(goal, goal) + 6, top - 8, f"goal {goal}", size=P.TEXT, font_weight="bold", fill=P.GOAL_LINE)
    mover = view["stack"][0]["player"] if view["sp"] else None
    for seat, p in enumerate(view["pl"]):
        _lane(svg, view, seat, p, goal, top + seat * P.LANE, seat == mover, viewer)


def _lane(svg: ET.Element, view: dict[str, Any], seat: int, p: dict[str, Any], goal: int, y: float, moving: bool,
          viewer: int | None) -> None:
    """A seat's lane: its chip and score, the bar of its banked points, and for the mover its turn total at stake
    drawn on from them (it would win where it reaches the goal)."""
    score = p["score"][0]
    lane = sub(svg, "g", data_panel=f"lane-{seat}", data_lane=seat)
    if moving:
        sub(lane, "rect", x=14, y=y + 1, width=P.WIDTH - 28, height=P.LANE - 2, rx=4, fill="#ffe9a8", opacity=0.5)
    seat_chip(lane, 32, y + P.LANE / 2, seat, r=13)
    you = " (you)" if viewer == seat else ""
    first = ", 1st" if view["start_seat"] == seat else ""
    label(lane, 52, y + 19, f"seat {seat}{you}{first}", size=P.SMALL, fill=L.TEXT)
    label(lane, 52, y + 37, f"{score} banked", size=P.TEXT, font_weight="bold", fill=L.TEXT, data_score_seat=seat,
          data_score=score)
    bar_y = y + (P.LANE - P.LANE_BAR) / 2
    sub(lane, "rect", x=P.TRACK_LEFT, y=bar_y, width=_x(goal, goal) - P.TRACK_LEFT, height=P.LANE_BAR, rx=3,
        fill="none", stroke="#cccccc")
    banked = sub(lane, "rect", x=P.TRACK_LEFT, y=bar_y, width=_x(score, goal) - P.TRACK_LEFT, height=P.LANE_BAR,
                 rx=3, fill=L.SEAT_COLOURS[seat], opacity=P.BANKED_OPACITY, data_banked=seat)
    title(banked, f"seat {seat}: {score} of {goal} banked; {p['turns']} turns, {p['holds']} held, "
                  f"{p['pig_outs']} lost to a 1 ({p['points_lost']} points)")
    if moving and view["turn_total"]:
        stake = sub(lane, "g", data_at_stake=seat, data_points=view["turn_total"])
        sub(stake, "rect", x=_x(score, goal), y=bar_y, width=_x(score + view["turn_total"], goal) - _x(score, goal),
            height=P.LANE_BAR, fill=L.SEAT_COLOURS[seat], opacity=P.AT_STAKE_OPACITY, stroke=L.SEAT_COLOURS[seat],
            stroke_dasharray="4 2")
        title(stake, f"at stake: the turn total {view['turn_total']}; holding makes {score + view['turn_total']}")
    if p["last_end"]:
        how = _pig.TURN_ENDS[p["last_end"]]
        lost = f": \u2212{p['last_turn']}" if p["last_turn"] else ""
        text = f"held {p['last_turn']}" if how == "hold" else f"rolled 1{lost}"
        label(lane, _x(goal, goal) + 8, y + 28, text, size=P.SMALL, fill=L.TEXT if how == "hold" else P.PIG_OUT,
              data_seat_last_turn=seat, data_end=how, data_points=p["last_turn"])


def _die(parent: ET.Element, x: float, y: float, face: int, size: float, colour: str, **data: object) -> None:
    """A die showing `face`: pips for 1..6, the number on a die of more faces."""
    group = sub(parent, "g", data_die=face, **data)
    sub(group, "rect", x=x, y=y, width=size, height=size, rx=size / 6, fill=P.DIE_FILL, stroke=colour,
        stroke_width=2.5)
    if face in P.PIPS:
        cell = size / 4
        for col, row in P.PIPS[face]:
            sub(group, "circle", cx=x + cell * (col + 1), cy=y + cell * (row + 1), r=P.PIP * size / P.DIE,
                fill=P.PIG_OUT if face == 1 else L.TEXT)
    else:
        label(group, x + size / 2, y + size * 0.65, face, size=size * 0.45, anchor="middle", font_weight="bold")
    title(group, f"a roll of {face}")


def _turn(svg: ET.Element, view: dict[str, Any], faces: int, top: float) -> None:
    """The die as last rolled and the turn total (what Roll and Hold act on), and how the last turn ended."""
    panel(svg, "turn", (10, top, P.WIDTH - 20, P.TURN_HEIGHT), f"The turn (a die of {faces} faces: a 1 loses it)")
    group = sub(svg, "g", data_panel="turn-state")
    y = top + 32
    playing = view["sp"] > 0
    if playing:
        seat = view["stack"][0]["player"]
        _die(group, 24, y, view["last_roll"], P.DIE, L.SEAT_COLOURS[seat], data_roll=seat)
        total = sub(group, "g", data_turn_total=seat, data_points=view["turn_total"])
        sub(total, "rect", x=104, y=y, width=170, height=P.DIE, rx=6, fill="#fff7dd", stroke=L.SEAT_COLOURS[seat],
            stroke_width=2)
        label(total, 189, y + 26, f"turn total {view['turn_total']}", size=14, anchor="middle", font_weight="bold")
        label(total, 189, y + 48, f"hold: {view['pl'][seat]['score'][0] + view['turn_total']} banked",
              size=P.SMALL, anchor="middle", fill="#555555")
        label(group, 24, y + P.DIE + 20, f"seat {seat}: roll again (the die) or hold (the turn total)", size=P.SMALL,
              fill="#555555")
    else:
        label(group, 24, y + 30, "the game is over", size=14, fill=L.MUTED)
    _last_turn(group, view, 300, y)


def _last_turn(parent: ET.Element, view: dict[str, Any], x: float, y: float) -> None:
    seat = view["last_seat"]
    if seat < 0:
        label(parent, x, y + 20, "no turn has ended yet", size=P.SMALL, fill="#555555")
        return
    how, points = _pig.TURN_ENDS[view["pl"][seat]["last_end"]], view["pl"][seat]["last_turn"]
    group = sub(parent, "g", data_last_turn=seat, data_end=how, data_points=points)
    label(group, x, y + 12, "last turn", size=P.SMALL, fill="#555555")
    seat_chip(group, x + 13, y + 34, seat, r=13)
    if how == "hold":
        text = f"held and banked {points}"
    else:
        _die(group, x + 32, y + 20, 1, 28, P.PIG_OUT)
        text = f"rolled a 1: lost {points}" if points else "rolled a 1 at once"
    label(group, x + (70 if how == "pig_out" else 34), y + 39, text, size=P.TEXT,
          fill=P.PIG_OUT if how == "pig_out" else L.TEXT)


__all__ = ["draw"]
