"""`borabora tune`: the heuristic's weights tuned with CMA-ES against three opponents (docs/tuning.md)."""

from __future__ import annotations

import argparse

from borabora_sim.cli.common import Subcommands, add_command, game_option, positive_int, seed_number, split_specs

__all__ = ["EXAMPLES", "NAME", "add_parser", "interrupted", "run"]

NAME = "tune"
EXAMPLES = """examples:
  borabora tune --out runs/tune                          # Bora Bora, against three balanced heuristics
  borabora tune --out runs/tune --budget 1000000         # continue the same run to a larger budget
  borabora tune --game bamboo --opponents heuristic:style=spirits --out runs/tune-bamboo"""


def add_parser(commands: Subcommands) -> None:
    tn = add_command(commands, NAME, "tune the heuristic's weights with CMA-ES against three opponents "
                                     "(docs/tuning.md)", EXAMPLES)
    game_option(tn)
    tn.add_argument("--out", required=True, help="directory of the run (written as it goes; continued with --resume)")
    tn.add_argument("--resume", action="store_true", help="continue the run in --out (same arguments; the budget "
                                                          "may grow)")
    tn.add_argument("--opponents", default="heuristic", help="one player spec for the three opponents, or three "
                                                             "(default %(default)s)")
    tn.add_argument("--start", help="the style to start from (default: the game's default style)")
    tn.add_argument("--budget", type=positive_int, default=20000, help="tuning games in all (default 20000)")
    tn.add_argument("--games-per-eval", type=positive_int, default=200,
                    help="games per candidate, a multiple of 4 (default 200)")
    tn.add_argument("--popsize", type=positive_int, help="candidates per generation (default: CMA-ES's own)")
    tn.add_argument("--sigma0", type=float, default=0.3, help="initial step, a fraction of each weight (default 0.3)")
    tn.add_argument("--validation-games", type=positive_int, default=2000,
                    help="fresh games validating the result, a multiple of 4 (default 2000)")
    tn.add_argument("--seed", type=seed_number, default=0, help="master seed (default 0)")
    tn.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    tn.add_argument("--quiet", action="store_true", help="no progress bar")
    tn.set_defaults(handler=run, interrupted=interrupted)


def run(args: argparse.Namespace) -> None:
    from borabora_sim.tune import tune

    opponents = split_specs(args.opponents)
    result = tune(args.game, opponents[0] if len(opponents) == 1 else opponents, budget=args.budget,
                  games_per_eval=args.games_per_eval, seed=args.seed, out=args.out, resume=args.resume,
                  progress=False if args.quiet else None, start=args.start, popsize=args.popsize, sigma0=args.sigma0,
                  validation_games=args.validation_games, n_jobs=args.jobs)
    v = result.validation
    print(f"{result.generations} generations, {result.games:,} tuning games; weights: "
          + ", ".join(f"{name}={value:g}" for name, value in result.weights.items()))
    print(f"validation on {v.games:,} fresh seat-rotated games: win rate {v.win_rate:.1%} "
          f"(95% CI {v.ci_low:.1%}-{v.ci_high:.1%}); start style {v.start_win_rate:.1%}; difference "
          f"{v.difference:+.1%} ({v.difference_low:+.1%} to {v.difference_high:+.1%}); written to {args.out}")


def interrupted(args: argparse.Namespace, argv: list[str]) -> str:
    """The line printed after Ctrl-C: what was saved and the command that continues the run."""
    from borabora_sim.tune import interrupted_message

    return interrupted_message(args.out, argv)
