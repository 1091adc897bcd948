"""`borabora replay`: one game as a readable log, an HTML replay page or a PNG picture of its board."""

from __future__ import annotations

import argparse

from borabora_sim.cli.common import CommandError, Subcommands, add_command, checked, int_in, seed_number, split_specs
from borabora_sim.games import DEFAULT_GAME, game_names, game_spec, get_game

__all__ = ["EXAMPLES", "NAME", "add_parser", "run"]

NAME = "replay"
EXAMPLES = """examples:
  borabora replay --seed 12345 --players heuristic,random,random
  borabora replay --run runs/m --game-id 17
  borabora replay --seed 7 --players heuristic,mcts:iterations=200,random --html game.html
  borabora replay --game bamboo --seed 7 --players heuristic,random --html bamboo.html
  borabora replay --seed 7 --players heuristic,mcts:iterations=200 --html game.html --reasons 10
  borabora replay --seed 7 --players heuristic,random,random --png board.png --at 120"""


def add_parser(commands: Subcommands) -> None:
    rp = add_command(commands, NAME, "print one game as a readable log, or write it as an HTML replay page (--html) "
                                     "or its board as a PNG picture (--png)", EXAMPLES, presets=True)
    rp.add_argument("--seed", type=seed_number, help="game seed")
    rp.add_argument("--players", help="player specs by seat")
    rp.add_argument("--run", help="a simulation directory (with --game-id)")
    rp.add_argument("--game-id", type=int_in(0, 2**63, "a game id (0, 1, ...)"), metavar="N",
                    help="with --run: the game with this id in the run")
    rp.add_argument("--game", help=f"with --seed: the game, with its options ({', '.join(game_names())}, "
                                   f"bamboo:mode=advanced, ...; default {DEFAULT_GAME})")
    rp.add_argument("--html", metavar="FILE", help="write the game as a self-contained HTML replay (the board at "
                                                   "every decision, the log, the scores) to FILE instead")
    rp.add_argument("--reasons", type=int_in(0, 10_001, "an integer in [0, 10000]"), metavar="N",
                    help="with --html: the options shown of each decision of a player that weighs them (default 6; "
                         "0: none)")
    rp.add_argument("--png", metavar="FILE", help="write the board as a PNG picture to FILE instead (needs "
                                                  "pip install 'borabora_sim[png]')")
    rp.add_argument("--at", type=int_in(0, 2**31, "a number of decisions (0: the start)"), metavar="N",
                    help="with --png: the board after N decisions (default: at the end of the game)")
    rp.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    from borabora_sim.players import make_player
    from borabora_sim.runs import RunDirectory
    from borabora_sim.simulate import replay, seat_specs

    by_seed = args.seed is not None or args.players is not None
    if args.run is not None and by_seed:
        raise CommandError("give --run and --game-id, or --seed and --players, not both")
    if args.game_id is not None and args.run is None:
        raise CommandError("--game-id picks a game of --run: give --run too")
    name = args.game
    if args.run is not None:
        config = RunDirectory(args.run).read_manifest()
        if config is None:
            raise CommandError(f"{args.run} holds no simulation run (no manifest.json)")
        if args.game is not None:
            raise CommandError(f"--game names the game of --seed; a game of --run is played in the run's game "
                               f"({config.game}): pick it with --game-id N, N in 0..{config.games - 1}")
        if args.game_id is None or not args.game_id < config.games:
            raise CommandError(f"--game-id must be a game id in 0..{config.games - 1}")
        name, components = config.game, config.components      # the run's game and component file
        seed = get_game(name, components).derive_seed(config.seed, args.game_id)
        specs = seat_specs(config, args.game_id)
    else:
        if args.seed is None or args.players is None:
            raise CommandError("give --seed and --players, or --run and --game-id")
        seed, specs, components = args.seed, split_specs(args.players), None
    game = checked(get_game, name or DEFAULT_GAME, components)
    for spec in specs:
        checked(make_player, spec, None, game)
    if args.reasons is not None and args.html is None:
        raise CommandError("--reasons is for --html: how many options of each decision the HTML replay shows")
    if args.at is not None and args.png is None:
        raise CommandError("--at is for --png: the number of decisions after which the picture is taken")
    if args.html is not None:
        from borabora_sim.viewer.replay import REASON_OPTIONS, replay_html

        reasons = REASON_OPTIONS if args.reasons is None else args.reasons
        path = replay_html(args.html, seed, specs, components, game_spec(game), reasons=reasons)
        print(f"wrote {path} ({path.stat().st_size:,} bytes): open it in a browser")
    if args.png is not None:
        from borabora_sim.viewer import replay_png

        path = replay_png(args.png, seed, specs, components, game_spec(game), step=args.at)
        print(f"wrote {path} ({path.stat().st_size:,} bytes): the board " +
              ("at the end of the game" if args.at is None else f"after {args.at} decisions"))
    if args.html is None and args.png is None:
        print("\n".join(replay(seed, specs, components, game_spec(game))))
