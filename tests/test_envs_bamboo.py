"""What Bamboo's observation tensor holds (only what a seat can see), and what the adapters do with what only
Bamboo has: negative HP, the advanced mode and shared victories (B35). Every game's adapters, Bamboo's among them,
are checked in tests/test_envs.py: the OpenSpiel game `python_bamboo`, the PettingZoo environment
`env(game="bamboo")` and the Gymnasium environment `borabora_sim/Bamboo-v0`, with their libraries' own checkers,
in both modes and for 2, 3 and 4 players."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest
from conftest import play_aec, play_episode, played

from borabora_sim.games import get_game
from borabora_sim.games.bamboo import Bamboo, pattern_fulfilled
from borabora_sim.games.bamboo import observation as bob
from borabora_sim.games.bamboo.components import HOME_TYPES
from borabora_sim.games.bamboo.observation import HIGH, LOW, SIZE, SLICES, observation_tensor, player_slice
from borabora_sim.kits.encoding import win_shares
from borabora_sim.players import make_player

MODES = ("normal", "advanced")
NO_TILE = 255
SCORE_BALANCE = 61          # first id of `score SIDE balance J` (docs/bamboo_actions.md)


def game(mode: str = "normal") -> Any:
    return get_game("bamboo", mode=mode)


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


# =============================================================================
# The observation tensor
# =============================================================================
def test_only_hp_may_be_negative():
    """HP may be negative (B32): the bounds of the HP slices go below 0, and nothing else's does."""
    negative = [bob.SOURCES.index(name) for name in bob.NEGATIVE_SOURCES]
    for slot in range(bob.MAX_PLAYERS):
        assert (seat_part(LOW, slot, "hp_by_source")[negative] < 0).all()
        assert (seat_part(HIGH, slot, "hp_by_source")[negative] == 0).all()
    hp = np.zeros(SIZE, dtype=bool)
    for slot in range(bob.MAX_PLAYERS):
        hp[player_slice(slot, "hp_total")[0]:player_slice(slot, "hp_by_source")[1]] = True
    assert (LOW[~hp] == 0).all() and (LOW[hp] < 0).sum() == bob.MAX_PLAYERS * (1 + len(negative))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tensor_shows_the_mode_and_hp_taken_away_at_the_end(players, mode):
    state = played(game(mode), players, 40 + players)
    lowest = 0.0
    for viewer in range(players):
        vector = observation_tensor(state, viewer)
        assert seat_part(vector, 0, "advanced")[0] == (mode == "advanced")
        lowest = min(lowest, vector.min())
    assert lowest < 0                                       # harmony (and often hunger) take HP away at the end


def test_every_seat_sees_the_same_view_apart_from_whose_it_is():
    state = played(game("advanced"), 4, 3, 150)
    first = state.observation(0)
    for viewer in range(4):
        assert state.observation(viewer) == dict(first, viewer=viewer)


@pytest.mark.parametrize(("players", "mode", "decisions"), [
    (2, "normal", 0), (2, "advanced", 150), (3, "normal", 120), (3, "advanced", 260), (4, "normal", 350),
    (4, "advanced", 60),
])
def test_determinizing_changes_hidden_information_but_not_the_tensor(players, mode, decisions):
    state = played(game(mode), players, 7 + players, decisions)
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
    state = played(game("normal"), 3, 4, 40)
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


def test_player_slots_hold_each_seats_coins_home_food_and_spirits_and_the_temples_its_incense():
    state = played(game("normal"), 4, 3, 230)
    obs = state.observation(0)
    for viewer in range(4):
        vector = observation_tensor(state, viewer)
        for slot in range(4):
            seat = (viewer + slot) % 4
            pl = obs["pl"][seat]
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
        assert part(vector, "start_player").argmax() == (obs["start_seat"] - viewer) % 4


def test_only_the_two_player_ghost_has_incense():
    two = played(game(), 2, 5, 150)
    ghost = part(observation_tensor(two, 1), "incense").reshape(4, 5)[:, 4]
    assert list(ghost) == [two.observation(0)["incense"][t][4] for t in range(4)] and ghost.sum() > 0
    four = observation_tensor(played(game(), 4, 5, 150), 0)
    assert not part(four, "incense").reshape(4, 5)[:, 4].any()


def test_markets_stacks_and_food_are_encoded_from_the_view():
    state = played(game("advanced"), 3, 9, 240)                   # past a Winter: tiles lie known under the stacks
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


# =============================================================================
# The adapters
# =============================================================================
def test_openspiel_mode_is_a_parameter(pyspiel, openspiel_adapter):
    advanced = pyspiel.load_game("python_bamboo", {"players": 3, "seed": 4, "mode": "advanced"})
    assert advanced.game.mode == "advanced"
    assert advanced.new_initial_state().engine.observation(0)["pl"][0]["advanced"] == 1
    with pytest.raises(Exception, match="mode must be one of normal, advanced"):
        pyspiel.load_game("python_bamboo", {"mode": "nighttime"})


@pytest.mark.parametrize("players", [2, 3])
def test_openspiel_returns_split_a_shared_victory_and_rewards_come_only_at_the_end(pyspiel, openspiel_adapter, players):
    seed, actions = tied_game(players)
    state = openspiel_adapter.load(players=players, game="bamboo").new_initial_state(seed)
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


def test_openspiel_information_state_names_the_spirits_and_gifts_seen(pyspiel, openspiel_adapter):
    state = openspiel_adapter.load(players=2, seed=9, game="bamboo").new_initial_state()
    rng = random.Random(9)
    seen_before = state.record().text(0)
    while state.engine.round == 1:
        state.apply_action(rng.choice(state.legal_actions()))
    seen_since = state.record().text(0).removeprefix(seen_before)
    assert "spirits " in seen_since and "gifts " in seen_since


def test_pettingzoo_shows_the_text_board_and_refuses_an_unknown_mode(pettingzoo_adapter):
    shown = pettingzoo_adapter.raw_env(game="bamboo", players=2, render_mode="ansi")
    shown.reset(seed=1)
    assert shown.render().startswith("Round 1, set-up") and "ghost" in shown.render()
    with pytest.raises(ValueError, match="option mode must be one of normal, advanced"):
        pettingzoo_adapter.raw_env(game="bamboo", mode="nighttime")


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_win_rewards_split_a_shared_victory(pettingzoo_adapter, players):
    totals, raw = play_aec(pettingzoo_adapter.env(game="bamboo", players=players), seed=4)
    assert [totals[f"player_{s}"] for s in range(players)] == raw.game_state.returns()
    seed, actions = tied_game(players)
    totals, raw = play_aec(pettingzoo_adapter.env(game=FixedDeal(seed), players=players), seed=0,
                           actions=list(actions))
    winners = raw.game_state.ranks().count(1)
    assert winners > 1
    assert [totals[f"player_{s}"] for s in range(players)] == raw.game_state.returns() == win_shares(raw.game_state)
    assert sorted(totals.values())[-winners:] == [1 / winners] * winners


def test_gymnasium_make_passes_the_mode_to_the_game(gymnasium_adapter):
    import gymnasium

    env = gymnasium.make("borabora_sim/Bamboo-v0", opponents=["random", "random"], seat=2, mode="advanced")
    obs, _ = env.reset(seed=3)
    assert env.unwrapped.game.mode == "advanced"
    assert seat_part(obs, 0, "advanced")[0] == 1
    env.close()


def test_gymnasium_win_reward_gives_each_winner_its_share_of_a_shared_victory(gymnasium_adapter):
    seed, actions = tied_game(3)
    replay = game().new_initial_state(3, seed)
    for action in actions:
        replay.apply(action)
    for seat in range(3):                                   # a winner and a loser of the shared victory
        shared = list(actions)
        env = gymnasium_adapter.GameEnv(FixedDeal(seed), opponents=[Replay(shared), Replay(shared)], seat=seat)
        total, info, _ = play_episode(env, 0, actions=shared)
        assert info["ranks"] == replay.ranks() and info["ranks"].count(1) == 2
        assert total == (0.5 if info["ranks"][seat] == 1 else 0.0)
        assert total == env.state.returns()[seat]
