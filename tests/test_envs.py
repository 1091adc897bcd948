"""Interoperability adapters: the observation tensor (only what a seat can see), the OpenSpiel game, the
PettingZoo AEC environment and the Gymnasium environment, each checked with its library's own checker."""

from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import borabora_sim
from borabora_sim import NUM_ACTIONS, State, new_game
from borabora_sim.envs.encoders import reward_kinds
from borabora_sim.games.bora_bora import observation as ob
from borabora_sim.games.bora_bora.observation import HIGH, LOW, SIZE, SLICES, observation_tensor, player_slice

from scenario import DECISION, edited

Raw = dict[str, Any]


def played(players: int, seed: int, decisions: int) -> State:
    """A game after `decisions` uniformly random decisions (chosen by random.Random(seed))."""
    state = new_game(players, seed)
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
def test_observation_slices_tile_the_tensor_in_order_without_gaps():
    at = 0
    for name, (start, stop) in SLICES.items():
        assert start == at, name
        assert stop > start, name
        at = stop
    assert at == SIZE == HIGH.shape[0] == LOW.shape[0]
    assert (HIGH > LOW).all()
    for slot in range(ob.MAX_PLAYERS):
        for field in ob.PLAYER_FIELDS:
            assert f"p{slot}.{field}" in SLICES


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_tensor_is_float32_and_within_bounds_for_every_seat_over_a_game(players):
    state = new_game(players, 40 + players)
    rng = random.Random(players)
    steps = 0
    while not state.is_terminal():
        if steps % 3 == 0:
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
        assert part(vector, "phase")[borabora_sim._engine.PHASES.index("end")] == 1


def _hide_differently(raw: Raw, viewer: int) -> None:
    """Changes only what `viewer` cannot see: another seat's unknown God cards (swapped with the draw pile), the
    order of the God, person and task draw piles, and the chance generators."""
    top, end = raw["deck_top"], raw["deck_end"]
    swapped = False
    for seat in range(raw["n_players"]):
        if seat == viewer or swapped:
            continue
        pl = raw["pl"][seat]
        unknown = [c for c in range(5) if pl["hand"][c] > pl["known"][c]]
        for colour in unknown:
            for i in range(top, end):
                other = raw["god_deck"][i]
                if other != colour:
                    pl["hand"][colour] -= 1
                    pl["hand"][other] += 1
                    raw["god_deck"][i] = colour
                    swapped = True
                    break
            if swapped:
                break
    assert swapped, "the scenario needs another seat holding an unknown God card"
    raw["god_deck"][top:end] = raw["god_deck"][top:end][::-1]
    for sex in range(2):
        t = raw["person_top"][sex]
        raw["person_pile"][sex][t:] = raw["person_pile"][sex][t:][::-1]
    t = raw["task_top"]
    raw["task_pile"][t:] = raw["task_pile"][t:][::-1]
    for name in getattr(borabora_sim._engine, "SEED_FIELDS", ("rng",)):
        raw[name] = format(int(raw[name], 16) ^ 0x5DEECE66D, "016x")


@pytest.mark.parametrize(("players", "decisions"), [(2, 0), (3, 45), (4, 120)])
def test_changing_only_hidden_information_leaves_the_observation_tensor_unchanged(players, decisions):
    state = played(players, 7 + players, decisions)
    viewer = state.current_player
    other = edited(state, lambda raw: _hide_differently(raw, viewer))
    assert other.check_invariants() is None
    assert other.to_dict() != state.to_dict()
    np.testing.assert_array_equal(observation_tensor(other, viewer), observation_tensor(state, viewer))
    # the seat whose cards changed does see the difference in its own tensor
    changed = [seat for seat in range(players) if state.to_dict()["state"]["pl"][seat]["hand"]
               != other.to_dict()["state"]["pl"][seat]["hand"]]
    assert len(changed) == 1
    assert not np.array_equal(observation_tensor(other, changed[0]), observation_tensor(state, changed[0]))


def test_player_slot_zero_is_the_viewer_and_later_slots_follow_in_seat_order():
    state = played(4, 3, 150)
    scores = state.scores()
    raw = state.to_dict()["state"]
    for viewer in range(4):
        vector = observation_tensor(state, viewer)
        for slot in range(4):
            seat = (viewer + slot) % 4
            assert seat_part(vector, slot, "vp_total")[0] == scores[seat]
            assert seat_part(vector, slot, "present")[0] == 1
            assert list(seat_part(vector, slot, "vp_by_source")) == raw["pl"][seat]["vp"]
            assert seat_part(vector, slot, "turn_position").argmax() == state.turn_order.index(seat)
            regions = [r for r in range(12) if raw["pl"][seat]["regions"] >> r & 1]
            assert list(np.flatnonzero(seat_part(vector, slot, "regions"))) == regions
        owners = part(vector, "region_owner").reshape(12, 4)
        for region, seat in enumerate(raw["region_owner"]):
            if seat < 0:
                assert owners[region].sum() == 0
            else:
                assert owners[region].argmax() == (seat - viewer) % 4


def test_unused_player_slots_are_empty_with_fewer_players():
    vector = observation_tensor(played(2, 5, 30), 1)
    for slot in (2, 3):
        start, _ = player_slice(slot, "present")
        _, stop = player_slice(slot, "priests")
        assert not vector[start:stop].any()
    assert part(vector, "num_players")[0] == 1


def test_own_god_cards_are_seen_fully_and_others_only_as_known_cards_and_hand_size():
    state = played(3, 11, 60)
    raw = state.to_dict()["state"]
    for viewer in range(3):
        vector = observation_tensor(state, viewer)
        for slot in range(3):
            seat = (viewer + slot) % 3
            pl = raw["pl"][seat]
            hand = seat_part(vector, slot, "god_hand")
            assert list(hand) == (pl["hand"] if slot == 0 else [0] * 5)
            assert list(seat_part(vector, slot, "god_known")) == pl["known"]
            assert seat_part(vector, slot, "god_hand_size")[0] == sum(pl["hand"])


def test_pending_decision_parameters_are_shown_only_to_the_seat_that_decides():
    state = new_game(3, 21)
    rng = random.Random(21)
    while state.decision not in ("helper", "expand", "person", "temple", "build_tile"):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    raw = state.to_dict()["state"]
    top = raw["stack"][raw["sp"] - 1]
    assert top["a"] > 0
    mover = state.current_player
    for viewer in range(3):
        vector = observation_tensor(state, viewer)
        assert part(vector, "decision").argmax() == DECISION[state.decision]
        assert part(vector, "to_move").argmax() == (mover - viewer) % 3
        expected = [top["a"], top["b"]] if viewer == mover else [0, 0]
        assert list(part(vector, "decision_params")) == expected


def test_round_phase_displays_and_piles_are_encoded_from_the_view():
    state = played(4, 9, 100)
    obs = state.observation(0)
    c = state.components
    vector = observation_tensor(state, 0)
    assert part(vector, "round").argmax() + 1 == state.round
    assert borabora_sim._engine.PHASES[part(vector, "phase").argmax()] == state.phase
    assert list(part(vector, "tile_low")) == obs["tile_low"]
    assert part(vector, "god_pile")[0] == obs["god_deck"]
    assert list(part(vector, "person_piles")) == obs["person_pile"]
    men = part(vector, "man_display").reshape(6, -1)
    for i, tile in enumerate(obs["person_display"][0]):
        assert men[i, 0] == (tile != 255)
        if tile != 255:
            assert men[i, 1:13].argmax() == c.person_type[tile]
    column = part(vector, "jewelry_display").reshape(4, -1)
    for row, tile in enumerate(obs["jewelry_display"][state.round - 1]):
        assert column[row, 0] == (tile != 255)
        if tile != 255:
            assert column[row, -1] == c.jewelry_vp[tile]
    fish = part(vector, "fish_value")
    assert list(fish) == [c.fish_value[t] for t in obs["fish_at"]]


def test_person_slots_follow_the_board_order_used_by_shift_down_actions():
    state = played(2, 13, 140)
    raw = state.to_dict()["state"]
    c = state.components
    seat = next(s for s in range(2) if raw["pl"][s]["n_persons"] >= 2)
    slots = seat_part(observation_tensor(state, seat), 0, "person_slots").reshape(12, -1)
    pl = raw["pl"][seat]
    for i in range(pl["n_persons"]):
        tile = pl["persons"][i]
        assert slots[i, 0] == 1
        assert slots[i, 1 + c.person_sex[tile]] == 1
        assert slots[i, 3 + c.person_type[tile]] == 1
        assert slots[i, -1] == (pl["shifted"] >> i & 1)
    assert not slots[pl["n_persons"]:].any()


def test_observation_doc_gives_every_slice_with_its_range():
    text = (Path(__file__).parents[1] / "docs" / "observation.md").read_text()
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| `([a-z_0-9]+)` \| (\d+)(?:-(\d+))? \| (\d+) \|", line)
        if m:
            first = int(m.group(2))
            last = int(m.group(3) or first)
            rows[m.group(1)] = (first, last + 1, int(m.group(4)))
    base, _ = player_slice(0, "present")
    width = player_slice(1, "present")[0] - base
    expected = {name: (start, stop, stop - start) for name, (start, stop) in SLICES.items() if "." not in name}
    for field in ob.PLAYER_FIELDS:
        start, stop = player_slice(0, field)
        expected[field] = (start - base, stop - base, stop - start)
    assert rows == expected
    assert f"**{SIZE}** values" in text
    assert f"({width} values each)" in text and f"`{base} + {width} * k`" in text


# =============================================================================
# OpenSpiel
# =============================================================================
def test_openspiel_game_type_and_info_are_declared_truthfully(pyspiel, bo):
    game = pyspiel.load_game("python_bora_bora", {"players": 3, "seed": 4})
    kind = game.get_type()
    assert kind.short_name == "python_bora_bora"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert set(kind.parameter_specification) == {"players", "seed"}
    assert game.num_players() == 3
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 0
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.max_game_length() == ob.ENCODER.max_game_length
    assert game.observation_tensor_size() == SIZE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_passes(pyspiel, bo, players):
    game = pyspiel.load_game("python_bora_bora", {"players": players, "seed": 100 + players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_max_game_length_is_at_least_four_times_the_longest_random_game(bo):
    for players in (2, 3, 4):
        runs = borabora_sim.random_playouts(borabora_sim.rules_for(), 3000, players, 77)
        assert 4 * int(runs["decisions"].max()) <= ob.ENCODER.max_game_length


def test_openspiel_is_mcts_completes_a_game(pyspiel, bo):
    from open_spiel.python.algorithms import ismcts

    game = bo.load(players=2, seed=8)
    evaluator = bo.CompiledRolloutEvaluator(seed=0)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=np.random.RandomState(i))
            for i in range(2)]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
    assert 0 < moves <= game.max_game_length()
    winner = state.engine.winner()
    assert state.returns() == [1.0 if seat == winner else 0.0 for seat in range(2)]


def test_openspiel_returns_one_for_the_engine_winner_and_zero_before_the_end(pyspiel, bo):
    game = bo.load(players=4, seed=12)
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        assert state.returns() == [0.0] * 4
        state.apply_action(rng.choice(state.legal_actions()))
    winner = state.engine.winner()
    assert winner == state.engine.ranks().index(1)
    assert state.returns() == [1.0 if seat == winner else 0.0 for seat in range(4)]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_openspiel_bora_bora_keeps_its_names_over_the_generic_game(pyspiel, bo):
    from borabora_sim.games.bora_bora.game import BoraBora

    game = bo.load(players=2, seed=1)
    assert type(game) is bo.SpielGame and type(pyspiel.load_game("python_bora_bora")) is bo.SpielGame
    assert game.get_type().short_name == bo.short_name("bora_bora") == "python_bora_bora"
    assert game.game == BoraBora()
    assert bo.game_type("bora_bora").long_name == "Python Bora Bora"
    assert ob.ENCODER.max_game_length == game.max_game_length()
    state = game.new_initial_state()
    assert type(state) is bo.SpielState and state.encoder is ob.ENCODER


def test_openspiel_single_option_decisions_are_never_presented_ruling_r7(pyspiel, bo):
    state = bo.load(players=3, seed=2).new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert len(legal) >= 2
        state.apply_action(rng.choice(legal))


def test_openspiel_legal_actions_names_and_tensors_come_from_the_engine(pyspiel, bo):
    state = bo.load(players=3, seed=5).new_initial_state()
    rng = random.Random(5)
    for _ in range(40):
        engine = state.engine
        assert state.legal_actions() == engine.legal_actions()
        a = state.legal_actions()[0]
        assert state.action_to_string(state.current_player(), a) == engine.action_to_string(a)
        for seat in range(3):
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), dtype=np.float32),
                                          observation_tensor(engine, seat))
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_seed_parameter_reproduces_the_stream_of_games(pyspiel, bo):
    first = [bo.load(players=2, seed=31).new_initial_state() for _ in range(2)]
    again = bo.load(players=2, seed=31)
    a, b = again.new_initial_state(), again.new_initial_state()
    assert str(a) == str(first[0])
    assert str(a) != str(b)                                  # the next game of the stream is a new deal
    assert str(bo.load(players=2, seed=32).new_initial_state()) != str(a)
    assert str(again.new_initial_state(12345)) == str(again.new_initial_state("12345"))


def test_openspiel_resample_keeps_what_the_player_knows_and_redraws_what_it_does_not(pyspiel, bo):
    state = bo.load(players=3, seed=6).new_initial_state()
    rng = random.Random(6)
    for _ in range(50):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    differs = 0
    for k in range(5):
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.history() == state.history()
        differs += str(sample) != str(state)
        assert sample.engine.check_invariants() is None, k
    assert differs > 0


def test_openspiel_strings_do_not_change_when_only_hidden_information_does(pyspiel, bo):
    state = bo.load(players=3, seed=14).new_initial_state()
    rng = random.Random(14)
    for _ in range(70):
        state.apply_action(rng.choice(state.legal_actions()))
    viewer = state.current_player()
    other = state.clone()
    other.engine = edited(state.engine, lambda raw: _hide_differently(raw, viewer))
    assert str(other) != str(state)
    assert other.observation_string(viewer) == state.observation_string(viewer)
    assert other.information_state_string(viewer) == state.information_state_string(viewer)
    assert other.observation_tensor(viewer) == state.observation_tensor(viewer)


def test_openspiel_information_state_keeps_every_earlier_chance_outcome_seen(pyspiel, bo):
    state = bo.load(players=2, seed=9).new_initial_state()
    rng = random.Random(9)
    seen_before = {p: state.record().text(p) for p in range(2)}
    round_before = state.engine.round
    while state.engine.round == round_before:
        state.apply_action(rng.choice(state.legal_actions()))
    for p in range(2):
        info = state.information_state_string(p)
        seen_now = state.record().text(p)
        assert seen_now.startswith(seen_before[p])
        assert len(seen_now) > len(seen_before[p])
        assert " ".join(map(str, state.history())) in info
    # each seat's own God cards are private to it
    assert state.record().text(0) != state.record().text(1)


def test_openspiel_public_observer_hides_the_own_hand(pyspiel, bo):
    game = bo.load(players=2, seed=3)
    state = game.new_initial_state()
    public = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                             private_info=pyspiel.PrivateInfoType.NONE))
    private = game.make_py_observer()
    seat = state.current_player()
    public.set_from(state, seat)
    private.set_from(state, seat)
    assert public.dict["p0.god_hand"].sum() == 0
    assert private.dict["p0.god_hand"].sum() == public.dict["p0.god_hand_size"][0] > 0
    assert '"hand":null' in public.string_from(state, seat).split("\n")[1].replace(" ", "")


# =============================================================================
# PettingZoo
# =============================================================================
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_test_passes(pz, players):
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pz.env(players=players), num_cycles=1000)
        api_test(pz.raw_env(players=players, reward="vp"), num_cycles=1000)


def test_pettingzoo_seed_test_passes(pz):
    from pettingzoo.test import seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: pz.env(players=3), num_cycles=200)


def _play_aec(environment, seed: int) -> tuple[dict[str, float], Any]:
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
        environment.step(int(rng.choice(np.flatnonzero(mask))))
    return totals, environment.unwrapped


def test_pettingzoo_winner_gets_one_at_the_end_and_the_others_zero(pz):
    totals, raw = _play_aec(pz.env(players=3), seed=4)
    winner = raw.game_state.winner()
    assert totals == {f"player_{s}": (1.0 if s == winner else 0.0) for s in range(3)}


def test_pettingzoo_vp_rewards_add_up_to_the_final_scores(pz):
    totals, raw = _play_aec(pz.raw_env(players=2, reward="vp"), seed=5)
    assert [totals[f"player_{s}"] for s in range(2)] == raw.game_state.scores()


def test_pettingzoo_score_reward_is_another_name_for_vp(pz):
    assert reward_kinds(ob.ENCODER) == ("win", "score", "vp")
    vp, raw = _play_aec(pz.raw_env(players=2, reward="vp"), seed=5)
    score, _ = _play_aec(pz.raw_env(players=2, reward="score"), seed=5)
    assert vp == score
    assert raw.metadata["name"] == "bora_bora_v0"
    with pytest.raises(ValueError, match="reward must be one of win, score, vp"):
        pz.raw_env(players=2, reward="hp")


def test_pettingzoo_same_seed_deals_the_same_game_and_only_the_mover_has_a_mask(pz):
    environment = pz.raw_env(players=4)
    environment.reset(seed=17)
    first = {a: environment.observe(a)["observation"].copy() for a in environment.agents}
    environment.reset(seed=18)
    environment.reset(seed=17)
    for agent in environment.agents:
        obs = environment.observe(agent)
        np.testing.assert_array_equal(obs["observation"], first[agent])
        assert (obs["action_mask"].sum() > 0) == (agent == environment.agent_selection)


def test_pettingzoo_illegal_action_is_refused(pz):
    raw = pz.raw_env(players=2)
    raw.reset(seed=1)
    illegal = next(a for a in range(NUM_ACTIONS) if a not in raw.game_state.legal_actions())
    with pytest.raises(borabora_sim.IllegalActionError):
        raw.step(illegal)
    wrapped = pz.env(players=2)
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
        check_env(gym_env.GameEnv(game="bora_bora", opponents=["heuristic", "mcts:iterations=200", "random"]))
        check_env(gym_env.GameEnv(game="bora_bora", opponents=["random"], seat=1, reward="vp"))


def test_gymnasium_make_builds_the_registered_environment(gym_env):
    import gymnasium

    assert gym_env.env_id("bora_bora") == "borabora_sim/BoraBora-v0"
    env = gymnasium.make("borabora_sim/BoraBora-v0", opponents=["random", "random"], seat=2)
    obs, info = env.reset(seed=3)
    assert obs.shape == (SIZE,)
    assert info["seat"] == 2
    env.close()


def _play_episode(env, seed: int) -> tuple[float, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) >= 2
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        assert not truncated
        if terminated:
            return total, info


def test_gymnasium_win_reward_is_one_exactly_when_the_learner_wins(gym_env):
    outcomes = set()
    for seed in range(4):
        env = gym_env.GameEnv(game="bora_bora", opponents=["random"], reward="win")
        total, info = _play_episode(env, seed)
        won = info["winner"] == env.seat
        assert total == (1.0 if won else 0.0)
        assert info["scores"] == env.state.scores()
        outcomes.add(won)
    assert outcomes == {True, False}


def test_gymnasium_vp_reward_adds_up_to_the_learners_final_score(gym_env):
    env = gym_env.GameEnv(game="bora_bora", opponents=["heuristic", "random"], reward="vp", seat=1)
    total, info = _play_episode(env, 6)
    assert total == info["scores"][1]


def test_gymnasium_score_reward_is_another_name_for_vp(gym_env):
    assert reward_kinds(ob.ENCODER) == ("win", "score", "vp")
    totals = [_play_episode(gym_env.GameEnv(game="bora_bora", opponents=["random"], reward=reward, seat=0), 7)[0]
              for reward in ("vp", "score")]
    assert totals[0] == totals[1]
    assert gym_env.GameEnv(opponents=["random"]).game.name == "bora_bora"       # the default game


def test_gymnasium_illegal_action_ends_the_episode_with_the_penalty_and_keeps_the_game(gym_env):
    env = gym_env.GameEnv(game="bora_bora", opponents=["random"], illegal_reward=-2.5)
    obs, info = env.reset(seed=2)
    before = env.state.to_dict()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-2.5, True, False, True)
    assert env.state.to_dict() == before
    np.testing.assert_array_equal(obs, obs2)
    with pytest.raises(RuntimeError):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_gymnasium_opponents_are_built_by_make_player_and_seeded_by_reset(gym_env):
    from borabora_sim.players import HeuristicPlayer, MCTSPlayer, RandomPlayer

    env = gym_env.GameEnv(game="bora_bora", opponents=["heuristic:style=builder", "mcts:iterations=50", "random"],
                          seat=0)
    env.reset(seed=0)
    assert [type(env.seats[s]) for s in (1, 2, 3)] == [HeuristicPlayer, MCTSPlayer, RandomPlayer]
    assert env.seats[1].style == "builder"
    runs = []
    for _ in range(2):
        obs, info = env.reset(seed=1)
        seen = [obs]
        for _ in range(3):
            obs, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            seen.append(obs)
        runs.append(seen)
    for x, y in zip(*runs, strict=True):
        np.testing.assert_array_equal(x, y)
    with pytest.raises(ValueError, match="unknown player"):
        gym_env.GameEnv(game="bora_bora", opponents=["nobody"])
    with pytest.raises(ValueError, match="1 to 3 other seats"):
        gym_env.GameEnv(game="bora_bora", opponents=[])


# =============================================================================
# Optional extras
# =============================================================================
@pytest.mark.parametrize(("module", "library", "extra"), [
    ("openspiel", "pyspiel", "openspiel"),
    ("pettingzoo", "pettingzoo", "rl"),
    ("gymnasium", "gymnasium", "rl"),
])
def test_missing_library_raises_import_error_naming_the_extra(monkeypatch, module, library, extra):
    monkeypatch.setitem(sys.modules, library, None)
    monkeypatch.delitem(sys.modules, f"borabora_sim.envs.{module}", raising=False)
    with pytest.raises(ImportError, match=rf"pip install 'borabora_sim\[{extra}\]'"):
        importlib.import_module(f"borabora_sim.envs.{module}")


def test_importing_the_package_loads_no_optional_library():
    code = ("import sys, borabora_sim.envs, borabora_sim.games.bora_bora.observation, "
            "borabora_sim.games.bamboo.observation, borabora_sim.envs.encoders; "
            "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(borabora_sim.__file__).parents[1])
    assert out.stdout.strip() == "[]"
