"""Is the fishing space ever worth it?

The fishing space takes any die, ignores the strictly-lower rule and pays 2 VP. This study answers, with
intervals and sample sizes stated, for players of rising strength (the rungs of `studies.strength`: the balanced
and tuned heuristics, the learned player, MCTS at two budgets, each in the studied seat against three balanced
heuristics):

1. how often each player fishes, by round and by die value;
2. the win-rate and VP effect of forbidding, allowing and preferring fishing for each player, on paired arms
   (same game seeds and seat rotations; only the studied player's fishing policy differs), and whether the sign
   and size of each effect hold as the player gets stronger;
3. the situations in which fishing is the best move, from paired-rollout judgements of every legal option by the
   strongest affordable judge, and how often a weaker judge agrees;
4. robustness: for 2, 3 and 4 players, and with the INVENTED component values swapped for alternatives.

Run it with `borabora analyze fishing --out DIR` (or `python analysis/fishing.py`); `--size quick|default|full`,
`--rungs heuristic,learned,...`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from borabora_sim import _engine, experiments, stats, verdicts
from borabora_sim.counterfactual import RolloutJudge, judge_game
from borabora_sim.games import get_game
from borabora_sim.games.bora_bora.game import is_fishing
from borabora_sim.games.bora_bora.situations import die_situation
from borabora_sim.games.bora_bora.variants import VARIANTS, write_variant
from borabora_sim.match import play_game
from borabora_sim.protocol import GameState
from borabora_sim.simulate import seated_players
from borabora_sim.studies import strength
from borabora_sim.studies.progress import step_bar
from borabora_sim.studies.report_md import markdown_table, section


@dataclass(frozen=True)
class FishingStudy:
    """Sizes of each part. Arms are paired on the same seeds; `games` per arm for the rungs that do not search,
    `search_games` for the MCTS rungs; `frequency_games` per rung; the counterfactual's first `agreement_games`
    games are judged by the weaker judge too."""

    rungs: tuple[str, ...] = strength.RUNG_LABELS
    games: int = 2000
    search_games: int = 60
    frequency_games: int = 24
    counterfactual_games: int = 12
    agreement_games: int = 6
    rollouts: int = 48
    robustness_games: int = 600
    variants: tuple[str, ...] = tuple(VARIANTS)
    jobs: int = -1
    seed: int = 2013

    def __post_init__(self) -> None:
        object.__setattr__(self, "rungs", strength.check_rungs(self.rungs))
        if not 0 <= self.agreement_games <= self.counterfactual_games:
            raise ValueError(f"agreement_games must be between 0 and counterfactual_games "
                             f"({self.counterfactual_games}), got {self.agreement_games}")

    def games_for(self, label: str) -> int:
        return self.search_games if strength.rung(label).searches else self.games


SIZES = {
    "quick": FishingStudy(rungs=("heuristic", "learned", "mcts100"), games=40, search_games=4, frequency_games=2,
                          counterfactual_games=2, agreement_games=1, rollouts=8, robustness_games=24,
                          variants=("fish_rich",), jobs=1),
    "default": FishingStudy(),
    "full": FishingStudy(games=20000, search_games=1000, frequency_games=100, counterfactual_games=150,
                         agreement_games=50, rollouts=128, robustness_games=8000),
}
STRONG_JUDGE, WEAK_JUDGE = "tuned", "balanced"       # the heuristic styles that play the judges' rollouts

def _in_parallel(tasks: Iterable[Any], jobs: int, progress: Callable[[int], object] | None) -> list[Any]:
    """The results of joblib `delayed` tasks in order, calling `progress(1)` as each arrives."""
    results = []
    for result in Parallel(n_jobs=jobs, return_as="generator")(tasks):
        results.append(result)
        if progress is not None:
            progress(1)
    return results


# =============================================================================
# 1. How often each player fishes
# =============================================================================
def _frequency_game(spec: str, game_id: int, seed: int, players: int) -> list[dict[str, object]]:
    game_seed = int(_engine.derive_seed(seed ^ 0xF15, game_id))
    focus = game_id % players
    specs = [strength.OPPONENT] * players
    specs[focus] = spec
    rows: list[dict[str, object]] = []

    def log(state: GameState, seat: int, action: int) -> None:
        placement = _engine.die_placement(action)
        if seat == focus and placement is not None:
            rows.append({"game_id": game_id, "round": state.round, "die": placement[0],
                         "fished": placement[1] == "fishing"})

    play_game(seated_players(specs, game_seed), game_seed, on_decision=log)
    return rows


def fishing_frequency(study: FishingStudy, label: str, players: int = 4,
                      progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """Every die placement of the rung's player (in a rotating seat, against heuristic opponents): rung, game,
    round, die, fished. `progress(1)` is called after each game."""
    spec = strength.rung(label).spec
    games = _in_parallel((delayed(_frequency_game)(spec, game_id, study.seed, players)
                          for game_id in range(study.frequency_games)), study.jobs, progress)
    return pd.DataFrame([{"rung": label, **row} for rows in games for row in rows])


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


def frequency_view(frequency: pd.DataFrame, by: str) -> pd.DataFrame:
    """One row per value of `by`, one column per rung: the share of die placements on fishing with its Wilson
    95% interval, as text."""
    columns = {}
    for label, group in frequency.groupby("rung", sort=False):
        table = share_table(group, by)
        columns[label] = pd.Series([f"{share:.0%} ({lo:.0%}-{hi:.0%}) of {n}" for share, lo, hi, n in zip(
            table["share"], table["ci_low"], table["ci_high"], table["placements"], strict=True)], index=table.index)
    return pd.DataFrame(columns).fillna("-")


# =============================================================================
# 2. Paired arms for each player: never / normal / prefer
# =============================================================================
COMPARISONS = (("normal", "never"), ("prefer", "normal"))


def arms_comparison(label: str, players: int, games: int, study: FishingStudy, components: str | None = None,
                    progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """Paired comparisons of normal vs never and prefer vs normal for the rung's player, one `asdict` row of a
    `PairedResult` each. `progress(games)` is called after each of the three arm runs."""
    runs = {}
    for fishing in ("never", "normal", "prefer"):
        runs[fishing] = experiments.simulate_arm(strength.rung_players(label, players, fishing=fishing), games,
                                                 study.seed, n_jobs=study.jobs, components=components)
        if progress is not None:
            progress(games)
    rows = []
    for a, b in COMPARISONS:
        result = stats.paired_compare(runs[a], runs[b], focus=[0])
        rows.append({"rung": label, "players": players, "comparison": f"{a} - {b}", **asdict(result)})
    return pd.DataFrame(rows)


def strength_table(arms: pd.DataFrame) -> pd.DataFrame:
    """Each rung's strength as measured by the study: the win rate of its player with fishing allowed (the
    normal arm) against the three heuristics, with the Wilson interval."""
    rows = arms[arms["comparison"] == "normal - never"]
    return pd.DataFrame([strength.strength_row(row["rung"], int(row["both"] + row["a_only"]), int(row["games"]))
                         for _, row in rows.iterrows()]).set_index("rung")


def effect_changes(arms: pd.DataFrame, metric: str = "win") -> pd.DataFrame:
    """How each comparison's effect moves from the weakest rung measured to every stronger one
    (`stats.effect_changes`, Holm over the changes of this metric)."""
    return stats.effect_changes(arms, "rung", arms["rung"].iloc[0], within=("comparison",), metric=metric)


ARM_COLUMNS = ("rung", "players", "comparison", "games", "win_a", "win_b", "win_diff", "win_diff_ci",
               "mcnemar_p_holm", "win_verdict", "vp_a", "vp_b", "vp_diff", "vp_diff_ci", "wilcoxon_p_holm",
               "vp_verdict")
CSV_COLUMNS = ("rung", "players", "comparison", "games", "win_a", "win_b", "win_diff", "win_diff_ci", "mcnemar_p",
               "mcnemar_p_holm", "win_verdict", "vp_a", "vp_b", "vp_diff", "vp_diff_ci", "wilcoxon_p",
               "wilcoxon_p_holm", "vp_verdict", "alpha")
ARM_FORMATS = {"win_a": ".1%", "win_b": ".1%", "win_diff": "+.1%", "mcnemar_p_holm": ".3g", "vp_diff": "+.2f",
               "wilcoxon_p_holm": ".3g"}


def _columns(table: pd.DataFrame, names: tuple[str, ...]) -> list[str]:
    return [c for c in ("variant", *names) if c in table.columns]


def _interval_text(interval: tuple[float, float], scale: float, unit: str) -> str:
    return f"{interval[0] * scale:+.1f} to {interval[1] * scale:+.1f}{unit}"


def arms_view(table: pd.DataFrame) -> pd.DataFrame:
    """The columns of a `paired_table` worth printing in the report, intervals as text."""
    view = table[_columns(table, ARM_COLUMNS)].copy()
    view["win_diff_ci"] = [_interval_text(ci, 100, " pts") for ci in view["win_diff_ci"]]
    view["vp_diff_ci"] = [_interval_text(ci, 1, "") for ci in view["vp_diff_ci"]]
    return view


def changes_view(changes: pd.DataFrame, metric: str) -> pd.DataFrame:
    scale, unit = (100, " pts") if metric == "win" else (1, " VP")
    view = changes[["comparison", "rung", "reference", "reference_effect", "effect", "change", "change_ci",
                    "change_p_holm", "change_verdict"]].copy()
    for column in ("reference_effect", "effect", "change"):
        view[column] = [f"{value * scale:+.1f}{unit}" for value in view[column]]
    view["change_ci"] = [_interval_text(ci, scale, unit) for ci in view["change_ci"]]
    return view


def arms_csv(table: pd.DataFrame) -> pd.DataFrame:
    """A `paired_table` for a CSV file: raw and Holm-adjusted p-values, verdicts, interval bounds as numbers."""
    return stats.interval_columns(table[_columns(table, CSV_COLUMNS)])


# =============================================================================
# 3. When is fishing the best move?
# =============================================================================
COUNTERFACTUAL_PLAYERS = ("heuristic",) * 4
REPLAY = "fishing_replay.html"


def judge(study: FishingStudy, style: str) -> RolloutJudge:
    """Paired rollouts played to the end by heuristics of `style`: STRONG_JUDGE's rollouts are played by the
    tuned heuristic, which the ladder rates above the balanced one that plays WEAK_JUDGE's."""
    return RolloutJudge(rollouts=study.rollouts, rollout="heuristic", style=style)


def counterfactual(study: FishingStudy, style: str = STRONG_JUDGE, games: int | None = None,
                   progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """Every legal fishing option of the first `games` (default all) counterfactual games, judged by the judge
    of `style` against every other legal option (`counterfactual.choice_values` rows). The games are the same
    for every judge. `progress(1)` is called after each game."""
    count = study.counterfactual_games if games is None else games
    rows = _in_parallel((delayed(_judged_game)(game_id, study.seed ^ 0xCF, judge(study, style))
                         for game_id in range(count)), study.jobs, progress)
    return pd.DataFrame([row for game in rows for row in game])


def _judged_game(game_id: int, seed: int, rollout_judge: RolloutJudge) -> list[dict[str, Any]]:
    return judge_game(get_game(), game_id, COUNTERFACTUAL_PLAYERS, seed, is_fishing, die_situation,
                      judge=rollout_judge)


@dataclass(frozen=True)
class JudgeAgreement:
    """The two judges on the same fishing options: how often both, either or neither call fishing the best
    legal move, and the paired difference of those shares (strong - weak)."""

    options: int
    both: int
    strong_only: int
    weak_only: int
    neither: int
    agreement: float
    agreement_ci: tuple[float, float]
    kappa: float
    strong_share: float
    weak_share: float
    difference: float
    difference_ci: tuple[float, float]
    mcnemar_p: float
    advantage_correlation: float


def judge_agreement(strong: pd.DataFrame, weak: pd.DataFrame) -> JudgeAgreement | None:
    """The agreement of the two judges on the options both judged (None if there are none)."""
    keys = ["game_id", "decision", "option"]
    both_judged = strong.merge(weak, on=keys, suffixes=("_strong", "_weak")) if len(weak) else pd.DataFrame()
    if both_judged.empty:
        return None
    a, b = both_judged["best_overall_strong"].to_numpy(bool), both_judged["best_overall_weak"].to_numpy(bool)
    counts = int((a & b).sum()), int((a & ~b).sum()), int((~a & b).sum()), int((~a & ~b).sum())
    n = len(both_judged)
    agree = counts[0] + counts[3]
    expected = (a.mean() * b.mean()) + ((1 - a.mean()) * (1 - b.mean()))
    diff, lo, hi = stats.paired_proportion_difference(*counts, stats.Z95)
    correlation = np.corrcoef(both_judged["advantage_strong"], both_judged["advantage_weak"])[0, 1] if n > 1 else 1.0
    return JudgeAgreement(
        options=n, both=counts[0], strong_only=counts[1], weak_only=counts[2], neither=counts[3],
        agreement=agree / n, agreement_ci=stats.wilson_interval(agree, n),
        kappa=float((agree / n - expected) / (1 - expected)) if expected < 1 else 1.0,
        strong_share=float(a.mean()), weak_share=float(b.mean()), difference=diff, difference_ci=(lo, hi),
        mcnemar_p=stats.mcnemar_exact(counts[1], counts[2]), advantage_correlation=float(correlation))


def agreement_words(agreement: JudgeAgreement | None) -> str:
    """The judges' agreement in one sentence; the difference of their shares is named only if the exact
    McNemar test detects it at the 5% level."""
    if agreement is None:
        return "No fishing option was judged by both judges, so their agreement was not measured."
    lo, hi = agreement.agreement_ci
    dlo, dhi = agreement.difference_ci
    detected = agreement.mcnemar_p < 0.05
    shares = (f"the strong judge calls fishing the best move {'more' if agreement.difference > 0 else 'less'} "
              f"often than the weak one" if detected else "the two judges call fishing the best move about "
              "equally often (no detectable difference)")
    return (f"On the {agreement.options:,} fishing options judged both by the strong judge (rollouts played by the "
            f"{STRONG_JUDGE} heuristic) and by the weak one (the {WEAK_JUDGE} heuristic), the judges agree on "
            f"whether fishing is the best move in "
            f"{agreement.agreement:.0%} (95% CI {lo:.0%}-{hi:.0%}; Cohen's kappa {agreement.kappa:.2f}; the "
            f"correlation of their fishing advantages {agreement.advantage_correlation:.2f}); {shares}: "
            f"{agreement.strong_share:.0%} against {agreement.weak_share:.0%}, a difference of "
            f"{100 * agreement.difference:+.1f} points (95% CI {100 * dlo:+.1f} to {100 * dhi:+.1f}, exact McNemar "
            f"p = {agreement.mcnemar_p:.2g}).")


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
    return (f"Across the {len(rows)} robustness settings ({'; '.join(settings)}; the heuristic player), "
            f"{POLICIES[comparison]} gave {tally} (Holm's correction over the {len(robustness)} robustness "
            "comparisons).")


def precision_sentence(arms: pd.DataFrame, goal: float = strength.TARGET_HALF_WIDTH) -> str:
    """How precisely each rung's effect of allowing fishing is measured, against the goal half-width."""
    rows = arms[arms["comparison"] == "normal - never"]
    halves = {row["rung"]: (row["win_diff_ci"][1] - row["win_diff_ci"][0]) / 2 for _, row in rows.iterrows()}
    met = [label for label, half in halves.items() if half <= goal]
    listing = ", ".join(f"{label} +/- {100 * half:.1f}" for label, half in halves.items())
    strongest = f"the strongest that does is {met[-1]}" if met else "none does"
    return (f"Half-widths of the win-rate intervals of allowing fishing (points): {listing}; the goal is "
            f"+/- {100 * goal:.0f}, and {strongest}.")


def answer(arms: pd.DataFrame, changes: pd.DataFrame, robustness: pd.DataFrame, values: pd.DataFrame,
           agreement: JudgeAgreement | None = None) -> list[str]:
    """The study's answer in plain words. Every effect is worded from the Holm-corrected verdicts of the tables
    the report prints: the `paired_table`s `arms` (one row per rung and comparison) and `robustness`, and the
    win-rate `changes` of each effect from the weakest rung (`effect_changes`); never from raw p-values or
    interval signs."""
    lines = []
    for comparison, policy in POLICIES.items():
        rows = arms[arms["comparison"] == comparison]
        if len(rows):
            moved = changes[changes["comparison"] == comparison] if len(changes) else changes
            lines += strength.across_strength(rows, moved, policy[0].upper() + policy[1:])
    if len(arms):
        strongest = arms["rung"].iloc[-1]
        rows = arms[arms["rung"] == strongest].set_index("comparison")
        spec = strength.rung(strongest).spec
        for comparison, policy in POLICIES.items():
            if comparison in rows.index:
                lines.append(f"For the strongest player measured ({strongest}, `{spec}`), {policy} "
                             f"{_effects(cast(pd.Series, rows.loc[comparison]))}.")
        lines.append(f"Verdicts are at the {arms['alpha'].iloc[0]:.0%} level after Holm's correction over the "
                     f"{len(arms)} comparisons of section 2 (and, for the changes with strength, over the "
                     f"{len(changes)} changes); the intervals are not adjusted. {precision_sentence(arms)}")
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
        lines.append(f"Judged by the strong judge, fishing is still sometimes the best move: in "
                     f"{values['best_overall'].mean():.0%} (95% CI {lo:.0%}-{hi:.0%}) of the {len(values):,} judged "
                     f"fishing options; by round {values['round'].max()}: {late:.0%} (round "
                     f"{values['round'].min()}: {early:.0%}); with a {values['die'].min()}: {low:.0%} (a "
                     f"{values['die'].max()}: {high:.0%}){blocked}.")
        lines.append(agreement_words(agreement))
    lines.append("Every player here is imperfect, and each plays against three balanced heuristics: an effect says "
                 "what fishing does for a player who decides as that one does, not what perfect play would gain. "
                 "The answers rest on the built-in component file, several of whose values are INVENTED (the "
                 "fish tiles' among them); section 4 replaces them for the heuristic player only.")
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
    players = "; ".join(f"{label}: `{strength.rung(label).spec}`" for label in study.rungs)
    opponents = f"three `{strength.OPPONENT}` (balanced) heuristics"

    log("1/4 how often each player fishes")
    with step_bar(study.frequency_games * len(study.rungs), "1/4 how often each player fishes", "game",
                  progress) as bar:
        frequency = pd.concat([fishing_frequency(study, label, progress=bar.update) for label in study.rungs],
                              ignore_index=True)
    by_round = pd.concat([share_table(group, "round").assign(rung=label)
                          for label, group in frequency.groupby("rung", sort=False)])
    fig = plots.share_plot(by_round, "round", "share of die placements on fishing", hue="rung")
    fig.savefig(folder / "fishing_by_round.png", dpi=110)
    sections.append(section(
        "1. How often each player fishes",
        f"Each player ({players}) in one seat (rotated) against {opponents}, {study.frequency_games} games each, "
        f"{len(frequency)} die placements in all. Each cell: the share of the player's die placements on the "
        "fishing space (Wilson 95% interval) of the placements counted.",
        markdown_table(frequency_view(frequency, "round")), markdown_table(frequency_view(frequency, "die")),
        "![by round](fishing_by_round.png)"))

    log("2/4 paired arms: never / normal / prefer, for each player")
    frames = []
    for label in study.rungs:
        games = study.games_for(label)
        with step_bar(3 * games, f"2/4 paired arms, {label}", "game", progress) as bar:
            frames.append(arms_comparison(label, 4, games, study, progress=bar.update))
    arms = stats.paired_table(pd.concat(frames, ignore_index=True))
    arms_csv(arms).to_csv(folder / "fishing_arms.csv", index=False)
    strengths = strength_table(arms)
    strengths.to_csv(folder / "fishing_strength.csv")
    changes = effect_changes(arms, "win") if len(study.rungs) > 1 else pd.DataFrame()
    vp_changes = effect_changes(arms, "vp") if len(study.rungs) > 1 else pd.DataFrame()
    if len(changes):
        stats.interval_columns(pd.concat([changes.assign(metric="win"), vp_changes.assign(metric="vp")])).to_csv(
            folder / "fishing_changes.csv", index=False)
    fig = plots.effect_plot(arms, label_columns=("rung", "comparison"))
    fig.savefig(folder / "fishing_arms.png", dpi=110)
    parts = [
        f"The players: {players}; each sits in one seat (rotated over the games) against {opponents}. Each arm "
        "plays the same game seeds and seat rotations; only the studied player's fishing policy differs, so each "
        "seed is a pair. Win-rate differences use the paired design (exact McNemar test, Newcombe interval); VP "
        "differences a paired t interval and the Wilcoxon signed-rank test. The p-values and verdicts are "
        "Holm-adjusted over the comparisons of this table (`fishing_arms.csv` has the raw p-values too).",
        "Each player's strength as this study measured it: its win rate with fishing allowed against the three "
        "heuristics (25% = equal to them; `fishing_strength.csv`).",
        markdown_table(strengths, {"win_rate": ".1%", "ci_low": ".1%", "ci_high": ".1%"}),
        markdown_table(arms_view(arms), ARM_FORMATS, index=False),
        "![arms](fishing_arms.png)", verdicts.verdict_lines(arms, label_columns=("rung", "players", "comparison"))]
    if len(changes):
        parts += [
            f"How each effect moves as the player gets stronger: the effect for each player minus the effect for "
            f"the weakest ({study.rungs[0]}), with a normal interval from the two rows' own standard errors (the "
            "rows are treated as independent samples); p-values and verdicts Holm-adjusted over the changes of "
            "each metric (`fishing_changes.csv`).",
            markdown_table(changes_view(changes, "win"), {"change_p_holm": ".3g"}, index=False),
            markdown_table(changes_view(vp_changes, "vp"), {"change_p_holm": ".3g"}, index=False)]
    sections.append(section("2. Forbidding, allowing, preferring fishing, for players of rising strength", *parts))

    log("3/4 when fishing is the best move")
    with step_bar(study.counterfactual_games + study.agreement_games, "3/4 when fishing is the best move", "game",
                  progress) as bar:
        values = counterfactual(study, STRONG_JUDGE, progress=bar.update)
        weak = counterfactual(study, WEAK_JUDGE, study.agreement_games, progress=bar.update)
    values.to_parquet(folder / "fishing_counterfactual.parquet")
    agreement = judge_agreement(values, weak)
    fmt = {"share": ".1%", "ci_low": ".1%", "ci_high": ".1%", "mean_advantage": ".3f"}
    parts = [f"{study.counterfactual_games} games of four heuristic players; at every decision with a legal "
             f"fishing move, every legal option was judged by {study.rollouts} paired rollouts played to the end by "
             f"the {STRONG_JUDGE} heuristic (the strong judge). The first {study.agreement_games} games were judged "
             f"again by rollouts of the {WEAK_JUDGE} heuristic (the weak judge), to measure their agreement."]
    if not values.empty:
        for by in ("n_blocked", "die", "round"):
            parts.append(markdown_table(best_move_table(values, by), fmt))
        fig = plots.share_plot(best_move_table(values, "n_blocked"), "n_blocked",
                               "share of fishing options that were the best move")
        fig.savefig(folder / "fishing_best_by_blocked.png", dpi=110)
        parts.append("![best by blocked tiles](fishing_best_by_blocked.png)")
    parts += plain_words(values)
    parts.append(agreement_words(agreement))
    parts.append(write_replay(values, folder))
    sections.append(section("3. When fishing is the best move", *parts))

    log("4/4 robustness: player counts and component variants")
    settings = [(count, None) for count in (2, 3)] + [(4, name) for name in study.variants]
    robust = []
    with step_bar(3 * study.robustness_games * len(settings), "4/4 robustness", "game", progress) as bar:
        for count, name in settings:
            path = None if name is None else str(write_variant(name, folder / "variants"))
            table = arms_comparison("heuristic", count, study.robustness_games, study, components=path,
                                    progress=bar.update)
            table.insert(0, "variant", name or "built-in")
            robust.append(table)
    robustness = stats.paired_table(pd.concat(robust, ignore_index=True))
    arms_csv(robustness).to_csv(folder / "fishing_robustness.csv", index=False)
    sections.append(section(
        "4. Robustness",
        "Heuristic arms (normal vs never, prefer vs normal) with 2 and 3 players, and with 4 players on component "
        "files where one family of INVENTED values is replaced (`borabora_sim.games.bora_bora.variants`). The "
        "p-values and verdicts are Holm-adjusted over the comparisons of this table.",
        markdown_table(arms_view(robustness), ARM_FORMATS, index=False),
        verdicts.verdict_lines(robustness, label_columns=("variant", "players", "comparison"))))
    sections.insert(1, section("Answer", answer(arms, changes, robustness, values, agreement)))
    sections.append(f"Total run time: {time.perf_counter() - began:.0f} s.")
    report = folder / "fishing_report.md"
    report.write_text("\n\n".join(sections) + "\n")
    log(f"report written to {report}")
    return report


def sized(size: str, **overrides: Any) -> FishingStudy:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
    return replace(SIZES[size], **overrides)


__all__ = ["FishingStudy", "answer", "run", "sized"]
