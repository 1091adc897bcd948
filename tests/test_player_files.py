"""The files players read (a network, learned weights, the data file of a heuristic style such as `tuned`, whether a
heuristic, a search's rollouts or the learned player plays by it) and what runs and questions make of them: each
player names the files its moves depend on; a run records their contents, so that a resume after such a file
changed is refused instead of mixing games of two versions of it under one spec; a question keeps its games under a
name that changes with them and with the file of the style its choices are judged by. Players and judges that read
no file keep the fingerprints and question keys they had before files were recorded."""

from __future__ import annotations

import dataclasses
import json
import shutil
from importlib import resources
from pathlib import Path
from types import MappingProxyType

import pandas as pd
import pytest
import tomllib

import borabora_sim.runs as runs
from borabora_sim.cli import main
from borabora_sim.expert_iteration import ExpertConfig, _files_specs, train_network
from borabora_sim.games import get_game
from borabora_sim.learned import DEFAULT_WEIGHTS, load_weights
from borabora_sim.network import load_network, network_path
from borabora_sim.players import (
    LearnedPlayer,
    files_fingerprint,
    make_player,
    player_files,
    player_files_fingerprint,
)
from borabora_sim.questions import builtin_questions, games_key, load_question
from borabora_sim.questions.forms.choice_games import judge_files
from borabora_sim.questions.forms.common import played_specs
from borabora_sim.runs import RunDirectory
from borabora_sim.simulate import check_config, simulate
from borabora_sim.tune import tune

BORA_BORA, BAMBOO, PIG = get_game("bora_bora"), get_game("bamboo"), get_game("pig")
NETWORK, LEARNED = network_path(BORA_BORA), DEFAULT_WEIGHTS
PIG_OPPONENT = "random"             # reads no file: every heuristic of Pig reads its data/styles.json


def data_file(game_name: str, name: str) -> Path:
    """The file `name` in the data folder of the game's package."""
    return Path(str(resources.files(f"borabora_sim.games.{game_name}").joinpath("data", name)))


TUNED = {"bora_bora": data_file("bora_bora", "tuned_styles.json"), "bamboo": data_file("bamboo", "tuned_styles.json")}
PIG_STYLES = data_file("pig", "styles.json")


def style_file_copy(game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy in `tmp_path` of the data file the game's styles are read from, which the game names instead of its own
    for the test (Game.style_files): its tuned style (Bora Bora, Bamboo), or every style (Pig)."""
    copy = tmp_path / f"{game.name}_styles.json"
    shutil.copyfile(PIG_STYLES if game is PIG else TUNED[game.name], copy)
    monkeypatch.setattr(type(game), "style_files", MappingProxyType(dict.fromkeys(game.style_files, copy)))
    return copy


def retune(copy: Path, game, style: str) -> None:
    """Writes the style file `copy` again with one weight of `style` moved, as a new tuning would."""
    styles = json.loads(copy.read_text())
    styles[style]["weights"][game.weight_names[0]] += 0.25
    copy.write_text(json.dumps(styles))


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
    ("heuristic:style=hold20,w_hold_at=25,w_pace=0,w_race_within=0", PIG, []),   # every weight given: no file
    ("random", PIG, []),
    ("mcts:iterations=10", BORA_BORA, []),
    ("mcts:iterations=10,rollout=heuristic,rollout_depth=0", BORA_BORA, []),
    ("flatmc:rollouts=2", BAMBOO, []),
    ("strong", BORA_BORA, []),                              # a search by rollouts in Bora Bora
    ("best", BORA_BORA, []),
    # A search or learned player that plays by a style read from a data file: its rollouts, its cut-offs, its
    # finish of the turn. The same search with a style written in code reads none.
    ("mcts:iterations=10,rollout=heuristic,style=tuned", BORA_BORA, [TUNED["bora_bora"]]),
    ("mcts:iterations=10,rollout=heuristic,style=balanced", BORA_BORA, []),
    ("mcts:iterations=10,rollout_depth=0,style=tuned", BORA_BORA, [TUNED["bora_bora"]]),    # cut-offs judged by it
    ("mcts:iterations=10,style=tuned", BAMBOO, [TUNED["bamboo"]]),    # Bamboo's search cuts rollouts off by default
    ("mcts:iterations=10,style=builder", BAMBOO, []),
    ("mcts:iterations=10,rollout=heuristic,style=tuned,prior=net", BORA_BORA, [TUNED["bora_bora"], NETWORK]),
    ("flatmc:rollouts=2,rollout=heuristic,style=tuned", BAMBOO, [TUNED["bamboo"]]),
    ("flatmc:rollouts=2,rollout=heuristic,style=balanced", BAMBOO, []),
    ("strong:style=tuned", BORA_BORA, [TUNED["bora_bora"]]),       # a preset with the options of its search
    ("mcts:iterations=10", PIG, [PIG_STYLES]),              # Pig's search rolls out by its keep_pace heuristic
    ("mcts:iterations=10,rollout=random", PIG, []),
    ("flatmc:rollouts=2", PIG, []),                         # flat MC rolls out at random unless told
    ("flatmc:rollouts=2,rollout=heuristic,style=hold20", PIG, [PIG_STYLES]),
    ("learned:style=tuned", BORA_BORA, [LEARNED, TUNED["bora_bora"]]),    # finishes its turn by the tuned style
    ("learned:style=temple", BORA_BORA, [LEARNED]),
    ("expert", PIG, [network_path(PIG)]),                   # its finishing weights are inside the network file
])
def test_each_player_names_the_files_it_plays_by(spec: str, game, read: list[Path]) -> None:
    assert list(player_files(spec, game)) == read
    player = make_player(spec, 1, game)
    style_read = getattr(player, "weights", None) is not None and getattr(player, "style", None) in game.style_files \
        and not set(game.weight_names) <= set(getattr(player, "overrides", {}))       # every weight given
    assert (getattr(player, "model", None) is not None or style_read) == bool(player.files_read()), \
        "a player holding a model, or weights of a style read from a data file, obtained it without recording " \
        "the file (borabora_sim.players.models, players.heuristic.load_style_for)"


def test_a_file_named_by_the_player_is_read_instead_of_the_shipped_one(tmp_path: Path) -> None:
    network = network_copy("bora_bora", tmp_path / "mine.npz")
    assert player_files(f"expert:network={network}", BORA_BORA) == (network,)
    assert player_files(f"mcts:iterations=10,prior=net,network={network}", BORA_BORA) == (network,)
    shutil.copyfile(LEARNED, tmp_path / "weights.npz")
    assert LearnedPlayer(game=BORA_BORA, weights_file=str(tmp_path / "weights.npz")).files_read() == \
        (tmp_path / "weights.npz",)
    named = f"learned:samples=2,weights_file={tmp_path / 'weights.npz'}"
    assert player_files(named, BORA_BORA) == (tmp_path / "weights.npz",)
    assert make_player(named, game=BORA_BORA).spec() == named      # the spec names the file it plays by


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


@pytest.mark.parametrize(("spec", "game", "style"), [
    ("mcts:iterations=10,rollout=heuristic,style=tuned", BORA_BORA, "tuned"),       # rollouts by it
    ("strong:style=tuned", BORA_BORA, "tuned"),                                     # a preset's search
    ("flatmc:rollouts=2,rollout_depth=5,style=tuned", BAMBOO, "tuned"),             # cut-offs judged by it
    ("learned:style=tuned", BORA_BORA, "tuned"),                                    # its turn finished by it
    ("mcts:iterations=10", PIG, "keep_pace"),                                       # Pig's search by default
])
def test_a_search_or_learned_player_follows_the_file_of_its_style(spec: str, game, style: str, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = player_files_fingerprint([spec, "random"], game)
    copy = style_file_copy(game, tmp_path, monkeypatch)
    assert copy in player_files(spec, game)
    assert player_files_fingerprint([spec, "random"], game) == shipped              # the same bytes
    retune(copy, game, style)
    assert player_files_fingerprint([spec, "random"], game) != shipped


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
    changed = (rf"{out} holds games played with another version of the network, weights or style files its players "
               rf"read \({network}\): the file has changed since those games were played, so new games would not "
               r"match them; start the run afresh in a new output folder, or put the old file back")
    with pytest.raises(ValueError, match=changed):
        play(out, players, resume=True)
    status = main(["simulate", "--out", str(out), "--resume", "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "the file has changed since those games were played" in err
    with pytest.raises(ValueError, match=r"holds a different run \(seed 3 there, 4 asked; the network, weights or "
                                         r"style files its players read have changed\)"):
        simulate(4, players, seed=4, n_jobs=1, chunk_size=2, out=out, resume=True, game="pig")
    assert play(tmp_path / "afresh", players)["spec"].astype(str).tolist() == whole["spec"].astype(str).tolist()


def test_a_resume_after_the_style_file_of_a_search_changed_is_refused(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Pig's search rolls out by its keep_pace heuristic, whose weights are read from data/styles.json (here a
    copy): a run of it is refused on resume once that file changed, and the refusal names the file; with a network
    read too, it names both, as it cannot tell which of them changed."""
    copy = style_file_copy(PIG, tmp_path, monkeypatch)
    network = network_copy("pig", tmp_path / "net.npz")
    players, both = ["mcts:iterations=5", "random"], ["mcts:iterations=5", f"expert:network={network}"]
    play(tmp_path / "search", players, games=2)
    play(tmp_path / "both", both, games=2)
    retune(copy, PIG, "keep_pace")
    with pytest.raises(ValueError, match=rf"holds games played with another version of the network, weights or "
                                         rf"style files its players read \({copy}\): the file has changed since "
                                         r"those games were played, .*, or put the old file back"):
        play(tmp_path / "search", players, resume=True, games=2)
    with pytest.raises(ValueError, match=rf"its players read \({network}, {copy}\): one or more of these files "
                                         r"have changed since those games were played, .*, or put the old files "
                                         r"back"):
        play(tmp_path / "both", both, resume=True, games=2)


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
    with pytest.raises(ValueError, match=r"holds games played before runs recorded the network, weights or style "
                                         rf"files their players read \({network_path(PIG)}\), so it cannot be "
                                         r"known which version of those files played them; start the run afresh "
                                         r"in a new output folder"):
        play(tmp_path / "expert", expert, resume=True)
    with pytest.raises(ValueError, match=r"holds a different run \(seed 3 there, 4 asked; it did not record the "
                                         r"network, weights or style files its players read\)"):
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


def choice_question(game, judge: str | None = None, second_judge: str | None = None):
    """A choice question of `game` played by players that read no file in Bora Bora and Bamboo (the balanced
    heuristic), judged by `judge` (default: the game's, its network) and `second_judge`."""
    group = {"bora_bora": "man", "bamboo": "ramen", "pig": "hold"}[game.name]
    judges = {"judge": judge} if judge else {}
    judges |= {"second_judge": second_judge} if second_judge else {}
    return load_question({"title": "When is it the best move?", "game": game.name, "form": "choice", "group": group,
                          "rungs": ["keep_pace" if game is PIG else "heuristic"], **judges})


@pytest.mark.parametrize("game", [BORA_BORA, BAMBOO])
def test_the_games_key_of_a_choice_follows_the_file_of_its_judge(game, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A choice's options judged by rollouts of a style read from a file (the tuned one in Bora Bora and Bamboo):
    its judged rows are kept under a key that follows the style's file, though no seat plays by it."""
    tuned, balanced = choice_question(game, "tuned"), choice_question(game, "balanced")
    assert tuned.judge == "tuned" and all(not player_files(spec, game) for spec in played_specs(tuned,
                                                                                              tuned.size("quick")))
    keys = {question.judge: games_key(question, "quick") for question in (tuned, balanced)}
    copy = style_file_copy(game, tmp_path, monkeypatch)
    assert judge_files(tuned, tuned.size("quick")) == [(copy,)] and judge_files(balanced, balanced.size("quick")) == []
    assert games_key(tuned, "quick") == keys["tuned"]                       # the same bytes
    retune(copy, game, "tuned")
    assert games_key(tuned, "quick") != keys["tuned"]
    assert games_key(balanced, "quick") == keys["balanced"]                 # its judge reads no file
    shutil.copyfile(TUNED[game.name], copy)                 # the file as it was: its judged rows are found again
    assert games_key(tuned, "quick") == keys["tuned"]


@pytest.mark.parametrize("game", [BORA_BORA, BAMBOO, PIG])
def test_a_choice_judged_by_the_network_reads_the_networks_file(game) -> None:
    """The default judge is the game's network (the expert player's): its file is what the judged rows follow."""
    question = choice_question(game)
    assert question.judge == "expert" and judge_files(question, question.size("quick")) == [(network_path(game),)]


def test_a_second_judge_counts_where_the_size_has_it_judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    question = choice_question(BORA_BORA, "balanced", "tuned")
    size = dataclasses.replace(question.size("quick"), second_judge_games=1)
    copy = style_file_copy(BORA_BORA, tmp_path, monkeypatch)
    assert judge_files(question, size) == [(copy,)]
    assert judge_files(question, dataclasses.replace(size, second_judge_games=0)) == []
    assert judge_files(dataclasses.replace(question, judge="tuned"), size) == [(copy,), (copy,)]
    assert judge_files(dataclasses.replace(question, judge="none", second_judge=""), size) == []    # counted


def test_the_judge_of_a_choice_of_pig_reads_its_styles_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    question = choice_question(PIG, "keep_pace")
    assert question.judge == "keep_pace" and judge_files(question, question.size("quick")) == [(PIG_STYLES,)]
    key = games_key(question, "quick")
    copy = style_file_copy(PIG, tmp_path, monkeypatch)
    assert judge_files(question, question.size("quick")) == [(copy,)] and games_key(question, "quick") == key
    retune(copy, PIG, "keep_pace")
    assert games_key(question, "quick") != key


def test_choices_whose_judges_read_no_file_keep_their_games_key() -> None:
    """A judge of a style written in code adds nothing to what the key fingerprints, so its choice keeps the key it
    had before the files of judges counted and its kept games are still found. The fallbacks of Bamboo's spirits
    question are judged by the balanced style and played by players that read no file: its key is pinned as it was.
    The man die question judged by the balanced style has the expert among its players, which reads the network:
    its judge adds no entry beside the network's, so its key is still the one its players' files give (not pinned
    here, as it follows the shipped network).

    A choice judged by a style read from a data file has a new key, as has one judged by the game's network (every
    built-in choice now)."""
    spirits = tomllib.loads(builtin_questions()["spirits"].read_text())
    spirits["parts"][1]["judge"] = "balanced"               # the fallbacks as they were judged before the network
    fallbacks = load_question(spirits).parts[1]
    assert fallbacks.judge == "balanced" and games_key(fallbacks, "quick") == "0219f70e6e34"
    man_die = dataclasses.replace(load_question("man_die"), judge="balanced", second_judge="")
    assert judge_files(man_die, man_die.size("default")) == []
    assert any(player_files(spec, BORA_BORA) for spec in played_specs(man_die, man_die.size("default")))


# =============================================================================
# Expert iteration and tuning
# =============================================================================
def expert_run(work: Path, gate_field: str) -> None:
    config = ExpertConfig(game="pig", players=(2,), imitation_games=4, generations=0, epochs=1, hidden=(8,),
                          gate_field=gate_field)
    train_network(config, work=work, log=lambda line: None)


def test_an_expert_iteration_run_records_the_files_its_players_read_and_is_not_continued_after_one_changed(
        tmp_path: Path) -> None:
    """The work directory records a fingerprint of the files the run's players read (here Pig's styles, which its
    heuristic seats play, and the network of the gate field's expert): continued with the same files it goes on;
    after one of them changed it is refused in one line naming the files, and with the old file back it goes on."""
    network = network_copy("pig", tmp_path / "net.npz")
    work, field = tmp_path / "work", f"expert:network={network}"
    expert_run(work, field)
    recorded = json.loads((work / "config.json").read_text())["player_files_fingerprint"]
    assert recorded == player_files_fingerprint(["heuristic:style=hold20", "heuristic:style=keep_pace", field], PIG)
    expert_run(work, field)
    original = network.read_bytes()
    change_network(network)
    with pytest.raises(ValueError, match=rf"{work} holds a run that was played with another version of the files "
                                         rf"its players read \(.*{network}.*\); use another --work directory, or "
                                         r"put the old files back to continue it"):
        expert_run(work, field)
    network.write_bytes(original)
    expert_run(work, field)


def test_an_expert_iteration_run_started_before_files_were_recorded_is_not_continued(tmp_path: Path) -> None:
    work = tmp_path / "work"
    expert_run(work, "")
    saved = json.loads((work / "config.json").read_text())
    del saved["player_files_fingerprint"]                   # as written before runs recorded the files
    (work / "config.json").write_text(json.dumps(saved))
    with pytest.raises(ValueError, match=rf"{work} holds a run that was started before runs recorded the files "
                                         rf"their players read \({PIG_STYLES}\), so it cannot be known which version "
                                         r"of them played its games"):
        expert_run(work, "")


def test_a_later_teacher_guided_by_the_network_counts_for_its_other_files_only() -> None:
    """A later teacher that searches with the run's best network reads that network from the work directory, not
    the game's shipped one: only the files of the rest of its search (its rollouts' style) count."""
    config = ExpertConfig(teacher="mcts:iterations=10", later_teacher="mcts:iterations=10,rollout=heuristic,"
                                                                      "style=tuned,prior=net")
    specs = _files_specs(config, BORA_BORA)
    assert specs[-1] == "mcts:iterations=10,rollout=heuristic,style=tuned"
    assert NETWORK not in {path for spec in specs for path in player_files(spec, BORA_BORA)}


def test_a_tuning_run_is_not_continued_after_a_file_its_opponents_read_changed(tmp_path: Path) -> None:
    """A tuning run records the fingerprint of the files its opponents and start style read; a resume after one of
    them changed is refused naming it, and so is the resume of a run started before the files were recorded."""
    network = network_copy("bora_bora", tmp_path / "net.npz")
    out, tiny = tmp_path / "tuning", {"budget": 8, "games_per_eval": 4, "popsize": 2, "validation_games": 4,
                                      "progress": False, "seed": 3, "opponents": f"expert:network={network}"}
    tune(out=out, **tiny)
    recorded = json.loads((out / "config.json").read_text())["player_files_fingerprint"]
    assert recorded == player_files_fingerprint([f"expert:network={network}"] * 3 + ["heuristic:style=balanced"],
                                                BORA_BORA) != ""
    change_network(network)
    with pytest.raises(ValueError, match=rf"holds a tuning run played with another version of the files its players "
                                         rf"read \({network}\); choose another directory, or put the old files back"):
        tune(out=out, resume=True, **{**tiny, "budget": 16})
    saved = json.loads((out / "config.json").read_text())
    del saved["player_files_fingerprint"]                   # as written before runs recorded the files
    (out / "config.json").write_text(json.dumps(saved))
    (out / "digests.json").unlink()                         # and before they recorded the files' digests
    with pytest.raises(ValueError, match=r"holds a tuning run started before runs recorded the files their players "
                                         rf"read \({network}\), so it cannot be known which version"):
        tune(out=out, resume=True, **{**tiny, "budget": 16})
