"""Training the learned evaluation of Bora Bora: `train()` and `borabora train-learned` (docs/learned.md).

Data: games played in compiled code (`_search.self_play`) by greedy heuristic players of several styles, a few
decisions uniformly random for variety; at the end of a turn a state is kept with probability `keep`, as the
features of every seat from its own viewpoint, labelled with the seat that won. Expert iteration then adds rounds of
games in which some seats play the learned player with the model of the round before, and refits on all the data.

Model and loss: one network scores each seat's features; the scores of the seats of one state are softmaxed into
win probabilities and fitted by cross-entropy to the winner. That loss (a softmax across seats of one shared
network) is not one scikit-learn's estimators offer, and the network is small (about ten thousand weights), so it is
fitted here with numpy by minibatch Adam: no extra dependency, and seconds per epoch on one core.

A run writes into a work directory as it goes (each chunk of games as it is played, `config.json`), so an
interrupted run continues where it stopped with the same arguments; at the end it writes the weights (`out`, a
name ending in .npz) and their manifest (the same name ending in .json: data, seeds, commit, command, time, the
training curve). Every file is written whole or not at all, and read back without pickle and checked (a chunk
against the sha256 `digests.json` recorded when it was written too): a damaged chunk or configuration is refused in
one line that says what to do.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from borabora_sim import _engine, _search
from borabora_sim.errors import check_int
from borabora_sim.files import Digests, json_bytes, npz_bytes, read_arrays, read_digests, read_json, write_bytes
from borabora_sim.games.bora_bora.game import BoraBora
from borabora_sim.learned import DEFAULT_MANIFEST, DEFAULT_WEIGHTS, LearnedWeights
from borabora_sim.players.heuristic import weights_for
from borabora_sim.provenance import package_commit

# The styles the seats of the data games are drawn from (balanced and tuned twice: the opponents that matter most).
DATA_STYLES = ("balanced", "balanced", "tuned", "tuned", "temple", "builder", "expansion")
CHUNK = 250                     # games per work unit and per file of the work directory
VALIDATION_EVERY = 10           # every 10th cycle of player counts of a round is held out for validation
Progress = Callable[[int], object]
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
CONFIG = "config.json"          # the work directory's record of the run's settings
DIGESTS = "digests.json"        # the work directory's record of the sha256 of each chunk file
# A chunk file's arrays and their types: per sample the features of the 4 seats, the winner, the number of seats
# and the game's index
CHUNK_ARRAYS = {"x": np.float32, "winner": np.int8, "players": np.int8, "game": np.int32}
FEATURES = len(_engine.FEATURE_NAMES_GLOBAL) + 4 * len(_engine.FEATURE_NAMES_SEAT)
CHUNK_FILE = "a chunk of training games"
CHUNK_REMEDY = "delete it and run the same command again: its games are played again"


@dataclass(frozen=True)
class TrainConfig:
    """Everything that determines a training run."""

    games: int = 40_000         # heuristic games of round 0
    rounds: int = 1             # expert-iteration rounds after round 0
    round_games: int = 4_000    # games per later round
    learned_seats: int = 2      # seats of a later round's games that play the learned player
    players: tuple[int, ...] = (4, 4, 4, 3, 2)      # player counts, cycled over the games
    keep: float = 0.05          # share of turn ends kept as samples
    explore: float = 0.02       # share of decisions played uniformly at random
    hidden: int = 48
    epochs: int = 12
    batch: int = 256
    learning_rate: float = 0.002
    l2: float = 1e-2            # on the first layer: with the seats' holdings one by one among the features, a
    #                             weaker decay let the fit learn its games by heart (validation loss 0.81 against 0.74)
    seed: int = 1


def play_chunk(seed: int, first: int, count: int, config: TrainConfig, model: LearnedWeights | None,
               learned_seats: int) -> dict[str, np.ndarray]:
    """Games first .. first + count - 1 of a round with master `seed`: features (samples, 4, features), with the
    seats of smaller games zero, the winner, the number of seats and the game index of each sample."""
    game = BoraBora()
    compiled = None if model is None else model.compiled()
    styles = {name: weights_for(name) for name in set(DATA_STYLES)}
    rows, winners, seats, games = [], [], [], []
    for index in range(first, first + count):
        game_seed = game.derive_seed(seed, index)
        rng = np.random.default_rng(game_seed)
        players = config.players[index % len(config.players)]
        weights = np.array([styles[DATA_STYLES[k]] for k in rng.integers(len(DATA_STYLES), size=players)])
        learned = tuple(int(s) for s in rng.permutation(players)[:learned_seats]) if compiled is not None else ()
        state = game.new_initial_state(players=players, seed=game_seed)
        features, returns, _scores = _search.self_play(state.search_handles(), weights, game_seed, keep=config.keep,
                                                       explore=config.explore, model=compiled, learned_seats=learned)
        padded = np.zeros((len(features), 4, features.shape[2]), dtype=np.float32)
        padded[:, :players] = features
        rows.append(padded)
        winners.append(np.full(len(features), int(np.argmax(returns)), dtype=np.int8))
        seats.append(np.full(len(features), players, dtype=np.int8))
        games.append(np.full(len(features), index, dtype=np.int32))
    return {"x": np.concatenate(rows), "winner": np.concatenate(winners), "players": np.concatenate(seats),
            "game": np.concatenate(games)}


def play_round(work: Path, label: str, seed: int, games: int, config: TrainConfig, model: LearnedWeights | None,
               learned_seats: int, n_jobs: int, progress: Progress, digests: Digests) -> dict[str, np.ndarray]:
    """A round's data, its chunks read from `work` where an earlier run wrote them (checked against `digests`, the
    work directory's record of its files), played (and written) otherwise."""
    chunks = [(first, min(CHUNK, games - first)) for first in range(0, games, CHUNK)]
    paths = [work / f"{label}_{first:07d}.npz" for first, _ in chunks]
    parts = {}
    for (first, count), path in zip(chunks, paths, strict=True):
        if path.exists():
            parts[path] = read_chunk(path, first, count, config)
            digests.check(path)
    todo = [(chunk, path) for chunk, path in zip(chunks, paths, strict=True) if path not in parts]
    progress(sum(count for (_, count), path in zip(chunks, paths, strict=True) if path in parts))

    def save(path: Path, data: dict[str, np.ndarray]) -> None:
        digests.write_bytes(path, npz_bytes({name: data[name] for name in CHUNK_ARRAYS}))
        parts[path] = data

    if n_jobs == 1:
        for (first, count), path in todo:
            save(path, play_chunk(seed, first, count, config, model, learned_seats))
            progress(count)
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(play_chunk)(seed, first, count, config, model, learned_seats) for (first, count), _ in todo)
        for ((_, count), path), data in zip(todo, results, strict=True):
            save(path, data)
            progress(count)
    return {name: np.concatenate([parts[path][name] for path in paths]) for name in CHUNK_ARRAYS}


def read_chunk(path: Path, first: int, count: int, config: TrainConfig) -> dict[str, np.ndarray]:
    """The samples of the chunk file `path` (games first .. first + count - 1 of a round), or a ValueError naming
    the file and the first thing that is wrong: not an .npz, other arrays or types, lengths that differ, a number
    of seats, a winner or a game index out of range."""
    arrays = read_arrays(path, tuple(CHUNK_ARRAYS), CHUNK_FILE, CHUNK_REMEDY)
    problem = _chunk_problem(arrays, first, count, config)
    if problem:
        raise ValueError(f"{path} is not {CHUNK_FILE} of this run: {problem}; {CHUNK_REMEDY}")
    return arrays


def _chunk_problem(arrays: dict[str, np.ndarray], first: int, count: int, config: TrainConfig) -> str | None:
    for name, dtype in CHUNK_ARRAYS.items():
        if arrays[name].dtype != dtype:
            return f"{name} is {arrays[name].dtype}, not {np.dtype(dtype)}"
    x = arrays["x"]
    if x.ndim != 3 or x.shape[1:] != (4, FEATURES):
        return f"x has shape {x.shape}, not (samples, 4, {FEATURES})"
    for name in ("winner", "players", "game"):
        if arrays[name].shape != (len(x),):
            return f"{name} has shape {arrays[name].shape}, not ({len(x)},), one value per sample"
    if not np.isfinite(x).all():
        return "x holds a number that is not finite"
    if not np.isin(arrays["players"], config.players).all():
        return f"players holds a count other than {', '.join(map(str, sorted(set(config.players))))}"
    if not ((arrays["winner"] >= 0) & (arrays["winner"] < arrays["players"])).all():
        return "winner holds a seat out of range"
    if not ((arrays["game"] >= first) & (arrays["game"] < first + count)).all():
        return f"game holds an index outside {first}..{first + count - 1}"
    return None


def _forward(params: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hidden activations (batch, 4, hidden) and win probabilities (batch, 4), absent seats at 0."""
    hidden = np.tanh(x @ params["w1"].T + params["b1"])
    logits = hidden @ params["w2"]
    logits = np.where(mask, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return hidden, p / p.sum(axis=1, keepdims=True)


def evaluate_loss(params: dict[str, np.ndarray], x: np.ndarray, winner: np.ndarray,
                  mask: np.ndarray) -> tuple[float, float]:
    """Mean cross-entropy and the share of samples whose most likely seat won."""
    losses, hits = [], []
    for start in range(0, len(x), 8192):
        _, p = _forward(params, x[start:start + 8192], mask[start:start + 8192])
        won = p[np.arange(len(p)), winner[start:start + 8192]]
        losses.append(-np.log(np.maximum(won, 1e-12)))
        hits.append(p.argmax(axis=1) == winner[start:start + 8192])
    return float(np.concatenate(losses).mean()), float(np.concatenate(hits).mean())


def fit(data: dict[str, np.ndarray], config: TrainConfig,
        log: Callable[[str], None]) -> tuple[LearnedWeights, list[dict[str, float]]]:
    """The network fitted to `data` by minibatch Adam, and its curve (per epoch: training and validation loss and
    accuracy). Games whose index is a multiple of VALIDATION_EVERY are the validation set."""
    rng = np.random.default_rng(config.seed)
    mask = np.arange(4)[None, :] < data["players"][:, None]
    rows = data["x"][mask]
    mean = rows.mean(axis=0).astype(np.float64)
    scale = rows.std(axis=0).astype(np.float64)
    scale[scale < 1e-6] = 1.0
    x = ((data["x"] - mean) / scale).astype(np.float32) * mask[:, :, None]
    held = data["game"] // len(config.players) % VALIDATION_EVERY == 0     # whole cycles: every player count
    train_idx, val_idx = np.flatnonzero(~held), np.flatnonzero(held)
    features = x.shape[2]
    params = {"w1": rng.normal(0, 1 / np.sqrt(features), (config.hidden, features)),
              "b1": np.zeros(config.hidden), "w2": rng.normal(0, 1 / np.sqrt(config.hidden), config.hidden)}
    params = {k: v.astype(np.float32) for k, v in params.items()}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    beta1, beta2, step = 0.9, 0.999, 0
    curve = []
    for epoch in range(config.epochs):
        order = rng.permutation(train_idx)
        rate = config.learning_rate * (0.5 * (1 + np.cos(np.pi * epoch / config.epochs)))
        for start in range(0, len(order), config.batch):
            batch = order[start:start + config.batch]
            xb, mb, yb = x[batch], mask[batch], data["winner"][batch]
            hidden, p = _forward(params, xb, mb)
            dz = p.copy()
            dz[np.arange(len(batch)), yb] -= 1
            dz /= len(batch)
            dh = dz[:, :, None] * params["w2"] * (1 - hidden * hidden)
            grads = {"w2": np.einsum("bs,bsh->h", dz, hidden),
                     "w1": dh.reshape(-1, config.hidden).T @ xb.reshape(-1, features) + config.l2 * params["w1"],
                     "b1": dh.sum(axis=(0, 1))}
            step += 1
            for k, g in grads.items():
                m, v = moments[k]
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                params[k] -= rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-8)
        train_loss, train_acc = evaluate_loss(params, x[train_idx], data["winner"][train_idx], mask[train_idx])
        val_loss, val_acc = evaluate_loss(params, x[val_idx], data["winner"][val_idx], mask[val_idx])
        curve.append({"epoch": epoch + 1, "train_loss": round(train_loss, 5), "train_accuracy": round(train_acc, 5),
                      "validation_loss": round(val_loss, 5), "validation_accuracy": round(val_acc, 5)})
        log(f"epoch {epoch + 1}: training loss {train_loss:.4f} (accuracy {train_acc:.3f}), validation loss "
            f"{val_loss:.4f} (accuracy {val_acc:.3f})")
    weights = LearnedWeights(params["w1"].astype(np.float64), params["b1"].astype(np.float64),
                             params["w2"].astype(np.float64), 0.0, mean, scale)
    return weights, curve


def _fit_alone(data: dict[str, np.ndarray], config: TrainConfig,
               quiet: bool) -> tuple[LearnedWeights, list[dict[str, float]]]:
    return fit(data, config, (lambda line: None) if quiet else print)


def fit_one_thread(data: dict[str, np.ndarray], config: TrainConfig,
                   quiet: bool) -> tuple[LearnedWeights, list[dict[str, float]]]:
    """`fit` in a fresh process (which prints its epochs unless `quiet`) whose BLAS uses one thread: the network's
    matrix products are small, and OpenBLAS threads synchronising on each of them made an epoch three times slower
    on 2 busy cores. The BLAS reads its thread count when numpy is first imported, hence the separate process."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    saved = {name: os.environ.get(name) for name in BLAS_THREADS}
    os.environ.update({name: "1" for name in BLAS_THREADS})
    try:
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            future = pool.submit(_fit_alone, data, config, quiet)
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
    return future.result()


def command_line(config: TrainConfig, out: Path, work: Path, n_jobs: int) -> str:
    args = ["borabora", "train-learned", "--games", str(config.games), "--rounds", str(config.rounds), "--round-games",
            str(config.round_games), "--hidden", str(config.hidden), "--epochs", str(config.epochs), "--seed",
            str(config.seed), "--out", str(out), "--work", str(work), "--jobs", str(n_jobs)]
    return shlex.join(args)


def train(config: TrainConfig | None = None, out: str | Path = DEFAULT_WEIGHTS, work: str | Path = "runs/train",
          n_jobs: int = 1, progress: bool = True) -> LearnedWeights:
    """Plays the data games, fits the network (round 0, then `config.rounds` rounds of expert iteration) and writes
    the weights to `out` (a name ending in .npz) and their manifest beside it (the same name ending in .json).
    Resumes from the chunks already in `work` when `work` was started with the same configuration; refuses a
    different one. Every argument, `out` included, is checked before any game is played."""
    config = TrainConfig() if config is None else config
    for name in ("games", "hidden", "epochs", "batch", "seed"):
        check_int(getattr(config, name), name, 1 if name != "seed" else 0, 2**63 - 1)
    check_int(config.rounds, "rounds", 0, 100)
    if config.rounds:
        check_int(config.round_games, "round_games", 1, 2**31 - 1)
        check_int(config.learned_seats, "learned_seats", 1, 2)
    if not (0 < config.keep <= 1 and 0 <= config.explore < 1):
        raise ValueError(f"keep must be in (0, 1] and explore in [0, 1), got {config.keep} and {config.explore}")
    if not config.players or any(p not in (2, 3, 4) for p in config.players):
        raise ValueError(f"players must be player counts 2, 3 or 4, got {config.players}")
    n_jobs = check_int(n_jobs, "n_jobs", 1, 64)
    out, manifest_path = check_out(out)
    work = Path(work)
    _check_writable(work, "work", work)
    record = asdict(config)
    record["players"] = list(config.players)
    digests = _open_work(work, record)
    from tqdm import tqdm

    def log(line: str) -> None:
        if progress:
            tqdm.write(line)

    started = time.time()
    total = config.games + config.rounds * config.round_games + (config.rounds + 1) * config.epochs
    with tqdm(total=total, unit="step", disable=not progress, desc="train") as bar:
        data = play_round(work, "round0", config.seed, config.games, config, None, 0, n_jobs, bar.update, digests)
        sizes = [{"round": 0, "games": config.games, "samples": len(data["winner"]), "learned_seats": 0}]
        log(f"round 0: {config.games} heuristic games, {len(data['winner'])} samples")
        weights, curve = fit_one_thread(data, config, quiet=not progress)
        bar.update(config.epochs)
        curves = [{"round": 0, "curve": curve}]
        for r in range(1, config.rounds + 1):
            more = play_round(work, f"round{r}", config.seed + r, config.round_games, config, weights,
                              config.learned_seats, n_jobs, bar.update, digests)
            more["game"] = more["game"] + r * 10_000_000
            data = {k: np.concatenate([data[k], more[k]]) for k in data}
            sizes.append({"round": r, "games": config.round_games, "samples": len(more["winner"]),
                          "learned_seats": config.learned_seats})
            log(f"round {r}: {config.round_games} games with {config.learned_seats} learned seat(s), "
                f"{len(more['winner'])} samples")
            weights, curve = fit_one_thread(data, config, quiet=not progress)
            bar.update(config.epochs)
            curves.append({"round": r, "curve": curve})
    seconds = time.time() - started
    out.parent.mkdir(parents=True, exist_ok=True)
    weights.save(out)
    manifest: dict[str, Any] = {
        "what": "learned evaluation of Bora Bora: per-seat features -> tanh hidden layer -> one logit; the seats' "
                "logits softmaxed into win probabilities",
        "features": int(weights.w1.shape[1]), "hidden": int(weights.w1.shape[0]),
        "config": record, "data": sizes, "data_styles": list(DATA_STYLES),
        "validation": f"games whose index // {len(config.players)} is a multiple of {VALIDATION_EVERY}",
        "commit": package_commit(), "command": command_line(config, out, work, n_jobs),
        "seconds": round(seconds, 1), "jobs": n_jobs, "curves": curves,
    }
    write_bytes(manifest_path, (json.dumps(manifest, indent=1) + "\n").encode())
    log(f"wrote {out} and {manifest_path} in {seconds:.0f} s")
    return weights


def check_out(out: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The weights file `out` and its manifest (the same name ending in .json), or a ValueError before any work:
    `out` must be a file name ending in .npz, not a directory, in a directory that exists or can be made."""
    path = Path(out)
    if path.suffix != ".npz":
        raise ValueError(f"out must be a file name ending in .npz (its manifest is written beside it, ending in "
                         f".json), got {os.fspath(out)!r}")
    manifest = path.with_suffix(".json")
    for target in (path, manifest):
        if target.is_dir():
            raise ValueError(f"out {path} cannot be written: {target} is a directory; give a file name ending in "
                             ".npz whose .json twin is no directory either")
    _check_writable(path.parent, "out", path)
    return path, manifest


def _check_writable(directory: Path, name: str, given: Path) -> None:
    """A ValueError unless `directory` is a directory, or can be made: its nearest existing ancestor is a
    directory this process may write in."""
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{name} {given} cannot be written: {existing} is a file, not a directory; choose another "
                         "path")
    if not os.access(existing, os.W_OK):
        raise ValueError(f"{name} {given} cannot be written: no permission to write in {existing}")


def _open_work(work: Path, record: dict[str, Any]) -> Digests:
    """Starts the work directory of a run with the settings `record`, or checks that the run it holds has them;
    returns the record of its chunk files (those of a directory written before it kept one recorded as they are)."""
    saved = work / CONFIG
    if saved.exists():
        found = read_json(saved, "the configuration of a training run", "use another --work directory")
        if not isinstance(found, dict) or set(found) != set(record):
            raise ValueError(f"{saved} is not the configuration of a training run (it holds "
                             f"{sorted(found) if isinstance(found, dict) else type(found).__name__}, not the keys "
                             f"{', '.join(record)}); use another --work directory")
        if found != record:
            changed = ", ".join(f"{key}={found[key]!r}" for key in record if found[key] != record[key])
            raise ValueError(f"{work} holds a run with other settings ({changed}); use another --work directory or "
                             "the same settings")
    elif work.is_dir() and any(work.glob("round*.npz")):
        raise ValueError(f"{work} holds chunks of games but no {CONFIG}, so their settings are unknown; use another "
                         "--work directory")
    else:
        work.mkdir(parents=True, exist_ok=True)
        write_bytes(saved, json_bytes(record))
    record_file = work / DIGESTS
    digests = Digests(work, read_digests(record_file, "the record of a training run's chunks", CHUNK_REMEDY),
                      lambda recorded: write_bytes(record_file, json_bytes(recorded)), CHUNK_REMEDY)
    digests.record_unrecorded(sorted(work.glob("round*.npz")))
    return digests


__all__ = ["DEFAULT_MANIFEST", "DEFAULT_WEIGHTS", "TrainConfig", "fit", "play_chunk", "train"]

