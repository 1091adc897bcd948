"""What the commands of the `borabora` command line share: the error of a command's input, the argument types,
the reading of player specs, and the making of a command's parser with its help and examples."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn, TypeAlias, TypeVar

from borabora_sim.games import DEFAULT_GAME, canonical_game_spec, game_names
from borabora_sim.players.presets import PRESETS

__all__ = [
    "PRESET_HELP",
    "CommandError",
    "CommandParser",
    "Subcommands",
    "add_command",
    "checked",
    "checked_game_spec",
    "game_option",
    "int_in",
    "not_saved",
    "positive_int",
    "positive_seconds",
    "seed_number",
    "split_specs",
]

T = TypeVar("T")

# The presets, above the examples of the commands that take player specs.
PRESET_HELP = ("presets, the strongest player of the game played at a budget (options may follow, as in "
               "strong:threads=2;\nthe spec each stands for in each game: docs/players.md):\n"
               + "".join(f"  {name:<8} {what}\n" for name, what in PRESETS.items()) + "\n")


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, `borabora <cmd>: error: ...`, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# The parsers of the commands, as `add_subparsers` of the command line's parser hands them out.
Subcommands: TypeAlias = "argparse._SubParsersAction[CommandParser]"


class CommandError(Exception):
    """A problem with the command's input: printed as one line, exit status 2."""


def checked(check: Callable[..., T], *args: object, **kwargs: object) -> T:
    """Calls an argument check (a spec parser, a configuration check); its ValueError or TypeError becomes a
    CommandError."""
    try:
        return check(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        raise CommandError(str(exc)) from None


def split_specs(text: str) -> list[str]:
    """'mcts:iterations=500,rollout=heuristic,heuristic,random' -> ['mcts:iterations=500,rollout=heuristic',
    'heuristic', 'random']: a piece with '=' but no ':' continues the previous spec. ';' also separates."""
    specs: list[str] = []
    for group in text.split(";"):
        for piece in filter(None, (p.strip() for p in group.split(","))):
            if "=" in piece and ":" not in piece and specs:
                specs[-1] += "," + piece
            else:
                specs.append(piece)
    if not specs:
        raise CommandError("--players needs at least two player specs, e.g. heuristic,random")
    return specs


def int_in(low: int, high: int, allowed: str) -> Callable[[str], int]:
    """An argparse type: an integer in [low, high), else an error saying what is allowed."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value < high:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
        return value
    return parse


positive_int = int_in(1, 2**63, "a positive integer")
seed_number = int_in(0, 2**64, "an integer in [0, 2**64)")


def checked_game_spec(text: str) -> str:
    """An argparse type: a game spec (`bamboo:mode=advanced`), checked and made canonical."""
    try:
        return canonical_game_spec(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive_seconds(text: str) -> float:
    """An argparse type: a positive finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def not_saved(args: argparse.Namespace, argv: list[str]) -> str:
    """The line printed after Ctrl-C by a command that leaves nothing to finish later."""
    return "interrupted"


def add_command(commands: Subcommands, name: str, help_text: str, examples: str, *,
                presets: bool = False) -> argparse.ArgumentParser:
    """The parser of the command `name`: its help, then (`presets`: for the commands that take player specs) the
    presets, then its examples."""
    epilog = (PRESET_HELP if presets else "") + examples
    command = commands.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    command.set_defaults(command_parser=command, interrupted=not_saved)
    return command


def game_option(command: argparse.ArgumentParser) -> None:
    """The --game option of a command that plays one game: which game, with its options."""
    command.add_argument("--game", type=checked_game_spec, default=DEFAULT_GAME, metavar="GAME",
                         help=f"the game, with its options as for a player: {', '.join(game_names())} or e.g. "
                              f"bamboo:mode=advanced (default {DEFAULT_GAME})")
