"""Throughput of the engine and the simulator on this machine, as `borabora bench` reports it: compiled random
playouts for each player count, Python-driven stepping, and `simulate()` on one and two workers, with the reasons
the speed-up figure may mean little (a run too short to time, a busy machine)."""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass

import numpy as np

from borabora_sim.games import DEFAULT_GAME, get_game
from borabora_sim.simulate import simulate

BENCH_SECONDS = 2.0         # the 1-worker run must take this long for a meaningful speed-up
STEPS = 100_000             # Python-driven steps timed


@dataclass(frozen=True)
class Throughput:
    """What `measure` timed. `playouts` maps a player count to (games per second, decisions per game) of the
    compiled random playouts on one core; `simulate_seconds` maps a number of workers to the seconds `simulate()`
    took for `2 * games` games to a DataFrame; `load` is the load average before the measurement."""

    games: int
    playouts: dict[int, tuple[float, float]]
    step_seconds: float
    simulate_seconds: dict[int, float]
    load: float
    cores: int

    @property
    def speed_up(self) -> float:
        """How much faster two workers were than one."""
        return self.simulate_seconds[1] / self.simulate_seconds[2]

    def rows(self) -> list[tuple[str, str, str]]:
        """The measurements as (what, value, note) lines of text."""
        rows = [(f"compiled random playouts, {players} players, 1 core", f"{rate:,.0f} games/s",
                 f"{decisions:.0f} decisions/game") for players, (rate, decisions) in self.playouts.items()]
        rows.append(("Python-driven stepping (legal_actions + apply)", f"{self.step_seconds * 1e6:.2f} us/step", ""))
        rows += [(f"simulate() to a DataFrame, {jobs} worker(s)", f"{self.games * 2 / seconds:,.0f} games/s", "")
                 for jobs, seconds in self.simulate_seconds.items()]
        rows.append(("speed-up of 2 workers over 1", f"{self.speed_up:.2f}x", ""))
        return rows

    def warnings(self) -> list[str]:
        """Why the speed-up figure may mean little: the 1-worker run was too short to time (with the number of
        games to use instead), or the machine was busy or has one core."""
        warnings = []
        one_worker = self.simulate_seconds[1]
        if one_worker < BENCH_SECONDS:
            enough = math.ceil(self.games * BENCH_SECONDS / one_worker / 1000) * 1000
            warnings.append(f"the speed-up figure means little: 1 worker took {one_worker:.2f} s, too short to "
                            f"time; use --games {enough} or more")
        if self.cores < 2 or self.load > self.cores - 1.5:
            warnings.append(f"the speed-up figure means little: the machine was busy (load average {self.load:.1f} "
                            f"on {self.cores} cores), so a second worker may have had no core of its own")
        return warnings


def measure(game: str = DEFAULT_GAME, games: int = 20_000) -> Throughput:
    """Times `game` (a game spec) on this machine: `games` compiled random playouts for each player count,
    STEPS Python-driven steps of the largest count, and `2 * games` games of random players through `simulate()`
    on one and then two workers (started before the timing)."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0      # before the measurement adds to it
    cores = os.cpu_count() or 1
    played = get_game(game)
    most = max(played.player_counts)
    played.random_playouts(200, most, 0)
    playouts: dict[int, tuple[float, float]] = {}
    for players in played.player_counts:
        start = time.perf_counter()
        out = played.random_playouts(games, players, 1)
        seconds = time.perf_counter() - start
        playouts[players] = (games / seconds, float(out["decisions"].mean()))
    rng = np.random.default_rng(0)
    state, steps, start = played.new_initial_state(most, seed=0), 0, time.perf_counter()
    while steps < STEPS:
        if state.is_terminal():
            state = played.new_initial_state(most, seed=steps)
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        steps += 1
    step_seconds = (time.perf_counter() - start) / steps
    simulate(4, ["random"] * most, n_jobs=2, progress=False, chunk_size=1, game=game)    # starts the workers
    timings: dict[int, float] = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        simulate(games * 2, ["random"] * most, seed=3, n_jobs=jobs, progress=False, chunk_size=max(1, games // 2),
                 game=game)
        timings[jobs] = time.perf_counter() - start
    return Throughput(games=games, playouts=playouts, step_seconds=step_seconds, simulate_seconds=timings,
                      load=load, cores=cores)


__all__ = ["BENCH_SECONDS", "Throughput", "measure"]
