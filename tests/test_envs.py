"""Interoperability adapters, checked on every registered game that has an observation encoder: the observation
tensor (only what a seat can see), the OpenSpiel game `python_<name>`, the PettingZoo AEC environment `<name>_v0` and
the Gymnasium environment, each checked with its library's own checker, for every player count and every option of
the game. A game without an encoder is skipped, saying so, and the adapters refuse it in one line.

What each game's tensor holds is checked after them: Bora Bora's here, Bamboo's in tests/test_envs_bamboo.py."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import itertools
import pickle
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import play_aec, play_episode, played, sample, samples_of

import borabora_sim
from borabora_sim import new_game
from borabora_sim.envs.encoders import encoder_for, reward_kinds
from borabora_sim.games import DEFAULT_GAME, game_names, games_with, get_game, record_of
from borabora_sim.games.bora_bora.observation import observation_tensor
from borabora_sim.kits.encoding import win_shares

from scenario import DECISION, edited

Raw = dict[str, Any]
GAMES = game_names()


def encoded(name: str) -> dict[str, Any]:
    """What is expected of the game's encoder and of the names the adapters give it (ENCODED of its samples)."""
    expected: dict[str, Any] = sample(name, "ENCODED", "expectations of its encoder")
    return expected


def option_sets(name: str) -> list[dict[str, str]]:
    """Every combination of the options of game `name` ([{}] for a game without options)."""
    declared = get_game(name).options
    return [dict(zip(declared, values, strict=True)) for values in itertools.product(*declared.values())]


def other_options(name: str) -> dict[str, str]:
    """The last combination of the game's options: not the default where the game has options."""
    return option_sets(name)[-1]


def spec_of(name: str, options: dict[str, str]) -> str:
    return f"{name}:{','.join(f'{key}={value}' for key, value in options.items())}" if options else name


def illegal_action(name: str, legal: list[int]) -> int:
    """An action of the game not in `legal`; the test is skipped for a game in which every action is legal at
    every decision (Pig: roll and hold)."""
    illegal = [a for a in range(get_game(name).num_actions) if a not in legal]
    if not illegal:
        pytest.skip(f"every action of {name} is legal at every decision")
    return illegal[0]


def unit_of(name: str) -> str:
    """The game's score unit as a reward kind ("vp", "hp")."""
    return get_game(name).score_unit.lower()


def unserved(name: str) -> tuple[Any, ...]:
    """A skip mark, saying why, for a game without an observation encoder: no adapter serves it (they refuse it in
    one line, test_a_game_without_an_encoder_is_refused_in_one_line)."""
    if record_of(name).encoder is not None:
        return ()
    why = f"{name} has no observation encoder (its record names none): no adapter serves it"
    return (pytest.mark.skip(reason=why),)


def case(name: str, players: int, options: dict[str, str]) -> Any:
    return pytest.param(name, players, options, id="-".join([name, f"{players}p", *options.values()]),
                        marks=unserved(name))


# Every player count with every combination of options, and (where a checker is too slow to run on all) each
# player count once, the options taken in turn.
ALL = [case(name, players, options) for name in GAMES for options in option_sets(name)
       for players in get_game(name).player_counts]
SPREAD = [case(name, players, option_sets(name)[i % len(option_sets(name))]) for name in GAMES
          for i, players in enumerate(get_game(name).player_counts)]
# Every game, one without an encoder skipped with the reason; the games without one.
SERVED = [pytest.param(name, id=name, marks=unserved(name)) for name in GAMES]
UNSERVED = [name for name in GAMES if record_of(name).encoder is None]


def part(vector: np.ndarray, name: str, game: str = "bora_bora") -> np.ndarray:
    start, stop = encoder_for(game).slices[name]
    return vector[start:stop]


def seat_part(vector: np.ndarray, slot: int, name: str, game: str = "bora_bora") -> np.ndarray:
    start, stop = encoder_for(game).layout.player_slice(slot, name)
    return vector[start:stop]


# =============================================================================
# The observation tensor of every game
# =============================================================================
def test_every_game_with_an_encoder_has_its_expectations_here() -> None:
    for name in games_with("encoder"):
        assert hasattr(samples_of(name), "ENCODED"), f"{name} has an encoder but no ENCODED in its samples"
    with pytest.raises(ValueError, match="unknown game"):
        encoder_for("chess")


def assert_refused_in_one_line(name: str, make: Any) -> None:
    with pytest.raises(ValueError, match=f"game '{name}' has no observation encoder; games with one: ") as refused:
        make()
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("name", UNSERVED)
def test_a_game_without_an_encoder_is_refused_in_one_line(name: str) -> None:
    assert_refused_in_one_line(name, lambda: encoder_for(name))
    assert_refused_in_one_line(name, lambda: encoder_for(get_game(name)))


@pytest.mark.parametrize("name", UNSERVED)
def test_a_game_without_an_encoder_is_refused_by_the_adapters_in_one_line(pettingzoo_adapter, gymnasium_adapter,
                                                                           name: str) -> None:
    assert_refused_in_one_line(name, lambda: pettingzoo_adapter.raw_env(game=name, players=2))
    assert_refused_in_one_line(name, lambda: pettingzoo_adapter.env(game=name))
    assert_refused_in_one_line(name, lambda: gymnasium_adapter.GameEnv(game=name, opponents=["random"]))
    assert_refused_in_one_line(name, lambda: gymnasium_adapter.env_id(name))


@pytest.mark.parametrize("name", UNSERVED)
def test_a_game_without_an_encoder_is_refused_by_openspiel_in_one_line(openspiel_adapter, name: str) -> None:
    assert_refused_in_one_line(name, lambda: openspiel_adapter.SpielGame({"players": 2}, game=name))


@pytest.mark.parametrize("name", SERVED)
def test_encoder_is_chosen_by_the_game_in_one_place(name: str) -> None:
    encoder = encoder_for(name)
    assert encoder is record_of(name).part("encoder") and encoder.game == name
    for options in option_sets(name):
        assert encoder_for(get_game(name, **options)) is encoder_for(spec_of(name, options)) is encoder
    expected = encoded(name)
    assert (encoder.size, encoder.score_unit, encoder.views_alike) == (expected["size"], unit_of(name),
                                                                       expected["views_alike"])


@pytest.mark.parametrize("name", SERVED)
def test_an_encoder_pickles_and_copies_to_itself(name: str) -> None:
    """Workers and vector environments receive encoders by pickle: each comes back as the game's one encoder."""
    encoder = encoder_for(name)
    assert pickle.loads(pickle.dumps(encoder)) is encoder and copy.deepcopy(encoder) is encoder


def test_an_encoder_held_by_no_module_global_is_refused_by_pickle() -> None:
    loose = dataclasses.replace(encoder_for(DEFAULT_GAME))
    with pytest.raises(pickle.PicklingError, match="global"):
        pickle.dumps(loose)


@pytest.mark.parametrize("name", SERVED)
def test_observation_slices_tile_the_tensor_in_order_without_gaps(name: str) -> None:
    encoder = encoder_for(name)
    at = 0
    for part_name, (start, stop) in encoder.slices.items():
        assert start == at, part_name
        assert stop > start, part_name
        at = stop
    assert at == encoder.size == encoder.high.shape[0] == encoder.low.shape[0]
    assert (encoder.high > encoder.low).all()
    assert encoder.high.dtype == encoder.low.dtype == np.float32
    for slot in range(encoder.layout.max_players):
        for field in encoder.layout.player_fields:
            assert f"p{slot}.{field}" in encoder.slices
    assert encoder.layout.max_players == max(get_game(name).player_counts)


@pytest.mark.parametrize(("name", "players", "options"), ALL)
def test_observation_tensor_is_float32_and_within_bounds_for_every_seat_over_a_game(
        name: str, players: int, options: dict[str, str]) -> None:
    encoder = encoder_for(name)
    state = get_game(name, **options).new_initial_state(players, 40 + players)
    rng = random.Random(players)
    steps = 0
    while not state.is_terminal():
        if steps % 3 == 0:
            for viewer in range(players):
                vector = encoder.tensor(state, viewer)
                assert vector.dtype == np.float32 and vector.shape == (encoder.size,)
                assert (vector >= encoder.low).all() and (vector <= encoder.high).all(), viewer
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    for viewer in range(players):
        vector = encoder.tensor(state, viewer)
        assert (vector >= encoder.low).all() and (vector <= encoder.high).all()
        assert part(vector, "to_move", name).sum() == 0          # nobody is to move at the end
        assert part(vector, "phase", name)[get_game(name).phases.index("end")] == 1


@pytest.mark.parametrize("name", SERVED)
def test_player_slot_zero_is_the_viewer_and_later_slots_follow_in_seat_order(name: str) -> None:
    game, encoder = get_game(name), encoder_for(name)
    players = max(game.player_counts)
    state = game.new_initial_state(players=players, seed=3)
    actions = game.random_game_actions(players, 3)
    for action in actions[:len(actions) // 2]:          # halfway through a game of random moves
        state.apply(action)
    scores, breakdown = state.scores(), state.score_breakdown()
    unit = unit_of(name)
    for viewer in range(players):
        vector = encoder.tensor(state, viewer)
        for slot in range(players):
            seat = (viewer + slot) % players
            assert seat_part(vector, slot, "present", name)[0] == 1
            assert seat_part(vector, slot, f"{unit}_total", name)[0] == scores[seat]
            assert list(seat_part(vector, slot, f"{unit}_by_source", name)) == [breakdown[seat][source]
                                                                                for source in game.sources]
        assert part(vector, "to_move", name).argmax() == (state.current_player - viewer) % players


@pytest.mark.parametrize("name", SERVED)
def test_unused_player_slots_are_empty_with_fewer_players(name: str) -> None:
    encoder = encoder_for(name)
    fields = encoder.layout.player_fields
    vector = encoder.tensor(played(name, 2, 5, 60), 1)
    for slot in range(2, encoder.layout.max_players):
        start, _ = encoder.layout.player_slice(slot, fields[0])
        _, stop = encoder.layout.player_slice(slot, fields[-1])
        assert not vector[start:stop].any()
    assert part(vector, "num_players", name)[0] == 1


@pytest.mark.parametrize("name", SERVED)
def test_observation_doc_gives_every_slice_with_its_range(name: str) -> None:
    """The page of the tensor gives every slice (a player field once, as in slot 0) with its range and size, and
    where it has a column of values, the lowest and highest value of each."""
    encoder = encoder_for(name)
    text = (Path(__file__).parents[1] / "docs" / encoded(name)["page"]).read_text()
    with_values = "| values |" in text
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| `([a-z_0-9]+)` \| (\d+)(?:-(\d+))? \| (\d+) \|(?: \[(-?\d+), (-?\d+)\] \|)?", line)
        if m:
            first = int(m.group(2))
            last = int(m.group(3) or first)
            values = (int(m.group(5)), int(m.group(6))) if m.group(5) is not None else ()
            rows[m.group(1)] = (first, last + 1, int(m.group(4)), *values)
    base, _ = encoder.layout.player_slice(0, "present")
    width = encoder.layout.player_slice(1, "present")[0] - base

    def row(start: int, stop: int, offset: int = 0) -> tuple[int, ...]:
        values = (int(encoder.low[start:stop].min()), int(encoder.high[start:stop].max())) if with_values else ()
        return (start - offset, stop - offset, stop - start, *values)

    expected = {part_name: row(start, stop) for part_name, (start, stop) in encoder.slices.items()
                if "." not in part_name}
    for field in encoder.layout.player_fields:
        expected[field] = row(*encoder.layout.player_slice(0, field), offset=base)
    assert rows == expected
    assert f"**{encoder.size}** values" in text
    assert f"({width} values each)" in text and f"`{base} + {width} * k`" in text
    assert f"(values 0-{base - 1})" in text


# =============================================================================
# OpenSpiel
# =============================================================================
@pytest.mark.parametrize("name", SERVED)
def test_openspiel_game_type_and_info_are_declared_truthfully(pyspiel, openspiel_adapter, name: str) -> None:
    options = other_options(name)
    game = pyspiel.load_game(f"python_{name}", {"players": 3, "seed": 4, **options})
    board = get_game(name, **options)
    kind = game.get_type()
    assert (kind.short_name, kind.long_name) == (f"python_{name}", f"Python {encoder_for(name).title}")
    assert kind.short_name == openspiel_adapter.short_name(name)
    assert openspiel_adapter.game_type(name).long_name == kind.long_name
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (min(board.player_counts), max(board.player_counts))
    defaults = {key: values[0] for key, values in board.options.items()}
    assert kind.parameter_specification == {"players": max(board.player_counts), "seed": -1, **defaults}
    assert game.num_players() == 3
    assert game.num_distinct_actions() == board.num_actions
    assert game.max_chance_outcomes() == 0
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.max_game_length() == encoder_for(name).max_game_length
    assert game.observation_tensor_size() == encoder_for(name).size
    assert type(game) is openspiel_adapter.SpielGame and game.game == board
    assert type(openspiel_adapter.load(players=2, seed=1, game=name)) is openspiel_adapter.SpielGame
    state = game.new_initial_state()
    assert type(state) is openspiel_adapter.SpielState and state.encoder is encoder_for(name)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), SPREAD)
def test_openspiel_random_sim_test_passes(pyspiel, openspiel_adapter, name: str, players: int,
                                          options: dict[str, str]) -> None:
    game = pyspiel.load_game(f"python_{name}", {"players": players, "seed": 100 + players, **options})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_generic_game_serves_a_game_by_its_name(openspiel_adapter, name: str) -> None:
    """What every game gets from its encoder alone: SpielGame made directly, by name; a spec with options is
    refused, the options are parameters."""
    game = openspiel_adapter.SpielGame({"players": 2, "seed": 3}, game=name)
    state = game.new_initial_state()
    assert state.legal_actions() == state.engine.legal_actions()
    assert game.observation_tensor_size() == encoder_for(name).size
    for options in option_sets(name)[1:]:
        keys = ", ".join(f"'{key}': \\.\\.\\." for key in options)
        with pytest.raises(ValueError, match=rf"its options as parameters: SpielGame\(\{{\.\.\., {keys}\}}"):
            openspiel_adapter.SpielGame({"players": 2}, game=spec_of(name, options))


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_max_game_length_is_at_least_four_times_the_longest_random_game(openspiel_adapter,
                                                                                  name: str) -> None:
    for options in option_sets(name):
        board = get_game(name, **options)
        for players in board.player_counts:
            runs = board.random_playouts(3000, players, 77)
            assert 4 * int(runs["decisions"].max()) <= encoder_for(name).max_game_length


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_is_mcts_completes_a_game(pyspiel, openspiel_adapter, name: str) -> None:
    from open_spiel.python.algorithms import ismcts

    game = openspiel_adapter.load(players=2, seed=8, game=name, **other_options(name))
    evaluator = openspiel_adapter.CompiledRolloutEvaluator(seed=0)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(i))
            for i in range(2)]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
    assert 0 < moves <= game.max_game_length()
    assert state.returns() == win_shares(state.engine) and state.returns()[state.engine.winner()] > 0


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_returns_are_zero_before_the_end_and_the_win_shares_at_it(pyspiel, openspiel_adapter,
                                                                          name: str) -> None:
    state = openspiel_adapter.load(players=4, seed=12, game=name).new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        assert state.returns() == [0.0] * 4 == state.rewards()
        state.apply_action(rng.choice(state.legal_actions()))
    ranks = state.engine.ranks()
    winner = state.engine.winner()
    assert winner == ranks.index(1)
    assert state.returns() == win_shares(state.engine) and sum(state.returns()) == pytest.approx(1.0)
    if ranks.count(1) == 1:
        assert state.returns() == [1.0 if seat == winner else 0.0 for seat in range(4)]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_legal_actions_names_tensors_and_strings_come_from_the_engine(pyspiel, openspiel_adapter,
                                                                              name: str) -> None:
    """Over a whole game: the legal actions and their names are the engine's, a decision with a single option is
    never presented (rulings R7, B38: it is taken), and the tensors and strings are the encoder's (checked over
    the first 40 decisions and every tenth after)."""
    encoder = encoder_for(name)
    state = openspiel_adapter.load(players=3, seed=5, game=name).new_initial_state()
    rng = random.Random(5)
    step = 0
    while not state.is_terminal():
        engine = state.engine
        legal = state.legal_actions()
        assert legal == engine.legal_actions() and len(legal) >= 2
        assert state.action_to_string(state.current_player(), legal[0]) == engine.action_to_string(legal[0])
        if step < 40 or step % 10 == 0:
            for seat in range(3):
                np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), dtype=np.float32),
                                              encoder.tensor(engine, seat))
                assert state.observation_string(seat) == encoder.text(engine.observation(seat))
        state.apply_action(rng.choice(legal))
        step += 1


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_illegal_action_is_refused_and_changes_nothing(pyspiel, openspiel_adapter, name: str) -> None:
    state = openspiel_adapter.load(players=2, seed=5, game=name).new_initial_state()
    before = str(state)
    illegal = illegal_action(name, state.legal_actions())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert str(state) == before and state.history() == []


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_seed_parameter_reproduces_the_stream_of_games(pyspiel, openspiel_adapter, name: str) -> None:
    load = openspiel_adapter.load
    first = [load(players=2, seed=31, game=name).new_initial_state() for _ in range(2)]
    again = load(players=2, seed=31, game=name)
    a, b = again.new_initial_state(), again.new_initial_state()
    assert str(a) == str(first[0])
    assert str(a) != str(b)                                  # the next game of the stream is a new deal
    assert str(load(players=2, seed=32, game=name).new_initial_state()) != str(a)
    assert str(again.new_initial_state(12345)) == str(again.new_initial_state("12345"))
    for options in option_sets(name)[1:]:                   # the same seed in another mode is another game
        assert str(load(players=2, seed=31, game=name, **options).new_initial_state()) != str(a)


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_resample_keeps_what_the_player_knows_and_redraws_what_it_does_not(pyspiel, openspiel_adapter,
                                                                                      name: str) -> None:
    state = openspiel_adapter.load(players=3, seed=6, game=name).new_initial_state()
    rng = random.Random(6)
    for _ in range(120):                    # or to the last decision of a shorter game
        after = state.clone()
        after.apply_action(rng.choice(state.legal_actions()))
        if after.is_terminal():
            break
        state = after
    assert not state.is_terminal()
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


@pytest.mark.parametrize("name", SERVED)
def test_openspiel_information_state_keeps_every_earlier_chance_outcome_seen(pyspiel, openspiel_adapter,
                                                                            name: str) -> None:
    """Each seat's record of what it saw happen by chance only grows; where seats hold something private their
    records differ, where every seat sees the same they are one record, and the public observer is the view."""
    state = openspiel_adapter.load(players=2, seed=9, game=name).new_initial_state()
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
    if encoded(name)["views_alike"]:
        assert state.record().text(1) == state.record().text(0)
        public = state.get_game().make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
        public.set_from(state, 0)
        np.testing.assert_array_equal(public.tensor, encoder_for(name).tensor(state.engine, 0))
    else:                                                    # each seat's own private information is its own
        assert state.record().text(0) != state.record().text(1)


# =============================================================================
# PettingZoo
# =============================================================================
@pytest.mark.parametrize(("name", "players", "options"), ALL)
def test_pettingzoo_api_test_passes(pettingzoo_adapter, name: str, players: int, options: dict[str, str]) -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_adapter.env(game=name, players=players, **options), num_cycles=1000)
        api_test(pettingzoo_adapter.raw_env(game=spec_of(name, options), players=players, reward=unit_of(name)),
                 num_cycles=1000)


@pytest.mark.parametrize("name", SERVED)
def test_pettingzoo_seed_test_passes(pettingzoo_adapter, name: str) -> None:
    from pettingzoo.test import seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: pettingzoo_adapter.env(game=name, players=3, **other_options(name)), num_cycles=200)


@pytest.mark.parametrize("name", SERVED)
def test_pettingzoo_names_the_game_its_spaces_and_its_rewards(pettingzoo_adapter, name: str) -> None:
    environment = pettingzoo_adapter.raw_env(game=name, players=2)
    assert environment.metadata["name"] == f"{name}_v0"
    assert environment.observation_space("player_0")["observation"].shape == (encoder_for(name).size,)
    assert environment.action_space("player_1").n == get_game(name).num_actions
    kinds = reward_kinds(encoder_for(name))
    assert kinds == ("win", "score", unit_of(name))
    other = next(unit for unit in ("vp", "hp") if unit not in kinds)
    with pytest.raises(ValueError, match=f"reward must be one of {', '.join(kinds)}"):
        pettingzoo_adapter.raw_env(game=name, reward=other)
    shown = pettingzoo_adapter.raw_env(game=name, players=2, render_mode="ansi")
    shown.reset(seed=1)
    seat = shown.possible_agents.index(shown.agent_selection)
    assert shown.render() == get_game(name).render(shown.game_state, seat)


@pytest.mark.parametrize(("name", "players", "options"), SPREAD)
def test_pettingzoo_win_rewards_are_the_win_shares(pettingzoo_adapter, name: str, players: int,
                                                   options: dict[str, str]) -> None:
    totals, raw = play_aec(pettingzoo_adapter.env(game=name, players=players, **options), seed=4)
    state = raw.game_state
    assert [totals[f"player_{s}"] for s in range(players)] == win_shares(state)
    if state.ranks().count(1) == 1:                         # a sole winner gets 1, the others 0
        assert totals == {f"player_{s}": (1.0 if s == state.winner() else 0.0) for s in range(players)}


@pytest.mark.parametrize(("name", "players", "options"), SPREAD)
def test_pettingzoo_score_rewards_add_up_to_the_final_scores(pettingzoo_adapter, name: str, players: int,
                                                             options: dict[str, str]) -> None:
    """The game's unit ("vp", "hp") rewards each step's gain, "score" is another name for it."""
    make = pettingzoo_adapter.raw_env
    totals, raw = play_aec(make(game=name, players=players, reward=unit_of(name), **options), seed=5)
    assert [totals[f"player_{s}"] for s in range(players)] == raw.game_state.scores()
    again, _ = play_aec(make(game=name, players=players, reward="score", **options), seed=5)
    assert again == totals


@pytest.mark.parametrize("name", SERVED)
def test_pettingzoo_same_seed_deals_the_same_game_and_only_the_mover_has_a_mask(pettingzoo_adapter,
                                                                               name: str) -> None:
    environment = pettingzoo_adapter.raw_env(game=name, players=4)
    environment.reset(seed=17)
    first = {a: environment.observe(a)["observation"].copy() for a in environment.agents}
    environment.reset(seed=18)
    assert any(not np.array_equal(environment.observe(a)["observation"], first[a]) for a in environment.agents)
    environment.reset(seed=17)
    for agent in environment.agents:
        obs = environment.observe(agent)
        np.testing.assert_array_equal(obs["observation"], first[agent])
        assert (obs["action_mask"].sum() > 0) == (agent == environment.agent_selection)


@pytest.mark.parametrize("name", SERVED)
def test_pettingzoo_illegal_action_is_refused(pettingzoo_adapter, name: str) -> None:
    raw = pettingzoo_adapter.raw_env(game=name, players=2)
    raw.reset(seed=1)
    before = raw.game_state.to_dict()
    illegal = illegal_action(name, raw.game_state.legal_actions())
    with pytest.raises(borabora_sim.IllegalActionError):
        raw.step(illegal)
    assert raw.game_state.to_dict() == before
    wrapped = pettingzoo_adapter.env(game=name, players=2)
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
def styled(name: str) -> str:
    """A heuristic opponent of a style other than the game's default."""
    game = get_game(name)
    return f"heuristic:style={next(style for style in game.styles if style != game.default_style)}"


@pytest.mark.parametrize("name", SERVED)
def test_gymnasium_check_env_passes(gymnasium_adapter, name: str) -> None:
    from gymnasium.utils.env_checker import check_env

    make = gymnasium_adapter.GameEnv
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(make(game=name, opponents=["heuristic", "mcts:iterations=50", "random"]))
        check_env(make(game=name, opponents=["random"], seat=1, reward=unit_of(name), **other_options(name)))
        check_env(make(spec_of(name, other_options(name)), opponents=[styled(name), "random"], reward="score"))


@pytest.mark.parametrize("name", SERVED)
def test_gymnasium_make_builds_the_registered_environment(gymnasium_adapter, name: str) -> None:
    import gymnasium

    assert gymnasium_adapter.env_id(name) == encoded(name)["env_id"]
    options = other_options(name)
    env = gymnasium.make(encoded(name)["env_id"], opponents=["random", "random"], seat=2, **options)
    obs, info = env.reset(seed=3)
    assert obs.shape == (encoder_for(name).size,) and info["seat"] == 2
    assert env.unwrapped.game == get_game(name, **options)
    env.close()


@pytest.mark.parametrize("name", SERVED)
def test_gymnasium_win_reward_is_the_learners_share_of_the_victory(gymnasium_adapter, name: str) -> None:
    outcomes = set()
    for seed in range(4):
        env = gymnasium_adapter.GameEnv(game=name, opponents=["random"], reward="win")
        total, info, _ = play_episode(env, seed)
        assert total == win_shares(env.state)[env.seat]
        assert info["scores"] == env.state.scores() and info["ranks"] == env.state.ranks()
        if info["ranks"].count(1) == 1:                     # a sole winner: 1 exactly when the learner won
            assert total == (1.0 if info["winner"] == env.seat else 0.0)
        outcomes.add(total)
    assert {0.0, 1.0} <= outcomes


@pytest.mark.parametrize("name", SERVED)
def test_gymnasium_score_reward_adds_up_to_the_learners_final_score(gymnasium_adapter, name: str) -> None:
    """The game's unit rewards the learner's gain at each step, "score" is another name for it, in every mode."""
    for options in option_sets(name):
        totals = []
        for reward in (unit_of(name), "score"):
            env = gymnasium_adapter.GameEnv(game=name, opponents=["heuristic", "random"], reward=reward, seat=1,
                                            **options)
            total, info, _ = play_episode(env, 6)
            assert total == info["scores"][1]
            totals.append(total)
        assert totals[0] == totals[1]


@pytest.mark.parametrize("name", SERVED)
def test_gymnasium_illegal_action_ends_the_episode_with_the_penalty_and_keeps_the_game(gymnasium_adapter,
                                                                                      name: str) -> None:
    env = gymnasium_adapter.GameEnv(game=name, opponents=["random"], illegal_reward=-2.5)
    obs, info = env.reset(seed=2)
    before = env.state.to_dict()
    illegal = illegal_action(name, list(np.flatnonzero(info["action_mask"])))
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-2.5, True, False, True)
    assert env.state.to_dict() == before
    np.testing.assert_array_equal(obs, obs2)
    with pytest.raises(RuntimeError):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


@pytest.mark.parametrize("name", SERVED)
def test_gymnasium_opponents_are_the_games_players_built_by_make_player_and_seeded_by_reset(gymnasium_adapter,
                                                                                           name: str) -> None:
    from borabora_sim.players import HeuristicPlayer, MCTSPlayer, RandomPlayer

    style = styled(name)
    env = gymnasium_adapter.GameEnv(game=name, opponents=[style, "mcts:iterations=50", "random"], seat=0,
                                    **other_options(name))
    env.reset(seed=0)
    assert [type(env.seats[s]) for s in (1, 2, 3)] == [HeuristicPlayer, MCTSPlayer, RandomPlayer]
    assert env.seats[1].style == style.partition("=")[2]
    assert all(p.game == env.game for p in env.seats.values())
    runs = [play_episode(env, 11)[2] for _ in range(2)]
    assert len(runs[0]) == len(runs[1])
    for x, y in zip(*runs, strict=True):
        np.testing.assert_array_equal(x, y)
    counts = get_game(name).player_counts
    with pytest.raises(ValueError, match="unknown player"):
        gymnasium_adapter.GameEnv(game=name, opponents=["nobody"])
    with pytest.raises(ValueError, match=f"{min(counts) - 1} to {max(counts) - 1} other seats"):
        gymnasium_adapter.GameEnv(game=name, opponents=[])


def test_the_adapters_play_the_default_game_unless_told(pettingzoo_adapter, gymnasium_adapter) -> None:
    assert gymnasium_adapter.GameEnv(opponents=["random"]).game.name == DEFAULT_GAME
    raw_env = pettingzoo_adapter.raw_env
    assert raw_env.metadata["name"] == raw_env(players=2).metadata["name"] == f"{DEFAULT_GAME}_v0"


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
    encoders = ", ".join(record_of(name).encoder.partition(":")[0] for name in games_with("encoder"))
    code = (f"import sys, borabora_sim.envs, borabora_sim.envs.encoders, {encoders}; "
            "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(borabora_sim.__file__).parents[1])
    assert out.stdout.strip() == "[]"


# =============================================================================
# Bora Bora's tensor
# =============================================================================
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
    state = played("bora_bora", players, 7 + players, decisions)
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


def test_player_slots_hold_turn_positions_regions_and_region_owners_as_the_viewer_sees_them():
    state = played("bora_bora", 4, 3, 150)
    raw = state.to_dict()["state"]
    for viewer in range(4):
        vector = observation_tensor(state, viewer)
        for slot in range(4):
            seat = (viewer + slot) % 4
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


def test_own_god_cards_are_seen_fully_and_others_only_as_known_cards_and_hand_size():
    state = played("bora_bora", 3, 11, 60)
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
    state = played("bora_bora", 4, 9, 100)
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
    state = played("bora_bora", 2, 13, 140)
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


def test_openspiel_strings_do_not_change_when_only_hidden_information_does(pyspiel, openspiel_adapter):
    state = openspiel_adapter.load(players=3, seed=14).new_initial_state()
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


def test_openspiel_public_observer_hides_the_own_hand(pyspiel, openspiel_adapter):
    game = openspiel_adapter.load(players=2, seed=3)
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
