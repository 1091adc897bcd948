"""Training chunks, network and weights files that are wrong in ways a reader cannot see are refused in one line, a
ValueError naming the file, before they are loaded or opened: actions out of range, a chunk of another width,
weights beyond the documented bounds, a FIFO, an .npz file whose arrays would unpack to gigabytes, a missing file."""

from __future__ import annotations

import io
import os
import threading
import zipfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from borabora_sim import files
from borabora_sim.expert_iteration import ExpertConfig, train_network
from borabora_sim.files import MAX_WEIGHT, MIN_SCALE, npz_bytes, read_arrays
from borabora_sim.games import get_game
from borabora_sim.learned import load_weights
from borabora_sim.network import load_network, network_path
from borabora_sim.players import make_player

PIG = get_game("pig")
EXPERT = ExpertConfig(game="pig", imitation_games=10, generations=0, epochs=1, hidden=(4,), gate_games=4)


def train(work: Path) -> None:
    train_network(EXPERT, work=work, log=lambda line: None)


def rewrite(path: Path, change: Callable[[dict[str, np.ndarray]], None]) -> None:
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    change(arrays)
    path.write_bytes(npz_bytes(arrays))


def out_of_range_action(arrays: dict[str, np.ndarray]) -> None:
    arrays["action"][0] = PIG.num_actions + 5


def one_feature_short(arrays: dict[str, np.ndarray]) -> None:
    arrays["x"] = np.ascontiguousarray(arrays["x"][:, :, :-1])
    arrays["after"] = np.ascontiguousarray(arrays["after"][:, :-1])


@pytest.mark.parametrize(("change", "problem"), [
    (out_of_range_action, r"action holds an action out of range \(pig's are 0\.\.1\)"),
    (one_feature_short, r"x has shape \(\d+, 4, 24\), after \(\d+, 24\) and returns \(\d+, 4\), not \(positions, 4, "
                        r"25\), \(rows, 25\) and \(positions, 4\): pig has 25 features"),
])
def test_a_training_chunk_of_other_actions_or_width_is_refused_in_one_line(
        change: Callable[[dict[str, np.ndarray]], None], problem: str, tmp_path: Path) -> None:
    train(tmp_path)
    chunk = tmp_path / "gen00" / "chunk-0000000.npz"
    rewrite(chunk, change)
    with pytest.raises(ValueError, match=rf"^{chunk} is not a chunk of expert-iteration games of this run: {problem}; "
                                         r"delete it and run the same command again") as error:
        train(tmp_path)
    assert "\n" not in str(error.value)


def scaled_network(path: Path, factor: float) -> Path:
    """Pig's network with every weight multiplied by `factor`, saved to `path`."""
    network = load_network(network_path(PIG))
    (w0, b0), = network.layers
    assert network.policy is not None
    replace(network, layers=((w0 * factor, b0 * factor),), value=(network.value[0] * factor, network.value[1]),
            policy=(network.policy[0] * factor, network.policy[1] * factor)).save(path)
    return path


def test_a_network_of_weights_beyond_the_bound_is_refused_when_loaded(tmp_path: Path) -> None:
    path = scaled_network(tmp_path / "huge.npz", 1e300)
    for spec in (f"expert:network={path}", f"mcts:iterations=20,evaluation=net,network={path}"):
        with pytest.raises(ValueError, match=rf"{path} is not a network file: [a-z0-9_]+ holds a number of size "
                                             rf".*e\+(299|300), beyond the 1e\+06 allowed"):
            make_player(spec, 1, PIG)


def test_a_network_at_the_bounds_plays(tmp_path: Path) -> None:
    """The bounds are ones every evaluation stays finite within: weights of MAX_WEIGHT, scales of MIN_SCALE."""
    network = load_network(network_path(PIG))
    at_bound = {name: np.where(value >= 0, MAX_WEIGHT, -MAX_WEIGHT)
                for name, value in [("w0", network.layers[0][0]), ("b0", network.layers[0][1])]}
    assert network.policy is not None
    extreme = replace(network, layers=((at_bound["w0"], at_bound["b0"]),),
                      value=(np.full_like(network.value[0], MAX_WEIGHT), MAX_WEIGHT),
                      policy=(np.full_like(network.policy[0], -MAX_WEIGHT),
                              np.full_like(network.policy[1], MAX_WEIGHT)),
                      mean=np.full_like(network.mean, MAX_WEIGHT), scale=np.full_like(network.scale, MIN_SCALE))
    path = tmp_path / "extreme.npz"
    extreme.save(path)
    for spec in (f"expert:network={path}", f"mcts:iterations=30,evaluation=net,network={path}",
                 f"mcts:iterations=30,prior=net,network={path}"):
        state = PIG.new_initial_state(seed=3)
        for decision in range(10):
            state.apply(make_player(spec, decision, PIG).choose(state))


def without_blocking(call: Callable[[], object], fifo: Path) -> BaseException | None:
    """What `call` raises, or None; a call still blocked on the FIFO after 20 s fails the test (a writer opening
    the FIFO then lets it go on)."""
    raised: list[BaseException | None] = []

    def run() -> None:
        try:
            call()
            raised.append(None)
        except BaseException as exc:       # handed to the test
            raised.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(20)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_WRONLY))
        thread.join(20)
        pytest.fail(f"reading the FIFO {fifo} blocked")
    return raised[0]


@pytest.mark.parametrize("spec", ["expert:network={fifo}", "learned:weights_file={fifo}"])
def test_a_fifo_given_as_a_model_file_is_refused_without_opening_it(spec: str, tmp_path: Path) -> None:
    fifo = tmp_path / "model.npz"
    os.mkfifo(fifo)
    game = get_game("pig" if spec.startswith("expert") else "bora_bora")
    error = without_blocking(lambda: make_player(spec.format(fifo=fifo), 1, game), fifo)
    assert isinstance(error, ValueError)
    assert f"{fifo} is not a " in str(error) and "it is a FIFO, not a file" in str(error)


def test_a_missing_weights_file_is_a_value_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "missing.npz"
    with pytest.raises(ValueError, match=rf"the learned-weights file {missing} cannot be read: No such file or "
                                         r"directory; give a \.npz file written by borabora train-learned"):
        make_player(f"learned:weights_file={missing}", 1, get_game("bora_bora"))


def bomb(declared: int) -> bytes:
    """A small deflated .npz file whose one array announces `declared` bytes of float64 in its header."""
    header = io.BytesIO()
    np.lib.format.write_array_header_2_0(header, {"descr": "<f8", "fortran_order": False,
                                                   "shape": (declared // 8,)})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("w1.npy", header.getvalue() + bytes(2**20))
    return buffer.getvalue()


def test_an_npz_file_announcing_gigabytes_is_refused_before_it_is_unpacked(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bomb.npz"
    path.write_bytes(bomb(2 * 2**30))
    assert path.stat().st_size < 2**20

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("np.load was called")

    monkeypatch.setattr(np, "load", never)
    with pytest.raises(ValueError, match=rf"^{path} is not a learned-evaluation file: its arrays would take 2,048 MiB "
                                         r"once unpacked, more than the 512 MiB allowed; give a \.npz file"):
        load_weights(path)


def test_the_sizes_in_the_zip_directory_count_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "zeros.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("w1.npy", bytes(4 * 2**20))            # 4 MiB of zeros: no .npy header
    monkeypatch.setattr(files, "MAX_ARRAY_BYTES", 2**20)
    with pytest.raises(ValueError, match=r"its arrays would take 4 MiB once unpacked, more than the 1 MiB allowed"):
        read_arrays(path, ("w1",), "a test file", "give another")
