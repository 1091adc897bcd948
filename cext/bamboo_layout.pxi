# Memory layout of Bamboo's state structs as numpy dtypes: the basis of to_dict / from_dict.
# One line per field of bamboo_state.pxd; keep the two in step.

cdef GameState _layout_g
cdef Player* _layout_p = &_layout_g.pl[0]
cdef Frame* _layout_f = &_layout_g.stack[0]

cdef inline Py_ssize_t _off(const void* field, const void* base) noexcept:
    return <const char*>field - <const char*>base

def _dtype(fields, itemsize):
    return np.dtype({"names": [f[0] for f in fields], "formats": [(f[2], f[3]) if f[3] else f[2] for f in fields],
                     "offsets": [f[1] for f in fields], "itemsize": itemsize})

FRAME_DTYPE = _dtype([
    ("kind", _off(&_layout_f.kind, _layout_f), "u1", ()),
    ("player", _off(&_layout_f.player, _layout_f), "i1", ()),
    ("a", _off(&_layout_f.a, _layout_f), "i1", ()),
    ("b", _off(&_layout_f.b, _layout_f), "i1", ()),
], sizeof(Frame))

PLAYER_DTYPE = _dtype([
    ("hp", _off(&_layout_p.hp, _layout_p), "<i2", (N_SOURCES,)),
    ("coins", _off(&_layout_p.coins, _layout_p), "u1", ()),
    ("incense", _off(&_layout_p.incense, _layout_p), "u1", ()),
    ("track", _off(&_layout_p.track, _layout_p), "u1", ()),
    ("last_visit", _off(&_layout_p.last_visit, _layout_p), "i1", ()),
    ("advanced", _off(&_layout_p.advanced, _layout_p), "u1", ()),
    ("area", _off(&_layout_p.area, _layout_p), "u1", (N_TEMPLES, AREA_CAP)),
    ("home", _off(&_layout_p.home, _layout_p), "u1", (HOME_CELLS,)),
    ("balance", _off(&_layout_p.balance, _layout_p), "u1", (N_SIDES, BAL_SLOTS)),
    ("n_scored", _off(&_layout_p.n_scored, _layout_p), "u1", ()),
    ("scored", _off(&_layout_p.scored, _layout_p), "u1", (BAL_BYTES,)),
    ("food", _off(&_layout_p.food, _layout_p), "u1", (N_FOOD_KINDS,)),
    ("spirits", _off(&_layout_p.spirits, _layout_p), "u1", (N_SPIRITS,)),
    ("asleep", _off(&_layout_p.asleep, _layout_p), "u1", (N_SPIRITS,)),
    ("turns", _off(&_layout_p.turns, _layout_p), "u1", ()),
    ("visits", _off(&_layout_p.visits, _layout_p), "u1", (N_TEMPLES,)),
    ("sticks_paid", _off(&_layout_p.sticks_paid, _layout_p), "u1", ()),
    ("sticks_free", _off(&_layout_p.sticks_free, _layout_p), "u1", ()),
    ("actions", _off(&_layout_p.actions, _layout_p), "u1", (N_ACTIONS,)),
    ("wild_actions", _off(&_layout_p.wild_actions, _layout_p), "u1", ()),
    ("declined", _off(&_layout_p.declined, _layout_p), "u1", ()),
    ("gifts", _off(&_layout_p.gifts, _layout_p), "u1", (N_ACTIONS,)),
    ("balance_obtained", _off(&_layout_p.balance_obtained, _layout_p), "u1", ()),
    ("improve_coins", _off(&_layout_p.improve_coins, _layout_p), "u1", ()),
    ("food_taken", _off(&_layout_p.food_taken, _layout_p), "u1", ()),
    ("food_wasted", _off(&_layout_p.food_wasted, _layout_p), "u1", ()),
    ("overflow", _off(&_layout_p.overflow, _layout_p), "u1", ()),
    ("spirit_used", _off(&_layout_p.spirit_used, _layout_p), "u1", (N_SPIRITS,)),
    ("spirit_woken", _off(&_layout_p.spirit_woken, _layout_p), "u1", (N_SPIRITS,)),
], sizeof(Player))

GAME_DTYPE = _dtype([
    ("rng", _off(&_layout_g.rng, &_layout_g), "<u8", ()),
    ("event_rng", _off(&_layout_g.event_rng, &_layout_g), "<u8", ()),
    ("n_moves", _off(&_layout_g.n_moves, &_layout_g), "<u2", ()),
    ("n_players", _off(&_layout_g.n_players, &_layout_g), "i1", ()),
    ("round", _off(&_layout_g.round, &_layout_g), "i1", ()),
    ("phase", _off(&_layout_g.phase, &_layout_g), "i1", ()),
    ("turn_idx", _off(&_layout_g.turn_idx, &_layout_g), "i1", ()),
    ("start_seat", _off(&_layout_g.start_seat, &_layout_g), "i1", ()),
    ("passed", _off(&_layout_g.passed, &_layout_g), "u1", ()),
    ("stick_clock", _off(&_layout_g.stick_clock, &_layout_g), "u1", ()),
    ("gifts_up", _off(&_layout_g.gifts_up, &_layout_g), "u1", ()),
    ("draft", _off(&_layout_g.draft, &_layout_g), "u1", (DRAFT_MAX,)),
    ("incense", _off(&_layout_g.incense, &_layout_g), "u1", (N_TEMPLES, N_SEATS)),
    ("incense_top", _off(&_layout_g.incense_top, &_layout_g), "u1", (N_TEMPLES, N_SEATS)),
    ("spirit_stack", _off(&_layout_g.spirit_stack, &_layout_g), "u1", (N_TEMPLES, SPIRIT_STACK)),
    ("spirit_left", _off(&_layout_g.spirit_left, &_layout_g), "u1", (N_TEMPLES,)),
    ("spirit_gone", _off(&_layout_g.spirit_gone, &_layout_g), "u1", (N_SPIRITS,)),
    ("stalk", _off(&_layout_g.stalk, &_layout_g), "u1", (N_STALKS, STALK_DEPTH)),
    ("stalk_new", _off(&_layout_g.stalk_new, &_layout_g), "u1", (N_STALKS, STALK_NEW)),
    ("home_pile", _off(&_layout_g.home_pile, &_layout_g), "u1", (N_HOME,)),
    ("home_top", _off(&_layout_g.home_top, &_layout_g), "u1", (HOME_CATS,)),
    ("home_left", _off(&_layout_g.home_left, &_layout_g), "u1", (HOME_CATS,)),
    ("home_unseen", _off(&_layout_g.home_unseen, &_layout_g), "u1", (HOME_CATS,)),
    ("home_market", _off(&_layout_g.home_market, &_layout_g), "u1", (HOME_CATS, HOME_MARKET)),
    ("bal_pile", _off(&_layout_g.bal_pile, &_layout_g), "u1", (N_BAL,)),
    ("bal_top", _off(&_layout_g.bal_top, &_layout_g), "u1", (N_SIDES,)),
    ("bal_left", _off(&_layout_g.bal_left, &_layout_g), "u1", (N_SIDES,)),
    ("bal_unseen", _off(&_layout_g.bal_unseen, &_layout_g), "u1", (N_SIDES,)),
    ("bal_market", _off(&_layout_g.bal_market, &_layout_g), "u1", (N_SIDES, BAL_MARKET)),
    ("food_pile", _off(&_layout_g.food_pile, &_layout_g), "u1", (N_FOOD,)),
    ("food_left", _off(&_layout_g.food_left, &_layout_g), "u1", ()),
    ("food_display", _off(&_layout_g.food_display, &_layout_g), "u1", (N_FOOD_KINDS,)),
    ("food_discard", _off(&_layout_g.food_discard, &_layout_g), "u1", (N_FOOD_KINDS,)),
    ("visit", _off(&_layout_g.visit, &_layout_g), "i1", ()),
    ("sticks_placed", _off(&_layout_g.sticks_placed, &_layout_g), "u1", ()),
    ("to_place", _off(&_layout_g.to_place, &_layout_g), "u1", (AREA_CAP,)),
    ("unactivated", _off(&_layout_g.unactivated, &_layout_g), "u1", (N_ICONS,)),
    ("kitsune", _off(&_layout_g.kitsune, &_layout_g), "u1", ()),
    ("bakeneko", _off(&_layout_g.bakeneko, &_layout_g), "u1", ()),
    ("received", _off(&_layout_g.received, &_layout_g), "u1", (AREA_CAP,)),
    ("n_received", _off(&_layout_g.n_received, &_layout_g), "u1", ()),
    ("sp", _off(&_layout_g.sp, &_layout_g), "i1", ()),
    ("stack", _off(&_layout_g.stack, &_layout_g), FRAME_DTYPE, (STACK_MAX,)),
    ("pl", _off(&_layout_g.pl, &_layout_g), PLAYER_DTYPE, (MAX_PLAYERS,)),
], sizeof(GameState))
