"""When a studied move is the best one: the situation, in game words, in which a choice question's option was the
best move most often, learned from some games' judged decisions and checked on the decisions of other games.

A situation is at most two conditions on the situation columns of the judged rows (`Vocabulary.situations`):
"it is round 5 or later and you hold at least 2 shells". Every single condition and every pair of conditions on
two columns is tried on the games it is learned from (a threshold at each value of a column with few values, at
its quantiles otherwise; an equality at each value of a column with few values or of words), and the one whose
best-move share stands out most above the share outside it is kept (the two-proportion z statistic, as a tree's
split criterion weighs a share against the decisions it rests on). A search this small needs no model library,
and its result is a rule a player reads as it is.

The decisions of one game are not independent, so the games (not the decisions) are split: the rule is learned
on two thirds of them and judged on the others, the held-out games. It is reported as found only when, there,
it covers at least `MIN_HELD_OUT` decisions, the share inside it beats the share outside it by Fisher's exact
test (one-sided) at the question's level, and the Wilson interval printed beside the share inside lies above both
the share outside and the overall one, so the sentence never sets a share against one its interval holds.

>>> result = find_situation(values, QUESTIONS.situations, alpha=0.05)      # doctest: +SKIP
>>> when_sentence(result, "a die on the Fishing action")                   # doctest: +SKIP
'A die on the Fishing action is the best move most often when it is round 6 and ...'
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from borabora_sim import stats
from borabora_sim.vocabulary import Situation

MIN_TRAIN = 20                 # decisions a situation must hold in the games it is learned from to be tried
MIN_HELD_OUT = 10              # held-out decisions a situation must hold to be reported as found
PAIR_LEVEL = 0.05              # a second condition's level, over every pair tried (Bonferroni)
MAX_COVERAGE = 0.5             # the largest share of the decisions a situation may hold: a situation, not the rule
HELD_OUT_SHARE = 1 / 3         # the share of the games kept out of the search, to judge its rule
EVERY_VALUE = 12               # a column with at most this many values is cut at each of them
QUANTILE_CUTS = 8              # a column with more is cut at this many of its quantiles
OPERATORS = (">=", "<=", "==")
PICTURE_SUFFIXES = (".svg", ".png")


@dataclass(frozen=True)
class Condition:
    """One condition on a situation column: `column` `op` `value` (a number, or words for a column of words)."""

    column: str
    op: str
    value: float | str

    def holds(self, values: pd.DataFrame) -> np.ndarray:
        """Whether each row meets the condition (never where the column has no value)."""
        column = values[self.column]
        if isinstance(self.value, str):
            return np.asarray(column.notna() & (column.astype(str) == self.value), dtype=bool)
        numbers = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
        with np.errstate(invalid="ignore"):
            met = {">=": numbers >= self.value, "<=": numbers <= self.value, "==": numbers == self.value}[self.op]
        return np.asarray(met & ~np.isnan(numbers), dtype=bool)

    def words(self, situations: Mapping[str, Situation]) -> str:
        return situations[self.column].condition_words(self.op, self.value)


@dataclass(frozen=True)
class When:
    """The situation found for an option, with its figures on the held-out games.

    `conditions` (empty when none could be tried) and `words`, their clauses; `found`: the situation passed the
    held-out test. On the held-out decisions: `held_out` of them, `inside` in the situation of which `inside_best`
    the option was the best move (`inside_ci`: Wilson 95% interval of that share), `outside` and `outside_best`
    the others, `base_rate` the share best over all; `p_value` of Fisher's exact test that the share inside is
    higher than outside; `accuracy` of the rule "best exactly when in the situation" against `base_accuracy`, that
    of always predicting the more common outcome."""

    conditions: tuple[Condition, ...]
    words: tuple[str, ...]
    found: bool
    alpha: float
    train_games: int
    held_out_games: tuple[int, ...]
    held_out: int
    inside: int
    inside_best: int
    inside_ci: tuple[float, float]
    outside: int
    outside_best: int
    base_rate: float
    p_value: float
    accuracy: float
    base_accuracy: float

    @property
    def inside_share(self) -> float:
        return self.inside_best / self.inside if self.inside else math.nan

    @property
    def outside_share(self) -> float:
        return self.outside_best / self.outside if self.outside else math.nan

    @property
    def situation_words(self) -> str:
        """The situation as a clause after "when": "it is round 6 and you hold at least 2 shells"."""
        return " and ".join(self.words)

    def holds(self, values: pd.DataFrame) -> np.ndarray:
        """Whether each row is in the situation (every row when it has no condition)."""
        inside = np.ones(len(values), dtype=bool)
        for condition in self.conditions:
            inside &= condition.holds(values)
        return inside


def find_situation(values: pd.DataFrame, situations: Mapping[str, Situation], alpha: float = 0.05,
                   seed: int = 0) -> When:
    """The situation in which the option of the judged rows `values` (one row per option: `game_id`, `best` and
    the situation columns; pass the rows of one option group, of the players the answer speaks for) was the best
    move most often, learned on two thirds of the games (drawn with `seed`) and checked on the others at level
    `alpha`. The columns tried are those of `situations` present in `values`."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    games = np.unique(values["game_id"].to_numpy()) if len(values) else np.array([], dtype=int)
    kept_out = max(1, round(len(games) * HELD_OUT_SHARE)) if len(games) >= 2 else 0
    held_games = np.sort(np.random.default_rng(seed).permutation(games)[:kept_out])
    held = values["game_id"].isin(held_games).to_numpy() if len(values) else np.zeros(0, dtype=bool)
    best = values["best"].to_numpy(dtype=bool) if len(values) else np.zeros(0, dtype=bool)
    columns = [name for name in situations if name in values.columns]
    chosen = _search(values[~held], best[~held], _candidates(values, columns)) if kept_out else ()
    return _judged(chosen, situations, values[held], best[held], alpha, len(games) - kept_out,
                   tuple(int(game) for game in held_games))


def _candidates(values: pd.DataFrame, columns: Sequence[str]) -> list[Condition]:
    """The conditions tried, equalities first (a column's highest value reads better as "shows 6" than as "shows 6
    or more"): see the module docstring."""
    conditions: list[Condition] = []
    for column in columns:
        present = values[column].dropna()
        numbers = pd.to_numeric(present, errors="coerce")
        if len(present) == 0:
            continue
        if numbers.isna().any():                                  # words: one equality a value
            conditions += [Condition(column, "==", str(level)) for level in sorted(present.astype(str).unique())]
            continue
        levels = np.unique(numbers.to_numpy(dtype=float))
        few = len(levels) <= EVERY_VALUE
        cuts = levels if few else np.unique(np.quantile(numbers, np.linspace(0, 1, QUANTILE_CUTS + 2)[1:-1],
                                                        method="nearest"))
        conditions += [Condition(column, "==", float(level)) for level in (levels if few else ())]
        conditions += [Condition(column, ">=", float(cut)) for cut in cuts if cut > levels[0]]
        conditions += [Condition(column, "<=", float(cut)) for cut in cuts if cut < levels[-1]]
    return conditions


def _search(train: pd.DataFrame, best: np.ndarray, candidates: Sequence[Condition]) -> tuple[Condition, ...]:
    """The single condition or pair of conditions on two columns whose best-move share in `train` stands out most
    above the share outside it (the largest two-proportion z statistic: a clearly higher share held by many
    decisions, not a high share of a few), among those holding at least MIN_TRAIN rows and at most MAX_COVERAGE of
    them. A pair replaces the best single condition only when it stands out more and each of its conditions
    raises the share within the rows of the other, by a one-sided z test at PAIR_LEVEL over all the pairs tried
    (as a tree splits a leaf again only where the split tells something, not where chance among hundreds of
    splits does). Empty when no situation has a share above the share outside it."""
    from scipy.stats import norm

    if len(train) < MIN_TRAIN or not candidates:
        return ()
    masks = np.array([condition.holds(train) for condition in candidates], dtype=float)
    _, first = np.unique(masks, axis=0, return_index=True)          # one condition for each set of rows
    keep = [i for i in sorted(first) if 0 < masks[i].sum() < len(train)]
    if not keep:
        return ()
    masks, conditions = masks[keep], [candidates[i] for i in keep]
    inside = masks @ masks.T                                         # [i, j]: rows meeting conditions i and j
    inside_best = (masks * best) @ masks.T
    alone, alone_best = np.diag(inside)[:, None], np.diag(inside_best)[:, None]   # [i, j]: rows meeting i
    z = _z(inside_best, inside, best.sum() - inside_best, len(train) - inside)
    same_column = np.array([[a.column == b.column for b in conditions] for a in conditions])
    tried = ~same_column & np.triu(np.ones_like(same_column), 1)
    needed = float(norm.isf(PAIR_LEVEL / max(1, int(tried.sum()))))
    refines = _z(inside_best, inside, alone_best - inside_best, alone - inside) >= needed      # j within i
    pair = tried & refines & refines.T
    usable = (inside >= MIN_TRAIN) & (inside <= MAX_COVERAGE * len(train))
    singles = np.where(np.diag(usable), np.diag(z), -np.inf)
    pairs = np.where(usable & pair, z, -np.inf)
    i, j = np.unravel_index(int(np.argmax(pairs)), pairs.shape)
    if pairs[i, j] > singles.max():
        return (conditions[i], conditions[j])
    k = int(np.argmax(singles))
    return (conditions[k],) if singles[k] > 0 else ()


def _z(hits: np.ndarray, n: np.ndarray, other_hits: np.ndarray, other_n: np.ndarray) -> np.ndarray:
    """The two-proportion z statistic of hits / n against other_hits / other_n, elementwise; -inf where either
    side is empty or nothing varies."""
    with np.errstate(divide="ignore", invalid="ignore"):
        pooled = (hits + other_hits) / (n + other_n)
        z = (hits / n - other_hits / other_n) / np.sqrt(pooled * (1 - pooled) * (1 / n + 1 / other_n))
    return np.where(np.isfinite(z), z, -np.inf)


def _judged(conditions: tuple[Condition, ...], situations: Mapping[str, Situation], held: pd.DataFrame,
            best: np.ndarray, alpha: float, train_games: int, held_out_games: tuple[int, ...]) -> When:
    """The held-out figures of the situation `conditions` (see `When`)."""
    from scipy.stats import fisher_exact

    inside = np.ones(len(held), dtype=bool)
    for condition in conditions:
        inside &= condition.holds(held)
    n_in, n_out = int(inside.sum()), int((~inside).sum())
    in_best, out_best = int(best[inside].sum()), int(best[~inside].sum())
    base = float(best.mean()) if len(best) else math.nan
    p_value = 1.0
    if conditions and n_in and n_out:
        table = np.array([[in_best, n_in - in_best], [out_best, n_out - out_best]])
        p_value = float(fisher_exact(table, alternative="greater").pvalue)
    right = in_best + (n_out - out_best) if conditions else 0
    inside_ci = stats.wilson_interval(in_best, n_in) if n_in else (math.nan, math.nan)
    # found only where the interval printed beside the share also lies above the shares it is set against
    apart = bool(n_in) and inside_ci[0] > max(base, out_best / n_out if n_out else 0.0)
    return When(conditions=conditions, words=tuple(condition.words(situations) for condition in conditions),
                found=bool(conditions) and n_in >= MIN_HELD_OUT and p_value < alpha and apart, alpha=alpha,
                train_games=train_games, held_out_games=held_out_games, held_out=len(held), inside=n_in,
                inside_best=in_best, inside_ci=inside_ci,
                outside=n_out, outside_best=out_best, base_rate=base, p_value=p_value,
                accuracy=right / len(held) if len(held) and conditions else math.nan,
                base_accuracy=max(base, 1 - base) if len(best) else math.nan)


def _share(share: float) -> str:
    return "under 1%" if 0 < share < 0.005 else f"{share:.0%}"


def when_sentence(result: When, option_words: str) -> str:
    """The situation in game words for the Answer: "A die on the Fishing action is the best move most often when it
    is round 6 and you hold at least 2 shells: best in 41% (30% to 53%) of such decisions, against 1% of the
    others."; or that no such situation was found. Both shares are of the decisions the situation was checked on,
    as "How sure" gives them; the answer's overall share, of every judged decision, is not repeated here, so that
    two overall shares of different samples never stand side by side."""
    option = option_words[:1].upper() + option_words[1:]
    if not result.found:
        return f"No situation was found in which {option_words} is clearly more often the best move."
    low, high = result.inside_ci
    return (f"{option} is the best move most often when {result.situation_words}: best in "
            f"{_share(result.inside_share)} ({_share(low)} to {_share(high)}) of such decisions, against "
            f"{_share(result.outside_share)} of the others.")


def how_sure_sentence(result: When) -> str:
    """The figures behind `when_sentence`, for a report's "How sure" section."""
    games = len(result.held_out_games)
    if not result.conditions:
        return (f"No situation held at least {MIN_TRAIN} decisions with a best-move share above the overall one "
                f"in the {result.train_games:,} games searched, so none was checked on the {games:,} other games.")
    low, high = result.inside_ci
    sentence = (
        f"The situation ({result.situation_words}) was learned from {result.train_games:,} games and checked on "
        f"{games:,} others: there, the option was the best move at {result.inside_best:,} of the "
        f"{result.inside:,} decisions in the situation ({_share(result.inside_share)}, Wilson 95% interval "
        f"{_share(low)} to {_share(high)}) and at {result.outside_best:,} of the {result.outside:,} others "
        f"({_share(result.outside_share)}; Fisher's exact test, one-sided, p = {result.p_value:.2g}). As a rule "
        f"\"best exactly in the situation\" it is right at {result.accuracy:.0%} of the {result.held_out:,} "
        f"checked decisions, against {result.base_accuracy:.0%} for always predicting the more common outcome.")
    if result.found:
        return sentence
    return (f"{sentence} That is not enough to report it: it needs p below {result.alpha:g} and at least "
            f"{MIN_HELD_OUT} checked decisions in the situation.")


def example_row(values: pd.DataFrame, result: When) -> pd.Series | None:
    """A decision in the found situation where the option was the best move, to show as a picture: from the
    held-out games when one is there, the one with the widest rechecked margin; None when no situation was found
    or no such decision is in `values`."""
    if not result.found or values.empty:
        return None
    chosen = values[result.holds(values) & values["best"].to_numpy(dtype=bool)]
    if chosen.empty:
        return None
    held = chosen[chosen["game_id"].isin(result.held_out_games)]
    pool = held if len(held) else chosen
    margin = "recheck_advantage" if "recheck_advantage" in pool else "advantage"
    row: pd.Series = pool.iloc[int(pool[margin].to_numpy(dtype=float).argmax())]
    return row


def example_caption(row: pd.Series, result: When) -> str:
    """The words under the example's picture: "Round 6, when you hold at least 2 shells: place 5 on fishing was the
    best move (seat 1's view)"."""
    return (f"Round {int(row['round'])}, when {result.situation_words}: {row['option_words']} was the best move "
            f"(seat {int(row['seat'])}'s view).")


def write_example_picture(path: str | os.PathLike[str], row: pd.Series, game: str,
                          components: str | os.PathLike[str] | None = None) -> Path:
    """Writes the picture of the decision of `row` (its `game_seed`, `players_by_seat` joined by "|", `decision`
    counted from the start of the game, `seat` and `option`) in `game` (a game spec) to `path`, an .svg file (or
    .png, which needs CairoSVG), as the deciding seat sees it; returns the path. The game is played again as the
    question played it; a replay that does not reach that decision with that option legal is a ValueError."""
    from borabora_sim.viewer import to_svg
    from borabora_sim.viewer.replay import record_game

    target = Path(path)
    if target.suffix.lower() not in PICTURE_SUFFIXES:
        raise ValueError(f"an example's picture is an .svg or a .png file, not {target.name!r}")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"cannot write {target}: no such directory {target.parent}")
    record = record_game(int(row["game_seed"]), str(row["players_by_seat"]).split("|"), components, game, reasons=0)
    decision, seat = int(row["decision"]), int(row["seat"])
    state = record.game.new_initial_state(players=len(record.players), seed=record.seed)
    for action in record.actions[:decision]:
        state.apply(action)
    legal = [state.action_to_string(action) for action in state.legal_actions()] if not state.is_terminal() else []
    if decision > len(record.actions) or state.current_player != seat or row["option"] not in legal:
        raise ValueError(f"game seed {record.seed} played again does not reach decision {decision} of seat {seat} "
                         f"with {row['option']!r} legal: were these the question's game and components?")
    svg = to_svg(state, seat, record.game)
    if target.suffix.lower() == ".png":
        from borabora_sim.viewer.png import svg_to_png

        target.write_bytes(svg_to_png(svg))
    else:
        target.write_text(svg, encoding="utf-8")
    return target


__all__ = [
    "MAX_COVERAGE",
    "MIN_HELD_OUT",
    "MIN_TRAIN",
    "Condition",
    "When",
    "example_caption",
    "example_row",
    "find_situation",
    "how_sure_sentence",
    "when_sentence",
    "write_example_picture",
]
