"""`borabora train`: a game's policy-and-value network trained by expert iteration (docs/expert.md)."""

from __future__ import annotations

import argparse

from borabora_sim.cli.common import Subcommands, add_command, checked_game_spec, int_in, positive_int, seed_number
from borabora_sim.games import DEFAULT_GAME

__all__ = ["EXAMPLES", "NAME", "add_parser", "run"]

NAME = "train"
EXAMPLES = """examples:
  borabora train --game bora_bora --out runs/network.npz --jobs 2     # a network from scratch (docs/expert.md)
  borabora train --imitation-games 20 --games 4 --generations 1 --iterations 8 --gate-games 4 --work runs/tiny"""


def _layer_sizes(text: str) -> tuple[int, ...]:
    """An argparse type: one or two hidden layer sizes, "96,64"."""
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        sizes = ()
    if not 1 <= len(sizes) <= 2 or any(not 1 <= size <= 256 for size in sizes):
        raise argparse.ArgumentTypeError(f"must be one or two layer sizes in 1..256 such as 96,64, got {text!r}")
    return sizes


def _powers(text: str) -> float | tuple[float, ...]:
    """An argparse type: one sharpening power, or one per teacher ("10,30"), each in (0, 100]."""
    try:
        powers = tuple(float(part) for part in text.split(","))
    except ValueError:
        powers = ()
    if not powers or any(not 0 < power <= 100 for power in powers):
        raise argparse.ArgumentTypeError(f"must be a power in (0, 100], or one per teacher such as 10,30, got "
                                         f"{text!r}")
    return powers[0] if len(powers) == 1 else powers


def add_parser(commands: Subcommands) -> None:
    from borabora_sim.expert_iteration import ExpertConfig

    expert = ExpertConfig()
    net = add_command(commands, NAME, "train a game's policy-and-value network by expert iteration (docs/expert.md)",
                      EXAMPLES)
    net.add_argument("--game", type=checked_game_spec, default=DEFAULT_GAME, metavar="GAME",
                     help=f"the game (default {DEFAULT_GAME}); it needs learned features")
    net.add_argument("--work", default="runs/expert", help="directory of the run so far; an interrupted run continues "
                                                          "from it (default %(default)s)")
    net.add_argument("--out", help="also write the best network here (.npz; its manifest .json beside it)")
    net.add_argument("--imitation-games", type=positive_int, default=expert.imitation_games,
                     help="heuristic games imitated by generation 0 (default %(default)s)")
    net.add_argument("--teacher", default=expert.teacher,
                     help="generation 0's teacher: 'heuristic' (the heuristics' own moves), a search player spec "
                          "whose visit shares are the targets at the positions kept, or a learned player spec "
                          "(learned:...) whose win chances after each move are; several joined by ' + ' give the "
                          "mean of their targets (default %(default)s)")
    net.add_argument("--later-teacher", default=expert.later_teacher, metavar="SPEC",
                     help="with a search or learned teacher, the teacher that labels the later generations' "
                          "positions, or several joined by ' + ' as --teacher; a search with evaluation=net or "
                          "prior=net searches with the best network so far (default: the teacher)")
    net.add_argument("--keep", type=float, default=expert.keep,
                     help="share of generation 0's decisions kept as samples (default %(default)s)")
    net.add_argument("--sharpen", type=_powers, default=expert.sharpen, metavar="POWER[,POWER...]",
                     help="raise the policy targets to this power when fitting (above 1: lean to the teacher's "
                          "choice), or with several teachers one power per teacher, each teacher's targets raised "
                          "to its own before they are averaged (default %(default)s)")
    net.add_argument("--finish-style", default=expert.finish_style, metavar="STYLE",
                     help="the heuristic style that finishes the mover's turn before the policy judges it "
                          "(default: none, the state a move leads to at once)")
    net.add_argument("--generations", type=int_in(0, 101, "an integer in [0, 100]"), default=expert.generations,
                     help="search generations after it (default %(default)s)")
    net.add_argument("--games", type=positive_int, default=expert.games,
                     help="self-play games per search generation (default %(default)s)")
    net.add_argument("--iterations", type=positive_int, default=expert.iterations,
                     help="PUCT iterations per decision in self-play and the gate (default %(default)s)")
    net.add_argument("--window", type=int_in(1, 101, "an integer in [1, 100]"), default=expert.window,
                     help="generations of data a network is fitted on, the newest (default %(default)s)")
    net.add_argument("--gate-games", type=positive_int, default=expert.gate_games,
                     help="games of a new network against the best (default %(default)s)")
    net.add_argument("--gate-field", default=expert.gate_field, metavar="SPEC",
                     help="gate a new network and the best each against a field of this player on the same deals "
                          "(paired), not head to head (default: head to head)")
    net.add_argument("--hidden", type=_layer_sizes, default=expert.hidden,
                     help="hidden layer sizes, one or two (default %(default)s)")
    net.add_argument("--final-hidden", type=_layer_sizes, default=expert.final_hidden, metavar="SIZES",
                     help="end with a network of these hidden layer sizes fitted on every generation of the window, "
                          "kept if the gate finds it stronger than the best (default: none)")
    net.add_argument("--epochs", type=positive_int, default=expert.epochs, help="epochs per fit (default %(default)s)")
    net.add_argument("--seed", type=seed_number, default=expert.seed, help="master seed (default %(default)s)")
    net.add_argument("--jobs", type=int_in(1, 65, "an integer in [1, 64]"), default=1,
                     help="worker processes for the games (default 1)")
    net.add_argument("--quiet", action="store_true", help="no progress lines")
    net.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    from borabora_sim.expert_iteration import ExpertConfig, train_network

    config = ExpertConfig(game=args.game, imitation_games=args.imitation_games, teacher=args.teacher,
                          later_teacher=args.later_teacher, finish_style=args.finish_style, keep=args.keep,
                          sharpen=args.sharpen, generations=args.generations,
                          games=args.games, iterations=args.iterations, gate_games=args.gate_games,
                          window=args.window, gate_field=args.gate_field, hidden=args.hidden,
                          final_hidden=args.final_hidden, epochs=args.epochs,
                          seed=args.seed)
    train_network(config, work=args.work, out=args.out, n_jobs=args.jobs,
                  log=(lambda line: None) if args.quiet else print)
