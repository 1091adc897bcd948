"""PNG pictures (borabora_sim.viewer.to_png, replay_png, `borabora replay --png`): the image decodes, has the
picture's size times the scale, is not blank and shows the seat colours; without CairoSVG the error names the
extra to install."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib import image

import borabora_sim
from borabora_sim.cli import main
from borabora_sim.games.bamboo import new_game as new_bamboo_game
from borabora_sim.kits import house_style
from borabora_sim.viewer import record_game, replay_png, to_png, to_svg
from borabora_sim.viewer.png import check_png_support


def decode(data: bytes) -> np.ndarray:
    """The image as an array of height x width x channels, values in [0, 1]."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return np.asarray(image.imread(io.BytesIO(data), format="png"))


def svg_size(svg: str) -> tuple[float, float]:
    width = float(svg.split('width="', 1)[1].split('"', 1)[0])
    height = float(svg.split('height="', 1)[1].split('"', 1)[0])
    return width, height


def has_colour(pixels: np.ndarray, hex_colour: str) -> bool:
    """Whether some pixel is that colour (to within rounding)."""
    rgb = np.array([int(hex_colour[k:k + 2], 16) / 255 for k in (1, 3, 5)])
    return bool((np.abs(pixels[..., :3] - rgb).max(axis=-1) < 2 / 255).any())


def png_support() -> str | None:
    """None when PNG pictures can be made here, else why not (the package or the cairo library missing)."""
    try:
        check_png_support()
    except ImportError as error:
        return str(error)
    return None


needs_cairosvg = pytest.mark.skipif(png_support() is not None, reason=f"{png_support()}")


@needs_cairosvg
@pytest.mark.parametrize(("make", "scale"), [
    (lambda: borabora_sim.new_game(players=4, seed=7), 1.0),
    (lambda: new_bamboo_game(players=3, seed=7, mode="advanced"), 0.5),
])
def test_a_png_decodes_to_the_pictures_size_and_is_not_blank(make: object, scale: float, tmp_path: Path) -> None:
    state = make()      # type: ignore[operator]
    data = to_png(state, scale=scale, path=tmp_path / "board.png")
    assert (tmp_path / "board.png").read_bytes() == data
    pixels = decode(data)
    width, height = svg_size(to_svg(state))
    assert pixels.shape[:2] == (round(height * scale), round(width * scale))
    colours = np.unique((pixels[..., :3] * 255).round().astype(int).reshape(-1, 3), axis=0)
    assert len(colours) > 50 and pixels[..., :3].std() > 0.1
    assert all(has_colour(pixels, colour) for colour in house_style.SEAT_COLOURS[:state.num_players])


@needs_cairosvg
def test_a_seats_png_differs_from_the_public_one_by_its_own_cards() -> None:
    state = borabora_sim.new_game(players=2, seed=3)
    assert decode(to_png(state, viewer=0, scale=0.5)).shape == decode(to_png(state, scale=0.5)).shape
    assert to_png(state, viewer=0, scale=0.5) != to_png(state, scale=0.5)


def test_bad_arguments_are_refused_before_drawing(tmp_path: Path) -> None:
    state = borabora_sim.new_game(players=2, seed=3)
    for scale in (0, -1, 9, float("nan"), True, "2"):
        with pytest.raises(ValueError, match=r"scale must be a number in \(0, 8\]"):
            to_png(state, scale=scale)      # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError, match="no such directory"):
        to_png(state, path=tmp_path / "missing" / "x.png")
    with pytest.raises(ValueError, match=r"viewer must be an integer in \[0, 1\]"):
        to_png(state, viewer=2)


def test_without_cairosvg_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)       # an import of it fails, as when it is not installed
    with pytest.raises(ImportError, match=r"pip install 'borabora_sim\[png\]'"):
        to_png(borabora_sim.new_game(players=2, seed=3))
    with pytest.raises(ImportError, match=r"borabora_sim\[png\]"):
        check_png_support()
    out = tmp_path / "x.png"
    assert main(["replay", "--seed", "3", "--players", "random,random", "--png", str(out)]) == 2
    assert not out.exists()


@needs_cairosvg
def test_replay_png_draws_the_position_after_a_number_of_decisions(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    specs = ["heuristic", "random", "random"]
    actions = record_game(5, specs, reasons=0).actions
    state = borabora_sim.new_game(players=3, seed=5)
    for action in actions[:40]:
        state.apply(action)
    assert replay_png(tmp_path / "a.png", 5, specs, step=40).read_bytes() == to_png(state)
    assert main(["replay", "--seed", "5", "--players", ",".join(specs), "--png", str(tmp_path / "b.png"),
                 "--at", "40"]) == 0
    assert "after 40 decisions" in capsys.readouterr().out
    assert (tmp_path / "b.png").read_bytes() == to_png(state)
    for action in actions[40:]:
        state.apply(action)
    assert main(["replay", "--seed", "5", "--players", ",".join(specs), "--png", str(tmp_path / "c.png")]) == 0
    assert (tmp_path / "c.png").read_bytes() == to_png(state) and state.is_terminal()
    with pytest.raises(ValueError, match=rf"step must be an integer in \[0, {len(actions)}\]"):
        replay_png(tmp_path / "d.png", 5, specs, step=len(actions) + 1)
    assert main(["replay", "--seed", "5", "--players", ",".join(specs), "--at", "3"]) == 2
    assert "--at is for --png" in capsys.readouterr().err
