#!/usr/bin/env python
"""The network players against the goals of docs/expert.md: win rates with Wilson 95% intervals and CPU per decision,
measured in one run.

Rows (4-player games unless --players says otherwise; seats rotated over common deals):
    expert          `expert` against three balanced heuristics (Bamboo: three tuned ones)
    net_<ms>        the network's search at <ms> per decision against the same opponents
    h2h_<ms>        the network's search against today's best search at the same time per decision, two seats each
                    (A B A B, rotated): the share of games the network's seats win (50% = equal)
The network's search is `mcts:...,evaluation=net` (the network's value judges the leaves; --search value) or the
best search with the network's policy as its priors, `mcts:...,prior=net` (rollouts judge the leaves; --search
prior).
The tested seats' CPU per decision is time.process_time() around choose().

Usage:
    python benchmarks/bench_expert.py --game bora_bora --network runs/network-bora.npz [--rows expert,net10,h2h10]
                                      [--games N] [--players P] [--jobs J] [--seed S] [--search value|prior]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from joblib import Parallel, delayed

from borabora_sim.games import get_game
from borabora_sim.players import make_player
from borabora_sim.stats import wilson_interval

# The opponents of the one-seat rows, and today's best search at a time per decision, per game
OPPONENT = {"bora_bora": "heuristic:style=balanced", "bamboo": "heuristic:style=tuned"}
BEST_SEARCH = {"bora_bora": "mcts:seconds={s},rollout=heuristic,rollout_depth=30", "bamboo": "mcts:seconds={s}"}
GUIDE = {"value": "evaluation=net", "prior": "prior=net"}      # --search: how the network guides the search


def row_specs(row: str, game: str, network: str, players: int, search: str = "value") -> tuple[list[str], list[int]]:
    """The seats' specs of one deal (before rotation) and which seats are tested."""
    opponent = OPPONENT.get(game, "heuristic")
    if row == "expert":
        return [f"expert:network={network}"] + [opponent] * (players - 1), [0]
    if row.startswith(("net", "h2h")):
        seconds = int(row[3:]) / 1000
        best = BEST_SEARCH.get(game, "mcts:seconds={s}").format(s=f"{seconds:g}")
        mine = f"{best if search == 'prior' else f'mcts:seconds={seconds:g}'},{GUIDE[search]},network={network}"
    if row.startswith("net"):
        return [mine] + [opponent] * (players - 1), [0]
    if row.startswith("h2h"):
        return [mine if seat % 2 == 0 else best for seat in range(players)], list(range(0, players, 2))
    raise SystemExit(f"unknown row {row!r}: expert, net<ms> or h2h<ms>")


def play(game_name: str, specs: Sequence[str], tested: Sequence[int], deal: int, seed: int) -> list[tuple]:
    """Every rotation of one deal: per rotation the tested seats' share of the win, their CPU and decisions."""
    game = get_game(game_name)
    players = len(specs)
    out = []
    for shift in range(players):
        seats = [make_player(specs[(s - shift) % players], seed=seed + 97 * deal + s, game=game)
                 for s in range(players)]
        mine = {(t + shift) % players for t in tested}
        state = game.new_initial_state(players=players, seed=seed + deal)
        cpu, decisions = 0.0, 0
        while not state.is_terminal():
            seat = state.current_player
            start = time.process_time()
            action = seats[seat].choose(state)
            if seat in mine:
                cpu += time.process_time() - start
                decisions += 1
            state.apply(action)
        winners = [s for s, rank in enumerate(state.ranks()) if rank == 1]
        out.append((sum(1 for s in winners if s in mine) / len(winners), cpu, decisions))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bora_bora")
    parser.add_argument("--network", required=True)
    parser.add_argument("--rows", default="expert,net10,h2h10")
    parser.add_argument("--games", type=int, default=1000, help="games per row (rounded up to whole rotations)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20_261_201)
    parser.add_argument("--search", choices=sorted(GUIDE), default="value",
                        help="the network's search: its value judges the leaves, or its policy is a rollout "
                             "search's priors")
    args = parser.parse_args()
    print(f"game {args.game}, {args.players} players, network {args.network}, seed {args.seed}")
    print("| row | tested | against | games | wins | win rate | Wilson 95% | equal | CPU ms/decision |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in args.rows.split(","):
        specs, tested = row_specs(row, args.game, args.network, args.players, args.search)
        deals = -(-args.games // args.players)
        results = [r for chunk in Parallel(n_jobs=args.jobs)(
            delayed(play)(args.game, specs, tested, deal, args.seed) for deal in range(deals)) for r in chunk]
        wins = sum(r[0] for r in results)
        low, high = wilson_interval(wins, len(results))
        equal = len(tested) / args.players
        ms = 1000 * sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
        against = sorted({spec for seat, spec in enumerate(specs) if seat not in tested})
        print(f"| {row} | {specs[tested[0]]} | {', '.join(against)} | {len(results)} | {wins:g} | "
              f"{wins / len(results):.3f} | {low:.3f}-{high:.3f} | {equal:.2f} | {ms:.2f} |", flush=True)


if __name__ == "__main__":
    main()
