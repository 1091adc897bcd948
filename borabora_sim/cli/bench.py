"""`borabora bench`: the engine's and the simulator's throughput on this machine."""

from __future__ import annotations

import argparse
import sys

from borabora_sim.cli.common import Subcommands, add_command, game_option, positive_int

__all__ = ["EXAMPLES", "NAME", "add_parser", "run"]

NAME = "bench"
EXAMPLES = """examples:
  borabora bench
  borabora bench --games 50000"""


def add_parser(commands: Subcommands) -> None:
    bench = add_command(commands, NAME, "engine and simulator throughput on this machine", EXAMPLES)
    game_option(bench)
    bench.add_argument("--games", type=positive_int, default=20000, help="games per row (default 20000)")
    bench.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    from borabora_sim.bench import measure

    result = measure(args.game, args.games)
    rows = result.rows()
    width = max(len(name) for name, _, _ in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>16}  {note}")
    for warning in result.warnings():
        print(f"borabora bench: warning: {warning}", file=sys.stderr)
