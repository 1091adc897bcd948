# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Pig engine (the folk dice game): its rules in C and their thin Python wrapper `State`."""

from pig_state cimport *

include "pig_rules.pxi"
include "pig_heuristic.pxi"
include "pig_features.pxi"

import operator

import numpy as np

from borabora_sim.errors import ArgumentTypeError, IllegalActionError, StateFormatError, check_int, check_players
from borabora_sim.records import record_from_saved, record_to_python

FORMAT = "borabora_sim.pig.state"
FORMAT_VERSION = 1
SEED_FIELDS = ("rng",)                      # the die's generator, saved as a hex string

PHASES = ("play", "end")
DECISIONS = ("first_roll", "roll_or_hold")
ACTION_NAMES = ("roll", "hold")
SOURCES = ("banked",)
COUNTER_NAMES = ("turns", "rolls", "pig_outs", "holds", "points_lost")
TURN_ENDS = ("none", "hold", "pig_out")     # Player.last_end
WEIGHT_NAMES = ("hold_at", "pace", "race_within")
INVARIANTS = (                              # by the number check_state returns (pig_rules.pxi)
    "n_players must be 2..4",
    "phase must be play or end, start_seat a seat, and round 1..255, 1 until a turn has ended",
    "last turns: last_seat -1 before any turn has ended, else a seat with a last turn; a seat's last turn none "
    "(last_turn 0) before it has held or pigged out, a hold of 2..its score points, or a pig out losing at most its "
    "points_lost",
    "stack: one pending decision (sp 1) while the game is on, roll_or_hold without arguments; none (sp 0) at the end, "
    "which only a hold (last_seat's) reaches",
    "turn order: the seat to move must be the one after last_seat (start_seat before any turn has ended)",
    "the roll: last_roll 2..faces, with turn_total at least last_roll while the game is on and 0 at the end (where "
    "the winning hold is at least last_roll)",
    "scores: every seat's banked points 0..goal-1 while the game is on; at the end the goal or more for the seat "
    "that held last and less for the others",
    "counters: 0 or more, holds + pig_outs = the turns ended (turns, less the one in progress), rolls >= turns, no "
    "points_lost without a pig out",
    "round: the seats from start_seat to the seat to move have begun `round` turns, the others round - 1",
    "n_moves must be the rolls and holds of all seats together",
    "pl entries of unused seats must be all zero",
    f"in a loaded state: turn_total, scores and counters <= {LOADED_MAX}, n_moves <= {2 * LOADED_MAX}",
)

include "pig_layout.pxi"
include "game_state.pxi"


_TABLE_COLUMNS = ("goal", "faces")         # the component columns copied into the C tables of the same name


cdef class Rules(EngineRules):
    """The goal and the die in C form, shared read-only by every state of a game."""

    def __cinit__(self, components, str fingerprint not None):
        check_components(components, _TABLE_COLUMNS,
                         "validated PigComponents (borabora_sim.games.pig.load_components() builds them)")
        if not (1 <= components.goal <= MAX_GOAL and 2 <= components.faces <= MAX_FACES):
            raise ValueError(f"the compiled engine plays to a goal of 1..{MAX_GOAL} with a die of 2..{MAX_FACES} "
                             f"faces, not {components.goal} with {components.faces}")
        self.components = components
        self.fingerprint = fingerprint
        self.copy_columns(components, _TABLE_COLUMNS, {})
        self.action_names = ACTION_NAMES
        self.action_ids = {name: a for a, name in enumerate(ACTION_NAMES)}


cdef str NEW_GAME_CALL = "borabora_sim.games.pig.new_game()"
cdef str STATE_NAME = "pig.State"


cdef class State(EngineState):
    """A game of Pig in progress. Create one with `borabora_sim.games.pig.new_game()`.

    The state always waits on the mover's choice to roll again or hold, or is over: the first roll of each turn is
    compulsory and taken at once.
    """

    @classmethod
    def _new(cls, Rules rules not None, players, seed):
        return _started_state(rules, players, seed, 0)

    @classmethod
    def from_dict(cls, data, Rules rules not None):
        """A state from to_dict() output, played with the component tables `rules` (rules_for(components)); every
        field's type and range and every law of a state is checked, and the first that fails is named in a
        StateFormatError."""
        return _loaded_state(rules, data)

    @property
    def start_player(self):
        """The seat that played the first turn."""
        return self.s.start_seat

    @property
    def last_turn(self):
        """How the last finished turn ended, (seat, "hold" or "pig_out", points banked or lost), None before any."""
        if self.s.last_seat < 0:
            return None
        return self.s.last_seat, *self.last_turns()[self.s.last_seat]

    def last_turns(self):
        """How each seat's last finished turn ended: ("hold" or "pig_out", points banked or lost), or None before
        the seat has finished one."""
        rows = []
        for seat in range(self.s.n_players):
            how = self.s.pl[seat].last_end
            rows.append((TURN_ENDS[how], self.s.pl[seat].last_turn) if how != END_NONE else None)
        return rows

    @property
    def turn_total(self):
        """The points the mover has at stake in the turn in progress (0 once the game is over)."""
        return self.s.turn_total

    def returns(self):
        """1 to the winner, 0 to the others (0 to everyone until the end)."""
        cdef double out[MAX_PLAYERS]
        returns(&self.rules.c, &self.s, out)
        return [out[i] for i in range(self.s.n_players)]

    @property
    def last_roll(self):
        """The face the mover rolled last (at the end, the winner's last roll)."""
        return self.s.last_roll

    def counters(self):
        """Per seat: {name: count} for each of COUNTER_NAMES, and start_position (its place in the turn order)."""
        cdef int16_t out[N_COUNTERS]
        rows = []
        for seat in range(self.s.n_players):
            fill_counters(&self.s, seat, out)
            rows.append({**dict(zip(COUNTER_NAMES, out)), "start_position": start_position(&self.s, seat)})
        return rows


include "game_module.pxi"


cdef hide_from(EngineState state, dict d, viewer):
    """Nothing to leave out: Pig hides nothing from anyone (the seed of the die is gone already)."""


def new_state(Rules rules not None, players, seed):
    return State._new(rules, players, seed)


def random_game_actions(Rules rules not None, players, game_seed):
    """The actions of the compiled random game `game_seed` (as random_playouts plays it)."""
    return _random_game_actions(rules, players, game_seed, 0)


def random_playouts(Rules rules not None, games, players, seed, first_game=0):
    """`games` games of uniformly random actions, played in compiled code: game i from derive_seed(seed,
    first_game + i). A dict of numpy arrays: per game and seat `scores`, `breakdown` (by SOURCES), `counters` (by
    COUNTER_NAMES), `ranks` and `start_position`; per game `winner`, `decisions` and `moves` (the compulsory rolls
    included)."""
    return _random_playouts(rules, games, players, seed, first_game, 0)
