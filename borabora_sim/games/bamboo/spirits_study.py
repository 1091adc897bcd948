"""What is each Spirit of the Forest worth, and are the fallbacks of Balance and Improve Your Home ever the best
choice? (Bamboo)

1. Spirits. Real games are played (four heuristic players; and, on fewer games, one MCTS seat among heuristic
   players). After each Autumn, every spirit tile a studied seat has just won gives a pair of continuations from
   the first decision after that Autumn: the game as it stands (with the spirit) and the same state with that one
   tile moved from the seat to the tiles removed from the game (without it), as a spirit won by the 2-player ghost
   or offered no incense is removed (B29). The saved state (to_dict / from_dict) differs only there. Both
   continuations are played by the same players with the same seeds on the same chance stream, so the pair
   differs only by the spirit. The paired differences in final HP (t interval, Wilcoxon test) and in first place
   (Newcombe interval, exact McNemar test) are what a spirit won in that round's Autumn is worth to the seat that
   won it, its variety HP at the end included; the gain less the difference in variety HP is what its power
   brought. Each game gives at most one pair per spirit and round.
2. Fallbacks. In other heuristic games, at every decision where "balance 1 HP" or "improve 1 coin" is legal
   beside other options, every legal option is judged by the same paired heuristic rollouts
   (borabora_sim.counterfactual): is the fallback strictly the best, tied for best, and by how much, by round and
   situation. The fallback and the best other option are then judged again on fresh rollouts, which gives its
   advantage without the bias of having picked the best of several noisy values.
3. INVENTED data. Parts 1 (heuristic) and 2 run again on component files where one family of INVENTED values is
   replaced (borabora_sim.games.bamboo.variants).

Run it with `borabora analyze spirits --out DIR` (or `python analysis/spirits.py`); `--size quick|default|full`.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from borabora_sim import stats
from borabora_sim.counterfactual import RolloutJudge, judge_game, score_gap
from borabora_sim.games import get_game
from borabora_sim.games.bamboo.variants import VARIANTS, write_variant
from borabora_sim.players import make_player
from borabora_sim.protocol import Game, GameState
from borabora_sim.simulate import player_seed
from borabora_sim.studies.progress import step_bar
from borabora_sim.studies.report_md import markdown_table, section

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from borabora_sim.games.bamboo.components import BambooComponents
    from borabora_sim.games.bamboo.game import Bamboo

FALLBACKS = ("balance 1 HP", "improve 1 coin")
BUILT_IN = "built-in"


@dataclass(frozen=True)
class SpiritsStudy:
    """Sizes of each part. `games` heuristic games give the spirit pairs; `strong_games` games with one
    `strong_spec` seat (rotating) give the pairs of the stronger rung; `counterfactual_games` games are judged
    with `rollouts` paired rollouts per option; each variant repeats both at `variant_games` and
    `variant_counterfactual_games`."""

    games: int = 800
    players: int = 4
    spec: str = "heuristic"
    strong_spec: str = "mcts:iterations=1000"
    strong_games: int = 16
    counterfactual_games: int = 16
    rollouts: int = 48
    variant_games: int = 250
    variant_counterfactual_games: int = 4
    variants: tuple[str, ...] = ("balance_hp_high", "balance_mirrored", "home_costly", "wildcards_on_board")
    jobs: int = -1
    seed: int = 2023


SIZES = {
    "quick": SpiritsStudy(games=16, strong_spec="mcts:iterations=20", strong_games=2, counterfactual_games=1,
                          rollouts=4, variant_games=8, variant_counterfactual_games=1, variants=("home_costly",),
                          jobs=1),
    "default": SpiritsStudy(),
    "full": SpiritsStudy(games=8000, strong_games=120, counterfactual_games=150, rollouts=96, variant_games=3000,
                         variant_counterfactual_games=40, variants=tuple(v for v in VARIANTS if v != "temple_high")),
}


def sized(size: str, **overrides: Any) -> SpiritsStudy:
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, got {size!r}")
    return replace(SIZES[size], **overrides)


# =============================================================================
# Running work on several processes
# =============================================================================
def _chunks(count: int, size: int) -> list[range]:
    return [range(start, min(start + size, count)) for start in range(0, count, size)]


def _parallel(work: Callable[..., list[dict[str, Any]]], chunks: Sequence[range], jobs: int,
              progress: Callable[[int], object] | None, **kwargs: Any) -> pd.DataFrame:
    """`work(ids=chunk, **kwargs)` for every chunk of game ids, on `jobs` worker processes (1: in this one);
    `progress(n)` after each chunk of n games. The rows come back in game order whatever the workers."""
    rows: list[dict[str, Any]] = []
    if jobs == 1:
        for chunk in chunks:
            rows.extend(work(ids=chunk, **kwargs))
            if progress is not None:
                progress(len(chunk))
    else:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
        for chunk, part in parallel(delayed(_tagged)(work, chunk, kwargs) for chunk in chunks):
            rows.extend(part)
            if progress is not None:
                progress(len(chunk))
    frame = pd.DataFrame(rows)
    return frame.sort_values(["game_id", "decision" if "decision" in frame else "round"], kind="stable",
                             ignore_index=True) if len(frame) else frame


def _tagged(work: Callable[..., list[dict[str, Any]]], chunk: range,
            kwargs: dict[str, Any]) -> tuple[range, list[dict[str, Any]]]:
    return chunk, work(ids=chunk, **kwargs)


# =============================================================================
# 1. Spirit pairs
# =============================================================================
def _components(game: Game) -> BambooComponents:
    """The component data of a Bamboo game object (the Game protocol does not name it)."""
    return cast("Bamboo", game).rules.components


def _held(state: GameState) -> list[list[int]]:
    """Spirit tiles held by each seat, by kind."""
    return [list(p["spirits"]) for p in state.to_dict()["state"]["pl"][:state.num_players]]


Cut = tuple[int, GameState, list[list[int]]]


def autumn_cuts(game: Game, game_seed: int, specs: Sequence[str]) -> tuple[list[Cut], GameState]:
    """Plays a game; after each Autumn, (its round, a copy of the state at the first decision after it, the tiles
    each seat won in it by kind), and the final state. After the fourth Autumn the copy may be the final state
    (no Winter decision)."""
    players = [make_player(spec, player_seed(game_seed, s, game), game=game) for s, spec in enumerate(specs)]
    state = game.new_initial_state(players=len(specs), seed=game_seed)
    before = [[0] * len(_components(game).spirit_names) for _ in specs]
    cuts = []
    while not state.is_terminal():
        phase, round_ = state.phase, state.round
        state.apply(players[state.current_player].choose(state))
        if phase == "summer" and state.phase != "summer":
            held = _held(state)
            won = [[now - then for now, then in zip(h, b, strict=True)] for h, b in zip(held, before, strict=True)]
            cuts.append((round_, state.clone(), won))
            before = held
    return cuts, state


def without_spirit(game: Game, state: GameState, seat: int, spirit: int) -> GameState:
    """The state with one of `seat`'s tiles of `spirit` removed from the game (an awake one if there is one, as a
    tile just won is). A final state also loses that tile's variety HP, which the end scoring gave it."""
    data = copy.deepcopy(state.to_dict())
    fields = data["state"]
    player = fields["pl"][seat]
    if player["spirits"][spirit] < 1:
        raise ValueError(f"seat {seat} holds no {_components(game).spirit_names[spirit]} tile")
    player["spirits"][spirit] -= 1
    player["asleep"][spirit] = min(player["asleep"][spirit], player["spirits"][spirit])
    fields["spirit_gone"][spirit] += 1
    if state.is_terminal():
        kinds = sum(1 for count in player["spirits"] if count > 0)
        player["hp"][game.sources.index("spirit_types")] = kinds * _components(game).scoring["spirit_type_hp"]
    return game.state_from_dict(data)


def play_out(game: Game, state: GameState, specs: Sequence[str], seeds: Sequence[int]) -> GameState:
    """Plays `state` to the end with fresh players of `specs` seeded by `seeds`."""
    players = [make_player(spec, seed, game=game) for spec, seed in zip(specs, seeds, strict=True)]
    while not state.is_terminal():
        state.apply(players[state.current_player].choose(state))
    return state


def spirit_pairs(ids: Iterable[int], specs: Sequence[str], seed: int, rung: str, strong: bool,
                 components: str | None = None) -> list[dict[str, Any]]:
    """One row per (game, Autumn, spirit won by a studied seat): HP and first place of that seat with and without
    the tile; and one row per game and studied seat with `spirit` None: its first place in the game itself.
    `strong`: one seat per game (game_id mod players) plays specs[0] among specs[1] players and is the only one
    studied; otherwise every seat is, and when several won the same spirit in one Autumn one of them is taken
    (by game_id), so that a game gives at most one pair per spirit and round."""
    game = get_game("bamboo", components=components)
    names = _components(game).spirit_names
    rows = []
    for game_id in ids:
        game_seed = int(game.derive_seed(seed, game_id))
        n = len(specs)
        studied = [game_id % n] if strong else list(range(n))
        seats = list(specs)
        if strong:
            seats = [specs[1]] * n
            seats[game_id % n] = specs[0]
        cuts, final = autumn_cuts(game, game_seed, seats)
        rows += [{"game_id": game_id, "rung": rung, "round": 0, "spirit": None, "seat": seat, "spec": seats[seat],
                  "first": final.ranks()[seat] == 1} for seat in studied]
        for round_, cut, won in cuts:
            seeds = [int(game.derive_seed(game_seed, 100 * round_ + s)) for s in range(n)]
            base: GameState | None = None
            for spirit, name in enumerate(names):
                winners = [s for s in studied if won[s][spirit] > 0]
                if not winners:
                    continue
                seat = winners[game_id % len(winners)]
                if base is None:
                    base = play_out(game, cut.clone(), seats, seeds)
                less = play_out(game, without_spirit(game, cut, seat, spirit), seats, seeds)
                rows.append({"game_id": game_id, "rung": rung, "round": round_, "spirit": name, "seat": seat,
                             "spec": seats[seat], "hp_with": base.scores()[seat], "hp_without": less.scores()[seat],
                             "win_with": base.ranks()[seat] == 1, "win_without": less.ranks()[seat] == 1,
                             "variety_hp": (base.score_breakdown()[seat]["spirit_types"]
                                            - less.score_breakdown()[seat]["spirit_types"])})
    return rows


def pair_frame(study: SpiritsStudy, rung: str, games: int, strong: bool, components: str | None = None,
               progress: Callable[[int], object] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The pairs of `games` games of one rung (`strong`: one `strong_spec` seat among `spec` players), and the
    studied seats' first places in the games themselves."""
    specs = [study.strong_spec, study.spec] if strong else [study.spec] * study.players
    frame = _parallel(spirit_pairs, _chunks(games, 1 if strong else 25), study.jobs, progress, specs=specs,
                      seed=study.seed, rung=rung, strong=strong, components=components)
    outcomes = frame.loc[frame["spirit"].isna(), ["game_id", "rung", "seat", "spec", "first"]]
    pairs = frame[frame["spirit"].notna()].drop(columns="first").reset_index(drop=True)
    pairs["hp_gain"] = pairs["hp_with"] - pairs["hp_without"]
    pairs["win_gain"] = pairs["win_with"].astype(int) - pairs["win_without"].astype(int)
    return pairs, outcomes.reset_index(drop=True)


def verdict(estimate: float, p_holm: float, alpha: float) -> str:
    """One of stats.VERDICTS for an effect (A - B) with its Holm-adjusted p-value, as paired_table words them."""
    if p_holm >= alpha:
        return stats.VERDICTS[2]
    return stats.VERDICTS[0] if estimate > 0 else stats.VERDICTS[1]


def _paired_row(group: pd.DataFrame, players: int) -> dict[str, Any]:
    per_pair = pd.DataFrame({"win_a": group["win_with"], "win_b": group["win_without"],
                             "vp_a": group["hp_with"], "vp_b": group["hp_without"]})
    result = stats.paired_outcomes(per_pair, "with the spirit", "without", baseline=1 / players, unit="HP")
    beyond = (group["hp_with"] - group["hp_without"] - group["variety_hp"]).to_numpy(dtype=float)
    mean, lo, hi = stats.mean_interval(beyond)
    return {"variety_hp": float(group["variety_hp"].mean()), "use_hp": mean, "use_hp_ci": (lo, hi),
            "use_wilcoxon_p": stats.wilcoxon_signed_rank(beyond), **asdict(result)}


def summary(pairs: pd.DataFrame, keys: Sequence[str], players: int) -> pd.DataFrame:
    """One paired comparison (A = with the spirit, B = without) per group of `keys`, as a `paired_table`: Holm's
    correction over its rows, one family per test; the verdicts the report prints and words. `use_hp` is the HP
    gain beyond the spirit's variety bonus (each pair's gain less its difference in the end's spirit-variety HP),
    with its own test, Holm correction and `use_verdict`: what the spirit's power brought."""
    rows = [{**dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)), **_paired_row(group, players)}
            for key, group in pairs.groupby(list(keys), sort=False)]
    table = stats.paired_table(pd.DataFrame(rows))
    if len(table):
        table["use_wilcoxon_p_holm"] = stats.holm(table["use_wilcoxon_p"].to_numpy(dtype=float))
        table["use_verdict"] = [verdict(d, p, a) for d, p, a in
                                zip(table["use_hp"], table["use_wilcoxon_p_holm"], table["alpha"], strict=True)]
    return table


def spirit_order(pairs: pd.DataFrame, names: Sequence[str], first: Sequence[str] = ()) -> pd.DataFrame:
    """The pairs ordered by the columns `first` (in their order of appearance), then spirit (component order),
    then round: the row order of a `summary`."""
    keys = {name: i for i, name in enumerate(names)}
    ordered = pairs.assign(_spirit=pairs["spirit"].map(keys),
                           **{f"_{c}": pd.factorize(pairs[c])[0] for c in first})
    columns = [*(f"_{c}" for c in first), "_spirit"]
    return ordered.sort_values([*columns, "round", "game_id"], kind="stable").drop(columns=columns) \
        .reset_index(drop=True)


def pooled(pairs: pd.DataFrame) -> pd.DataFrame:
    """One pair per rung, game and spirit (the earliest round's), so that pooled rows hold independent pairs."""
    return pairs.sort_values(["rung", "game_id", "round"], kind="stable").drop_duplicates(["rung", "game_id",
                                                                                            "spirit"])


NAMES = {"games": "pairs", "vp_diff": "hp_gain", "vp_diff_ci": "hp_ci", "vp_verdict": "hp_verdict",
         "use_hp_ci": "use_ci", "win_diff": "win_gain", "win_diff_ci": "win_ci"}
CSV_COLUMNS = ("games", "vp_diff", "vp_diff_ci", "wilcoxon_p", "wilcoxon_p_holm", "vp_verdict", "variety_hp",
               "use_hp", "use_hp_ci", "use_wilcoxon_p", "use_wilcoxon_p_holm", "use_verdict", "win_a", "win_b",
               "win_diff", "win_diff_ci", "mcnemar_p", "mcnemar_p_holm", "win_verdict", "alpha")
PRINTED = ("pairs", "hp_gain", "hp_ci_low", "hp_ci_high", "hp_verdict", "variety_hp", "use_hp", "use_ci_low",
           "use_ci_high", "use_verdict", "win_gain", "win_ci_low", "win_ci_high", "win_verdict")
FORMATS = {"hp_gain": "+.2f", "hp_ci_low": "+.2f", "hp_ci_high": "+.2f", "variety_hp": ".2f", "use_hp": "+.2f",
           "use_ci_low": "+.2f", "use_ci_high": "+.2f", "win_gain": "+.1%", "win_ci_low": "+.1%",
           "win_ci_high": "+.1%"}


def summary_view(table: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """A summary under the report's names (HP, not the statistics module's generic vp), interval bounds as
    numbers: the CSV file (raw and Holm-adjusted p-values); the report prints its key columns and PRINTED."""
    return stats.interval_columns(table[[*keys, *CSV_COLUMNS]].rename(columns=NAMES))


VERDICT_SHORT = {"A better": "a gain", "A worse": "a loss", "no detectable difference": "nothing detectable"}
# Each wording opens the parenthesis that holds the interval, with the estimate where the words do not say it.
HP_WORDS = {"A better": "{hp:+.1f} HP (", "A worse": "{loss:.1f} HP fewer (",
            "no detectable difference": "no detectable HP ({hp:+.1f} HP, "}
USE_WORDS = {"A better": "{use:+.1f} HP beyond its variety bonus (",
             "A worse": "{loss:.1f} HP less than its variety bonus alone (",
             "no detectable difference": "nothing detectable beyond its variety bonus ({use:+.1f} HP, "}
WIN_WORDS = {"A better": "{win:+.1f} points of first place (", "A worse": "{loss:.1f} points of first place fewer (",
             "no detectable difference": "no detectable change of first place ({win:+.1f} points, "}


def effect_words(row: pd.Series) -> str:
    """The three effects of one row of a `summary` (HP, HP beyond the variety bonus, first place), each worded
    from its Holm-corrected verdict (never from raw p-values or interval signs), with estimates, intervals and
    Holm p-values, and the pairs."""
    (hlo, hhi), (ulo, uhi), (wlo, whi) = row["vp_diff_ci"], row["use_hp_ci"], row["win_diff_ci"]
    hp = HP_WORDS[row["vp_verdict"]].format(hp=row["vp_diff"], loss=-row["vp_diff"])
    use = USE_WORDS[row["use_verdict"]].format(use=row["use_hp"], loss=-row["use_hp"])
    win = WIN_WORDS[row["win_verdict"]].format(win=100 * row["win_diff"], loss=-100 * row["win_diff"])
    return (f"{hp}{hlo:+.1f} to {hhi:+.1f}, p = {row['wilcoxon_p_holm']:.2g}), {use}{ulo:+.1f} to {uhi:+.1f}, "
            f"p = {row['use_wilcoxon_p_holm']:.2g}), {win}{100 * wlo:+.1f} to {100 * whi:+.1f}, "
            f"p = {row['mcnemar_p_holm']:.2g}); {int(row['games'])} pairs")


def _detectable(row: pd.Series) -> bool:
    """Any effect of a summary row detectable after Holm's correction."""
    return any(row[c] != stats.VERDICTS[2] for c in ("vp_verdict", "use_verdict", "win_verdict"))


def spirit_words(table: pd.DataFrame) -> list[str]:
    """Part 1's answer from the spirit x round summary: a count of the detectable cells, where the spirit's power
    (beyond the variety bonus) was worth most, then per spirit the rounds with a detectable effect, worded with
    their verdicts, the others gathered as not detectable."""
    if table.empty:
        return ["No spirit was won by a studied seat: nothing can be said about the spirits."]
    lines = []
    gains = table[table["vp_verdict"] == stats.VERDICTS[0]]
    lines.append(f"{len(gains)} of the {len(table)} spirit x round cells show a detectable HP gain for the seat that "
                 f"won the spirit, and {int((table['win_verdict'] == stats.VERDICTS[0]).sum())} a detectable gain "
                 "of first place.")
    for round_, rows in gains.groupby("round"):
        lines.append(f"A spirit won in round {round_} is worth {rows['vp_diff'].min():+.1f} to "
                     f"{rows['vp_diff'].max():+.1f} HP by the end ({len(rows)} of "
                     f"{int((table['round'] == round_).sum())} spirits detectable), of which "
                     f"{rows['variety_hp'].min():.1f} to {rows['variety_hp'].max():.1f} HP is the variety bonus.")
    powers = table[table["use_verdict"] == stats.VERDICTS[0]]
    if len(powers):
        top = powers.sort_values("use_hp", ascending=False, kind="stable").iloc[0]
        lines.append(f"Beyond the variety bonus, {len(powers)} cell(s) show a detectable gain; the largest: "
                     f"{top['spirit']} won in round {int(top['round'])}, {top['use_hp']:+.1f} HP (95% CI "
                     f"{top['use_hp_ci'][0]:+.1f} to {top['use_hp_ci'][1]:+.1f}).")
    else:
        lines.append("No cell shows a detectable gain beyond the variety bonus: what the spirits do in play "
                     "brought no HP these samples can tell apart from zero.")
    for spirit, rows in table.groupby("spirit", sort=False):
        found = [f"won in round {int(r['round'])}: {effect_words(r)}" for _, r in rows.iterrows() if _detectable(r)]
        quiet = [int(r["round"]) for _, r in rows.iterrows() if not _detectable(r)]
        rest = (f"nothing detectable when won in round(s) {', '.join(map(str, quiet))} "
                f"({int(rows.loc[rows['round'].isin(quiet), 'games'].sum())} pairs)")
        lines.append(f"{spirit}: " + "; ".join(found + ([rest] if quiet else [])) + ".")
    return lines


def strength_words(table: pd.DataFrame, rungs: Sequence[str], strong_wins: tuple[int, int] | None,
                   players: int = 4) -> list[str]:
    """How the pooled verdicts (one pair per game and spirit) move from the first rung to the others, after how
    often the second rung's seat took first place in its own games (`strong_wins`: first places, games)."""
    lines = []
    if strong_wins is not None and strong_wins[1]:
        wins, games = strong_wins
        lo, hi = stats.wilson_interval(wins, games)
        equal = 1 / players
        shown = ("more often than an equal player would" if lo > equal else "less often than an equal player would"
                 if hi < equal else "not detectably more or less often than an equal player")
        lines.append(f"The {rungs[1]} took first place in {wins} of its {games} games (95% CI {lo:.0%}-{hi:.0%}; "
                     f"an equal player: {equal:.0%}): {shown}.")
    base = table[table["rung"] == rungs[0]].set_index("spirit")
    for rung in rungs[1:]:
        other = table[table["rung"] == rung].set_index("spirit")
        common = [s for s in base.index if s in other.index]
        same = [s for s in common if base.loc[s, "vp_verdict"] == other.loc[s, "vp_verdict"]]
        moved = [f"{s} ({VERDICT_SHORT[base.loc[s, 'vp_verdict']]} -> {VERDICT_SHORT[other.loc[s, 'vp_verdict']]})"
                 for s in common if s not in same]
        lines.append(f"Pooled over rounds, the {rung} rung ({int(other['games'].sum())} pairs) has the same HP verdict "
                     f"as the {rungs[0]} rung for {len(same)} of {len(common)} spirits"
                     + (f"; it differs for {', '.join(moved)}." if moved else "."))
        detected = [f"{s}: {effect_words(other.loc[s])}" for s in other.index if _detectable(other.loc[s])]
        lines.append(f"With the {rung}: " + ("; ".join(detected) if detected else
                                              "no spirit has a detectable effect on HP or first place") + ".")
    return lines


def heat_figure(table: pd.DataFrame, names: Sequence[str], title: str) -> Figure:
    """The HP gain (left) and the gain beyond the variety bonus (right) by spirit (rows) and round (columns),
    the cells detectable after Holm's correction in bold with a star."""
    from borabora_sim import plots

    panels = (("vp_diff", "vp_verdict", "HP gain"), ("use_hp", "use_verdict", "beyond the variety bonus"))
    grids = [table.pivot(index="spirit", columns="round", values=v).reindex(list(names)) for v, _, _ in panels]
    values = np.array([grid.to_numpy(dtype=float) for grid in grids])
    bound = max(1.0, float(np.nanmax(np.abs(values)))) if np.isfinite(values).any() else 1.0
    fig = plots.new_figure(11, 4.8)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, grid, cells, (_, verdict_column, name) in zip(axes, grids, values, panels, strict=True):
        verdicts = table.pivot(index="spirit", columns="round", values=verdict_column).reindex(list(names))
        image = ax.imshow(cells, cmap="RdBu", vmin=-bound, vmax=bound, aspect="auto")
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                if np.isfinite(cells[i, j]):
                    star = verdicts.iat[i, j] != stats.VERDICTS[2]
                    ax.text(j, i, f"{cells[i, j]:+.1f}" + ("*" if star else ""), ha="center", va="center",
                            fontsize=8, fontweight="bold" if star else "normal")
        ax.set_xticks(range(grid.shape[1]), [f"round {c}" for c in grid.columns])
        ax.set_title(name, fontsize=9)
    axes[0].set_yticks(range(len(names)), list(names))
    fig.colorbar(image, ax=list(axes), label="mean HP (* detectable, Holm)")
    fig.suptitle(title, fontsize=10)
    return fig


# =============================================================================
# 2. Fallbacks
# =============================================================================
def fallback_ids(game: Game) -> frozenset[int]:
    return frozenset(a for a in range(game.num_actions) if game.action_name(a) in FALLBACKS)


def situation(state: GameState, action: int) -> dict[str, Any]:
    """Bamboo's situation of a fallback decision: coins, HP gap, the other options by kind, and a label."""
    seat = state.current_player
    names = [state.action_to_string(a) for a in state.legal_actions()]
    scorable = sum(name.startswith("score ") for name in names)
    obtainable = sum(name.startswith("obtain ") for name in names)
    buyable = sum(name.startswith("buy home") for name in names)
    coins = int(state.to_dict()["state"]["pl"][seat]["coins"])
    if state.decision == "balance":
        label = "a held tile can be scored" if scorable else "tiles to obtain only"
    else:
        label = "1 home tile affordable" if buyable == 1 else f"{'2-3' if buyable <= 3 else '4+'} home tiles affordable"
    return {"decision_kind": state.decision, "coins": coins, "hp_gap": score_gap(state, seat), "n_score": scorable,
            "n_obtain": obtainable, "n_buy": buyable, "situation": label}


def fallback_rows(ids: Iterable[int], specs: Sequence[str], seed: int, rollouts: int,
                  components: str | None = None) -> list[dict[str, Any]]:
    game = get_game("bamboo", components=components)
    studied = fallback_ids(game)
    judge = RolloutJudge(rollouts=rollouts, rollout="heuristic")
    rows: list[dict[str, Any]] = []
    for game_id in ids:
        rows.extend(judge_game(game, game_id, specs, seed, studied.__contains__, situation, judge=judge,
                               recheck=True))
    return rows


def fallback_values(study: SpiritsStudy, games: int, components: str | None = None,
                    progress: Callable[[int], object] | None = None) -> pd.DataFrame:
    """The judged fallback decisions of `games` games, with `best` (strictly above every other option), `tied`
    (level with the best other option) and `confirmed` (best, and still ahead on the fresh rollouts)."""
    frame = _parallel(fallback_rows, _chunks(games, 1), study.jobs, progress, specs=[study.spec] * study.players,
                      seed=study.seed ^ 0xFA11, rollouts=study.rollouts, components=components)
    if len(frame):
        frame["best"] = frame["advantage"] > 0
        frame["tied"] = frame["advantage"] == 0
        frame["confirmed"] = frame["best"] & (frame["recheck_advantage"] > 0)
    return frame


def fallback_table(values: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Per option and group: decisions; how often the fallback was strictly best (Wilson interval), tied for
    best, and best and confirmed on fresh rollouts; its rechecked advantage over the best other option (t
    interval: unbiased, unlike the first pass's), and that advantage where it was best; how often the player
    took it."""
    rows = []
    for key, group in values.groupby(["option", *by], sort=True):
        n, best = len(group), int(group["best"].sum())
        lo, hi = stats.wilson_interval(best, n)
        mean, alo, ahi = stats.mean_interval(group["recheck_advantage"].to_numpy(dtype=float))
        when = group.loc[group["best"], "recheck_advantage"]
        rows.append({**dict(zip(["option", *by], key if isinstance(key, tuple) else (key,), strict=True)),
                     "decisions": n, "best": best, "best_share": best / n, "best_ci_low": lo, "best_ci_high": hi,
                     "tied_share": float(group["tied"].mean()), "confirmed_share": float(group["confirmed"].mean()),
                     "advantage": mean, "advantage_ci_low": alo, "advantage_ci_high": ahi,
                     "advantage_when_best": float(when.mean()) if len(when) else np.nan,
                     "taken_share": float(group["chosen"].mean())})
    return pd.DataFrame(rows)


def fallback_verdicts(values: pd.DataFrame, by: Sequence[str] = (), alpha: float = 0.05) -> pd.DataFrame:
    """`fallback_table` per option (and group of `by`) with a Wilcoxon signed-rank test of the rechecked
    advantage against 0, Holm's correction over the rows and the verdict (A = the fallback, B = the best other
    option)."""
    table = fallback_table(values, list(by))
    if len(table):
        table["wilcoxon_p"] = [stats.wilcoxon_signed_rank(group["recheck_advantage"].to_numpy(dtype=float))
                               for _, group in values.groupby(["option", *by], sort=True)]
        table["wilcoxon_p_holm"] = stats.holm(table["wilcoxon_p"].to_numpy(dtype=float))
        table["verdict"] = [verdict(d, p, alpha) for d, p in zip(table["advantage"], table["wilcoxon_p_holm"],
                                                                    strict=True)]
    return table


FALLBACK_COLUMNS = ("decisions", "best_share", "best_ci_low", "best_ci_high", "tied_share", "confirmed_share",
                    "advantage", "advantage_ci_low", "advantage_ci_high", "advantage_when_best", "taken_share")
FALLBACK_FORMATS = {"best_share": ".1%", "best_ci_low": ".1%", "best_ci_high": ".1%", "tied_share": ".1%",
                    "confirmed_share": ".1%", "advantage": "+.3f", "advantage_ci_low": "+.3f",
                    "advantage_ci_high": "+.3f", "advantage_when_best": "+.3f", "taken_share": ".1%",
                    "wilcoxon_p_holm": ".3g"}
ADVANTAGE_SHORT = {"A better": "ahead on average", "A worse": "behind on average",
                   "no detectable difference": "not detectably ahead or behind"}
ADVANTAGE_WORDS = {"A better": "better on average than the best other option",
                   "A worse": "worse on average than the best other option",
                   "no detectable difference": "not detectably better or worse on average than the best other option"}


def _share_text(row: pd.Series) -> str:
    return (f"{row['best_share']:.0%} (95% CI {row['best_ci_low']:.0%}-{row['best_ci_high']:.0%}) of "
            f"{int(row['decisions'])} decisions")


def fallback_words(verdicts: pd.DataFrame, values: pd.DataFrame, rollouts: int) -> list[str]:
    """Part 2's answer from `fallback_verdicts` (its Holm-corrected verdicts): per fallback, how often it was
    strictly the best option, by how much, and the range of that share over rounds and situations (groups of at
    least 10 decisions)."""
    if values.empty:
        return ["No decision with a fallback beside other options was judged: nothing can be said about them."]
    lines = []
    for _, row in verdicts.iterrows():
        option = row["option"]
        when = (f"; where it was, fresh rollouts put it {row['advantage_when_best']:+.3f} of win probability "
                "ahead of the best other option on average" if row["best"] else "")
        lines.append(f"'{option}' was strictly the best option in {_share_text(row)} (tied for best in "
                     f"{row['tied_share']:.0%}; best and confirmed by fresh rollouts in "
                     f"{row['confirmed_share']:.0%}){when}. Over all these decisions it is "
                     f"{ADVANTAGE_WORDS[row['verdict']]} ({row['advantage']:+.3f} of win probability, 95% CI "
                     f"{row['advantage_ci_low']:+.3f} to {row['advantage_ci_high']:+.3f}, Holm p = "
                     f"{row['wilcoxon_p_holm']:.2g}); the heuristic took it in {row['taken_share']:.0%} of them.")
        for by in ("round", "situation"):
            table = fallback_table(values[values["option"] == option], [by])
            table = table[table["decisions"] >= 10]
            if len(table) >= 2:
                low = table.sort_values("best_share", kind="stable").iloc[0]
                top = table.sort_values("best_share", ascending=False, kind="stable").iloc[0]
                lines.append(f"By {by}, the share where '{option}' was best ranged from {_share_text(low)} "
                             f"({by}: {low[by]}) to {_share_text(top)} ({by}: {top[by]}).")
    lines.append(f"Values are shares of {rollouts} paired heuristic rollouts won. The first pass picks the best "
                 "other option as the largest of several noisy values, which leans against the fallback; the "
                 "fresh rollouts that judge the fallback and that option again do not, so the advantages above "
                 "are unbiased, while the best shares carry the first pass's noise both ways.")
    return lines


# =============================================================================
# 3. Variants
# =============================================================================
def variant_spirit_words(table: pd.DataFrame) -> list[str]:
    """How each variant's pooled verdicts (one pair per game and spirit) differ from the built-in data's, and how
    far its HP estimates move."""
    lines = []
    base = table[table["variant"] == BUILT_IN].set_index("spirit")
    columns = {"vp_verdict": "HP", "use_verdict": "HP beyond the variety bonus", "win_verdict": "first place"}
    for variant, rows in table[table["variant"] != BUILT_IN].groupby("variant", sort=False):
        rows = rows.set_index("spirit")
        common = [s for s in base.index if s in rows.index]
        moved = [f"{s}, {name}: {VERDICT_SHORT[base.loc[s, c]]} -> {VERDICT_SHORT[rows.loc[s, c]]}"
                 for s in common for c, name in columns.items() if base.loc[s, c] != rows.loc[s, c]]
        shift = rows.loc[common, "vp_diff"] - base.loc[common, "vp_diff"]
        lines.append(f"{variant} ({VARIANTS[str(variant)].change}, {int(rows['games'].sum())} pairs): "
                     + (f"the verdicts move for {'; '.join(moved)}" if moved else
                        f"every verdict of the {len(common)} spirits is the built-in data's")
                     + (f"; the HP estimates move by {shift.min():+.1f} to {shift.max():+.1f} HP." if len(common)
                        else "."))
    return lines


def variant_fallback_words(verdicts: pd.DataFrame) -> list[str]:
    """Each fallback's best share and verdict on each variant beside the built-in data's, from the variant
    table's Holm-corrected verdicts (`fallback_verdicts(..., by=["variant"])`)."""
    base = verdicts[verdicts["variant"] == BUILT_IN].set_index("option")
    lines = []
    for variant, rows in verdicts[verdicts["variant"] != BUILT_IN].groupby("variant", sort=False):
        parts = []
        for _, row in rows.iterrows():
            option = row["option"]
            before = (f"; built-in: {base.loc[option, 'best_share']:.0%}, "
                      f"{ADVANTAGE_SHORT[base.loc[option, 'verdict']]}" if option in base.index else "")
            parts.append(f"'{option}' best in {_share_text(row)}, {ADVANTAGE_SHORT[row['verdict']]} "
                         f"({row['advantage']:+.3f}, p = {row['wilcoxon_p_holm']:.2g}{before})")
        lines.append(f"{variant}: " + "; ".join(parts) + ".")
    return lines


# =============================================================================
# The whole study
# =============================================================================
def answer(cells: pd.DataFrame, strength: pd.DataFrame, rungs: Sequence[str], strong_wins: tuple[int, int] | None,
           values: pd.DataFrame, rollouts: int, variants: pd.DataFrame, variant_fallbacks: pd.DataFrame,
           players: int = 4) -> list[str]:
    """The study's answer in plain words, every effect worded from the Holm-corrected verdicts of the tables the
    report prints (`cells`: spirit x round; `strength`: pooled by rung; the fallbacks' verdicts; `variants`:
    pooled by variant; `variant_fallbacks`: the fallbacks by variant)."""
    lines = ["**What a spirit is worth** (to the seat that won it, from the first decision after that Autumn to "
             "the end; A = with the tile, B = without):"]
    lines += [f"- {line}" for line in spirit_words(cells)]
    if len(cells):
        lines.append(f"Verdicts are at the {cells['alpha'].iloc[0]:.0%} level after Holm's correction over the "
                     f"{len(cells)} spirit x round cells, one family per effect (HP and HP beyond the variety bonus: "
                     "Wilcoxon signed-rank; first place: exact McNemar); p are Holm-adjusted, intervals 95% and not "
                     "adjusted.")
    lines.append("**With player strength:**")
    lines += [f"- {line}" for line in strength_words(strength, rungs, strong_wins, players)]
    lines.append("**The fallbacks** (every legal option judged by paired heuristic rollouts; Holm over the "
                 "fallbacks):")
    lines += [f"- {line}" for line in fallback_words(fallback_verdicts(values), values, rollouts)]
    lines.append("**With the INVENTED data** (one family replaced at a time; spirits pooled over rounds; Holm over "
                 "each variant table, built-in rows included):")
    lines += [f"- {line}" for line in variant_spirit_words(variants)]
    lines += [f"- {line}" for line in variant_fallback_words(variant_fallbacks)]
    lines.append("These players are imperfect: the values say what a spirit brings to players who decide as these "
                 "do, not what perfect play would get from it; `--size full` runs more games and more rollouts.")
    return lines


def run(study: SpiritsStudy, out: str | Path, log: Callable[[str], None] = print,
        progress: bool | None = None) -> Path:
    """Runs every part and writes `out`/spirits_report.md with PNG figures and CSV tables beside it. Each long
    step shows a progress bar with the time left (`progress`: True, False, or None for only on a terminal)."""
    from borabora_sim import plots

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    names = _components(get_game("bamboo")).spirit_names
    heuristic, strong = study.spec, f"{study.strong_spec} seat"
    rungs = (heuristic, strong)

    log("1/3 spirits: heuristic games and their continuations")
    with step_bar(study.games, "1/3 spirits, heuristic", "game", progress) as bar:
        pairs, _ = pair_frame(study, heuristic, study.games, strong=False, progress=bar.update)
    with step_bar(study.strong_games, "1/3 spirits, stronger rung", "game", progress) as bar:
        strong_pairs, outcomes = pair_frame(study, strong, study.strong_games, strong=True, progress=bar.update)
    all_pairs = pd.concat([pairs, strong_pairs], ignore_index=True)
    all_pairs.to_parquet(folder / "spirits_pairs.parquet")
    cells = summary(spirit_order(pairs, names), ("spirit", "round"), study.players)
    summary_view(cells, ("spirit", "round")).to_csv(folder / "spirits_by_round.csv", index=False)
    strength = summary(spirit_order(pooled(all_pairs), names, ["rung"]), ("rung", "spirit"), study.players)
    summary_view(strength, ("rung", "spirit")).to_csv(folder / "spirits_by_strength.csv", index=False)
    strong_wins = (int(outcomes["first"].sum()), len(outcomes))
    heat_figure(cells, names, f"HP gained by the seat that won the spirit ({study.spec} players)") \
        .savefig(folder / "spirits_by_round.png", dpi=110)
    if len(strength):
        figure = plots.effect_plot(strength, label_columns=("rung", "spirit"),
                                   title="pooled over rounds: with - without the spirit")
        figure.savefig(folder / "spirits_by_strength.png", dpi=110)
    view = summary_view(cells, ("spirit", "round"))
    part1 = section(
        "1. What each spirit is worth, by round",
        f"{study.games} games of {study.players} `{study.spec}` players: {len(pairs)} pairs (every seat studied; at "
        "most one pair per game, spirit and round). A = with the spirit, B = without; `variety_hp` is the mean "
        "difference in the end's spirit-variety HP (2 HP when the tile stays the seat's only one of its kind), "
        "`use_hp` the HP gain beyond it: what the spirit's power brought. p-values and verdicts are Holm-adjusted "
        "over the cells of this table, one family per effect (`spirits_by_round.csv` has the raw p-values too).",
        markdown_table(view[["spirit", "round", *PRINTED]], FORMATS, index=False),
        "![HP by spirit and round](spirits_by_round.png)")
    sview = summary_view(strength, ("rung", "spirit"))
    part1b = section(
        "1b. With a different player",
        f"{study.strong_games} games with one `{study.strong_spec}` seat (rotating) among `{study.spec}` players: "
        f"{len(strong_pairs)} pairs of that seat's spirits. Both rungs pooled over rounds with one pair per game and "
        "spirit (the earliest round's), so that the pairs of a row are independent; Holm over this table.",
        markdown_table(sview[["rung", "spirit", *PRINTED]], FORMATS, index=False),
        *(["![by strength](spirits_by_strength.png)"] if len(strength) else []))

    log("2/3 fallbacks: paired-rollout judgements")
    with step_bar(study.counterfactual_games, "2/3 fallbacks", "game", progress) as bar:
        values = fallback_values(study, study.counterfactual_games, progress=bar.update)
    values.to_parquet(folder / "spirits_fallbacks.parquet")
    verdicts = fallback_verdicts(values)
    parts = [f"{study.counterfactual_games} games of {study.players} `{study.spec}` players; at every decision "
             f"where a fallback is legal beside other options, every legal option was judged by {study.rollouts} "
             "paired heuristic rollouts (value: share of rollouts won). `best` = strictly better than every other "
             "option in that pass; `confirmed` = best, and still ahead of the best other option on fresh rollouts; "
             "`advantage` = the fallback's value minus that option's on the fresh rollouts (free of the selection "
             "of the best), with a t interval; `advantage_when_best` = the same where the fallback was best. The "
             "first table tests the advantage against 0 (Wilcoxon signed-rank, Holm over the fallbacks)."]
    if len(values):
        verdicts.to_csv(folder / "spirits_fallbacks.csv", index=False)
        parts.append(markdown_table(verdicts[["option", *FALLBACK_COLUMNS, "wilcoxon_p_holm", "verdict"]],
                                    FALLBACK_FORMATS, index=False))
        for by in ("round", "situation"):
            table = fallback_table(values, [by])
            table.to_csv(folder / f"spirits_fallbacks_by_{by}.csv", index=False)
            parts.append(markdown_table(table[["option", by, *FALLBACK_COLUMNS]], FALLBACK_FORMATS, index=False))
        for option in FALLBACKS:
            rows = fallback_table(values[values["option"] == option], ["round"])
            if len(rows):
                name = option.split()[0]
                shares = rows.rename(columns={"best_ci_low": "ci_low", "best_ci_high": "ci_high"})
                plots.share_plot(shares, "round", f"share of decisions where '{option}' was best",
                                 value="best_share").savefig(folder / f"spirits_fallback_{name}.png", dpi=110)
                parts.append(f"![{option}](spirits_fallback_{name}.png)")
    part2 = section("2. When the fallbacks are the best choice", *parts)

    log("3/3 INVENTED data: variants")
    # the built-in rows from the same seeds and as many games as each variant, so that only the data differ
    variant_pairs = [pooled(pairs[pairs["game_id"] < study.variant_games]).assign(variant=BUILT_IN)]
    variant_values = {BUILT_IN: values[values["game_id"] < study.variant_counterfactual_games] if len(values)
                      else values}
    with step_bar(len(study.variants) * (study.variant_games + study.variant_counterfactual_games), "3/3 variants",
                  "game", progress) as bar:
        for name in study.variants:
            path = str(write_variant(name, folder / "variants"))
            found, _ = pair_frame(study, heuristic, study.variant_games, strong=False, components=path,
                                  progress=bar.update)
            variant_pairs.append(pooled(found).assign(variant=name))
            variant_values[name] = fallback_values(study, study.variant_counterfactual_games, components=path,
                                                   progress=bar.update)
    pooled_variants = pd.concat(variant_pairs, ignore_index=True)
    variants = summary(spirit_order(pooled_variants, names, ["variant"]), ("variant", "spirit"), study.players)
    vview = summary_view(variants, ("variant", "spirit"))
    vview.to_csv(folder / "spirits_variants.csv", index=False)
    judged = [frame.assign(variant=name) for name, frame in variant_values.items() if len(frame)]
    fallbacks_by_variant = (fallback_verdicts(pd.concat(judged, ignore_index=True), ["variant"]) if judged
                            else pd.DataFrame(columns=["variant", "option", "verdict"]))
    fallbacks_by_variant.to_csv(folder / "spirits_fallbacks_variants.csv", index=False)
    described = "\n".join(f"- `{name}` ({VARIANTS[name].family}): {VARIANTS[name].change}" for name in study.variants)
    part3 = section(
        "3. Sensitivity to the INVENTED data",
        f"Each variant replaces one family of INVENTED values and plays {study.variant_games} heuristic games for "
        f"the spirits and {study.variant_counterfactual_games} judged games for the fallbacks; the built-in rows are "
        "the first games of parts 1 and 2, with the same seeds and numbers of games (pooled over rounds, one pair "
        "per game and spirit; Holm over each table). The temple "
        "tiles are used only with 2 players, so their variant cannot move this 4-player study and is not run.",
        described,
        markdown_table(vview[["variant", "spirit", *PRINTED]], FORMATS, index=False),
        *([markdown_table(fallbacks_by_variant[["variant", "option", *FALLBACK_COLUMNS, "wilcoxon_p_holm",
                                                "verdict"]], FALLBACK_FORMATS, index=False)]
          if len(fallbacks_by_variant) else []))

    steps = re.split(r"\n(?=\d\. )", __doc__.split("\n\n")[1])
    method = section("Method", *[" ".join(step.split()) for step in steps],
                     "The 16 spirit tiles in play are a law of the saved state (B37's 5 tiles stay in the box), so a "
                     "tile cannot be handed from the box: each pair starts from a spirit a seat really won.")
    text = "\n\n".join([
        "# What is each Spirit of the Forest worth? Are the fallbacks ever best? (Bamboo)",
        f"Study settings: `{asdict(study)}`.",
        section("Answer", answer(cells, strength, rungs, strong_wins, values, study.rollouts, variants,
                                 fallbacks_by_variant, study.players)),
        method, part1, part1b, part2, part3,
        f"Total run time: {time.perf_counter() - began:.0f} s.",
    ]) + "\n"
    report = folder / "spirits_report.md"
    report.write_text(text)
    log(f"report written to {report}")
    return report


__all__ = ["SpiritsStudy", "answer", "run", "sized"]
