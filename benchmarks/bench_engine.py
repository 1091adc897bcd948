#!/usr/bin/env python
"""Engine benchmarks for borabora_sim, measured in one run so that the ratios are fair.

Measures, on one core:
  1. compiled random playouts (`borabora_sim.random_playouts`): complete games per second for 2, 3 and 4
     players, with decisions and moves per game;
  2. Python-driven stepping (`legal_actions()` + `apply()` from a Python loop): microseconds per step,
     next to OpenSpiel's C++ backgammon and hearts driven the same way (skipped when `pyspiel` is missing);
  3. `State.clone()` cost and the size of the C game state (`STATE_BYTES`);
  4. a profile hint: `legal_actions()` cost per pending decision kind, and (with Linux `perf` on the PATH)
     the split of compiled playout time into legal-move generation, transitions, driver and set-up.

Every measurement is warmed up, then repeated (`--repeats`, best kept). The Python-stepping repeats of the
different engines are interleaved so that load on the machine hits them alike.

Usage:
    python benchmarks/bench_engine.py [--games N] [--repeats R] [--json PATH] [--no-perf]

`--games N` is the number of compiled playouts per player count and per repeat; the Python-stepping runs play
whole games until 10*N steps per engine and repeat, and the clone run makes 10*N clones per repeat.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS threads competing for the 2nd core

import borabora_sim
from borabora_sim import _engine

from machine import machine_info
from timing import best_of, random_games, random_walk, time_calls

try:
    import pyspiel
except ImportError:  # optional dependency (the `bench` extra)
    pyspiel = None

OPENSPIEL_GAMES = ("backgammon", "hearts")
DEFAULT_GAMES = 50_000
SEED = 20240601
PROFILE_GAMES = 20


# ---------------------------------------------------------------------------
# 1. compiled random playouts
# ---------------------------------------------------------------------------
def bench_playouts(games: int, repeats: int) -> list[dict]:
    rules = borabora_sim.rules_for()
    rows = []
    for players in (4, 3, 2):
        borabora_sim.random_playouts(rules, max(100, games // 50), players, SEED)  # warm-up
        stats = borabora_sim.random_playouts(rules, games, players, SEED)

        def run(players: int = players) -> float:
            t0 = time.perf_counter()
            borabora_sim.random_playouts(rules, games, players, SEED)
            return time.perf_counter() - t0

        seconds = best_of(repeats, run)
        decisions = float(stats["decisions"].mean())
        moves = float(stats["moves"].mean())
        rows.append(
            {
                "players": players,
                "games": games,
                "seconds": seconds,
                "games_per_s": games / seconds,
                "decisions_per_game": decisions,
                "moves_per_game": moves,
                "us_per_decision": seconds / (games * decisions) * 1e6,
            }
        )
    return rows


# ---------------------------------------------------------------------------
# 2. Python-driven stepping
# ---------------------------------------------------------------------------
class SteppingRun(NamedTuple):
    seconds: float  # all steps, game creation excluded
    chance_seconds: float  # chance steps only (sampling chance_outcomes() in Python + apply_action)
    steps: int
    decisions: int
    games: int


Stepper = Callable[[int], SteppingRun]


def bora_stepper(players: int) -> Stepper:
    game = borabora_sim.BoraBora()

    def run(step_budget: int) -> SteppingRun:
        seconds, steps, games = random_games(lambda seed: game.new_initial_state(players, seed), step_budget, SEED)
        return SteppingRun(seconds, 0.0, steps, steps, games)

    return run


def sample_outcome(outcomes: list[tuple[int, float]], r: float) -> int:
    """The outcome that the uniform draw `r` in [0, 1) falls on (exact sampling by cumulative probability)."""
    for action, prob in outcomes:
        r -= prob
        if r < 0.0:
            return action
    return outcomes[-1][0]


def openspiel_stepper(name: str) -> Stepper:
    game = pyspiel.load_game(name)
    clock = time.perf_counter

    def run(step_budget: int) -> SteppingRun:
        """Plays whole games (same seeds every call) until `step_budget` steps, chance steps included.

        A chance step samples `chance_outcomes()` exactly with one uniform draw (`sample_outcome`); its time
        is also summed apart, so that the decision steps can be compared alone.
        """
        elapsed = chance_time = 0.0
        steps = decisions = games = 0
        seed = SEED
        while steps < step_budget:
            s = game.new_initial_state()
            rng = random.Random(seed)
            n = chance = 0
            t0 = clock()
            while not s.is_terminal():
                if s.is_chance_node():
                    t1 = clock()
                    s.apply_action(sample_outcome(s.chance_outcomes(), rng.random()))
                    chance_time += clock() - t1
                    chance += 1
                else:
                    legal = s.legal_actions()
                    s.apply_action(legal[rng.randrange(len(legal))])
                n += 1
            elapsed += clock() - t0
            steps += n
            decisions += n - chance
            games += 1
            seed += 1
        return SteppingRun(elapsed, chance_time, steps, decisions, games)

    return run


def bench_python_stepping(step_budget: int, repeats: int) -> tuple[list[dict], str | None]:
    engines: list[tuple[str, Stepper]] = [("borabora 4p", bora_stepper(4))]
    skipped = None
    if pyspiel is None:
        skipped = "OpenSpiel rows skipped: pyspiel is not installed (pip install open-spiel)"
    else:
        engines += [(f"openspiel {name}", openspiel_stepper(name)) for name in OPENSPIEL_GAMES]
    for _, run in engines:  # warm-up
        run(max(1000, step_budget // 20))
    best: dict[str, SteppingRun] = {}
    for _ in range(repeats):  # interleaved: each repeat runs every engine once
        for label, run in engines:
            result = run(step_budget)
            if label not in best or result.seconds < best[label].seconds:
                best[label] = result
    base = best["borabora 4p"]
    base_step = base.seconds / base.steps
    rows = []
    for label, _ in engines:
        r = best[label]
        per_step = r.seconds / r.steps
        per_decision = (r.seconds - r.chance_seconds) / r.decisions
        chance_steps = r.steps - r.decisions
        rows.append(
            {
                "engine": label,
                "steps": r.steps,
                "games": r.games,
                "steps_per_game": r.steps / r.games,
                "decision_steps_per_game": r.decisions / r.games,
                "us_per_step": per_step * 1e6,
                "ratio_vs_borabora": per_step / base_step,
                "us_per_decision_step": per_decision * 1e6,
                "decision_ratio_vs_borabora": per_decision / base_step,
                "us_per_chance_step": r.chance_seconds / chance_steps * 1e6 if chance_steps else None,
            }
        )
    return rows, skipped


# ---------------------------------------------------------------------------
# 3. clone cost
# ---------------------------------------------------------------------------
def midgame_state(players: int = 4, steps: int = 100):
    return random_walk(borabora_sim.new_game(players, SEED), steps, SEED)


def midgame_openspiel(name: str, steps: int = 60):
    s = pyspiel.load_game(name).new_initial_state()
    rng = random.Random(SEED)
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_action(sample_outcome(s.chance_outcomes(), rng.random()))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return s


def bench_clone(count: int, repeats: int) -> list[dict]:
    s = midgame_state()
    rows = [
        {"what": "borabora State.clone()", "us": time_calls(s.clone, count, repeats)},
        {"what": "borabora is_terminal() (empty-call baseline)", "us": time_calls(s.is_terminal, count, repeats)},
        {
            "what": "borabora new_game(4)",
            "us": time_calls(lambda: borabora_sim.new_game(4, SEED), count // 10, repeats),
        },
    ]
    if pyspiel is not None:
        for name in OPENSPIEL_GAMES:
            st = midgame_openspiel(name)
            rows.append({"what": f"openspiel {name} state.clone()", "us": time_calls(st.clone, count // 10, repeats)})
    return rows


# ---------------------------------------------------------------------------
# 4. profile hint: legal-move generation share of compiled playout time
# ---------------------------------------------------------------------------
def bench_profile(repeats: int) -> dict:
    """Cost of `legal_actions()` from Python, overall and per pending decision kind (4 players).

    Each call is legal-move generation plus a call and a list build; the call alone (`is_terminal()`) is
    measured alongside. Subtracting Python-level overheads of ~0.1 us does not give a trustworthy share of
    compiled playout time (the interpreter's cache and branch-predictor pressure inflates the per-call cost),
    so that share comes from `perf` (`bench_perf`); this table says which decisions the generation time
    goes to.
    """
    states = []
    for seed in range(PROFILE_GAMES):
        s = borabora_sim.new_game(4, SEED + seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            states.append(s.clone())
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])

    def loop(calls: list) -> float:
        t0 = time.perf_counter()
        for f in calls:
            f()
        return time.perf_counter() - t0

    n = len(states)
    legal_calls = [s.legal_actions for s in states]
    empty_calls = [s.is_terminal for s in states]
    loop(legal_calls)
    us_legal = best_of(repeats, lambda: loop(legal_calls)) / n * 1e6
    us_call = best_of(repeats, lambda: loop(empty_calls)) / n * 1e6
    by_kind: dict[str, list] = defaultdict(list)
    for s in states:
        by_kind[s.decision].append(s.legal_actions)
    kinds = []
    for kind, calls in by_kind.items():
        us = best_of(repeats, lambda calls=calls: loop(calls)) / len(calls) * 1e6
        kinds.append({"decision": kind, "count": len(calls), "us_per_legal_actions": us})
    total = sum(k["us_per_legal_actions"] * k["count"] for k in kinds)
    for k in kinds:
        k["share_of_python_legal_time"] = k["us_per_legal_actions"] * k["count"] / total
    kinds.sort(key=lambda k: -k["share_of_python_legal_time"])
    return {
        "sampled_states": n,
        "mean_legal_actions": sum(len(s.legal_actions()) for s in states) / n,
        "us_legal_actions_call": us_legal,
        "us_empty_call": us_call,
        "by_decision": kinds,
    }


ENGINE_SYMBOL = re.compile(r"__pyx_\w*?borabora_sim_7_engine_(?:\d+)?(\w+?)(?:\.constprop\.\d+)?$")
LEGAL_HELPERS = {"task_have", "task_shortfall"}  # reached only from legal-move generation
DRIVER = {"random_playouts", "random_rollout", "vt_step", "mix_seed"}
SET_UP = {"setup", "start", "new_state"}


def perf_category(name: str) -> str:
    if name[:1].isupper() or name.startswith("_") or "__" in name:
        return "other (Python wrappers, tables)"
    if name.startswith("legal") or name in LEGAL_HELPERS:
        return "legal-move generation"
    if name in DRIVER:
        return "playout driver (rng, loop)"
    if name in SET_UP:
        return "game set-up"
    return "apply / transitions"


def bench_perf(games: int) -> dict:
    """Self time per engine function under `perf record`, for 4-player compiled playouts (Linux perf)."""
    perf = shutil.which("perf")
    if perf is None:
        return {"skipped": "perf split skipped: `perf` is not installed"}
    root = str(Path(__file__).resolve().parent.parent)
    code = (
        f"import sys; sys.path.insert(0, {root!r}); import borabora_sim as b; "
        f"b.random_playouts(b.rules_for(), {games}, 4, {SEED})"
    )
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        rec = subprocess.run(
            [perf, "record", "-q", "-F", "1999", "-o", data, "--", sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=False,
        )
        if rec.returncode != 0:
            return {"skipped": f"perf split skipped: perf record failed: {rec.stderr.strip()[:200]}"}
        rep = subprocess.run(
            [perf, "report", "-i", data, "--no-children", "--stdio", "--sort", "symbol", "-q", "-t", ";"],
            capture_output=True,
            text=True,
            check=False,
        )
    symbols: dict[str, float] = defaultdict(float)
    for line in rep.stdout.splitlines():
        fields = line.split(";")
        if len(fields) < 2 or not fields[0].strip().endswith("%"):
            continue
        m = ENGINE_SYMBOL.search(fields[1].split("]", 1)[-1].strip())
        if m:
            symbols[m.group(1)] += float(fields[0].strip().rstrip("%"))
    total = sum(symbols.values())
    if total <= 0:
        return {"skipped": "perf split skipped: no engine samples (missing symbols?)"}
    categories: dict[str, float] = defaultdict(float)
    for name, pct in symbols.items():
        categories[perf_category(name)] += pct / total
    top = sorted(symbols.items(), key=lambda kv: -kv[1])[:8]
    return {
        "engine_share_of_samples": total / 100,
        "categories": dict(sorted(categories.items(), key=lambda kv: -kv[1])),
        "top_functions": {name: pct / total for name, pct in top},
    }


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------
def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = "| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    body = [
        "| "
        + " | ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        + " |"
        for r in rows
    ]
    return "\n".join([line, sep, *body])


def engine_machine_info() -> dict:
    return {**machine_info(),
            "openspiel": getattr(pyspiel, "__version__", "installed") if pyspiel is not None else None}


def report(results: dict) -> str:
    info = results["machine"]
    out = [
        f"borabora_sim engine benchmark  {info['date']}",
        f"{info['cpu']}, {info['cpu_count']} cores, Python {info['python']}, "
        f"OpenSpiel {info['openspiel'] or 'not installed'}; best of {results['repeats']} repeats, one core",
        "",
        f"1. Compiled random playouts (random_playouts, {results['games']} games per row)",
        table(
            ["players", "games/s", "decisions/game", "moves/game", "us/decision"],
            [
                [
                    str(r["players"]),
                    f"{r['games_per_s']:,.0f}",
                    f"{r['decisions_per_game']:.1f}",
                    f"{r['moves_per_game']:.1f}",
                    f"{r['us_per_decision']:.3f}",
                ]
                for r in results["playouts"]
            ],
        ),
        "",
        f"2. Python-driven stepping (legal_actions + apply per step, about {results['step_budget']} steps per row;"
        " x = time per step relative to borabora)",
        table(
            ["engine", "us/step", "x", "us/decision step", "x", "us/chance step", "steps/game", "decision steps/game"],
            [
                [
                    r["engine"],
                    f"{r['us_per_step']:.2f}",
                    f"{r['ratio_vs_borabora']:.2f}",
                    f"{r['us_per_decision_step']:.2f}",
                    f"{r['decision_ratio_vs_borabora']:.2f}",
                    "-" if r["us_per_chance_step"] is None else f"{r['us_per_chance_step']:.2f}",
                    f"{r['steps_per_game']:.1f}",
                    f"{r['decision_steps_per_game']:.1f}",
                ]
                for r in results["stepping"]
            ],
        ),
    ]
    if results["stepping_skipped"]:
        out.append(results["stepping_skipped"])
    out += [
        "",
        f"3. Clone cost (mid-game states; STATE_BYTES = {results['state_bytes']})",
        table(["operation", "us/call"], [[r["what"], f"{r['us']:.3f}"] for r in results["clone"]]),
    ]
    p = results["profile"]
    out += [
        "",
        f"4. Profile hint (4 players; {p['sampled_states']} decision states from {PROFILE_GAMES} random games,"
        f" {p['mean_legal_actions']:.1f} legal actions on average)",
        f"   legal_actions() from Python: {p['us_legal_actions_call']:.3f} us/call"
        f" (an empty call costs {p['us_empty_call']:.3f} us); by pending decision:",
        table(
            ["decision", "states", "us/legal_actions()", "share of legal time"],
            [
                [
                    k["decision"],
                    str(k["count"]),
                    f"{k['us_per_legal_actions']:.3f}",
                    f"{k['share_of_python_legal_time']:.0%}",
                ]
                for k in p["by_decision"][:8]
            ],
        ),
    ]
    pf = results["perf"]
    if pf is None:
        out.append("   perf split not run (--no-perf)")
    elif "skipped" in pf:
        out.append("   " + pf["skipped"])
    else:
        out += [
            "",
            f"   Split of compiled 4-player playout time (perf self time; {pf['engine_share_of_samples']:.0%} of"
            " samples fall in the engine):",
            table(
                ["category", "share of engine time"],
                [[name, f"{share:.0%}"] for name, share in pf["categories"].items()],
            ),
            table(
                ["function", "share of engine time"],
                [[name, f"{share:.1%}"] for name, share in pf["top_functions"].items()],
            ),
        ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        help=f"compiled playouts per player count and repeat (default {DEFAULT_GAMES}); "
        "Python stepping and cloning use 10x this many steps / clones",
    )
    parser.add_argument("--repeats", type=int, default=3, help="repeats per measurement, best kept (default 3)")
    parser.add_argument("--no-perf", action="store_true", help="skip the `perf record` split of playout time")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the results as JSON to PATH")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be positive")

    started = time.perf_counter()
    step_budget = 10 * args.games
    results: dict = {
        "machine": engine_machine_info(),
        "games": args.games,
        "repeats": args.repeats,
        "step_budget": step_budget,
        "state_bytes": _engine.STATE_BYTES,
    }
    results["playouts"] = bench_playouts(args.games, args.repeats)
    results["stepping"], results["stepping_skipped"] = bench_python_stepping(step_budget, args.repeats)
    results["clone"] = bench_clone(step_budget, args.repeats)
    results["profile"] = bench_profile(args.repeats)
    results["perf"] = None if args.no_perf else bench_perf(args.games)
    results["wall_seconds"] = time.perf_counter() - started

    print(report(results))
    print(f"\n(total {results['wall_seconds']:.1f} s)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
