"""The `borabora` command line (also `python -m borabora_sim`).

Players are named by specs, "heuristic:style=tuned" or "mcts:iterations=500,rollout=heuristic", or by a preset,
the strongest player of the game played at a budget (borabora_sim.players.presets): `strong` (about 0.1 s of CPU
a move) and `best` (about 1 s), with options after it as for any spec ("strong:threads=2"). For example:

    borabora play                                           # you against three strong players
    borabora play --web --game bamboo --players human,best  # in the browser, against the best
    borabora simulate --games 100 --players strong,heuristic,heuristic --jobs 2
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn, TypeVar

import borabora_sim
from borabora_sim.games import DEFAULT_GAME, canonical_game_spec, game_names, game_spec, get_game
from borabora_sim.match import DEFAULT_PLAYERS
from borabora_sim.players.presets import PRESETS

if TYPE_CHECKING:
    import pyarrow as pa

    from borabora_sim.runs import RunConfig

EXAMPLES = {
    "simulate": """examples:
  borabora simulate --games 1000 --players heuristic,heuristic:fishing=never,random,random
  borabora simulate --games 1000000 --players random,random,random,random --jobs 2 --out runs/random
  borabora simulate --games 100 --players strong,heuristic:style=tuned,heuristic --out runs/m
  borabora simulate --out runs/m --resume           # finish it after an interruption (its options are in runs/m)
  borabora simulate --games 500 --players heuristic,random --backend dask --scheduler tcp://10.0.0.5:8786
  borabora simulate --game bora_bora --games 1000 --players heuristic,random,random
  borabora simulate --game bamboo:mode=advanced --games 1000 --players heuristic,heuristic,random""",
    "report": """examples:
  borabora report runs/random
  borabora report runs/m --plot summary.png""",
    "play": """examples:
  borabora play                                            # you against three strong players
  borabora play --players human,best --seed 7              # one opponent, the best
  borabora play --players human,strong:threads=2,heuristic:style=tuned
  borabora play --web --players human,strong,strong        # in the browser
  borabora play --web --game bamboo --players human,best""",
    "replay": """examples:
  borabora replay --seed 12345 --players heuristic,random,random
  borabora replay --run runs/m --game-id 17
  borabora replay --seed 7 --players heuristic,mcts:iterations=200,random --html game.html
  borabora replay --game bamboo --seed 7 --players heuristic,random --html bamboo.html
  borabora replay --seed 7 --players heuristic,mcts:iterations=200 --html game.html --reasons 10
  borabora replay --seed 7 --players heuristic,random,random --png board.png --at 120""",
    "analyze": """examples:
  borabora analyze fishing --out reports/fishing              # default size: under 10 minutes on 2 cores
  borabora analyze fishing --size full --out reports/fishing  # a real answer (hours)
  borabora analyze priest --out reports/priest               # what a priest is worth, by round
  borabora analyze fishing --rungs heuristic,learned --out r  # only two of the players of rising strength
  borabora analyze spirits --out reports/spirits             # Bamboo: each spirit's worth, the fallbacks
  borabora analyze hold --out reports/hold                   # Pig: which hold target wins most""",
    "ask": """examples:
  borabora ask --list                                          # the built-in questions, one line each
  borabora ask bamboo_first_seat --size quick --out reports/q  # a built-in question, in under a minute
  borabora ask my_question.toml --out reports/mine             # your own question (docs/questions.md)
  borabora ask fishing --jobs 2 --out reports/fishing          # an interrupted run continues with the same --out""",
    "bench": """examples:
  borabora bench
  borabora bench --games 50000""",
    "tune": """examples:
  borabora tune --out runs/tune                          # Bora Bora, against three balanced heuristics
  borabora tune --out runs/tune --budget 1000000         # continue the same run to a larger budget
  borabora tune --game bamboo --opponents heuristic:style=spirits --out runs/tune-bamboo""",
    "train": """examples:
  borabora train --game bora_bora --out runs/network.npz --jobs 2     # a network from scratch (docs/expert.md)
  borabora train --imitation-games 20 --games 4 --generations 1 --iterations 8 --gate-games 4 --work runs/tiny""",
    "train-learned": """examples:
  borabora train-learned --out runs/learned.npz --jobs 2   # the shipped weights from scratch (5 minutes on 2 cores)
  borabora train-learned --games 2000 --rounds 0 --epochs 3 --out runs/tiny.npz --work runs/tiny   # seconds""",
}


# The presets, above the examples of the commands that take player specs.
PRESET_HELP = ("presets, the strongest player of the game played at a budget (options may follow, as in "
               "strong:threads=2;\nthe spec each stands for in each game: docs/players.md):\n"
               + "".join(f"  {name:<8} {what}\n" for name, what in PRESETS.items()) + "\n")
PRESET_COMMANDS = ("simulate", "play", "replay")

# What `simulate` plays where an option is not given (with --resume: the run's own setting first); --players left
# out means the game's own default players, and --chunk-size one chosen from the players.
SIMULATE_DEFAULTS: dict[str, object] = {"game": DEFAULT_GAME, "games": 1000, "seed": 0, "chunk_size": None}
DEFAULT_PLAYER_TEXT = ",".join(DEFAULT_PLAYERS)     # --players not given: the game's own default players
# `play` without --players: you against three of the strong preset, which answers within a second
DEFAULT_PLAY_PLAYERS = "human,strong,strong,strong"
T = TypeVar("T")


class CommandError(Exception):
    """A problem with the command's input: printed as one line, exit status 2."""


def checked(check: Callable[..., T], *args: object, **kwargs: object) -> T:
    """Calls an argument check (a spec parser, a configuration check); its ValueError or TypeError becomes a
    CommandError."""
    try:
        return check(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        raise CommandError(str(exc)) from None


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, `borabora <cmd>: error: ...`, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


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


def _int_in(low: int, high: int, allowed: str) -> Callable[[str], int]:
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


_positive_int = _int_in(1, 2**63, "a positive integer")
_seed = _int_in(0, 2**64, "an integer in [0, 2**64)")


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


def _game_spec(text: str) -> str:
    """An argparse type: a game spec (`bamboo:mode=advanced`), checked and made canonical."""
    try:
        return canonical_game_spec(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_seconds(text: str) -> float:
    """An argparse type: a positive finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


# =============================================================================
# Commands
# =============================================================================
def cmd_simulate(args: argparse.Namespace) -> None:
    from borabora_sim.report import Summary, format_summary, plot_paths, plot_summary, run_summary
    from borabora_sim.runs import RunDirectory
    from borabora_sim.simulate import BACKENDS, check_config, check_n_jobs, check_out_directory, simulate

    saved = _resumed_run(args)
    specs = split_specs(args.players) if args.players is not None else \
        list(saved.players) if saved is not None else DEFAULT_PLAYERS
    checked(check_n_jobs, args.jobs, "--jobs")
    if args.backend not in BACKENDS:
        raise CommandError(f"--backend must be one of {', '.join(BACKENDS)}, got {args.backend!r}")
    if args.scheduler is not None and args.backend != "dask":
        raise CommandError("--scheduler is the address of a Dask scheduler: it needs --backend dask")
    if args.connect_timeout is not None and args.scheduler is None:
        raise CommandError("--connect-timeout is the time allowed to reach --scheduler: give --scheduler too")
    if args.resume and args.out is None:
        raise CommandError("--resume needs --out, the directory of the run to finish")
    if args.out is not None:
        checked(check_out_directory, args.out, "--out")
    if args.plot is not None:
        checked(plot_paths, args.plot, "--plot")
    rotate_seats, components = (saved.rotate_seats, saved.components) if saved is not None else (True, None)
    checked(check_config, args.games, specs, args.seed, args.jobs, args.backend, args.chunk_size, rotate_seats,
            components, game=args.game)

    summary: Summary | None = None          # without --out: added up chunk by chunk, as they finish

    def add_chunk(rows: pa.Table) -> None:
        nonlocal summary
        part = Summary.of(rows.to_pandas())
        summary = part if summary is None else summary + part

    timeout = {} if args.connect_timeout is None else {"connect_timeout": args.connect_timeout}
    start = time.perf_counter()
    simulate(args.games, specs, seed=args.seed, n_jobs=args.jobs, backend=args.backend, out=args.out,
             resume=args.resume, chunk_size=args.chunk_size, scheduler=args.scheduler,
             progress=None if not args.quiet else False, load=False, on_chunk=None if args.out else add_chunk,
             rotate_seats=rotate_seats, components=components, game=args.game, **timeout)
    seconds = time.perf_counter() - start
    if args.out:
        summary = run_summary(RunDirectory(args.out))
        print(f"results in {args.out} (players/ and games/ Parquet chunks)")
    assert summary is not None, "a run plays at least one game, so its first chunk has been added up"
    print(format_summary(summary, seconds=None if args.resume else seconds))
    if args.plot:
        print("plots written to " + ", ".join(plot_summary(summary, args.plot)))


def _resumed_run(args: argparse.Namespace) -> RunConfig | None:
    """With --resume, the configuration of the run in --out, whose settings stand for the options not given;
    every option left out then takes the run's setting, or else its default. A --out holding no run (missing,
    empty, or left by a run stopped before it wrote its manifest) is refused: its defaults would play another run
    than the one meant."""
    from borabora_sim.runs import MANIFEST, RunDirectory

    saved = checked(RunDirectory(args.out).read_manifest) if args.resume and args.out is not None else None
    if args.resume and args.out is not None and saved is None:
        raise CommandError(f"{args.out} holds no run to resume (no {MANIFEST}: the run was never started there, or "
                           f"was stopped before it began); start it again with borabora simulate --out {args.out} "
                           "and its options (--game, --games, --players, --seed), without --resume")
    for option, default in SIMULATE_DEFAULTS.items():
        if getattr(args, option) is None:
            setattr(args, option, getattr(saved, option) if saved is not None else default)
    return saved


def cmd_report(args: argparse.Namespace) -> None:
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


def cmd_play(args: argparse.Namespace, read: Callable[[str], str] | None = None,
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


def cmd_replay(args: argparse.Namespace) -> None:
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


def studies() -> list[str]:
    """Every game's studies: the names of the built-in questions `borabora analyze NAME` asks
    (GameRecord.studies)."""
    from borabora_sim.games import game_names, record_of

    return [study for name in game_names() for study in record_of(name).studies]


def cmd_analyze(args: argparse.Namespace) -> None:
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


def cmd_ask(args: argparse.Namespace) -> None:
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


def cmd_bench(args: argparse.Namespace) -> None:
    from borabora_sim.bench import measure

    result = measure(args.game, args.games)
    rows = result.rows()
    width = max(len(name) for name, _, _ in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>16}  {note}")
    for warning in result.warnings():
        print(f"borabora bench: warning: {warning}", file=sys.stderr)


def cmd_tune(args: argparse.Namespace) -> None:
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


def cmd_train(args: argparse.Namespace) -> None:
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


def cmd_train_learned(args: argparse.Namespace) -> None:
    from borabora_sim.train import TrainConfig, train

    config = TrainConfig(games=args.games, rounds=args.rounds, round_games=args.round_games, hidden=args.hidden,
                         epochs=args.epochs, seed=args.seed)
    train(config, out=args.out, work=args.work, n_jobs=args.jobs, progress=not args.quiet)


# =============================================================================
# Parser
# =============================================================================
def build_parser() -> argparse.ArgumentParser:
    games = game_names()
    parser = _Parser(prog="borabora", description=f"Simulate, analyse and play board games ({', '.join(games)}).")
    parser.add_argument("--version", action="version", version=f"borabora {borabora_sim.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def sub(name: str, help_text: str) -> argparse.ArgumentParser:
        epilog = (PRESET_HELP if name in PRESET_COMMANDS else "") + EXAMPLES[name]
        command = commands.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
        command.set_defaults(command_parser=command)
        return command

    def game_option(command: argparse.ArgumentParser) -> None:
        command.add_argument("--game", type=_game_spec, default=DEFAULT_GAME, metavar="GAME",
                             help=f"the game, with its options as for a player: {', '.join(games)} or e.g. "
                                  f"bamboo:mode=advanced (default {DEFAULT_GAME})")

    sim = sub("simulate", "play many games in parallel and print a summary")
    sim.add_argument("--game", type=_game_spec, metavar="GAME",
                     help=f"the game, with its options as for a player: {', '.join(games)} or e.g. "
                          f"bamboo:mode=advanced (default {DEFAULT_GAME})")
    sim.add_argument("--games", type=_positive_int, help="number of games (default 1000)")
    sim.add_argument("--players", help=f"player specs or presets ({', '.join(PRESETS)}), one per seat, comma-separated "
                                       f"(default: the game's own; for {DEFAULT_GAME} {DEFAULT_PLAYER_TEXT})")
    sim.add_argument("--jobs", type=int, default=-1, help="worker processes (-1: all cores; default -1)")
    sim.add_argument("--seed", type=_seed, help="master seed (default 0)")
    sim.add_argument("--out", help="directory for the Parquet result (streamed; needed for --resume)")
    sim.add_argument("--resume", action="store_true",
                     help="finish an interrupted run in --out; the options of the run (--game, --games, --players, "
                          "--seed, --chunk-size) are read from it where not given")
    sim.add_argument("--backend", default="loky", help="loky (default), multiprocessing, threading, sequential, dask")
    sim.add_argument("--scheduler", help="Dask scheduler address (with --backend dask; default: a local cluster)")
    sim.add_argument("--connect-timeout", type=_positive_seconds, metavar="SECONDS",
                     help="seconds allowed to reach --scheduler (default 10)")
    sim.add_argument("--chunk-size", type=_positive_int, help="games per chunk (default from the players)")
    sim.add_argument("--plot", help="also write the summary plots (.png, .svg or .pdf)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(handler=cmd_simulate)

    rep = sub("report", "summary tables (and a plot) of a simulation result")
    rep.add_argument("directory", help="a --out directory of borabora simulate")
    rep.add_argument("--plot", help="write the summary plots (.png, .svg or .pdf)")
    rep.set_defaults(handler=cmd_report)

    play_help = "play in the terminal (or in the browser with --web) against the AI"
    play = sub("play", play_help)
    play.description = play_help + (
        "\n\nIn the terminal, answer with a move's number or its words, or a command: help (the commands and the "
        "rules\nof the decision), board (the whole board), hint [SPEC] (what an AI would play, and why), why (the\n"
        "last AI move's reasons), undo (back to your previous decision), q (abandon the game).")
    game_option(play)
    play.add_argument("--players", default=DEFAULT_PLAY_PLAYERS,
                      help=f"specs by seat, 'human' for you, or a preset: {', '.join(PRESETS)} (default: %(default)s)")
    play.add_argument("--seed", type=_seed, default=None, help="game seed (default: random)")
    play.add_argument("--web", action="store_true",
                      help="play in the browser: a local server on 127.0.0.1 and its page (docs/web_play.md)")
    play.add_argument("--port", type=_int_in(0, 65536, "a port number in [0, 65535]"),
                      help="with --web: the port (default: a free one)")
    play.add_argument("--no-browser", action="store_true", help="with --web: do not open a browser")
    play.set_defaults(handler=cmd_play)

    rp = sub("replay", "print one game as a readable log, or write it as an HTML replay page (--html) or its "
                       "board as a PNG picture (--png)")
    rp.add_argument("--seed", type=_seed, help="game seed")
    rp.add_argument("--players", help="player specs by seat")
    rp.add_argument("--run", help="a simulation directory (with --game-id)")
    rp.add_argument("--game-id", type=_int_in(0, 2**63, "a game id (0, 1, ...)"), metavar="N",
                    help="with --run: the game with this id in the run")
    rp.add_argument("--game", help=f"with --seed: the game, with its options ({', '.join(games)}, "
                                   f"bamboo:mode=advanced, ...; default {DEFAULT_GAME})")
    rp.add_argument("--html", metavar="FILE", help="write the game as a self-contained HTML replay (the board at "
                                                   "every decision, the log, the scores) to FILE instead")
    rp.add_argument("--reasons", type=_int_in(0, 10_001, "an integer in [0, 10000]"), metavar="N",
                    help="with --html: the options shown of each decision of a player that weighs them (default 6; "
                         "0: none)")
    rp.add_argument("--png", metavar="FILE", help="write the board as a PNG picture to FILE instead (needs "
                                                  "pip install 'borabora_sim[png]')")
    rp.add_argument("--at", type=_int_in(0, 2**31, "a number of decisions (0: the start)"), metavar="N",
                    help="with --png: the board after N decisions (default: at the end of the game)")
    rp.set_defaults(handler=cmd_replay)

    an = sub("analyze", "answer a built-in study's question and write its report (Markdown + PNG); its seeds are in "
                        "its question file (borabora ask --list)")
    an.add_argument("study", choices=tuple(studies()), help="which study")
    an.add_argument("--out", default="reports", help="output directory (default: reports)")
    an.add_argument("--size", default="default", choices=("quick", "default", "full"),
                    help="quick (about a minute at most: a try-out), default (under 10 minutes on 2 cores) or full")
    an.add_argument("--jobs", type=int, help="worker processes (-1: all cores)")
    an.add_argument("--rungs", help="the players measured, comma-separated rungs of the game's ladder "
                                    "(docs/questions.md; default: the question's)")
    an.add_argument("--quiet", action="store_true", help="no progress bars")
    an.set_defaults(handler=cmd_analyze)

    ak = sub("ask", "answer a strategy question written in a few lines (docs/questions.md)")
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
    ak.set_defaults(handler=cmd_ask)

    bench = sub("bench", "engine and simulator throughput on this machine")
    game_option(bench)
    bench.add_argument("--games", type=_positive_int, default=20000, help="games per row (default 20000)")
    bench.set_defaults(handler=cmd_bench)

    tn = sub("tune", "tune the heuristic's weights with CMA-ES against three opponents (docs/tuning.md)")
    game_option(tn)
    tn.add_argument("--out", required=True, help="directory of the run (written as it goes; continued with --resume)")
    tn.add_argument("--resume", action="store_true", help="continue the run in --out (same arguments; the budget "
                                                          "may grow)")
    tn.add_argument("--opponents", default="heuristic", help="one player spec for the three opponents, or three "
                                                             "(default %(default)s)")
    tn.add_argument("--start", help="the style to start from (default: the game's default style)")
    tn.add_argument("--budget", type=_positive_int, default=20000, help="tuning games in all (default 20000)")
    tn.add_argument("--games-per-eval", type=_positive_int, default=200,
                    help="games per candidate, a multiple of 4 (default 200)")
    tn.add_argument("--popsize", type=_positive_int, help="candidates per generation (default: CMA-ES's own)")
    tn.add_argument("--sigma0", type=float, default=0.3, help="initial step, a fraction of each weight (default 0.3)")
    tn.add_argument("--validation-games", type=_positive_int, default=2000,
                    help="fresh games validating the result, a multiple of 4 (default 2000)")
    tn.add_argument("--seed", type=_seed, default=0, help="master seed (default 0)")
    tn.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    tn.add_argument("--quiet", action="store_true", help="no progress bar")
    tn.set_defaults(handler=cmd_tune)

    from borabora_sim.expert_iteration import ExpertConfig

    expert = ExpertConfig()
    net = sub("train", "train a game's policy-and-value network by expert iteration (docs/expert.md)")
    net.add_argument("--game", type=_game_spec, default=DEFAULT_GAME, metavar="GAME",
                     help=f"the game (default {DEFAULT_GAME}); it needs learned features")
    net.add_argument("--work", default="runs/expert", help="directory of the run so far; an interrupted run continues "
                                                          "from it (default %(default)s)")
    net.add_argument("--out", help="also write the best network here (.npz; its manifest .json beside it)")
    net.add_argument("--imitation-games", type=_positive_int, default=expert.imitation_games,
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
    net.add_argument("--generations", type=_int_in(0, 101, "an integer in [0, 100]"), default=expert.generations,
                     help="search generations after it (default %(default)s)")
    net.add_argument("--games", type=_positive_int, default=expert.games,
                     help="self-play games per search generation (default %(default)s)")
    net.add_argument("--iterations", type=_positive_int, default=expert.iterations,
                     help="PUCT iterations per decision in self-play and the gate (default %(default)s)")
    net.add_argument("--window", type=_int_in(1, 101, "an integer in [1, 100]"), default=expert.window,
                     help="generations of data a network is fitted on, the newest (default %(default)s)")
    net.add_argument("--gate-games", type=_positive_int, default=expert.gate_games,
                     help="games of a new network against the best (default %(default)s)")
    net.add_argument("--gate-field", default=expert.gate_field, metavar="SPEC",
                     help="gate a new network and the best each against a field of this player on the same deals "
                          "(paired), not head to head (default: head to head)")
    net.add_argument("--hidden", type=_layer_sizes, default=expert.hidden,
                     help="hidden layer sizes, one or two (default %(default)s)")
    net.add_argument("--final-hidden", type=_layer_sizes, default=expert.final_hidden, metavar="SIZES",
                     help="end with a network of these hidden layer sizes fitted on every generation of the window, "
                          "kept if the gate finds it stronger than the best (default: none)")
    net.add_argument("--epochs", type=_positive_int, default=expert.epochs, help="epochs per fit (default %(default)s)")
    net.add_argument("--seed", type=_seed, default=expert.seed, help="master seed (default %(default)s)")
    net.add_argument("--jobs", type=_int_in(1, 65, "an integer in [1, 64]"), default=1,
                     help="worker processes for the games (default 1)")
    net.add_argument("--quiet", action="store_true", help="no progress lines")
    net.set_defaults(handler=cmd_train)

    from borabora_sim.train import TrainConfig

    defaults = TrainConfig()
    tr = sub("train-learned", "train the value-only learned evaluation of Bora Bora (docs/learned.md)")
    tr.add_argument("--out", required=True, help="the weights file to write (.npz; its manifest .json beside it)")
    tr.add_argument("--work", default="runs/train", help="directory of the games played so far; an interrupted run "
                                                         "continues from it (default %(default)s)")
    tr.add_argument("--games", type=_positive_int, default=defaults.games,
                    help="heuristic games of the first round (default %(default)s)")
    tr.add_argument("--rounds", type=_int_in(0, 101, "an integer in [0, 100]"), default=defaults.rounds,
                    help="expert-iteration rounds after it (default %(default)s)")
    tr.add_argument("--round-games", type=_positive_int, default=defaults.round_games,
                    help="games per later round (default %(default)s)")
    tr.add_argument("--hidden", type=_int_in(1, 257, "an integer in [1, 256]"), default=defaults.hidden,
                    help="hidden units (default %(default)s)")
    tr.add_argument("--epochs", type=_positive_int, default=defaults.epochs,
                    help="epochs per fit (default %(default)s)")
    tr.add_argument("--seed", type=_seed, default=defaults.seed, help="master seed (default %(default)s)")
    tr.add_argument("--jobs", type=_int_in(1, 65, "an integer in [1, 64]"), default=1,
                    help="worker processes for the games (default 1)")
    tr.add_argument("--quiet", action="store_true", help="no progress bar")
    tr.set_defaults(handler=cmd_train_learned)
    return parser


def _interrupted(args: argparse.Namespace, argv: list[str]) -> str:
    """The line printed after Ctrl-C: for a simulation or a tuning run, what was saved and the command that
    finishes it."""
    if args.command == "tune":
        from borabora_sim.tune import interrupted_message

        return interrupted_message(args.out, argv)
    if args.command != "simulate":
        return "interrupted"
    if args.out is None:
        return "interrupted; nothing was saved (with --out DIR an interrupted run can be finished with --resume)"
    from borabora_sim.runs import RunDirectory

    run = RunDirectory(args.out)
    config, done = run.read_manifest(), run.done_chunks()
    if config is None:
        return f"interrupted before the run was started in {args.out}; nothing was saved"
    saved = sum(end - start for index, start, end in config.chunks() if index in done)
    command = shlex.join(["borabora", *argv, *([] if args.resume else ["--resume"])])
    return f"interrupted; {saved:,} of {config.games:,} games are saved in {args.out}; to finish the run: {command}"


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
    except KeyboardInterrupt:
        print(f"borabora {args.command}: {_interrupted(args, argv)}", file=sys.stderr)
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _run(sys.argv[1:] if argv is None else [str(a) for a in argv])
    except BrokenPipeError:             # the reader went away (`borabora ... | head`): stop without a word
        with contextlib.suppress(OSError, ValueError):      # ValueError: a stdout without a file descriptor
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())     # no second error at exit
        return 141                      # 128 + SIGPIPE, as for a program the pipe ended


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["build_parser", "main"]
