# The C contract of the Bora Bora engine: component tables and the game state.
# Every field is commented with its unit and range. The state holds no pointer, so
# a struct assignment is a complete copy (clone) and `sizeof(GameState)` is its size.

from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint64_t

# =============================================================================
# Sizes
# =============================================================================
cdef enum:
    MAX_PLAYERS = 4
    N_REGIONS = 12
    N_SEXES = 2
    PERSONS_PER_SEX = 36
    N_PERSON_TILES = 72
    N_PERSON_TYPES = 12
    DISPLAY_SIZE = 6              # man / woman display positions 1..6
    N_TASKS = 60
    N_CRANE_TASKS = 7
    N_PARROT_TASKS = 53
    TASK_SLOTS = 3
    MAX_TASK_REQS = 2
    N_JEWELRY = 24
    JEWELRY_ROWS = 4
    N_ROUNDS = 6
    N_COLOURS = 5
    CARDS_PER_COLOUR = 12
    N_GOD_CARDS = 60
    GOD_DISPLAY_SIZE = 5
    TEMPLE_GOD_TILES = 6
    TEMPLE_SPACES = 6
    PRIESTS = 4
    CEREMONY_SPACES = 12
    MAX_CEREMONY_PAIRS = 17       # most orthogonal pairs any 12-cell grid has (3x4 / 4x3)
    N_BUILDINGS = 6
    N_MATERIALS = 3
    N_DICE = 3
    N_DIE_ACTIONS = 8
    N_ACTION_TILES = 7
    HUTS = 12
    PERSON_SPACES = 12
    STATUS_TOP = 15               # last status-track space
    N_HELPER_ITEMS = 7
    STACK_MAX = 16
    NO_TILE = 255

# =============================================================================
# Names shared with Python (the order is part of the contract)
# =============================================================================
cdef enum:                         # DieAction: what a die placed in phase A does
    ACT_FISH, ACT_HELPER, ACT_TEMPLE, ACT_BUILD, ACT_MAN, ACT_WOMAN, ACT_LAND, ACT_WATER

cdef enum:                         # PersonType: man / woman abilities (PERSON_TYPES in components.py)
    PT_LAND, PT_WATER, PT_WOMAN, PT_MAN, PT_BUILD, PT_MATERIAL, PT_MOVE_HUT,
    PT_VP, PT_GOD_CARD, PT_OFFERING, PT_STATUS, PT_SHELL

cdef enum:                         # GodEffect: what a played God card (or pair, or tile) does
    GOD_BLUE, GOD_WHITE, GOD_RED, GOD_GREEN_DOUBLE, GOD_GREEN_EXTRA, GOD_YELLOW, N_GOD_EFFECTS

cdef enum:                         # GodPayment: how it is paid: PAY_CARD, then one pair per colour, then PAY_TILE
    PAY_CARD = 0
    PAY_PAIR = 1                   # PAY_PAIR + colour
    PAY_TILE = 6
    N_PAYMENTS = 7

cdef enum:                         # HelperItem: order of Comp.helper_cost
    HELP_TATTOO, HELP_SHELLS, HELP_VP, HELP_OFFERING, HELP_GOD_CARD, HELP_MATERIAL, HELP_MOVE_HUT

cdef enum:                         # TaskReq: TASK_REQUIREMENT_KINDS in components.py
    TR_MEN, TR_WOMEN, TR_PRIESTS, TR_JEWELRY, TR_FIRST_PLAYER, TR_REGIONS, TR_ISLANDS,
    TR_GOD_OF_COLOUR, TR_GOD_ONE_COLOUR, TR_GOD_COLOURS, TR_MAN_TYPES, TR_WOMAN_TYPES,
    TR_JEWELRY_KINDS, TR_BUILDINGS, TR_JEWELRY_OF_KIND, TR_GOD_TILES, TR_OFFERINGS, TR_SHELLS,
    TR_MATERIAL, TR_MATERIALS, TR_TERRAIN_REGIONS, TR_FISH_TYPE_REGIONS, TR_HUTS_12TH,
    TR_MEN_SHIFTED, TR_WOMEN_SHIFTED, TR_PERSONS_SHIFTED, TR_PERSONS_OF_TYPE, N_TASK_REQ_KINDS

cdef enum:                         # Source: where victory points came from (score_breakdown)
    SRC_START, SRC_FISHING, SRC_HELPER, SRC_PERSON, SRC_TEMPLE, SRC_STATUS, SRC_BUILDINGS,
    SRC_TASKS, SRC_RED_GOD, SRC_JEWELRY, SRC_FISH_TILES, SRC_GOD_TILES, SRC_GOAL_TASKS,
    SRC_GOAL_JEWELRY, SRC_GOAL_CEREMONY, SRC_GOAL_BUILDINGS, SRC_GOAL_REGIONS, SRC_GOAL_PERSONS,
    N_SOURCES

cdef enum:                         # Phase 
    PH_SETUP, PH_A, PH_B, PH_C_JEWELRY, PH_C_TASK, PH_C_TAKE_TASK, PH_FINAL, PH_END

cdef enum:                         # Decision: the kind of the pending sub-decision (Frame.kind)
    F_SETUP_HUT, F_DIE, F_HELPER, F_EXPAND, F_RED, F_MATERIAL, F_MATERIAL_ANY, F_PERSON,
    F_TEMPLE, F_BUILD_TILE, F_BUILD_PAIR, F_FIRE_GOD, F_FIRE_STATUS, F_TAKE_GOD, F_PHASE_B,
    F_JEWELRY, F_TASK, F_TAKE_TASK, F_FINAL_TASKS, N_DECISIONS

cdef enum:                         # Ceremony: content of a ceremony space
    CER_EMPTY, CER_MATERIAL, CER_BUILDING

# =============================================================================
# Flat action ids: [first id, count]; docs/actions.md explains each range
# =============================================================================
cdef enum:
    A_PLACE = 0            # 48: (die value - 1) * 8 + DieAction
    A_GOD = 48             # 42: GodEffect * 7 + GodPayment
    A_REGION = 90          # 12: expand to / set up a hut in region r
    A_SPACE = 102          # 12: put a material on ceremony space s (type = the space's)
    A_BESIDE = 114         # 3: put a material of type m beside the player board
    A_PERSON = 117         # 6: take the person at display position p + 1
    A_TEMPLE = 123         # 6: put a priest on temple space t (left to right)
    A_BUILD_TILE = 129     # 6: build building tile k
    A_BUILD_PAIR = 135     # 17: on ceremony pair q
    A_GOD_DECK = 152       # 1: God card from the top of the draw pile
    A_GOD_DISPLAY = 153    # 5: God card from face-up position i
    A_OFFERING = 158
    A_STATUS = 159
    A_SHELL = 160
    A_VP = 161
    A_MOVE_HUT = 162
    A_SHIFT = 163          # 12: shift down the person in board slot i (tattoo / collect shells)
    A_ABILITY = 175        # 24: sex * 12 + PersonType
    A_JEWELRY = 199        # 4: buy jewelry row j of this round's column
    A_COMPLETE = 203       # 3: complete task slot i
    A_DISCARD = 206        # 3: surrender task slot i
    A_TAKE_TASK = 209      # 6: take task display position i
    A_DONE = 215           # pass / stop / decline
    NUM_ACTIONS = 216

# =============================================================================
# Component tables (filled once from borabora_sim.games.bora_bora.components; read-only in play)
# =============================================================================
cdef struct Comp:
    int8_t region_island[N_REGIONS]         # 0..4
    int8_t region_terrain[N_REGIONS]        # 0..3 mountain, beach, forest, plains
    int8_t region_resource[N_REGIONS]       # 0..2 a material, 3 an offering
    uint16_t reach[2][7][N_REGIONS]         # [land/water][max path value 0..6][from] -> region bitmask
    int8_t fish_value[N_REGIONS]            # by fish tile, 1..6
    int8_t fish_type[N_REGIONS]             # by fish tile, 0..3
    int8_t person_type[N_PERSON_TILES]      # 0..11; tiles 0..35 men, 36..71 women
    int8_t person_symbols[N_PERSON_TILES]   # status symbols (men) / shells (women)
    uint8_t task_crane[N_TASKS]             # 1 = light green start task
    int8_t task_req_kind[N_TASKS][MAX_TASK_REQS]   # TaskReq or -1
    int8_t task_req_count[N_TASKS][MAX_TASK_REQS]
    int8_t task_req_param[N_TASKS][MAX_TASK_REQS]
    int8_t jewelry_kind[N_JEWELRY]
    int8_t jewelry_cost[N_JEWELRY]          # shells
    int8_t jewelry_vp[N_JEWELRY]
    int8_t status_vp[STATUS_TOP + 1]
    int8_t temple_values[TEMPLE_SPACES]     # left to right; priests are pushed to the right
    int8_t ceremony_material[CEREMONY_SPACES]
    int8_t n_pairs                          # orthogonally adjacent ceremony pairs
    int8_t pair_a[MAX_CEREMONY_PAIRS]
    int8_t pair_b[MAX_CEREMONY_PAIRS]
    int8_t building_values[N_BUILDINGS]
    int8_t building_vp[N_ROUNDS]            # by round
    int8_t temple_vp[N_ROUNDS]              # per priest, by round
    int8_t start_vp[MAX_PLAYERS]            # by turn order
    int8_t helper_cost[N_HELPER_ITEMS]      # die points per item
    int8_t fishing_vp
    int8_t start_huts_12th                  # huts on the 12th person space at start
    int8_t regular_spaces                   # person spaces 1..11

# =============================================================================
# Game state
# =============================================================================
cdef struct Frame:                          # one pending sub-decision
    uint8_t kind                            # Decision
    int8_t player                           # seat deciding
    int8_t a                                # kind-specific: points / strength / region / material ...
    int8_t b                                # kind-specific: path type / sex / tile

cdef struct Player:
    int16_t vp[N_SOURCES]                   # victory points by Source
    uint8_t dice[N_DICE]                    # this round's dice 1..6; 0 = placed
    int8_t status                           # status-track space 0..15
    uint16_t status_stamp                   # higher = on top of a shared space
    uint8_t reg_huts                        # huts on person spaces 1..11
    uint8_t huts_12th                       # huts on the 12th person space
    uint8_t n_persons                       # man / woman tiles on the board 0..12
    uint8_t person_12th                     # 1 if a person tile covers the 12th space
    uint8_t persons[PERSON_SPACES]          # person tile ids (first n_persons valid)
    uint16_t shifted                        # bit i: persons[i] shifted down
    uint16_t regions                        # bit r: a hut in region r
    uint16_t fish_scored                    # bit r: fish of region r scored with a Red God
    uint8_t ceremony[CEREMONY_SPACES]       # Ceremony
    uint8_t beside[N_MATERIALS]             # materials beside the board
    uint8_t built                           # bit k: building tile k built
    uint8_t offerings
    uint8_t shells
    uint8_t hand[N_COLOURS]                 # God cards by colour (hidden)
    uint8_t known[N_COLOURS]                # of which others know (taken face up)
    uint8_t god_tiles
    uint8_t tasks[TASK_SLOTS]               # task ids, NO_TILE = empty slot
    uint8_t tasks_done
    uint8_t n_jewelry
    uint8_t jewelry[N_ROUNDS]               # jewelry tile ids bought
    uint8_t dice_placed[N_DIE_ACTIONS]      # behaviour counters
    uint8_t gods_played[N_GOD_EFFECTS]
    uint8_t god_tiles_played

cdef struct GameState:
    uint64_t rng                            # splitmix64 state: shuffles and draws
    uint64_t dice_rng                       # splitmix64 state of the dice alone: the same dice in two games
                                            # of one seed whatever was played (paired comparisons)
    int8_t n_players                        # 2..4
    int8_t round                            # 1..6
    int8_t phase                            # Phase
    int8_t turn_idx                         # progress within the phase
    int8_t order[MAX_PLAYERS]               # seats in turn order
    int8_t first_order[MAX_PLAYERS]         # seats in the turn order of round 1
    int8_t tile_low[N_ACTION_TILES]         # lowest die on each action tile, 7 = none
    int8_t temple[TEMPLE_SPACES]            # seat or -1
    int8_t region_owner[N_REGIONS]          # seat on the building space or -1
    int8_t fish_at[N_REGIONS]               # fish tile beside region r
    uint8_t person_pile[N_SEXES][PERSONS_PER_SEX]   # draw piles
    uint8_t person_top[N_SEXES]             # next tile to draw
    uint8_t person_display[N_SEXES][DISPLAY_SIZE]   # tile id or NO_TILE
    uint8_t task_pile[N_PARROT_TASKS]
    uint8_t task_top
    uint8_t task_display[DISPLAY_SIZE]      # task id or NO_TILE
    uint8_t jewelry_display[N_ROUNDS][JEWELRY_ROWS]  # tile id or NO_TILE
    uint8_t god_deck[N_GOD_CARDS]           # colours; god_deck[deck_top:deck_end] is the pile
    uint8_t deck_top
    uint8_t deck_end
    uint8_t discard[N_COLOURS]              # discard pile by colour
    uint8_t god_display[GOD_DISPLAY_SIZE]   # colour or NO_TILE
    uint8_t temple_god_tiles                # God tiles left in the temple pile
    uint16_t status_clock                   # source of status stamps
    uint8_t blue                            # Blue God active for the next die
    uint8_t white                           # White God active for the next die
    uint8_t green_used                      # a Green God was played this phase B turn
    uint8_t green_double                    # the next ability is doubled
    uint8_t green_extra                     # one extra, different ability may be used
    uint8_t yellow                          # Yellow God active for the next task
    uint8_t ab_count[N_SEXES]               # abilities used this phase B turn
    uint16_t ab_types[N_SEXES]              # bit t: type t used this turn
    uint16_t n_moves                        # actions applied so far
    int8_t sp                               # frames on the stack
    Frame stack[STACK_MAX]
    Player pl[MAX_PLAYERS]
