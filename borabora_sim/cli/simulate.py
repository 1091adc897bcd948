"""`borabora simulate`: play many games in parallel and print a summary."""

from __future__ import annotations

import argparse
import shlex
import time
from typing import TYPE_CHECKING

from borabora_sim.cli.common import (
    CommandError,
    Subcommands,
    add_command,
    checked,
    checked_game_spec,
    positive_int,
    positive_seconds,
    seed_number,
    split_specs,
)
from borabora_sim.games import DEFAULT_GAME, game_names
from borabora_sim.match import DEFAULT_PLAYERS
from borabora_sim.players.presets import PRESETS

__all__ = ["EXAMPLES", "NAME", "SIMULATE_DEFAULTS", "add_parser", "interrupted", "run"]

if TYPE_CHECKING:
    import pyarrow as pa

    from borabora_sim.runs import RunConfig

NAME = "simulate"
EXAMPLES = """examples:
  borabora simulate --games 1000 --players heuristic,heuristic:fishing=never,random,random
  borabora simulate --games 1000000 --players random,random,random,random --jobs 2 --out runs/random
  borabora simulate --games 100 --players strong,heuristic:style=tuned,heuristic --out runs/m
  borabora simulate --out runs/m --resume           # finish it after an interruption (its options are in runs/m)
  borabora simulate --games 500 --players heuristic,random --backend dask --scheduler tcp://10.0.0.5:8786
  borabora simulate --game bora_bora --games 1000 --players heuristic,random,random
  borabora simulate --game bamboo:mode=advanced --games 1000 --players heuristic,heuristic,random"""

# What `simulate` plays where an option is not given (with --resume: the run's own setting first); --players left
# out means the game's own default players, and --chunk-size one chosen from the players.
SIMULATE_DEFAULTS: dict[str, object] = {"game": DEFAULT_GAME, "games": 1000, "seed": 0, "chunk_size": None}
DEFAULT_PLAYER_TEXT = ",".join(DEFAULT_PLAYERS)     # --players not given: the game's own default players


def add_parser(commands: Subcommands) -> None:
    sim = add_command(commands, NAME, "play many games in parallel and print a summary", EXAMPLES, presets=True)
    sim.add_argument("--game", type=checked_game_spec, metavar="GAME",
                     help=f"the game, with its options as for a player: {', '.join(game_names())} or e.g. "
                          f"bamboo:mode=advanced (default {DEFAULT_GAME})")
    sim.add_argument("--games", type=positive_int, help="number of games (default 1000)")
    sim.add_argument("--players", help=f"player specs or presets ({', '.join(PRESETS)}), one per seat, comma-separated "
                                       f"(default: the game's own; for {DEFAULT_GAME} {DEFAULT_PLAYER_TEXT})")
    sim.add_argument("--jobs", type=int, default=-1, help="worker processes (-1: all cores; default -1)")
    sim.add_argument("--seed", type=seed_number, help="master seed (default 0)")
    sim.add_argument("--out", help="directory for the Parquet result (streamed; needed for --resume)")
    sim.add_argument("--resume", action="store_true",
                     help="finish an interrupted run in --out; the options of the run (--game, --games, --players, "
                          "--seed, --chunk-size) are read from it where not given")
    sim.add_argument("--backend", default="loky", help="loky (default), multiprocessing, threading, sequential, dask")
    sim.add_argument("--scheduler", help="Dask scheduler address (with --backend dask; default: a local cluster)")
    sim.add_argument("--connect-timeout", type=positive_seconds, metavar="SECONDS",
                     help="seconds allowed to reach --scheduler (default 10)")
    sim.add_argument("--chunk-size", type=positive_int, help="games per chunk (default from the players)")
    sim.add_argument("--plot", help="also write the summary plots (.png, .svg or .pdf)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(handler=run, interrupted=interrupted)


def run(args: argparse.Namespace) -> None:
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


def interrupted(args: argparse.Namespace, argv: list[str]) -> str:
    """The line printed after Ctrl-C: what was saved and the command that finishes the run."""
    if args.out is None:
        return "interrupted; nothing was saved (with --out DIR an interrupted run can be finished with --resume)"
    from borabora_sim.runs import RunDirectory

    directory = RunDirectory(args.out)
    config, done = directory.read_manifest(), directory.done_chunks()
    if config is None:
        return f"interrupted before the run was started in {args.out}; nothing was saved"
    saved = sum(end - start for index, start, end in config.chunks() if index in done)
    command = shlex.join(["borabora", *argv, *([] if args.resume else ["--resume"])])
    return f"interrupted; {saved:,} of {config.games:,} games are saved in {args.out}; to finish the run: {command}"
