#!/usr/bin/env python
"""Two players head to head, with the CPU each spends per decision: the measurements behind the player presets
(`strong`, `best`; docs/players.md).

Each deal is played once per rotation of the seats, so every seat plays every position of the seat order: with
`--players 2` the two players swap seats, with 4 and `--tested-seats 2` they sit A B A B and rotate. A shared
first place counts 1/k. The tested player's win share has a Wilson 95% interval; its equal share is
tested seats / players. CPU per decision is time.process_time() around choose(), over the decisions with two or
more legal actions; the table gives the mean and the largest.

Usage:
    python benchmarks/bench_presets.py --game bora_bora --tested strong --opponent \\
        "mcts:iterations=2300,evaluation=net" --players 2 --games 20
    python benchmarks/bench_presets.py --game pig --tested strong --opponent heuristic --games 400
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from borabora_sim.games import get_game
from borabora_sim.players import make_player
from borabora_sim.stats import wilson_interval


@dataclass
class Side:
    """What one of the two players did over the games: its share of the wins, its CPU by decision."""

    spec: str
    wins: float = 0.0
    cpu: list[float] = field(default_factory=list)

    def cpu_text(self) -> str:
        if not self.cpu:
            return "no decision"
        return f"{1000 * sum(self.cpu) / len(self.cpu):.1f} ms mean, {1000 * max(self.cpu):.0f} ms max"


def play_deal(game_spec: str, tested: Side, opponent: Side, players: int, tested_seats: int, deal: int,
              seed: int) -> int:
    """Every rotation of deal `deal`; the games played."""
    game = get_game(game_spec)
    if tested_seats * 2 == players:                 # A B A B: the two alternate round the table
        base = [tested if seat % 2 == 0 else opponent for seat in range(players)]
    else:
        base = [tested] * tested_seats + [opponent] * (players - tested_seats)
    for shift in range(players):
        sides = [base[(seat - shift) % players] for seat in range(players)]
        seats = [make_player(side.spec, seed=game.derive_seed(seed + deal, 1 + 4 * shift + seat), game=game)
                 for seat, side in enumerate(sides)]
        state = game.new_initial_state(players=players, seed=game.derive_seed(seed, deal))
        while not state.is_terminal():
            seat = state.current_player
            start = time.process_time()
            action = seats[seat].choose(state)
            spent = time.process_time() - start
            if len(state.legal_actions()) > 1:
                sides[seat].cpu.append(spent)
            state.apply(action)
        winners = [seat for seat, rank in enumerate(state.ranks()) if rank == 1]
        for seat in winners:
            sides[seat].wins += 1 / len(winners)
    return players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bora_bora")
    parser.add_argument("--tested", required=True, help="the tested player's spec (a preset too)")
    parser.add_argument("--opponent", required=True, help="the other player's spec")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tested-seats", type=int, help="seats of the tested player (default: half)")
    parser.add_argument("--games", type=int, default=20, help="games (rounded up to whole rotations of a deal)")
    parser.add_argument("--seed", type=int, default=20_261_210)
    args = parser.parse_args()
    tested_seats = args.players // 2 if args.tested_seats is None else args.tested_seats
    if not 0 < tested_seats < args.players:
        raise SystemExit(f"--tested-seats must be 1 to {args.players - 1}")
    tested, opponent = Side(args.tested), Side(args.opponent)
    started = time.process_time(), time.time()
    games = 0
    for deal in range(-(-args.games // args.players)):
        games += play_deal(args.game, tested, opponent, args.players, tested_seats, deal, args.seed)
        print(f"{games} games, tested {tested.wins:g} wins, {time.process_time() - started[0]:.0f} s CPU",
              file=sys.stderr, flush=True)
    low, high = wilson_interval(tested.wins, games)
    print(f"game {args.game}, {args.players} players ({tested_seats} tested seats), seed {args.seed}, "
          f"{games} games, {time.process_time() - started[0]:.0f} s CPU, {time.time() - started[1]:.0f} s wall")
    print("| tested | against | games | tested's wins | win share | Wilson 95% | equal share | tested CPU/decision "
          "| opponent CPU/decision |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| `{tested.spec}` | `{opponent.spec}` | {games} | {tested.wins:g} | {tested.wins / games:.3f} | "
          f"{low:.3f}-{high:.3f} | {tested_seats / args.players:.2f} | {tested.cpu_text()} | "
          f"{opponent.cpu_text()} |")


if __name__ == "__main__":
    main()
