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

import pandas as pd

from borabora_sim import _engine, stats
from borabora_sim.counterfactual import RolloutJudge, choice_values
from borabora_sim.match import play_game
from borabora_sim.players import make_player
from borabora_sim.simulate import player_seed
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
def fishing_frequency(study: FishingStudy, players: int = 4) -> pd.DataFrame:
    """Every die placement of the MCTS seat (rotating) against heuristic opponents: round, die, fished."""
    mcts = f"mcts:iterations={study.mcts_iterations}"
    rows: list[dict[str, object]] = []
    for game_id in range(study.frequency_games):
        game_seed = int(_engine.derive_seed(study.seed ^ 0xF15, game_id))
        focus = game_id % players
        specs = ["heuristic"] * players
        specs[focus] = mcts

        def log(state: _engine.State, seat: int, action: int, game_id: int = game_id, focus: int = focus) -> None:
            placement = _engine.die_placement(action)
            if seat == focus and placement is not None:
                rows.append({"game_id": game_id, "round": state.round, "die": placement[0],
                             "fished": placement[1] == "fishing"})

        play_game([make_player(spec, player_seed(game_seed, s)) for s, spec in enumerate(specs)], game_seed,
                  on_decision=log)
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


def arms_comparison(family: str, players: int, games: int, study: FishingStudy,
                    components: str | None = None) -> pd.DataFrame:
    """Paired comparisons of normal vs never and prefer vs normal for the studied player."""
    runs = {fishing: stats.simulate_arm(arm_players(family, fishing, players, study), games, study.seed,
                                        n_jobs=study.jobs, components=components)
            for fishing in ("never", "normal", "prefer")}
    rows = []
    for a, b in (("normal", "never"), ("prefer", "normal")):
        result = stats.paired_compare(runs[a], runs[b], focus_a=arm_players(family, a, players, study)[0],
                                      focus_b=arm_players(family, b, players, study)[0])
        rows.append({"family": family, "players": players, "comparison": f"{a} - {b}", **asdict(result)})
    return pd.DataFrame(rows)


ARM_COLUMNS = ("family", "players", "comparison", "games", "win_a", "win_b", "win_diff", "win_diff_ci", "mcnemar_p",
               "vp_a", "vp_b", "vp_diff", "vp_diff_ci", "wilcoxon_p")


def arms_view(frame: pd.DataFrame) -> pd.DataFrame:
    """The columns of a paired comparison worth printing, intervals as text."""
    columns = [c for c in ("variant", *ARM_COLUMNS) if c in frame.columns]
    view = frame[columns].copy()
    for column in ("win_diff_ci", "vp_diff_ci"):
        scale, unit = (100, " pts") if column.startswith("win") else (1, "")
        view[column] = [f"{lo * scale:+.1f} to {hi * scale:+.1f}{unit}" for lo, hi in view[column]]
    return view


# =============================================================================
# 3. When is fishing the best move?
# =============================================================================
def counterfactual(study: FishingStudy) -> pd.DataFrame:
    judge = RolloutJudge(rollouts=study.rollouts, rollout="heuristic")
    return choice_values(study.counterfactual_games, ["heuristic"] * 4, seed=study.seed ^ 0xCF, judge=judge)


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
        top = table["share"].idxmax()
        bottom = table["share"].idxmin()
        lines.append(f"By {label}: most often best at {by} = {top} ({table.loc[top, 'share']:.1%} of "
                     f"{int(table.loc[top, 'situations'])}), least often at {by} = {bottom} "
                     f"({table.loc[bottom, 'share']:.1%} of {int(table.loc[bottom, 'situations'])}).")
    return lines


def _effect(row: pd.Series) -> str:
    lo, hi = row["win_diff_ci"]
    return (f"{row['win_diff'] * 100:+.1f} win-rate points (95% CI {lo * 100:+.1f} to {hi * 100:+.1f}) and "
            f"{row['vp_diff']:+.1f} VP over {int(row['games']):,} paired games")


def _verdict(row: pd.Series) -> str:
    lo, hi = row["win_diff_ci"]
    if hi < 0:
        return "costs wins"
    if lo > 0:
        return "wins more"
    return "makes no detectable difference (the interval contains zero: the evidence is not enough)"


def answer(arms: pd.DataFrame, robustness: pd.DataFrame, values: pd.DataFrame) -> list[str]:
    """The study's answer in plain words, from its own numbers."""
    lines = []
    for family in ("heuristic", "mcts"):
        rows = arms[arms["family"] == family].set_index("comparison")
        if "normal - never" in rows.index:
            row = rows.loc["normal - never"]
            lines.append(f"For the {family} player, allowing fishing rather than forbidding it {_verdict(row)}: "
                         f"{_effect(row)}.")
        if "prefer - normal" in rows.index:
            row = rows.loc["prefer - normal"]
            lines.append(f"Preferring fishing rather than allowing it {_verdict(row)}: {_effect(row)}.")
    normal = robustness[robustness["comparison"] == "normal - never"]
    if not normal.empty:
        signs = {_verdict(row).split(" (")[0] for _, row in normal.iterrows()}
        lines.append(f"Across 2 and 3 players and {len(normal) - 2} component variants, allowing fishing "
                     f"{' / '.join(sorted(signs))} for the heuristic player.")
    if not values.empty:
        late = values[values["round"] == values["round"].max()]["best_overall"].mean()
        early = values[values["round"] == values["round"].min()]["best_overall"].mean()
        low = values[values["die"] == values["die"].min()]["best_overall"].mean()
        high = values[values["die"] == values["die"].max()]["best_overall"].mean()
        many = values[values["n_blocked"] >= 4]["best_overall"]
        few = values[values["n_blocked"] <= 1]["best_overall"]
        blocked = (f"; blocked on 4 or more action tiles: {many.mean():.0%} of {len(many)}, on at most one: "
                   f"{few.mean():.0%} of {len(few)}" if len(many) and len(few) else "")
        lines.append(f"Fishing is still sometimes the best move: in {values['best_overall'].mean():.0%} of the "
                     f"{len(values):,} judged fishing options; by round {values['round'].max()}: {late:.0%} "
                     f"(round {values['round'].min()}: {early:.0%}); with a {values['die'].min()}: {low:.0%} "
                     f"(a {values['die'].max()}: {high:.0%}){blocked}.")
    lines.append("These players are imperfect: the arms say what fishing does for players who decide as these "
                 "do, not what perfect play would gain. The MCTS rows use few iterations; `--size full` runs "
                 "more games and a stronger MCTS.")
    return lines


# =============================================================================
# The whole study
# =============================================================================
def run(study: FishingStudy, out: str | Path, log: Callable[[str], None] = print) -> Path:
    """Runs every part and writes `out`/fishing_report.md with PNG figures beside it."""
    from borabora_sim import plots

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    sections = [f"# Is the fishing space ever worth it?\n\nStudy settings: `{asdict(study)}`."]

    log("1/4 how often MCTS fishes")
    frequency = fishing_frequency(study)
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
    arms = pd.concat([arms_comparison("heuristic", 4, study.heuristic_games, study),
                      arms_comparison("mcts", 4, study.mcts_games, study)], ignore_index=True)
    arms_view(arms).to_csv(folder / "fishing_arms.csv", index=False)
    fig = plots.effect_plot(arms, label_columns=("family", "comparison"))
    fig.savefig(folder / "fishing_arms.png", dpi=110)
    sections.append(section(
        "2. Forbidding, allowing, preferring fishing (paired arms)",
        "Each arm plays the same game seeds and seat rotations; only the studied player's fishing policy "
        "differs, so each seed is a pair. Win-rate differences use the paired design (exact McNemar test, Newcombe "
        "interval); VP differences a paired t interval and the Wilcoxon signed-rank test.",
        markdown_table(arms_view(arms), {"win_a": ".1%", "win_b": ".1%", "win_diff": "+.1%", "mcnemar_p": ".3g",
                                         "vp_diff": "+.2f", "wilcoxon_p": ".3g"}, index=False),
        "![arms](fishing_arms.png)", stats.verdict_lines(arms, label_columns=("family", "players", "comparison"))))

    log("3/4 when fishing is the best move")
    values = counterfactual(study)
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
    sections.append(section("3. When fishing is the best move", *parts))

    log("4/4 robustness: player counts and component variants")
    robust = []
    for players in (2, 3):
        robust.append(arms_comparison("heuristic", players, study.robustness_games, study))
    for name in study.variants:
        path = write_variant(name, folder / "variants")
        table = arms_comparison("heuristic", 4, study.robustness_games, study, components=str(path))
        table.insert(0, "variant", name)
        robust.append(table)
    robustness = pd.concat(robust, ignore_index=True)
    robustness["variant"] = robustness["variant"].fillna("built-in")
    robustness.to_parquet(folder / "fishing_robustness.parquet")
    sections.append(section(
        "4. Robustness",
        "Heuristic arms (normal vs never, prefer vs normal) with 2 and 3 players, and with 4 players on component "
        "files where one family of INVENTED values is replaced (`borabora_sim.studies.variants`).",
        markdown_table(arms_view(robustness), {"win_a": ".1%", "win_b": ".1%", "win_diff": "+.1%",
                                               "mcnemar_p": ".3g", "vp_diff": "+.2f", "wilcoxon_p": ".3g"},
                       index=False),
        stats.verdict_lines(robustness, label_columns=("variant", "players", "comparison"))))
    sections.insert(1, section("Answer", answer(arms, robustness, values)))
    sections.append(f"Total run time: {time.perf_counter() - began:.0f} s.")
    report = folder / "fishing_report.md"
    report.write_text("\n\n".join(sections) + "\n")
    log(f"report written to {report}")
    return report


def sized(size: str, **overrides: object) -> FishingStudy:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
    return replace(SIZES[size], **overrides)

