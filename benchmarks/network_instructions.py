#!/usr/bin/env python
"""Instructions per decision of the one-pass `expert` and per iteration of the network's search
(`mcts:...,evaluation=net`), both games with their shipped networks, counted by valgrind's callgrind.

Each workload runs twice under callgrind (callgrind.py), with a small and a large amount of work, from the same
mid-game 4-player position (20 moves of the first legal action from seed 1): the search from that position with
`--iterations` (and a sixth of them), the expert deciding there `--decisions` times (and none). The difference
divided by the extra work is the cost of one unit: for the search, the average over its iterations, the network's
evaluations of leaves (every seat) and its policy at each new node (every legal action's afterstate) included.

    python benchmarks/network_instructions.py [--iterations 1200] [--decisions 2000]

Needs valgrind on the PATH (Debian: apt-get install valgrind); takes about three minutes.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from callgrind import callgrind_total

WORK = """
import sys
from borabora_sim.games import get_game
from borabora_sim.players import make_player
game_name, kind, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
game = get_game(game_name)
state = game.new_initial_state(players=4, seed=1)
for _ in range(20):
    state.apply(state.legal_actions()[0])
if kind == "search":
    player = make_player(f"mcts:iterations={count},evaluation=net", 1, game)
    player.reset(1)
    player.choose(state.clone())
else:
    player = make_player("expert", 1, game)
    player.reset(1)
    for _ in range(count):
        player.choose(state)
"""


def per_unit(game: str, kind: str, small: int, large: int, workdir: Path) -> float:
    """Instructions per unit of work of `kind` in `game`: the difference of a large and a small run, per unit."""
    counts = [callgrind_total(WORK, [game, kind, str(n)], workdir / f"callgrind.{game}.{kind}.{n}")
              for n in (small, large)]
    return (counts[1] - counts[0]) / (large - small)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1200, help="iterations of the larger search (default 1200)")
    parser.add_argument("--decisions", type=int, default=2000, help="expert decisions of the larger run "
                                                                     "(default 2000)")
    args = parser.parse_args()
    if args.iterations < 6 or args.decisions < 1:
        parser.error(f"--iterations must be at least 6 and --decisions positive, got {args.iterations} and "
                     f"{args.decisions}")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not on the PATH (Debian: apt-get install valgrind)")
    print("| game | instructions per search iteration | instructions per expert decision |\n|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for game in ("bora_bora", "bamboo"):
            search = per_unit(game, "search", args.iterations // 6, args.iterations, work)
            expert = per_unit(game, "expert", 0, args.decisions, work)
            print(f"| {game} | {search:,.0f} | {expert:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
