"""Ratings of players from the final ranks of simulated games: Weng-Lin Bayesian ratings (openskill), a ladder
score per spec. They rank; they do not test: `borabora_sim.stats` compares two specs with intervals and p-values."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def ratings(players: pd.DataFrame, model: Any = None, by: str = "spec") -> pd.DataFrame:
    """Weng-Lin Bayesian ratings (Plackett-Luce model from `openskill` by default) of each spec from the final
    ranks of every game, updated game by game in game_id order. The default model has no skill drift
    (tau = 0): a spec is a fixed policy, so every game counts equally and sigma keeps shrinking; pass another
    openskill model (e.g. `PlackettLuce()` with its default drift, or `BradleyTerryFull()`) to change that.

    Returns mu, sigma, ordinal (mu - 3 sigma, the conservative ladder score), games and rows, sorted best first.
    When a spec fills several seats of one game each copy is rated as a separate player against the others and
    the spec takes the mean of their updated mu and sigma. Sigma is the model's uncertainty, not a confidence
    interval: compare specs with `head_to_head` or `paired_ab` for tests.
    """
    if model is None:
        from openskill.models import PlackettLuce

        model = PlackettLuce(tau=0.0)
    rows = players.sort_values(["game_id", "seat"], kind="stable")
    keys = rows[by].astype(str).to_numpy()
    ranks = rows["rank"].to_numpy()
    game_ids = rows["game_id"].to_numpy()
    current = {key: model.rating(name=key) for key in dict.fromkeys(keys)}
    games = dict.fromkeys(current, 0)
    counts = dict.fromkeys(current, 0)
    bounds = np.flatnonzero(np.diff(game_ids)) + 1
    for start, end in zip(np.r_[0, bounds], np.r_[bounds, len(rows)], strict=True):
        game_keys = keys[start:end]
        if len(set(game_keys)) < 2:
            continue
        updated = model.rate([[current[key]] for key in game_keys], ranks=[int(r) for r in ranks[start:end]])
        fresh: dict[str, list[tuple[float, float]]] = {}
        for key, team in zip(game_keys, updated, strict=True):
            fresh.setdefault(key, []).append((team[0].mu, team[0].sigma))
            counts[key] += 1
        for key, values in fresh.items():
            mu = float(np.mean([v[0] for v in values]))
            sigma = float(np.mean([v[1] for v in values]))
            current[key] = model.rating(mu=mu, sigma=sigma, name=key)
            games[key] += 1
    table = pd.DataFrame([{by: key, "mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma,
                           "games": games[key], "rows": counts[key]} for key, r in current.items()])
    return table.sort_values("ordinal", ascending=False, ignore_index=True).set_index(by)


__all__ = ["ratings"]
