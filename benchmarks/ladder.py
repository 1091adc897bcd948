#!/usr/bin/env python
"""One ladder for all players: a round-robin of mixed 4-player tables rated by a Plackett-Luce fit.

Every player of a pool (random, each heuristic style, flat Monte Carlo and MCTS at several budgets, a cut-off
MCTS, and the players of the game's networks when `make_player` knows them) meets every other at mixed tables
drawn so that each pair meets about equally often. A table plays one deal `--rotations` times with the seats
rotated (the duplicate format: the deal's luck and the seat order cancel within the block). The finishing orders give a
Plackett-Luce maximum-likelihood rating per player with a 95% bootstrap interval over deals; the table adds the
mean rank, the win share against the equal share, the CPU time per decision (time.process_time around
choose()), and a check that a larger budget of a search player is never rated below a smaller one. A plot of
rating against CPU per decision draws the Pareto frontier: the strongest player for a given cost.

Usage:
    python benchmarks/ladder.py [--game GAME] [--players 'SPEC;SPEC;...' | --players-file PATH] [--games N]
                                [--rotations R] [--jobs J] [--seed S] [--minutes M] [--out DIR] [--report-only]

Every finished game is appended to DIR/games.csv at once; a rerun with the same pool, seed and rotations skips
the games already there (the schedule of game g depends only on the games before it, so a larger --games
extends a run). The ratings, the markdown table and the plots are written from whatever the CSV holds.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS threads competing for the other core

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy.optimize import minimize
from scipy.stats import spearmanr

from borabora_sim.games import canonical_game_spec, get_game
from borabora_sim.players import make_player
from borabora_sim.protocol import Game
from borabora_sim.ratings import ratings
from borabora_sim.specs import split_spec

SEED = 20_261_130
TABLE = 4
ELO = 400 / math.log(10)        # Plackett-Luce log-strength to the Elo scale: +400 = ten times the strength
PRIOR_SD = 5.0                  # sd of the weak Gaussian prior on each log-strength (about 870 Elo)
BOOTSTRAP = 500
ROOT = Path(__file__).resolve().parent
# Search budgets: the option that sets a search player's effort, and its default when a spec leaves it out.
BUDGETS = {"mcts": ("iterations", 1000.0), "flatmc": ("rollouts", 100.0)}
# Players of the game's trained evaluations, rated when this version of the package can make them for the game: the
# value-only learned evaluation (docs/learned.md), the policy-and-value network in one pass and guiding PUCT at two
# budgets (docs/expert.md).
LEARNED = ("learned", "mcts:iterations=300,rollout=heuristic,rollout_depth=0,evaluation=learned", "expert",
           "mcts:iterations=100,evaluation=net", "mcts:iterations=300,evaluation=net")


def default_pool(game: Game) -> list[str]:
    """The players rated when --players is not given: random, every heuristic style, flat MC and MCTS at
    several budgets with the game's default options, one variant of MCTS with other rollouts (with random rollouts
    to the end by default, also heuristic cut-offs guided by the network's priors), and the players of trained
    evaluations that make_player accepts for this game."""
    pool = ["random", *(f"heuristic:style={style}" for style in game.styles),
            "flatmc:rollouts=10", "flatmc:rollouts=50",
            "mcts:iterations=100", "mcts:iterations=300", "mcts:iterations=1000"]
    if game.search_defaults.get("rollout_depth", -1) == -1:
        pool.append("mcts:iterations=300,rollout=heuristic,rollout_depth=30")    # heuristic rollouts, cut off
        guided = "mcts:iterations=300,rollout=heuristic,rollout_depth=30,prior=net"   # the same, the network's priors
        pool += [guided] if unavailable(guided, game) is None else []
    else:
        pool.append("mcts:iterations=300,rollout_depth=-1")                      # random rollouts to the end
    return pool + [spec for spec in LEARNED if unavailable(spec, game) is None]


def unavailable(spec: str, game: Game) -> str | None:
    """Why `spec` cannot be played in `game` (None: it can)."""
    try:
        make_player(spec, seed=0, game=game)
    except (ValueError, OSError, ImportError) as error:
        return str(error)
    return None


# ---------------------------------------------------------------------------------------------------------------
# the schedule
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scheduled:
    """Game `index`: the `rotation`-th seating of block `block`'s table, on that block's deal."""

    index: int
    block: int
    rotation: int
    deal_seed: int
    specs: tuple[str, ...]          # by seat


def pick_table(played: np.ndarray, met: np.ndarray, tie: np.ndarray, table: int) -> list[int]:
    """The player with the fewest games, then each time the one that has met the chosen ones least (then the
    fewest games, then the order `tie`)."""
    n = len(played)
    chosen = [min(range(n), key=lambda p: (played[p], tie[p]))]
    while len(chosen) < table:
        chosen.append(min((p for p in range(n) if p not in chosen),
                          key=lambda p: (int(met[p, chosen].sum()), played[p], tie[p])))
    return chosen


def seat_order(chosen: list[int], seats: np.ndarray, rounds: int) -> list[int]:
    """`chosen` in the seat order (for the first of `rounds` rotations) that gives each player the seats it has
    had least."""
    table = len(chosen)

    def cost(order: tuple[int, ...]) -> int:
        return sum(int(seats[chosen[order[s]], (s + r) % table]) for r in range(rounds) for s in range(table))

    return [chosen[i] for i in min(itertools.permutations(range(table)), key=cost)]


def schedule(pool: Sequence[str], games: int, rotations: int, seed: int, game: Game,
             table: int = TABLE) -> list[Scheduled]:
    """The first `games` games of the ladder. Each block picks `table` players greedily: the player with the
    fewest games first, then each time the one that has met the chosen ones least (fewest games next, a seeded
    random draw last), so pair counts stay level; its seat order is the one that evens out each player's seats
    over the block's rotations. Block b is dealt derive_seed(seed, b); game g's table depends only on the games
    before it."""
    n = len(pool)
    rng = np.random.default_rng(seed)
    played = np.zeros(n, dtype=np.int64)
    met = np.zeros((n, n), dtype=np.int64)
    seats = np.zeros((n, table), dtype=np.int64)
    result: list[Scheduled] = []
    for block in range(math.ceil(games / rotations)):
        rounds = min(rotations, games - block * rotations)
        base = seat_order(pick_table(played, met, rng.permutation(n), table), seats, rounds)
        deal = int(game.derive_seed(seed, block))
        for rotation in range(rounds):
            at = [base[(s - rotation) % table] for s in range(table)]    # player base[i] sits in seat i + rotation
            result.append(Scheduled(block * rotations + rotation, block, rotation, deal, tuple(pool[p] for p in at)))
            for s, p in enumerate(at):
                seats[p, s] += 1
        for p in base:
            played[p] += rounds
        for p, q in itertools.combinations(base, 2):
            met[p, q] += rounds
            met[q, p] += rounds
    return result


# ---------------------------------------------------------------------------------------------------------------
# playing
# ---------------------------------------------------------------------------------------------------------------
def play_one(game_spec: str, scheduled: Scheduled) -> dict[str, object]:
    """Plays one scheduled game; the CPU time (time.process_time) of every choose() is added to its seat."""
    game = get_game(game_spec)
    n = len(scheduled.specs)
    players = [make_player(spec, seed=int(game.derive_seed(scheduled.deal_seed, 1 + scheduled.rotation * n + s)),
                           game=game) for s, spec in enumerate(scheduled.specs)]
    cpu = [0.0] * n
    decisions = [0] * n
    start = time.perf_counter()
    state = game.new_initial_state(players=n, seed=scheduled.deal_seed)
    while not state.is_terminal():
        seat = state.current_player
        before = time.process_time()
        action = players[seat].choose(state)
        cpu[seat] += time.process_time() - before
        decisions[seat] += 1
        state.apply(action)
    row: dict[str, object] = {"game": scheduled.index, "block": scheduled.block, "rotation": scheduled.rotation,
                              "deal_seed": scheduled.deal_seed, "wall_seconds": round(time.perf_counter() - start, 4)}
    for s, (score, rank) in enumerate(zip(state.scores(), state.ranks(), strict=True)):
        row.update({f"spec_{s}": scheduled.specs[s], f"score_{s}": score, f"rank_{s}": rank,
                    f"cpu_{s}": round(cpu[s], 6), f"decisions_{s}": decisions[s]})
    return row


def columns(table: int) -> list[str]:
    per_seat = [f"{name}_{s}" for s in range(table) for name in ("spec", "score", "rank", "cpu", "decisions")]
    return ["game", "block", "rotation", "deal_seed", *per_seat, "wall_seconds"]


def read_games(path: Path, table: int = TABLE) -> pd.DataFrame:
    """The finished games of a ladder CSV, one row per game (an unfinished last line is ignored)."""
    if not path.exists():
        return pd.DataFrame(columns=columns(table))
    frame = pd.read_csv(path, on_bad_lines="skip")
    missing = [c for c in columns(table) if c not in frame.columns]
    if missing:
        raise SystemExit(f"{path} is not a ladder CSV of {table}-player tables: it lacks {', '.join(missing)}")
    return frame.dropna().drop_duplicates("game").sort_values("game", ignore_index=True)


def check_resumable(done: pd.DataFrame, planned: dict[int, Scheduled], path: Path, table: int) -> None:
    """The games already in the CSV must be the ones the schedule asks for; else the CSV is another ladder's."""
    for row in done.itertuples(index=False):
        game = planned.get(int(row.game))
        if game is None:
            continue
        specs = tuple(str(getattr(row, f"spec_{s}")) for s in range(table))
        if specs != game.specs or int(row.deal_seed) != game.deal_seed:
            raise SystemExit(f"{path} holds game {row.game} with players {'; '.join(specs)} (deal "
                             f"{int(row.deal_seed)}), but this pool, seed and rotation count schedule "
                             f"{'; '.join(game.specs)} (deal {game.deal_seed}) there: use another --out, or the "
                             "same --players, --seed and --rotations as that run")


def play(game_spec: str, todo: list[Scheduled], path: Path, jobs: int, minutes: float | None,
         table: int) -> int:
    """Plays `todo`, appending each game to `path` as it finishes; stops taking results after `minutes`.
    Returns the number of games written."""
    new_file = not path.exists() or path.stat().st_size == 0
    start = time.perf_counter()
    written = 0
    last_report = start
    with path.open("a", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=columns(table))
        if new_file:
            writer.writeheader()
            out.flush()
        results: Iterator[dict[str, object]] = Parallel(n_jobs=jobs, return_as="generator_unordered")(
            delayed(play_one)(game_spec, game) for game in todo)
        for row in results:
            writer.writerow(row)
            out.flush()
            written += 1
            now = time.perf_counter()
            if now - last_report >= 30 or written == len(todo):
                last_report = now
                left = (now - start) / written * (len(todo) - written)
                print(f"{written}/{len(todo)} games, {now - start:.0f} s elapsed, ~{left:.0f} s left",
                      file=sys.stderr, flush=True)
            if minutes is not None and now - start >= 60 * minutes:
                print(f"stopping after {minutes:g} min with {written}/{len(todo)} games; a rerun goes on",
                      file=sys.stderr, flush=True)
                break
    return written


# ---------------------------------------------------------------------------------------------------------------
# ratings
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcomes:
    """The finishing orders as arrays: `players[g, j]` is the pool index of the j-th best seat of game g, and
    `risk[g, j, m]` says whether seat m was still in the race when seat j was placed (rank_m >= rank_j). Seats
    tied on a rank share the race (Breslow's rule for ties), and a place that only orders tied seats among
    themselves carries no information (`counted` is False)."""

    players: np.ndarray        # (games, table) int
    risk: np.ndarray           # (games, table, table) float
    counted: np.ndarray        # (games, table) float
    blocks: np.ndarray         # (games,) the deal each game belongs to: the unit of the bootstrap


def outcomes(games: pd.DataFrame, pool: Sequence[str], table: int = TABLE) -> Outcomes:
    index = {spec: i for i, spec in enumerate(pool)}
    specs = games[[f"spec_{s}" for s in range(table)]].to_numpy()
    ranks = games[[f"rank_{s}" for s in range(table)]].to_numpy(dtype=np.int64)
    order = np.argsort(ranks, axis=1, kind="stable")
    ranks = np.take_along_axis(ranks, order, axis=1)
    players = np.vectorize(index.__getitem__, otypes=[np.int64])(np.take_along_axis(specs, order, axis=1))
    risk = (ranks[:, None, :] >= ranks[:, :, None]).astype(float)
    tied_only = (risk * (ranks[:, None, :] != ranks[:, :, None])).sum(axis=2) == 0
    return Outcomes(players=players.reshape(-1, table), risk=risk, counted=(~tied_only).astype(float),
                    blocks=games["block"].to_numpy(dtype=np.int64))


def fit_plackett_luce(data: Outcomes, n: int, weights: np.ndarray | None = None,
                      start: np.ndarray | None = None) -> np.ndarray:
    """Maximum a posteriori log-strengths of `n` players: the Plackett-Luce likelihood of every finishing order
    (games weighted by `weights`, the bootstrap's counts) times a weak N(0, PRIOR_SD^2) prior on each, which
    keeps a player that never beat anyone (or never lost) finite."""
    w = np.ones(len(data.players)) if weights is None else weights
    counted = data.counted * w[:, None]

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        strength = np.exp(theta[data.players])                              # (games, table)
        total = np.einsum("gjm,gm->gj", data.risk, strength)                # strength still in the race
        loglik = float((counted * (theta[data.players] - np.log(total))).sum())
        share = np.einsum("gj,gjm->gm", counted / total, data.risk) * strength
        grad = np.bincount(data.players.ravel(), (counted - share).ravel(), minlength=n)
        prior = theta / PRIOR_SD**2
        return -loglik + 0.5 * float(theta @ theta) / PRIOR_SD**2, -(grad - prior)

    x0 = np.zeros(n) if start is None else start
    found = minimize(objective, x0, jac=True, method="L-BFGS-B", options={"maxiter": 2000, "gtol": 1e-8})
    return np.asarray(found.x)


@dataclass
class Fit:
    rating: np.ndarray              # Elo scale, anchor = 0
    samples: np.ndarray             # (bootstrap, players), Elo scale, anchor = 0 in each
    anchor: int

    def interval(self, i: int) -> tuple[float, float]:
        lo, hi = np.percentile(self.samples[:, i], [2.5, 97.5])
        return float(lo), float(hi)

    def difference(self, i: int, j: int) -> tuple[float, float]:
        """95% bootstrap interval of rating i - rating j (paired over the same resamples)."""
        lo, hi = np.percentile(self.samples[:, i] - self.samples[:, j], [2.5, 97.5])
        return float(lo), float(hi)


def rate(data: Outcomes, n: int, anchor: int, resamples: int = BOOTSTRAP, seed: int = SEED) -> Fit:
    """The fit and its bootstrap: deals (blocks of games on one deal) are drawn with replacement and refitted."""
    theta = fit_plackett_luce(data, n)
    blocks, position = np.unique(data.blocks, return_inverse=True)
    rng = np.random.default_rng(seed)
    samples = np.empty((resamples, n))
    for b in range(resamples):
        counts = np.bincount(rng.integers(0, len(blocks), len(blocks)), minlength=len(blocks))
        sample = fit_plackett_luce(data, n, weights=counts[position].astype(float), start=theta)
        samples[b] = ELO * (sample - sample[anchor])
    return Fit(rating=ELO * (theta - theta[anchor]), samples=samples, anchor=anchor)


# ---------------------------------------------------------------------------------------------------------------
# the table, the budget check and the plot
# ---------------------------------------------------------------------------------------------------------------
def budget_of(spec: str) -> tuple[str, float] | None:
    """(family, budget) of a search player: the family is the spec without its budget option, so that
    mcts:iterations=100 and mcts:iterations=1000 belong to one family; None for a player without a budget."""
    name, options = split_spec(spec)
    if name not in BUDGETS:
        return None
    key, default = BUDGETS[name]
    if "seconds" in options:
        key, default = "seconds", 0.0
    budget = float(options.pop(key, default))
    rest = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return (f"{name}:{rest}" if rest else name), budget


def summary(games: pd.DataFrame, pool: Sequence[str], fit: Fit, table: int = TABLE) -> pd.DataFrame:
    """One row per player, best first: rating and interval, games, mean rank, win share, CPU per decision."""
    long = pd.concat([pd.DataFrame({
        "game": games["game"], "spec": games[f"spec_{s}"], "rank": games[f"rank_{s}"],
        "cpu": games[f"cpu_{s}"], "decisions": games[f"decisions_{s}"],
        "first": (games[f"rank_{s}"] == 1).astype(float)}) for s in range(table)], ignore_index=True)
    sharing = long.groupby("game")["first"].transform("sum")
    long["win_share"] = long["first"] / sharing
    ahead = {spec: set() for spec in pool}
    behind = {spec: set() for spec in pool}
    for s, t in itertools.permutations(range(table), 2):
        better = games[f"rank_{s}"] < games[f"rank_{t}"]
        for a, b in zip(games.loc[better, f"spec_{s}"], games.loc[better, f"spec_{t}"], strict=True):
            ahead[a].add(b)
            behind[b].add(a)
    rows = []
    for i, spec in enumerate(pool):
        mine = long[long["spec"] == spec]
        lo, hi = fit.interval(i)
        played = len(mine)
        note = ""
        if i == fit.anchor:
            note = "anchor"
        elif played and not ahead[spec]:
            note = "never finished ahead of anyone: rating set by the prior (the games put it lower)"
        elif played and not behind[spec]:
            note = "never finished behind anyone: rating set by the prior (the games put it higher)"
        decisions = int(mine["decisions"].sum())
        rows.append({
            "player": spec, "rating": fit.rating[i], "ci_low": lo, "ci_high": hi, "games": played,
            "mean_rank": mine["rank"].mean(), "win_share": mine["win_share"].mean(),
            "wins_vs_expected": mine["win_share"].mean() * table,
            "cpu_ms_per_decision": 1000 * mine["cpu"].sum() / decisions if decisions else math.nan,
            "cpu_s_per_game": mine["cpu"].mean(), "decisions_per_game": mine["decisions"].mean(),
            "note": note})
    return pd.DataFrame(rows).sort_values("rating", ascending=False, ignore_index=True)


def openskill_mu(games: pd.DataFrame, table: int = TABLE) -> pd.Series:
    """openskill's Weng-Lin Plackett-Luce mu per player (borabora_sim.ratings.ratings, games in order): a
    cross-check of the fit, which it approximates one game at a time."""
    rows = pd.concat([pd.DataFrame({"game_id": games["game"], "seat": s, "spec": games[f"spec_{s}"],
                                    "rank": games[f"rank_{s}"]}) for s in range(table)], ignore_index=True)
    return ratings(rows)["mu"]


@dataclass(frozen=True)
class BudgetStep:
    family: str
    smaller: str
    larger: str
    difference: float               # rating(larger) - rating(smaller)
    difference_ci: tuple[float, float]
    overlap: bool                   # do the two players' intervals overlap?

    @property
    def paired(self) -> str:
        """Where the paired bootstrap interval of the difference lies: a sharper test than the overlap rule."""
        lo, hi = self.difference_ci
        return "above 0" if lo > 0 else "below 0" if hi < 0 else "contains 0"

    @property
    def verdict(self) -> str:
        if self.difference < 0:
            return "not resolved (lower, intervals overlap)" if self.overlap else "INVERSION"
        return "not resolved (higher, intervals overlap)" if self.overlap else "rises"


def budget_steps(pool: Sequence[str], fit: Fit) -> list[BudgetStep]:
    """Each search family's players in order of budget, each compared with the next larger budget."""
    families: dict[str, list[tuple[float, int]]] = {}
    for i, spec in enumerate(pool):
        found = budget_of(spec)
        if found is not None:
            families.setdefault(found[0], []).append((found[1], i))
    steps = []
    for family, members in families.items():
        members.sort()
        for (_, i), (_, j) in itertools.pairwise(members):
            lo_i, hi_i = fit.interval(i)
            lo_j, hi_j = fit.interval(j)
            steps.append(BudgetStep(family, pool[i], pool[j], float(fit.rating[j] - fit.rating[i]),
                                    fit.difference(j, i), overlap=lo_j <= hi_i and lo_i <= hi_j))
    return steps


def budget_words(steps: Sequence[BudgetStep]) -> str:
    if not steps:
        return "No search player is in the pool at two budgets: nothing to check."
    inversions = [s for s in steps if s.verdict == "INVERSION"]
    unresolved = [s for s in steps if s.overlap]
    lower = [s for s in unresolved if s.difference < 0]
    if inversions:
        text = (f"{len(inversions)} inversion(s): "
                + "; ".join(f"{s.larger} is rated below {s.smaller}" for s in inversions) + ".")
    else:
        text = f"No inversion in {len(steps)} budget step(s)"
        text += ": every larger budget is rated higher" if not lower else (
            f": {len(steps) - len(lower)} larger budget(s) rated higher, {len(lower)} lower within overlapping "
            "intervals")
    if not unresolved:
        return text + "; the two players' intervals are apart at every step."
    text += (f"; not resolved (the two intervals overlap) at {len(unresolved)} step(s): "
             + "; ".join(f"{s.smaller} -> {s.larger}" for s in unresolved) + ".")
    parts = []
    for where in ("above 0", "below 0", "contains 0"):
        named = [f"{s.smaller} -> {s.larger}" for s in unresolved if s.paired == where]
        if named:
            parts.append(f"{'contains 0' if where == 'contains 0' else 'lies ' + where} for {'; '.join(named)}")
    return text + " The paired bootstrap interval of the difference " + "; it ".join(parts) + "."


def frontier(frame: pd.DataFrame) -> pd.DataFrame:
    """The Pareto frontier: players that no cheaper (or equally cheap) player rates higher, cheapest first."""
    ordered = frame.sort_values(["cpu_ms_per_decision", "rating"], ascending=[True, False])
    best = -math.inf
    keep = []
    for index, row in ordered.iterrows():
        if row["rating"] > best:
            keep.append(index)
            best = row["rating"]
    return ordered.loc[keep]


def fmt_cpu(ms: float) -> str:
    return f"{1000 * ms:.1f} µs" if ms < 1 else f"{ms:.1f} ms"


def markdown(frame: pd.DataFrame, steps: Sequence[BudgetStep], heading: str) -> str:
    on_frontier = set(frontier(frame)["player"])
    lines = [heading, "",
             "| # | player | rating | 95% interval | games | mean rank | wins / equal share | CPU per decision "
             "| CPU s per game (one seat) | frontier | note |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for place, row in enumerate(frame.itertuples(index=False), start=1):
        lines.append(f"| {place} | `{row.player}` | {row.rating:+.0f} | {row.ci_low:+.0f} to {row.ci_high:+.0f} | "
                     f"{row.games} | {row.mean_rank:.2f} | {row.wins_vs_expected:.2f} | "
                     f"{fmt_cpu(row.cpu_ms_per_decision)} | {row.cpu_s_per_game:.3f} | "
                     f"{'yes' if row.player in on_frontier else ''} | {row.note} |")
    lines += ["", "Budget steps (a larger budget of the same search player against the next smaller one):", "",
              "| family | smaller | larger | rating difference | paired 95% interval of the difference | verdict "
              "(the two players' intervals) |",
              "|---|---|---|---|---|---|"]
    for s in steps:
        lo, hi = s.difference_ci
        lines.append(f"| `{s.family}` | `{s.smaller}` | `{s.larger}` | {s.difference:+.0f} | {lo:+.0f} to {hi:+.0f} "
                     f"({s.paired}) | {s.verdict} |")
    lines += ["", budget_words(steps)]
    if frame["openskill_mu"].nunique() > 1:
        rho = spearmanr(frame["rating"], frame["openskill_mu"]).statistic
        lines += ["", f"Cross-check: openskill's Plackett-Luce mu (one update a game, `borabora_sim.ratings.ratings`) "
                      f"orders the players with Spearman rank correlation {rho:.3f} to this fit's ratings."]
    return "\n".join(lines) + "\n"


def plot(frame: pd.DataFrame, title: str, paths: Sequence[Path]) -> None:
    """Rating against CPU per decision (log x) with the 95% intervals, the frontier drawn as a step line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 6.5))
    x = frame["cpu_ms_per_decision"].to_numpy() / 1000
    y = frame["rating"].to_numpy()
    yerr = np.vstack([y - frame["ci_low"].to_numpy(), frame["ci_high"].to_numpy() - y])
    bounded = frame["note"].str.startswith("never").to_numpy()
    ax.errorbar(x[~bounded], y[~bounded], yerr=yerr[:, ~bounded], fmt="o", color="tab:blue", capsize=3,
                label="player (95% bootstrap interval)")
    if bounded.any():
        ax.errorbar(x[bounded], y[bounded], yerr=yerr[:, bounded], fmt="o", mfc="white", color="tab:gray",
                    capsize=3, label="rating set by the prior (never ahead of anyone)")
    edge = frontier(frame)
    edge_x = np.append(edge["cpu_ms_per_decision"].to_numpy() / 1000, x.max())   # the best stays on offer
    edge_y = np.append(edge["rating"].to_numpy(), edge["rating"].iloc[-1])
    ax.step(edge_x, edge_y, where="post", color="tab:red", lw=1.5,
            label="Pareto frontier: strongest for its CPU or less")
    ax.plot(edge_x[:-1], edge_y[:-1], "o", mfc="none", mec="tab:red", ms=11)
    ax.set_xscale("log")
    ax.set_xlim(x.min() / 2, x.max() * 30)                     # room for the labels right of the points
    low, high = float(frame["ci_low"].min()), float(frame["ci_high"].max())
    gap = 0.035 * (high - low)
    placed: list[tuple[float, float]] = []
    for xi, yi, name in sorted(zip(x, y, frame["player"], strict=True), key=lambda point: -point[1]):
        text_y = yi
        for px, py in placed:                                  # below any label of a neighbour it would cover
            if abs(math.log10(xi / px)) < 0.6 and text_y > py - gap:
                text_y = py - gap
        placed.append((xi, text_y))
        ax.annotate(name.replace("heuristic:style=", "heuristic:"), (xi, yi), xytext=(xi * 1.35, text_y),
                    fontsize=7.5, va="center", arrowprops={"arrowstyle": "-", "color": "0.6", "lw": 0.5})
    ax.set_xlabel("CPU time per decision (s, log scale; time.process_time around choose())")
    ax.set_ylabel("rating (Plackett-Luce, Elo scale)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    for path in paths:
        fig.savefig(path, dpi=130)
    plt.close(fig)


# ---------------------------------------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------------------------------------
def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def parse_pool(text: str) -> list[str]:
    """Specs separated by ';' (a spec's options are separated by ',')."""
    return [part.strip() for part in text.replace("\n", ";").split(";") if part.strip() and
            not part.strip().startswith("#")]


def check_pool(pool: list[str], game: Game, table: int) -> None:
    if len(pool) < table:
        raise SystemExit(f"the pool has {len(pool)} player(s); a ladder of {table}-player tables needs at least "
                         f"{table} different players")
    seen: dict[str, str] = {}               # the player's full spec (every option spelled out): the spec given
    for spec in pool:
        if spec in seen.values():
            raise SystemExit(f"player {spec!r} is in the pool twice; each player is rated once")
        reason = unavailable(spec, game)
        if reason is not None:
            raise SystemExit(f"cannot play {spec!r} in {game.name}: {reason}")
        full = make_player(spec, seed=0, game=game).spec()
        if full in seen:
            raise SystemExit(f"players {seen[full]!r} and {spec!r} are the same player ({full}); each player is "
                             "rated once")
        seen[full] = spec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="bora_bora", help="the game (a game spec; default bora_bora)")
    pool_group = parser.add_mutually_exclusive_group()
    pool_group.add_argument("--players", type=parse_pool, help="player specs separated by ';' (default: the "
                            "game's pool: random, each style, flatmc and mcts budgets, a variant, learned players)")
    pool_group.add_argument("--players-file", type=Path, help="a file with one player spec a line (# comments)")
    parser.add_argument("--games", type=positive, default=1200, help="games in the ladder (default 1200)")
    parser.add_argument("--rotations", type=positive, default=TABLE,
                        help=f"games per deal, the seats rotated (1-{TABLE}; default {TABLE})")
    parser.add_argument("--jobs", type=positive, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the ladder's seed (default {SEED})")
    parser.add_argument("--anchor", help="the player rated 0 (default: the game's default heuristic style)")
    parser.add_argument("--minutes", type=float, help="stop playing after this many minutes (a rerun goes on)")
    parser.add_argument("--bootstrap", type=positive, default=BOOTSTRAP,
                        help=f"bootstrap resamples of the deals (default {BOOTSTRAP})")
    parser.add_argument("--out", type=Path, help="the results directory (default benchmarks/results/ladder/GAME)")
    parser.add_argument("--report-only", action="store_true", help="rate the games in the CSV, play none")
    args = parser.parse_args(argv)

    try:
        game = get_game(args.game)
    except ValueError as error:
        parser.error(str(error))
    game_spec = canonical_game_spec(args.game)
    if TABLE not in game.player_counts:
        parser.error(f"{game.name} is not played by {TABLE}")
    if args.rotations > TABLE:
        parser.error(f"--rotations must be 1-{TABLE}, got {args.rotations}")
    if args.players_file is not None:
        try:
            pool = parse_pool(args.players_file.read_text())
        except OSError as error:
            parser.error(f"--players-file: {error}")
    elif args.players is not None:
        pool = args.players
    else:
        pool = default_pool(game)
        for spec in LEARNED:
            if spec not in pool:
                print(f"left out of the pool: {spec} ({unavailable(spec, game)})", file=sys.stderr)
    check_pool(pool, game, TABLE)
    anchor = args.anchor or f"heuristic:style={game.default_style}"
    if args.anchor is None and anchor not in pool:
        anchor = pool[0]
    if anchor not in pool:
        parser.error(f"--anchor {anchor!r} is not in the pool: {'; '.join(pool)}")
    out = args.out or ROOT / "results" / "ladder" / game_spec.replace(":", "_")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.csv"

    planned = schedule(pool, args.games, args.rotations, args.seed, game)
    done = read_games(path)
    check_resumable(done, {g.index: g for g in planned}, path, TABLE)
    todo = [g for g in planned if g.index not in set(done["game"].astype(int))]
    print(f"ladder of {game_spec}: {len(pool)} players, {args.games} games ({len(done)} in {path}, "
          f"{0 if args.report_only else len(todo)} to play), {args.rotations} game(s) a deal, seed {args.seed}",
          file=sys.stderr, flush=True)
    if todo and not args.report_only:
        play(game_spec, todo, path, args.jobs, args.minutes, TABLE)
        done = read_games(path)
    games = done[done["game"].isin([g.index for g in planned])]
    if games.empty:
        print("no games to rate yet", file=sys.stderr)
        return 0

    fit = rate(outcomes(games, pool), len(pool), pool.index(anchor), args.bootstrap, args.seed)
    frame = summary(games, pool, fit)
    frame["openskill_mu"] = frame["player"].map(openskill_mu(games))
    steps = budget_steps(pool, fit)
    cpu = float(games[[f"cpu_{s}" for s in range(TABLE)]].to_numpy().sum())
    heading = (f"Ladder of {game_spec}: {len(games)} games of {TABLE} players on {games['block'].nunique()} "
               f"deals (up to {args.rotations} seatings a deal), seed {args.seed}; rating = Plackett-Luce "
               f"log-strength on the Elo scale, `{anchor}` = 0; CPU {cpu / 3600:.2f} core-hours in choose().")
    text = markdown(frame, steps, heading)
    print(text)
    frame.to_csv(out / "ratings.csv", index=False, float_format="%.6g")
    (out / "ratings.md").write_text(text)
    plot(frame, f"{game_spec}: {len(games)} games, {len(pool)} players, {anchor} = 0",
         [out / "ladder.png", out / "ladder.svg"])
    print(f"wrote {out / 'ratings.csv'}, ratings.md, ladder.png, ladder.svg", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
