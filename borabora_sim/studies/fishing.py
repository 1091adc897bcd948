"""Is the fishing space ever worth it?

The fishing space takes any die, ignores the strictly-lower rule and pays 2 VP. This study answers, with
intervals and sample sizes stated:

1. how often strong players (MCTS) fish, by round and by die value;
2. the win-rate and VP effect of forbidding, allowing and preferring fishing, for heuristic and MCTS players,
   on paired arms (same game seeds and seat rotations; only the studied player's fishing policy differs);
3. the situations in which fishing is the best move, from paired-rollout judgements of every legal option;
4. robustness: for 2, 3 and 4 players, and with the INVENTED component values swapped for alternatives.

Run it with `borabora analyze fishing --out DIR` (or `python analysis/fishing.py`); `--size quick|default|full`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, cast

import pandas as pd

from borabora_sim import _engine, stats
from borabora_sim.counterfactual import RolloutJudge, choice_values, die_situation
from borabora_sim.game import is_fishing
from borabora_sim.match import play_game
from borabora_sim.protocol import GameState
from borabora_sim.simulate import seated_players
from borabora_sim.studies.progress import step_bar
from borabora_sim.studies.report_md import markdown_table, section
from borabora_sim.studies.variants import VARIANTS, write_variant


@dataclass(frozen=True)
class FishingStudy:
    """Sizes of each part (games are per arm; arms are paired on the same seeds)."""

    heuristic_games: int = 2000
    mcts_games: int = 120
    mcts_iterations: int = 300
    frequency_games: int = 24
    counterfactual_games: int = 24
    rollouts: int = 48
    robustness_games: int = 1000
    variants: tuple[str, ...] = tuple(VARIANTS)
    jobs: int = -1
    seed: int = 2013


SIZES = {
    "quick": FishingStudy(heuristic_games=40, mcts_games=4, mcts_iterations=40, frequency_games=2,
                          counterfactual_games=2, rollouts=8, robustness_games=24, variants=("fish_rich",), jobs=1),
    "default": FishingStudy(),
    "full": FishingStudy(heuristic_games=20000, mcts_games=600, mcts_iterations=1000, frequency_games=100,
                         counterfactual_games=150, rollouts=128, robustness_games=8000),
}


# =============================================================================
# 1. How often MCTS fishes
# =============================================================================
def fishing_frequency(study: FishingStudy, players: int = 4,
                      progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """Every die placement of the MCTS seat (rotating) against heuristic opponents: round, die, fished.
    `progress(game_id)` is called after each game."""
    mcts = f"mcts:iterations={study.mcts_iterations}"
    rows: list[dict[str, object]] = []
    for game_id in range(study.frequency_games):
        game_seed = int(_engine.derive_seed(study.seed ^ 0xF15, game_id))
        focus = game_id % players
        specs = ["heuristic"] * players
        specs[focus] = mcts

        def log(state: GameState, seat: int, action: int, game_id: int = game_id, focus: int = focus) -> None:
            placement = _engine.die_placement(action)
            if seat == focus and placement is not None:
                rows.append({"game_id": game_id, "round": state.round, "die": placement[0],
                             "fished": placement[1] == "fishing"})

        play_game(seated_players(specs, game_seed), game_seed,
                  on_decision=log)
        if progress is not None:
            progress(game_id)
    return pd.DataFrame(rows)


def share_by(frame: pd.DataFrame, by: str, flag: str, count_name: str, hit_name: str) -> pd.DataFrame:
    """Per group of `by`: how many rows, how many with `flag` true, the share and its Wilson 95% interval."""
    rows = []
    for key, group in frame.groupby(by):
        hits = int(group[flag].sum())
        lo, hi = stats.wilson_interval(hits, len(group))
        rows.append({by: key, count_name: len(group), hit_name: hits, "share": hits / len(group),
                     "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows).set_index(by)


def share_table(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    return share_by(frame, by, "fished", "placements", "fished")


# =============================================================================
# 2. Paired arms: never / normal / prefer
# =============================================================================
def arm_players(family: str, fishing: str, players: int, study: FishingStudy) -> list[str]:
    """The studied player (seat 0 before rotation) and identical heuristic opponents."""
    focus = {"heuristic": f"heuristic:fishing={fishing}",
             "mcts": f"mcts:iterations={study.mcts_iterations},fishing={fishing}"}[family]
    return [focus] + ["heuristic"] * (players - 1)


COMPARISONS = (("normal", "never"), ("prefer", "normal"))


def arms_comparison(family: str, players: int, games: int, study: FishingStudy, components: str | None = None,
                    progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """Paired comparisons of normal vs never and prefer vs normal for the studied player, one `asdict` row of a
    `PairedResult` each. `progress(games)` is called after each of the three arm runs."""
    runs = {}
    for fishing in ("never", "normal", "prefer"):
        runs[fishing] = stats.simulate_arm(arm_players(family, fishing, players, study), games, study.seed,
                                           n_jobs=study.jobs, components=components)
        if progress is not None:
            progress(games)
    rows = []
    for a, b in COMPARISONS:
        result = stats.paired_compare(runs[a], runs[b], focus_a=arm_players(family, a, players, study)[0],
                                      focus_b=arm_players(family, b, players, study)[0])
        rows.append({"family": family, "players": players, "comparison": f"{a} - {b}", **asdict(result)})
    return pd.DataFrame(rows)


ARM_COLUMNS = ("family", "players", "comparison", "games", "win_a", "win_b", "win_diff", "win_diff_ci",
               "mcnemar_p_holm", "win_verdict", "vp_a", "vp_b", "vp_diff", "vp_diff_ci", "wilcoxon_p_holm",
               "vp_verdict")
CSV_COLUMNS = ("family", "players", "comparison", "games", "win_a", "win_b", "win_diff", "win_diff_ci", "mcnemar_p",
               "mcnemar_p_holm", "win_verdict", "vp_a", "vp_b", "vp_diff", "vp_diff_ci", "wilcoxon_p",
               "wilcoxon_p_holm", "vp_verdict", "alpha")
ARM_FORMATS = {"win_a": ".1%", "win_b": ".1%", "win_diff": "+.1%", "mcnemar_p_holm": ".3g", "vp_diff": "+.2f",
               "wilcoxon_p_holm": ".3g"}


def _columns(table: pd.DataFrame, names: tuple[str, ...]) -> list[str]:
    return [c for c in ("variant", *names) if c in table.columns]


def arms_view(table: pd.DataFrame) -> pd.DataFrame:
    """The columns of a `paired_table` worth printing in the report, intervals as text."""
    view = table[_columns(table, ARM_COLUMNS)].copy()
    for column in ("win_diff_ci", "vp_diff_ci"):
        scale, unit = (100, " pts") if column.startswith("win") else (1, "")
        view[column] = [f"{lo * scale:+.1f} to {hi * scale:+.1f}{unit}" for lo, hi in view[column]]
    return view


def arms_csv(table: pd.DataFrame) -> pd.DataFrame:
    """A `paired_table` for a CSV file: raw and Holm-adjusted p-values, verdicts, interval bounds as numbers."""
    return stats.interval_columns(table[_columns(table, CSV_COLUMNS)])


# =============================================================================
# 3. When is fishing the best move?
# =============================================================================
COUNTERFACTUAL_PLAYERS = ("heuristic",) * 4
REPLAY = "fishing_replay.html"


def counterfactual(study: FishingStudy, progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    judge = RolloutJudge(rollouts=study.rollouts, rollout="heuristic")
    return choice_values(study.counterfactual_games, list(COUNTERFACTUAL_PLAYERS), is_fishing, die_situation,
                         seed=study.seed ^ 0xCF, judge=judge, progress=progress)


def illustrative_decision(values: pd.DataFrame) -> pd.Series | None:
    """The judged fishing option that was the best legal move by the widest margin over the best other move
    (None when fishing was never the best)."""
    if values.empty or not values["best_overall"].any():
        return None
    best = values[values["best_overall"]]
    return best.iloc[int(best["advantage"].to_numpy().argmax())]


def write_replay(values: pd.DataFrame, folder: Path) -> str:
    """Writes the HTML replay of the game of `illustrative_decision` to `folder`/REPLAY (the counterfactual's
    games are played as `borabora replay` plays them, so its game seed replays the same game) and returns the
    report's sentence that links it, opened at that decision."""
    from borabora_sim.viewer import replay_html

    row = illustrative_decision(values)
    if row is None:
        return "Fishing was never the best move of a judged decision, so no game is replayed."
    replay_html(folder / REPLAY, int(row["game_seed"]), COUNTERFACTUAL_PLAYERS)
    decision = int(row["decision"])
    took = "and the player took it" if row["chosen"] else "though the player chose otherwise"
    return (f"[Replay of an illustrative game]({REPLAY}#decision={decision}) (game {int(row['game_id'])} of this "
            f"part, seed {int(row['game_seed'])}, four heuristic players): at decision {decision} (round "
            f"{int(row['round'])}), seat {int(row['seat'])}'s `{row['option']}` was the best legal move, with a "
            f"mean reward of {row['value']:.3f} in the rollouts against {row['best_alternative_value']:.3f} for the "
            f"best other move (`{row['best_alternative']}`), {took}. The replay opens at that decision; one step "
            f"on (right arrow) shows the move taken and the heuristic's evaluation of its options.")


def best_move_table(values: pd.DataFrame, by: str) -> pd.DataFrame:
    table = share_by(values, by, "best_overall", "situations", "fishing_best")
    table["mean_advantage"] = values.groupby(by)["advantage"].mean()
    return table


def plain_words(values: pd.DataFrame, minimum: int = 20) -> list[str]:
    """Statements about when fishing is the best move, from groups with enough situations."""
    if values.empty:
        return ["No decision with a legal fishing move was judged: the evidence is not enough to say anything."]
    overall = values["best_overall"].mean()
    lo, hi = stats.wilson_interval(int(values["best_overall"].sum()), len(values))
    lines = [f"Over {len(values):,} judged fishing options, fishing was the best legal move in {overall:.1%} "
             f"(95% CI {lo:.1%}-{hi:.1%}) of them."]
    for by, label in (("n_blocked", "action tiles blocked for that die"), ("die", "die value"), ("round", "round")):
        table = best_move_table(values, by)
        table = table[table["situations"] >= minimum]
        if table.empty:
            lines.append(f"By {label}: fewer than {minimum} situations per group, not enough to compare.")
            continue
        top = cast(int, table["share"].idxmax())           # the groups are counts: blocked tiles, die, round
        bottom = cast(int, table["share"].idxmin())
        share, situations = table["share"].loc, table["situations"].loc
        lines.append(f"By {label}: most often best at {by} = {top} ({share[top]:.1%} of "
                     f"{int(situations[top])}), least often at {by} = {bottom} "
                     f"({share[bottom]:.1%} of {int(situations[bottom])}).")
    return lines


POLICIES = {"normal - never": "allowing fishing rather than forbidding it",
            "prefer - normal": "preferring fishing rather than allowing it"}
WIN_WORDS = {"A better": "wins more often", "A worse": "wins less often",
             "no detectable difference": "makes no detectable difference to the win rate"}
VP_WORDS = {"A better": "scores more", "A worse": "scores less",
            "no detectable difference": "makes no detectable difference to the score"}
COUNT_WORDS = {"A better": "a higher win rate", "A worse": "a lower win rate",
               "no detectable difference": "no detectable difference"}


def _effects(row: pd.Series) -> str:
    """Both effects of one comparison in words, from its Holm-corrected verdicts."""
    (wlo, whi), (vlo, vhi) = row["win_diff_ci"], row["vp_diff_ci"]
    return (f"{WIN_WORDS[row['win_verdict']]} ({row['win_diff'] * 100:+.1f} win-rate points, 95% CI {wlo * 100:+.1f} "
            f"to {whi * 100:+.1f}, Holm p = {row['mcnemar_p_holm']:.2g}) and {VP_WORDS[row['vp_verdict']]} "
            f"({row['vp_diff']:+.2f} VP, 95% CI {vlo:+.2f} to {vhi:+.2f}, Holm p = {row['wilcoxon_p_holm']:.2g}) "
            f"over {int(row['games']):,} paired games")


def _robustness_sentence(robustness: pd.DataFrame, comparison: str) -> str | None:
    rows = robustness[robustness["comparison"] == comparison]
    if rows.empty:
        return None
    built_in = sorted(rows.loc[rows["variant"] == "built-in", "players"].unique())
    variants = rows.loc[rows["variant"] != "built-in", "variant"].nunique()
    settings = [f"{' and '.join(str(p) for p in built_in)} players"] if built_in else []
    settings += [f"4 players on {variants} component variant(s)"] if variants else []
    counts = rows["win_verdict"].value_counts()
    tally = ", ".join(f"{COUNT_WORDS[v]} in {int(counts[v])}" for v in stats.VERDICTS if v in counts)
    return (f"Across the {len(rows)} robustness settings ({'; '.join(settings)}), {POLICIES[comparison]} gave "
            f"{tally} (Holm's correction over the {len(robustness)} robustness comparisons).")


def answer(arms: pd.DataFrame, robustness: pd.DataFrame, values: pd.DataFrame) -> list[str]:
    """The study's answer in plain words. Every effect is worded from the Holm-corrected verdicts of the two
    `paired_table`s (`arms`, `robustness`) that the report prints, never from raw p-values or interval signs."""
    lines = []
    for family in ("heuristic", "mcts"):
        rows = arms[arms["family"] == family].set_index("comparison")
        for comparison in POLICIES:
            if comparison in rows.index:
                subject = f"For the {family} player, {POLICIES[comparison]}"
                lines.append(f"{subject} {_effects(cast(pd.Series, rows.loc[comparison]))}.")  # one row each
    if len(arms):
        lines.append(f"Verdicts are at the {arms['alpha'].iloc[0]:.0%} level after Holm's correction over the "
                     f"{len(arms)} comparisons of section 2; the intervals are not adjusted.")
    for comparison in POLICIES:
        sentence = _robustness_sentence(robustness, comparison)
        if sentence:
            lines.append(sentence)
    if not values.empty:
        late = values[values["round"] == values["round"].max()]["best_overall"].mean()
        early = values[values["round"] == values["round"].min()]["best_overall"].mean()
        low = values[values["die"] == values["die"].min()]["best_overall"].mean()
        high = values[values["die"] == values["die"].max()]["best_overall"].mean()
        many = values[values["n_blocked"] >= 4]["best_overall"]
        few = values[values["n_blocked"] <= 1]["best_overall"]
        blocked = (f"; blocked on 4 or more action tiles: {many.mean():.0%} of {len(many)}, on at most one: "
                   f"{few.mean():.0%} of {len(few)}" if len(many) and len(few) else "")
        lo, hi = stats.wilson_interval(int(values["best_overall"].sum()), len(values))
        lines.append(f"Fishing is still sometimes the best move: in {values['best_overall'].mean():.0%} (95% CI "
                     f"{lo:.0%}-{hi:.0%}) of the {len(values):,} judged fishing options; by round "
                     f"{values['round'].max()}: {late:.0%} (round {values['round'].min()}: {early:.0%}); with a "
                     f"{values['die'].min()}: {low:.0%} (a {values['die'].max()}: {high:.0%}){blocked}.")
    lines.append("These players are imperfect: the arms say what fishing does for players who decide as these "
                 "do, not what perfect play would gain. The MCTS rows use few iterations; `--size full` runs "
                 "more games and a stronger MCTS.")
    return lines


# =============================================================================
# The whole study
# =============================================================================
def run(study: FishingStudy, out: str | Path, log: Callable[[str], None] = print,
        progress: bool | None = None) -> Path:
    """Runs every part and writes `out`/fishing_report.md with PNG figures, CSV tables and the HTML replay of a
    game in which fishing was the best move beside it. Each long step shows a progress bar with the time left
    (`progress`: True, False, or None for only on a terminal)."""
    from borabora_sim import plots

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    sections = [f"# Is the fishing space ever worth it?\n\nStudy settings: `{asdict(study)}`."]

    log("1/4 how often MCTS fishes")
    with step_bar(study.frequency_games, "1/4 how often MCTS fishes", "game", progress) as bar:
        frequency = fishing_frequency(study, progress=lambda _: bar.update())
    by_round, by_die = share_table(frequency, "round"), share_table(frequency, "die")
    pct = {"share": ".1%", "ci_low": ".1%", "ci_high": ".1%"}
    fig = plots.share_plot(by_round, "round", "share of MCTS die placements on fishing")
    fig.savefig(folder / "fishing_by_round.png", dpi=110)
    sections.append(section(
        "1. How often MCTS fishes",
        f"MCTS ({study.mcts_iterations} iterations) in one seat (rotated) against heuristic players, "
        f"{study.frequency_games} games, {len(frequency)} die placements.",
        markdown_table(by_round, pct), markdown_table(by_die, pct), "![by round](fishing_by_round.png)"))

    log("2/4 paired arms: never / normal / prefer")
    frames = []
    for family, games in (("heuristic", study.heuristic_games), ("mcts", study.mcts_games)):
        with step_bar(3 * games, f"2/4 paired arms, {family}", "game", progress) as bar:
            frames.append(arms_comparison(family, 4, games, study, progress=bar.update))
    arms = stats.paired_table(pd.concat(frames, ignore_index=True))
    arms_csv(arms).to_csv(folder / "fishing_arms.csv", index=False)
    fig = plots.effect_plot(arms, label_columns=("family", "comparison"))
    fig.savefig(folder / "fishing_arms.png", dpi=110)
    sections.append(section(
        "2. Forbidding, allowing, preferring fishing (paired arms)",
        "Each arm plays the same game seeds and seat rotations; only the studied player's fishing policy "
        "differs, so each seed is a pair. Win-rate differences use the paired design (exact McNemar test, Newcombe "
        "interval); VP differences a paired t interval and the Wilcoxon signed-rank test. The p-values and verdicts "
        "are Holm-adjusted over the comparisons of this table (`fishing_arms.csv` has the raw p-values too).",
        markdown_table(arms_view(arms), ARM_FORMATS, index=False),
        "![arms](fishing_arms.png)", stats.verdict_lines(arms, label_columns=("family", "players", "comparison"))))

    log("3/4 when fishing is the best move")
    with step_bar(study.counterfactual_games, "3/4 when fishing is the best move", "game", progress) as bar:
        values = counterfactual(study, progress=lambda _: bar.update())
    values.to_parquet(folder / "fishing_counterfactual.parquet")
    fmt = {"share": ".1%", "ci_low": ".1%", "ci_high": ".1%", "mean_advantage": ".3f"}
    parts = [f"{study.counterfactual_games} games of four heuristic players; at every decision with a legal "
             f"fishing move, every legal option was judged by {study.rollouts} paired heuristic rollouts."]
    if not values.empty:
        for by in ("n_blocked", "die", "round"):
            parts.append(markdown_table(best_move_table(values, by), fmt))
        fig = plots.share_plot(best_move_table(values, "n_blocked"), "n_blocked",
                               "share of fishing options that were the best move")
        fig.savefig(folder / "fishing_best_by_blocked.png", dpi=110)
        parts.append("![best by blocked tiles](fishing_best_by_blocked.png)")
    parts += plain_words(values)
    parts.append(write_replay(values, folder))
    sections.append(section("3. When fishing is the best move", *parts))

    log("4/4 robustness: player counts and component variants")
    settings = [(players, None) for players in (2, 3)] + [(4, name) for name in study.variants]
    robust = []
    with step_bar(3 * study.robustness_games * len(settings), "4/4 robustness", "game", progress) as bar:
        for players, name in settings:
            path = None if name is None else str(write_variant(name, folder / "variants"))
            table = arms_comparison("heuristic", players, study.robustness_games, study, components=path,
                                    progress=bar.update)
            table.insert(0, "variant", name or "built-in")
            robust.append(table)
    robustness = stats.paired_table(pd.concat(robust, ignore_index=True))
    arms_csv(robustness).to_csv(folder / "fishing_robustness.csv", index=False)
    sections.append(section(
        "4. Robustness",
        "Heuristic arms (normal vs never, prefer vs normal) with 2 and 3 players, and with 4 players on component "
        "files where one family of INVENTED values is replaced (`borabora_sim.studies.variants`). The p-values and "
        "verdicts are Holm-adjusted over the comparisons of this table.",
        markdown_table(arms_view(robustness), ARM_FORMATS, index=False),
        stats.verdict_lines(robustness, label_columns=("variant", "players", "comparison"))))
    sections.insert(1, section("Answer", answer(arms, robustness, values)))
    sections.append(f"Total run time: {time.perf_counter() - began:.0f} s.")
    report = folder / "fishing_report.md"
    report.write_text("\n\n".join(sections) + "\n")
    log(f"report written to {report}")
    return report


def sized(size: str, **overrides: Any) -> FishingStudy:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
    return replace(SIZES[size], **overrides)

