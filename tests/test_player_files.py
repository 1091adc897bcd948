"""The files players read (a network, learned weights, the data file of a heuristic style such as `tuned`) and what
runs and questions make of them: each player names the files its moves depend on; a run records their contents, so
that a resume after such a file changed is refused instead of mixing games of two networks under one spec; a
question keeps its games under a name that changes with them. Players that read no file keep the fingerprints and
question keys they had before files were recorded."""

from __future__ import annotations

import dataclasses
import json
import shutil
from importlib import resources
from pathlib import Path
from types import MappingProxyType

import pandas as pd
import pytest

import borabora_sim.runs as runs
from borabora_sim.cli import main
from borabora_sim.games import get_game
from borabora_sim.learned import DEFAULT_WEIGHTS, load_weights
from borabora_sim.network import load_network, network_path
from borabora_sim.players import (
    HeuristicPlayer,
    LearnedPlayer,
    files_fingerprint,
    make_player,
    player_files,
    player_files_fingerprint,
)
from borabora_sim.questions import games_key, load_question
from borabora_sim.runs import RunDirectory
from borabora_sim.simulate import check_config, simulate

BORA_BORA, BAMBOO, PIG = get_game("bora_bora"), get_game("bamboo"), get_game("pig")
NETWORK, LEARNED = network_path(BORA_BORA), DEFAULT_WEIGHTS
PIG_OPPONENT = "random"             # reads no file: every heuristic of Pig reads its data/styles.json


def data_file(game_name: str, name: str) -> Path:
    """The file `name` in the data folder of the game's package."""
    return Path(str(resources.files(f"borabora_sim.games.{game_name}").joinpath("data", name)))


TUNED = {"bora_bora": data_file("bora_bora", "tuned_styles.json"), "bamboo": data_file("bamboo", "tuned_styles.json")}
PIG_STYLES = data_file("pig", "styles.json")


def network_copy(game_name: str, path: Path) -> Path:
    """A copy of the game's shipped network at `path`."""
    shutil.copyfile(network_path(get_game(game_name)), path)
    return path


def change_network(path: Path) -> None:
    """Saves the network in `path` again with its value bias moved: the same shapes, other bytes."""
    network = load_network(path)
    dataclasses.replace(network, value=(network.value[0], network.value[1] + 0.5)).save(path)


def play(out: Path, players: list[str], resume: bool = False, games: int = 4) -> pd.DataFrame:
    frame = simulate(games, players, seed=3, n_jobs=1, chunk_size=2, out=out, resume=resume, progress=False,
                     game="pig")
    assert frame is not None
    return frame


# =============================================================================
# Which files a player reads
# =============================================================================
@pytest.mark.parametrize(("spec", "game", "read"), [
    ("expert", BORA_BORA, [NETWORK]),
    ("learned", BORA_BORA, [LEARNED]),
    ("mcts:iterations=10,evaluation=net", BORA_BORA, [NETWORK]),
    ("mcts:iterations=10,prior=net", BORA_BORA, [NETWORK]),
    ("mcts:iterations=10,rollout_depth=0,evaluation=learned", BORA_BORA, [LEARNED]),
    ("flatmc:rollouts=2,rollout_depth=0,evaluation=learned", BORA_BORA, [LEARNED]),
    ("expert", BAMBOO, [network_path(BAMBOO)]),
    ("strong", BAMBOO, [network_path(BAMBOO)]),           # a preset: what it stands for in the game
    ("strong", PIG, [network_path(PIG)]),
    ("heuristic", BORA_BORA, []),
    ("heuristic:style=balanced,fishing=never", BORA_BORA, []),
    ("heuristic:style=builder", BAMBOO, []),
    ("heuristic:style=tuned", BORA_BORA, [TUNED["bora_bora"]]),     # a style read from a data file
    ("heuristic:style=tuned,fishing=never,w_vp=2", BORA_BORA, [TUNED["bora_bora"]]),
    ("heuristic:style=tuned", BAMBOO, [TUNED["bamboo"]]),
    ("heuristic", PIG, [PIG_STYLES]),                       # Pig's styles are all read from its data file
    ("heuristic:style=hold20", PIG, [PIG_STYLES]),
    ("random", PIG, []),
    ("mcts:iterations=10", BORA_BORA, []),
    ("mcts:iterations=10,rollout=heuristic,rollout_depth=0", BORA_BORA, []),
    ("flatmc:rollouts=2", BAMBOO, []),
    ("strong", BORA_BORA, []),                              # a search by rollouts in Bora Bora
])
def test_each_player_names_the_files_it_plays_by(spec: str, game, read: list[Path]) -> None:
    assert list(player_files(spec, game)) == read
    player = make_player(spec, 1, game)
    style_read = isinstance(player, HeuristicPlayer) and player.style in game.style_files
    assert (getattr(player, "model", None) is not None or style_read) == bool(player.files_read()), \
        "a player holding a model, or a style read from a data file, obtained it without recording the file " \
        "(borabora_sim.players.models, players.heuristic.load_style_for)"


def test_a_file_named_by_the_player_is_read_instead_of_the_shipped_one(tmp_path: Path) -> None:
    network = network_copy("bora_bora", tmp_path / "mine.npz")
    assert player_files(f"expert:network={network}", BORA_BORA) == (network,)
    assert player_files(f"mcts:iterations=10,prior=net,network={network}", BORA_BORA) == (network,)
    shutil.copyfile(LEARNED, tmp_path / "weights.npz")
    assert LearnedPlayer(game=BORA_BORA, weights_file=str(tmp_path / "weights.npz")).files_read() == \
        (tmp_path / "weights.npz",)


def test_a_player_made_without_a_game_names_the_file_of_the_game_it_plays() -> None:
    player = make_player("expert", 1)
    assert player.files_read() == (NETWORK,)            # read as it would play the default game
    state = PIG.new_initial_state(seed=0)
    player.choose(state)
    assert player.files_read() == (network_path(PIG),)
    tuned = make_player("heuristic:style=tuned", 1)
    assert tuned.files_read() == (TUNED["bora_bora"],)
    tuned.choose(BAMBOO.new_initial_state(seed=0))
    assert tuned.files_read() == (TUNED["bamboo"],)


# =============================================================================
# The fingerprint of their contents
# =============================================================================
def test_the_fingerprint_follows_the_contents_of_the_files_not_their_place(tmp_path: Path) -> None:
    first, second = network_copy("pig", tmp_path / "a.npz"), network_copy("pig", tmp_path / "b.npz")
    specs = [f"expert:network={first}", PIG_OPPONENT]
    before = player_files_fingerprint(specs, PIG)
    assert len(before) == 16 and int(before, 16) >= 0
    assert player_files_fingerprint([f"expert:network={second}", PIG_OPPONENT], PIG) == before
    assert player_files_fingerprint(["expert", PIG_OPPONENT], PIG) == before        # the same bytes as shipped
    assert player_files_fingerprint([PIG_OPPONENT, f"expert:network={first}"], PIG) != before    # other seats
    change_network(first)
    assert player_files_fingerprint(specs, PIG) != before
    assert player_files_fingerprint([f"expert:network={second}", PIG_OPPONENT], PIG) == before
    assert player_files_fingerprint(["random", PIG_OPPONENT], PIG) == ""
    assert files_fingerprint([(), ()]) == ""


@pytest.mark.parametrize("game", [BORA_BORA, BAMBOO])
def test_the_fingerprint_follows_the_file_of_the_tuned_style(game, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The tuned style is read from the game's data/tuned_styles.json once, as the game is imported; the game names
    that file (Game.style_files), and here a copy of it, whose bytes change as a new tuning would change them."""
    specs = ["heuristic:style=tuned", "heuristic"]
    shipped = player_files_fingerprint(specs, game)
    assert shipped != "" and player_files_fingerprint(["heuristic", "heuristic:style=balanced"], game) == ""
    copy = tmp_path / "tuned_styles.json"
    shutil.copyfile(TUNED[game.name], copy)
    monkeypatch.setattr(type(game), "style_files", MappingProxyType({"tuned": copy}))
    assert player_files(specs[0], game) == (copy,)
    assert player_files_fingerprint(specs, game) == shipped                 # the same bytes
    question = load_question({"title": "Is the first seat an advantage?", "game": game.name, "form": "setup",
                              "vary": "players", "arms": [2, 3], "rungs": ["tuned"]})
    key = games_key(question, "quick")
    run = check_config(4, [*specs, "random", "random"], 1, 1, "loky", 2, game=game.name)
    styles = json.loads(copy.read_text())
    styles["tuned"]["weights"][game.weight_names[0]] += 0.25                # tuned again
    copy.write_text(json.dumps(styles))
    assert player_files_fingerprint(specs, game) != shipped
    assert games_key(question, "quick") != key
    changed = check_config(4, [*specs, "random", "random"], 1, 1, "loky", 2, game=game.name)
    assert changed.player_files_fingerprint != run.player_files_fingerprint and changed.fingerprint != run.fingerprint
    shutil.copyfile(TUNED[game.name], copy)                 # the file as it was: its games are found again
    assert games_key(question, "quick") == key


def test_the_fingerprint_follows_the_learned_weights(tmp_path: Path) -> None:
    path = tmp_path / "weights.npz"
    shutil.copyfile(LEARNED, path)
    player = LearnedPlayer(game=BORA_BORA, weights_file=str(path))
    before = files_fingerprint([player.files_read()])
    assert before == player_files_fingerprint(["learned"], BORA_BORA)
    weights = load_weights(path)
    dataclasses.replace(weights, b2=weights.b2 + 1.0).save(path)
    assert files_fingerprint([player.files_read()]) != before


# =============================================================================
# Runs
# =============================================================================
def test_a_resume_with_the_same_file_finishes_the_run_and_one_after_it_changed_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(runs, "FILE_GAMES", 1)              # one file per chunk: one can be taken away
    network = network_copy("pig", tmp_path / "net.npz")
    players, out = [f"expert:network={network}", PIG_OPPONENT], tmp_path / "run"
    whole = play(out, players)
    config = RunDirectory(out).read_manifest()
    assert config is not None and config.player_files_fingerprint == player_files_fingerprint(players, PIG) != ""
    directory = RunDirectory(out)
    for table in runs.TABLES:
        directory.chunk_file(table, 1).unlink()              # as if interrupted before its last chunk
    pd.testing.assert_frame_equal(play(out, players, resume=True).drop(columns="wall_time"),
                                  whole.drop(columns="wall_time"))

    change_network(network)
    changed = (rf"{out} holds games played with another version of the network or weights file its players read "
               rf"\({network}\): the file has changed since those games were played, so new games would not match "
               r"them; start the run afresh in a new output folder, or put the old file back")
    with pytest.raises(ValueError, match=changed):
        play(out, players, resume=True)
    status = main(["simulate", "--out", str(out), "--resume", "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "the file has changed since those games were played" in err
    with pytest.raises(ValueError, match=r"holds a different run \(seed 3 there, 4 asked; the network or weights "
                                         r"files its players read have changed\)"):
        simulate(4, players, seed=4, n_jobs=1, chunk_size=2, out=out, resume=True, game="pig")
    assert play(tmp_path / "afresh", players)["spec"].astype(str).tolist() == whole["spec"].astype(str).tolist()


def test_a_run_written_before_files_were_recorded_resumes_only_if_its_players_read_none(tmp_path: Path) -> None:
    def recorded_before(out: Path) -> None:
        manifest = json.loads((out / "manifest.json").read_text())
        del manifest["player_files_fingerprint"]           # as written before runs recorded the files
        (out / "manifest.json").write_text(json.dumps(manifest))

    plain = ["random", PIG_OPPONENT]
    first = play(tmp_path / "plain", plain)
    recorded_before(tmp_path / "plain")
    pd.testing.assert_frame_equal(play(tmp_path / "plain", plain, resume=True).drop(columns="wall_time"),
                                  first.drop(columns="wall_time"))

    expert = ["expert", PIG_OPPONENT]
    play(tmp_path / "expert", expert)
    recorded_before(tmp_path / "expert")
    with pytest.raises(ValueError, match=r"holds games played before runs recorded the network or weights files "
                                         rf"their players read \({network_path(PIG)}\), so it cannot be known which "
                                         r"network played them; start the run afresh in a new output folder"):
        play(tmp_path / "expert", expert, resume=True)
    with pytest.raises(ValueError, match=r"holds a different run \(seed 3 there, 4 asked; it did not record the "
                                         r"network or weights files its players read\)"):
        simulate(4, expert, seed=4, n_jobs=1, chunk_size=2, out=tmp_path / "expert", resume=True, game="pig")


def test_runs_of_players_that_read_no_file_keep_their_fingerprint() -> None:
    """The fingerprints these configurations had before runs recorded the files of their players: the files of
    runs kept since then carry them, and must still be read and resumed. Their players read no file: random, the
    heuristic of a style written in code (Bora Bora's and Bamboo's balanced), a search by rollouts.

    A heuristic whose style is read from a data file records that file, so its runs' fingerprints have changed, as
    those of a network's players did: Bora Bora's and Bamboo's tuned style (data/tuned_styles.json, rewritten by a new
    tuning) and every style of Pig (data/styles.json). Pig's heuristics were pinned here at 520bb9f6459a1f99 before
    their file was recorded; a run of them kept from then is refused on resume like one of a network's players."""
    assert check_config(4, ["heuristic", "random"], 1, 1, "loky", 2).fingerprint == "d01254ce745db024"
    assert check_config(4, ["heuristic:style=balanced", "random"], 1, 1, "loky", 2,
                        game="bamboo").fingerprint == "3b7297d9994cb427"
    assert check_config(4, ["random", "random"], 1, 1, "loky", 2, game="pig").fingerprint == "f7c447d273d9633f"
    assert check_config(4, ["mcts:iterations=10", "random"], 1, 1, "loky", 2,
                        game="bamboo").fingerprint == "0e194dda4f0d12d1"
    assert check_config(4, ["expert", "random"], 1, 1, "loky", 2, game="pig").player_files_fingerprint != ""
    for players, game, before in ((["heuristic:style=hold20", "heuristic:style=keep_pace"], "pig", "520bb9f6459a1f99"),
                                  (["heuristic:style=tuned", "random"], "bora_bora", "598585ac6148843b"),
                                  (["heuristic:style=tuned", "random"], "bamboo", "f58e8fde0271f19b")):
        config = check_config(4, players, 1, 1, "loky", 2, game=game)
        assert config.player_files_fingerprint != "" and config.fingerprint != before, (game, players)


# =============================================================================
# Questions
# =============================================================================
def test_the_games_key_of_a_question_changes_with_the_files_its_players_read(tmp_path: Path) -> None:
    network = network_copy("bora_bora", tmp_path / "net.npz")
    question = load_question({"title": "Does its own network fish more?", "game": "bora_bora", "form": "policy",
                              "rungs": ["expert"], "arms": {"shipped": "", "mine": f"network={network}"}})
    before = games_key(question, "quick")
    change_network(network)
    assert games_key(question, "quick") != before
    network_copy("bora_bora", network)                      # the file as it was: its games are found again
    assert games_key(question, "quick") == before


def test_questions_of_players_that_read_no_file_keep_their_games_key() -> None:
    """The keys these questions had before the files of players counted: their kept games are still found. Their
    players read no file (the balanced heuristic, a search by heuristic rollouts).

    A question one of whose players is a heuristic of a style read from a data file has a new key, as a question of
    the expert has: one with Bora Bora's or Bamboo's tuned rung (data/tuned_styles.json), and every question of Pig,
    whose heuristics all read data/styles.json (Pig's setup question below was pinned at 9b4b05429c90 before). Its
    games kept under the old key were played by a style file no longer known, and are played again."""
    setup = load_question({"title": "Is the first seat an advantage?", "game": "bamboo", "form": "setup",
                           "vary": "players", "arms": [2, 3], "rungs": ["heuristic"]})
    assert games_key(setup, "quick") == "70884847d7d7"
    for game, rungs, before in (("pig", {}, "9b4b05429c90"), ("bamboo", {"rungs": ["tuned"]}, "71ffc5c5e383")):
        styled = load_question({"title": "Is the first seat an advantage?", "game": game, "form": "setup",
                                "vary": "players", "arms": [2, 3] if rungs else [2], **rungs})
        assert games_key(styled, "quick") != before, game
    policy = load_question({"title": "Does MCTS fish?", "game": "bora_bora", "form": "policy",
                            "rungs": ["heuristic", "mcts100"], "arms": {"normal": "", "never": "fishing=never"}})
    assert games_key(policy, "default") == "bed8671011d5"
    expert = load_question({"title": "Does the expert fish?", "game": "bora_bora", "form": "policy",
                            "rungs": ["expert"], "arms": {"normal": "", "never": "fishing=never"}})
    assert games_key(expert, "quick") != "dffb239fc559"      # its key before: its games' network is not known
