"""Small helpers to build SVG with xml.etree, and to write it: text and attributes are escaped, so the output is
always well-formed, and attributes keep the order they are given in, so the same drawing gives the same bytes.
The writer is a plain one for these trees (no namespaces, no comments): a replay writes hundreds of pictures, and
it is several times faster than ElementTree.tostring."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache

from borabora_sim.kits import house_style as L

SVG_NS = "http://www.w3.org/2000/svg"


def _value(value: object) -> str:
    """Numbers with at most one decimal and no trailing zeros; everything else as str."""
    if type(value) is str:
        return value
    if isinstance(value, float):
        text = f"{value:.1f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return str(value)


def _attributes(attrs: dict[str, object]) -> dict[str, str]:
    """Keyword names to SVG names: a trailing underscore is dropped (class_), other underscores become hyphens
    (data_seat, font_size); None leaves the attribute out."""
    return {_name(name): _value(value) for name, value in attrs.items() if value is not None}


@cache
def _name(keyword: str) -> str:
    return keyword.rstrip("_").replace("_", "-")


def root(width: float, height: float, **attrs: object) -> ET.Element:
    """An <svg> element of that size (user units = pixels)."""
    return ET.Element("svg", _attributes({"xmlns": SVG_NS, "width": width, "height": height,
                                          "viewBox": f"0 0 {_value(width)} {_value(height)}", **attrs}))


def sub(parent: ET.Element, tag: str, text: object = None, **attrs: object) -> ET.Element:
    """A child element of `parent`, with text content when `text` is not None."""
    element = ET.SubElement(parent, tag, _attributes(attrs))
    if text is not None:
        element.text = _value(text)
    return element


def label(parent: ET.Element, x: float, y: float, text: object, size: float = 11, anchor: str = "start",
          **attrs: object) -> ET.Element:
    """A <text> at (x, y) (the baseline), `anchor` start, middle or end."""
    return sub(parent, "text", text, x=float(x), y=float(y), font_size=size,
               text_anchor=None if anchor == "start" else anchor, **attrs)


def title(parent: ET.Element, text: str) -> None:
    """A tooltip for `parent` (the full text of a shortened label)."""
    sub(parent, "title", text)


def _escape(text: str) -> str:
    if "&" in text or "<" in text or ">" in text or '"' in text:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return text


def open_tag(element: ET.Element) -> str:
    """The start tag of `element` alone (its attributes, without children)."""
    return "<" + element.tag + "".join(f' {k}="{_escape(v)}"' for k, v in element.attrib.items()) + ">"


def _write(element: ET.Element, out: list[str]) -> None:
    start = open_tag(element)
    if not len(element) and element.text is None:
        out.append(start[:-1] + " />")
        return
    out.append(start)
    if element.text is not None:
        out.append(_escape(element.text))
    for child in element:
        _write(child, out)
    out.append(f"</{element.tag}>")


def to_string(element: ET.Element) -> str:
    """The XML text of `element` and its children (text inside elements only: these trees have no tails)."""
    out: list[str] = []
    _write(element, out)
    return "".join(out)


# Pieces every game's picture draws alike (sizes and colours from house_style.py).
def seat_text(viewer: int | None) -> str:
    """The viewer as the pictures' data attributes name it."""
    return "public" if viewer is None else str(viewer)


def board_slots(width: float, gap: float, players: int, margin: float = 10) -> list[tuple[float, float]]:
    """(x, width) of each seat's board, side by side in a row across a picture `width` wide."""
    board = (width - 2 * margin - gap * (players - 1)) / players
    return [(margin + seat * (board + gap), board) for seat in range(players)]


def board_places(width: float, gap: float, players: int, per_row: int, margin: float = 10
                 ) -> list[tuple[float, int, float]]:
    """(x, row, width) of each seat's board, `per_row` boards to a row across a picture `width` wide."""
    return [(x, seat // per_row, w) for seat, (x, w) in
            enumerate(board_slots(width, gap, per_row, margin) * ((players + per_row - 1) // per_row))][:players]


def panel(svg: ET.Element, name: str, box: tuple[float, float, float, float], heading: str) -> ET.Element:
    """A framed panel with its heading; its children are positioned in the picture's coordinates."""
    x, y, w, h = box
    group = sub(svg, "g", data_panel=name)
    sub(group, "rect", x=x, y=y, width=w, height=h, rx=6, fill=L.PANEL_FILL, stroke=L.PANEL_STROKE)
    label(group, x + 10, y + 19, heading, size=15, font_weight="bold", fill=L.TEXT)
    return group


def hit_area(parent: ET.Element, x: float, y: float, w: float, h: float) -> None:
    """An invisible rectangle that takes the clicks on a thing drawn in the box (x, y, w, h): the box, widened
    and heightened about its centre to at least MIN_TARGET units each way, so that a click target is never
    smaller."""
    wide, high = max(w, L.MIN_TARGET), max(h, L.MIN_TARGET)
    sub(parent, "rect", x=x + (w - wide) / 2, y=y + (h - high) / 2, width=wide, height=high, fill="#ffffff",
        fill_opacity=0)


def seat_chip(parent: ET.Element, x: float, y: float, seat: int, r: float = 12, **data: object) -> None:
    """A round marker in the seat's colour with its number (r 11 or more leaves room for the smallest text)."""
    group = sub(parent, "g", data_seat=seat, **data)
    sub(group, "circle", cx=x, cy=y, r=r, fill=L.SEAT_COLOURS[seat], stroke="#222222")
    size = max(L.MIN_TEXT, r * 1.15)
    label(group, x, y + size * 0.36, seat, size=size, anchor="middle", fill=L.SEAT_TEXT[seat])


__all__ = ["board_places", "board_slots", "hit_area", "label", "open_tag", "panel", "root", "seat_chip", "seat_text",
           "sub", "title", "to_string"]
