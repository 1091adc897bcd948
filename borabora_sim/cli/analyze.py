"""`borabora analyze`: a built-in study's question answered, its report written."""

from __future__ import annotations

import argparse

from borabora_sim.cli.common import CommandError, Subcommands, add_command, checked

__all__ = ["EXAMPLES", "NAME", "add_parser", "run", "studies"]

NAME = "analyze"
EXAMPLES = """examples:
  borabora analyze fishing --out reports/fishing              # default size: under 10 minutes on 2 cores
  borabora analyze fishing --size full --out reports/fishing  # a real answer (hours)
  borabora analyze priest --out reports/priest               # what a priest is worth, by round
  borabora analyze fishing --rungs heuristic,learned --out r  # only two of the players of rising strength
  borabora analyze spirits --out reports/spirits             # Bamboo: each spirit's worth, the fallbacks
  borabora analyze hold --out reports/hold                   # Pig: which hold target wins most"""


def studies() -> list[str]:
    """Every game's studies: the names of the built-in questions `borabora analyze NAME` asks
    (GameRecord.studies)."""
    from borabora_sim.games import game_names, record_of

    return [study for name in game_names() for study in record_of(name).studies]


def add_parser(commands: Subcommands) -> None:
    an = add_command(commands, NAME, "answer a built-in study's question and write its report (Markdown + PNG); its "
                                     "seeds are in its question file (borabora ask --list)", EXAMPLES)
    an.add_argument("study", choices=tuple(studies()), help="which study")
    an.add_argument("--out", default="reports", help="output directory (default: reports)")
    an.add_argument("--size", default="default", choices=("quick", "default", "full"),
                    help="quick (about a minute at most: a try-out), default (under 10 minutes on 2 cores) or full")
    an.add_argument("--jobs", type=int, help="worker processes (-1: all cores)")
    an.add_argument("--rungs", help="the players measured, comma-separated rungs of the game's ladder "
                                    "(docs/questions.md; default: the question's)")
    an.add_argument("--quiet", action="store_true", help="no progress bars")
    an.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    from borabora_sim.questions import Question, ask, builtin_questions
    from borabora_sim.questions.question import check_rungs, question_data, vocabulary_of, with_rungs
    from borabora_sim.simulate import check_n_jobs, check_out_directory

    if args.jobs is not None:
        checked(check_n_jobs, args.jobs, "--jobs")
    checked(check_out_directory, args.out, "--out")
    path = builtin_questions()[args.study]
    data = question_data(path)
    rungs = None if args.rungs is None else [label for label in args.rungs.split(",") if label]
    if rungs is not None:
        try:
            rungs = list(check_rungs(rungs, vocabulary_of(data["game"])))
        except ValueError as error:
            raise CommandError(f"--{error}") from None
    question = checked(Question.from_dict, data if rungs is None else with_rungs(data, rungs), args.study, str(path))
    ask(question, args.out, args.size, -1 if args.jobs is None else args.jobs,
        progress=False if args.quiet else None, log=print)
