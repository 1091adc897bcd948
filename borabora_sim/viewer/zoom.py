"""How the replay page and browser play fit the board picture to the window, with a zoom: the styles, the buttons
and the script both pages share.

The picture is shown at "fit" at first: as wide as the board's room allows (no horizontal scrolling), and no taller
than the window when that makes it larger than drawn, at most `MAX_FIT` times its size, but never smaller than
`READABLE_SCALE` of it (a window too narrow for that, such as 1280 pixels for the widest pictures, scrolls the board
sideways). The side panels (scores, moves, tools) stand beside the board when it keeps at least `READABLE_SCALE`
of its drawn size there, and below it otherwise, and always below it in a window narrower than `NARROW` pixels.
Every picture draws its text at least `house_style.MIN_TEXT` units high and its click targets at least
`house_style.MIN_TARGET` units wide, so that at fit no text is under 11 pixels and no target under 24.

The zoom buttons (-, +, Fit), the keys - + 0 and Ctrl with the mouse wheel over the board zoom in steps; a board
zoomed wider than its room scrolls sideways. The script follows the board by itself (it watches what is put in
`#board`), so the pages' own scripts only draw the picture. Neither the styles nor the script use `$`: the replay
page is a string.Template."""

from __future__ import annotations

READABLE_SCALE = 0.9            # the least fit scale at which the side panels stand beside the board
NARROW = 1100                   # below this window width the side panels are always below the board
MAX_FIT = 2.0                   # the most "fit" enlarges a small picture
STEPS = (0.5, 0.6, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3)     # the zoom's steps, of the drawn size
# MIN_TEXT * READABLE_SCALE >= 11 and MIN_TARGET * READABLE_SCALE >= 24 (tests/test_viewer.py checks it)

STYLE = f"""
html {{ scrollbar-gutter: stable; }}
main {{ display: flex; gap: 10px; padding: 10px 8px; align-items: flex-start; --aside: 460px; }}
#board {{ flex: 1; min-width: 0; overflow-x: auto; }}
#board svg {{ display: block; }}
aside {{ width: var(--aside); flex: none; display: flex; flex-direction: column; gap: 8px; }}
main.stacked {{ flex-direction: column; }}
main.stacked #board {{ align-self: stretch; flex: none; }}
main.stacked aside {{ width: auto; align-self: stretch; display: grid; align-items: start;
                      grid-template-columns: repeat(auto-fill, minmax(min(100%, 440px), 1fr)); }}
@media (max-width: {NARROW - 1}px) {{
  main {{ flex-direction: column; }}
  #board {{ align-self: stretch; flex: none; }}
  aside {{ width: auto; align-self: stretch; }}
}}
.zoom {{ display: inline-flex; gap: 4px; align-items: center; flex: none; }}
.zoom button {{ min-width: 32px; min-height: 28px; font-size: 16px; line-height: 1; padding: 2px 6px; }}
.zoom button.fit {{ font-size: 13px; }}
.zoom .zoom-level {{ min-width: 64px; font-size: 12px; color: #555; text-align: left; }}
"""

BUTTONS = """<span class="zoom" role="group" aria-label="zoom of the board">
<button class="zoom-out" title="smaller (-, or Ctrl and the mouse wheel over the board)">&#x2212;</button>
<button class="zoom-in" title="larger (+, or Ctrl and the mouse wheel over the board)">+</button>
<button class="fit" title="fit the board to the window (0)">Fit</button>
<span class="zoom-level" aria-live="polite"></span>
</span>"""

_SETTINGS = (f"  var steps = [{', '.join(f'{step:g}' for step in STEPS)}], readable = {READABLE_SCALE:g}, "
             f"narrow = {NARROW}, maxFit = {MAX_FIT:g};")

SCRIPT = """
(function () {
  "use strict";
""" + _SETTINGS + """
  var board = document.getElementById("board");
  var main = board.parentElement;
  var levels = Array.prototype.slice.call(document.querySelectorAll(".zoom .zoom-level"));
  var scale = null;                   // null: fit; otherwise the scale chosen, of the drawn size
  var shown = 1;                      // the scale the picture is shown at
  function picture() { return board.querySelector("svg"); }
  function drawnSize(svg) {
    return [Number(svg.getAttribute("width")) || 1, Number(svg.getAttribute("height")) || 1];
  }
  function sticky() {
    var bar = document.querySelector("[data-sticky]");
    return bar ? bar.offsetHeight : 0;
  }
  // Side panels beside the board when the board keeps a readable size there, below it otherwise.
  function arrange(width) {
    var style = getComputedStyle(main);
    var room = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    var beside = room - parseFloat(style.getPropertyValue("--aside")) - parseFloat(style.columnGap || "0");
    var stacked = window.innerWidth < narrow || beside / width < readable;
    main.classList.toggle("stacked", stacked);
    document.body.toggleAttribute("data-stacked", stacked);
  }
  // Whatever is scrolled into view (a thing of the board, a section) stops below the bar that stays on top.
  function padTop() { document.documentElement.style.scrollPaddingTop = (sticky() + 8) + "px"; }
  // No smaller than `readable`: a window too narrow for that scrolls the board sideways instead.
  function fitScale(size) {
    var tall = (window.innerHeight - sticky() - 24) / size[1];
    return Math.max(readable, Math.min(board.clientWidth / size[0], Math.max(1, tall), maxFit));
  }
  function apply() {
    var svg = picture();
    if (!svg) { return; }
    var size = drawnSize(svg);
    padTop();
    arrange(size[0]);
    var fit = fitScale(size);
    shown = scale === null ? fit : scale;
    svg.style.width = (size[0] * shown).toFixed(1) + "px";
    svg.style.height = (size[1] * shown).toFixed(1) + "px";
    board.setAttribute("data-scale", shown.toFixed(4));
    levels.forEach(function (level) {
      level.textContent = (scale === null ? "fit " : "") + Math.round(shown * 100) + "%";
    });
  }
  function zoom(direction) {
    var from = shown, next;
    if (direction > 0) {
      next = steps.filter(function (step) { return step > from + 0.001; })[0];
      scale = next === undefined ? steps[steps.length - 1] : next;
    } else {
      next = steps.filter(function (step) { return step < from - 0.001; }).pop();
      scale = next === undefined ? steps[0] : next;
    }
    apply();
  }
  function fit() { scale = null; apply(); }
  document.querySelectorAll(".zoom .zoom-in").forEach(function (b) {
    b.addEventListener("click", function () { zoom(1); });
  });
  document.querySelectorAll(".zoom .zoom-out").forEach(function (b) {
    b.addEventListener("click", function () { zoom(-1); });
  });
  document.querySelectorAll(".zoom .fit").forEach(function (b) { b.addEventListener("click", fit); });
  document.addEventListener("keydown", function (event) {
    var typing = event.target.closest && event.target.closest("input, textarea, select");
    if (typing || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (event.key === "+" || event.key === "=") { zoom(1); }
    else if (event.key === "-") { zoom(-1); }
    else if (event.key === "0") { fit(); }
    else { return; }
    event.preventDefault();
  });
  board.addEventListener("wheel", function (event) {
    if (!event.ctrlKey) { return; }
    event.preventDefault();
    zoom(event.deltaY < 0 ? 1 : -1);
  }, {passive: false});
  window.addEventListener("resize", apply);
  new MutationObserver(apply).observe(board, {childList: true});
  // The board's room changes without a resize of the window too (a scroll bar that comes or goes).
  var width = board.clientWidth;
  new ResizeObserver(function () {
    if (board.clientWidth !== width) {
      width = board.clientWidth;
      requestAnimationFrame(apply);
    }
  }).observe(board);
  apply();
}());
"""


__all__ = ["BUTTONS", "MAX_FIT", "NARROW", "READABLE_SCALE", "SCRIPT", "STEPS", "STYLE"]
