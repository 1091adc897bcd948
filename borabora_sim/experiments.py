"""Experiments that play games: one arm of a paired study (`simulate_arm`), a paired A/B run on common random
numbers (`paired_ab`) and a run that plays batches until an interval is narrow enough (`run_until_precise`).

They run the simulator (`borabora_sim.simulate.simulate`, or any function with its signature given as
`simulate_fn`) and hand the player rows to `borabora_sim.stats` for the analysis. docs/statistics.md explains
the methods.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pandas as pd

from borabora_sim import simulate as simulator
from borabora_sim.games import get_game
from borabora_sim.stats import (
    PairedResult,
    mean_interval,
    paired_compare,
    player_positions,
    sample_size_for_paired,
    sample_size_for_proportion,
    score_column,
    spec_as_str,
    wilson_interval,
    z_value,
)

SimulateFn = Callable[..., pd.DataFrame]


# =============================================================================
# Paired A/B on common random numbers
# =============================================================================
def _default_simulate() -> SimulateFn:
    """The simulator's `simulate`, looked up when a run starts (it returns the rows unless told not to load them)."""
    return cast(SimulateFn, simulator.simulate)


def _differing_positions(arm_a: Sequence[str], arm_b: Sequence[str]) -> list[int]:
    if len(arm_a) != len(arm_b):
        raise ValueError(f"the arms must have the same number of players, got {len(arm_a)} and {len(arm_b)}")
    return [k for k, (x, y) in enumerate(zip(arm_a, arm_b, strict=True)) if x != y]


def simulate_arm(players: Sequence[str], games: int, seed: int = 0, n_jobs: int = -1, rotate_seats: bool = True,
                 simulate_fn: SimulateFn | None = None, **simulate_kwargs: Any) -> pd.DataFrame:
    """One arm of a paired study: `simulate(games, players, seed)` without a progress bar, with `spec` as plain
    strings (so runs concatenate) and a `position` column (the index into `players` of each row). Two arms
    with the same seed, games and player count are paired game by game (`paired_compare`)."""
    simulate_fn = simulate_fn or _default_simulate()
    frame = simulate_fn(games, list(players), seed=seed, n_jobs=n_jobs, rotate_seats=rotate_seats, progress=False,
                        **simulate_kwargs)
    frame = spec_as_str(frame)
    return frame.assign(position=player_positions(frame, rotate_seats).to_numpy())


def _run_arm(simulate_fn: SimulateFn, games: int, players: Sequence[str], seed: int, n_jobs: int,
             rotate_seats: bool, **kwargs: Any) -> pd.DataFrame:
    return simulate_arm(players, games, seed, n_jobs, rotate_seats, simulate_fn, **kwargs)


def paired_ab(arm_a: Sequence[str], arm_b: Sequence[str], games: int, seed: int = 0,
              focus: Sequence[int] | None = None, n_jobs: int = -1, rotate_seats: bool = True,
              confidence: float = 0.95, bootstrap: int = 0, simulate_fn: SimulateFn | None = None,
              **simulate_kwargs: Any) -> PairedResult:
    """Runs two arms on the same game seeds and seat rotations and compares them game by game.

    `arm_a` and `arm_b` are player lists of the same length that should differ only in the policy under study,
    e.g. ["heuristic", "heuristic", "heuristic"] against ["heuristic:fishing=never", "heuristic", "heuristic"]:
    the focus is then position 0 (override with `focus`). Game i of both arms has the same game seed and the
    same seats, and every player is seeded from the game seed and its seat, so the opponents are identical and
    each game is a pair. `simulate_fn` (default `borabora_sim.simulate.simulate`) and `simulate_kwargs` (e.g.
    backend, chunk_size) are passed through. Both runs stay on the result (`frame_a`, `frame_b`).

    >>> r = paired_ab(["heuristic", "random"], ["random", "random"], games=10, n_jobs=1)   # doctest: +SKIP
    >>> print(r.summary())                                                                # doctest: +SKIP
    """
    if focus is None:
        focus = _differing_positions(arm_a, arm_b)
        if not focus:
            raise ValueError("the arms are identical; name the seats under study with focus=[...]")
    elif len(arm_a) != len(arm_b):
        raise ValueError(f"the arms must have the same number of players, got {len(arm_a)} and {len(arm_b)}")
    simulate_fn = simulate_fn or _default_simulate()
    frame_a = _run_arm(simulate_fn, games, arm_a, seed, n_jobs, rotate_seats, **simulate_kwargs)
    frame_b = _run_arm(simulate_fn, games, arm_b, seed, n_jobs, rotate_seats, **simulate_kwargs)
    return paired_compare(frame_a, frame_b, focus=list(focus), rotate_seats=rotate_seats,
                          label_a=_arm_text(arm_a, focus), label_b=_arm_text(arm_b, focus),
                          confidence=confidence, bootstrap=bootstrap, seed=seed)


def _arm_text(arm: Sequence[str], focus: Sequence[int]) -> str:
    return ", ".join(f"[{spec}]" if k in focus else spec for k, spec in enumerate(arm))


# =============================================================================
# Precision-driven runs
# =============================================================================
@dataclass
class SequentialResult:
    """The outcome of `run_until_precise`: the final estimate and how the run got there."""

    metric: str
    target_half_width: float
    estimate: float
    ci: tuple[float, float]
    games: int
    looks: int
    stopped_by: str                 # "precision" or "max_games"
    confidence: float               # the level of every interval computed (higher with alpha spending)
    history: pd.DataFrame           # one row per look: games, estimate, ci_low, ci_high, half_width
    paired: PairedResult | None     # the final paired result (two arms)
    frame: pd.DataFrame = field(repr=False)     # player rows of arm A (or the single arm)

    @property
    def half_width(self) -> float:
        return (self.ci[1] - self.ci[0]) / 2


def batch_seed(seed: int, batch: int) -> int:
    """The master seed of batch `batch` of a sequential run: `seed` itself for the first batch (so a run that
    stops after one batch equals `simulate(batch_games, players, seed)`), derived seeds after it (by the default
    game's seed derivation, whatever game the batches play)."""
    if batch == 0:
        return seed
    return get_game().derive_seed(seed, (1 << 40) + batch)


def _single_estimate(frame: pd.DataFrame, focus: Sequence[int], metric: str, confidence: float,
                     rotate_seats: bool) -> tuple[float, float, float]:
    rows = frame[np.isin(player_positions(frame, rotate_seats).to_numpy(), list(focus))]
    if metric == "win":
        per_game = rows.groupby("game_id")["win"].sum()
        wins, n = int(per_game.sum()), len(per_game)
        lo, hi = wilson_interval(wins, n, z_value(confidence))
        return wins / n, lo, hi
    return mean_interval(rows.groupby("game_id")[score_column(rows)].mean().to_numpy(), confidence)


def run_until_precise(arm_a: Sequence[str], arm_b: Sequence[str] | None = None, half_width: float = 0.02,
                      metric: str = "win", max_games: int = 20_000, batch_games: int = 500, seed: int = 0,
                      focus: Sequence[int] | None = None, n_jobs: int = -1, rotate_seats: bool = True,
                      confidence: float = 0.95, alpha_spending: bool = False, min_batches: int = 1,
                      simulate_fn: SimulateFn | None = None, log: Callable[[str], None] | None = print,
                      **simulate_kwargs: Any) -> SequentialResult:
    """Plays batches of games until the interval of the effect is no wider than +/- `half_width`, or
    `max_games` games have been played per arm.

    With two arms the effect is the paired difference A - B (`metric` "win": win rate, "vp": mean VP) of the
    focus seats (by default the positions where the arms differ). With one arm it is the win rate (or mean VP)
    of the focus seats (`focus` required, e.g. [0]). Batch b runs `simulate_fn(batch_games, arm, seed=
    batch_seed(seed, b))` for each arm, so the arms stay paired within every batch; game ids are renumbered
    to follow on. The batch size is rounded up to a multiple of the player count so that seat rotation stays
    balanced.

    Before the first batch the log shows a sample-size estimate from the 1/N baseline; after each batch, the
    estimate from the data so far. The stopping rule looks only at the width of the interval, never at the
    effect or its p-value, and the number of batches is bounded by `max_games`; `alpha_spending=True`
    computes every interval at level 1 - (1 - confidence) / K for the K = ceil(max_games / batch_games)
    possible looks (Bonferroni), a conservative guard for the repeated looks. The number of looks is reported.
    """
    if metric not in ("win", "vp"):
        raise ValueError(f"metric must be 'win' or 'vp', got {metric!r}")
    if half_width <= 0 or max_games <= 0 or batch_games <= 0:
        raise ValueError("half_width, max_games and batch_games must be positive")
    n = len(arm_a)
    if arm_b is not None:
        if focus is None:
            focus = _differing_positions(arm_a, arm_b)
            if not focus:
                raise ValueError("the arms are identical; name the seats under study with focus=[...]")
        elif len(arm_a) != len(arm_b):
            raise ValueError("the arms must have the same number of players")
    elif not focus:
        raise ValueError("a single-arm run needs focus=[index into the players list, ...]")
    focus = list(focus)
    batch = math.ceil(batch_games / n) * n
    max_looks = math.ceil(max_games / batch)
    level = 1 - (1 - confidence) / max_looks if alpha_spending else confidence
    simulate_fn = simulate_fn or _default_simulate()
    say = log or (lambda _text: None)

    baseline = len(focus) / n
    if metric == "win":
        guess = sample_size_for_proportion(baseline, half_width, level)
        what = "two unpaired arms need about twice that; pairing needs fewer" if arm_b is not None else ""
        say(f"sample size: ~{guess:,} games for +/-{100 * half_width:.1f} points at a {baseline:.0%} win rate"
            + (f" ({what})" if what else "") + f"; at most {max_games:,} games in batches of {batch}")
    else:
        say(f"sample size: estimated after the first batch of {batch} games (needs the VP spread); "
            f"at most {max_games:,} games")

    frames_a: list[pd.DataFrame] = []
    frames_b: list[pd.DataFrame] = []
    history = []
    paired: PairedResult | None = None
    played = 0
    looks = 0
    stopped_by = "max_games"
    while played < max_games:
        size = min(batch, max_games - played)
        s = batch_seed(seed, looks)
        for arm, frames in ((arm_a, frames_a), (arm_b, frames_b)):
            if arm is None:
                continue
            frame = _run_arm(simulate_fn, size, arm, s, n_jobs, rotate_seats, **simulate_kwargs)
            frames.append(frame.assign(game_id=frame["game_id"].to_numpy() + played))
        played += size
        looks += 1
        data_a = pd.concat(frames_a, ignore_index=True)
        if arm_b is not None:
            data_b = pd.concat(frames_b, ignore_index=True)
            paired = paired_compare(data_a, data_b, focus=focus, rotate_seats=rotate_seats, confidence=level,
                                    label_a=_arm_text(arm_a, focus), label_b=_arm_text(arm_b, focus))
            paired.looks = looks
            estimate = paired.win_diff if metric == "win" else paired.vp_diff
            lo, hi = paired.win_diff_ci if metric == "win" else paired.vp_diff_ci
            sd = paired.sd_win_diff if metric == "win" else paired.sd_vp_diff
        else:
            estimate, lo, hi = _single_estimate(data_a, focus, metric, level, rotate_seats)
            per_game = data_a[np.isin(data_a["position"], focus)].groupby("game_id")[
                "win" if metric == "win" else score_column(data_a)].agg("sum" if metric == "win" else "mean")
            sd = float(per_game.std(ddof=1)) if len(per_game) > 1 else math.nan
        hw = (hi - lo) / 2
        history.append({"look": looks, "games": played, "estimate": estimate, "ci_low": lo, "ci_high": hi,
                        "half_width": hw})
        need = sample_size_for_paired(sd, half_width, level) if np.isfinite(sd) else None
        unit = score_column(data_a).upper()
        say(f"look {looks}: {played:,} games, {_effect_text(metric, arm_b is not None, estimate, hw, unit)}"
            + (f"; ~{need:,} games needed for +/-{_amount(metric, half_width, unit)}" if need else ""))
        if hw <= half_width and looks >= min_batches:
            stopped_by = "precision"
            break
    result = SequentialResult(metric=metric, target_half_width=half_width, estimate=history[-1]["estimate"],
                              ci=(history[-1]["ci_low"], history[-1]["ci_high"]), games=played, looks=looks,
                              stopped_by=stopped_by, confidence=level, history=pd.DataFrame(history),
                              paired=paired, frame=pd.concat(frames_a, ignore_index=True))
    say(f"stopped by {stopped_by} after {looks} look(s), {played:,} games")
    return result


def _amount(metric: str, value: float, unit: str = "VP") -> str:
    return f"{100 * value:.1f} points" if metric == "win" else f"{value:.2f} {unit}"


def _effect_text(metric: str, paired: bool, estimate: float, half: float, unit: str) -> str:
    if paired:
        what = "win rate A - B" if metric == "win" else f"mean {unit} A - B"
        value = f"{100 * estimate:+.1f} points" if metric == "win" else f"{estimate:+.2f} {unit}"
    else:
        what = "win rate" if metric == "win" else f"mean {unit}"
        value = f"{estimate:.1%}" if metric == "win" else f"{estimate:.2f} {unit}"
    return f"{what} {value} +/-{_amount(metric, half, unit)}"


__all__ = [
    "SequentialResult",
    "SimulateFn",
    "batch_seed",
    "paired_ab",
    "run_until_precise",
    "simulate_arm",
]
