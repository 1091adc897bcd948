# The Python-facing classes both engines share, included by each before its own `Rules` and `State`, which derive
# from them: EngineRules holds the component tables, EngineState one game (a C struct of the engine's own game, so
# a clone is a struct copy) and all its Python interface that does not depend on the game. What they need of the
# engine is listed in game_module.pxi; the engine's State adds its own views, and its hide_from removes from an
# observation what a seat cannot see.

cimport cython
from cpython.pycapsule cimport PyCapsule_New

from borabora_sim.component_files import ComponentTables

# The capsules of search_handles() carry the engine's name, that of its saved form (FORMAT, "<engine>.state")
cdef bytes STATE_CAPSULE = FORMAT.encode()
cdef bytes RULES_CAPSULE = FORMAT.rpartition(".")[0].encode() + b".rules"


cdef check_components(components, tuple columns, str wanted):
    """Refuses anything but a game's validated component tables with every column the engine's Rules reads;
    `wanted` names them and where they come from."""
    if not isinstance(components, ComponentTables) or not all(hasattr(components, name) for name in columns):
        raise ArgumentTypeError(f"Rules need {wanted}, got {type(components).__name__}")


cdef class EngineRules:
    """Component tables in C form, shared read-only by every state of a game; the engine's Rules fills them."""
    cdef Comp c
    cdef readonly object components
    cdef readonly str fingerprint
    cdef readonly tuple action_names
    cdef readonly dict action_ids

    def capsule(self):
        return PyCapsule_New(&self.c, RULES_CAPSULE, NULL)

    cdef copy_columns(self, components, tuple same_name, dict renamed):
        """Copies component columns into the C tables: each field of `same_name` from the column of its name, each
        of `renamed` (field: column) from that column. A column must have its field's shape, and every value must
        fit the field's C type."""
        cdef unsigned char[::1] raw = <unsigned char[:sizeof(Comp)]><unsigned char*>&self.c
        tables = np.asarray(raw).view(COMP_DTYPE)[0]
        for field, column in [(name, name) for name in same_name] + list(renamed.items()):
            value = getattr(components, column)
            tables[field] = value
            if not np.array_equal(tables[field], value):
                raise ValueError(f"components.{column} does not fit the compiled engine's {field}: {value}")


# clone() is the hot path of searches driven from Python: a freed state is kept for reuse (the engine's State adds
# no field, so its objects fit the list), and states stay out of the cycle collector, as they cannot be part of a
# cycle (their one reference is to their rules); built without arguments, so that a clone parses none
@cython.freelist(8)
@cython.no_gc
cdef class EngineState:
    """A game in progress; the engine's State adds what is particular to its game."""
    cdef GameState s
    cdef EngineRules rules

    def __cinit__(self):
        if not _building:
            raise ArgumentTypeError(f"a State cannot be built directly: use {NEW_GAME_CALL} or "
                                    f"State.from_dict(saved, rules)")

    # ---- read-only views --------------------------------------------------------
    @property
    def rules(self):
        """The game's component tables in C form, shared by every state of the game."""
        return self.rules

    @property
    def components(self):
        """The component data the game is played with."""
        return self.rules.components

    def search_handles(self):
        """(vtable, rules, state, owner) for compiled search (borabora_sim._search): the capsules point
        into `owner`, this state, which the tuple keeps alive."""
        return VTABLE, self.rules.capsule(), PyCapsule_New(&self.s, STATE_CAPSULE, NULL), self

    @property
    def num_players(self):
        """Number of seats in the game."""
        return self.s.n_players

    @property
    def current_player(self):
        """Seat to move (0..players-1), or -1 when the game is over."""
        return current_player(&self.s)

    @property
    def round(self):
        """Round being played, from 1."""
        return self.s.round

    @property
    def phase(self):
        """Name of the phase of the round being played (see the game's actions document)."""
        return PHASES[self.s.phase]

    @property
    def decision(self):
        """Kind of the pending decision (see the game's actions document), or None when terminal."""
        return DECISIONS[self.s.stack[self.s.sp - 1].kind] if self.s.sp else None

    @property
    def move_count(self):
        """Number of actions applied since the start of the game."""
        return self.s.n_moves

    def is_terminal(self):
        """Whether the game is over: no action is legal, and the scores are final."""
        return self.s.phase == PH_END

    # ---- actions ------------------------------------------------------------------
    def legal_actions(self):
        """The actions legal now, small ints (below the game's num_actions); empty once the game is over."""
        cdef int buf[NUM_ACTIONS]
        cdef int n = legal_actions(&self.rules.c, &self.s, buf)
        return [buf[i] for i in range(n)]

    def legal_action_mask(self):
        """The legal actions as a boolean array over every action, True where legal."""
        cdef int buf[NUM_ACTIONS]
        cdef int n = legal_actions(&self.rules.c, &self.s, buf), i
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        cdef unsigned char[:] m = mask.view(np.uint8)
        for i in range(n):
            m[buf[i]] = 1
        return mask

    def apply(self, action):
        """Applies a legal action; an illegal one raises IllegalActionError and changes nothing."""
        cdef int buf[NUM_ACTIONS]
        cdef int n = legal_actions(&self.rules.c, &self.s, buf), i, a
        legal = [buf[i] for i in range(n)]
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            raise IllegalActionError(f"action must be an int, got {action!r}; " + self._legal_text(legal))
        try:
            action = operator.index(action)
        except TypeError:                   # has __index__ but is not one integer (a numpy array of one element)
            raise ArgumentTypeError(f"an action is one integer, got {type(action).__name__} {action!r}; "
                                    + self._legal_text(legal)) from None
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action {action} is outside [0, {NUM_ACTIONS}); " + self._legal_text(legal))
        a = action
        for i in range(n):
            if buf[i] == a:
                step(&self.rules.c, &self.s, a, buf)
                return
        raise IllegalActionError(self._illegal_message(a, legal))

    def _legal_text(self, legal):
        if not legal:
            return "the game is over: no action is legal"
        return "legal: " + ", ".join(f"{a} ({self.rules.action_names[a]})" for a in legal)

    def _illegal_message(self, action, legal):
        if self.is_terminal():
            return f"the game is over: no action is legal (got {action})"
        return (f"action {action} ({self.rules.action_names[action]}) is not legal for player "
                f"{self.current_player} at decision '{self.decision}' in round {self.round}, phase {self.phase}; "
                + self._legal_text(legal))

    def action_to_string(self, action):
        """The engine's name of an action (for programs; the game's words for people are in its `words` module)."""
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            raise IllegalActionError(f"action must be an int in [0, {NUM_ACTIONS}), got {action!r}")
        try:
            action = operator.index(action)
        except TypeError:
            raise ArgumentTypeError(f"an action is one integer in [0, {NUM_ACTIONS}), got {type(action).__name__} "
                                    f"{action!r}") from None
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action must be in [0, {NUM_ACTIONS}), got {action}")
        return self.rules.action_names[action]

    def action_from_string(self, text):
        """The action an engine name stands for (the inverse of action_to_string)."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"an action name must be a str, got {type(text).__name__}")
        try:
            return self.rules.action_ids[text.strip()]
        except KeyError:
            legal = ", ".join(repr(self.rules.action_names[a]) for a in self.legal_actions())
            raise IllegalActionError(f"unknown action name {text!r}; legal now: {legal}") from None

    # ---- copies ---------------------------------------------------------------------
    def clone(self):
        """An independent copy: what is applied to one does not change the other."""
        cdef EngineState st = _blank_state(self.rules)
        st.s = self.s
        return st

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    # ---- scores -----------------------------------------------------------------
    def scores(self):
        """Points of each seat now (final once terminal): the game's victory or happiness points."""
        return [total_score(&self.s.pl[i]) for i in range(self.s.n_players)]

    def score_breakdown(self):
        """Points by source for each seat: a list (by seat) of {source: points}; sums to scores()."""
        return [{SOURCES[k]: score_by_source(&self.s.pl[i])[k] for k in range(N_SOURCES)}
                for i in range(self.s.n_players)]

    def winner(self):
        """The winning seat after the game's tie-breaks, None until the end; when the victory is shared, the lowest
        of the seats sharing it."""
        seat = winner(&self.rules.c, &self.s)
        return None if seat < 0 else seat

    def ranks(self):
        """1-based rank of each seat, by the game's tie-breaks (seats still tied share a rank)."""
        return [rank_of(&self.rules.c, &self.s, seat) for seat in range(self.s.n_players)]

    # ---- hidden information -------------------------------------------------------
    def determinize(self, player, seed):
        """A copy in which everything `player` cannot see is resampled consistently with what is in view, and future
        chance is seeded from `seed` (see the game's state document)."""
        player = check_int(player, "player", 0, self.s.n_players - 1)
        cdef uint64_t rng = check_int(seed, "seed", 0, SEED_MAX)
        cdef EngineState st = self.clone()
        determinize(&self.rules.c, &st.s, player, rng)
        return st

    def observation(self, player):
        """What `player` can see (JSON-safe): the state without what is hidden from that seat and without the chance
        seeds. `player` None gives the public view: what everyone sees."""
        if player is not None:
            player = check_int(player, "player", 0, self.s.n_players - 1)
        d = self.to_dict()["state"]
        for name in SEED_FIELDS:
            del d[name]
        hide_from(self, d, player)
        d["pl"] = d["pl"][:self.s.n_players]
        d["stack"] = d["stack"][:self.s.sp]
        d["viewer"] = player
        return d

    # ---- serialisation ------------------------------------------------------------
    def to_dict(self):
        """JSON-safe, versioned snapshot (the game's state document)."""
        raw = (<const char*>&self.s)[:sizeof(GameState)]
        d = record_to_python(np.frombuffer(raw, dtype=GAME_DTYPE)[0], GAME_DTYPE)
        for name in SEED_FIELDS:
            d[name] = format(d[name], "016x")
        return {"format": FORMAT, "version": FORMAT_VERSION, "components": self.rules.fingerprint, "state": d}

    def check_invariants(self):
        """None if every law of a state holds (conservation, value ranges), else the broken law."""
        code = check_state(&self.rules.c, &self.s, False)
        return INVARIANTS[code - 1] if code else None

    def __repr__(self):
        if self.is_terminal():
            return f"<{STATE_NAME} players={self.s.n_players} over scores={self.scores()}>"
        return (f"<{STATE_NAME} players={self.s.n_players} round={self.s.round} phase={self.phase} "
                f"player={self.current_player} decision={self.decision}>")
