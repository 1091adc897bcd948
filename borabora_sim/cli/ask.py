"""`borabora ask`: a strategy question written in a few lines (docs/questions.md), answered."""

from __future__ import annotations

import argparse

from borabora_sim.cli.common import CommandError, Subcommands, add_command, checked

__all__ = ["EXAMPLES", "NAME", "add_parser", "run"]

NAME = "ask"
EXAMPLES = """examples:
  borabora ask --list                                          # the built-in questions, one line each
  borabora ask bamboo_first_seat --size quick --out reports/q  # a built-in question, in under a minute
  borabora ask my_question.toml --out reports/mine             # your own question (docs/questions.md)
  borabora ask fishing --jobs 2 --out reports/fishing          # an interrupted run continues with the same --out"""


def add_parser(commands: Subcommands) -> None:
    ak = add_command(commands, NAME, "answer a strategy question written in a few lines (docs/questions.md)",
                     EXAMPLES)
    ak.add_argument("question", nargs="?", help="a question file (.toml or .json) or a built-in question's name")
    ak.add_argument("--list", action="store_true", help="list the built-in questions")
    ak.add_argument("--out", default="reports", help="output directory: the report, its tables and figures, and "
                                                     "the games (a rerun continues them; default: reports)")
    ak.add_argument("--size", default="default", choices=("quick", "default", "full"),
                    help="quick (under a minute), default (under 10 minutes on 2 cores) or full")
    ak.add_argument("--jobs", type=int, default=-1, help="worker processes (-1: all cores)")
    ak.add_argument("--backend", default="loky", choices=("loky", "dask"), help="where the games run")
    ak.add_argument("--scheduler", help="with --backend dask: the address of a Dask scheduler")
    ak.add_argument("--kept-games", action="store_true", help="write the report again from the games kept in --out, "
                                                              "adding no batch of games beyond them")
    ak.add_argument("--quiet", action="store_true", help="no progress bars")
    ak.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    from borabora_sim.questions import ask, list_questions, load_question
    from borabora_sim.simulate import check_n_jobs, check_out_directory

    if args.list:
        if args.question is not None:
            raise CommandError("--list takes no question")
        rows = list_questions()
        width = max(len(name) for name, _, _ in rows)
        for name, game, title in rows:
            print(f"{name:<{width}}  {game:<9}  {title}")
        return
    if args.question is None:
        raise CommandError("name a question: a .toml or .json file, or a built-in one (borabora ask --list)")
    question = checked(load_question, args.question)
    checked(check_n_jobs, args.jobs, "--jobs")
    checked(check_out_directory, args.out, "--out")
    answer = ask(question, args.out, args.size, args.jobs, args.backend, args.scheduler,
                 progress=False if args.quiet else None, log=print, kept_only=args.kept_games)
    print()
    print(answer)
