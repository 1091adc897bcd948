"""The `borabora` command line."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np

from borabora_sim import _engine
from borabora_sim.game import check_players, check_seed, rules_for
from borabora_sim.stats import wilson_interval

EXAMPLES = """examples:
  borabora simulate --games 1000 --players 4 --seed 0
  python -m borabora_sim simulate --games 100000 --players 3
"""


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def simulate_random(games: int, players: int, seed: int, out=sys.stdout) -> dict[str, np.ndarray]:
    """Plays `games` uniformly random games in compiled code and prints a summary."""
    rules = rules_for()
    start = time.perf_counter()
    result = _engine.random_playouts(rules, games, players, seed)
    elapsed = time.perf_counter() - start
    print(f"{games} random {players}-player games in {elapsed:.2f} s: {games / elapsed:,.0f} games/s, "
          f"{result['decisions'].mean():.0f} decisions per game (seed {seed})", file=out)
    print("\nwin rate by seat (95% Wilson interval; baseline "
          f"{1 / players:.1%}):", file=out)
    for seat in range(players):
        wins = int(np.sum(result["winner"] == seat))
        lo, hi = wilson_interval(wins, games)
        print(f"  seat {seat}: {wins / games:6.1%}  [{lo:.1%}, {hi:.1%}]", file=out)
    mean_by_source = result["breakdown"].mean(axis=(0, 1))
    print("\nmean VP per player by source:", file=out)
    for name, value in zip(_engine.SOURCES, mean_by_source, strict=True):
        if value:
            print(f"  {name:<15} {value:6.2f}", file=out)
    print(f"  {'total':<15} {result['scores'].mean():6.2f}", file=out)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="borabora", description="Bora Bora simulations.",
                                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play random games and print a summary", epilog=EXAMPLES,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sim.add_argument("--games", type=_positive_int, default=1000, help="number of games (default 1000)")
    sim.add_argument("--players", type=int, default=4, help="2, 3 or 4 (default 4)")
    sim.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    args = parser.parse_args(argv)
    try:
        check_players(args.players)
        check_seed(args.seed)
    except ValueError as exc:
        parser.exit(2, f"borabora: error: {exc}\n")
    simulate_random(args.games, args.players, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
