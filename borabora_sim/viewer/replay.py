"""The HTML replay: one self-contained file that steps through a game, with the board picture of every
decision, the decision log in words, the reasons of the players that weigh options, and a chart of the scores by
source over time.

The file needs no network: frames are inline SVG, the script and styles are inline. To keep it small, a frame is
stored as the list of its panels (the top-level children of the picture), and each distinct panel once: a move
changes a panel or two, so a whole 4-player game of several hundred decisions stays a few megabytes. The scores
are stored as the changes of each seat's score by source, and the reasons as a few best options per decision.
"""

from __future__ import annotations

import html
import json
import os
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from borabora_sim.errors import check_int
from borabora_sim.games import DEFAULT_GAME, get_game
from borabora_sim.kits import house_style as L
from borabora_sim.kits.svg import label, open_tag, root, sub, to_string
from borabora_sim.match import play_game
from borabora_sim.players.base import SeededPlayer
from borabora_sim.players.reasons import Reasons
from borabora_sim.protocol import Game, check_seed
from borabora_sim.viewer.page import PAGE
from borabora_sim.viewer.registry import check_viewer, renderer_for

REASON_OPTIONS = 6              # options kept of each decision's reasons (the best ones, and the chosen one)


@dataclass(frozen=True)
class RecordedGame:
    """A game to replay: the game object, the game seed, the player specs by seat, every action taken, by
    decision the reasons of the players that weigh options (None for the others and for forced moves; empty
    when not recorded), and the players by seat in words ("the balanced heuristic"), as a page names them."""

    game: Game
    seed: int
    players: tuple[str, ...]
    actions: tuple[int, ...]
    reasons: tuple[Reasons | None, ...] = ()
    names: tuple[str, ...] = ()


def record_game(game_seed: int, players: Sequence[str], components: str | os.PathLike[str] | None = None,
                game: str = DEFAULT_GAME, reasons: int = REASON_OPTIONS) -> RecordedGame:
    """Plays the game `borabora replay` and the simulator play for this seed and these specs (each player seeded
    from the game seed; all-random games from the compiled playout's actions) and records its actions, and the
    `reasons` best options of each decision of a heuristic or search player (0: no reasons)."""
    from borabora_sim.simulate import seated_players

    specs = tuple(players)
    played = get_game(game, components)
    seed = check_seed(game_seed)
    top = check_int(reasons, "reasons", 0, 10_000)
    seated = seated_players(specs, seed, played)
    names = tuple(player.in_words() for player in seated)
    if all(spec == "random" for spec in specs):
        return RecordedGame(played, seed, specs, tuple(played.random_game_actions(len(specs), seed)), names=names)
    why: list[Reasons | None] = []
    keep_reasons = (lambda _state, seat, _action: why.append(reasons_of(seated[seat], top))) if top else None
    record = play_game(seated, seed, played, keep_actions=True, on_decision=keep_reasons)
    return RecordedGame(played, seed, specs, tuple(record.actions), tuple(why) if top else (), names)


def reasons_of(player: SeededPlayer, top: int) -> Reasons | None:
    """The reasons of `player`'s last decision with its `top` best options (Player.reasons: the heuristic's
    evaluation of each option, a search's root statistics, in the game's words); None for a player that does not
    weigh options and for a move that needed no weighing."""
    reasons = player.reasons(top)
    return reasons if reasons is not None and reasons.weighed >= 2 else None


def replay_html(path: str | os.PathLike[str], game_seed: int, players: Sequence[str],
                components: str | os.PathLike[str] | None = None, game: str = DEFAULT_GAME,
                viewer: int | None = None, reasons: int = REASON_OPTIONS) -> Path:
    """Writes the replay of the game with seed `game_seed` and these player specs by seat (as `borabora replay`
    plays it) to the HTML file `path`, seen by seat `viewer` (None: the public view), with the `reasons` best
    options of each decision of a player that weighs options; returns the path."""
    target = Path(path)
    if not target.parent.is_dir():            # refused before the game is played, like a game without a picture
        raise FileNotFoundError(f"cannot write {target}: no such directory {target.parent}")
    renderer_for(get_game(game, components).name)
    record = record_game(game_seed, players, components, game, reasons)
    target.write_text(replay_page(record, viewer), encoding="utf-8")
    return target


def replay_png(path: str | os.PathLike[str], game_seed: int, players: Sequence[str],
               components: str | os.PathLike[str] | None = None, game: str = DEFAULT_GAME,
               viewer: int | None = None, step: int | None = None, scale: float = 1.0) -> Path:
    """Writes the PNG picture (`to_png`) of the game with seed `game_seed` and these player specs by seat (as
    `borabora replay` plays it) after `step` decisions (None: at its end), seen by seat `viewer` (None: the public
    view), to `path`; returns the path. Needs CairoSVG (`pip install 'borabora_sim[png]'`)."""
    from borabora_sim.viewer.png import check_png_support, check_scale, svg_to_png

    target = Path(path)
    if not target.parent.is_dir():            # refused before the game is played
        raise FileNotFoundError(f"cannot write {target}: no such directory {target.parent}")
    draw = renderer_for(get_game(game, components).name)
    check_scale(scale)
    check_png_support()
    record = record_game(game_seed, players, components, game, reasons=0)
    state = record.game.new_initial_state(players=len(record.players), seed=record.seed)
    viewer = check_viewer(state, viewer)
    decisions = len(record.actions) if step is None else check_int(step, "step", 0, len(record.actions))
    for action in record.actions[:decisions]:
        state.apply(action)
    target.write_bytes(svg_to_png(to_string(draw(state, viewer)), scale))
    return target


def replay_page(record: RecordedGame, viewer: int | None = None) -> str:
    """The HTML text of the replay of `record`, seen by seat `viewer` (None: the public view)."""
    draw = renderer_for(record.game.name)
    state = record.game.new_initial_state(players=len(record.players), seed=record.seed)
    viewer = check_viewer(state, viewer)
    pieces: dict[str, int] = {}
    roots: dict[str, int] = {}
    frames: list[list[int]] = []
    breakdowns: list[list[dict[str, int]]] = []
    log: list[dict[str, Any]] = []

    def snapshot() -> None:
        picture = draw(state, viewer)
        frame = [roots.setdefault(open_tag(picture), len(roots))]
        frame += [pieces.setdefault(to_string(child), len(pieces)) for child in picture]
        frames.append(frame)
        breakdowns.append(state.score_breakdown())

    snapshot()
    game = record.game
    for action in record.actions:
        log.append({"seat": state.current_player, "heading": game.describe_phase(state),
                    "decision": game.describe_decision(state), "move": game.describe_action(state, action)})
        state.apply(action)
        snapshot()
    data = {
        "roots": list(roots), "pieces": list(pieces), "frames": frames,
        "sources": [game.describe_source(source) for source in game.sources], "players": len(record.players),
        "unit": game.score_unit,
        "changes": _score_changes(breakdowns, list(record.game.sources)),
        "colours": list(L.SEAT_COLOURS), "names": list(record.names),
        "reasons": [None, *(_reasons_data(r) for r in record.reasons)] if record.reasons else [],
        "winner": state.winner(),
    }
    seats = ", ".join(f"seat {s}: {name}" for s, name in enumerate(record.names))
    heading = f"{record.game.name.replace('_', ' ').title()}: game seed {record.seed}; {seats}"
    return PAGE.substitute(
        title=html.escape(heading),
        heading=html.escape(heading),
        view=html.escape("public view" if viewer is None else f"as seat {viewer} sees it"),
        last=len(frames) - 1,
        log=_log_html(log, record.reasons),
        chart=to_string(score_chart(breakdowns, list(game.sources), game.score_unit,
                                    [game.describe_source(source) for source in game.sources])),
        data=json.dumps(data, separators=(",", ":")).replace("</", "<\\/"),
    )


def _reasons_data(reasons: Reasons | None) -> dict[str, Any] | None:
    """A decision's reasons as the page reads them: the rule, the column headings, the rows (move in words, the
    values as shown...), the index of the chosen row, the number of options weighed and the legend."""
    if reasons is None:
        return None
    return {"why": reasons.why, "cols": [column.heading for column in reasons.columns],
            "rows": [[option.words, *cells] for option, cells in zip(reasons.options, reasons.cells(), strict=True)],
            "c": reasons.chosen, "n": reasons.weighed, "legend": reasons.legend}


def _score_changes(breakdowns: list[list[dict[str, int]]], sources: list[str]) -> list[list[int]]:
    """[frame, seat, source index, new value] wherever a seat's points of a source change (frame 0: non-zero
    starting points); the page rebuilds every frame's scores from them."""
    changes = []
    previous = [dict.fromkeys(sources, 0) for _ in breakdowns[0]]
    for frame, rows in enumerate(breakdowns):
        for seat, row in enumerate(rows):
            for k, source in enumerate(sources):
                if row[source] != previous[seat][source]:
                    changes.append([frame, seat, k, row[source]])
            previous[seat] = row
    return changes


def _log_html(log: list[dict[str, Any]], reasons: Sequence[Reasons | None] = ()) -> str:
    """The decision log in the game's words: a heading at each new round and phase, then each move as
    `seat S: move` (its decision in the title); a move with reasons is of class "why"."""
    lines = ['<div class="move current" data-step="0">start of the game</div>']
    last = None
    for step, entry in enumerate(log, start=1):
        if entry["heading"] != last:
            lines.append(f'<div class="heading">{html.escape(entry["heading"])}</div>')
            last = entry["heading"]
        why = " why" if step <= len(reasons) and reasons[step - 1] is not None else ""
        lines.append(f'<div class="move{why}" data-step="{step}" data-seat="{entry["seat"]}" '
                     f'title="{html.escape(entry["decision"])}">'
                     f'<span class="seat s{entry["seat"]}">{entry["seat"]}</span>: {html.escape(entry["move"])}</div>')
    return "\n".join(lines)


def score_chart(breakdowns: list[list[dict[str, int]]], sources: list[str], unit: str = "VP",
                labels: Sequence[str] | None = None) -> ET.Element:
    """The scores by source over the decisions: one strip per seat, each source a stacked step area in its
    colour, named in the legend by its label (default: its name, spaced); a cursor line per strip (class
    "cursor") marks the frame shown. Areas change only where a score does, so the chart stays small."""
    named = dict(zip(sources, labels, strict=True)) if labels is not None else {}
    frames, players = len(breakdowns), len(breakdowns[0])
    top = max(1, *(sum(row.values()) for rows in breakdowns for row in rows))
    plot_w = L.CHART_WIDTH - L.CHART_LEFT - 8
    used = [s for s in sources if any(rows[seat][s] for rows in breakdowns for seat in range(players))]
    per_row = 2
    legend_rows = (len(used) + per_row - 1) // per_row
    height = players * L.CHART_STRIP + 26 + legend_rows * 18
    svg = root(L.CHART_WIDTH, height, font_family=L.FONT, data_chart="scores", data_plot_left=L.CHART_LEFT,
               data_plot_width=plot_w)

    def fx(frame: int) -> float:
        return L.CHART_LEFT + plot_w * frame / max(1, frames - 1)

    for seat in range(players):
        y0 = seat * L.CHART_STRIP + 6
        base = y0 + L.CHART_STRIP - 14

        def fy(value: float, base: float = base) -> float:
            return base - (L.CHART_STRIP - 22) * value / top

        strip = sub(svg, "g", data_chart_seat=seat)
        sub(strip, "rect", x=L.CHART_LEFT, y=fy(top), width=plot_w, height=base - fy(top), fill="#ffffff",
            stroke="#cccccc")
        label(strip, 4, y0 + 46, f"s{seat}", size=14, font_weight="bold", fill=L.SEAT_COLOURS[seat])
        label(strip, L.CHART_LEFT - 4, fy(top) + 10, top, size=L.MIN_TEXT, anchor="end", fill="#555555")
        label(strip, L.CHART_LEFT - 4, base, 0, size=L.MIN_TEXT, anchor="end", fill="#555555")
        below = [0] * frames
        for k, source in enumerate(sources):
            values = [rows[seat][source] for rows in breakdowns]
            if not any(values):
                continue
            above = [b + v for b, v in zip(below, values, strict=True)]
            points = _steps(above, fx, fy) + _steps(below, fx, fy)[::-1]
            sub(strip, "polygon", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                fill=L.SOURCE_COLOURS[k % len(L.SOURCE_COLOURS)], data_source=source)
            below = above
        sub(strip, "line", x1=fx(0), y1=fy(top), x2=fx(0), y2=base, stroke="#222222", stroke_width=1.5,
            class_="cursor")
    for i, source in enumerate(used):
        lx = 6 + (i % per_row) * (L.CHART_WIDTH - 12) / per_row
        ly = players * L.CHART_STRIP + 16 + (i // per_row) * 18
        sub(svg, "rect", x=lx, y=ly - 10, width=11, height=11,
            fill=L.SOURCE_COLOURS[sources.index(source) % len(L.SOURCE_COLOURS)])
        label(svg, lx + 15, ly, named.get(source, source.replace("_", " ")), size=L.MIN_TEXT)
    label(svg, L.CHART_WIDTH - 6, height - 5, f"x: decisions 0-{frames - 1}; y: {unit}", size=L.MIN_TEXT,
          anchor="end", fill="#555555")
    return svg


def _steps(values: list[int], fx: Callable[[int], float], fy: Callable[[float], float]
           ) -> list[tuple[float, float]]:
    """The corners of a step line through `values` (one per frame), left to right: only where it changes."""
    points = [(fx(0), fy(values[0]))]
    for frame in range(1, len(values)):
        if values[frame] != values[frame - 1]:
            points += [(fx(frame), fy(values[frame - 1])), (fx(frame), fy(values[frame]))]
    points.append((fx(len(values) - 1), fy(values[-1])))
    return points


__all__ = ["Reasons", "RecordedGame", "record_game", "replay_html", "replay_page", "replay_png"]
