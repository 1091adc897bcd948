"""The page of the HTML replay: markup, styles and script in one template (string.Template: `$name` fields; the
script uses no `$` of its own). Everything is inline, so the file opens from disk with no network."""

from __future__ import annotations

from string import Template

from borabora_sim.kits import house_style as L
from borabora_sim.viewer import zoom

SEAT_CSS = "\n".join(f".s{seat} {{ background: {colour}; color: {text}; }}"
                      for seat, (colour, text) in enumerate(zip(L.SEAT_COLOURS, L.SEAT_TEXT, strict=True)))

_STYLE = """
body { margin: 0; font-family: DejaVu Sans, Arial, Helvetica, sans-serif; background: #ece6d6; color: #222; }
header { padding: 8px 14px; background: #3d5a6c; color: #fff; }
header h1 { font-size: 17px; margin: 0 0 2px 0; }
header p { margin: 0; font-size: 13px; opacity: 0.9; }
#controls { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: center; padding: 6px 14px;
            background: #f7f3e8; border-bottom: 1px solid #c8bb98; position: sticky; top: 0; z-index: 1; }
#controls button { font-size: 14px; min-width: 40px; min-height: 28px; }
#slider { flex: 1 1 200px; height: 28px; margin: 0; }
#position { min-width: 150px; font-size: 13px; }
section { background: #fffdf7; border: 1px solid #c8bb98; border-radius: 6px; padding: 6px 8px; }
section h2 { font-size: 13px; margin: 0 0 4px 0; }
#scores table { border-collapse: collapse; font-size: 12px; width: 100%; }
#scores td { padding: 2px 4px; border-top: 1px solid #eee; vertical-align: top; }
#scores td.total { font-weight: bold; text-align: right; width: 44px; }
#scores td.parts { color: #555; font-size: 12px; }
#chart svg { width: 100%; height: auto; display: block; }
#log { max-height: 420px; overflow-y: auto; font-size: 12px; position: relative; }
#log .heading { font-weight: bold; margin-top: 6px; color: #3d5a6c; }
#log .move { padding: 3px 4px; min-height: 18px; line-height: 18px; cursor: pointer; border-radius: 3px; }
#log .move:hover { background: #f0ead8; }
#log .move.current { background: #ffe9a8; outline: 1px solid #d6b44a; }
#log .decision { color: #777; }
#log .move.why::after { content: " \\2139"; color: #3d5a6c; font-weight: bold; }
#why { font-size: 12px; }
#why p { margin: 0 0 4px 0; }
#why table { border-collapse: collapse; width: 100%; }
#why td, #why th { padding: 1px 4px; text-align: right; border-top: 1px solid #eee; }
#why th { color: #555; font-weight: normal; font-size: 11px; }
#why td:first-child, #why th:first-child { text-align: left; }
#why tr.chosen td { background: #ffe9a8; font-weight: bold; }
#why td:first-child { white-space: normal; }
#why p.legend { margin-top: 4px; color: #555; font-size: 11px; }
.seat { display: inline-block; min-width: 16px; text-align: center; border-radius: 8px; font-size: 11px;
        font-weight: bold; }
"""

_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var last = data.frames.length - 1;
  var board = document.getElementById("board");
  var slider = document.getElementById("slider");
  var position = document.getElementById("position");
  var log = document.getElementById("log");
  var moves = Array.prototype.slice.call(log.querySelectorAll(".move"));
  var chart = document.querySelector("#chart svg");
  var cursors = Array.prototype.slice.call(chart.querySelectorAll(".cursor"));
  var plotLeft = Number(chart.getAttribute("data-plot-left"));
  var plotWidth = Number(chart.getAttribute("data-plot-width"));
  var totals = [], parts = [];
  var body = document.querySelector("#scores tbody");
  var p, f, c, k;
  for (p = 0; p < data.players; p++) {
    var tr = document.createElement("tr");
    var chip = document.createElement("td");
    var span = document.createElement("span");
    span.className = "seat s" + p;
    span.textContent = String(p);
    chip.appendChild(span);
    var total = document.createElement("td");
    total.className = "total";
    total.setAttribute("data-score-seat", String(p));
    var part = document.createElement("td");
    part.className = "parts";
    tr.appendChild(chip); tr.appendChild(total); tr.appendChild(part);
    body.appendChild(tr);
    totals.push(total); parts.push(part);
  }
  // Every frame's points by seat and source, rebuilt from the changes.
  var scores = [], row = [];
  for (p = 0; p < data.players; p++) {
    row.push(data.sources.map(function () { return 0; }));
  }
  c = 0;
  for (f = 0; f <= last; f++) {
    while (c < data.changes.length && data.changes[c][0] === f) {
      row[data.changes[c][1]][data.changes[c][2]] = data.changes[c][3];
      c++;
    }
    scores.push(row.map(function (r) { return r.slice(); }));
  }
  var why = document.getElementById("why");
  // The reasons of the move that led to the frame: the rule, then the best options with their values.
  function showReasons(frameIndex) {
    var reasons = data.reasons[frameIndex];
    why.textContent = "";
    var line = document.createElement("p");
    why.appendChild(line);
    if (!reasons) {
      line.textContent = frameIndex === 0 ? "The start of the game." :
        "No reasons for this move: its player does not weigh options, or the move was forced.";
      return;
    }
    var move = moves[frameIndex], seat = Number(move.getAttribute("data-seat"));
    line.textContent = "Seat " + seat + " (" + data.names[seat] + ") chose " + reasons.rows[reasons.c][0] +
      ": " + reasons.why + "; " + reasons.n + " options weighed" +
      (reasons.rows.length < reasons.n ? ", the best " + reasons.rows.length + " shown." : ".");
    var table = document.createElement("table"), head = document.createElement("tr");
    ["move"].concat(reasons.cols).forEach(function (name) {
      var th = document.createElement("th");
      th.textContent = name;
      head.appendChild(th);
    });
    table.appendChild(head);
    reasons.rows.forEach(function (values, k) {
      var tr = document.createElement("tr");
      if (k === reasons.c) { tr.className = "chosen"; }
      values.forEach(function (value) {
        var td = document.createElement("td");
        td.textContent = String(value);
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    why.appendChild(table);
    var legend = document.createElement("p");
    legend.className = "legend";
    legend.textContent = reasons.legend;
    why.appendChild(legend);
  }
  // The header's line: the points at the decision shown, and the winner at the end.
  var summary = document.getElementById("summary");
  function showSummary(target) {
    var sums = scores[target].map(function (points) {
      return points.reduce(function (a, b) { return a + b; }, 0);
    });
    var seats = sums.map(function (sum, seat) { return "seat " + seat + " " + sum; }).join(", ");
    summary.textContent = target === last ? "final " + data.unit + ": " + seats + "; winner seat " + data.winner
      : data.unit + " at decision " + target + ": " + seats;
  }
  var current = -1;
  function show(frameIndex) {
    var target = Math.max(0, Math.min(last, frameIndex));
    if (target === current) { return; }
    current = target;
    var frame = data.frames[target], html = [data.roots[frame[0]]];
    for (var i = 1; i < frame.length; i++) { html.push(data.pieces[frame[i]]); }
    html.push("</svg>");
    board.innerHTML = html.join("");
    slider.value = String(target);
    position.textContent = "decision " + target + " of " + last;
    moves.forEach(function (move) { move.classList.remove("current"); });
    var move = moves[target];
    move.classList.add("current");
    if (move.offsetTop < log.scrollTop || move.offsetTop > log.scrollTop + log.clientHeight - 20) {
      log.scrollTop = move.offsetTop - log.clientHeight / 2;
    }
    for (p = 0; p < data.players; p++) {
      var points = scores[target][p], sum = 0, named = [];
      for (k = 0; k < points.length; k++) {
        sum += points[k];
        if (points[k] !== 0) { named.push(data.sources[k] + " " + points[k]); }
      }
      totals[p].textContent = sum + " " + data.unit;
      parts[p].textContent = named.join(", ");
    }
    showReasons(target);
    showSummary(target);
    var x = plotLeft + plotWidth * target / Math.max(1, last);
    cursors.forEach(function (line) {
      line.setAttribute("x1", String(x));
      line.setAttribute("x2", String(x));
    });
  }
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(last); });
  log.addEventListener("click", function (event) {
    var move = event.target.closest(".move");
    if (move) { show(Number(move.getAttribute("data-step"))); }
  });
  var keys = {ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10};
  document.addEventListener("keydown", function (event) {
    if (event.key === "Home") { show(0); }
    else if (event.key === "End") { show(last); }
    else if (keys.hasOwnProperty(event.key)) { show(current + keys[event.key]); }
    else { return; }
    event.preventDefault();
  });
  // An address ending in #decision=N (a link from a report) opens the replay at that decision.
  function fromAddress() {
    var asked = /^#decision=([0-9]+)$$/.exec(location.hash);     // $$: the page is a string.Template
    show(asked ? Number(asked[1]) : 0);
  }
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
}());
"""

PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>""" + _STYLE + zoom.STYLE + SEAT_CSS + """
</style>
</head>
<body>
<header><h1>${heading}</h1><p><span id="summary"></span>; ${view}. Keys: left / right arrows, Page Up / Down,
Home / End; zoom: + / - / 0.</p>
</header>
<div id="controls" data-sticky>
<button id="first" title="start (Home)">|&#x25C0;</button>
<button id="prev" title="previous decision (left arrow)">&#x25C0;</button>
<button id="next" title="next decision (right arrow)">&#x25B6;</button>
<button id="last" title="end (End)">&#x25B6;|</button>
<input id="slider" type="range" min="0" max="${last}" value="0" aria-label="decision">
<span id="position"></span>
""" + zoom.BUTTONS + """
</div>
<main>
<div id="board"></div>
<aside>
<section id="scores"><h2>Scores</h2><table><tbody></tbody></table></section>
<section id="chart"><h2>Scores by source over the game</h2>${chart}</section>
<section id="reasons"><h2>Why this move</h2><div id="why"></div></section>
<section><h2>Decisions (&#x2139;: with reasons)</h2><div id="log">
${log}
</div></section>
</aside>
</main>
<script type="application/json" id="replay-data">${data}</script>
<script>""" + _SCRIPT + """</script>
<script>""" + zoom.SCRIPT + """</script>
</body>
</html>
""")


__all__ = ["PAGE"]
