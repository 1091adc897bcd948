"""The `borabora` command line (also `python -m borabora_sim`)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import NoReturn

from borabora_sim import _engine

EXAMPLES = {
    "simulate": """examples:
  borabora simulate --games 1000 --players heuristic,heuristic:fishing=never,random,random
  borabora simulate --games 1000000 --players random,random,random,random --jobs 2 --out runs/random
  borabora simulate --games 2000 --players mcts:iterations=200,heuristic,heuristic --out runs/m --resume
  borabora simulate --games 500 --players heuristic,random --backend dask --scheduler tcp://10.0.0.5:8786""",
    "report": """examples:
  borabora report runs/random
  borabora report runs/m --plot summary.png""",
    "play": """examples:
  borabora play --players human,mcts,heuristic,heuristic
  borabora play --players human,heuristic:style=temple --seed 7""",
    "replay": """examples:
  borabora replay --seed 12345 --players heuristic,random,random
  borabora replay --run runs/m --game 17""",
    "analyze": """examples:
  borabora analyze fishing --out reports/fishing              # default size: under 10 minutes on 2 cores
  borabora analyze fishing --size full --out reports/fishing  # a real answer (hours)
  borabora analyze priest --out reports/priest               # what a priest is worth, by round""",
    "bench": """examples:
  borabora bench
  borabora bench --games 50000""",
}


STUDIES = ("fishing", "priest")


class CommandError(Exception):
    """A problem with the command's input: printed as one line, exit status 2."""


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


# =============================================================================
# Commands
# =============================================================================
def _read_summary(directory: str):  # -> pandas.DataFrame (pandas is imported lazily)
    import pyarrow.parquet as pq

    from borabora_sim.report import summary_columns
    from borabora_sim.simulate import RunDirectory

    run = RunDirectory(directory)
    first = next(iter(sorted((run.path / "players").glob("chunk-*.parquet"))), None)
    return run.read(columns=None if first is None else summary_columns(pq.read_schema(first).names))


def cmd_simulate(args: argparse.Namespace) -> None:
    from borabora_sim.report import format_summary, plot_summary
    from borabora_sim.simulate import BACKENDS, simulate

    if args.backend not in BACKENDS:
        raise CommandError(f"--backend must be one of {', '.join(BACKENDS)}")
    start = time.perf_counter()
    frame = simulate(args.games, split_specs(args.players), seed=args.seed, n_jobs=args.jobs, backend=args.backend,
                     out=args.out, resume=args.resume, chunk_size=args.chunk_size, scheduler=args.scheduler,
                     progress=None if not args.quiet else False, load=args.out is None)
    seconds = time.perf_counter() - start
    if frame is None:           # streamed to --out: read back only what the summary needs
        frame = _read_summary(args.out)
    if args.out:
        print(f"results in {args.out} (players/ and games/ Parquet chunks)")
    print(format_summary(frame, seconds=None if args.resume else seconds))
    if args.plot:
        print("plots written to " + ", ".join(plot_summary(frame, args.plot)))


def cmd_report(args: argparse.Namespace) -> None:
    from borabora_sim.report import format_summary, plot_summary
    from borabora_sim.simulate import RunDirectory

    directory = RunDirectory(args.directory)
    config = directory.read_manifest()
    if config is None:
        raise CommandError(f"{args.directory} holds no simulation run (no manifest.json)")
    frame = _read_summary(args.directory)
    done = frame["game_id"].nunique()
    print(f"run: {done:,} of {config.games:,} games, players {', '.join(config.players)}, seed {config.seed}")
    print(format_summary(frame))
    if args.plot:
        print("plots written to " + ", ".join(plot_summary(frame, args.plot)))


def _human_chooser(seat: int, read: Callable[[str], str], write: Callable[[str], None]) -> Callable:
    from borabora_sim.render import render

    def choose(state: _engine.State) -> int:
        write("\n" + render(state, seat))
        legal = state.legal_actions()
        while True:
            write(f"\nYour decision ({state.decision}):")
            for i, action in enumerate(legal):
                write(f"  {i:>2}: {state.action_to_string(action)}")
            answer = read("choose a number or an action name (q to quit): ").strip()
            if answer in ("q", "quit"):
                raise KeyboardInterrupt
            if answer.isdecimal() and int(answer) < len(legal):
                return legal[int(answer)]
            try:
                action = state.action_from_string(answer)
            except ValueError:
                action = -1
            if action in legal:
                return action
            write(f"'{answer}' is not one of the legal choices below.")
    return choose


def cmd_play(args: argparse.Namespace, read: Callable[[str], str] | None = None,
             write: Callable[[str], None] | None = None) -> None:
    read = read or input            # looked up at call time, so a patched input() is honoured
    write = write or print
    from borabora_sim.game import check_seed, new_game
    from borabora_sim.players import make_player

    specs = split_specs(args.players)
    seed = check_seed(args.seed)
    players = []
    for seat, spec in enumerate(specs):
        if spec == "human":
            players.append(_human_chooser(seat, read, write))
        else:
            players.append(make_player(spec, seed + seat + 1).choose)
    state = new_game(players=len(specs), seed=seed)
    write(f"game seed {seed}; seats: " + ", ".join(f"{s}: {spec}" for s, spec in enumerate(specs)))
    try:
        while not state.is_terminal():
            seat = state.current_player
            action = players[seat](state)
            if specs[seat] != "human":
                write(f"seat {seat} ({specs[seat]}): {state.action_to_string(action)}")
            state.apply(action)
    except (KeyboardInterrupt, EOFError):
        write("\ngame abandoned")
        return
    write(f"\nfinal scores {state.scores()}; winner seat {state.winner()}")
    for seat, row in enumerate(state.score_breakdown()):
        write(f"  seat {seat}: " + ", ".join(f"{k} {v}" for k, v in row.items() if v))


def cmd_replay(args: argparse.Namespace) -> None:
    from borabora_sim.simulate import RunDirectory, replay, seat_specs

    if args.run:
        config = RunDirectory(args.run).read_manifest()
        if config is None:
            raise CommandError(f"{args.run} holds no simulation run (no manifest.json)")
        if args.game is None or not 0 <= args.game < config.games:
            raise CommandError(f"--game must be a game id in 0..{config.games - 1}")
        seed, specs = _engine.derive_seed(config.seed, args.game), seat_specs(config, args.game)
        components = config.components          # the run's component file, if it used one
    else:
        if args.seed is None or args.players is None:
            raise CommandError("give --seed and --players, or --run and --game")
        seed, specs, components = args.seed, split_specs(args.players), None
    print("\n".join(replay(seed, specs, components)))


def cmd_analyze(args: argparse.Namespace) -> None:
    from importlib import import_module

    module = import_module(f"borabora_sim.studies.{args.study}")
    overrides = {} if args.jobs is None else {"jobs": args.jobs}
    if args.seed is not None:
        overrides["seed"] = args.seed
    module.run(module.sized(args.size, **overrides), args.out)


def cmd_bench(args: argparse.Namespace) -> None:
    import numpy as np

    from borabora_sim.game import new_game, rules_for
    from borabora_sim.simulate import simulate

    rules = rules_for()
    _engine.random_playouts(rules, 200, 4, 0)
    rows = []
    for players in (2, 3, 4):
        start = time.perf_counter()
        out = _engine.random_playouts(rules, args.games, players, 1)
        seconds = time.perf_counter() - start
        rows.append((f"compiled random playouts, {players} players, 1 core", f"{args.games / seconds:,.0f} games/s",
                     f"{out['decisions'].mean():.0f} decisions/game"))
    rng = np.random.default_rng(0)
    state, steps, start = new_game(4, seed=0), 0, time.perf_counter()
    while steps < 100_000:
        if state.is_terminal():
            state = new_game(4, seed=steps)
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        steps += 1
    rows.append(("Python-driven stepping (legal_actions + apply)",
                 f"{(time.perf_counter() - start) / steps * 1e6:.2f} us/step", ""))
    timings = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        simulate(args.games * 2, ["random"] * 4, seed=3, n_jobs=jobs, progress=False,
                 chunk_size=max(1, args.games // 2))
        timings[jobs] = time.perf_counter() - start
        rows.append((f"simulate() to a DataFrame, {jobs} worker(s)",
                     f"{args.games * 2 / timings[jobs]:,.0f} games/s", ""))
    rows.append(("speed-up of 2 workers over 1", f"{timings[1] / timings[2]:.2f}x", ""))
    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>16}  {note}")


# =============================================================================
# Parser
# =============================================================================
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="borabora", description="Simulate, analyse and play Bora Bora.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def sub(name: str, help_text: str) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help_text, description=help_text, epilog=EXAMPLES[name],
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
        command.set_defaults(command_parser=command)
        return command

    sim = sub("simulate", "play many games in parallel and print a summary")
    sim.add_argument("--games", type=_positive_int, default=1000, help="number of games (default 1000)")
    sim.add_argument("--players", default="heuristic,heuristic:fishing=never,random,random",
                     help="player specs, one per seat, comma-separated (default: %(default)s)")
    sim.add_argument("--jobs", type=int, default=-1, help="worker processes (-1: all cores; default -1)")
    sim.add_argument("--seed", type=_seed, default=0, help="master seed (default 0)")
    sim.add_argument("--out", help="directory for the Parquet result (streamed; needed for --resume)")
    sim.add_argument("--resume", action="store_true", help="finish an interrupted run in --out")
    sim.add_argument("--backend", default="loky", help="loky (default), multiprocessing, threading, sequential, dask")
    sim.add_argument("--scheduler", help="Dask scheduler address (with --backend dask; default: a local cluster)")
    sim.add_argument("--chunk-size", type=_positive_int, help="games per chunk (default from the players)")
    sim.add_argument("--plot", help="also write a summary plot (PNG)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(handler=cmd_simulate)

    rep = sub("report", "summary tables (and a plot) of a simulation result")
    rep.add_argument("directory", help="a --out directory of borabora simulate")
    rep.add_argument("--plot", help="write a summary plot (PNG)")
    rep.set_defaults(handler=cmd_report)

    play = sub("play", "play in the terminal against the AI")
    play.add_argument("--players", default="human,heuristic,heuristic,heuristic",
                      help="specs by seat, 'human' for you (default: %(default)s)")
    play.add_argument("--seed", type=_seed, default=None, help="game seed (default: random)")
    play.set_defaults(handler=cmd_play)

    rp = sub("replay", "print one game as a readable log")
    rp.add_argument("--seed", type=_seed, help="game seed")
    rp.add_argument("--players", help="player specs by seat")
    rp.add_argument("--run", help="a simulation directory (with --game)")
    rp.add_argument("--game", type=int, help="game id in that run")
    rp.set_defaults(handler=cmd_replay)

    an = sub("analyze", "run a strategy study and write its report (Markdown + PNG)")
    an.add_argument("study", choices=STUDIES, help="which study")
    an.add_argument("--out", default="reports", help="output directory (default: reports)")
    an.add_argument("--size", default="default", choices=("quick", "default", "full"),
                    help="quick (seconds), default (under 10 minutes on 2 cores) or full")
    an.add_argument("--jobs", type=int, help="worker processes (-1: all cores)")
    an.add_argument("--seed", type=_seed, help="master seed")
    an.set_defaults(handler=cmd_analyze)

    bench = sub("bench", "engine and simulator throughput on this machine")
    bench.add_argument("--games", type=_positive_int, default=20000, help="games per row (default 20000)")
    bench.set_defaults(handler=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown:
            args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exc:           # --help (0), or a usage error already printed (2)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        args.handler(args)
    except (CommandError, ValueError, FileExistsError, FileNotFoundError, ImportError) as exc:
        print(f"borabora {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"borabora {args.command}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())

