"""Pig's rules, one test named for each (docs/pig.md), then its saved states, its heuristic and its players. What
every game must do (the protocol, saved states, pictures, adapters) is tested for Pig by the tests of every game."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from borabora_sim.errors import StateFormatError
from borabora_sim.games import get_game
from borabora_sim.games.pig import State, load_components, new_game, rules_for
from borabora_sim.match import play_game
from borabora_sim.players import make_player
from borabora_sim.players.heuristic import weights_for
from borabora_sim.stats import wilson_interval

ROLL, HOLD = 0, 1
GAME = get_game("pig")


def states_of_random_games(players: int, games: int, seed: int = 0) -> Iterator[tuple[State, State, int]]:
    """(the state before, the state after, the action) of every decision of `games` games of random moves."""
    rng = random.Random(seed)
    for game_seed in range(games):
        state = new_game(players, game_seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            before = state.clone()
            state.apply(action)
            yield before, state, action


def turns_begun(state: State) -> int:
    return sum(row["turns"] for row in state.counters())


def edited(state: State, **fields: Any) -> State:
    """`state` saved, with top-level fields of its body set (`pl` as {seat: {field: value}}), and loaded back: the
    edit must keep every law of a state."""
    data = copy.deepcopy(state.to_dict())
    for name, value in fields.items():
        if name == "pl":
            for seat, values in value.items():
                data["state"]["pl"][seat].update(values)
        else:
            data["state"][name] = value
    return State.from_dict(data, state.rules)


def with_next_roll(state: State, face: int) -> State:
    """A copy of `state` whose die, reseeded as determinize reseeds it, shows `face` at the next roll."""
    for seed in range(1000):
        after = state.determinize(state.current_player, seed)
        probe = after.clone()
        probe.apply(ROLL)
        if (1 if probe.last_turn != state.last_turn else probe.last_roll) == face:
            return after
    raise AssertionError(f"no seed rolls a {face}")


# =============================================================================
# The rules
# =============================================================================
def test_the_first_roll_of_a_turn_is_compulsory_and_made_at_once() -> None:
    for players in (2, 3, 4):
        state = new_game(players, 5)
        seat = state.current_player
        assert state.decision == "roll_or_hold" and state.legal_actions() == [ROLL, HOLD]
        assert state.counters()[seat]["rolls"] >= 1 and state.move_count >= 1
    for before, after, _ in states_of_random_games(3, 20):
        if not after.is_terminal() and turns_begun(after) > turns_begun(before):
            seat = after.current_player
            # a new turn of `seat` began and its first roll is made: a roll of 2 or more waits on its decision
            assert 2 <= after.last_roll <= 6 and after.turn_total == after.last_roll
            assert after.legal_actions() == [ROLL, HOLD] and after.counters()[seat]["rolls"] >= 1


def test_a_roll_of_one_pigs_out_and_loses_the_turn_total() -> None:
    state = new_game(2, 3)
    while state.turn_total < 8:
        state = with_next_roll(state, 4)
        state.apply(ROLL)
    seat, total, score = state.current_player, state.turn_total, state.scores()[state.current_player]
    state = with_next_roll(state, 1)
    state.apply(ROLL)
    assert state.last_turn == (seat, "pig_out", total)
    assert state.scores()[seat] == score and state.counters()[seat]["points_lost"] >= total
    assert state.current_player != seat


def test_a_roll_of_two_or_more_adds_to_the_turn_total() -> None:
    for before, after, action in states_of_random_games(2, 20):
        if action == ROLL and turns_begun(after) == turns_begun(before):      # the same turn goes on
            assert after.turn_total == before.turn_total + after.last_roll and 2 <= after.last_roll <= 6


def test_hold_banks_the_turn_total_and_passes_the_turn() -> None:
    for before, after, action in states_of_random_games(3, 20):
        if action == HOLD and not after.is_terminal():
            seat = before.current_player
            assert after.scores()[seat] == before.scores()[seat] + before.turn_total
            if turns_begun(after) == turns_begun(before) + 1:
                assert after.last_turn == (seat, "hold", before.turn_total)
                assert after.current_player == (seat + 1) % 3
            else:                           # the next seats' compulsory first rolls were 1s: their turns are over too
                last, how, lost = after.last_turn
                assert (how, lost) == ("pig_out", 0) and after.current_player == (last + 1) % 3


def test_reaching_the_goal_wins_at_once_when_held() -> None:
    ended = 0
    for before, after, action in states_of_random_games(4, 30):
        seat = before.current_player
        reaches = before.scores()[seat] + before.turn_total >= 100
        if action == ROLL:
            assert not after.is_terminal(), "a roll never ends the game, whatever the turn total"
        elif reaches:
            assert after.is_terminal() and after.winner() == seat and after.returns() == [
                1.0 if s == seat else 0.0 for s in range(4)]
            assert after.ranks()[seat] == 1 and all(score < 100 for s, score in enumerate(after.scores()) if s != seat)
            ended += 1
        else:
            assert not after.is_terminal()
    assert ended == 30


def test_each_seat_keeps_how_its_last_turn_ended() -> None:
    for before, after, action in states_of_random_games(3, 10):
        seat = before.current_player
        ended = turns_begun(after) - turns_begun(before)      # turns begun after this one ended (none at the end)
        if ended == 0 and not after.is_terminal():
            assert after.last_turns() == before.last_turns()
        elif ended <= 1:
            assert after.last_turns()[seat] == ("hold" if action == HOLD else "pig_out", before.turn_total)
        else:                               # then the next seats' compulsory first rolls were 1s
            assert after.last_turns()[after.last_turn[0]] == ("pig_out", 0)
        last = after.last_turn
        assert last is None or after.last_turns()[last[0]] == last[1:]


def test_turns_pass_in_seat_order_and_a_round_begins_at_the_first_seat() -> None:
    for before, after, _ in states_of_random_games(4, 10):
        turns = [row["turns"] for row in after.counters()]
        assert turns[after.start_player] == after.round, "each round begins with the first seat's turn"
        if after.is_terminal() or after.last_turn == before.last_turn:
            continue
        seat, _, _ = after.last_turn
        assert after.current_player == (seat + 1) % 4
        mover = after.current_player
        assert [turns[s] for s in range(4)] == [after.round - ((s - after.start_player) % 4 > (
            mover - after.start_player) % 4) for s in range(4)]


def test_the_first_seat_is_drawn_from_the_seed_and_recorded() -> None:
    firsts = {new_game(3, seed).start_player for seed in range(40)}
    assert firsts == {0, 1, 2}
    state = new_game(3, 8)
    assert [row["start_position"] for row in state.counters()] == [(s - state.start_player) % 3 for s in range(3)]
    assert new_game(3, 8).to_dict() == state.to_dict()


def test_determinize_reseeds_only_the_die_the_same_for_every_seat() -> None:
    state = new_game(3, 4)
    state.apply(ROLL)
    saved = state.to_dict()["state"]
    samples = [state.determinize(seat, 99) for seat in range(3)]
    for sample in samples:
        body = sample.to_dict()["state"]
        assert {k: v for k, v in body.items() if k != "rng"} == {k: v for k, v in saved.items() if k != "rng"}
        assert sample.to_dict() == samples[0].to_dict()
    assert state.determinize(0, 100).to_dict() != samples[0].to_dict()
    assert state.observation(0) == samples[0].observation(0)


def test_the_goal_and_the_die_come_from_the_component_data() -> None:
    c = load_components()
    assert (c.goal, c.faces, list(c.die)) == (100, 6, [1, 2, 3, 4, 5, 6])
    assert c.marks["goal.points"] == c.marks["die.faces"] == "CONFIRMED" and "Scarne" in c.sources["goal.points"]
    doc = c.to_json_dict()
    doc["goal"]["points"], doc["die"]["faces"] = 20, 3
    game = get_game("pig", components=doc)
    for seed in range(10):
        state = game.new_initial_state(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert state.last_roll <= 3
            state.apply(rng.choice(state.legal_actions()))
        assert max(state.scores()) >= 20 and sorted(state.scores())[0] < 20


# =============================================================================
# Saved states
# =============================================================================
def test_a_saved_state_round_trips_through_its_dict() -> None:
    for before, _, _ in states_of_random_games(3, 3):
        assert State.from_dict(before.to_dict(), before.rules) == before
    assert new_game(2, 1).to_dict()["format"] == "borabora_sim.pig.state"


MOVER = -1                  # in a case below: the seat to move


@pytest.mark.parametrize(("fields", "law"), [
    ({"turn_total": 1}, "the roll: last_roll 2..faces"),
    ({"last_seat": -1}, "phase must be play or end"),
    ({"pl": {MOVER: {"last_end": 0}}}, "last turns:"),
    ({"pl": {0: {"last_end": 1, "last_turn": 150}}}, "last turns:"),
    ({"stack": [{"kind": 0, "player": 0, "a": 0, "b": 0}]}, "stack: one pending decision"),
    ({"round": 9}, "round: the seats from start_seat"),
    ({"pl": {0: {"score": [150]}}}, "scores: every seat's banked points"),
    ({"pl": {MOVER: {"rolls": 0}}}, "counters:"),
    ({"n_moves": 3}, "n_moves must be the rolls and holds"),
    ({"pl": {3: {"turns": 1}}}, "pl entries of unused seats"),
    ({"turn_total": 30001, "last_roll": 2}, "in a loaded state"),
])
def test_a_malformed_saved_state_is_refused_naming_the_law_it_breaks(fields: dict[str, Any], law: str) -> None:
    state = new_game(3, 2)
    for action in (ROLL, HOLD, ROLL, HOLD, HOLD):
        state.apply(action)
    if "pl" in fields:
        fields = {"pl": {state.current_player if seat == MOVER else seat: value
                         for seat, value in fields["pl"].items()}}
    with pytest.raises(StateFormatError, match=r"^inconsistent state: " + re.escape(law)):
        edited(state, **fields)


EDGE = (-1, 0, 1, 2, 3, 5, 6, 7, 20, 99, 100, 101, 127, 200, 255, 32767)


def test_edited_saved_states_are_refused_or_play_to_the_end_keeping_every_law() -> None:
    """Every integer field of saved states set to values at the edges of the ranges: a StateFormatError, or a
    state that plays to its end with every law holding and loading back at every step."""
    rng = random.Random(7)
    bases = [before.to_dict() for before, _, _ in states_of_random_games(4, 2)][::7]

    def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        if isinstance(value, int):
            yield path
        for key, item in items:
            yield from leaves(item, (*path, key))

    played = 0
    for _ in range(600):
        data = copy.deepcopy(rng.choice(bases))
        *parents, last = rng.choice(list(leaves(data["state"])))
        target = data["state"]
        for key in parents:
            target = target[key]
        target[last] = rng.choice(EDGE)
        try:
            state = State.from_dict(data, rules_for())
        except StateFormatError:
            continue
        played += 1
        while not state.is_terminal():
            assert state.check_invariants() is None and State.from_dict(state.to_dict(), state.rules) == state
            state.apply(rng.choice(state.legal_actions()))
        assert state.check_invariants() is None and state.winner() is not None
    assert played > 10


# =============================================================================
# The heuristic and the players
# =============================================================================
def position(turn_total: int, mine: int = 0, theirs: int = 0) -> State:
    """A 2-player position: the mover has `mine` points and `turn_total` at stake, the other seat `theirs`."""
    state = new_game(2, 1)
    mover = state.current_player
    return edited(state, turn_total=turn_total, last_roll=min(turn_total, 6),
                  pl={mover: {"score": [mine]}, 1 - mover: {"score": [theirs]}})


def choice(state: State, style: str, **weights: float) -> str:
    action = GAME.heuristic_action(state, weights_for(style, game=GAME, **weights), seed=3)
    return state.action_to_string(action)


def test_hold_at_20_rolls_below_20_and_holds_from_20() -> None:
    assert [choice(position(t), "hold20") for t in (2, 12, 19, 20, 21, 35)] == ["roll"] * 3 + ["hold"] * 3
    assert choice(position(12), "hold20", hold_at=10) == "hold"
    assert choice(position(6, mine=95), "hold20") == "hold", "a bank that reaches the goal wins at once"


def test_keep_pace_holds_later_behind_and_rolls_for_the_goal_near_the_end() -> None:
    assert [choice(position(t), "keep_pace") for t in (20, 21)] == ["roll", "hold"]
    assert choice(position(22, mine=0, theirs=40), "keep_pace") == "roll"        # 21 + 40 / 8 = 26
    assert choice(position(26, mine=0, theirs=40), "keep_pace") == "hold"
    assert choice(position(17, mine=40, theirs=0), "keep_pace") == "hold"        # 21 - 5 = 16
    assert choice(position(35, mine=10, theirs=75), "keep_pace") == "roll"       # roll for the goal
    assert choice(position(10, mine=90, theirs=95), "keep_pace") == "hold"       # 90 + 10 reaches the goal


def test_the_values_of_the_options_are_expectations_over_the_die_never_a_sampled_roll() -> None:
    state = position(14, mine=30)
    weights = weights_for("hold20", game=GAME)
    values = [dict(GAME.heuristic_option_values(state, weights, seed)) for seed in range(20)]
    assert all(v == values[0] for v in values)
    expected_roll = (30 + sum(30 + 14 + face for face in range(2, 7))) / 6
    assert values[0] == {HOLD: 44.0, ROLL: pytest.approx(expected_roll)}
    keep = dict(GAME.heuristic_option_values(state, weights_for("keep_pace", game=GAME), 1))
    premium = (17 - 20) / 5                         # target 21 + round(-30 / 8) = 17; premium (target - 20) / 5
    assert keep[ROLL] == pytest.approx((30 + sum(30 + 14 + face + premium for face in range(2, 7))) / 6)
    assert keep[ROLL] > keep[HOLD] == 44.0


def test_the_heuristic_takes_the_option_it_values_most_holding_on_a_tie() -> None:
    ties = 0
    for style in GAME.styles:
        weights = weights_for(style, game=GAME)
        for before, _, _ in states_of_random_games(3, 5):
            values = dict(GAME.heuristic_option_values(before, weights, 1))
            chosen = GAME.heuristic_action(before, weights, 1)
            assert values[chosen] == max(values.values())
            if values[ROLL] == values[HOLD]:
                assert chosen == HOLD
                ties += 1
    assert ties > 0


def test_the_heuristic_beats_random() -> None:
    wins = 0
    for game_seed in range(100):
        seats = ["heuristic", "random"] if game_seed % 2 else ["random", "heuristic"]
        record = play_game([make_player(spec, seed=game_seed) for spec in seats], seed=game_seed, game=GAME)
        wins += seats[record.scores.index(max(record.scores))] == "heuristic"
    assert wilson_interval(wins, 100)[0] > 0.6


def test_mcts_beats_random_in_a_small_match() -> None:
    games, wins = 200, 0
    for game_seed in range(games):
        seats = ["mcts:iterations=50", "random"] if game_seed % 2 else ["random", "mcts:iterations=50"]
        record = play_game([make_player(spec, seed=game_seed) for spec in seats], seed=game_seed, game=GAME)
        wins += seats[record.scores.index(max(record.scores))] != "random"
    low, _ = wilson_interval(wins, games)
    assert low > 0.5, f"mcts won {wins} of {games}"


def test_pigs_players_take_its_own_styles_and_search_defaults() -> None:
    state = position(10)
    heuristic = make_player("heuristic", seed=1)
    assert heuristic.choose(state) in (ROLL, HOLD) and heuristic.spec() == "heuristic:style=keep_pace"
    assert "Roll again" in heuristic.explain() and "Hold: bank" in heuristic.explain()
    search = make_player("mcts:iterations=30", seed=1)
    assert search.choose(state) in (ROLL, HOLD) and search.rollout == "heuristic"
    assert np.array_equal(weights_for(game=GAME), [21.0, 0.125, 29.0])
