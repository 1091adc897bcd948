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

import numpy as np
import pandas as pd

from borabora_sim import _engine, stats
from borabora_sim.game import BoraBora
from borabora_sim.players import make_player
from borabora_sim.simulate import player_seed
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
    players = [make_player(spec, player_seed(game_seed, s)) for s, spec in enumerate(specs)]
    starts: dict[int, _engine.State] = {}
    while not state.is_terminal():
        if state.decision == "die" and state.round not in starts:
            starts[state.round] = state.clone()
        state.apply(players[state.current_player].choose(state))
    return [starts[r] for r in sorted(starts)]


def priest_values(study: PriestStudy, progress: Callable[[int], None] | None = None) -> pd.DataFrame:
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


def summary(values: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for round_, group in values.groupby("round"):
        mean, lo, hi = stats.mean_interval(group["vp_gain"])
        both = int((group["win_with"] & group["win_without"]).sum())
        with_only = int((group["win_with"] & ~group["win_without"]).sum())
        without_only = int((~group["win_with"] & group["win_without"]).sum())
        neither = len(group) - both - with_only - without_only
        diff, wlo, whi = stats.paired_proportion_difference(both, with_only, without_only, neither)
        rows.append({"round": round_, "pairs": len(group), "vp_gain": mean, "vp_ci_low": lo, "vp_ci_high": hi,
                     "direct_temple_vp": int(group["direct_temple_vp"].iloc[0]), "win_gain": diff,
                     "win_ci_low": wlo, "win_ci_high": whi,
                     "mcnemar_p": stats.mcnemar_exact(with_only, without_only)})
    return pd.DataFrame(rows).set_index("round")


def plain_words(table: pd.DataFrame) -> list[str]:
    lines = []
    for round_, row in table.iterrows():
        enough = row["vp_ci_high"] - row["vp_ci_low"] < max(2.0, abs(row["vp_gain"]))
        lines.append(
            f"A priest gained at the start of round {round_} is worth {row['vp_gain']:+.1f} VP at the end "
            f"(95% CI {row['vp_ci_low']:+.1f} to {row['vp_ci_high']:+.1f}; its direct temple VP is "
            f"{int(row['direct_temple_vp'])}) and {row['win_gain'] * 100:+.1f} points of win rate "
            f"(95% CI {row['win_ci_low'] * 100:+.1f} to {row['win_ci_high'] * 100:+.1f}), "
            f"from {int(row['pairs'])} pairs"
            + ("." if enough else "; the interval is too wide to rank it against other rounds."))
    return lines


def run(study: PriestStudy, out: str | Path, log: Callable[[str], None] = print) -> Path:
    from borabora_sim import plots

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    log(f"playing {study.games} games and {2 * 6 * study.games} continuations")
    values = priest_values(study)
    values.to_parquet(folder / "priest_values.parquet")
    table = summary(values)
    figure = plots.effect_by(values, "round", "vp_gain", reference=0.0,
                             title="VP gained at the end from one extra priest at the start of a round")
    figure.savefig(folder / "priest_vp_by_round.png", dpi=110)
    fmt = {"vp_gain": "+.2f", "vp_ci_low": "+.2f", "vp_ci_high": "+.2f", "win_gain": "+.1%", "win_ci_low": "+.1%",
           "win_ci_high": "+.1%", "mcnemar_p": ".3g"}
    text = "\n\n".join([
        "# How much is a priest worth, by round?",
        f"Study settings: `{asdict(study)}`.",
        section("Method", __doc__.split("\n\n")[1].replace("\n", " ")),
        section("Results", markdown_table(table, fmt), "![VP gain by round](priest_vp_by_round.png)",
                plain_words(table)),
        f"Total run time: {time.perf_counter() - began:.0f} s.",
    ]) + "\n"
    report = folder / "priest_report.md"
    report.write_text(text)
    log(f"report written to {report}")
    return report


def sized(size: str, **overrides: object) -> PriestStudy:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
    overrides.pop("jobs", None)      # this study runs in one process
    return replace(SIZES[size], **overrides)
