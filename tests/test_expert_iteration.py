"""Expert iteration end to end at a tiny size (borabora train): generations, manifests, the gate, resuming, and the
refusal of a changed configuration, a damaged chunk and a game without features."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from borabora_sim import expert_iteration, new_game
from borabora_sim.cli import main
from borabora_sim.expert_iteration import RATED_TEMPERATURE, ExpertConfig, _teacher_targets, read_chunk, train_network
from borabora_sim.network import load_network, raised
from borabora_sim.players import make_player
from borabora_sim.players.heuristic import weights_for
from borabora_sim.players.search import MCTSPlayer

TINY = ExpertConfig(imitation_games=20, generations=1, games=4, iterations=8, gate_games=4, epochs=1, hidden=(8,))


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("expert")
    train_network(TINY, work=work, out=work / "best.npz", log=lambda line: None)
    return work


def test_a_tiny_run_writes_every_generation_and_the_best_network(tiny_run: Path) -> None:
    for generation in (0, 1):
        manifest = json.loads((tiny_run / f"gen{generation:02d}" / "manifest.json").read_text())
        assert manifest["generation"] == generation and manifest["samples"] > 0
        assert len(manifest["curve"]) == TINY.epochs
    first = json.loads((tiny_run / "gen00" / "manifest.json").read_text())
    second = json.loads((tiny_run / "gen01" / "manifest.json").read_text())
    assert first["kept"] and first["gate"] is None and first["teacher"] == "heuristic players"
    gate = second["gate"]
    assert gate["games"] == TINY.gate_games and gate["fair_share"] == 0.25
    assert second["kept"] == (gate["ci_low"] > 0.25)
    assert gate["opponent"] == "gen00"
    summary = json.loads((tiny_run / "best.json").read_text())
    assert summary["best"] == ("gen01" if second["kept"] else "gen00")
    assert summary["command"].startswith("borabora train --game bora_bora --imitation-games 20 --generations 1")
    best = load_network(tiny_run / "best.npz")
    assert best.hidden == (8,)
    expert = make_player(f"expert:network={tiny_run / 'best.npz'}", seed=1)
    from borabora_sim import new_game
    state = new_game(seed=4)
    assert expert.choose(state) in state.legal_actions()


TAUGHT = ExpertConfig(imitation_games=6, generations=1, games=4, teacher="mcts:iterations=30", finish_style="temple",
                      keep=0.05, gate_games=4, epochs=1, hidden=(8,))


def test_a_search_teacher_labels_heuristic_games_then_the_networks_own(tmp_path: Path) -> None:
    """With a search teacher, every kept position's targets are the search's visit shares (a distribution over two
    or more legal moves), the network finishes turns with the style asked, a later generation's games seat the best
    network's expert, and the gate matches the networks' one-pass play."""
    network = train_network(TAUGHT, work=tmp_path, out=tmp_path / "best.npz", log=lambda line: None)
    assert network.finish is not None and np.allclose(network.finish, weights_for("temple"))
    for generation in (0, 1):
        chunk = read_chunk(tmp_path / f"gen{generation:02d}" / "chunk-0000000.npz", 0, 4 if generation else 6)
        sums = np.add.reduceat(chunk["target"], chunk["first"][:-1])
        assert np.allclose(sums, 1.0) and (np.diff(chunk["first"]) >= 2).all()
        assert ((chunk["target"] > 0) & (chunk["target"] < 1)).any()
    first = json.loads((tmp_path / "gen00" / "manifest.json").read_text())
    second = json.loads((tmp_path / "gen01" / "manifest.json").read_text())
    assert first["teacher"] == "mcts:iterations=30 at positions of heuristic games"
    assert second["teacher"] == "mcts:iterations=30 at positions of games with gen00's expert in half the seats"
    assert second["gate"]["games"] == TAUGHT.gate_games
    summary = json.loads((tmp_path / "best.json").read_text())
    assert "--teacher mcts:iterations=30 --finish-style temple" in summary["command"]


def test_a_learned_teacher_gives_each_move_a_share_by_its_win_chance() -> None:
    """A rating teacher's targets are the softmax of the learned player's win chances after each move at
    RATED_TEMPERATURE: shares add to 1, the move it rates best gets the largest, and two moves' shares differ by
    e^(difference of win chance / temperature)."""
    state = new_game(seed=5)
    while len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    teacher = make_player("learned:samples=2", seed=1)
    actions = state.legal_actions()
    target = _teacher_targets(teacher, state, actions, seed=7)
    chances = {option.action: option.value for option in teacher.option_values(state, 7)}
    assert target.sum() == pytest.approx(1.0)
    assert actions[int(np.argmax(target))] == max(chances, key=lambda action: chances[action])
    for i in range(1, len(actions)):
        assert np.log(target[i] / target[0]) == pytest.approx(
            (chances[actions[i]] - chances[actions[0]]) / RATED_TEMPERATURE, abs=1e-4)


@pytest.mark.parametrize("teacher", ["learned", "mcts:iterations=20 + learned:samples=2"])
def test_a_learned_teacher_alone_or_beside_a_search_labels_the_positions_of_heuristic_games(
        teacher: str, tmp_path: Path) -> None:
    """Every kept position gets targets adding to 1; with the learned teacher in them none is 0 (its softmax gives
    every move a share, and the mean keeps it), and the manifest and the command name the teachers."""
    config = ExpertConfig(imitation_games=4, generations=0, teacher=teacher, finish_style="balanced", keep=0.05,
                          gate_games=4, epochs=1, hidden=(8,))
    train_network(config, work=tmp_path, out=tmp_path / "best.npz", log=lambda line: None)
    chunk = read_chunk(tmp_path / "gen00" / "chunk-0000000.npz", 0, 4)
    sums = np.add.reduceat(chunk["target"], chunk["first"][:-1])
    assert np.allclose(sums, 1.0) and (np.diff(chunk["first"]) >= 2).all()
    assert ((chunk["target"] > 0) & (chunk["target"] < 1)).all()
    manifest = json.loads((tmp_path / "gen00" / "manifest.json").read_text())
    assert manifest["teacher"] == f"{teacher} at positions of heuristic games"
    assert f"--teacher '{teacher}'" in json.loads((tmp_path / "best.json").read_text())["command"] or \
        f"--teacher {teacher}" in json.loads((tmp_path / "best.json").read_text())["command"]


def test_one_power_per_teacher_raises_each_teachers_targets_before_they_are_averaged(tmp_path: Path) -> None:
    """With `sharpen` one power per teacher, a kept position's targets are the mean of each teacher's targets raised
    to its own power and renormalised; every teacher setting keeps the same positions, so each teacher alone gives
    its own targets there. The command line names the powers."""
    def targets(teacher: str, sharpen: float | tuple[float, ...]) -> dict[str, np.ndarray]:
        config = ExpertConfig(imitation_games=4, generations=0, teacher=teacher, finish_style="balanced", keep=0.05,
                              sharpen=sharpen, gate_games=4, epochs=1, hidden=(8,))
        work = tmp_path / f"{len(list(tmp_path.iterdir()))}"
        train_network(config, work=work, out=work / "best.npz", log=lambda line: None)
        return read_chunk(work / "gen00" / "chunk-0000000.npz", 0, 4)

    search, rating = targets("mcts:iterations=20", 1.0), targets("learned:samples=2", 1.0)
    both = targets("mcts:iterations=20 + learned:samples=2", (2.0, 3.0))
    first = both["first"]
    assert np.array_equal(first, search["first"]) and np.array_equal(both["action"], rating["action"])
    expected = (raised(search["target"], first, 2.0).astype(np.float64)
                + raised(rating["target"], first, 3.0)) / 2
    assert np.allclose(both["target"], expected, atol=1e-6)
    assert not np.allclose(both["target"], (search["target"] + rating["target"]) / 2, atol=1e-3)
    command = json.loads((tmp_path / "2" / "best.json").read_text())["command"]
    assert "--sharpen 2,3" in command


def test_a_finished_run_resumes_to_the_same_network(tiny_run: Path) -> None:
    before = (tiny_run / "best.npz").read_bytes()
    again = train_network(TINY, work=tiny_run, log=lambda line: None)
    saved = load_network(tiny_run / "best.npz")
    assert np.array_equal(again.layers[0][0], saved.layers[0][0])
    assert (tiny_run / "best.npz").read_bytes() == before


def test_a_run_with_other_settings_is_refused(tiny_run: Path) -> None:
    with pytest.raises(ValueError, match=r"holds a run with other settings \(games=4\)"):
        train_network(ExpertConfig(**{**TINY.__dict__, "games": 5}), work=tiny_run, log=lambda line: None)


def test_a_finished_run_goes_on_with_more_generations(tmp_path: Path) -> None:
    """A run of one generation continued to two keeps generation 0 as it was and adds generation 1; a finished run
    asked for fewer generations stops at them."""
    short = ExpertConfig(**{**TINY.__dict__, "generations": 0})
    train_network(short, work=tmp_path, log=lambda line: None)
    first = (tmp_path / "gen00" / "network.npz").read_bytes()
    train_network(TINY, work=tmp_path, log=lambda line: None)
    assert (tmp_path / "gen00" / "network.npz").read_bytes() == first
    assert json.loads((tmp_path / "gen01" / "manifest.json").read_text())["gate"]["opponent"] == "gen00"
    assert json.loads((tmp_path / "config.json").read_text())["generations"] == 1
    again = train_network(short, work=tmp_path, log=lambda line: None)
    assert np.array_equal(again.layers[0][0], load_network(tmp_path / "gen00" / "network.npz").layers[0][0])


def test_a_run_continued_after_a_final_fit_makes_the_generations_of_a_run_made_in_one_go(
        tiny_run: Path, tmp_path: Path) -> None:
    """What lets one command reproduce a network whose run was stopped, given a final fit and continued (Bamboo's):
    the final fit between two generations changes neither, so every generation's network holds the same arrays as
    the run made in one go (`tiny_run`)."""
    with_final = {**TINY.__dict__, "final_hidden": (12,)}
    train_network(ExpertConfig(**{**with_final, "generations": 0}), work=tmp_path, log=lambda line: None)
    assert (tmp_path / "final-gen00-12" / "manifest.json").exists()
    train_network(ExpertConfig(**with_final), work=tmp_path, log=lambda line: None)
    for generation in ("gen00", "gen01"):
        with np.load(tiny_run / generation / "network.npz") as made, \
                np.load(tmp_path / generation / "network.npz") as again:
            assert sorted(made.files) == sorted(again.files)
            for name in made.files:
                assert np.array_equal(made[name], again[name]), (generation, name)


def test_a_work_directory_a_spec_cannot_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="has a comma in its name"):
        train_network(TINY, work=tmp_path / "a,b", log=lambda line: None)
    assert not (tmp_path / "a,b").exists()


def test_a_damaged_chunk_is_named_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "chunk-0000000.npz"
    path.write_bytes(b"PK\x03\x04broken")
    with pytest.raises(ValueError, match=r"is not a chunk of expert-iteration games: truncated, damaged or unsafe.*"
                                         r"delete it and run the same command again"):
        read_chunk(path, 0, 10)


def test_a_lost_chunk_is_played_again_the_same(tiny_run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "run"
    import shutil
    shutil.copytree(tiny_run, copy)
    chunk = copy / "gen00" / "chunk-0000010.npz"
    before = dict(np.load(chunk))
    chunk.unlink()
    train_network(TINY, work=copy, log=lambda line: None)
    after = dict(np.load(chunk))
    assert before.keys() == after.keys() and all(np.array_equal(before[k], after[k]) for k in before)


@pytest.mark.parametrize(("arguments", "message"), [
    (["--hidden", "0"], "must be one or two layer sizes in 1..256"),
    (["--hidden", "8,8,8"], "must be one or two layer sizes in 1..256"),
    (["--games", "0"], "must be a positive integer"),
    (["--game", "chess"], "unknown game"),
    (["--teacher", "heuristic:style=tuned"], "teacher must be 'heuristic', or a search player's spec"),
    (["--teacher", "learned + heuristic"], "or several of those joined by ' + '"),
    (["--game", "bamboo", "--teacher", "learned"], "the learned evaluation exists for bora_bora only"),
    (["--finish-style", "greedy"], "finish_style must be a heuristic style of bora_bora"),
    (["--keep", "0"], "keep must be in (0, 1]"),
    (["--sharpen", "0"], "must be a power in (0, 100], or one per teacher"),
    (["--sharpen", "10,x"], "must be a power in (0, 100], or one per teacher"),
    (["--teacher", "mcts:iterations=10", "--sharpen", "10,30"], "got 2 powers for 1 teacher(s)"),
    (["--teacher", "mcts:iterations=10 + learned", "--later-teacher", "mcts:iterations=10", "--sharpen", "10,30"],
     "got 2 powers for 2 teacher(s) and 1 later teacher(s)"),
    (["--teacher", "mcts:iterations=10 + learned", "--later-teacher", "mcts:iterations=10 + heuristic"],
     "later_teacher must be a search or rating teacher"),
])
def test_the_command_refuses_bad_arguments_in_one_line(arguments: list[str], message: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--work", str(tmp_path / "w"), *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) <= 2
    assert not (tmp_path / "w").exists()


def test_a_gate_field_pairs_the_new_network_and_the_best_against_it(tmp_path: Path) -> None:
    """With a gate field, the new network and the best each play one seat against it on the same deals: the manifest
    holds both win rates and the paired interval of their difference, and the network is kept only if it lies above
    0; the setting is in the command that reproduces the run."""
    config = ExpertConfig(**{**TAUGHT.__dict__, "gate_field": "heuristic:style=balanced", "gate_games": 8})
    train_network(config, work=tmp_path, out=tmp_path / "best.npz", log=lambda line: None)
    gate = json.loads((tmp_path / "gen01" / "manifest.json").read_text())["gate"]
    assert gate["field"] == "heuristic:style=balanced" and gate["games"] == 8 and gate["opponent"] == "gen00"
    assert gate["difference"] == pytest.approx(gate["win_rate"] - gate["best_win_rate"])
    assert gate["ci_low"] <= gate["difference"] <= gate["ci_high"]
    assert json.loads((tmp_path / "gen01" / "manifest.json").read_text())["kept"] == (gate["ci_low"] > 0)
    assert "--gate-field heuristic:style=balanced" in json.loads((tmp_path / "best.json").read_text())["command"]


def test_a_run_saved_before_a_setting_existed_reads_it_as_its_default(tmp_path: Path) -> None:
    short = ExpertConfig(**{**TINY.__dict__, "generations": 0})
    train_network(short, work=tmp_path, log=lambda line: None)
    saved = json.loads((tmp_path / "config.json").read_text())
    del saved["gate_field"]
    (tmp_path / "config.json").write_text(json.dumps(saved))
    train_network(short, work=tmp_path, log=lambda line: None)
    with pytest.raises(ValueError, match="other settings"):
        train_network(ExpertConfig(**{**short.__dict__, "gate_field": "heuristic"}), work=tmp_path,
                      log=lambda line: None)


def test_a_gate_field_that_is_no_player_is_refused() -> None:
    with pytest.raises(ValueError, match="nobody"):
        ExpertConfig(gate_field="nobody").check()


def test_a_later_teacher_searches_with_the_best_network_so_far(tmp_path: Path) -> None:
    config = ExpertConfig(**{**TAUGHT.__dict__, "later_teacher": "mcts:iterations=10,evaluation=net"})
    assert config.teacher_of(None) == "mcts:iterations=30"
    assert config.teacher_of("runs/gen00/network.npz") == \
        "mcts:iterations=10,evaluation=net,network=runs/gen00/network.npz"
    train_network(config, work=tmp_path, out=tmp_path / "best.npz", log=lambda line: None)
    second = json.loads((tmp_path / "gen01" / "manifest.json").read_text())
    assert second["teacher"].startswith("mcts:iterations=10,evaluation=net,network=gen00 at positions of games")
    assert "--later-teacher mcts:iterations=10,evaluation=net" in json.loads((tmp_path / "best.json").read_text())[
        "command"]
    chunk = read_chunk(tmp_path / "gen01" / "chunk-0000000.npz", 0, 4)
    assert np.allclose(np.add.reduceat(chunk["target"], chunk["first"][:-1]), 1.0)


def test_a_later_teacher_with_the_networks_priors_searches_with_the_best_network_so_far() -> None:
    config = ExpertConfig(**{**TAUGHT.__dict__, "later_teacher": "mcts:iterations=10,rollout_depth=5,prior=net"})
    assert config.teacher_of("runs/gen00/network.npz") == \
        "mcts:iterations=10,rollout_depth=5,prior=net,network=runs/gen00/network.npz"
    assert ExpertConfig(**{**TAUGHT.__dict__, "later_teacher": "mcts:iterations=10"}).teacher_of(
        "runs/gen00/network.npz") == "mcts:iterations=10"


def test_several_later_teachers_label_a_later_generation_each_with_its_own_power(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A later teacher of several, joined by ' + ' like the teacher, labels the later generations: its search with
    the network's priors searches with the best network, and each teacher's targets are raised to its own power,
    in the order given, before they are averaged. The teachers' targets are stood in for by fixed shares (rising
    over the moves for a search, falling for `learned`) so that the mean can be computed here."""
    asked: list[str] = []

    def fixed_shares(teacher: expert_iteration.Teacher, state: object, actions: list[int], seed: int) -> np.ndarray:
        asked.append(teacher.spec())
        rising = np.arange(1, len(actions) + 1, dtype=np.float64)
        shares: np.ndarray = rising if isinstance(teacher, MCTSPlayer) else rising[::-1]
        return (shares / shares.sum()).astype(np.float32)

    monkeypatch.setattr(expert_iteration, "_teacher_targets", fixed_shares)
    later = "mcts:iterations=10,rollout_depth=5,prior=net + learned:samples=2"
    config = ExpertConfig(**{**TAUGHT.__dict__, "teacher": "mcts:iterations=20 + learned:samples=2",
                             "later_teacher": later, "sharpen": (2.0, 3.0)})
    assert config.teacher_of("runs/gen00/network.npz") == \
        "mcts:iterations=10,rollout_depth=5,prior=net,network=runs/gen00/network.npz + learned:samples=2"
    train_network(config, work=tmp_path, out=tmp_path / "best.npz", log=lambda line: None)
    manifest = json.loads((tmp_path / "gen01" / "manifest.json").read_text())
    assert manifest["teacher"].startswith("mcts:iterations=10,rollout_depth=5,prior=net,network=gen00 + "
                                          "learned:samples=2 at positions of games")
    assert f"--later-teacher '{later}'" in json.loads((tmp_path / "best.json").read_text())["command"]
    assert any("iterations=10" in spec and "prior=net" in spec and "gen00" in spec for spec in asked)
    assert any("iterations=20" in spec for spec in asked)
    chunk = read_chunk(tmp_path / "gen01" / "chunk-0000000.npz", 0, 4)
    first = chunk["first"]
    assert len(first) > 1
    for start, stop in itertools.pairwise(first):
        rising = np.arange(1, stop - start + 1, dtype=np.float64)
        search, rating = rising**2 / (rising**2).sum(), rising[::-1]**3 / (rising[::-1]**3).sum()
        assert np.allclose(chunk["target"][start:stop], (search + rating) / 2, atol=1e-6)


def test_a_later_teacher_needs_a_search_teacher_and_a_search() -> None:
    with pytest.raises(ValueError, match="later_teacher must be a search"):
        ExpertConfig(later_teacher="mcts:iterations=10").check()
    with pytest.raises(ValueError, match="later_teacher must be a search"):
        ExpertConfig(teacher="mcts:iterations=10", later_teacher="heuristic").check()


def test_a_final_fit_of_larger_layers_learns_from_every_generation_and_is_gated(tmp_path: Path) -> None:
    """With final_hidden, the run ends with a network of those layers fitted on the window's data of all
    generations, gated against the best: the best network is the final one exactly when the gate keeps it, the
    manifest says so, and the command that reproduces the run names the sizes."""
    config = ExpertConfig(**{**TINY.__dict__, "final_hidden": (12, 6), "window": 2})
    train_network(config, work=tmp_path, out=tmp_path / "best.npz", log=lambda line: None)
    final = json.loads((tmp_path / "final-gen01-12x6" / "manifest.json").read_text())
    gens = [json.loads((tmp_path / f"gen{g:02d}" / "manifest.json").read_text()) for g in (0, 1)]
    assert final["generation"] == "final" and final["teacher"] == "the data of 2 generations"
    assert final["samples"] == gens[1]["samples"]              # both generations' data, as generation 1 had
    assert final["gate"]["games"] == TINY.gate_games and final["kept"] == (final["gate"]["ci_low"] > 0.25)
    assert load_network(tmp_path / "final-gen01-12x6" / "network.npz").hidden == (12, 6)
    summary = json.loads((tmp_path / "best.json").read_text())
    assert summary["generations"][-1]["generation"] == "final"
    assert load_network(tmp_path / "best.npz").hidden == ((12, 6) if final["kept"] else (8,))
    assert summary["best"] == ("final-gen01-12x6" if final["kept"] else ("gen01" if gens[1]["kept"] else "gen00"))
    assert "--hidden 8 --final-hidden 12,6 --epochs 1" in summary["command"]
    again = train_network(ExpertConfig(**{**config.__dict__, "final_hidden": (10,)}), work=tmp_path,
                          log=lambda line: None)                  # another final fit of the same generations
    other = json.loads((tmp_path / "final-gen01-10" / "manifest.json").read_text())
    assert again.hidden == ((10,) if other["kept"] else (8,)) and other["samples"] == final["samples"]
    with pytest.raises(ValueError, match="final_hidden must be one or two layer sizes"):
        ExpertConfig(final_hidden=(300,)).check()
