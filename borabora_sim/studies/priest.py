"""How much is a priest worth, by round?

From the start of each round of real games (four heuristic players), the game is played to the end twice: once as
it stands and once with one extra priest of the studied player in the temple, placed on the leftmost space as a
temple action would place it (the safest space; the priests there are pushed along the arrows). Both continuations
use the same players with the same seeds, and the dice come from their own generator, so the pair differs only by
the priest. The mean paired difference in final VP (and in win
rate) is what a priest gained at the start of that round is worth, including its indirect effects (the God tile
for the most priests, priest tasks), next to its direct temple VP (the per-priest VP of the scorings still to come).

Run it with `borabora analyze priest --out DIR` (`--size quick|default|full`).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from borabora_sim import _engine, stats
from borabora_sim.game import BoraBora
from borabora_sim.players import make_player
from borabora_sim.simulate import seated_players
from borabora_sim.studies.progress import step_bar
from borabora_sim.studies.report_md import markdown_table, section


@dataclass(frozen=True)
class PriestStudy:
    games: int = 2000                # games whose six round starts are used
    players: int = 4
    spec: str = "heuristic"
    seed: int = 5


SIZES = {
    "quick": PriestStudy(games=12),
    "default": PriestStudy(),
    "full": PriestStudy(games=6000),
}


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


def round_starts(game_seed: int, specs: list[str]) -> list[_engine.State]:
    """Copies of the game at the first die decision of each round."""
    game = BoraBora()
    state = game.new_initial_state(players=len(specs), seed=game_seed)
    players = seated_players(specs, game_seed)
    starts: dict[int, _engine.State] = {}
    while not state.is_terminal():
        if state.decision == "die" and state.round not in starts:
            starts[state.round] = state.clone()
        state.apply(players[state.current_player].choose(state))
    return [starts[r] for r in sorted(starts)]


def priest_values(study: PriestStudy, progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """One row per (game, round): VP and win of the studied seat without and with the extra priest."""
    specs = [study.spec] * study.players
    temple_vp = BoraBora().rules.components.temple_vp_by_round
    rows = []
    for game_id in range(study.games):
        game_seed = int(_engine.derive_seed(study.seed, game_id))
        seat = game_id % study.players
        for start in round_starts(game_seed, specs):
            changed = with_extra_priest(start, seat)
            if changed is None:
                continue
            seeds = [int(_engine.derive_seed(game_seed, 100 * start.round + s)) for s in range(study.players)]
            base = _play_out(start.clone(), specs, seeds)
            more = _play_out(changed, specs, seeds)
            rows.append({"game_id": game_id, "round": start.round, "seat": seat,
                         "vp_without": base.scores()[seat], "vp_with": more.scores()[seat],
                         "win_without": base.winner() == seat, "win_with": more.winner() == seat,
                         "direct_temple_vp": int(np.sum(temple_vp[start.round - 1:]))})
        if progress is not None:
            progress(game_id)
    frame = pd.DataFrame(rows)
    frame["vp_gain"] = frame["vp_with"] - frame["vp_without"]
    frame["win_gain"] = frame["win_with"].astype(int) - frame["win_without"].astype(int)
    return frame


def summary(values: pd.DataFrame, players: int) -> pd.DataFrame:
    """One paired comparison per round (with the extra priest = A, without = B) as a `paired_table`: intervals,
    Holm-adjusted p-values over the rounds and the verdicts worded in the report."""
    rows = []
    for round_, group in values.groupby("round"):
        per_game = pd.DataFrame({"win_a": group["win_with"], "win_b": group["win_without"],
                                 "vp_a": group["vp_with"], "vp_b": group["vp_without"]})
        result = stats.paired_outcomes(per_game, "with the extra priest", "without", baseline=1 / players)
        rows.append({"round": round_, "direct_temple_vp": int(group["direct_temple_vp"].iloc[0]), **asdict(result)})
    return stats.paired_table(pd.DataFrame(rows))


NAMES = {"games": "pairs", "vp_diff": "vp_gain", "vp_diff_ci": "vp_ci", "win_diff": "win_gain", "win_diff_ci": "win_ci"}
CSV_COLUMNS = ("round", "games", "vp_diff", "vp_diff_ci", "wilcoxon_p", "wilcoxon_p_holm", "vp_verdict",
               "direct_temple_vp", "win_diff", "win_diff_ci", "mcnemar_p", "mcnemar_p_holm", "win_verdict", "alpha")
PRINTED = ("round", "pairs", "vp_gain", "vp_ci_low", "vp_ci_high", "wilcoxon_p_holm", "vp_verdict", "direct_temple_vp",
           "win_gain", "win_ci_low", "win_ci_high", "mcnemar_p_holm", "win_verdict")


def summary_view(table: pd.DataFrame) -> pd.DataFrame:
    """The summary under the report's column names with interval bounds as numbers: the CSV file (the report
    prints the PRINTED columns of it)."""
    return stats.interval_columns(table[list(CSV_COLUMNS)].rename(columns=NAMES))


# Each wording opens the parenthesis that holds the interval, with the estimate where the words do not say it.
VP_WORDS = {"A better": "is worth {vp:+.1f} VP at the end (", "A worse": "costs {loss:.1f} VP by the end (",
            "no detectable difference": "makes no detectable difference to the final VP ({vp:+.1f} VP, "}
WIN_WORDS = {"A better": "{win:+.1f} points of win rate (", "A worse": "{loss:.1f} points of win rate fewer (",
             "no detectable difference": "no detectable difference in win rate ({win:+.1f} points, "}


def plain_words(table: pd.DataFrame) -> list[str]:
    """One sentence per round, worded from the Holm-corrected verdicts of `summary` (the table the report
    prints), never from raw p-values or interval signs."""
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
        lines.append(f"Verdicts are at the {table['alpha'].iloc[0]:.0%} level after Holm's correction over the "
                     f"{len(table)} rounds (VP: Wilcoxon signed-rank test; win rate: exact McNemar test); the "
                     "intervals are not adjusted.")
    return lines


def run(study: PriestStudy, out: str | Path, log: Callable[[str], None] = print,
        progress: bool | None = None) -> Path:
    """Runs the study and writes `out`/priest_report.md with a PNG figure and the summary as CSV beside it. The
    games show a progress bar with the time left (`progress`: True, False, or None for only on a terminal)."""
    from borabora_sim import plots

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    log(f"playing {study.games} games and {2 * 6 * study.games} continuations")
    with step_bar(study.games, "priest: games and their continuations", "game", progress) as bar:
        values = priest_values(study, progress=lambda _: bar.update())
    values.to_parquet(folder / "priest_values.parquet")
    table = summary(values, study.players)
    view = summary_view(table)
    view.to_csv(folder / "priest_summary.csv", index=False)
    figure = plots.effect_by(values, "round", "vp_gain", reference=0.0,
                             title="VP gained at the end from one extra priest at the start of a round")
    figure.savefig(folder / "priest_vp_by_round.png", dpi=110)
    fmt = {"vp_gain": "+.2f", "vp_ci_low": "+.2f", "vp_ci_high": "+.2f", "win_gain": "+.1%", "win_ci_low": "+.1%",
           "win_ci_high": "+.1%", "wilcoxon_p_holm": ".3g", "mcnemar_p_holm": ".3g"}
    text = "\n\n".join([
        "# How much is a priest worth, by round?",
        f"Study settings: `{asdict(study)}`.",
        section("Answer", plain_words(table)),
        section("Method", __doc__.split("\n\n")[1].replace("\n", " ")),
        section("Results", "Per round, A = with the extra priest, B = without; p-values and verdicts are "
                "Holm-adjusted over the rounds (`priest_summary.csv` has the raw p-values too).",
                markdown_table(view[list(PRINTED)], fmt, index=False), "![VP gain by round](priest_vp_by_round.png)"),
        f"Total run time: {time.perf_counter() - began:.0f} s.",
    ]) + "\n"
    report = folder / "priest_report.md"
    report.write_text(text)
    log(f"report written to {report}")
    return report


def sized(size: str, **overrides: Any) -> PriestStudy:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
    overrides.pop("jobs", None)      # this study runs in one process
    return replace(SIZES[size], **overrides)
