"""`borabora train-learned`: the value-only learned evaluation of Bora Bora trained (docs/learned.md)."""

from __future__ import annotations

import argparse

from borabora_sim.cli.common import Subcommands, add_command, int_in, positive_int, seed_number

__all__ = ["EXAMPLES", "NAME", "add_parser", "run"]

NAME = "train-learned"
EXAMPLES = """examples:
  borabora train-learned --out runs/learned.npz --jobs 2   # the shipped weights from scratch (5 minutes on 2 cores)
  borabora train-learned --games 2000 --rounds 0 --epochs 3 --out runs/tiny.npz --work runs/tiny   # seconds"""


def add_parser(commands: Subcommands) -> None:
    from borabora_sim.train import TrainConfig

    defaults = TrainConfig()
    tr = add_command(commands, NAME, "train the value-only learned evaluation of Bora Bora (docs/learned.md)",
                     EXAMPLES)
    tr.add_argument("--out", required=True, help="the weights file to write (.npz; its manifest .json beside it)")
    tr.add_argument("--work", default="runs/train", help="directory of the games played so far; an interrupted run "
                                                         "continues from it (default %(default)s)")
    tr.add_argument("--games", type=positive_int, default=defaults.games,
                    help="heuristic games of the first round (default %(default)s)")
    tr.add_argument("--rounds", type=int_in(0, 101, "an integer in [0, 100]"), default=defaults.rounds,
                    help="expert-iteration rounds after it (default %(default)s)")
    tr.add_argument("--round-games", type=positive_int, default=defaults.round_games,
                    help="games per later round (default %(default)s)")
    tr.add_argument("--hidden", type=int_in(1, 257, "an integer in [1, 256]"), default=defaults.hidden,
                    help="hidden units (default %(default)s)")
    tr.add_argument("--epochs", type=positive_int, default=defaults.epochs,
                    help="epochs per fit (default %(default)s)")
    tr.add_argument("--seed", type=seed_number, default=defaults.seed, help="master seed (default %(default)s)")
    tr.add_argument("--jobs", type=int_in(1, 65, "an integer in [1, 64]"), default=1,
                    help="worker processes for the games (default 1)")
    tr.add_argument("--quiet", action="store_true", help="no progress bar")
    tr.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    from borabora_sim.train import TrainConfig, train

    config = TrainConfig(games=args.games, rounds=args.rounds, round_games=args.round_games, hidden=args.hidden,
                         epochs=args.epochs, seed=args.seed)
    train(config, out=args.out, work=args.work, n_jobs=args.jobs, progress=not args.quiet)
