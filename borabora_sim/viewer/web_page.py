"""The page of `borabora play --web`: markup, styles and script in one document that asks the local server for
everything else (docs/web_play.md), so it needs no network beyond 127.0.0.1.

The script shows the position the server sends, plays a human's move from the list or from clicks on the board
(viewer/web_targets.py), asks the server for the AI seats' moves one at a time (after `?delay=` milliseconds,
700 by default), shows each with its reasons on request, and starts a new game with the seats and seed typed."""

from __future__ import annotations

# The seat chips' colours are the replay's.
from borabora_sim.viewer import zoom
from borabora_sim.viewer.page import SEAT_CSS

_STYLE = """
body { margin: 0; font-family: DejaVu Sans, Arial, Helvetica, sans-serif; background: #ece6d6; color: #222; }
header { padding: 8px 14px; background: #3d5a6c; color: #fff; }
header h1 { font-size: 17px; margin: 0; }
#status { padding: 6px 14px; background: #f7f3e8; border-bottom: 1px solid #c8bb98; font-size: 14px;
          position: sticky; top: 0; z-index: 1; min-height: 18px; display: flex; gap: 8px 12px;
          align-items: center; }
#status-line { flex: 1; min-width: 0; }
#status.yours { background: #fff3c4; }
#status-text { font-weight: bold; }
#status.yours #status-text { font-weight: bold; }
#hint { font-size: 12px; color: #555; margin-top: 3px; }
#hint:empty { display: none; }
#end { margin-left: 10px; font-size: 13px; font-weight: bold; padding: 3px 10px; background: #3d5a6c; color: #fff;
       border: 1px solid #2b4150; border-radius: 4px; cursor: pointer; min-height: 28px; }
#end[hidden] { display: none; }
#error { display: none; padding: 6px 14px; background: #f8d7d3; color: #7a1a10; font-size: 13px; }
#board .pickable { cursor: pointer; filter: drop-shadow(0 0 3px #e09000); }
#board .pickable:hover, #board .picked { filter: drop-shadow(0 0 5px #d03000) drop-shadow(0 0 2px #d03000); }
main { --aside: 430px; }
section { background: #fffdf7; border: 1px solid #c8bb98; border-radius: 6px; padding: 6px 8px; }
section h2 { font-size: 13px; margin: 0 0 4px 0; }
#legal { max-height: 300px; overflow-y: auto; display: flex; flex-direction: column; gap: 2px; }
body[data-stacked] { padding-bottom: 34vh; }
body[data-stacked] #moves { position: fixed; left: 0; right: 0; bottom: 0; z-index: 2; max-height: 34vh;
                            box-sizing: border-box; display: flex; flex-direction: column; border-radius: 0;
                            border-width: 2px 0 0; box-shadow: 0 -2px 8px rgba(0, 0, 0, 0.2); }
body[data-stacked] #legal { max-height: none; min-height: 0; display: grid; align-content: start;
                            grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); }
#legal button { text-align: left; font-size: 13px; padding: 4px 6px; min-height: 28px; }
#legal button.candidate { background: #ffe9a8; outline: 2px solid #d6b44a; }
#legal button.hinted { background: #d9f0d3; outline: 2px solid #3c9a3c; font-weight: bold; }
#board .hinted { filter: drop-shadow(0 0 4px #1f8f1f) drop-shadow(0 0 2px #1f8f1f); }
#board .chosen-mark { filter: drop-shadow(0 0 4px #2060c0) drop-shadow(0 0 2px #2060c0); }
table.reasons { border-collapse: collapse; width: 100%; font-size: 11px; margin: 4px 0; background: #f4f0e4; }
table.reasons th { font-weight: normal; color: #555; text-align: right; padding: 1px 4px; }
table.reasons td { text-align: right; padding: 1px 4px; border-top: 1px solid #e4dcc2; white-space: nowrap; }
table.reasons th:first-child, table.reasons td:first-child { text-align: left; white-space: normal; }
table.reasons tr.chosen td { background: #ffe9a8; font-weight: bold; }
p.headline, p.legend { margin: 3px 0; font-size: 11px; }
#advice { font-size: 12px; margin-top: 4px; }
#advice [data-advice-action] { font-weight: bold; font-size: 13px; }
p.legend { color: #555; }
#tools { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; font-size: 12px; }
#tools button, #tools2 button, #newgame button { min-height: 28px; }
#save { display: inline-block; padding: 4px 8px; min-height: 18px; line-height: 18px; border: 1px solid #8f8f8f;
        border-radius: 3px; background: #f4f4f4; color: #1a4f8a; text-decoration: none; }
#load { min-height: 28px; font-size: 12px; }
#tools2 input, #newgame input { min-height: 26px; box-sizing: border-box; font-size: 12px; }
#advisor { width: 170px; }
#newgame { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; font-size: 12px; }
#new-players { width: 250px; }
#new-seed { width: 90px; }
#tools2 { margin-top: 6px; }
pre { white-space: pre-wrap; font-size: 11px; margin: 4px 0; background: #f4f0e4; padding: 4px; }
#scores table { border-collapse: collapse; font-size: 12px; width: 100%; }
#scores td { padding: 2px 4px; border-top: 1px solid #eee; }
#scores td.total { font-weight: bold; text-align: right; }
#log { max-height: 360px; overflow-y: auto; font-size: 12px; }
#log .move { padding: 1px 2px; }
#log .move.latest { background: #ffe9a8; }
#log button { font-size: 12px; padding: 0 6px; margin-left: 4px; min-height: 24px; min-width: 40px; }
.seat { display: inline-block; min-width: 16px; text-align: center; border-radius: 8px; font-size: 11px;
        font-weight: bold; }
"""

_SCRIPT = """
(function () {
  "use strict";
  var delay = Number(new URLSearchParams(location.search).get("delay") || 700);
  var board = document.getElementById("board");
  var statusLine = document.getElementById("status");
  var statusText = document.getElementById("status-text");
  var hintLine = document.getElementById("hint");
  var endButton = document.getElementById("end");
  var errorLine = document.getElementById("error");
  var legalList = document.getElementById("legal");
  var log = document.getElementById("log");
  var advice = document.getElementById("advice");
  var undoButton = document.getElementById("undo");
  var adviseButton = document.getElementById("advise");
  var view = null, busy = false, timer = null, picked = [], candidates = null, reasons = {};
  var errorVersion = null;          // the version of the position the error shown was about

  function seatChip(seat) {
    var chip = document.createElement("span");
    chip.className = "seat s" + seat;
    chip.textContent = String(seat);
    return chip;
  }
  function showError(message) {
    errorLine.textContent = message;
    errorLine.style.display = message ? "block" : "none";
    errorVersion = view && message ? view.version : null;
  }
  function request(method, path, body) {
    var options = {method: method, headers: {}};
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) {
          var error = new Error(data.error || ("HTTP " + response.status));
          error.status = response.status;
          throw error;
        }
        return data;
      });
    });
  }
  // A change of the game: refused ones leave the game as it was, so the page only says why.
  function change(path, body) {
    if (busy) { return Promise.resolve(); }
    setBusy(true);
    return request("POST", path, body).then(function (data) {
      setBusy(false);
      showError("");
      show(data);
    }, function (error) {
      setBusy(false);
      showError(error.message);
      return request("GET", "/api/state").then(show);
    });
  }
  // The body's data-busy, data-version and data-turn (human, ai, over) let scripts and tests follow the game.
  function setBusy(value) {
    busy = value;
    document.body.toggleAttribute("data-busy", value);
  }
  // Runs `then` once no change is on its way (a file chosen while an AI move is asked for is not dropped).
  function whenIdle(then) {
    if (busy) { setTimeout(function () { whenIdle(then); }, 50); } else { then(); }
  }
  function play(action) {
    change("/api/move", {version: view.version, seat: view.to_move, action: action});
  }

  function show(data) {
    var seatsInput = document.getElementById("new-players");
    if (view === null || view.seed !== data.seed || view.players.join() !== data.players.join()) {
      seatsInput.value = data.players.join(",");      // the seats of the game shown, to edit for the next one
    }
    // An error about an older position (a request this tab made before it was brought up to date) is gone with it.
    if (errorVersion !== null && errorVersion !== data.version) { showError(""); }
    view = data;
    picked = []; candidates = null;
    document.body.setAttribute("data-version", String(data.version));
    document.body.setAttribute("data-turn", data.terminal ? "over" : data.human_to_move ? "human" : "ai");
    advice.textContent = "";
    board.innerHTML = data.svg;
    renderStatus();
    renderLegal();
    renderPickable();
    renderScores();
    renderLog();
    undoButton.disabled = !(data.can_undo && (data.human_to_move || data.terminal));
    adviseButton.disabled = !data.human_to_move;
    if (data.human_to_move) { requestAnimationFrame(revealDecision); }   // once the board is fitted (zoom.py)
    clearTimeout(timer);
    if (!data.terminal && !data.human_to_move) {
      timer = setTimeout(function () { change("/api/step", {version: view.version}); }, delay);
    }
  }
  // The part of the window the board is seen in: below the bar on top, above the moves when they are docked.
  function boardWindow() {
    var moves = document.getElementById("moves").getBoundingClientRect();
    return [statusLine.getBoundingClientRect().bottom,
            document.body.hasAttribute("data-stacked") ? moves.top : window.innerHeight];
  }
  // The things of the board that pick a move now: when none is wholly in sight, the first is scrolled into view.
  function revealDecision() {
    var things = board.querySelectorAll(".pickable"), seen = boardWindow();
    var inSight = Array.prototype.some.call(things, function (thing) {
      var box = thing.getBoundingClientRect();
      return box.top >= seen[0] && box.bottom <= seen[1];
    });
    if (things.length && !inSight) { things[0].scrollIntoView({block: "center", inline: "nearest"}); }
  }
  function renderStatus() {
    var text, mover = view.to_move;
    statusLine.className = "";
    hintLine.textContent = "";
    endButton.hidden = true;
    if (view.terminal) {
      text = "Game over: final " + view.unit + " " + view.scores.map(function (s, i) {
        return "seat " + i + " " + s; }).join(", ") + "; winner seat " + view.winner;
      statusLine.setAttribute("data-final-scores", JSON.stringify(view.scores));
    } else if (view.human_to_move) {
      statusLine.className = "yours";
      text = "Your decision, seat " + mover + ": " + view.decision_words + " (" + view.phase_words + "). " +
             "Pick a move from the list, or click the board where it is marked.";
      hintLine.textContent = view.hint ? "Rules: " + view.hint : "";
      if (view.end) {
        endButton.textContent = view.end.words;
        endButton.setAttribute("data-action", String(view.end.action));
        endButton.hidden = false;
      }
    } else {
      text = "Seat " + mover + " (" + view.seat_words[mover] + ") is deciding: " + view.decision_words + " (" +
             view.phase_words + ")...";
    }
    statusText.textContent = text;
  }
  endButton.addEventListener("click", function () {
    if (view && view.end && view.human_to_move) { play(view.end.action); }
  });
  function renderLegal() {
    legalList.textContent = "";
    view.legal.forEach(function (move) {
      var button = document.createElement("button");
      button.textContent = move.words;
      button.setAttribute("data-action", String(move.action));
      button.addEventListener("click", function () { play(move.action); });
      legalList.appendChild(button);
    });
    if (!view.legal.length) {
      legalList.textContent = view.terminal ? "The game is over." : "Waiting for the AI.";
    }
  }
  function targetSelector(target) {
    return target[1] === null ? "[" + target[0] + "]" : "[" + target[0] + '="' + CSS.escape(target[1]) + '"]';
  }
  function renderPickable() {
    view.legal.forEach(function (move) {
      move.targets.forEach(function (target) {
        board.querySelectorAll(targetSelector(target)).forEach(function (element) {
          element.classList.add("pickable");
          element.pickActions = (element.pickActions || []).concat([move.action]);
        });
      });
    });
  }
  function markCandidates() {
    legalList.querySelectorAll("button").forEach(function (button) {
      var action = Number(button.getAttribute("data-action"));
      button.classList.toggle("candidate", candidates !== null && candidates.indexOf(action) >= 0);
    });
    var first = legalList.querySelector("button.candidate");
    if (first) { first.scrollIntoView({block: "nearest"}); }
  }
  board.addEventListener("click", function (event) {
    var element = event.target.closest(".pickable");
    if (!element || !view || !view.human_to_move) { return; }
    var actions = element.pickActions;
    var both = candidates === null ? [] : candidates.filter(function (a) { return actions.indexOf(a) >= 0; });
    if (both.length) {
      candidates = both;
    } else {               // nothing in common with the things clicked before: start again from this one
      picked.forEach(function (other) { other.classList.remove("picked"); });
      picked = []; candidates = actions.slice();
    }
    candidates = candidates.filter(function (a, i) { return candidates.indexOf(a) === i; });
    picked.push(element);
    element.classList.add("picked");
    if (candidates.length === 1) { play(candidates[0]); } else { markCandidates(); }
  });
  function renderScores() {
    var body = document.querySelector("#scores tbody");
    body.textContent = "";
    view.scores.forEach(function (score, seat) {
      var row = document.createElement("tr"), chip = document.createElement("td");
      var spec = document.createElement("td"), total = document.createElement("td");
      chip.appendChild(seatChip(seat));
      spec.textContent = view.seat_words[seat] + (seat === view.viewer ? " (you)" : "");
      total.className = "total";
      total.setAttribute("data-score-seat", String(seat));
      total.textContent = score + " " + view.unit;
      row.appendChild(chip); row.appendChild(spec); row.appendChild(total);
      body.appendChild(row);
    });
  }
  function renderLog() {
    log.textContent = "";
    view.moves.forEach(function (move, index) {
      var line = document.createElement("div");
      line.className = "move" + (index === view.moves.length - 1 ? " latest" : "");
      line.setAttribute("data-move", String(index));
      line.appendChild(seatChip(move.seat));
      line.appendChild(document.createTextNode(" " + move.words));
      if (move.ai) {
        var why = document.createElement("button");
        why.textContent = "why?";
        why.addEventListener("click", function () { explain(index, line); });
        line.appendChild(why);
        if (reasons[index] !== undefined) { addReasons(line, reasons[index]); }
      }
      log.appendChild(line);
    });
    log.scrollTop = log.scrollHeight;
  }
  // A player's reasons: a table of the options it weighed (move in words, then its values), the chosen one marked,
  // and a one-line legend; a player that weighed none says why in a line.
  function addReasons(parent, data) {
    var box = document.createElement("div");
    box.className = "reasons";
    var headline = document.createElement("p");
    headline.className = "headline";
    box.appendChild(headline);
    if (!data.reasons) {
      headline.textContent = data.explanation;
      parent.appendChild(box);
      return;
    }
    headline.textContent = data.reasons.why + "; " + data.reasons.weighed + " option(s) weighed" +
      (data.reasons.rows.length < data.reasons.weighed ? ", the best " + data.reasons.rows.length + " shown" : "");
    var table = document.createElement("table"), head = document.createElement("tr");
    table.className = "reasons";
    ["move"].concat(data.reasons.columns).forEach(function (name) {
      var th = document.createElement("th");
      th.textContent = name;
      head.appendChild(th);
    });
    table.appendChild(head);
    data.reasons.rows.forEach(function (row) {
      var tr = document.createElement("tr");
      if (row.chosen) { tr.className = "chosen"; }
      tr.setAttribute("data-action", String(row.action));
      [row.words].concat(row.cells).forEach(function (value) {
        var td = document.createElement("td");
        td.textContent = value;
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    box.appendChild(table);
    var legend = document.createElement("p");
    legend.className = "legend";
    legend.textContent = data.reasons.legend;
    box.appendChild(legend);
    parent.appendChild(box);
  }
  // Marks the things of the picture a move picks (its click targets) with `className`, none before.
  function markOnBoard(targets, className) {
    board.querySelectorAll("." + className).forEach(function (element) { element.classList.remove(className); });
    (targets || []).forEach(function (target) {
      board.querySelectorAll(targetSelector(target)).forEach(function (element) { element.classList.add(className); });
    });
  }
  function explain(index, line) {
    if (line.querySelector(".reasons")) { return; }
    request("GET", "/api/why?move=" + index).then(function (data) {
      reasons[index] = data;
      addReasons(line, data);
      if (index === view.moves.length - 1) { markOnBoard(data.targets, "chosen-mark"); }
    }, function (error) { showError(error.message); });
  }
  undoButton.addEventListener("click", function () {
    reasons = {};
    change("/api/undo", {version: view.version});
  });
  // One advice at a time (the button waits for it); an advice whose position has changed meanwhile (the server
  // answers 409) is dropped without a word: the board already shows the new position.
  adviseButton.addEventListener("click", function () {
    var spec = document.getElementById("advisor").value.trim() || "strong";
    var asked = view.version;
    advice.textContent = "thinking...";
    adviseButton.disabled = true;
    request("GET", "/api/advice?player=" + encodeURIComponent(spec)).then(function (data) {
      adviseButton.disabled = false;
      if (view.version !== asked) { return; }
      advice.textContent = "";
      var line = document.createElement("div");
      line.textContent = data.player_words + " would play: " + data.words;
      line.setAttribute("data-advice-action", String(data.action));
      advice.appendChild(line);
      addReasons(advice, data);
      var hinted = view.legal.filter(function (move) { return move.action === data.action; })[0];
      legalList.querySelectorAll("button").forEach(function (button) {
        button.classList.toggle("hinted", Number(button.getAttribute("data-action")) === data.action);
      });
      var shown = legalList.querySelector("button.hinted");
      if (shown) { shown.scrollIntoView({block: "nearest"}); }
      markOnBoard(hinted ? hinted.targets : [], "hinted");
    }, function (error) {
      adviseButton.disabled = false;
      if (error.status === 409 || view.version !== asked) { return; }
      advice.textContent = "";
      showError(error.message);
    });
  });
  // A new game of the same game: the seats typed (comma-separated specs) and the seed (empty: a random one). The
  // body is written by hand so that a seed beyond 2**53 reaches the server exactly; a seed that is not digits is
  // sent as typed, and the server says what is wrong with it.
  document.getElementById("start").addEventListener("click", function () {
    var specs = document.getElementById("new-players").value.split(",").map(function (spec) { return spec.trim(); });
    var seed = document.getElementById("new-seed").value.trim();
    var seedJson = seed === "" ? "null" : /^[0-9]+$/.test(seed) ? seed : JSON.stringify(seed);
    whenIdle(function () {
      reasons = {};
      change("/api/new", '{"version": ' + view.version + ', "players": ' + JSON.stringify(specs) +
             ', "seed": ' + seedJson + "}");
    });
  });
  document.getElementById("load").addEventListener("change", function (event) {
    var file = event.target.files[0];
    if (!file) { return; }
    file.text().then(function (text) {
      event.target.value = "";
      whenIdle(function () {
        reasons = {};
        change("/api/load", text);
      });
    });
  });
  request("GET", "/api/state").then(show, function (error) { showError(error.message); });
}());
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>borabora play</title>
<style>""" + zoom.STYLE + _STYLE + SEAT_CSS + """
</style>
</head>
<body>
<header><h1>borabora play</h1></header>
<div id="status" data-sticky><div id="status-line"><span id="status-text"></span><button id="end" hidden></button>
<div id="hint"></div></div>
""" + zoom.BUTTONS + """</div>
<div id="error" role="alert"></div>
<main>
<div id="board"></div>
<aside>
<section id="moves"><h2>Your moves</h2><div id="legal"></div></section>
<section><h2>Tools</h2><div id="tools">
<button id="undo" title="back to the position before your last decision">Undo my last decision</button>
<a id="save" href="/api/save" download>Save position</a>
<label>Load position <input id="load" type="file" accept=".json,application/json"></label>
</div><div id="tools2">
<button id="advise">What would the AI do here?</button>
<input id="advisor" value="strong" aria-label="AI player spec" title="an AI player spec: strong, best, heuristic, ...">
</div><div id="advice"></div></section>
<section><h2>New game</h2><div id="newgame">
<label>Seats <input id="new-players" aria-label="player specs by seat"
 title="player specs by seat, comma-separated: human for a person, or an AI such as strong, best or heuristic"></label>
<label>Seed <input id="new-seed" placeholder="random" aria-label="game seed"
 title="an integer; empty: a random seed"></label>
<button id="start">Start</button>
</div></section>
<section id="scores"><h2>Scores</h2><table><tbody></tbody></table></section>
<section><h2>Moves</h2><div id="log"></div></section>
</aside>
</main>
<script>""" + _SCRIPT + """</script>
<script>""" + zoom.SCRIPT + """</script>
</body>
</html>
"""


def page_html() -> str:
    """The page (the same for every game: the position comes from the server)."""
    return _PAGE


__all__ = ["page_html"]
