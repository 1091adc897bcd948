"""The kit a game's observation encoder is built with: an ``Encoder`` says everything game-specific the learning
environments (borabora_sim.envs) use of a game: the observation tensor (a ``Layout`` of named slices and the
function that fills it from ``state.observation(viewer)``, written with a ``Writer``), the observation text, what of
the view is private to the viewer, which outcomes of chance a seat sees (for OpenSpiel's information states), the
unit of the score and a bound on a game's length. ``write_turn`` writes the parts every game's tensor starts with,
``observation_text`` a canonical text of a view, and ``win_shares`` what each seat of a finished game won.

A game builds its ``Encoder`` in its own package (its ``observation.py``) and names it in its record
(``GameRecord.encoder``, borabora_sim.games), through which the environments find it
(``borabora_sim.envs.encoders.encoder_for``). This module needs only numpy.
"""

from __future__ import annotations

import json
import pickle
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol

import numpy as np

from borabora_sim.protocol import GameState

Bound = float | Sequence[float] | np.ndarray
# (name, size, high) or (name, size, high, low); high and low are one value for the whole part or one per entry.
Part = tuple[str, int, Bound] | tuple[str, int, Bound, Bound]


class ObservedState(GameState, Protocol):
    """A state as the adapters read it: the game protocol's state (``borabora_sim.protocol.GameState``) that also
    says what a seat sees (``observation(player)``, the dict its game's encoder encodes) and holds the component
    data it is played with. The states of every game with an encoder are such states."""

    @property
    def components(self) -> Any: ...
    def observation(self, player: int) -> dict[str, Any]: ...
    def clone(self) -> ObservedState: ...
    def determinize(self, player: int, seed: int) -> ObservedState: ...


# =============================================================================
# Tensor layout
# =============================================================================
class Layout:
    """A flat float32 tensor cut into named parts: the global parts in order, then ``max_players`` player slots,
    each the ``player_parts`` in order, named ``p{slot}.{name}``. Parts follow each other without gaps."""

    def __init__(self, global_parts: Sequence[Part], player_parts: Sequence[Part], max_players: int) -> None:
        parts = list(global_parts) + [(f"p{k}.{part[0]}", *part[1:]) for k in range(max_players)
                                      for part in player_parts]
        self.slices: dict[str, tuple[int, int]] = {}
        highs, lows = [], []
        at = 0
        for name, size, high, *low in parts:
            self.slices[name] = (at, at + size)
            highs.append(np.broadcast_to(np.asarray(high, dtype=np.float32), (size,)))
            lows.append(np.broadcast_to(np.asarray(low[0] if low else 0.0, dtype=np.float32), (size,)))
            at += size
        self.high = np.concatenate(highs)
        self.low = np.concatenate(lows)
        self.size = at
        self.max_players = max_players
        self.player_fields = tuple(part[0] for part in player_parts)

    def player_slice(self, slot: int, name: str) -> tuple[int, int]:
        """(start, stop) of field `name` of player slot `slot` (0 = the viewer)."""
        return self.slices[f"p{slot}.{name}"]

    def names_of(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named parts of a tensor (views, not copies)."""
        return {name: vector[start:stop] for name, (start, stop) in self.slices.items()}


class Writer:
    """Writes named parts of a tensor laid out by `slices`: into `out`, cleared first, or a new tensor."""

    def __init__(self, slices: Mapping[str, tuple[int, int]], out: np.ndarray | None = None) -> None:
        self.slices = slices
        if out is None:
            out = np.zeros(max(stop for _, stop in slices.values()), dtype=np.float32)
        else:
            out.fill(0.0)
        self.out = out

    def put(self, name: str, values: Any, offset: int = 0) -> None:
        start, stop = self.slices[name]
        values = np.asarray(values, dtype=np.float32).ravel()
        assert start + offset + values.size <= stop, name
        self.out[start + offset:start + offset + values.size] = values

    def scalar(self, name: str, value: float) -> None:
        self.out[self.slices[name][0]] = value

    def one(self, name: str, index: int, offset: int = 0) -> None:
        start, stop = self.slices[name]
        assert start + offset + index < stop, name
        self.out[start + offset + index] = 1.0


def write_turn(w: Writer, obs: Mapping[str, Any], player_counts: Sequence[int],
               params_public: bool) -> Callable[[int], int]:
    """The parts every game's tensor starts with: the player count, round and phase, and the pending decision
    (depth, who decides, its kind, its parameters, which only the seat deciding sees unless `params_public`).
    Returns `rel`, a seat's slot as the viewer sees it (0 = the viewer)."""
    viewer, n = int(obs["viewer"]), int(obs["n_players"])

    def rel(seat: int) -> int:
        return (seat - viewer) % n

    w.one("num_players", list(player_counts).index(n))
    w.one("round", int(obs["round"]) - 1)
    w.one("phase", int(obs["phase"]))
    sp = int(obs["sp"])
    w.scalar("decision_depth", sp)
    if sp > 0:
        top = obs["stack"][sp - 1]
        w.one("to_move", rel(int(top["player"])))
        w.one("decision", int(top["kind"]))
        if params_public or int(top["player"]) == viewer:
            w.put("decision_params", [top["a"], top["b"]])
    return rel


def public_view(obs: Mapping[str, Any]) -> dict[str, Any]:
    """The observation dict without the stale frames above the decision stack pointer."""
    view = dict(obs)
    view["stack"] = obs["stack"][:int(obs["sp"])]
    return view


def observation_text(obs: Mapping[str, Any], phases: Sequence[str], decisions: Sequence[str]) -> str:
    """A canonical text of an observation dict: a readable header line, then the view as compact JSON (without the
    stale frames above the decision stack pointer)."""
    header = f"viewer {obs['viewer']}; round {obs['round']}; phase {phases[obs['phase']]}"
    if obs["sp"]:
        top = obs["stack"][obs["sp"] - 1]
        header += f"; seat {top['player']} to decide {decisions[top['kind']]}"
    else:
        header += "; game over"
    return header + "\n" + json.dumps(public_view(obs), sort_keys=True, separators=(",", ":"))


# =============================================================================
# A game's encoder
# =============================================================================
def _no_private(obs: dict[str, Any]) -> dict[str, Any]:
    return obs


def _no_private_events(old: Any, new: Any) -> str:
    return ""


@dataclass(frozen=True, eq=False)
class Encoder:
    """Everything game-specific the adapters use. The tensor functions need only numpy.

    - ``encode(obs, components, out)``: the tensor of ``state.observation(viewer)`` (written into `out` if given);
    - ``text(obs)``: the observation as text (OpenSpiel's ``observation_string``);
    - ``private_slices`` / ``hide_private(obs)``: the parts of the tensor / the view that only the viewer sees
      (zeroed / removed by OpenSpiel's public observer); none when no seat holds anything hidden;
    - ``chance_view(engine, observe)``: ``(public, private by seat)``, what chance has put in view
      (``observe(seat)`` gives a seat's observation dict, cached by the caller); ``chance_events(old, new)`` and
      ``private_events(old, new)`` say in words what a seat learnt between two such views (``old`` None:
      everything), "" when nothing (OpenSpiel's perfect-recall information state);
    - ``views_alike``: no private slices, so every seat's observation is one view relabelled;
    - ``score_unit``: the name of the score's unit, accepted as a reward kind beside "score";
    - ``max_game_length``: an upper bound on the decisions of one game (OpenSpiel's ``max_game_length``).
    """

    game: str
    title: str
    score_unit: str
    layout: Layout
    encode: Callable[..., np.ndarray]
    text: Callable[[dict[str, Any]], str]
    chance_view: Callable[[Any, Callable[[int], dict[str, Any]]], tuple[Any, tuple[Any, ...]]]
    chance_events: Callable[[Any, Any], str]
    max_game_length: int
    private_slices: tuple[str, ...] = ()
    hide_private: Callable[[dict[str, Any]], dict[str, Any]] = field(default=_no_private)
    private_events: Callable[[Any, Any], str] = field(default=_no_private_events)

    @property
    def views_alike(self) -> bool:
        """Whether every seat sees the same (no private slices): then one observation, relabelled with its viewer,
        serves every seat."""
        return not self.private_slices

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def slices(self) -> dict[str, tuple[int, int]]:
        return self.layout.slices

    @property
    def low(self) -> np.ndarray:
        return self.layout.low

    @property
    def high(self) -> np.ndarray:
        return self.layout.high

    def tensor(self, state: ObservedState, viewer: int, out: np.ndarray | None = None) -> np.ndarray:
        """The float32 tensor of what `viewer` sees in `state`; written into `out` if given."""
        return self.encode(state.observation(viewer), state.components, out)

    def names_of(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named parts of a tensor (views, not copies)."""
        return self.layout.names_of(vector)

    # An encoder is immutable and one per game: copies (OpenSpiel clones states with deepcopy) share it, and a
    # pickle names it, as it names a function: by the module global that holds it, in the module of its `encode`
    # (each game's observation.py), so that an unpickled encoder is that same one.
    def __deepcopy__(self, memo: dict[int, Any]) -> Encoder:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        module = self.encode.__module__
        names = [name for name, value in vars(sys.modules[module]).items() if value is self]
        if not names:
            raise pickle.PicklingError(f"the encoder of {self.game!r} is not a global of {module}, the module of its "
                                       "encode function, so a pickle cannot name it")
        return (_global, (module, names[0]))


def _global(module: str, name: str) -> Any:
    """The global `name` of `module`: an encoder, unpickled."""
    return getattr(import_module(module), name)


def win_shares(state: GameState) -> list[float]:
    """1 to a sole winner, 1/k to each of k seats sharing the victory (rank 1 in ``ranks()``), 0 to the others;
    all 0 before the end, so that the shares of a finished game sum to 1 in every game, whether or not its rules
    let a victory be shared."""
    if not state.is_terminal():
        return [0.0] * state.num_players
    first = [rank == 1 for rank in state.ranks()]
    return [1.0 / sum(first) if won else 0.0 for won in first]


__all__ = ["Encoder", "Layout", "ObservedState", "Part", "Writer", "observation_text", "public_view", "win_shares",
           "write_turn"]
