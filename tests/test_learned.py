"""The learned evaluation (docs/learned.md): compiled features that see only what a seat sees, compiled inference
equal to the network's definition, the learned player and MCTS with learned cut-offs, self-play data, training."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import borabora_sim
from borabora_sim import _engine, _search
from borabora_sim import train as training
from borabora_sim.cli import main
from borabora_sim.games import get_game
from borabora_sim.games.bamboo import new_game as new_bamboo_game
from borabora_sim.learned import DEFAULT_MANIFEST, default_model, load_weights, manifest
from borabora_sim.match import play_game
from borabora_sim.players import HeuristicPlayer, LearnedPlayer, MCTSPlayer, make_player, weights_for
from borabora_sim.train import TrainConfig, train

N_GLOBAL = len(_engine.FEATURE_NAMES_GLOBAL)
N_SEAT = len(_engine.FEATURE_NAMES_SEAT)


def mid_game(seed: int = 3, decisions: int = 120, players: int = 4) -> borabora_sim.State:
    state = borabora_sim.new_game(players=players, seed=seed)
    player = HeuristicPlayer(seed=seed)
    for _ in range(decisions):
        state.apply(player.choose(state))
    return state


def features(state: borabora_sim.State, seat: int) -> np.ndarray:
    return _search.features(state.search_handles(), seat)


def test_features_have_the_documented_layout() -> None:
    state = mid_game()
    assert default_model().num_features == N_GLOBAL + 4 * N_SEAT
    for seat in range(4):
        f = features(state, seat)
        assert f.shape == (N_GLOBAL + 4 * N_SEAT,)
        assert f[0] == state.round
        for k in range(4):              # blocks: the viewer, then the seats after it in seat order
            block = f[N_GLOBAL + k * N_SEAT: N_GLOBAL + (k + 1) * N_SEAT]
            assert block[_engine.FEATURE_NAMES_SEAT.index("vp")] == state.scores()[(seat + k) % 4]
        assert np.array_equal(f[:N_GLOBAL], features(state, 0)[:N_GLOBAL])


def test_a_smaller_game_leaves_the_missing_seats_zero() -> None:
    f = features(mid_game(players=2, decisions=40), 1)
    assert f[N_GLOBAL + 2 * N_SEAT:].tolist() == [0.0] * (2 * N_SEAT)
    assert f[N_GLOBAL:N_GLOBAL + 2 * N_SEAT].any()


@pytest.mark.parametrize("seed", range(4))
def test_a_seats_block_counts_its_holdings_one_by_one(seed: int) -> None:
    """The holdings part of a block: men and women of each ability, God cards of each colour (a seat's own hand,
    of the others the cards known), materials of each kind on the ceremony spaces and beside the board, shells;
    the game part: the lowest die on each action tile and the God cards face up by colour."""
    from borabora_sim.games.bora_bora.components import GOD_COLOURS, MATERIALS, PERSON_TYPES, load_components

    comp = load_components()
    state = mid_game(seed=seed, decisions=90 + 37 * seed)
    raw = state.to_dict()["state"]
    names = list(_engine.FEATURE_NAMES_SEAT)
    for viewer in range(4):
        f = features(state, viewer)
        game_part = dict(zip(_engine.FEATURE_NAMES_GLOBAL, f[:N_GLOBAL], strict=True))
        assert [game_part[f"low_die_{tile}"] for tile in ("helper", "temple", "build", "man", "woman", "land",
                                                             "water")] == raw["tile_low"]
        assert [game_part[f"god_display_{colour}"] for colour in GOD_COLOURS] == \
            [raw["god_display"].count(c) for c in range(len(GOD_COLOURS))]
        for k in range(4):
            seat = (viewer + k) % 4
            p = raw["pl"][seat]
            block = dict(zip(names, f[N_GLOBAL + k * N_SEAT: N_GLOBAL + (k + 1) * N_SEAT], strict=True))
            persons = p["persons"][:p["n_persons"]]
            for sex, word in enumerate(("men", "women")):
                mine = [t for t in persons if comp.person_sex[t] == sex]
                assert block[word] == len(mine)
                for kind, ability in enumerate(PERSON_TYPES):
                    assert block[f"{word}_{ability}"] == sum(comp.person_type[t] == kind for t in mine)
            cards = p["hand"] if seat == viewer else p["known"]
            assert [block[f"god_{colour}"] for colour in GOD_COLOURS] == cards
            for m, material in enumerate(MATERIALS):
                on_spaces = sum(1 for i, space in enumerate(p["ceremony"])
                                if space == 1 and comp.ceremony_material[i] == m)
                assert block[material] == on_spaces + p["beside"][m]
            assert block["shells_all"] == p["shells"]
            assert block["persons_shifted"] == bin(p["shifted"]).count("1")


@pytest.mark.parametrize("seed", range(6))
def test_features_do_not_see_hidden_information(seed: int) -> None:
    """Resampling everything seat 0 cannot see (other hands' unknown cards, pile orders) leaves its features as
    they were; resampling what seat 1 cannot see changes seat 0's hand only in ways seat 0's features use."""
    state = mid_game(seed=seed, decisions=100 + 13 * seed)
    for seat in range(4):
        mine = features(state, seat)
        for sample in range(5):
            assert np.array_equal(features(state.determinize(seat, 1000 + sample), seat), mine)


def test_the_compiled_network_computes_the_documented_function() -> None:
    weights = load_weights()
    state = mid_game(seed=11)
    x = np.array([features(state, seat) for seat in range(4)])
    logits = np.tanh((x - weights.mean) / weights.scale @ weights.w1.T + weights.b1) @ weights.w2 + weights.b2
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    compiled = _search.win_probabilities(state.search_handles(), default_model())
    assert np.allclose(compiled, expected, atol=1e-5)
    assert sum(compiled) == pytest.approx(1.0)


def layer(units: int, inputs: int, fill: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    return np.full((units, inputs), fill), np.zeros(units)


def test_model_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="layers\\[0\\] weights must be a non-empty matrix"):
        _search.Model([(np.zeros(5), np.zeros(5))], (np.zeros(5), 0.0))
    with pytest.raises(ValueError, match="one bias per unit"):
        _search.Model([(np.zeros((4, 10)), np.zeros(3))], (np.zeros(4), 0.0))
    with pytest.raises(ValueError, match="one value per hidden unit"):
        _search.Model([layer(4, 10)], (np.zeros(3), 0.0))
    with pytest.raises(ValueError, match="finite"):
        _search.Model([layer(4, 10, np.nan)], (np.zeros(4), 0.0))
    with pytest.raises(ValueError, match=r"1\.\.2 hidden layers, got 3"):
        _search.Model([layer(4, 10), layer(4, 4), layer(4, 4)], (np.zeros(4), 0.0))
    with pytest.raises(ValueError, match="layers\\[1\\] must be a \\(units, 4\\) matrix"):
        _search.Model([layer(4, 10), layer(3, 5)], (np.zeros(3), 0.0))
    with pytest.raises(ValueError, match="policy head must have one weight per hidden unit \\(4\\)"):
        _search.Model([layer(4, 10)], (np.zeros(4), 0.0), (np.zeros(3), np.zeros(7)))
    wrong = _search.Model([layer(4, 10)], (np.zeros(4), 0.0))
    with pytest.raises(ValueError, match="expects 10 features"):
        _search.win_probabilities(mid_game().search_handles(), wrong)
    features = default_model().num_features
    value_only = _search.Model([layer(4, features)], (np.zeros(4), 0.0))
    with pytest.raises(ValueError, match="no policy head"):
        _search.policy(mid_game().search_handles(), value_only)
    with pytest.raises(ValueError, match="no policy head"):
        _search.run_mcts(mid_game().search_handles(), 0, iterations=10, model=value_only, c_puct=1.0)
    too_few = _search.Model([layer(4, features)], (np.zeros(4), 0.0), (np.zeros(4), np.zeros(7)))
    with pytest.raises(ValueError, match="policy has 7 actions, the game has"):
        _search.policy(mid_game().search_handles(), too_few)
    bamboo = new_bamboo_game(players=2, seed=1)          # a model of one game's features does not fit another's
    with pytest.raises(ValueError, match=f"expects {default_model().num_features} features"):
        _search.win_probabilities(bamboo.search_handles(), default_model())


def test_a_file_without_the_arrays_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, w1=np.zeros((2, 3)))
    with pytest.raises(ValueError, match="holds the arrays w1, not w1, b1, w2, b2, mean, scale"):
        load_weights(path)


def test_the_shipped_weights_have_their_manifest() -> None:
    record = manifest()
    assert DEFAULT_MANIFEST.exists()
    assert record["features"] == default_model().num_features and (record["hidden"],) == default_model().hidden
    for key in ("config", "data", "commit", "command", "seconds", "curves"):
        assert key in record
    last = record["curves"][-1]["curve"][-1]
    assert last["validation_loss"] < np.log(4)          # better than knowing nothing, in 4-player games at least


def test_learned_option_values_are_probabilities_and_repeat_with_the_seed() -> None:
    state = mid_game(seed=4, decisions=30)
    handles = state.search_handles()
    values = _search.learned_option_values(handles, default_model(), weights_for("balanced"), 9)
    assert [a for a, _ in values] == sorted(state.legal_actions())
    assert all(0.0 <= v <= 1.0 for _, v in values)
    assert values == _search.learned_option_values(handles, default_model(), weights_for("balanced"), 9)
    assert len({v for _, v in values}) > 1


def test_the_learned_player_plays_legal_moves_and_explains_them() -> None:
    player = make_player("learned", seed=3)
    assert isinstance(player, LearnedPlayer)
    assert player.explain() == "no decision yet"
    state = mid_game(seed=5, decisions=50)
    action = player.choose(state)
    assert action in state.legal_actions()
    text = player.explain(top=3)
    assert f"chose {player.game.describe_action(state, action)}: " in text and "win chance" in text
    assert player.spec() == "learned" and make_player("learned:samples=2").spec() == "learned:samples=2"
    record = play_game([player, *(HeuristicPlayer(seed=s) for s in range(3))], seed=2)
    assert sum(record.scores) > 0


def test_learned_player_options_are_checked() -> None:
    with pytest.raises(ValueError, match="samples"):
        make_player("learned:samples=0")
    with pytest.raises(ValueError, match="no option 'depth'"):
        make_player("learned:depth=2")
    with pytest.raises(ValueError, match="bora_bora only"):
        make_player("learned", game=get_game("bamboo"))


def test_mcts_with_the_learned_evaluation() -> None:
    player = make_player("mcts:iterations=200,rollout_depth=0,evaluation=learned", seed=1)
    assert isinstance(player, MCTSPlayer)
    state = mid_game(seed=6, decisions=20)
    assert player.choose(state) in state.legal_actions()
    assert player.last_iterations == 200
    assert "evaluation=learned" in player.spec() and "temperature" not in player.spec()
    with pytest.raises(ValueError, match="rollout_depth >= 0"):
        make_player("mcts:evaluation=learned")
    with pytest.raises(ValueError, match=r"temperature=3\.0 has no effect"):
        make_player("mcts:rollout_depth=5,evaluation=learned,temperature=3")


def test_the_learned_cut_off_changes_the_search() -> None:
    state = mid_game(seed=8, decisions=60)
    handles = state.search_handles()
    common = {"iterations": 300, "rollout_depth": 0, "seed": 4, "weights": weights_for("balanced")}
    _, learned = _search.run_mcts(handles, state.current_player, model=default_model(), **common)
    _, heuristic = _search.run_mcts(handles, state.current_player, **common)
    assert sum(s[1] for s in learned) == 300
    assert learned != heuristic


def test_self_play_records_every_seat_at_turn_ends() -> None:
    state = borabora_sim.new_game(players=3, seed=12)
    weights = np.tile(weights_for("balanced"), (3, 1))
    x, returns, scores = _search.self_play(state.search_handles(), weights, 12, keep=1.0)
    assert x.dtype == np.float32 and x.shape[1:] == (3, N_GLOBAL + 4 * N_SEAT) and len(x) > 50
    assert returns.tolist().count(1.0) == 1 and scores[int(np.argmax(returns))] == scores.max()
    again, _, _ = _search.self_play(state.search_handles(), weights, 12, keep=1.0)
    assert np.array_equal(x, again)
    fewer, _, _ = _search.self_play(state.search_handles(), weights, 12, keep=0.1)
    assert 0 < len(fewer) < len(x) / 4
    with pytest.raises(ValueError, match=r"\(3, 18\) matrix"):
        _search.self_play(state.search_handles(), weights[:2], 1)
    with pytest.raises(ValueError, match="need a model"):
        _search.self_play(state.search_handles(), weights, 1, learned_seats=(0,))
    x, _, _ = _search.self_play(state.search_handles(), weights, 5, keep=0.2, model=default_model(),
                                learned_seats=(1,))
    assert len(x) > 0


TINY = TrainConfig(games=40, rounds=1, round_games=10, epochs=2, hidden=4, players=(4, 2))


def test_training_writes_weights_that_play_and_resumes(tmp_path: Path) -> None:
    out, work = tmp_path / "tiny.npz", tmp_path / "work"
    weights = train(TINY, out=out, work=work, progress=False)
    assert weights.w1.shape == (4, N_GLOBAL + 4 * N_SEAT)
    record = json.loads(out.with_suffix(".json").read_text())
    assert [d["games"] for d in record["data"]] == [40, 10] and len(record["curves"]) == 2
    assert len(record["curves"][0]["curve"]) == 2 and record["command"].startswith("borabora train-learned")
    player = LearnedPlayer(seed=1, weights_file=str(out))
    state = mid_game(decisions=10)
    assert player.choose(state) in state.legal_actions()
    chunks = {p: p.stat().st_mtime_ns for p in work.glob("round*.npz")}
    again = train(TINY, out=tmp_path / "again.npz", work=work, progress=False)      # the games are not replayed
    assert {p: p.stat().st_mtime_ns for p in work.glob("round*.npz")} == chunks
    assert np.allclose(again.w1, weights.w1, atol=1e-5)
    with pytest.raises(ValueError, match="other settings"):
        train(TrainConfig(games=41, rounds=0, epochs=1, hidden=4), out=out, work=work, progress=False)


def test_train_arguments_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="players must be player counts"):
        train(TrainConfig(games=4, players=(5,)), work=tmp_path, progress=False)
    with pytest.raises(ValueError, match="keep must be in"):
        train(TrainConfig(games=4, keep=0.0), work=tmp_path, progress=False)


@pytest.mark.parametrize(("out", "message"), [
    ("afile/w.npz", "out {tmp}/afile/w.npz cannot be written: {tmp}/afile is a file, not a directory"),
    ("afile/deeper/w.npz", "out {tmp}/afile/deeper/w.npz cannot be written: {tmp}/afile is a file, not a directory"),
    ("adir", "out must be a file name ending in .npz (its manifest is written beside it, ending in .json), got "
             "'{tmp}/adir'"),
    ("adir.npz", "out {tmp}/adir.npz cannot be written: {tmp}/adir.npz is a directory"),
    ("w.weights", "out must be a file name ending in .npz"),
    ("twin.npz", "out {tmp}/twin.npz cannot be written: {tmp}/twin.json is a directory"),
])
def test_train_refuses_an_out_it_cannot_write_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               out: str, message: str) -> None:
    (tmp_path / "afile").write_text("a file")
    (tmp_path / "adir").mkdir()
    (tmp_path / "adir.npz").mkdir()
    (tmp_path / "twin.json").mkdir()

    def no_games(*args: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(training, "play_chunk", no_games)
    with pytest.raises(ValueError) as error:
        train(TrainConfig(games=4, rounds=0), out=tmp_path / out, work=tmp_path / "work", progress=False)
    assert str(error.value).startswith(message.format(tmp=tmp_path)) and "\n" not in str(error.value)
    assert not (tmp_path / "work").exists()


def test_train_refuses_a_work_directory_that_is_a_file_or_holds_unknown_chunks(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("a file")
    with pytest.raises(ValueError, match=r"work .*afile cannot be written: .*afile is a file, not a directory"):
        train(TrainConfig(games=4, rounds=0), out=tmp_path / "w.npz", work=tmp_path / "afile", progress=False)
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "round0_0000000.npz").write_bytes(b"")
    with pytest.raises(ValueError, match=r"holds chunks of games but no config\.json"):
        train(TrainConfig(games=4, rounds=0), out=tmp_path / "w.npz", work=tmp_path / "work", progress=False)


def test_weights_are_saved_under_the_name_given_and_read_back_exactly(tmp_path: Path) -> None:
    weights = load_weights()
    weights.save(tmp_path / "w.weights")
    assert [p.name for p in tmp_path.iterdir()] == ["w.weights"]
    again = load_weights(tmp_path / "w.weights")
    assert all(np.array_equal(getattr(again, name), getattr(weights, name)) for name in ("w1", "b1", "w2", "mean",
                                                                                         "scale"))
    assert again.b2 == weights.b2


def test_the_train_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.npz"
    status = main(["train-learned", "--games", "12", "--rounds", "0", "--epochs", "1", "--hidden", "3", "--out",
                   str(out), "--work", str(tmp_path / "w"), "--quiet"])
    assert status == 0 and load_weights(out).w1.shape[0] == 3
    assert main(["train-learned", "--out", str(out), "--hidden", "0"]) == 2
    assert "an integer in [1, 256]" in capsys.readouterr().err
