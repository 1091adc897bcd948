"""The `borabora` command line (also `python -m borabora_sim`).

Players are named by specs, "heuristic:style=tuned" or "mcts:iterations=500,rollout=heuristic", or by a preset,
the strongest player of the game played at a budget (borabora_sim.players.presets): `strong` (about 0.1 s of CPU
a move) and `best` (about 1 s), with options after it as for any spec ("strong:threads=2"). For example:

    borabora play                                           # you against three strong players
    borabora play --web --game bamboo --players human,best  # in the browser, against the best
    borabora simulate --games 100 --players strong,heuristic,heuristic --jobs 2

Each command is a module of this package: its name, its --help examples, `add_parser` (its arguments) and `run`
(what it does, importing what it needs only then, so that the command line starts fast). COMMANDS lists them in
the order --help shows them: a new command is a new module, imported here and named in COMMANDS.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import Protocol

import borabora_sim
from borabora_sim.cli import (
    analyze,
    ask,
    bench,
    play,
    replay,
    report,
    simulate,
    train,
    train_learned,
    tune,
)
from borabora_sim.cli.analyze import studies
from borabora_sim.cli.common import CommandError, CommandParser, Subcommands
from borabora_sim.games import game_names


class Command(Protocol):
    """A command's module."""

    NAME: str
    EXAMPLES: str

    def add_parser(self, commands: Subcommands) -> None:
        """Adds the command's parser and arguments; its defaults name `run` as the handler."""

    def run(self, args: argparse.Namespace) -> None:
        """Does what the command does; a CommandError is a problem with its input."""


COMMANDS: tuple[Command, ...] = (simulate, report, play, replay, analyze, ask, bench, tune, train, train_learned)
EXAMPLES = {command.NAME: command.EXAMPLES for command in COMMANDS}     # each command's --help examples


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(prog="borabora",
                           description=f"Simulate, analyse and play board games ({', '.join(game_names())}).")
    parser.add_argument("--version", action="version", version=f"borabora {borabora_sim.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def _run(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown:
            args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exc:           # --help, --version (0), or a usage error already printed (2)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        args.handler(args)
    except BrokenPipeError:
        raise
    except (CommandError, ValueError, OSError, ImportError) as exc:
        message = " ".join(str(exc).splitlines()) or type(exc).__name__
        print(f"borabora {args.command}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:           # the command's line: what was saved, and how to finish
        print(f"borabora {args.command}: {args.interrupted(args, argv)}", file=sys.stderr)
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _run(sys.argv[1:] if argv is None else [str(a) for a in argv])
    except BrokenPipeError:             # the reader went away (`borabora ... | head`): stop without a word
        with contextlib.suppress(OSError, ValueError):      # ValueError: a stdout without a file descriptor
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())     # no second error at exit
        return 141                      # 128 + SIGPIPE, as for a program the pipe ended


__all__ = ["COMMANDS", "EXAMPLES", "build_parser", "main", "studies"]
