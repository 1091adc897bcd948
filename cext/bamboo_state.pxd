# Bamboo's C contract: sizes, names shared with Python, the component tables and the game state.
# One plain struct per game, fixed sizes, no pointer: a struct copy is a complete clone (docs/bamboo_state.md).

from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, uint32_t, uint64_t

cdef enum:
    MAX_PLAYERS = 4
    N_SEATS = 5                   # players + the 2-player ghost, in temple counts
    GHOST = 4                     # the ghost's seat index in incense[][]
    N_TEMPLES = 4                 # temples = colours = temple areas of a personal board
    N_ICONS = 5                   # balance, improve, cook, fund, wildcard
    ICON_WILD = 4
    N_ACTIONS = 4                 # the four actions (not wildcard)
    N_KINDS = 20                  # shoot kinds: colour * 5 + icon
    N_STALKS = 4
    STALK_DEPTH = 3               # shaded spaces per stalk
    STALK_NEW = 2                 # new shoots per stalk per turn
    FIELD_SPACES = 12
    AREA_CAP = 4                  # spaces of a temple area
    PLAYER_SHOOTS = 6             # 4 set-up + 2 drafted
    SET_SHOOTS = 4                # player-setup pieces per player
    DRAFTED = 2                   # drafted pieces per player
    DRAFT_MAX = 8                 # unmarked pieces
    N_HOME = 64
    HOME_CATS = 2
    HOME_MARKET = 4               # face-up home tiles per category (B4)
    HOME_ROWS = 3
    HOME_COLS = 5
    HOME_CELLS = 15
    N_HOME_TYPES = 4              # decoration, faith, garden, tools
    N_BAL = 68
    BAL_BYTES = 9                 # bytes of a set of balance tiles, one bit a tile: (N_BAL + 7) // 8
    N_SIDES = 3                   # left, center, right
    BAL_MARKET = 3                # face-up balance tiles per side
    BAL_SLOTS = 2                 # unscored tiles per side on a personal board
    MAX_PLACEMENTS = 1024         # >= 68 tiles x 15 translations
    N_SPIRITS = 7
    SPIRIT_STACK = 4
    N_SPIRIT_TILES = 21
    N_FOOD_KINDS = 3              # tea, rice, ramen
    N_FOOD = 26
    FOOD_DISPLAY = 5
    N_GIFTS = 4
    N_ROUNDS = 4
    INCENSE = 7                   # sticks per player: 3 in reserve + 1 per round space
    GHOST_STICKS = 8              # brown sticks: 7 + the extra one
    STACK_MAX = 8                 # pending decisions (a turn needs 3)
    N_COUNTERS = 36               # behaviour counters of Player: the bytes from `turns` to `spirit_woken`
    NO_TILE = 255

cdef enum:                         # Phase: what is pending (Autumn and Winter steps 3-5 are never pending)
    PH_SETUP, PH_SPRING, PH_SUMMER, PH_WAKE, PH_FEED, PH_END

cdef enum:                         # Decision (Frame.kind); docs/bamboo_actions.md describes each
    F_DRAFT, F_GIFT, F_VISIT, F_OFFER, F_STALK, F_SHOOT, F_ACTIVATE, F_BALANCE, F_IMPROVE,
    F_HOME_SPACE, F_COOK, F_RENEW_FOOD, F_KEEP_SHOOT, F_WAKE, F_FEED, N_DECISIONS

cdef enum:                         # Action: the component file's ACTIONS order
    ACT_BALANCE, ACT_IMPROVE, ACT_COOK, ACT_FUND

cdef enum:                         # SpiritEffect: the component file's SPIRIT_EFFECTS order
    EFF_BALANCE, EFF_IMPROVE, EFF_FUND, EFF_WILDCARDS, EFF_WINTER_FOOD, EFF_FREE_OFFERING, EFF_RENEW_FOOD

cdef enum:                         # Source: where happiness points came from (score_breakdown)
    SRC_START, SRC_BALANCE_HP, SRC_BALANCE_SCORED, SRC_HOME_TILES, SRC_HUNGER,
    SRC_SPIRIT_TYPES, SRC_HARMONY, SRC_HALF_BALANCE, SRC_NIGHT_SPACES, N_SOURCES

cdef enum:                         # flat action ids: first id of each range (docs/bamboo_actions.md)
    A_SHOOT = 0            # 20: kind
    A_GIFT = 20            # 4: action
    A_VISIT = 24           # 4: temple area
    A_INCENSE = 28         # 4: temple
    A_STALK = 32           # 4
    A_ACTIVATE = 36        # 4: action shown by the shoot
    A_WILD = 40            # 4: action performed by a Wildcard
    A_USE = 44             # 7: spirit
    A_BAL_HP = 51
    A_OBTAIN = 52          # 9: side * 3 + market position
    A_SCORE = 61           # 6: side * 2 + slot
    A_COIN = 67
    A_BUY = 68             # 8: category * 4 + market position
    A_SPACE = 76           # 15: home cell
    A_TAKE_FOOD = 91       # 3: food kind
    A_RENEW = 94
    A_KEEP = 95            # 4: temple area
    A_WAKE = 99            # 7: spirit
    A_PAY = 106            # 3: food kind
    A_DONE = 109
    NUM_ACTIONS = 110

cdef struct Comp:
    # Bamboo shoots (kind = colour * 5 + icon; pieces of one kind are identical)
    uint8_t field_kinds[FIELD_SPACES]       # the board-setup pieces, shuffled onto the shaded spaces
    uint8_t set_kinds[MAX_PLAYERS][N_TEMPLES]   # player-setup set k: to the (k+1)-th player in turn order (B2)
    uint8_t draft_kinds[DRAFT_MAX]          # the unmarked pieces the draft pool is drawn from (B1)
    uint8_t kind_pieces[N_KINDS]            # pieces of each kind in the box, 0..36
    # Home tiles
    int8_t home_type[N_HOME]                # 0..3 decoration, faith, garden, tools
    int8_t home_comfort[N_HOME]             # 1..3
    int8_t home_cost[N_HOME]                # coins, 0..9
    int8_t home_hp[N_HOME]                  # HP when bought, 0..9
    int8_t home_cat[N_HOME]                 # 0..1: stack and market
    uint8_t home_three_plus[N_HOME]         # 1: left in the box with 2 players
    uint8_t home_base[HOME_CATS]            # first slot of the category's region of home_pile
    uint8_t home_size[HOME_CATS]            # tiles of the category (3+ ones included); sum 64
    int8_t night_type[HOME_CELLS]           # advanced side: the type a space requires, -1 = any
    # Balance tiles
    int8_t bal_side[N_BAL]                  # 0..2 left, center, right (24 / 20 / 24)
    int8_t bal_hp[N_BAL]                    # 1..20
    int8_t bal_min_comfort[N_BAL]           # on a shape's cells, or on a type total's tiles; 0 = none
    int8_t bal_total_type[N_BAL]            # -1: a shape; else the type of a type total
    uint32_t bal_region[N_BAL]              # the cells of the tile's region (a type total counts only these)
    uint16_t bal_first[N_BAL + 1]           # tile i's placements: bal_first[i] .. bal_first[i + 1] - 1
    uint32_t place_cover[MAX_PLACEMENTS]    # every cell of the placement must hold a home tile
    uint32_t place_need[MAX_PLACEMENTS][N_HOME_TYPES]   # cells that must hold a tile of type t
    uint32_t side_cells[N_SIDES]            # left 6, whole 15, right 6 (harmony compares [0] and [2])
    uint8_t bal_base[N_SIDES]               # first slot of the side's region of bal_pile: 0, 24, 44
    uint8_t bal_size[N_SIDES]               # 24, 20, 24
    # Spirits of the Forest (the component file's order)
    int8_t spirit_effect[N_SPIRITS]         # SpiritEffect
    int8_t spirit_amount[N_SPIRITS]         # actions, food units (Ookami 4) or counters; 0 for the two flags
    int8_t spirit_cost[N_SPIRITS]           # coins to wake (Kitsune 0)
    uint8_t spirit_copies[N_SPIRITS]        # 3 each, 21 in all
    # Food counters
    int8_t food_units[N_FOOD_KINDS]         # 1, 2, 3
    uint8_t food_count[N_FOOD_KINDS]        # 6, 12, 8
    # Temple tiles (2 players) and gifts
    int8_t temple_tile_sticks[N_TEMPLES]    # ghost sticks each tile shows: 0, 2 or 3
    int8_t gift_action[N_GIFTS]             # 0..3: the action of gift tile g
    # Rule numbers (the component file's setup, actions and scoring tables)
    int8_t start_hp, start_coins, start_incense                 # 5, 3, 3
    int8_t fund_coins, improve_coins, balance_hp, other_temple_coins   # 2, 1, 1, 1
    int8_t spirit_type_hp, harmony_hp, unscored_divisor, uncovered_hp, hunger_hp, food_per_home_tile
                                            # 2, 2, 2 (rounded up), 1, 1, 1

cdef struct Frame:                          # one pending decision
    uint8_t kind                            # Decision
    int8_t player                           # seat deciding, 0..3
    int8_t a                                # offer: sticks left 1..4; stalk: shoots left 1..4; shoot: stalk 0..3;
                                            # activate: activations left 0..4; balance: sub-actions left 1..2;
                                            # home_space: home tile id 0..63; renew_food: 0 before / 1 after the
                                            # counter; keep_shoot: kind 0..19; feed: units owed 1..15; else 0
    int8_t b                                # offer: lowest temple 0..3; stalk: lowest stalk 0..3; wake: lowest
                                            # spirit 0..6; feed: 0 before the first counter, else 1 + the kind
                                            # of the last counter paid (1..3); else 0

cdef struct Player:
    int16_t hp[N_SOURCES]                   # happiness points by Source; hunger, harmony, night spaces <= 0
    uint8_t coins                           # value in coins, 0..255 (one number: B22)
    uint8_t incense                         # sticks in the reserve, 0..7
    uint8_t track                           # sticks still on the round spaces, 0..4 (B5)
    int8_t last_visit                       # temple area of the previous turn, -1 before the first (B10)
    uint8_t advanced                        # 1: nighttime side (B36)
    uint8_t area[N_TEMPLES][AREA_CAP]       # shoot kinds in each temple area, front first, NO_TILE = empty
    uint8_t home[HOME_CELLS]                # home tile id on each space, NO_TILE = empty
    uint8_t balance[N_SIDES][BAL_SLOTS]     # unscored balance tile ids by side, front first, NO_TILE = empty
    uint8_t n_scored                        # balance tiles scored (out of play), 0..68
    uint8_t scored[BAL_BYTES]               # which: bit i % 8 of byte i // 8 = balance tile i; n_scored bits set
    uint8_t food[N_FOOD_KINDS]              # counters held by kind, 0..26
    uint8_t spirits[N_SPIRITS]              # spirit tiles held, 0..3 each
    uint8_t asleep[N_SPIRITS]               # of which asleep, <= spirits
    # behaviour counters (stop at 255)
    uint8_t turns                           # Summer turns taken
    uint8_t visits[N_TEMPLES]               # visits by temple area
    uint8_t sticks_paid                     # sticks offered in another temple for a coin
    uint8_t sticks_free                     # sticks offered in another temple under Bakeneko
    uint8_t actions[N_ACTIONS]              # actions carried out by kind, from any source (shoot, gift, spirit)
    uint8_t wild_actions                    # of which by a Wildcard (printed or Kitsune)
    uint8_t declined                        # activations declined with `done`
    uint8_t gifts[N_ACTIONS]                # gifts chosen by action
    uint8_t balance_obtained                # Obtain Balance sub-actions
    uint8_t improve_coins                   # Improve Your Home taken as 1 coin
    uint8_t food_taken                      # counters taken (Cook, Tengu)
    uint8_t food_wasted                     # food units paid beyond what was owed (no change)
    uint8_t overflow                        # received shoots kept outside their own area
    uint8_t spirit_used[N_SPIRITS]          # uses by spirit
    uint8_t spirit_woken[N_SPIRITS]         # wakes by spirit (Kitsune's free wake included)

cdef struct GameState:
    uint64_t rng                            # splitmix64: set-up shuffles, then the food reshuffles alone
    uint64_t event_rng                      # splitmix64: each Spring's gift reveal and the ghost's temple tiles
    uint16_t n_moves                        # actions applied so far, 0..30000
    int8_t n_players                        # 2..4
    int8_t round                            # 1..4
    int8_t phase                            # Phase
    int8_t turn_idx                         # set-up: picks made 0..2P; Spring, wake, feed: players done 0..P;
                                            # Summer: position in turn order of the player to move 0..P-1
    int8_t start_seat                       # holder of the starting player marker, 0..P-1
    uint8_t passed                          # Summer: bit s = seat s has passed
    uint8_t stick_clock                     # Summer turns so far this year, 0..28: the stamp of the sticks placed
    uint8_t gifts_up                        # Spring: bit g = gift tile g face up and not yet taken
    uint8_t draft[DRAFT_MAX]                # set-up: shoot kinds in the draft pool, NO_TILE = taken or unused
    # Temples
    uint8_t incense[N_TEMPLES][N_SEATS]     # sticks in each temple by seat (GHOST = the 2-player ghost), 0..8
    uint8_t incense_top[N_TEMPLES][N_SEATS] # stick_clock when that seat last offered there; 0 = none (ghost: 0)
    uint8_t spirit_stack[N_TEMPLES][SPIRIT_STACK]   # spirit ids, bottom first; the face-up one is
                                            # [t][spirit_left[t] - 1]; NO_TILE above the height
    uint8_t spirit_left[N_TEMPLES]          # tiles left in the temple's stack, 0..4
    uint8_t spirit_gone[N_SPIRITS]          # face-up spirits removed: won by the ghost, or no incense (B29)
    # Reed field
    uint8_t stalk[N_STALKS][STALK_DEPTH]    # shoot kinds on the shaded spaces, bottom first (always full)
    uint8_t stalk_new[N_STALKS][STALK_NEW]  # shoots placed this turn, first placed first; NO_TILE = free
    # Home-tile stacks and markets
    uint8_t home_pile[N_HOME]               # one ring buffer per category, in [home_base[c], + home_size[c])
    uint8_t home_top[HOME_CATS]             # ring offset of the top tile, 0..size-1
    uint8_t home_left[HOME_CATS]            # tiles in the stack, 0..size
    uint8_t home_unseen[HOME_CATS]          # of which, from the top, never seen, 0..home_left
    uint8_t home_market[HOME_CATS][HOME_MARKET]   # tile ids from the lowest position, NO_TILE at the top only
    # Balance stacks and markets (same layout, one region per side)
    uint8_t bal_pile[N_BAL]                 # one ring buffer per side, in [bal_base[s], + bal_size[s])
    uint8_t bal_top[N_SIDES]                # ring offset of the top tile
    uint8_t bal_left[N_SIDES]               # tiles in the stack
    uint8_t bal_unseen[N_SIDES]             # of which, from the top, never seen
    uint8_t bal_market[N_SIDES][BAL_MARKET] # tile ids from the lowest position, NO_TILE at the top only
    # Food
    uint8_t food_pile[N_FOOD]               # food kinds; food_pile[food_left - 1] is the top
    uint8_t food_left                       # counters in the pile, 0..26
    uint8_t food_display[N_FOOD_KINDS]      # face-up counters by kind, sum <= 5
    uint8_t food_discard[N_FOOD_KINDS]      # paid or thrown-out counters by kind (face up)
    # The Summer turn in progress (empty otherwise)
    int8_t visit                            # temple area visited, -1 = no turn in progress
    uint8_t sticks_placed                   # sticks of this offering placed so far, 0..4
    uint8_t to_place[AREA_CAP]              # kinds of the visited area still to put on stalks, front first
    uint8_t unactivated[N_ICONS]            # placed shoots not yet activated, by icon, 0..4
    uint8_t kitsune                         # 1: activations are Wildcards for the rest of the turn (B24)
    uint8_t bakeneko                        # 1: this offering's other temples are free (B12)
    uint8_t received[AREA_CAP]              # received shoots waiting for a keep_shoot decision, front first
    uint8_t n_received                      # 0..4
    int8_t sp                               # frames on the stack, 0..8
    Frame stack[STACK_MAX]
    Player pl[MAX_PLAYERS]
