"""PNG pictures of states, for reports and documents that cannot show SVG: the SVG picture (`to_svg`) rasterised
by CairoSVG, an optional dependency (`pip install 'borabora_sim[png]'`) that draws with the system's cairo
library.

CairoSVG is used because it renders the SVG these pictures use (shapes, text, groups, transforms, dash patterns,
opacity) without a browser, is a small pure-Python package kept up by the CourtBouillon team (who also keep
WeasyPrint), and needs only libcairo2, which Debian installs with Chromium and most desktops have.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from borabora_sim.protocol import Game, GameState
from borabora_sim.viewer.picture import to_svg

INSTALL_HINT = "pip install 'borabora_sim[png]'"
MAX_SCALE = 8.0


def _svg2png() -> Any:
    """CairoSVG's converter; a missing package or a missing cairo library is an ImportError saying what to install
    (cairocffi refuses to import without the library, with an OSError)."""
    try:
        import cairosvg
    except ImportError:
        raise ImportError(f"PNG pictures need the CairoSVG package: {INSTALL_HINT}") from None
    except OSError as error:
        raise ImportError(f"PNG pictures need the cairo library (libcairo2 on Debian and Ubuntu), which CairoSVG "
                          f"draws with: {error}") from None
    return cairosvg.svg2png


def check_png_support() -> None:
    """Nothing when PNG pictures can be made here; else the ImportError saying what to install."""
    _svg2png()


def check_scale(scale: object) -> float:
    """A scale is a number in (0, MAX_SCALE]: 1 gives one pixel per unit of the picture (Bora Bora's is 1480
    wide)."""
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not math.isfinite(scale) \
            or not 0 < scale <= MAX_SCALE:
        raise ValueError(f"scale must be a number in (0, {MAX_SCALE:g}], got {scale!r}")
    return float(scale)


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """The PNG image of the SVG document `svg`, `scale` pixels per unit, on an opaque white background."""
    scale = check_scale(scale)
    data: bytes = _svg2png()(bytestring=svg.encode("utf-8"), scale=scale, background_color="white")
    return data


def to_png(state: GameState, viewer: int | None = None, path: str | os.PathLike[str] | None = None,
           scale: float = 1.0, game: Game | str | None = None) -> bytes:
    """The PNG image of `state` as seat `viewer` sees it (None: the public view), `scale` pixels per unit of the
    SVG picture; written to `path` too when it is given. Needs CairoSVG (`pip install 'borabora_sim[png]'`)."""
    check_scale(scale)
    target = None if path is None else Path(path)
    if target is not None and not target.parent.is_dir():
        raise FileNotFoundError(f"cannot write {target}: no such directory {target.parent}")
    data = svg_to_png(to_svg(state, viewer, game), scale)
    if target is not None:
        target.write_bytes(data)
    return data


__all__ = ["svg_to_png", "to_png"]
