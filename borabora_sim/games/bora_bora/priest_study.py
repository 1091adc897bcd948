"""How much is a priest worth, by round, and does the answer hold as the player gets stronger?

From the start of each round of real games, the game is played to the end twice: once as it stands and once with
one extra priest of the studied player in the temple, placed on the leftmost space as a temple action would place
it (the safest space; the priests there are pushed along the arrows). Both continuations use the same players
with the same seeds, and the dice come from their own generator, so the pair differs only by the priest. The mean
paired difference in final VP (and in win rate) is what a priest gained at the start of that round is worth,
including its indirect effects (the God tile for the most priests, priest tasks), next to its direct temple VP
(the per-priest VP of the scorings still to come). The studied seat rotates with the game and is played by each
rung of the ladder of players in turn (`borabora_sim.studies.strength`: heuristic, tuned, learned, MCTS at 100 and
300 iterations), always against three `balanced` heuristics; the real games are played by the same four players.
Every rung plays the same game seeds (the search rungs the first of them), so the heuristic rung is the study as
it was before it had rungs.

Run it with `borabora analyze priest --out DIR` (`--size quick|default|full`, `--jobs N`).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from borabora_sim import _engine, stats
from borabora_sim.games.bora_bora.game import BoraBora
from borabora_sim.players import make_player
from borabora_sim.simulate import seated_players
from borabora_sim.studies import strength
from borabora_sim.studies.progress import step_bar
from borabora_sim.studies.report_md import markdown_table, section


@dataclass(frozen=True)
class PriestStudy:
    """`games` real games for each rung that does not search, `search_games` for each that does (their six round
    starts give the pairs); `jobs` worker processes (-1: all cores), the tables the same whatever their number."""

    games: int = 1600
    search_games: int = 24
    rungs: tuple[str, ...] = strength.RUNG_LABELS
    players: int = 4
    jobs: int = -1
    seed: int = 5

    def __post_init__(self) -> None:
        object.__setattr__(self, "rungs", strength.check_rungs(self.rungs))
        if self.games < 1 or self.search_games < 1:
            raise ValueError(f"games and search_games must be at least 1, got {self.games} and {self.search_games}")
        if not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {self.players}")
        if self.jobs == 0 or self.jobs < -1:
            raise ValueError(f"jobs must be -1 (all cores) or at least 1, got {self.jobs}")

    def games_of(self, label: str) -> int:
        """The number of real games of rung `label`."""
        return self.search_games if strength.rung(label).searches else self.games


SIZES = {
    "quick": PriestStudy(games=6, search_games=1, rungs=("heuristic", "learned"), jobs=1),
    "default": PriestStudy(),
    "full": PriestStudy(games=6000, search_games=200),
}


def seat_specs(label: str, players: int, seat: int) -> list[str]:
    """The specs by seat: rung `label` in `seat`, the opponents of `strength.rung_players` in the others."""
    studied, *others = strength.rung_players(label, players)
    return [*others[:seat], studied, *others[seat:]]


def _play_out(state: _engine.State, specs: list[str], seeds: list[int]) -> _engine.State:
    players = [make_player(spec, seed) for spec, seed in zip(specs, seeds, strict=True)]
    while not state.is_terminal():
        state.apply(players[state.current_player].choose(state))
    return state


def with_extra_priest(state: _engine.State, seat: int) -> _engine.State | None:
    """The state with one more priest of `seat` placed on the leftmost temple space as a temple action would
    place it (the priests there are pushed along the arrows; the last one may drop off). None if all four of the
    seat's priests are already in the temple."""
    data = copy.deepcopy(state.to_dict())
    temple = data["state"]["temple"]
    if temple.count(seat) >= 4:
        return None
    end = temple.index(-1) if -1 in temple else len(temple) - 1
    temple[1:end + 1] = temple[:end]
    temple[0] = seat
    return _engine.State.from_dict(data, state.components)


def played_game(game_seed: int, specs: list[str]) -> tuple[list[_engine.State], _engine.State]:
    """The game of these specs with this seed: copies of it at the first die decision of each round, and its
    end."""
    game = BoraBora()
    state = game.new_initial_state(players=len(specs), seed=game_seed)
    players = seated_players(specs, game_seed)
    starts: dict[int, _engine.State] = {}
    while not state.is_terminal():
        if state.decision == "die" and state.round not in starts:
            starts[state.round] = state.clone()
        state.apply(players[state.current_player].choose(state))
    return [starts[r] for r in sorted(starts)], state


def round_starts(game_seed: int, specs: list[str]) -> list[_engine.State]:
    """Copies of the game at the first die decision of each round."""
    return played_game(game_seed, specs)[0]


Rows = list[dict[str, Any]]


def game_rows(label: str, ids: Sequence[int], seed: int, players: int) -> tuple[Rows, Rows]:
    """For rung `label` and the games `ids`: one row per (game, round) with the VP and win of the studied seat
    without and with the extra priest, and one row per game with the studied seat's VP and win in the real game."""
    temple_vp = BoraBora().rules.components.temple_vp_by_round
    pairs, games = [], []
    for game_id in ids:
        game_seed = int(_engine.derive_seed(seed, game_id))
        seat = game_id % players
        specs = seat_specs(label, players, seat)
        starts, end = played_game(game_seed, specs)
        games.append({"rung": label, "game_id": game_id, "seat": seat, "vp": end.scores()[seat],
                      "win": end.winner() == seat})
        for start in starts:
            changed = with_extra_priest(start, seat)
            if changed is None:
                continue
            seeds = [int(_engine.derive_seed(game_seed, 100 * start.round + s)) for s in range(players)]
            base = _play_out(start.clone(), specs, seeds)
            more = _play_out(changed, specs, seeds)
            pairs.append({"rung": label, "game_id": game_id, "round": start.round, "seat": seat,
                          "vp_without": base.scores()[seat], "vp_with": more.scores()[seat],
                          "win_without": base.winner() == seat, "win_with": more.winner() == seat,
                          "direct_temple_vp": int(np.sum(temple_vp[start.round - 1:]))})
    return pairs, games


def _tasks(study: PriestStudy) -> list[tuple[str, range]]:
    """The work as (rung, game ids) chunks: the search rungs' games one by one and first (the longest tasks
    start first, so the workers finish together), then the others' in chunks of 25."""
    tasks = []
    for label in sorted(study.rungs, key=lambda label: not strength.rung(label).searches):
        count, size = study.games_of(label), 1 if strength.rung(label).searches else 25
        tasks += [(label, range(start, min(start + size, count))) for start in range(0, count, size)]
    return tasks


def _run_task(label: str, ids: range, seed: int, players: int) -> tuple[int, float, Rows, Rows]:
    """The games `ids` of rung `label`: their count, the CPU seconds they took and their rows."""
    cpu = time.process_time()
    pairs, games = game_rows(label, ids, seed, players)
    return len(ids), time.process_time() - cpu, pairs, games


def priest_values(study: PriestStudy, progress: Callable[[int], object] | None = None
                  ) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """The pairs, one row per (rung, game, round): VP and win of the studied seat without and with the extra
    priest; the real games, one row per (rung, game), both in ladder, game and round order whatever the number
    of workers; and the CPU seconds the games took in all the processes. `progress(n)` after each chunk of n
    games."""
    tasks = _tasks(study)
    pairs: Rows = []
    games: Rows = []
    cpu = 0.0
    if study.jobs == 1 or len(tasks) == 1:
        results: Any = (_run_task(label, ids, study.seed, study.players) for label, ids in tasks)
    else:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=study.jobs, return_as="generator_unordered")
        results = parallel(delayed(_run_task)(label, ids, study.seed, study.players) for label, ids in tasks)
    for count, seconds, pair_rows, real_rows in results:
        cpu += seconds
        pairs += pair_rows
        games += real_rows
        if progress is not None:
            progress(count)
    order = {label: i for i, label in enumerate(strength.RUNG_LABELS)}
    values = pd.DataFrame(pairs)
    values = values.sort_values(["rung", "game_id", "round"], key=lambda c: c.map(order) if c.name == "rung" else c,
                                kind="stable", ignore_index=True)
    values["vp_gain"] = values["vp_with"] - values["vp_without"]
    values["win_gain"] = values["win_with"].astype(int) - values["win_without"].astype(int)
    real = pd.DataFrame(games).sort_values(["rung", "game_id"], key=lambda c: c.map(order) if c.name == "rung" else c,
                                           kind="stable", ignore_index=True)
    return values, real, cpu


def summary(values: pd.DataFrame, players: int) -> pd.DataFrame:
    """One paired comparison per rung and round (with the extra priest = A, without = B) as one `paired_table`:
    intervals, Holm-adjusted p-values over all its rows (rungs x rounds) and the verdicts worded in the report.
    Rows in ladder order, then by round; without a `rung` column the values are of one player."""
    if "rung" not in values:
        values = values.assign(rung=strength.RUNG_LABELS[0])
    ladder = values.assign(position=values["rung"].map(strength.RUNG_LABELS.index))
    rows = []
    for (_, label, round_), group in ladder.groupby(["position", "rung", "round"], sort=True):
        per_game = pd.DataFrame({"win_a": group["win_with"], "win_b": group["win_without"],
                                 "vp_a": group["vp_with"], "vp_b": group["vp_without"]})
        result = stats.paired_outcomes(per_game, "with the extra priest", "without", baseline=1 / players)
        rows.append({"rung": label, "round": round_, "direct_temple_vp": int(group["direct_temple_vp"].iloc[0]),
                     **asdict(result)})
    return stats.paired_table(pd.DataFrame(rows))


def strength_table(real: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """Each rung's measured strength, its win rate in the real games (without the extra priest) with the Wilson
    interval (`strength.strength_row`), beside the half-widths of the priest's effects for it (the widest over the
    rounds): the precision each rung's answer has."""
    rows = []
    for label, group in real.groupby("rung", sort=False):
        effects = table[table["rung"] == label]
        rows.append({**strength.strength_row(str(label), int(group["win"].sum()), len(group)),
                     "pairs": int(effects["games"].sum()),
                     "win_gain_half_width": max((hi - lo) / 2 for lo, hi in effects["win_diff_ci"]),
                     "vp_gain_half_width": max((hi - lo) / 2 for lo, hi in effects["vp_diff_ci"])})
    return pd.DataFrame(rows)


NAMES = {"games": "pairs", "vp_diff": "vp_gain", "vp_diff_ci": "vp_ci", "win_diff": "win_gain", "win_diff_ci": "win_ci"}
CSV_COLUMNS = ("rung", "round", "games", "vp_diff", "vp_diff_ci", "wilcoxon_p", "wilcoxon_p_holm", "vp_verdict",
               "direct_temple_vp", "win_diff", "win_diff_ci", "mcnemar_p", "mcnemar_p_holm", "win_verdict", "alpha")
PRINTED = ("rung", "round", "pairs", "vp_gain", "vp_ci_low", "vp_ci_high", "wilcoxon_p_holm", "vp_verdict",
           "direct_temple_vp", "win_gain", "win_ci_low", "win_ci_high", "mcnemar_p_holm", "win_verdict")
CHANGE_COLUMNS = ("metric", "round", "rung", "reference", "reference_effect", "effect", "change", "change_ci",
                  "change_p", "change_p_holm", "holm_family", "change_verdict", "alpha")


def summary_view(table: pd.DataFrame) -> pd.DataFrame:
    """The summary under the report's column names with interval bounds as numbers: the CSV file (the report
    prints the PRINTED columns of it)."""
    return stats.interval_columns(table[[c for c in CSV_COLUMNS if c in table]].rename(columns=NAMES))


def changes_table(table: pd.DataFrame) -> pd.DataFrame:
    """How the priest's effect changes from the weakest rung measured to each stronger one, by round, in VP and
    in win rate (`stats.effect_changes`; each metric's changes are Holm-adjusted over all its rows, rounds x
    rungs). Empty with one rung."""
    if table["rung"].nunique() < 2:
        return pd.DataFrame(columns=list(CHANGE_COLUMNS))
    reference = table["rung"].iloc[0]
    parts = [stats.effect_changes(table, "rung", reference, within=("round",), metric=metric).assign(metric=metric)
             for metric in ("vp", "win")]
    return pd.concat(parts, ignore_index=True)[list(CHANGE_COLUMNS)]


# Each wording opens the parenthesis that holds the interval, with the estimate where the words do not say it.
VP_WORDS = {"A better": "is worth {vp:+.1f} VP at the end (", "A worse": "costs {loss:.1f} VP by the end (",
            "no detectable difference": "makes no detectable difference to the final VP ({vp:+.1f} VP, "}
WIN_WORDS = {"A better": "{win:+.1f} points of win rate (", "A worse": "{loss:.1f} points of win rate fewer (",
             "no detectable difference": "no detectable difference in win rate ({win:+.1f} points, "}


def plain_words(table: pd.DataFrame, comparisons: int | None = None) -> list[str]:
    """One sentence per row (round) of `table`, worded from the Holm-corrected verdicts of `summary` (the table
    the report prints), never from raw p-values or interval signs; `comparisons`: the number of rows the Holm
    correction ran over (default: the rows given)."""
    lines = []
    for _, row in table.iterrows():
        (vlo, vhi), (wlo, whi) = row["vp_diff_ci"], row["win_diff_ci"]
        vp = VP_WORDS[row["vp_verdict"]].format(vp=row["vp_diff"], loss=-row["vp_diff"])
        win = WIN_WORDS[row["win_verdict"]].format(win=100 * row["win_diff"], loss=-100 * row["win_diff"])
        enough = vhi - vlo < max(2.0, abs(row["vp_diff"]))
        lines.append(
            f"A priest gained at the start of round {row['round']} {vp}95% CI {vlo:+.1f} to {vhi:+.1f}, Holm p = "
            f"{row['wilcoxon_p_holm']:.2g}; its direct temple VP is {int(row['direct_temple_vp'])}) and gives "
            f"{win}95% CI {100 * wlo:+.1f} to {100 * whi:+.1f}, Holm p = {row['mcnemar_p_holm']:.2g}), from "
            f"{int(row['games'])} pairs" + ("." if enough else "; the interval is too wide to rank it against other "
                                                                 "rounds."))
    if len(table):
        count = len(table) if comparisons is None else comparisons
        family = "rounds" if count == len(table) else "comparisons (rungs x rounds)"
        lines.append(f"Verdicts are at the {table['alpha'].iloc[0]:.0%} level after Holm's correction over the "
                     f"{count} {family} (VP: Wilcoxon signed-rank test; win rate: exact McNemar test); the "
                     "intervals are not adjusted.")
    return lines


def strength_words(table: pd.DataFrame, changes: pd.DataFrame) -> list[str]:
    """Per metric and round, whether the priest's value holds as the player gets stronger
    (`strength.across_strength`, from the Holm-corrected verdicts of `table` and of `changes`)."""
    lines = []
    for metric in ("vp", "win"):
        of_metric = changes[changes["metric"] == metric] if len(changes) else changes
        for round_, effects in table.groupby("round", sort=True):
            part = of_metric[of_metric["round"] == round_] if len(of_metric) else of_metric
            said = strength.across_strength(effects, part, f"A priest gained at the start of round {round_}",
                                            metric=metric)
            lines.append(" ".join(said))
    return lines


def strength_summary(strengths: pd.DataFrame, players: int = 4) -> list[str]:
    """Each rung's measured strength and which is the strongest whose answer reaches the target precision."""
    listing = "; ".join(f"{row['rung']} {row['win_rate']:.1%} ({row['ci_low']:.1%} to {row['ci_high']:.1%}, "
                        f"{row['games']} games)" for _, row in strengths.iterrows())
    lines = [f"Each player's strength, its win rate in the real games of this study against {players - 1} "
             f"heuristics ({1 / players:.0%} = their equal; Wilson 95% intervals): {listing}."]
    target = strength.TARGET_HALF_WIDTH
    precise = strengths[strengths["win_gain_half_width"] <= target]
    widths = ", ".join(f"{row['rung']} +/- {100 * row['win_gain_half_width']:.1f}"
                       for _, row in strengths.iterrows())
    if precise.empty:
        lines.append(f"No rung reaches the target of +/- {100 * target:.0f} win-rate points for the "
                     f"priest's effect in every round (widest half-widths: {widths}).")
    else:
        best = precise.iloc[-1]
        lines.append(f"The strongest rung whose effect on the win rate is measured to +/- "
                     f"{100 * target:.0f} points or better in every round is {best['rung']} "
                     f"(+/- {100 * best['win_gain_half_width']:.1f}); the widest half-width of each rung: {widths}.")
    return lines


DATA_NOTE = ("Every player here is imperfect and plays against balanced heuristics: a value says what a priest is "
             "worth to a player who decides as that one does, not under perfect play. The study has no runs on "
             "component variants: its values rest on the built-in component file. Of the values a priest touches, "
             "the temple VP per priest (1, 1, 2, 2, 3, 3 in rounds 1 to 6), the God tile for the most priests and "
             "the requirements of the three priest tasks are CONFIRMED by the rulebook, but the temple's "
             "shape (one row of six spaces valued 6 to 1, priests pushed right and the last one dropping off) is "
             "INVENTED (`../shared/data/borabora_components.md` section 8), and with it how long a priest stays, "
             "so the values by round depend on that invented shape.")


def _figure(table: pd.DataFrame) -> Any:
    """The VP gain by round with its 95% interval, one series per rung (offset a little along the x axis), and
    the direct temple VP of a priest gained at the start of each round."""
    from borabora_sim import plots

    fig = plots.new_figure()
    ax = fig.subplots()
    labels = list(dict.fromkeys(table["rung"]))
    for i, label in enumerate(labels):
        rows = table[table["rung"] == label]
        x = rows["round"].to_numpy(dtype=float) + 0.08 * (i - (len(labels) - 1) / 2)
        low = np.array([lo for lo, _ in rows["vp_diff_ci"]])
        high = np.array([hi for _, hi in rows["vp_diff_ci"]])
        mean = rows["vp_diff"].to_numpy(dtype=float)
        ax.errorbar(x, mean, yerr=[mean - low, high - mean], marker="o", capsize=3, label=label)
    direct = table.drop_duplicates("round").sort_values("round")
    ax.plot(direct["round"], direct["direct_temple_vp"], color="black", linestyle=":", label="direct temple VP")
    ax.axhline(0.0, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("round the priest is gained at the start of")
    ax.set_ylabel("VP gain at the end (mean, 95% interval)")
    ax.set_title("VP gained at the end from one extra priest, by round and player")
    ax.legend(title="studied player")
    return fig


def run(study: PriestStudy, out: str | Path, log: Callable[[str], None] = print,
        progress: bool | None = None) -> Path:
    """Runs the study and writes `out`/priest_report.md with a PNG figure and the tables as CSV beside it. The
    games show a progress bar (`progress`: True, False, or None for only on a terminal)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    total = sum(study.games_of(label) for label in study.rungs)
    log(f"playing {total} games ({', '.join(f'{label} {study.games_of(label)}' for label in study.rungs)}) and "
        f"their continuations")
    with step_bar(total, "priest: games and their continuations", "game", progress) as bar:
        values, real, game_cpu = priest_values(study, progress=bar.update)
    values.to_parquet(folder / "priest_values.parquet")
    real.to_parquet(folder / "priest_games.parquet")
    table = summary(values, study.players)
    view = summary_view(table)
    view.to_csv(folder / "priest_summary.csv", index=False)
    strengths = strength_table(real, table)
    strengths.to_csv(folder / "priest_strength.csv", index=False)
    changes = changes_table(table)
    changes_view = stats.interval_columns(changes) if len(changes) else changes
    changes_view.to_csv(folder / "priest_changes.csv", index=False)
    _figure(table).savefig(folder / "priest_vp_by_round.png", dpi=110)

    size = next((name for name, sized_study in SIZES.items() if replace(sized_study, jobs=study.jobs) == study), None)
    strongest = study.rungs[-1]
    answer = [f"For the strongest player measured, {strongest} (`{strength.rung(strongest).spec}`, in the studied "
              f"seat against {study.players - 1} heuristics):",
              *plain_words(table[table["rung"] == strongest], comparisons=len(table)),
              *strength_summary(strengths, study.players)]
    if len(study.rungs) > 1:
        answer += ["Whether the priest's value holds as the player gets stronger, round by round, first in VP, then "
                   "in win rate:", *strength_words(table, changes)]
    answer.append(DATA_NOTE)
    fmt = {"vp_gain": "+.2f", "vp_ci_low": "+.2f", "vp_ci_high": "+.2f", "win_gain": "+.1%", "win_ci_low": "+.1%",
           "win_ci_high": "+.1%", "wilcoxon_p_holm": ".3g", "mcnemar_p_holm": ".3g"}
    strength_fmt = {"win_rate": ".1%", "ci_low": ".1%", "ci_high": ".1%", "win_gain_half_width": ".1%",
                    "vp_gain_half_width": ".2f"}
    change_fmt = {"reference_effect": "+.3f", "effect": "+.3f", "change": "+.3f", "change_ci_low": "+.3f",
                  "change_ci_high": "+.3f", "change_p_holm": ".3g"}
    printed_changes = [c for c in changes_view.columns if c not in ("change_p", "alpha")]
    results = [
        "Per rung and round, A = with the extra priest, B = without; p-values and verdicts are Holm-adjusted over "
        f"all {len(table)} rows (`priest_summary.csv` has the raw p-values too).",
        markdown_table(view[list(PRINTED)], fmt, index=False), "![VP gain by round](priest_vp_by_round.png)",
        "Each rung's strength: its win rate in the real games of the study (without the extra priest), Wilson 95% "
        "interval, with the widest half-width over the rounds of the priest's effect on its win rate and VP "
        "(`priest_strength.csv`).",
        markdown_table(strengths, strength_fmt, index=False)]
    if len(changes):
        results += [f"How the effect changes from the {table['rung'].iloc[0]} player's to each stronger rung's "
                    "(`stats.effect_changes`; win in fractions, VP in points; each row's standard error is read "
                    "from its 95% interval above, half-width / 1.96, and the two rows' are combined as independent "
                    "samples; Holm over all the rows of each metric; `priest_changes.csv`).",
                    markdown_table(changes_view[printed_changes], change_fmt, index=False)]
    text = "\n\n".join([
        "# How much is a priest worth, by round, as the player gets stronger?",
        f"Study settings: `{asdict(study)}`" + (f", from `borabora analyze priest --size {size} --jobs {study.jobs} "
                                                f"--out DIR`." if size else "."),
        section("Answer", answer),
        section("Method", __doc__.split("\n\n")[1].replace("\n", " ")),
        section("Results", *results),
        f"Total run time: {time.perf_counter() - began:.0f} s of wall time ({study.jobs} worker(s)); the games took "
        f"{game_cpu:.0f} s of CPU.",
    ]) + "\n"
    report = folder / "priest_report.md"
    report.write_text(text)
    log(f"report written to {report}")
    return report


def sized(size: str, **overrides: Any) -> PriestStudy:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
    return replace(SIZES[size], **overrides)


__all__ = ["PriestStudy", "run", "sized"]
