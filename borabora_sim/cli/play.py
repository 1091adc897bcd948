"""`borabora play`: a game against the AI, in the terminal or in the browser."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from borabora_sim.cli.common import (
    CommandError,
    Subcommands,
    add_command,
    checked,
    game_option,
    int_in,
    seed_number,
    split_specs,
)
from borabora_sim.games import get_game
from borabora_sim.players.presets import PRESETS

__all__ = ["DEFAULT_PLAY_PLAYERS", "EXAMPLES", "NAME", "add_parser", "run"]

NAME = "play"
EXAMPLES = """examples:
  borabora play                                            # you against three strong players
  borabora play --players human,best --seed 7              # one opponent, the best
  borabora play --players human,strong:threads=2,heuristic:style=tuned
  borabora play --web --players human,strong,strong        # in the browser
  borabora play --web --game bamboo --players human,best"""

# `play` without --players: you against three of the strong preset, which answers within a second
DEFAULT_PLAY_PLAYERS = "human,strong,strong,strong"


def add_parser(commands: Subcommands) -> None:
    play_help = "play in the terminal (or in the browser with --web) against the AI"
    play = add_command(commands, NAME, play_help, EXAMPLES, presets=True)
    play.description = play_help + (
        "\n\nIn the terminal, answer with a move's number or its words, or a command: help (the commands and the "
        "rules\nof the decision), board (the whole board), hint [SPEC] (what an AI would play, and why), why (the\n"
        "last AI move's reasons), undo (back to your previous decision), q (abandon the game).")
    game_option(play)
    play.add_argument("--players", default=DEFAULT_PLAY_PLAYERS,
                      help=f"specs by seat, 'human' for you, or a preset: {', '.join(PRESETS)} (default: %(default)s)")
    play.add_argument("--seed", type=seed_number, default=None, help="game seed (default: random)")
    play.add_argument("--web", action="store_true",
                      help="play in the browser: a local server on 127.0.0.1 and its page (docs/web_play.md)")
    play.add_argument("--port", type=int_in(0, 65536, "a port number in [0, 65535]"),
                      help="with --web: the port (default: a free one)")
    play.add_argument("--no-browser", action="store_true", help="with --web: do not open a browser")
    play.set_defaults(handler=run)


def run(args: argparse.Namespace, read: Callable[[str], str] | None = None,
        write: Callable[[str], None] | None = None) -> None:
    read = read or input            # looked up at call time, so a patched input() is honoured
    write = write or print
    from borabora_sim.players import make_player
    from borabora_sim.protocol import check_seed

    if args.web:
        from borabora_sim.viewer.server import WebServer, serve
        from borabora_sim.viewer.web_game import WebGame

        web = checked(WebGame, get_game(args.game), split_specs(args.players), check_seed(args.seed))
        serve(checked(WebServer, web, 0 if args.port is None else args.port), not args.no_browser, write)
        return
    if args.port is not None or args.no_browser:
        raise CommandError("--port and --no-browser are options of --web")
    from borabora_sim.terminal import HUMAN, TerminalGame

    game = get_game(args.game)
    specs = split_specs(args.players)
    for spec in specs:
        if spec != HUMAN:
            checked(make_player, spec, None, game)
    TerminalGame(game, specs, check_seed(args.seed), read, write).play()
