"""Pig's observation tensor: a fixed-length float32 vector of what one seat sees, which in Pig is everything.

It is built from ``state.observation(viewer)`` (the whole state without the die's seed) and the goal of
``state.components``. Player slots are relative to the viewer: slot 0 is the viewer, slot k the seat k places after
it. ``SLICES`` maps every named part to its ``(start, stop)`` range, ``LOW`` and ``HIGH`` bound every entry.

>>> from borabora_sim.games.pig import new_game
>>> from borabora_sim.games.pig.observation import SIZE, SLICES, observation_tensor
>>> vector = observation_tensor(new_game(players=2, seed=1), viewer=0)
>>> vector.shape == (SIZE,), float(vector[SLICES["goal"][0]])
(True, 100.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from borabora_sim import _pig
from borabora_sim.games.pig.components import MAX_FACES, MAX_GOAL
from borabora_sim.kits import encoding
from borabora_sim.kits.encoding import Encoder, Layout, Writer

MAX_PLAYERS = 4
PLAYER_COUNTS = (2, 3, 4)
COUNT_HIGH = 32767.0                # scores, turn totals and counters stop there in the engine
ROUND_HIGH = 255.0

# (name, size, high): the global part of the tensor, in order (low 0).
_GLOBAL: list[encoding.Part] = [
    ("num_players", len(PLAYER_COUNTS), 1),
    ("phase", len(_pig.PHASES), 1),
    ("to_move", MAX_PLAYERS, 1),              # relative seat; all 0 at the end
    ("round", 1, ROUND_HIGH),
    ("goal", 1, MAX_GOAL),
    ("turn_total", 1, COUNT_HIGH),
    ("last_roll", MAX_FACES, 1),              # one-hot of the face, 1..MAX_FACES
    ("last_seat", MAX_PLAYERS, 1),            # whose turn ended last (relative)
]
# (name, size, high): one player slot, repeated MAX_PLAYERS times as "p{k}.{name}".
_PLAYER: list[encoding.Part] = [
    ("present", 1, 1),
    ("pts_total", 1, COUNT_HIGH),             # points banked
    ("pts_by_source", len(_pig.SOURCES), COUNT_HIGH),
    ("lacking", 1, MAX_GOAL),                 # the points it still needs, 0 once there
    ("first", 1, 1),                          # it played the first turn
    *[(name, 1, COUNT_HIGH) for name in _pig.COUNTER_NAMES],
    ("last_end", len(_pig.TURN_ENDS), 1),     # how its last finished turn ended: none, hold, pig out
    ("last_turn", 1, COUNT_HIGH),             # the points it banked or lost
]

LAYOUT = Layout(_GLOBAL, _PLAYER, MAX_PLAYERS)
SLICES, HIGH, LOW = LAYOUT.slices, LAYOUT.high, LAYOUT.low
"""SLICES: name -> (start, stop) of each part; HIGH / LOW: the largest / smallest value each entry can take."""
SIZE = LAYOUT.size


def encode(obs: dict[str, Any], components: Any, out: np.ndarray | None = None) -> np.ndarray:
    """The tensor of an observation dict (``state.observation(viewer)``) with the game's components."""
    w = Writer(SLICES, out)
    viewer, n, goal = int(obs["viewer"] or 0), int(obs["n_players"]), int(components.goal)

    def rel(seat: int) -> int:
        return (seat - viewer) % n

    w.one("num_players", PLAYER_COUNTS.index(n))
    w.one("phase", int(obs["phase"]))
    if obs["sp"]:
        w.one("to_move", rel(int(obs["stack"][0]["player"])))
    w.scalar("round", obs["round"])
    w.scalar("goal", goal)
    w.scalar("turn_total", obs["turn_total"])
    w.one("last_roll", int(obs["last_roll"]) - 1)
    if obs["last_seat"] >= 0:
        w.one("last_seat", rel(int(obs["last_seat"])))
    for seat, p in enumerate(obs["pl"]):
        score = p["score"][0]
        values = [1.0, score, *p["score"], max(goal - score, 0), float(seat == obs["start_seat"])]
        values += [p[name] for name in _pig.COUNTER_NAMES]
        values += [float(p["last_end"] == end) for end in range(len(_pig.TURN_ENDS))] + [p["last_turn"]]
        start = LAYOUT.player_slice(rel(seat), "present")[0]
        w.out[start:start + len(values)] = values
    return w.out


def observation_tensor(state: Any, viewer: int, out: np.ndarray | None = None) -> np.ndarray:
    """The float32 tensor of what `viewer` sees in `state` (length SIZE); written into `out` if given."""
    return encode(state.observation(viewer), state.components, out)


def observation_text(obs: dict[str, Any]) -> str:
    """A canonical text of an observation dict: a readable header line, then the view as compact JSON."""
    return encoding.observation_text(obs, _pig.PHASES, _pig.DECISIONS)


def chance_view(engine: Any, observe: Any = None,
                ) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], tuple[tuple[()], ...]]:
    """(what the die has shown, no private part for any seat): the rolls so far, the mover's last roll and turn
    total, and how the last turn ended; everyone sees the same, so seat 0's observation (`observe(0)` if given)
    is read."""
    obs = observe(0) if observe is not None else engine.observation(0)
    mover = int(obs["stack"][0]["player"]) if obs["sp"] else -1
    rolls = sum(int(p["rolls"]) for p in obs["pl"])
    seat = int(obs["last_seat"])
    last = obs["pl"][seat] if seat >= 0 else {"last_end": 0, "last_turn": 0}
    public = (("roll", (rolls, mover, int(obs["last_roll"]), int(obs["turn_total"]))),
              ("last_turn", (seat, int(last["last_end"]), int(last["last_turn"]))))
    return public, ((),) * int(obs["n_players"])


def chance_events(old: tuple[Any, ...] | None, new: tuple[Any, ...]) -> str:
    """What everyone saw the die do between two views (everything when `old` is None): a turn lost to a 1, and
    the mover's roll and turn total."""
    before = dict(old) if old is not None else {}
    parts = []
    seat, end, points = dict(new)["last_turn"]
    if before.get("last_turn") != dict(new)["last_turn"] and _pig.TURN_ENDS[end] == "pig_out":
        parts.append(f"seat {seat} rolled 1, lost {points}")
    _, mover, face, total = dict(new)["roll"]
    if mover >= 0 and before.get("roll") != dict(new)["roll"]:
        parts.append(f"seat {mover} rolled {face}, turn total {total}")
    return "; ".join(parts)


ENCODER = Encoder(
    game="pig", title="Pig", score_unit="pts", layout=LAYOUT, encode=encode, text=observation_text,
    chance_view=chance_view, chance_events=chance_events,
    # Decisions in one game: Pig has no bound (a seat that never holds never ends it), so this is a practical one,
    # with a wide margin: the longest of 20,000 uniformly random games of the built-in data per player count took
    # 96 / 123 / 148 decisions (2 / 3 / 4 players); players that hold at a target take fewer.
    max_game_length=2000,
)
"""Pig's encoder for the adapters (borabora_sim.envs), found through its record."""


__all__ = ["ENCODER", "SIZE", "encode", "observation_tensor", "observation_text"]
