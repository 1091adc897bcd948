# Memory layout of the state structs as numpy dtypes: the basis of to_dict / from_dict.
# One line per field of state.pxd; keep the two in step.

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
    ("vp", _off(&_layout_p.vp, _layout_p), "<i2", (N_SOURCES,)),
    ("dice", _off(&_layout_p.dice, _layout_p), "u1", (N_DICE,)),
    ("status", _off(&_layout_p.status, _layout_p), "i1", ()),
    ("status_stamp", _off(&_layout_p.status_stamp, _layout_p), "<u2", ()),
    ("reg_huts", _off(&_layout_p.reg_huts, _layout_p), "u1", ()),
    ("huts_12th", _off(&_layout_p.huts_12th, _layout_p), "u1", ()),
    ("n_persons", _off(&_layout_p.n_persons, _layout_p), "u1", ()),
    ("person_12th", _off(&_layout_p.person_12th, _layout_p), "u1", ()),
    ("persons", _off(&_layout_p.persons, _layout_p), "u1", (PERSON_SPACES,)),
    ("shifted", _off(&_layout_p.shifted, _layout_p), "<u2", ()),
    ("regions", _off(&_layout_p.regions, _layout_p), "<u2", ()),
    ("fish_scored", _off(&_layout_p.fish_scored, _layout_p), "<u2", ()),
    ("ceremony", _off(&_layout_p.ceremony, _layout_p), "u1", (CEREMONY_SPACES,)),
    ("beside", _off(&_layout_p.beside, _layout_p), "u1", (N_MATERIALS,)),
    ("built", _off(&_layout_p.built, _layout_p), "u1", ()),
    ("offerings", _off(&_layout_p.offerings, _layout_p), "u1", ()),
    ("shells", _off(&_layout_p.shells, _layout_p), "u1", ()),
    ("hand", _off(&_layout_p.hand, _layout_p), "u1", (N_COLOURS,)),
    ("known", _off(&_layout_p.known, _layout_p), "u1", (N_COLOURS,)),
    ("god_tiles", _off(&_layout_p.god_tiles, _layout_p), "u1", ()),
    ("tasks", _off(&_layout_p.tasks, _layout_p), "u1", (TASK_SLOTS,)),
    ("tasks_done", _off(&_layout_p.tasks_done, _layout_p), "u1", ()),
    ("n_jewelry", _off(&_layout_p.n_jewelry, _layout_p), "u1", ()),
    ("jewelry", _off(&_layout_p.jewelry, _layout_p), "u1", (N_ROUNDS,)),
    ("dice_placed", _off(&_layout_p.dice_placed, _layout_p), "u1", (N_DIE_ACTIONS,)),
    ("gods_played", _off(&_layout_p.gods_played, _layout_p), "u1", (N_GOD_EFFECTS,)),
    ("god_tiles_played", _off(&_layout_p.god_tiles_played, _layout_p), "u1", ()),
], sizeof(Player))

GAME_DTYPE = _dtype([
    ("rng", _off(&_layout_g.rng, &_layout_g), "<u8", ()),
    ("dice_rng", _off(&_layout_g.dice_rng, &_layout_g), "<u8", ()),
    ("n_players", _off(&_layout_g.n_players, &_layout_g), "i1", ()),
    ("round", _off(&_layout_g.round, &_layout_g), "i1", ()),
    ("phase", _off(&_layout_g.phase, &_layout_g), "i1", ()),
    ("turn_idx", _off(&_layout_g.turn_idx, &_layout_g), "i1", ()),
    ("order", _off(&_layout_g.order, &_layout_g), "i1", (MAX_PLAYERS,)),
    ("first_order", _off(&_layout_g.first_order, &_layout_g), "i1", (MAX_PLAYERS,)),
    ("tile_low", _off(&_layout_g.tile_low, &_layout_g), "i1", (N_ACTION_TILES,)),
    ("temple", _off(&_layout_g.temple, &_layout_g), "i1", (TEMPLE_SPACES,)),
    ("region_owner", _off(&_layout_g.region_owner, &_layout_g), "i1", (N_REGIONS,)),
    ("fish_at", _off(&_layout_g.fish_at, &_layout_g), "i1", (N_REGIONS,)),
    ("person_pile", _off(&_layout_g.person_pile, &_layout_g), "u1", (N_SEXES, PERSONS_PER_SEX)),
    ("person_top", _off(&_layout_g.person_top, &_layout_g), "u1", (N_SEXES,)),
    ("person_display", _off(&_layout_g.person_display, &_layout_g), "u1", (N_SEXES, DISPLAY_SIZE)),
    ("task_pile", _off(&_layout_g.task_pile, &_layout_g), "u1", (N_PARROT_TASKS,)),
    ("task_top", _off(&_layout_g.task_top, &_layout_g), "u1", ()),
    ("task_display", _off(&_layout_g.task_display, &_layout_g), "u1", (DISPLAY_SIZE,)),
    ("jewelry_display", _off(&_layout_g.jewelry_display, &_layout_g), "u1", (N_ROUNDS, JEWELRY_ROWS)),
    ("god_deck", _off(&_layout_g.god_deck, &_layout_g), "u1", (N_GOD_CARDS,)),
    ("deck_top", _off(&_layout_g.deck_top, &_layout_g), "u1", ()),
    ("deck_end", _off(&_layout_g.deck_end, &_layout_g), "u1", ()),
    ("discard", _off(&_layout_g.discard, &_layout_g), "u1", (N_COLOURS,)),
    ("god_display", _off(&_layout_g.god_display, &_layout_g), "u1", (GOD_DISPLAY_SIZE,)),
    ("temple_god_tiles", _off(&_layout_g.temple_god_tiles, &_layout_g), "u1", ()),
    ("status_clock", _off(&_layout_g.status_clock, &_layout_g), "<u2", ()),
    ("blue", _off(&_layout_g.blue, &_layout_g), "u1", ()),
    ("white", _off(&_layout_g.white, &_layout_g), "u1", ()),
    ("green_used", _off(&_layout_g.green_used, &_layout_g), "u1", ()),
    ("green_double", _off(&_layout_g.green_double, &_layout_g), "u1", ()),
    ("green_extra", _off(&_layout_g.green_extra, &_layout_g), "u1", ()),
    ("yellow", _off(&_layout_g.yellow, &_layout_g), "u1", ()),
    ("ab_count", _off(&_layout_g.ab_count, &_layout_g), "u1", (N_SEXES,)),
    ("ab_types", _off(&_layout_g.ab_types, &_layout_g), "<u2", (N_SEXES,)),
    ("n_moves", _off(&_layout_g.n_moves, &_layout_g), "<u2", ()),
    ("sp", _off(&_layout_g.sp, &_layout_g), "i1", ()),
    ("stack", _off(&_layout_g.stack, &_layout_g), FRAME_DTYPE, (STACK_MAX,)),
    ("pl", _off(&_layout_g.pl, &_layout_g), PLAYER_DTYPE, (MAX_PLAYERS,)),
], sizeof(GameState))
