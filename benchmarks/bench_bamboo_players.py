"""Strength of the Bamboo players: win rates with Wilson 95% intervals, the tested player's seat rotated.

    python benchmarks/bench_bamboo_players.py                                  # heuristic rows, 400 games each
    python benchmarks/bench_bamboo_players.py --rows mcts1000 --games 400 --jobs 2 --json mcts.json

Rows (the tested player against opponents of one spec, in a game of `players`):

| row | tested | opponents | players |
|---|---|---|---|
| heuristic4 | heuristic (balanced) | 3 x random | 4 |
| heuristic2 | heuristic (balanced) | random (and the ghost) | 2 |
| builder4, spirits4 | heuristic:style=builder / spirits | 3 x random | 4 |
| tuned4 | heuristic:style=tuned (borabora_sim/games/bora_bora/data/tuned_styles.json) | 3 x heuristic (balanced) | 4 |
| tuned2 | heuristic:style=tuned | heuristic (balanced; and the ghost) | 2 |
| mcts1000 | mcts:iterations=1000 (random rollouts to the end) | 3 x heuristic | 4 |
| mcts1000cut | mcts:iterations=1000,rollout=heuristic,rollout_depth=30 | 3 x heuristic | 4 |
| mcts1000two | mcts:iterations=1000 (random rollouts to the end) | heuristic (and the ghost) | 2 |
| mctsbamboo | mcts:iterations=1000 (Bamboo's search defaults: rollout_depth=25,temperature=4) | 3 x heuristic | 4 |
| mctsbambootwo | mcts:iterations=1000 (Bamboo's search defaults) | heuristic (and the ghost) | 2 |

`--tested SPEC --players N` plays one row of any player spec against heuristics instead (the screens).

`--speed` also times one `choose()` from Python on every decision state of 10 balanced-heuristic 4-player games
(CPU µs per decision, best of 3; the heuristic's includes its determinization and, with `thorough`, finishing
its own step greedily for every candidate).

A game won by the tested player counts 1, a shared victory (B35) 1/k for k winners, as the compiled reward does.
Game i seats the tested player in seat i mod players; every seed derives from (--seed, i).

Results on a 2-core machine, seed 2026, 400 games a row (`--jobs 2` for the MCTS rows), with the heuristic that
values balance tiles and harmony by the HP they can still bring (commit 827f995; benchmarks/README_players.md has
the rows of the previous heuristic next to these); the baseline of a 4-player row is 0.25, of a 2-player row 0.5:

| row | games | wins | rate | Wilson 95% | mean margin (HP) | CPU s/game |
|---|---|---|---|---|---|---|
| heuristic4 | 400 | 400 | 1.000 | 0.990-1.000 | +15.6 | 0.003 |
| heuristic2 | 400 | 400 | 1.000 | 0.990-1.000 | +23.1 | 0.003 |
| builder4 | 400 | 400 | 1.000 | 0.990-1.000 | +16.4 | 0.003 |
| spirits4 | 400 | 399 | 0.998 | 0.986-1.000 | +14.2 | 0.003 |
| mcts1000 | 400 | 146 | 0.365 | 0.319-0.413 | -3.1 | 1.95 |
| mcts1000two | 400 | 129 | 0.323 | 0.279-0.370 | -4.4 | 1.04 |

Bamboo's mcts defaults (rollout_depth=25, temperature=4, the cut-off at the end of a turn), `--seed 2027`:

| row | games | wins | rate | Wilson 95% | mean margin (HP) | CPU s/game |
|---|---|---|---|---|---|---|
| mctsbamboo | 400 | 247.5 | 0.619 | 0.570-0.665 | -0.3 | 0.56 |
| mctsbambootwo | 400 | 254.5 | 0.636 | 0.588-0.682 | +0.0 | 0.50 |

The tuned style (docs/tuning.md), `--rows tuned4,tuned2 --games 2000 --seed 2026` (tuned on 4-player games only):

| row | games | wins | rate | Wilson 95% | mean margin (HP) | CPU s/game |
|---|---|---|---|---|---|---|
| tuned4 | 2000 | 1385 | 0.693 | 0.672-0.712 | +3.2 | 0.011 |
| tuned2 | 2000 | 1341 | 0.670 | 0.650-0.691 | +2.9 | 0.006 |
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from borabora_sim.games import get_game
from borabora_sim.match import play_game
from borabora_sim.players import make_player
from borabora_sim.stats import wilson_interval

from timing import best_of

# The mcts rows of the first measurements, spelled out: a bare "mcts" takes Bamboo's search_defaults now.
LIBRARY_DEFAULTS = "c=0.7,rollout=random,rollout_depth=-1,margin=0"


@dataclass(frozen=True)
class Row:
    name: str
    tested: str
    opponent: str
    players: int


ROWS = {row.name: row for row in (
    Row("heuristic4", "heuristic", "random", 4),
    Row("heuristic2", "heuristic", "random", 2),
    Row("builder4", "heuristic:style=builder", "random", 4),
    Row("spirits4", "heuristic:style=spirits", "random", 4),
    Row("tuned4", "heuristic:style=tuned", "heuristic", 4),
    Row("tuned2", "heuristic:style=tuned", "heuristic", 2),
    Row("mcts1000", f"mcts:iterations=1000,{LIBRARY_DEFAULTS}", "heuristic", 4),
    Row("mcts1000cut", "mcts:iterations=1000,rollout=heuristic,rollout_depth=30", "heuristic", 4),
    Row("mcts1000two", f"mcts:iterations=1000,{LIBRARY_DEFAULTS}", "heuristic", 2),
    Row("mctsbamboo", "mcts:iterations=1000", "heuristic", 4),
    Row("mctsbambootwo", "mcts:iterations=1000", "heuristic", 2),
)}
DEFAULT_ROWS = ("heuristic4", "heuristic2", "builder4", "spirits4")


def play_one(row: Row, base_seed: int, index: int) -> dict:
    """Game `index` of a row: the tested player in seat index mod players."""
    game = get_game("bamboo")
    seed = game.derive_seed(base_seed, index)
    seat = index % row.players
    players = [make_player(row.tested if s == seat else row.opponent, seed=game.derive_seed(seed, 1 + s), game=game)
               for s in range(row.players)]
    start = time.process_time()
    record = play_game(players, seed=seed, game=game)
    cpu = time.process_time() - start
    firsts = record.ranks.count(1)
    best_other = max(score for s, score in enumerate(record.scores) if s != seat)
    return {"index": index, "seat": seat, "scores": record.scores,
            "won": 1.0 / firsts if record.ranks[seat] == 1 else 0.0,
            "margin": record.scores[seat] - best_other, "cpu_seconds": cpu}


def run_row(row: Row, games: int, base_seed: int, pool: ProcessPoolExecutor | None) -> dict:
    print(f"[{row.name}] {games} games, {row.tested} vs {row.players - 1} x {row.opponent}", file=sys.stderr,
          flush=True)
    start = time.perf_counter()
    if pool is None:
        results = [play_one(row, base_seed, index) for index in range(games)]
    else:
        futures = [pool.submit(play_one, row, base_seed, index) for index in range(games)]
        results = [future.result() for future in as_completed(futures)]
    wins = sum(r["won"] for r in results)
    lo, hi = wilson_interval(wins, games)
    return {
        "row": row.name, "tested": row.tested, "opponent": row.opponent, "players": row.players, "games": games,
        "wins": wins, "win_rate": wins / games, "wilson_lo": lo, "wilson_hi": hi,
        "mean_margin": statistics.fmean(r["margin"] for r in results),
        "mean_score": statistics.fmean(r["scores"][r["seat"]] for r in results),
        "cpu_seconds_per_game": statistics.fmean(r["cpu_seconds"] for r in results),
        "wall_seconds": time.perf_counter() - start,
    }


def decision_states(base_seed: int, games: int = 10) -> list:
    """Every decision state of `games` 4-player games between balanced heuristic players."""
    game = get_game("bamboo")
    states = []
    for index in range(games):
        seed = game.derive_seed(base_seed ^ 0xDEC, index)
        seats = [make_player("heuristic", seed=game.derive_seed(seed, 1 + s), game=game) for s in range(4)]
        state = game.new_initial_state(players=4, seed=seed)
        while not state.is_terminal():
            states.append(state.clone())
            state.apply(seats[state.current_player].choose(state))
    return states


def bench_decisions(base_seed: int, repeats: int = 3) -> list[dict]:
    """Best-of-`repeats` CPU µs per choose() over the decision states, for each heuristic style and random."""
    game = get_game("bamboo")
    states = decision_states(base_seed)
    rows = []
    for spec in ("heuristic", "heuristic:style=builder", "heuristic:style=spirits", "heuristic:thorough=false",
                 "random"):
        player = make_player(spec, seed=1, game=game)

        def run(player=player) -> float:
            t0 = time.process_time()                # CPU time: the machine is shared
            for state in states:
                player.choose(state)
            return time.process_time() - t0

        rows.append({"player": spec, "decisions": len(states), "us_per_decision": 1e6 * best_of(repeats, run)
                     / len(states)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default=",".join(DEFAULT_ROWS), help=f"comma-separated: {', '.join(ROWS)}")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--tested", help="instead of --rows, one row of this player spec against heuristics")
    parser.add_argument("--players", type=int, default=4, help="the number of players of the --tested row")
    parser.add_argument("--speed", action="store_true", help="also time the decisions of the heuristic players")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.rows.split(",") if name.strip()]
    unknown = [name for name in names if name not in ROWS]
    if unknown or args.games < 1 or args.jobs < 1:
        parser.error(f"unknown row(s) {', '.join(unknown)}" if unknown else "--games and --jobs must be >= 1")
    rows = [ROWS[name] for name in names]
    if args.tested:
        make_player(args.tested, game=get_game("bamboo"))        # a bad spec fails here, not in every game
        rows = [Row("tested", args.tested, "heuristic", args.players)]
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        results = [run_row(row, args.games, args.seed, pool) for row in rows]
    finally:
        if pool is not None:
            pool.shutdown()
    print(f"| {'row':<12} | {'tested':<56} | {'opponents':<13} | games | wins  | rate  | Wilson 95%  | margin | "
          f"s/game |")
    print(f"|{'-' * 14}|{'-' * 58}|{'-' * 15}|-------|-------|-------|-------------|--------|--------|")
    for r in results:
        opponents = f"{r['players'] - 1} x {r['opponent']}"
        print(f"| {r['row']:<12} | {r['tested']:<56} | {opponents:<13} | {r['games']:>5} | {r['wins']:>5.1f} | "
              f"{r['win_rate']:.3f} | {r['wilson_lo']:.3f}-{r['wilson_hi']:.3f} | {r['mean_margin']:>+6.1f} | "
              f"{r['cpu_seconds_per_game']:>6.3f} |")
    speed = bench_decisions(args.seed) if args.speed else []
    if speed:
        print(f"\n| {'player':<26} | decisions | us/decision |\n|{'-' * 28}|-----------|-------------|")
        for r in speed:
            print(f"| {r['player']:<26} | {r['decisions']:>9} | {r['us_per_decision']:>11.1f} |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"rows": results, "speed": speed} if speed else results, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
