"""Golden traces: fixed random games of the games replayed against the files of tests/data/golden/, one file per
game spec (Bora Bora's, Bamboo's in normal and advanced mode, Pig's), each for every player count of its game and
the seeds its header names. A game without a file is skipped, saying so.

Each game takes `legal[rng.randrange(len(legal))]` at every decision with `rng = random.Random(seed)`. A file pins
the number of legal actions at every decision, the number of applied actions, the final scores and what its
header's `finals` name (the winners, the score breakdown, Bamboo's comfort totals, ...); most files also the name
of every action taken, so any change of behaviour shows up here with the first decision that differs.

The files are written only on purpose, for a new game or after a deliberate rule (or component data) change,
with `PYTHONPATH=. python tests/make_golden.py [game ...]`, and the reason goes in the commit message. A failure
here is otherwise a regression to be fixed in the engine, not in the files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import make_golden
import pytest
from make_golden import FORMAT, VERSION, Golden, finals, golden_files

from borabora_sim.games import game_names, get_game, parse_game_spec

FILES = golden_files()
TRACES = [(label, game) for label, data in FILES.items() for game in data["games"]]


def test_every_golden_file_is_of_a_registered_game_named_after_its_spec() -> None:
    for label, data in FILES.items():
        assert (data["format"], data["version"]) == (FORMAT, VERSION), label
        assert parse_game_spec(data["game"])[0] in game_names(), label
        assert Golden.of(data).label == label
        assert Golden.of(data).spec == Golden.new(data["game"]).spec, f"{label}: every option is written out"


@pytest.mark.parametrize("name", game_names())
def test_golden_files_cover_their_seeds_for_every_player_count_with_the_builtin_components(name: str) -> None:
    labels = [label for label, data in FILES.items() if Golden.of(data).game == name]
    if not labels:
        pytest.skip(f"{name} has no golden traces: write them on purpose with "
                    f"PYTHONPATH=. python tests/make_golden.py {name}")
    for label in labels:
        data, golden = FILES[label], Golden.of(FILES[label])
        game = get_game(golden.spec)
        assert sorted((g["players"], g["seed"]) for g in data["games"]) == \
            [(players, seed) for players in game.player_counts for seed in golden.seeds], label
        assert data["fingerprint"] == game.fingerprint, (
            f"the built-in component data (or the rules' data) of {golden.spec} changed: write its golden files "
            f"again on purpose (tests/make_golden.py {name})")


@pytest.mark.parametrize(("label", "game"), TRACES,
                         ids=[f"{label}-{game['players']}p-seed{game['seed']}" for label, game in TRACES])
def test_replay_matches_golden_trace(label: str, game: dict[str, Any]) -> None:
    replay(Golden.of(FILES[label]), game)


@pytest.mark.parametrize("name", [name for name in game_names()
                                  if not any(Golden.of(data).game == name for data in FILES.values())])
def test_a_game_without_golden_traces_gets_a_file_that_replays(name: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(make_golden, "GOLDEN", tmp_path)
    make_golden.main([name])
    (written,) = tmp_path.glob("*.json")
    data = json.loads(written.read_text())
    assert Golden.of(data) == Golden.new(name) and written.stem == Golden.new(name).label
    replay(Golden.of(data), data["games"][-1])


def replay(golden: Golden, game: dict[str, Any]) -> None:
    """Plays the game of a golden file's line and checks it decision by decision."""
    alphabet = golden.alphabet
    expected = game["legal_counts"]
    taken = game["actions"].split(";") if golden.names else None
    assert taken is None or len(taken) == len(expected)
    state = get_game(golden.spec).new_initial_state(players=game["players"], seed=game["seed"])
    rng = random.Random(game["seed"])
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert step < len(expected), f"the game goes on past the {len(expected)} recorded decisions"
        assert alphabet.index(expected[step]) == len(legal), (
            f"decision {step} ({state.phase}, {state.decision}): {len(legal)} legal actions, golden "
            f"{alphabet.index(expected[step])}; legal now: {[state.action_to_string(a) for a in legal]}")
        action = legal[rng.randrange(len(legal))]
        if taken is not None:
            assert state.action_to_string(action) == taken[step], (
                f"decision {step} ({state.phase}, {state.decision}): took {state.action_to_string(action)!r}, "
                f"golden {taken[step]!r}")
        state.apply(action)
        step += 1
    assert step == len(expected), f"the game ended after {step} decisions, golden {len(expected)}"
    assert state.move_count == game["moves"]
    assert state.scores() == game["scores"]
    assert finals(golden, state) == {key: game[key] for key in golden.finals}
    if "score_breakdown" in game:
        assert [sum(b.values()) for b in game["score_breakdown"]] == game["scores"]
