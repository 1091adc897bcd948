"""The page "How fast, how strong, what the studies found" (figures.md), made from the results files of the runs:
the benchmarks' JSON files in benchmarks/results/ (each written by a benchmark's `--json`), the ladders' ratings in
benchmarks/results/ladder/<game>/, and the answered questions' summaries in analysis/results/. Every figure on the
page is read from those files when the site is built (docs/gen/figures.py), so the page shows the runs' numbers;
rerunning a command of `COMMANDS` and rebuilding the site updates it. Nothing here needs mkdocs, so the tests call
`figures_markdown` directly."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS = Path("benchmarks") / "results"
STUDIES = Path("analysis") / "results"
GAME_TITLES = {"bora_bora": "Bora Bora", "bamboo": "Bamboo"}     # the games with a ladder and threads figures

# The command that wrote each results file, run from the repository's root (the benchmarks do not record it).
COMMANDS = {
    "engine.json": "python benchmarks/bench_engine.py --json benchmarks/results/engine.json",
    "simulate.json": "python benchmarks/bench_simulate.py --games 100000 --json benchmarks/results/simulate.json",
    "threads.json": "python benchmarks/bench_threads.py --games 100 --json benchmarks/results/threads.json",
    "players_heuristic.json": "python benchmarks/bench_players.py --rows heuristic,tuned_vs_h --games 2000 "
                              "--json benchmarks/results/players_heuristic.json",
    "players_mcts.json": "python benchmarks/bench_players.py --rows mcts250,mcts1000,speed --games 100 "
                         "--json benchmarks/results/players_mcts.json",
    "bamboo_players_heuristic.json": "python benchmarks/bench_bamboo_players.py "
                                     "--rows heuristic4,heuristic2,builder4,spirits4,tuned4,tuned2 --games 1000 "
                                     "--jobs 2 --speed --json benchmarks/results/bamboo_players_heuristic.json",
    "bamboo_players_mcts.json": "python benchmarks/bench_bamboo_players.py --rows mctsbamboo,mctsbambootwo "
                                "--games 200 --jobs 2 --json benchmarks/results/bamboo_players_mcts.json",
}

HEADER = """# How fast, how strong, what the studies found

Every figure on this page is read from the results files of the runs when the site is built: the benchmarks' JSON
files in `benchmarks/results/`, the ladders' ratings in `benchmarks/results/ladder/` and the studies' summaries in
`analysis/results/`. Each section names its file, the command that wrote it (run from the repository's root), and
the benchmark's own page, which says what each row measures. Rerunning a command and rebuilding the site updates
the page. A load average near the number of cores at the start of a run means other work held a core during it;
ratios measured within one run are then the figures to compare.
"""


def percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def source_line(name: str, when: str, readme: str) -> str:
    """Where a section's figures come from: the results file, when and where it was measured, how to remeasure."""
    return (f"From [`benchmarks/results/{name}`](../benchmarks/results/{name}){when}: `{COMMANDS[name]}`; "
            f"what each row measures: {readme}.")


def machine_note(machine: dict[str, Any]) -> str:
    """The date, processor, cores and load of a benchmark's `machine` record."""
    return (f" ({machine['date'][:10]}, {machine['cpu']}, {machine['cpu_count']} cores, load average "
            f"{machine['load_average'][0]:.1f} at the start, commit {machine['commit']})")


def engine_lines(engine: dict[str, Any]) -> list[str]:
    playouts = {row["players"]: row for row in engine["playouts"]}
    four = playouts.pop(4)
    fewer = ", ".join(f"{row['games_per_s']:,.0f} with {players} players"
                      for players, row in sorted(playouts.items(), reverse=True))
    lines = ["## How fast", "",
             f"- Compiled random playouts on one core: {four['games_per_s']:,.0f} 4-player games per second "
             f"({fewer}), {four['us_per_decision']:.3f} µs a decision."]
    stepping = engine["stepping"]
    ours = stepping[0]
    others = [f"OpenSpiel's {row['engine'].removeprefix('openspiel ')} {row['us_per_step']:.2f} µs "
              f"({row['ratio_vs_borabora']:.2f} x ours)" for row in stepping[1:]]
    step = (f"- Stepping from Python (`legal_actions()` then `apply()`), 4-player Bora Bora: "
            f"{ours['us_per_step']:.2f} µs a step")
    lines.append(f"{step}; in the same run {' and '.join(others)}." if others
                 else f"{step} ({engine['stepping_skipped']}).")
    clone = next(row for row in engine["clone"] if row["what"] == "borabora State.clone()")
    lines += [f"- `State.clone()` {clone['us']:.3f} µs; a state is {engine['state_bytes']:,} bytes.", "",
              source_line("engine.json", machine_note(engine["machine"]),
                          "[benchmarks/README.md](../benchmarks/README.md#results-on-this-machine)"), ""]
    return lines


def simulate_lines(simulate: dict[str, Any]) -> list[str]:
    return [f"- The batch simulator writes {simulate['one_worker_games_per_s']:,.0f} random 4-player games per "
            f"second to Parquet on one worker, {percent(simulate['end_to_end_over_raw'])} of the bare compiled rate "
            f"of the same run ({simulate['raw_games_per_s']:,.0f}); on 2 workers "
            f"{simulate['two_workers_games_per_s']:,.0f} games per second, {simulate['speedup_two_workers']:.2f} x "
            f"one worker (bare compiled playouts in 2 processes did {simulate['machine_speedup']:.2f} x one in the "
            f"same run); {simulate['parquet_bytes_per_game']:.0f} bytes of Parquet a game, and a million games on 2 "
            f"workers in an estimated {simulate['million_estimate_s']:.0f} s.", "",
            source_line("simulate.json", f" ({simulate['date'][:10]}, {simulate['cpus']} cores)",
                        "[Batch simulation](simulation.md#throughput)"), ""]


def threads_lines(threads: dict[str, Any]) -> list[str]:
    lines = []
    if "speed" in threads:
        speed = threads["speed"]
        for game, title in GAME_TITLES.items():
            rows = [row for row in speed["rows"] if row["game"] == game]
            one, two = sum(row["iterations_1"] for row in rows), sum(row["iterations_2"] for row in rows)
            cpu = sum(row["cpu_per_wall_2"] for row in rows) / len(rows)
            lines.append(f"- {title}: `mcts:...,threads=2` does {two / one:.2f} x the iterations of one "
                         f"thread in {speed['seconds']:g} s a decision ({len(rows)} mid-game positions, totals; "
                         f"CPU time {cpu:.2f} x the wall time of the 2-thread searches, 2 when the second core is "
                         "free).")
    if "strength" in threads:
        strength = threads["strength"]
        ratio = strength["iterations_per_decision_2"] / strength["iterations_per_decision_1"]
        lines.append(f"- At equal time per decision ({1000 * strength['seconds']:g} ms), two `threads=2` seats won "
                     f"{percent(strength['share'])} (95% CI {interval(strength['wilson_lo'], strength['wilson_hi'])}, "
                     f"{strength['games']} games of 4-player Bora Bora) against two single-threaded ones (50%: no "
                     f"difference), their searches doing {ratio:.2f} x the iterations of the single-threaded ones "
                     f"(load average {strength['load_1min_mean']:.1f} on average during the games).")
    readme = ("[benchmarks/README_players.md](../benchmarks/README_players.md"
              "#root-parallel-mcts-two-cores-for-one-decision-threads2)")
    return ["## Two cores for one decision", "", *lines, "", source_line("threads.json", machine_note(
        threads["machine"]), readme), ""]


def win_rate_table(rows: list[dict[str, Any]]) -> list[str]:
    """One line a row: the tested player, its opponents, the games and wins (a shared first place counts its share),
    the win rate with its Wilson 95% interval. A row without "players" is of a 4-player game."""
    head = "| player | against | games | wins | win rate | 95% CI | CPU s a game |"
    rule = "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    lines = [head, rule]
    for row in rows:
        lines.append(f"| `{row['tested']}` | {row.get('players', 4) - 1} x `{row['opponent']}` | {row['games']:,} | "
                     f"{row['wins']:,g} | {percent(row['win_rate'])} | {interval(row['wilson_lo'], row['wilson_hi'])} "
                     f"| {row['cpu_seconds_per_game']:.3f} |")
    return lines


def players_lines(heuristic: dict[str, Any], mcts: dict[str, Any]) -> list[str]:
    readme = "[benchmarks/README_players.md](../benchmarks/README_players.md#results-on-this-machine)"
    lines = ["## How strong: Bora Bora", "",
             "Win rates of a player against three copies of another, its seat rotated; an equal player wins 25%.", "",
             *win_rate_table(heuristic["ladder"]), "",
             source_line("players_heuristic.json", machine_note(heuristic["machine"]), readme), "",
             *win_rate_table(mcts["ladder"]), "",
             source_line("players_mcts.json", machine_note(mcts["machine"]), readme), ""]
    speed = mcts.get("speed")
    if speed:
        searches = "; ".join(f"`{row['player']}` {row['per_second']:,.0f} {row['unit']} per second"
                             for row in speed["search"])
        decisions = "; ".join(f"`{row['player']}` {row['us_per_decision']:.1f} µs" for row in speed["decisions"])
        lines += [f"- Search speed on one core, from {speed['positions']} mid-game positions (same file): "
                  f"{searches}.",
                  f"- Time a decision from Python ({speed['decision_states']:,} decision states of heuristic games): "
                  f"{decisions}.", ""]
    return lines


def bamboo_rows(results: dict[str, Any] | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a Bamboo players file: a list, or under "rows" when the file also holds the speed part."""
    return results["rows"] if isinstance(results, dict) else results


def bamboo_players_lines(heuristic: dict[str, Any] | list[dict[str, Any]],
                         mcts: dict[str, Any] | list[dict[str, Any]]) -> list[str]:
    readme = "[benchmarks/README_players.md](../benchmarks/README_players.md#bamboo-players)"
    lines = ["## How strong: Bamboo", "",
             "Win rates of a player against the others of a game, its seat rotated (a shared first place counts "
             "its share); an equal player wins 25% of a 4-player game, 50% of a 2-player one.", "",
             *win_rate_table(bamboo_rows(heuristic)), "",
             source_line("bamboo_players_heuristic.json", "", readme), ""]
    if isinstance(heuristic, dict) and heuristic.get("speed"):
        decisions = "; ".join(f"`{row['player']}` {row['us_per_decision']:.1f} µs" for row in heuristic["speed"])
        lines += [f"- CPU time a decision from Python (same file): {decisions}.", ""]
    lines += [*win_rate_table(bamboo_rows(mcts)), "",
              source_line("bamboo_players_mcts.json", "", readme), ""]
    return lines


def ladder_lines(game: str, ratings: list[dict[str, str]], games: int) -> list[str]:
    """A game's ladder: every player's rating with its 95% interval and its CPU time a decision."""
    anchor = "results-on-this-machine" if game == "bora_bora" else "bamboo"
    lines = [f"### {GAME_TITLES[game]}", "",
             f"{games:,} games at mixed 4-player tables; rating on the Elo scale, `heuristic:style=balanced` = 0.", "",
             "| player | rating | 95% interval | CPU a decision |", "| --- | ---: | ---: | ---: |"]
    for row in ratings:
        cpu_ms = float(row["cpu_ms_per_decision"])
        cpu = f"{cpu_ms:.1f} ms" if cpu_ms >= 1 else f"{1000 * cpu_ms:.0f} µs"
        lines.append(f"| `{row['player']}` | {float(row['rating']):+.0f} | {float(row['ci_low']):+.0f} to "
                     f"{float(row['ci_high']):+.0f} | {cpu} |")
    where = f"benchmarks/results/ladder/{game}"
    lines += ["", f"From [`{where}/ratings.csv`](../{where}/ratings.csv): "
                  f"`python benchmarks/ladder.py --game {game} --games {games} --jobs 2`; how the ladder is played "
                  f"and rated: [benchmarks/README_ladder.md](../benchmarks/README_ladder.md#{anchor}).", ""]
    return lines


def study_lines(summaries: dict[str, dict[str, Any]]) -> list[str]:
    """Each study's verdict (its summary's headline, the report's first sentence) and certainty, by game."""
    lines = ["## What the studies found", "",
             "Each built-in question answered at its default size (`borabora ask NAME --out DIR` reproduces one); the "
             "answer is the first sentence of its report, the verdict for the strongest player measured, and holds "
             "for the players and opponents it names. The [Strategy atlas](atlas.md) has the same answers in a "
             "table.", ""]
    for game in sorted({summary["game"] for summary in summaries.values()}):
        lines += [f"### {game}", ""]
        for name, summary in sorted(summaries.items()):
            if summary["game"] == game:
                lines.append(f"- [{summary['title']}](atlas/{name}.md): {summary['headline']} "
                             f"How sure: {summary['certainty']}.")
        lines.append("")
    return lines


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def figures_markdown(root: Path = ROOT) -> str:
    """The page, from the results files under `root` (the repository)."""
    def results(name: str) -> Any:
        return read_json(root / RESULTS / name)

    lines = [HEADER, *engine_lines(results("engine.json")), *simulate_lines(results("simulate.json")),
             *threads_lines(results("threads.json")),
             *players_lines(results("players_heuristic.json"), results("players_mcts.json")),
             *bamboo_players_lines(results("bamboo_players_heuristic.json"), results("bamboo_players_mcts.json")),
             "## The ladder of all players", "",
             "Every player of a game on one rating scale, from the finishing orders of games at mixed tables, with "
             "the CPU time each spends a decision.", ""]
    for game in GAME_TITLES:
        folder = root / RESULTS / "ladder" / game
        with (folder / "ratings.csv").open(encoding="utf-8", newline="") as ratings:
            rows = list(csv.DictReader(ratings))
        with (folder / "games.csv").open(encoding="utf-8", newline="") as games:
            played = sum(1 for _ in csv.DictReader(games))
        lines += ladder_lines(game, rows, played)
    summaries = {path.parent.name: read_json(path) for path in sorted((root / STUDIES).glob("*/summary.json"))}
    lines += study_lines(summaries)
    return "\n".join(lines).rstrip("\n") + "\n"
