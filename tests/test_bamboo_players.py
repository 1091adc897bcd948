"""Players on Bamboo: legal choices, the heuristic's explanation, determinism by seed, no peeking at what a seat
cannot see, the heuristic's styles and weights, and what it makes of balance tiles."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from borabora_sim import _bamboo
from borabora_sim.games import get_game
from borabora_sim.games.bamboo.components import pattern_fulfilled
from borabora_sim.players import FlatMCPlayer, MCTSPlayer, make_player
from borabora_sim.players.heuristic import weights_for
from borabora_sim.protocol import GameState

GAME = get_game("bamboo")
SPECS = ["random", "heuristic", "heuristic:thorough=false", "heuristic:style=builder", "heuristic:style=spirits",
         "flatmc:rollouts=2", "mcts:iterations=30", "mcts:iterations=20,rollout=heuristic,rollout_depth=10",
         "mcts:iterations=20,rollout_depth=0"]


def sample_states(players: int, seed: int, every: int = 9, mode: str = "normal") -> list[GameState]:
    """Every `every`-th state of a game of random moves, not terminal."""
    game = get_game("bamboo", mode=mode)
    rng = random.Random(seed)
    state = game.new_initial_state(players=players, seed=seed)
    states = []
    while not state.is_terminal():
        if rng.randrange(every) == 0:
            states.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_type_chooses_a_legal_action(players: int) -> None:
    states = sample_states(players, seed=players)
    for spec in SPECS:
        player = make_player(spec, seed=5, game=GAME)
        for state in states:
            assert player.choose(state) in state.legal_actions(), (spec, state)


def test_heuristic_players_finish_games_in_both_modes() -> None:
    for mode in ("normal", "advanced"):
        game = get_game("bamboo", mode=mode)
        state = game.new_initial_state(players=3, seed=4)
        players = [make_player("heuristic", seed=s, game=game) for s in range(3)]
        while not state.is_terminal():
            state.apply(players[state.current_player].choose(state))
        assert state.winner() in range(3) and sorted(state.ranks())[0] == 1


def test_the_explanation_comes_from_the_values_the_choice_was_made_on() -> None:
    player = make_player("heuristic", seed=3, game=GAME)
    for state in sample_states(4, seed=12, every=5):
        action = player.choose(state)
        _, seed, chosen = player.last_decision
        assert chosen == action
        options = player.option_values(state, seed)
        assert sorted(o.action for o in options) == sorted(state.legal_actions())
        best = max(o.value for o in options)
        value = next(o.value for o in options if o.action == action)
        assert value >= best - 1e-5                  # ties are broken by amounts below 1e-6
        words = GAME.describe_action(state, action)
        assert f"chose {words}: the best by its evaluation" in player.explain()
        assert f"> {round(value - best, 1) or 0.0:>10.1f}  {words}" in player.explain().splitlines()


def test_a_single_step_judgement_chooses_its_best_option() -> None:
    weights = weights_for(game=GAME)
    for state in sample_states(3, seed=8, every=7):
        values = dict(GAME.heuristic_option_values(state, weights, 9, thorough=False))
        assert sorted(values) == sorted(state.legal_actions()) and np.isfinite(list(values.values())).all()
        action = GAME.heuristic_action(state, weights, 9, thorough=False)
        assert values[action] >= max(values.values()) - 1e-5
        assert np.isfinite(_bamboo.evaluate_state(state, weights)).all()


@pytest.mark.parametrize("spec", ["heuristic", "mcts:iterations=30", "flatmc:rollouts=2"])
def test_a_player_with_the_same_seed_plays_the_same_game(spec: str) -> None:
    def actions(seed: int) -> list[int]:
        state = GAME.new_initial_state(players=2, seed=6)
        seats = [make_player(spec, seed=seed + s, game=GAME) for s in range(2)]
        taken = []
        while not state.is_terminal() and len(taken) < 60:
            taken.append(seats[state.current_player].choose(state))
            state.apply(taken[-1])
        return taken

    assert actions(1) == actions(1)


def hidden_changed(state: GameState, rng: random.Random) -> GameState:
    """The same state with what no seat can see changed: the unseen part of every stack and the food pile
    shuffled, the spirits under the face-up ones exchanged, new chance seeds."""
    data = state.to_dict()
    body = data["state"]
    seen = state.observation(0)
    components = state.rules.components
    for name, regions in (("home_pile", components.home_category), ("bal_pile", components.balance_side)):
        bounds = np.cumsum(np.bincount(np.asarray(regions)))      # a stack's region of the pile ends here
        groups: dict[int, list[int]] = {}
        for i, tile in enumerate(seen[name]):
            if tile == 255 and body[name][i] != 255:
                groups.setdefault(int(np.searchsorted(bounds, i, side="right")), []).append(i)
        for indices in groups.values():                           # unseen tiles stay in their own stack
            tiles = [body[name][i] for i in indices]
            rng.shuffle(tiles)
            for i, tile in zip(indices, tiles, strict=True):
                body[name][i] = tile
    left = body["food_left"]
    pile = body["food_pile"][:left]
    rng.shuffle(pile)
    body["food_pile"][:left] = pile
    hidden = [(t, i) for t in range(4) for i in range(body["spirit_left"][t] - 1)]
    spirits = [body["spirit_stack"][t][i] for t, i in hidden]
    rng.shuffle(spirits)
    for (t, i), spirit in zip(hidden, spirits, strict=True):
        body["spirit_stack"][t][i] = spirit
    body["rng"] = format(rng.getrandbits(64), "016x")
    body["event_rng"] = format(rng.getrandbits(64), "016x")
    return GAME.state_from_dict(data)



@pytest.mark.parametrize("spec", ["heuristic", "heuristic:style=spirits", "mcts:iterations=30",
                                  "mcts:iterations=20,rollout=heuristic,rollout_depth=10"])
def test_what_a_seat_cannot_see_never_changes_its_choice(spec: str) -> None:
    rng = random.Random(1)
    changed = 0
    for state in sample_states(3, seed=30, every=6):
        twin = hidden_changed(state, rng)
        changed += twin.to_dict() != state.to_dict()
        assert twin.observation(state.current_player) == state.observation(state.current_player)
        first, second = make_player(spec, seed=7, game=GAME), make_player(spec, seed=7, game=GAME)
        assert first.choose(state) == second.choose(twin), spec
    assert changed > 0


def test_styles_and_weights_parse() -> None:
    assert set(GAME.styles) >= {"balanced", "builder", "spirits"}
    for style in GAME.styles:
        weights = weights_for(style, game=GAME)
        assert weights.shape == (len(GAME.weight_names),) and np.isfinite(weights).all()
    custom = weights_for("builder", game=GAME, coin=0.9)
    assert custom[GAME.weight_names.index("coin")] == 0.9
    with pytest.raises(ValueError, match="unknown weight"):
        weights_for(game=GAME, vp=1.0)
    with pytest.raises(ValueError, match="unknown style"):
        weights_for("temple", game=GAME)
    player = make_player("heuristic:style=spirits,w_majority=2", seed=1, game=GAME)
    assert player.spec() == "heuristic:style=spirits,w_majority=2"
    assert make_player(player.spec(), seed=1, game=GAME).weights.tolist() == player.weights.tolist()
    with pytest.raises(ValueError, match="weights must have"):
        _bamboo.evaluate_state(GAME.new_initial_state(2, 1), np.zeros(3))


# ---- balance tiles: what the heuristic now values them at -----------------------------------------------------------
COMPONENTS = GAME.rules.components
WEIGHTS = weights_for(game=GAME)


def home_cells(state: GameState, seat: int) -> list[tuple[int, int] | None]:
    """The seat's home as pattern_fulfilled reads it: (type, comfort) per space, None for an empty one."""
    home = state.to_dict()["state"]["pl"][seat]["home"]
    return [None if t == 255 else (int(COMPONENTS.home_type[t]), int(COMPONENTS.home_comfort[t])) for t in home]


def met(state: GameState, seat: int, tiles: list[int]) -> list[int]:
    """Those of `tiles` whose pattern the seat's home meets."""
    home = home_cells(state, seat)
    return [t for t in tiles if pattern_fulfilled(COMPONENTS.balance_patterns[t], home)]


def pile_positions(body: dict, side: int) -> list[int]:
    """Indices in bal_pile of the tiles still in the side's stack (its ring, from the top)."""
    sizes = np.bincount(np.asarray(COMPONENTS.balance_side), minlength=3)
    base, size = int(sizes[:side].sum()), int(sizes[side])
    return [base + (body["bal_top"][side] + j) % size for j in range(body["bal_left"][side])]


def with_tile_swapped(state: GameState, side: int, where: tuple, tile: int) -> GameState:
    """The same state with balance tile `tile` (in the side's stack) exchanged with the tile at `where`:
    ("market", position) or ("slot", seat, slot). Every tile stays in play once, so the state is lawful."""
    data = state.to_dict()
    body = data["state"]
    spot = body["bal_market"][side] if where[0] == "market" else body["pl"][where[1]]["balance"][side]
    index = where[-1]
    pile = next(i for i in pile_positions(body, side) if body["bal_pile"][i] == tile)
    body["bal_pile"][pile], spot[index] = spot[index], tile
    return GAME.state_from_dict(data)


def first_state(seed: int, wanted: Callable[[GameState], bool], players: int = 3) -> GameState | None:
    """The first state of a game of random moves (seeded) for which wanted(state) holds, None if none does."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(players=players, seed=seed)
    while not state.is_terminal() and not wanted(state):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return None if state.is_terminal() else state


def stack_tiles_met(state: GameState, seat: int, side: int) -> list[int]:
    body = state.to_dict()["state"]
    return met(state, seat, [body["bal_pile"][i] for i in pile_positions(body, side)])


SIDES = ("left", "center", "right")


def obtainable_sides_met(state: GameState) -> list[int]:
    """At the start of a Balance action: the sides where the mover may take a tile and whose stack holds one
    that the mover's home already meets."""
    if state.decision != "balance" or state.action_from_string("balance 1 HP") not in state.legal_actions():
        return []
    return [side for side in range(3) if state.action_from_string(f"obtain {SIDES[side]} balance 1")
            in state.legal_actions() and stack_tiles_met(state, state.current_player, side)]


# The positions come from random games (seed 3's reaches one where a second face-up tile is met, which the heuristic
# takes before scoring: not the position this test is about).
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_a_face_up_tile_the_home_meets_is_taken_and_scored_instead_of_the_1_hp(seed: int) -> None:
    found = first_state(seed, lambda s: bool(obtainable_sides_met(s)))
    assert found is not None
    seat, side = found.current_player, obtainable_sides_met(found)[0]
    tile = max(stack_tiles_met(found, seat, side), key=lambda t: COMPONENTS.balance_hp[t])
    hp = int(COMPONENTS.balance_hp[tile])
    state = with_tile_swapped(found, side, ("market", 0), tile)       # now face up at the first position
    obtain = state.action_from_string(f"obtain {SIDES[side]} balance 1")
    values = dict(GAME.heuristic_option_values(state, WEIGHTS, 4))
    assert values[obtain] > values[state.action_from_string("balance 1 HP")]
    before = state.score_breakdown()[seat]
    assert GAME.heuristic_action(state, WEIGHTS, 4) == obtain
    state.apply(obtain)
    slot = state.to_dict()["state"]["pl"][seat]["balance"][side].index(tile)
    score = state.action_from_string(f"score {SIDES[side]} balance {slot + 1}")
    assert state.current_player == seat and GAME.heuristic_action(state, WEIGHTS, 4) == score
    state.apply(score)
    after = state.score_breakdown()[seat]
    assert after["balance_scored"] - before["balance_scored"] == hp and after["balance_hp"] == before["balance_hp"]


def with_slot_returned(state: GameState, seat: int, side: int) -> GameState:
    """The same state with the seat's first balance tile of `side` put back under the side's stack (face up),
    its other tile moving to the front: the seat then holds one tile less."""
    data = state.to_dict()
    body = data["state"]
    slots = body["pl"][seat]["balance"][side]
    positions = pile_positions(body, side)
    sizes = np.bincount(np.asarray(COMPONENTS.balance_side), minlength=3)
    base, size = int(sizes[:side].sum()), int(sizes[side])
    body["bal_pile"][base + (body["bal_top"][side] + len(positions)) % size] = slots[0]
    body["bal_left"][side] += 1
    slots[:] = [*slots[1:], 255]
    return GAME.state_from_dict(data)


@pytest.mark.parametrize(("round_", "phases", "acting"), [(3, ("summer",), True), (4, ("wake", "feed"), False)])
def test_a_met_tile_is_worth_the_hp_it_can_still_bring(round_: int, phases: tuple[str, ...], acting: bool) -> None:
    """Holding a met balance tile adds to the holder's evaluation: after the last Summer exactly the half HP
    (rounded up) of the final scoring; while actions remain, that half for sure and the rest of its HP, less half
    a Balance action (whose alternative is 1 HP), with the chance balance_met."""
    chance = WEIGHTS[GAME.weight_names.index("balance_met")] if acting else 0.0
    checked = 0
    for seed in range(40):
        state = first_state(seed, lambda s: s.round == round_ and s.phase in phases)
        if state is None:
            continue
        body = state.to_dict()["state"]
        for seat in range(state.num_players):
            for side in range(3):
                if body["pl"][seat]["balance"][side][0] == 255:
                    continue
                for tile in met(state, seat, [body["bal_pile"][i] for i in pile_positions(body, side)])[:1]:
                    holding = with_tile_swapped(state, side, ("slot", seat, 0), tile)
                    gap = (_bamboo.evaluate_state(holding, WEIGHTS)[seat]
                           - _bamboo.evaluate_state(with_slot_returned(holding, seat, side), WEIGHTS)[seat])
                    hp = int(COMPONENTS.balance_hp[tile])
                    half = (hp + 1) // 2
                    assert gap == pytest.approx(half + chance * max(0.0, hp - half - 0.5)), (seed, seat, tile)
                    checked += 1
    assert checked >= 5


def without_balance_tiles(state: GameState, seat: int) -> GameState:
    """The same state with every balance tile the seat holds put back under its stack."""
    for side in range(3):
        while state.to_dict()["state"]["pl"][seat]["balance"][side][0] != 255:
            state = with_slot_returned(state, seat, side)
    return state


@pytest.mark.parametrize(("round_", "reach"), [(2, 6), (4, 2)])
def test_a_home_tile_off_the_centre_costs_the_harmony_share_within_reach_of_later_tiles(round_: int,
                                                                                       reach: int) -> None:
    """Placing a home tile on the left of an empty home instead of the centre column opens a left/right
    difference of its comfort. Home tiles to come (typical comfort 2, one a Summer: 3 Summers in round 2, 1 in
    round 4) could close up to `reach` of it: that part costs the share `harmony` of the 2 HP a point, the rest
    in full. (The placing seat has incense left, so turns to come: after its last turn the whole of it counts.)"""
    share = WEIGHTS[GAME.weight_names.index("harmony")]
    side_cells = [0, 1, 3, 4, 5, 6, 8, 9, 10, 11, 13, 14]          # the columns of the left and right sides
    checked = 0
    for seed in range(60):
        def placing_on_an_empty_side(s: GameState) -> bool:
            if s.decision != "home_space" or s.round != round_ or s.phase != "summer":
                return False
            seat = s.to_dict()["state"]["pl"][s.current_player]
            return seat["incense"] > 0 and all(seat["home"][i] == 255 for i in [*side_cells, 2])
        state = first_state(seed, placing_on_an_empty_side)
        if state is None:
            continue
        seat = state.current_player
        state = without_balance_tiles(state, seat)
        body = state.to_dict()["state"]
        comfort = int(COMPONENTS.home_comfort[body["stack"][body["sp"] - 1]["a"]])
        values = dict(GAME.heuristic_option_values(state, WEIGHTS, 2, thorough=False))
        centre, left = state.action_from_string("home space r1c3"), state.action_from_string("home space r1c1")
        if centre not in values or left not in values:            # typed spaces of the advanced side
            continue
        cost = 2 * (max(0, comfort - reach) + share * min(comfort, reach))
        assert values[centre] - values[left] == pytest.approx(cost)
        checked += 1
    assert checked >= 3


def test_a_two_player_game_has_two_seats_to_move_and_to_win_the_ghost_none() -> None:
    """The ghost of the 2-player game (B30) only lays sticks: it never has a decision and never ranks, so the
    rewards the search backs up go to the two seats."""
    for seed in (11, 12):
        rng = random.Random(seed)
        state = GAME.new_initial_state(players=2, seed=seed)
        while not state.is_terminal():
            assert state.current_player in (0, 1)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        ranks = state.ranks()
        assert len(ranks) == 2 and 1 in ranks


def test_a_cut_off_win_estimate_in_bamboo_hp_tells_the_root_actions_apart() -> None:
    """The cut-off's win estimate used to be exp(HP / 10) whatever the game: with Bamboo's few HP between players
    every root action got nearly the same mean, and UCT spread the visits evenly. The game's temperature sets
    the scale: a colder estimate spreads the means of the same search (same seed) wider."""
    state = next(s for s in sample_states(2, seed=21) if len(s.legal_actions()) >= 3)

    def spread(temperature: float) -> float:
        player = MCTSPlayer(iterations=300, rollout_depth=10, temperature=temperature, seed=4, game=GAME)
        player.choose(state)
        means = [stat.mean_value for stat in player.last_stats]
        return max(means) - min(means)

    assert spread(2) > 2 * spread(10)


def test_mcts_on_bamboo_takes_the_game_search_defaults_and_a_spec_overrides_them() -> None:
    """Game.search_defaults is the one seam: options the spec leaves out come from it; Bora Bora has none."""
    defaults = dict(GAME.search_defaults)
    assert defaults and set(defaults) <= {"c", "rollout", "rollout_depth", "margin", "temperature"}
    player = make_player("mcts", game=GAME)
    assert isinstance(player, MCTSPlayer)
    assert {key: getattr(player, key) for key in defaults} == defaults
    overridden = make_player("mcts:c=0.9,rollout_depth=-1", game=GAME)
    assert isinstance(overridden, MCTSPlayer)
    assert (overridden.c, overridden.rollout_depth, overridden.temperature) == (0.9, -1, 10.0)
    assert make_player("mcts", game=get_game("bora_bora")).spec() == (
        "mcts:iterations=1000,c=0.7,rollout=random,rollout_depth=-1,margin=0,fishing=normal")


def test_a_cut_off_waits_for_the_end_of_the_movers_turn() -> None:
    """A turn is many decisions of one seat (offering, stalks, activations, actions): a cut-off in its middle
    judged half-done turns against finished ones. The rollout now plays on until another seat is to move, so
    where every option leaves the mover to move again, a cut-off after 0 or 1 further decisions ends in the same
    places (same seed, same rollouts) and gives the same values."""
    def keeps_the_mover(state: GameState) -> bool:
        mover = state.current_player
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            if after.is_terminal() or after.current_player != mover:
                return False
        return len(state.legal_actions()) >= 2

    states = [s for s in sample_states(2, seed=31, every=3) if keeps_the_mover(s)][:3]
    assert states
    for state in states:
        players = [FlatMCPlayer(rollouts=8, rollout_depth=depth, seed=9, game=GAME) for depth in (0, 1)]
        for player in players:
            player.choose(state)
        assert players[0].last_stats == players[1].last_stats
