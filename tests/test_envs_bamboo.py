"""Bamboo in the interoperability adapters: its observation tensor (only what a seat can see), the OpenSpiel game
`python_bamboo`, the PettingZoo environment `env(game="bamboo")` and the Gymnasium environment
`borabora_sim/Bamboo-v0`, each checked with its library's own checker, in both modes and for 2, 3 and 4 players.
The adapters are the same code as Bora Bora's (tests/test_envs.py)."""

from __future__ import annotations

import copy
import importlib
import random
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from borabora_sim import IllegalActionError
from borabora_sim.envs.encoders import encoder_for, win_shares
from borabora_sim.games import get_game
from borabora_sim.games.bamboo import Bamboo, pattern_fulfilled
from borabora_sim.games.bamboo import observation as bob
from borabora_sim.games.bamboo.components import HOME_TYPES
from borabora_sim.games.bamboo.observation import HIGH, LOW, SIZE, SLICES, observation_tensor, player_slice
from borabora_sim.players import make_player

MODES = ("normal", "advanced")
NO_TILE = 255
NUM_ACTIONS = Bamboo.num_actions
SCORE_BALANCE = 61          # first id of `score SIDE balance J` (docs/bamboo_actions.md)
# (players, mode) pairs that cover every player count and both modes where a checker is too slow to run on all six
SPREAD = [(2, "normal"), (3, "advanced"), (4, "normal")]
ALL = [(players, mode) for players in (2, 3, 4) for mode in MODES]


def game(mode: str = "normal") -> Any:
    return get_game("bamboo", mode=mode)


def played(players: int, mode: str, seed: int, decisions: int) -> Any:
    """A game after `decisions` uniformly random decisions (chosen by random.Random(seed))."""
    state = game(mode).new_initial_state(players, seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def part(vector: np.ndarray, name: str) -> np.ndarray:
    start, stop = SLICES[name]
    return vector[start:stop]


def seat_part(vector: np.ndarray, slot: int, name: str) -> np.ndarray:
    start, stop = player_slice(slot, name)
    return vector[start:stop]


def tied_game(players: int, mode: str = "normal") -> tuple[int, list[int]]:
    """(game seed, actions) of a uniformly random game whose victory is shared (B35), found by the compiled
    random playouts and replayed by random_game_actions."""
    board = game(mode)
    runs = board.random_playouts(400, players, 5)
    tied = np.flatnonzero((runs["ranks"] == 1).sum(axis=1) > 1)
    assert len(tied), "no shared victory in 400 random games"
    seed = board.derive_seed(5, int(tied[0]))
    return seed, board.random_game_actions(players, seed)


class FixedDeal(Bamboo):
    """Bamboo that deals one particular game whatever seed it is asked for (to drive an environment into it)."""

    def __init__(self, seed: int, mode: str = "normal") -> None:
        super().__init__(mode=mode)
        self.seed = seed

    def new_initial_state(self, players: int = 4, seed: int | None = None) -> Any:
        return super().new_initial_state(players, self.seed)


class Replay:
    """A player that plays the next action of a shared list (the seats of a replayed game take turns in it)."""

    def __init__(self, actions: list[int]) -> None:
        self.actions = actions

    def choose(self, state: Any) -> int:
        return self.actions.pop(0)


@pytest.fixture(scope="module")
def pyspiel():
    return pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'borabora_sim[openspiel]'")


@pytest.fixture(scope="module")
def bo(pyspiel):
    return importlib.import_module("borabora_sim.envs.openspiel")


@pytest.fixture(scope="module")
def pz():
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'borabora_sim[rl]'")
    return importlib.import_module("borabora_sim.envs.pettingzoo")


@pytest.fixture(scope="module")
def gym_env():
    pytest.importorskip("gymnasium", reason="Gymnasium is not installed: pip install 'borabora_sim[rl]'")
    return importlib.import_module("borabora_sim.envs.gymnasium")


# =============================================================================
# The observation tensor
# =============================================================================
def test_encoder_is_chosen_by_the_game_in_one_place():
    encoder = encoder_for(game("advanced"))
    assert encoder is encoder_for("bamboo") is encoder_for("bamboo:mode=advanced") is bob.ENCODER
    assert (encoder.size, encoder.score_unit, encoder.views_alike) == (SIZE, "hp", True)
    assert encoder_for("bora_bora").score_unit == "vp"
    with pytest.raises(ValueError, match="unknown game"):
        encoder_for("chess")


def test_observation_slices_tile_the_tensor_in_order_without_gaps():
    at = 0
    for name, (start, stop) in SLICES.items():
        assert start == at, name
        assert stop > start, name
        at = stop
    assert at == SIZE == HIGH.shape[0] == LOW.shape[0]
    assert (HIGH > LOW).all()
    assert HIGH.dtype == LOW.dtype == np.float32
    for slot in range(bob.MAX_PLAYERS):
        for field in bob.PLAYER_FIELDS:
            assert f"p{slot}.{field}" in SLICES
    negative = [bob.SOURCES.index(name) for name in bob.NEGATIVE_SOURCES]
    for slot in range(bob.MAX_PLAYERS):
        assert (seat_part(LOW, slot, "hp_by_source")[negative] < 0).all()
        assert (seat_part(HIGH, slot, "hp_by_source")[negative] == 0).all()
    hp = np.zeros(SIZE, dtype=bool)                         # HP may be negative (B32); nothing else is
    for slot in range(bob.MAX_PLAYERS):
        hp[player_slice(slot, "hp_total")[0]:player_slice(slot, "hp_by_source")[1]] = True
    assert (LOW[~hp] == 0).all() and (LOW[hp] < 0).sum() == bob.MAX_PLAYERS * (1 + len(negative))


@pytest.mark.parametrize(("players", "mode"), ALL)
def test_observation_tensor_is_float32_and_within_bounds_for_every_seat_over_a_game(players, mode):
    state = game(mode).new_initial_state(players, 40 + players)
    rng = random.Random(players)
    steps = 0
    lowest = 0.0
    while not state.is_terminal():
        if steps % 5 == 0:
            for viewer in range(players):
                vector = observation_tensor(state, viewer)
                assert vector.dtype == np.float32 and vector.shape == (SIZE,)
                assert (vector >= LOW).all() and (vector <= HIGH).all(), viewer
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    for viewer in range(players):
        vector = observation_tensor(state, viewer)
        assert (vector >= LOW).all() and (vector <= HIGH).all()
        assert part(vector, "to_move").sum() == 0          # nobody is to move at the end
        assert part(vector, "phase")[bob._bamboo.PHASES.index("end")] == 1
        assert seat_part(vector, 0, "advanced")[0] == (mode == "advanced")
        lowest = min(lowest, vector.min())
    assert lowest < 0                                       # harmony (and often hunger) take HP away at the end


def test_every_seat_sees_the_same_view_apart_from_whose_it_is():
    state = played(4, "advanced", 3, 150)
    first = state.observation(0)
    for viewer in range(4):
        assert state.observation(viewer) == dict(first, viewer=viewer)


@pytest.mark.parametrize(("players", "mode", "decisions"), [
    (2, "normal", 0), (2, "advanced", 150), (3, "normal", 120), (3, "advanced", 260), (4, "normal", 350),
    (4, "advanced", 60),
])
def test_determinizing_changes_hidden_information_but_not_the_tensor(players, mode, decisions):
    state = played(players, mode, 7 + players, decisions)
    for k, viewer in enumerate(range(players)):
        other = state.determinize(viewer, 1000 + k)
        assert other.check_invariants() is None
        assert other.to_dict() != state.to_dict()           # stack orders, hidden spirits and seeds were redrawn
        for seat in range(players):
            np.testing.assert_array_equal(observation_tensor(other, seat), observation_tensor(state, seat))


def test_the_tensor_does_change_when_what_is_in_view_changes():
    """The control of the test above: swapping a market tile with the unseen tile on top of its stack (a change
    in view) changes every seat's tensor."""
    board = game()
    state = played(3, "normal", 4, 40)
    data = copy.deepcopy(state.to_dict())
    raw = data["state"]
    base = 0                                                # category A's stack starts at slot 0 of home_pile
    top = base + raw["home_top"][0]
    assert raw["home_unseen"][0] > 0
    raw["home_market"][0][0], raw["home_pile"][top] = raw["home_pile"][top], raw["home_market"][0][0]
    other = board.state_from_dict(data)
    for seat in range(3):
        vector, original = observation_tensor(other, seat), observation_tensor(state, seat)
        assert not np.array_equal(part(vector, "home_market"), part(original, "home_market"))
        np.testing.assert_array_equal(np.delete(vector, np.arange(*SLICES["home_market"])),
                                      np.delete(original, np.arange(*SLICES["home_market"])))


def test_player_slot_zero_is_the_viewer_and_later_slots_follow_in_seat_order():
    state = played(4, "normal", 3, 230)
    scores = state.scores()
    obs = state.observation(0)
    for viewer in range(4):
        vector = observation_tensor(state, viewer)
        for slot in range(4):
            seat = (viewer + slot) % 4
            pl = obs["pl"][seat]
            assert seat_part(vector, slot, "present")[0] == 1
            assert seat_part(vector, slot, "hp_total")[0] == scores[seat]
            assert list(seat_part(vector, slot, "hp_by_source")) == pl["hp"]
            assert seat_part(vector, slot, "coins")[0] == pl["coins"]
            areas = seat_part(vector, slot, "areas").reshape(4, 20)
            for area, kinds in enumerate(pl["area"]):
                assert sorted(np.repeat(np.arange(20), areas[area].astype(int))) == sorted(k for k in kinds
                                                                                         if k != NO_TILE)
            assert list(seat_part(vector, slot, "food")) == pl["food"]
            assert list(seat_part(vector, slot, "spirits")) == pl["spirits"]
        incense = part(vector, "incense").reshape(4, 5)
        for temple in range(4):
            assert [incense[temple, (seat - viewer) % 4] for seat in range(4)] == obs["incense"][temple][:4]
        assert part(vector, "to_move").argmax() == (state.current_player - viewer) % 4
        assert part(vector, "start_player").argmax() == (obs["start_seat"] - viewer) % 4


def test_unused_player_slots_are_empty_and_only_the_two_player_ghost_has_incense():
    two = played(2, "normal", 5, 150)
    vector = observation_tensor(two, 1)
    for slot in (2, 3):
        start, _ = player_slice(slot, "present")
        _, stop = player_slice(slot, "spirits_asleep")
        assert not vector[start:stop].any()
    assert part(vector, "num_players")[0] == 1
    ghost = part(vector, "incense").reshape(4, 5)[:, 4]
    assert list(ghost) == [two.observation(0)["incense"][t][4] for t in range(4)] and ghost.sum() > 0
    four = observation_tensor(played(4, "normal", 5, 150), 0)
    assert not part(four, "incense").reshape(4, 5)[:, 4].any()


def test_markets_stacks_and_food_are_encoded_from_the_view():
    state = played(3, "advanced", 9, 240)                   # past a Winter: tiles lie known under the stacks
    obs = state.observation(0)
    c = state.components
    vector = observation_tensor(state, 0)
    assert part(vector, "round").argmax() + 1 == state.round >= 2
    homes = part(vector, "home_market").reshape(2, 4, -1)
    for cat in range(2):
        for pos, tile in enumerate(obs["home_market"][cat]):
            assert homes[cat, pos, 0] == (tile != NO_TILE)
            if tile != NO_TILE:
                assert homes[cat, pos, 1 + c.home_type[tile]] == 1
                assert list(homes[cat, pos, 5:]) == [c.home_comfort[tile], c.home_cost[tile], c.home_hp[tile]]
    assert list(part(vector, "home_stack_size")) == obs["home_left"]
    assert list(part(vector, "home_stack_unseen")) == obs["home_unseen"]
    known = part(vector, "home_stack_known").reshape(2, 3, -1)[:, :, 0].sum(axis=1)
    assert list(known) == [min(3, left - unseen) for left, unseen in zip(obs["home_left"], obs["home_unseen"],
                                                                        strict=True)]
    assert known.sum() > 0
    balance = part(vector, "balance_market").reshape(3, 3, -1)
    for side in range(3):
        for pos, tile in enumerate(obs["bal_market"][side]):
            if tile != NO_TILE:
                assert balance[side, pos, 1] == c.balance_hp[tile]
    assert list(part(vector, "food_display")) == obs["food_display"]
    assert list(part(vector, "food_pile")) == obs["food_pile"]
    # the unseen spirits: those under the face-up ones and the 5 in the box (docs/bamboo_state.md)
    heights = obs["spirit_left"]
    assert part(vector, "spirits_unseen").sum() == sum(h - 1 for h in heights if h) + 5
    face_up = part(vector, "spirit_face_up").reshape(4, 7)
    assert [int(face_up[t].argmax()) if h else -1 for t, h in enumerate(heights)] == \
        [obs["spirit_stack"][t][h - 1] if h else -1 for t, h in enumerate(heights)]


def test_balance_tiles_show_their_pattern_and_met_agrees_with_the_legal_score_actions():
    board = game()
    c = board.rules.components
    for tile, pattern in enumerate(c.balance_patterns):
        row = bob._tables(c)["balance"][tile]
        cells = row[8:].reshape(15, 5)
        if pattern.comfort_type >= 0:
            assert row[4 + pattern.comfort_type] == 1
            assert list(np.flatnonzero(cells[:, 0])) == [i for i in range(15) if pattern.region >> i & 1]
        else:
            cover, *needs = pattern.placements[0]
            assert row[3] == 1
            assert list(np.flatnonzero(cells[:, 0])) == [i for i in range(15) if cover >> i & 1]
            for kind in range(len(HOME_TYPES)):
                assert list(np.flatnonzero(cells[:, 1 + kind])) == [i for i in range(15) if needs[kind] >> i & 1]
    seen = 0
    for seed in range(2):                                   # heuristic players aim at the patterns
        state = board.new_initial_state(3, seed)
        players = [make_player("heuristic", seed=seed + seat, game=board) for seat in range(3)]
        while not state.is_terminal():
            if state.decision == "balance":
                vector = observation_tensor(state, state.current_player)
                met = seat_part(vector, 0, "balance_met")
                legal = set(state.legal_actions())
                assert [slot for slot in range(6) if SCORE_BALANCE + slot in legal] == list(np.flatnonzero(met))
                seen += int(met.sum())
            state.apply(players[state.current_player].choose(state))
    assert seen > 0
    home = [(0, 1)] + [None] * 14
    assert pattern_fulfilled(c.balance_patterns[4], home)    # the rulebook's "one decoration" example


def test_observation_doc_gives_every_slice_with_its_range_and_values():
    text = (Path(__file__).parents[1] / "docs" / "bamboo_observation.md").read_text()
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| `([a-z_0-9]+)` \| (\d+)(?:-(\d+))? \| (\d+) \| \[(-?\d+), (-?\d+)\] \|", line)
        if m:
            first = int(m.group(2))
            last = int(m.group(3) or first)
            rows[m.group(1)] = (first, last + 1, int(m.group(4)), int(m.group(5)), int(m.group(6)))
    base, _ = player_slice(0, "present")
    width = player_slice(1, "present")[0] - base

    def bounds(start: int, stop: int) -> tuple[int, int]:
        return int(LOW[start:stop].min()), int(HIGH[start:stop].max())

    expected = {name: (start, stop, stop - start, *bounds(start, stop)) for name, (start, stop) in SLICES.items()
                if "." not in name}
    for field in bob.PLAYER_FIELDS:
        start, stop = player_slice(0, field)
        expected[field] = (start - base, stop - base, stop - start, *bounds(start, stop))
    assert rows == expected
    assert f"**{SIZE}** values" in text
    assert f"({width} values each)" in text and f"`{base} + {width} * k`" in text
    assert f"(values 0-{base - 1})" in text


# =============================================================================
# OpenSpiel
# =============================================================================
def test_openspiel_game_type_and_info_are_declared_truthfully(pyspiel, bo):
    game_ = pyspiel.load_game("python_bamboo", {"players": 3, "seed": 4, "mode": "advanced"})
    kind = game_.get_type()
    assert (kind.short_name, kind.long_name) == ("python_bamboo", "Python Bamboo")
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert kind.parameter_specification == {"players": 4, "seed": -1, "mode": "normal"}
    assert game_.num_players() == 3
    assert game_.num_distinct_actions() == NUM_ACTIONS
    assert game_.max_chance_outcomes() == 0
    assert (game_.min_utility(), game_.max_utility(), game_.utility_sum()) == (0.0, 1.0, 1.0)
    assert game_.max_game_length() == bob.ENCODER.max_game_length
    assert game_.observation_tensor_size() == SIZE
    assert game_.game.mode == "advanced" and type(game_) is bo.SpielGame
    assert game_.new_initial_state().engine.observation(0)["pl"][0]["advanced"] == 1
    with pytest.raises(Exception, match="mode must be one of normal, advanced"):
        pyspiel.load_game("python_bamboo", {"mode": "nighttime"})
    # Bora Bora keeps its own name and parameters
    assert pyspiel.load_game("python_bora_bora").get_type().parameter_specification == {"players": 4, "seed": -1}


@pytest.mark.parametrize(("players", "mode"), SPREAD)
def test_openspiel_random_sim_test_passes(pyspiel, bo, players, mode):
    game_ = pyspiel.load_game("python_bamboo", {"players": players, "seed": 100 + players, "mode": mode})
    pyspiel.random_sim_test(game_, num_sims=1, serialize=False, verbose=False)


def test_openspiel_generic_game_serves_a_game_by_its_name(pyspiel, bo):
    """What every game gets from its encoder alone: SpielGame made directly, by name."""
    game_ = bo.SpielGame({"players": 2, "seed": 3}, game="bamboo")
    state = game_.new_initial_state()
    assert state.legal_actions() == state.engine.legal_actions()
    assert game_.observation_tensor_size() == SIZE
    with pytest.raises(ValueError, match=r"its options as parameters: SpielGame\(\{\.\.\., 'mode': \.\.\.\}"):
        bo.SpielGame({"players": 2}, game="bamboo:mode=advanced")


def test_openspiel_max_game_length_is_at_least_four_times_the_longest_random_game(bo):
    for mode in MODES:
        for players in (2, 3, 4):
            runs = game(mode).random_playouts(3000, players, 77)
            assert 4 * int(runs["decisions"].max()) <= bob.ENCODER.max_game_length


def test_openspiel_is_mcts_completes_a_game(pyspiel, bo):
    from open_spiel.python.algorithms import ismcts

    game_ = bo.load(players=2, seed=8, game="bamboo", mode="advanced")
    evaluator = bo.CompiledRolloutEvaluator(seed=0)
    bots = [ismcts.ISMCTSBot(game_, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(i))
            for i in range(2)]
    state = game_.new_initial_state()
    moves = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
    assert 0 < moves <= game_.max_game_length()
    assert state.returns() == state.engine.returns()


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_returns_split_a_shared_victory_and_rewards_come_only_at_the_end(pyspiel, bo, players):
    seed, actions = tied_game(players)
    state = bo.load(players=players, game="bamboo").new_initial_state(seed)
    for action in actions:
        assert state.returns() == [0.0] * players == state.rewards()
        state.apply_action(action)
    ranks = state.engine.ranks()
    winners = [seat for seat in range(players) if ranks[seat] == 1]
    assert len(winners) > 1
    assert state.returns() == [1 / len(winners) if seat in winners else 0.0 for seat in range(players)]
    assert state.returns() == state.engine.returns() == state.rewards()
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.engine.winner() == winners[0]               # the protocol's single winner: the lowest seat


def test_openspiel_sole_winner_gets_one(pyspiel, bo):
    state = bo.load(players=4, seed=12, game="bamboo").new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    if state.engine.ranks().count(1) == 1:
        assert state.returns() == [1.0 if seat == state.engine.winner() else 0.0 for seat in range(4)]
    assert state.returns() == state.engine.returns()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_openspiel_legal_actions_names_tensors_and_strings_come_from_the_engine(pyspiel, bo):
    state = bo.load(players=3, seed=5, game="bamboo").new_initial_state()
    rng = random.Random(5)
    for _ in range(40):
        engine = state.engine
        legal = state.legal_actions()
        assert legal == engine.legal_actions() and len(legal) >= 2          # B38: forced moves are taken
        assert state.action_to_string(state.current_player(), legal[0]) == engine.action_to_string(legal[0])
        for seat in range(3):
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), dtype=np.float32),
                                          observation_tensor(engine, seat))
            assert state.observation_string(seat) == bob.observation_text(engine.observation(seat))
        state.apply_action(rng.choice(legal))


def test_openspiel_illegal_action_is_refused_and_changes_nothing(pyspiel, bo):
    state = bo.load(players=2, seed=5, game="bamboo").new_initial_state()
    before = str(state)
    illegal = next(a for a in range(NUM_ACTIONS) if a not in state.legal_actions())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert str(state) == before and state.history() == []


def test_openspiel_seed_parameter_reproduces_the_stream_of_games(pyspiel, bo):
    first = [bo.load(players=2, seed=31, game="bamboo").new_initial_state() for _ in range(2)]
    again = bo.load(players=2, seed=31, game="bamboo")
    a, b = again.new_initial_state(), again.new_initial_state()
    assert str(a) == str(first[0])
    assert str(a) != str(b)                                  # the next game of the stream is a new deal
    assert str(bo.load(players=2, seed=32, game="bamboo").new_initial_state()) != str(a)
    assert str(again.new_initial_state(12345)) == str(again.new_initial_state("12345"))
    assert str(bo.load(players=2, seed=31, game="bamboo:mode=advanced").new_initial_state()) != str(a)


def test_openspiel_resample_keeps_what_the_player_knows_and_redraws_what_it_does_not(pyspiel, bo):
    state = bo.load(players=3, seed=6, game="bamboo").new_initial_state()
    rng = random.Random(6)
    for _ in range(120):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    differs = 0
    for k in range(4):
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.history() == state.history()
        differs += str(sample) != str(state)
        assert sample.engine.check_invariants() is None, k
    assert differs > 0


def test_openspiel_information_state_keeps_every_earlier_chance_outcome_seen(pyspiel, bo):
    state = bo.load(players=2, seed=9, game="bamboo").new_initial_state()
    rng = random.Random(9)
    seen_before = state.record().text(0)
    while state.engine.round == 1:
        state.apply_action(rng.choice(state.legal_actions()))
    seen_now = state.record().text(0)
    assert seen_now.startswith(seen_before) and len(seen_now) > len(seen_before)
    assert "spirits " in seen_now.removeprefix(seen_before) and "gifts " in seen_now.removeprefix(seen_before)
    assert state.record().text(1) == seen_now               # nobody holds anything private (B37)
    info = state.information_state_string(0)
    assert " ".join(map(str, state.history())) in info
    # the public observer is the same view: Bamboo has no private information
    public = state.get_game().make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    np.testing.assert_array_equal(public.tensor, observation_tensor(state.engine, 0))


# =============================================================================
# PettingZoo
# =============================================================================
@pytest.mark.parametrize(("players", "mode"), ALL)
def test_pettingzoo_api_test_passes(pz, players, mode):
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pz.env(game="bamboo", players=players, mode=mode), num_cycles=1000)
        api_test(pz.raw_env(game=f"bamboo:mode={mode}", players=players, reward="hp"), num_cycles=1000)


def test_pettingzoo_seed_test_passes(pz):
    from pettingzoo.test import seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: pz.env(game="bamboo", players=3, mode="advanced"), num_cycles=200)


def _play_aec(environment, seed: int, actions: list[int] | None = None) -> tuple[dict[str, float], Any]:
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        obs, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 2
        environment.step(actions.pop(0) if actions else int(rng.choice(np.flatnonzero(mask))))
    return totals, environment.unwrapped


def test_pettingzoo_names_the_game_and_keeps_bora_bora_as_it_was(pz):
    bamboo = pz.raw_env(game="bamboo", players=2)
    assert bamboo.metadata["name"] == "bamboo_v0"
    assert pz.raw_env.metadata["name"] == pz.raw_env(players=2).metadata["name"] == "bora_bora_v0"
    assert bamboo.observation_space("player_0")["observation"].shape == (SIZE,)
    assert bamboo.action_space("player_1").n == NUM_ACTIONS
    with pytest.raises(ValueError, match="reward must be one of win, score, hp"):
        pz.raw_env(game="bamboo", reward="vp")
    shown = pz.raw_env(game="bamboo", players=2, render_mode="ansi")
    shown.reset(seed=1)
    assert shown.render().startswith("Round 1, setup") and "ghost" in shown.render()
    with pytest.raises(ValueError, match="option mode must be one of normal, advanced"):
        pz.raw_env(game="bamboo", mode="nighttime")


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_win_rewards_are_one_for_a_sole_winner_and_split_a_shared_victory(pz, players):
    totals, raw = _play_aec(pz.env(game="bamboo", players=players), seed=4)
    assert [totals[f"player_{s}"] for s in range(players)] == win_shares(raw.game_state) == raw.game_state.returns()
    seed, actions = tied_game(players)
    totals, raw = _play_aec(pz.env(game=FixedDeal(seed), players=players), seed=0, actions=list(actions))
    winners = raw.game_state.ranks().count(1)
    assert winners > 1
    assert [totals[f"player_{s}"] for s in range(players)] == raw.game_state.returns()
    assert sorted(totals.values())[-winners:] == [1 / winners] * winners


@pytest.mark.parametrize(("players", "mode"), [(2, "advanced"), (3, "normal")])
def test_pettingzoo_hp_rewards_add_up_to_the_final_scores(pz, players, mode):
    totals, raw = _play_aec(pz.raw_env(game="bamboo", players=players, mode=mode, reward="hp"), seed=5)
    assert [totals[f"player_{s}"] for s in range(players)] == raw.game_state.scores()
    again, _ = _play_aec(pz.raw_env(game="bamboo", players=players, mode=mode, reward="score"), seed=5)
    assert again == totals


def test_pettingzoo_same_seed_deals_the_same_game_and_only_the_mover_has_a_mask(pz):
    environment = pz.raw_env(game="bamboo", players=4)
    environment.reset(seed=17)
    first = {a: environment.observe(a)["observation"].copy() for a in environment.agents}
    environment.reset(seed=18)
    assert any(not np.array_equal(environment.observe(a)["observation"], first[a]) for a in environment.agents)
    environment.reset(seed=17)
    for agent in environment.agents:
        obs = environment.observe(agent)
        np.testing.assert_array_equal(obs["observation"], first[agent])
        assert (obs["action_mask"].sum() > 0) == (agent == environment.agent_selection)


def test_pettingzoo_illegal_action_is_refused(pz):
    raw = pz.raw_env(game="bamboo", players=2)
    raw.reset(seed=1)
    before = raw.game_state.to_dict()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in raw.game_state.legal_actions())
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    assert raw.game_state.to_dict() == before
    wrapped = pz.env(game="bamboo", players=2)
    wrapped.reset(seed=1)
    mover = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(illegal)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[mover] == -1


# =============================================================================
# Gymnasium
# =============================================================================
def test_gymnasium_check_env_passes(gym_env):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym_env.GameEnv(game="bamboo", opponents=["heuristic", "mcts:iterations=50", "random"]))
        check_env(gym_env.GameEnv(game="bamboo", opponents=["random"], seat=1, reward="hp", mode="advanced"))
        check_env(gym_env.GameEnv("bamboo:mode=advanced", opponents=["heuristic:style=spirits", "random"],
                                  reward="score"))


def test_gymnasium_make_builds_the_registered_environment(gym_env):
    import gymnasium

    assert gym_env.env_id("bamboo") == "borabora_sim/Bamboo-v0"
    assert gym_env.env_id("bora_bora") == "borabora_sim/BoraBora-v0"
    env = gymnasium.make("borabora_sim/Bamboo-v0", opponents=["random", "random"], seat=2, mode="advanced")
    obs, info = env.reset(seed=3)
    assert obs.shape == (SIZE,) and info["seat"] == 2
    assert env.unwrapped.game.mode == "advanced"
    assert seat_part(obs, 0, "advanced")[0] == 1
    env.close()


def _play_episode(env, seed: int, actions: list[int] | None = None) -> tuple[float, dict, list[np.ndarray]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    seen = [obs]
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) >= 2
        action = actions.pop(0) if actions else int(rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        seen.append(obs)
        assert not truncated
        if terminated:
            return total, info, seen


def test_gymnasium_win_reward_is_the_learners_share_of_the_victory(gym_env):
    outcomes = set()
    for seed in range(4):
        env = gym_env.GameEnv(game="bamboo", opponents=["random"], reward="win")
        total, info, _ = _play_episode(env, seed)
        assert total == env.state.returns()[env.seat]
        assert info["scores"] == env.state.scores() and info["ranks"] == env.state.ranks()
        outcomes.add(total)
    assert {0.0, 1.0} <= outcomes
    seed, actions = tied_game(3)
    replay = game().new_initial_state(3, seed)
    for action in actions:
        replay.apply(action)
    for seat in range(3):                                   # a winner and a loser of the shared victory
        shared = list(actions)
        env = gym_env.GameEnv(FixedDeal(seed), opponents=[Replay(shared), Replay(shared)], seat=seat)
        total, info, _ = _play_episode(env, 0, actions=shared)
        assert info["ranks"] == replay.ranks() and info["ranks"].count(1) == 2
        assert total == (0.5 if info["ranks"][seat] == 1 else 0.0)


@pytest.mark.parametrize("mode", MODES)
def test_gymnasium_hp_reward_adds_up_to_the_learners_final_score(gym_env, mode):
    env = gym_env.GameEnv(game="bamboo", opponents=["heuristic", "random"], reward="hp", seat=1, mode=mode)
    total, info, _ = _play_episode(env, 6)
    assert total == info["scores"][1]


def test_gymnasium_illegal_action_ends_the_episode_with_the_penalty_and_keeps_the_game(gym_env):
    env = gym_env.GameEnv(game="bamboo", opponents=["random"], illegal_reward=-2.5)
    obs, info = env.reset(seed=2)
    before = env.state.to_dict()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-2.5, True, False, True)
    assert env.state.to_dict() == before
    np.testing.assert_array_equal(obs, obs2)
    with pytest.raises(RuntimeError):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_gymnasium_seeds_reproduce_games_and_opponents_are_the_games_players(gym_env):
    from borabora_sim.players import HeuristicPlayer, RandomPlayer

    env = gym_env.GameEnv(game="bamboo", opponents=["heuristic:style=spirits", "random"], mode="advanced")
    runs = [_play_episode(env, 11)[2] for _ in range(2)]
    assert len(runs[0]) == len(runs[1])
    for x, y in zip(*runs, strict=True):
        np.testing.assert_array_equal(x, y)
    assert sorted(type(p).__name__ for p in env.seats.values()) == sorted([HeuristicPlayer.__name__,
                                                                          RandomPlayer.__name__])
    assert all(p.game == env.game for p in env.seats.values())
    with pytest.raises(ValueError, match="unknown player"):
        gym_env.GameEnv(game="bamboo", opponents=["nobody"])
    with pytest.raises(ValueError, match="1 to 3 other seats"):
        gym_env.GameEnv(game="bamboo", opponents=[])
