"""Policy-and-value networks of any game (docs/expert.md): their weights, files, compiled form and training.

A network reads one seat's features (the game's compiled `features`, from that seat's viewpoint: its own hand and
the public board, never hidden cards), standardised, through one or two hidden tanh layers. Its value head gives
each seat a logit, the seats' logits softmaxed into win probabilities. Its policy head rates each legal action of
the seat to move by the state it leads to, as that seat sees it (on a determinization for it): a logit from the same
layers plus the action's bias, softmaxed over the legal actions; a network with `finish` weights (a heuristic
style's) judges the state after the rest of the mover's turn played by the greedy heuristic with them. The compiled
search (PUCT) and the `expert` player use its compiled form (`Network.compiled()`, the standardisation folded into
the first layer).

Training (`fit`) minimises, by minibatch Adam in numpy, the cross-entropy of the value head's win probabilities to
the seat that won plus that of the policy to a target distribution over the legal actions (a search's visit
counts). The network is small (a few tens of thousands of weights), so numpy fits it in seconds per epoch on one
core with no extra dependency, and the same seed gives the same weights.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from borabora_sim import _search
from borabora_sim.files import magnitude_problem, npz_bytes, read_arrays, write_bytes
from borabora_sim.games import record_of
from borabora_sim.protocol import Game, search_handles

Layer = tuple[np.ndarray, np.ndarray]
NETWORK_FILE = "a network file"
NETWORK_REMEDY = ("give a .npz file written by borabora_sim.network (layer0_w, layer0_b, optionally layer1_w and "
                  "layer1_b, value_w, value_b, optionally policy_w, policy_b, policy_linear, policy_heuristic and "
                  "finish_w, mean and scale)")
REQUIRED = ("layer0_w", "layer0_b", "value_w", "value_b", "mean", "scale")
OPTIONAL = ("layer1_w", "layer1_b", "policy_w", "policy_b", "policy_linear", "policy_heuristic", "finish_w")


@dataclass(frozen=True)
class Network:
    """Weights as trained, on standardised features (x - mean) / scale: hidden `layers` [(w: units x inputs, b)],
    the `value` head (w: units, b) and the `policy` head (w: units, b: one bias per action of the game), or None;
    `policy_linear`, the policy's linear part (one weight per standardised feature of the afterstate, added to its
    logit), or None;
    `finish`, the heuristic weights that play the rest of the mover's turn before the policy judges its state, or
    None (the policy judges the state an action leads to at once); `policy_heuristic`, the weight in the policy's
    logit of the mover's heuristic value (by `finish`) of that state, or None."""

    layers: tuple[Layer, ...]
    value: tuple[np.ndarray, float]
    policy: Layer | None
    mean: np.ndarray
    scale: np.ndarray
    policy_linear: np.ndarray | None = None
    finish: np.ndarray | None = None
    policy_heuristic: float | None = None

    @property
    def num_features(self) -> int:
        return int(self.layers[0][0].shape[1])

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(int(w.shape[0]) for w, _ in self.layers)

    def compiled(self) -> _search.Model:
        """The model for the compiled search and players, the standardisation folded into the first layer."""
        (w1, b1), *rest = self.layers
        w1 = w1 / self.scale
        policy = self.policy if self.policy is None or self.policy_linear is None else \
            (*self.policy, self.policy_linear / self.scale)        # its constant part cancels in the softmax
        return _search.Model([(w1, b1 - w1 @ self.mean), *rest], self.value, policy, self.finish,
                             self.policy_heuristic or 0.0)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the network to the .npz file `path` (that very name), whole or not at all."""
        write_bytes(Path(path), self.npz())

    def npz(self) -> bytes:
        """The network's .npz file."""
        arrays = {"value_w": self.value[0], "value_b": np.array(self.value[1]), "mean": self.mean,
                  "scale": self.scale}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"layer{i}_w"], arrays[f"layer{i}_b"] = w, b
        if self.policy is not None:
            arrays["policy_w"], arrays["policy_b"] = self.policy
        if self.policy_linear is not None:
            arrays["policy_linear"] = self.policy_linear
        if self.finish is not None:
            arrays["finish_w"] = self.finish
        if self.policy_heuristic is not None:
            arrays["policy_heuristic"] = np.array(self.policy_heuristic)
        return npz_bytes(arrays)


def load_network(path: str | os.PathLike[str]) -> Network:
    """The network in the .npz file `path`, or a ValueError naming the file and what is wrong with it."""
    arrays = {name: value.astype(np.float64) for name, value in
              read_arrays(path, REQUIRED, NETWORK_FILE, NETWORK_REMEDY, OPTIONAL).items()}
    problem = magnitude_problem(arrays)
    if problem:
        raise ValueError(f"{path} is not {NETWORK_FILE}: {problem}; {NETWORK_REMEDY}")
    layers = [(arrays["layer0_w"], arrays["layer0_b"])]
    if ("layer1_w" in arrays) != ("layer1_b" in arrays) or ("policy_w" in arrays) != ("policy_b" in arrays):
        raise ValueError(f"{path} is not {NETWORK_FILE}: a layer's or head's weights come without its biases; "
                         f"{NETWORK_REMEDY}")
    if "layer1_w" in arrays:
        layers.append((arrays["layer1_w"], arrays["layer1_b"]))
    policy = (arrays["policy_w"], arrays["policy_b"]) if "policy_w" in arrays else None
    features = layers[0][0].shape[-1] if layers[0][0].ndim == 2 else -1
    if arrays["mean"].shape != (features,) or arrays["scale"].shape != (features,):
        raise ValueError(f"{path} is not {NETWORK_FILE}: mean and scale must hold one value per feature of layer0_w; "
                         f"{NETWORK_REMEDY}")
    if arrays["value_b"].shape != ():
        raise ValueError(f"{path} is not {NETWORK_FILE}: value_b must be one number; {NETWORK_REMEDY}")
    network = Network(tuple(layers), (arrays["value_w"], float(arrays["value_b"])), policy, arrays["mean"],
                      arrays["scale"], arrays.get("policy_linear"), arrays.get("finish_w"),
                      float(arrays["policy_heuristic"]) if "policy_heuristic" in arrays else None)
    try:
        network.compiled()
    except ValueError as exc:
        raise ValueError(f"{path} is not {NETWORK_FILE}: {exc}; {NETWORK_REMEDY}") from None
    return network


def network_path(game: Game) -> Path:
    """Where the game's shipped network is (its record's `network`, a file of its package)."""
    record = record_of(game.name)
    if record.network is None:
        how = (f"train one with borabora train --game {game.name}" if record.encoder is not None else
               "it has no observation encoder for a network to read")
        raise ValueError(f"the game '{game.name}' has no network yet: {how}")
    package, _, name = record.network.partition(":")
    return Path(str(resources.files(package).joinpath(name)))


@cache
def _shipped(path: Path) -> _search.Model:
    return load_network(path).compiled()


def network_model(game: Game, path: str | os.PathLike[str] | None = None) -> _search.Model:
    """The compiled network of `game`: the one shipped with it, or the one in the file `path` (checked against the
    game's features and actions)."""
    try:
        model = _shipped(network_path(game)) if path is None else load_network(path).compiled()
    except OSError as exc:
        raise ValueError(f"the network file {path or network_path(game)} cannot be read: {exc.strerror or exc}; "
                         "give a .npz file written by borabora train") from None
    state = game.new_initial_state(seed=0)
    try:
        _search.policy(search_handles(state), model) if model.num_actions else \
            _search.win_probabilities(search_handles(state), model)
    except ValueError as exc:
        raise ValueError(f"the network {path or network_path(game)} does not fit {game.name}: {exc}") from None
    return model


# =============================================================================
# Training
# =============================================================================
@dataclass(frozen=True)
class Samples:
    """Training positions. For the value: the features of every seat from its own viewpoint (positions x seats x
    features; the seats a smaller game lacks are zero, masked out by `players`), the seats in play and the returns
    per seat (1 to the winner). For the policy: the seat to move, and for each legal action (rows `first[i]` to
    `first[i + 1]` of position i) the features of its afterstate as the mover sees it, the action and its target
    probability (a search's visit share; all zero for a position with no target), and the mover's heuristic value
    of that afterstate (zero where the network has no heuristic term)."""

    x: np.ndarray            # float32 (n, seats, features)
    players: np.ndarray      # int8 (n,)
    mover: np.ndarray        # int8 (n,)
    returns: np.ndarray      # float32 (n, seats)
    first: np.ndarray        # int64 (n + 1,): each position's first afterstate row
    after: np.ndarray        # float32 (rows, features)
    action: np.ndarray       # int16 (rows,)
    target: np.ndarray       # float32 (rows,)
    after_value: np.ndarray  # float32 (rows,)

    def __len__(self) -> int:
        return int(self.x.shape[0])

    def take(self, positions: np.ndarray) -> Samples:
        rows = _ranges(self.first[positions], self.first[positions + 1])
        lengths = self.first[positions + 1] - self.first[positions]
        return Samples(self.x[positions], self.players[positions], self.mover[positions], self.returns[positions],
                       np.concatenate([[0], np.cumsum(lengths)]), self.after[rows], self.action[rows],
                       self.target[rows], self.after_value[rows])

    def sharpened(self, power: float) -> Samples:
        """The samples with each position's policy target raised to `power` and renormalised: above 1, a search's
        visit shares lean to its most visited moves (a position without a target keeps none)."""
        return self if power == 1 else replace(self, target=raised(self.target, self.first, power))

    @staticmethod
    def join(parts: Sequence[Samples]) -> Samples:
        offsets = np.cumsum([0] + [len(p.after) for p in parts])
        first = np.concatenate([p.first[:-1] + offset for p, offset in zip(parts, offsets, strict=False)]
                               + [offsets[-1:]])
        def joined(name: str) -> np.ndarray:
            return np.concatenate([getattr(p, name) for p in parts])

        return Samples(joined("x"), joined("players"), joined("mover"), joined("returns"), first, joined("after"),
                       joined("action"), joined("target"), joined("after_value"))


def raised(target: np.ndarray, first: np.ndarray, power: float) -> np.ndarray:
    """Policy targets (positions' rows from `first`) raised to `power` and renormalised per position, in the
    targets' type (a position whose targets are all 0 keeps them)."""
    powered = target.astype(np.float64) ** power
    totals = np.add.reduceat(powered, first[:-1]) if len(first) > 1 else np.zeros(0)
    totals = np.repeat(np.where(totals > 0, totals, 1.0), np.diff(first))
    result: np.ndarray = (powered / totals).astype(target.dtype)
    return result


def _ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """The concatenation of range(start, stop) for each pair."""
    lengths = stops - starts
    return np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths) + np.arange(lengths.sum())


@dataclass(frozen=True)
class FitConfig:
    """How a network is fitted."""

    hidden: tuple[int, ...] = (96, 64)
    epochs: int = 12
    batch: int = 256
    learning_rate: float = 2e-3
    weight_decay: float = 1e-5
    policy_weight: float = 1.0
    heuristic: bool = False          # the policy adds the mover's heuristic value of an afterstate, with a weight
    seed: int = 0


def _init(rng: np.random.Generator, units: int, inputs: int) -> Layer:
    return rng.normal(0.0, 1.0 / np.sqrt(inputs), (units, inputs)), np.zeros(units)


def initial_network(features: int, actions: int, config: FitConfig, x: np.ndarray) -> Network:
    """A network of random weights for `features` inputs and `actions` actions, standardised on the data `x`."""
    rng = np.random.default_rng(config.seed)
    flat = x.reshape(-1, features)
    mean, scale = flat.mean(axis=0), flat.std(axis=0)
    scale = np.where(scale > 1e-6, scale, 1.0)
    layers, inputs = [], features
    for units in config.hidden:
        layers.append(_init(rng, units, inputs))
        inputs = units
    return Network(tuple(layers), (rng.normal(0, 0.1, inputs), 0.0), (rng.normal(0, 0.1, inputs), np.zeros(actions)),
                   mean, scale, np.zeros(features), policy_heuristic=1.0 if config.heuristic else None)


def _params(net: Network) -> list[np.ndarray]:
    assert net.policy is not None
    params = [a for w, b in net.layers for a in (w, b)]
    linear = [] if net.policy_linear is None else [net.policy_linear]
    heuristic = [] if net.policy_heuristic is None else [np.array([net.policy_heuristic])]
    return [*params, net.value[0], np.array([net.value[1]]), net.policy[0], net.policy[1], *linear, *heuristic]


def _network(template: Network, params: list[np.ndarray]) -> Network:
    n = len(template.layers)
    layers = tuple((params[2 * i], params[2 * i + 1]) for i in range(n))
    return replace(template, layers=layers, value=(params[2 * n], float(params[2 * n + 1][0])),
                   policy=(params[2 * n + 2], params[2 * n + 3]),
                   policy_linear=None if template.policy_linear is None else params[2 * n + 4],
                   policy_heuristic=None if template.policy_heuristic is None else float(params[-1][0]))


def _group_softmax(logits: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The softmax of `logits` within each group of rows first[i]:first[i + 1] (none empty)."""
    group = np.repeat(np.arange(len(first) - 1), np.diff(first))
    shifted: np.ndarray = np.exp(logits - np.maximum.reduceat(logits, first[:-1])[group])
    total: np.ndarray = np.add.reduceat(shifted, first[:-1])
    result: np.ndarray = shifted / total[group]
    return result


def losses_and_gradients(net: Network, batch: Samples, policy_weight: float,
                         want_gradients: bool = True) -> tuple[float, float, list[np.ndarray]]:
    """The mean value loss and policy loss of `batch`, and the gradient of value + policy_weight * policy loss
    with respect to _params(net)."""
    params = _params(net)
    n_layers = len(net.layers)
    n, seats, features = batch.x.shape
    rows = np.concatenate([batch.x.reshape(-1, features), batch.after])       # the seats' states, then afterstates
    activations = [(rows - net.mean) / net.scale]
    for i in range(n_layers):
        activations.append(np.tanh(activations[-1] @ params[2 * i].T + params[2 * i + 1]))
    top = activations[-1]
    hs, after_h = top[:n * seats].reshape(n, seats, -1), top[n * seats:]
    present = np.arange(seats)[None, :] < batch.players[:, None]
    logits = np.where(present, hs @ params[2 * n_layers] + params[2 * n_layers + 1][0], -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    value_loss = float(-(batch.returns * np.log(np.where(present, p, 1.0) + 1e-12)).sum(axis=1).mean())
    after_x = activations[0][n * seats:]
    linear = net.policy_linear is not None
    policy_logits = after_h @ params[2 * n_layers + 2] + params[2 * n_layers + 3][batch.action]
    if linear:
        policy_logits = policy_logits + after_x @ params[2 * n_layers + 4]
    heuristic = net.policy_heuristic is not None
    if heuristic:
        policy_logits = policy_logits + params[-1][0] * batch.after_value
    q = _group_softmax(policy_logits, batch.first)
    targeted = max(1, int((np.add.reduceat(batch.target, batch.first[:-1]) > 0).sum()))
    policy_loss = float(-(batch.target * np.log(q + 1e-12)).sum() / targeted)
    if not want_gradients:
        return value_loss, policy_loss, []
    grads = [np.zeros_like(a) for a in params]
    d_logits = np.where(present, (p - batch.returns) / n, 0.0)                # n x seats
    grads[2 * n_layers] = np.einsum("ns,nsu->u", d_logits, hs)
    grads[2 * n_layers + 1] = np.array([d_logits.sum()])
    group_has_target = np.add.reduceat(batch.target, batch.first[:-1]) > 0
    has_target = np.repeat(group_has_target, np.diff(batch.first))
    d_policy = np.where(has_target, q - batch.target, 0.0) * (policy_weight / targeted)
    grads[2 * n_layers + 2] = d_policy @ after_h
    np.add.at(grads[2 * n_layers + 3], batch.action, d_policy)
    if linear:
        grads[2 * n_layers + 4] = d_policy @ after_x
    if heuristic:
        grads[-1] = np.array([d_policy @ batch.after_value])
    d = np.concatenate([(d_logits[:, :, None] * params[2 * n_layers][None, None, :]).reshape(n * seats, -1),
                        d_policy[:, None] * params[2 * n_layers + 2][None, :]])
    for i in reversed(range(n_layers)):
        d = d * (1 - activations[i + 1] ** 2)
        grads[2 * i] = d.T @ activations[i]
        grads[2 * i + 1] = d.sum(axis=0)
        if i:
            d = d @ params[2 * i]
    return value_loss, policy_loss, grads


def fit(train: Samples, validation: Samples, config: FitConfig, actions: int, start: Network | None = None,
        progress: Callable[[int, float, float], object] | None = None) -> tuple[Network, list[dict[str, float]]]:
    """A network for a game of `actions` actions fitted to `train` by minibatch Adam (from `start`, or from random
    weights standardised on the data), and its curve: per epoch the validation value and policy losses. The epoch
    with the lowest validation loss is returned."""
    features = train.x.shape[2]
    net = start if start is not None else initial_network(features, actions, config, train.x)
    params = _params(net)
    moments = [np.zeros_like(a) for a in params]
    squares = [np.zeros_like(a) for a in params]
    rng = np.random.default_rng(config.seed + 1)
    step, curve = 0, []
    best = (np.inf, net)
    for epoch in range(config.epochs):
        order = rng.permutation(len(train))
        for first in range(0, len(order), config.batch):
            batch = train.take(order[first:first + config.batch])
            _, _, grads = losses_and_gradients(_network(net, params), batch, config.policy_weight)
            step += 1
            for a, g, m, v in zip(params, grads, moments, squares, strict=True):
                g = g + config.weight_decay * a
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                a -= config.learning_rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        current = _network(net, [a.copy() for a in params])
        value_loss, policy_loss, _ = losses_and_gradients(current, validation, config.policy_weight, False)
        curve.append({"epoch": epoch + 1, "value_loss": value_loss, "policy_loss": policy_loss})
        if progress is not None:
            progress(epoch + 1, value_loss, policy_loss)
        if value_loss + config.policy_weight * policy_loss < best[0]:
            best = (value_loss + config.policy_weight * policy_loss, current)
    return best[1], curve


__all__ = ["FitConfig", "Network", "Samples", "fit", "load_network"]
