"""`borabora report`: the summary tables (and a plot) of a simulation run on disk."""

from __future__ import annotations

import argparse

from borabora_sim.cli.common import CommandError, Subcommands, add_command, checked

__all__ = ["EXAMPLES", "NAME", "add_parser", "run"]

NAME = "report"
EXAMPLES = """examples:
  borabora report runs/random
  borabora report runs/m --plot summary.png"""


def add_parser(commands: Subcommands) -> None:
    rep = add_command(commands, NAME, "summary tables (and a plot) of a simulation result", EXAMPLES)
    rep.add_argument("directory", help="a --out directory of borabora simulate")
    rep.add_argument("--plot", help="write the summary plots (.png, .svg or .pdf)")
    rep.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    from borabora_sim.report import format_summary, plot_paths, plot_summary, run_summary
    from borabora_sim.runs import RunDirectory

    if args.plot is not None:
        checked(plot_paths, args.plot, "--plot")
    directory = RunDirectory(args.directory)
    config = directory.read_manifest()
    if config is None:
        raise CommandError(f"{args.directory} holds no simulation run (no manifest.json)")
    summary = run_summary(directory)
    print(f"run: {summary.games:,} of {config.games:,} games, players {', '.join(config.players)}, "
          f"seed {config.seed}")
    print(format_summary(summary))
    if args.plot:
        print("plots written to " + ", ".join(plot_summary(summary, args.plot)))
