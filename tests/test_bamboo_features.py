"""Bamboo's features for the learned evaluation (cext/bamboo_features.pxi, docs/learned.md): their names and layout,
their range, the evaluation's terms they hold, that they see nothing a seat cannot see, and the compiled search and
self-play running on them with a model.

Stated range: every feature of every state of the games played here (random and heuristic players, 2 to 4 players,
both modes) is a finite number within -RANGE..RANGE."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from borabora_sim import _bamboo, _search
from borabora_sim.games import get_game
from borabora_sim.games.bamboo import State, new_game, rules_for
from borabora_sim.players import make_player
from borabora_sim.players.heuristic import weights_for

G = _bamboo.FEATURE_NAMES_GLOBAL
S = _bamboo.FEATURE_NAMES_SEAT
N_FEATURES = len(G) + 4 * len(S)
RANGE = 3.0
NO_TILE = _bamboo.NO_TILE_ID


def features(state: State, viewer: int) -> np.ndarray:
    return _search.features(state.search_handles(), viewer)


def block(f: np.ndarray, k: int) -> dict[str, float]:
    """The k-th seat block of a feature vector (0: the viewer's), by name."""
    return dict(zip(S, f[len(G) + k * len(S): len(G) + (k + 1) * len(S)].tolist(), strict=True))


def game_states(players: int, seed: int, mode: str = "normal", every: int = 5, spec: str = "heuristic"
                ) -> list[State]:
    """Every `every`-th state (not terminal) of a game between `spec` players."""
    game = get_game("bamboo", mode=mode)
    state = new_game(players, seed, mode=mode)
    seats = [make_player(spec, seed=seed * 10 + s, game=game) for s in range(players)]
    states = []
    n = 0
    while not state.is_terminal():
        if n % every == 0:
            states.append(state.clone())
        state.apply(seats[state.current_player].choose(state))
        n += 1
    return states


def test_names_and_count() -> None:
    assert len(set(G)) == len(G) and len(set(S)) == len(S)
    assert 20 <= len(S) <= 40
    state = new_game(3, 1)
    assert features(state, 0).shape == (N_FEATURES,)
    model = _search.Model([(np.zeros((4, N_FEATURES)), np.zeros(4))], (np.zeros(4), 0.0))
    assert model.num_features == N_FEATURES
    assert _search.win_probabilities(state.search_handles(), model) == pytest.approx([1 / 3] * 3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), pick=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]),
       mode=st.sampled_from(["normal", "advanced"]))
def test_random_games_give_finite_features_within_the_stated_range(seed: int, pick: int, players: int,
                                                                   mode: str) -> None:
    state = new_game(players, seed, mode=mode)
    rng = random.Random(pick)
    while not state.is_terminal():
        for viewer in range(players):
            f = features(state, viewer)
            assert np.isfinite(f).all() and np.abs(f).max() <= RANGE, (viewer, state.move_count)
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("players", "mode"), [(2, "advanced"), (3, "normal"), (4, "normal"), (4, "advanced")])
def test_heuristic_games_give_finite_features_within_the_stated_range(players: int, mode: str) -> None:
    rows = np.array([features(s, v) for seed in range(3) for s in game_states(players, seed, mode, every=3)
                     for v in range(players)])
    assert np.isfinite(rows).all() and np.abs(rows).max() <= RANGE
    still = {name for name, high in zip(G, rows[:, :len(G)].max(axis=0), strict=True) if high == 0}
    assert still == {"phase_end", *(f"players_{n}" for n in (2, 3, 4) if n != players),
                     *(["ghost_incense"] if players > 2 else []), *([] if mode == "advanced" else ["advanced"])}
    seat_still = {name for name, high in zip(S, rows[:, len(G):len(G) + len(S)].max(axis=0), strict=True) if high == 0}
    assert seat_still <= {"night_uncovered"} and (mode == "normal") == (seat_still == {"night_uncovered"})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_viewer_block_comes_first_then_the_seats_after_it(players: int) -> None:
    for state in game_states(players, seed=players, every=11):
        scores = state.scores()
        views = [features(state, v) for v in range(players)]
        for viewer, f in enumerate(views):
            assert f[G.index("round")] == state.round / 4
            assert f[G.index(f"players_{players}")] == 1
            assert f[G.index(f"phase_{state.phase}")] == 1
            assert np.array_equal(f[:len(G)], views[0][:len(G)])       # the game's features are everyone's
            for k in range(players):
                seat = (viewer + k) % players
                assert block(f, k)["hp"] * 30 == pytest.approx(scores[seat])
                assert block(f, k)["to_move"] == (state.current_player == seat)
                assert block(f, k) == block(views[seat], 0)            # nothing hidden: a seat looks the same to all


@pytest.mark.parametrize("players", [2, 3])
def test_the_seats_a_smaller_game_lacks_are_zero(players: int) -> None:
    for state in game_states(players, seed=7, every=13):
        for viewer in range(players):
            f = features(state, viewer)
            assert not f[len(G) + players * len(S):].any()
            assert all(f[len(G) + k * len(S): len(G) + (k + 1) * len(S)].any() for k in range(players))


def test_the_blocks_hold_the_evaluation_terms_unweighted() -> None:
    """The evaluation (bamboo_eval.pxi) with one weight at 1 and the others at 0, less the one with all at 0, is
    that weight's term: the matching features times their scale."""
    names = _bamboo.WEIGHT_NAMES
    spirit_hp = new_game(2, 1).components.scoring["spirit_type_hp"]

    def value(state: State, weight: str | None) -> list[float]:
        w = np.zeros(len(names))
        if weight is not None:
            w[names.index(weight)] = 1.0
        return _bamboo.evaluate_state(state, w)

    for mode in ("normal", "advanced"):
        for state in game_states(3, seed=5, mode=mode, every=2) + game_states(4, seed=6, mode=mode, every=2):
            base = value(state, None)
            terms = {name: [v - b for v, b in zip(value(state, name), base, strict=True)] for name in names}
            for seat in range(state.num_players):
                f = block(features(state, seat), 0)
                g = dict(zip(G, features(state, seat)[:len(G)].tolist(), strict=True))
                span = min(4 * g["summers_left"], 2) * 0.5
                expected = {
                    "hp": 30 * f["hp"],
                    "coin": 10 * f["coins"] * (g["summers_left"] > 0),
                    "incense": 7 * f["incense"] * g["phase_summer"],
                    "food": 15 * f["food_kept"],
                    "hunger": -15 * f["hunger"],
                    "comfort": 20 * f["comfort"] + 3 * f["pending_comfort"],
                    "harmony": -10 * f["harmony_open"],
                    "night_space": -10 * f["night_uncovered"],
                    "balance_met": 10 * f["balance_met_extra"] * f["acting"],
                    "spirit_kind": spirit_hp * 7 * f["spirit_kinds"],
                    "spirit_awake": span * 4 * f["spirits_awake"],
                    "majority": 4 * f["temples_led"] + spirit_hp * 4 * f["temples_led_new_kind"],
                    "pending": 4 * f["pending_activations"],
                    **{f"shoot_{icon}": span * 4 * f[f"shoots_{icon}"]
                       for icon in ("balance", "improve", "cook", "fund", "wild")},
                }
                for name, want in expected.items():
                    assert terms[name][seat] == pytest.approx(want, abs=1e-9), (name, seat, state.move_count)
                assert base[seat] == pytest.approx(10 * f["balance_met_half"] - 10 * f["harmony_loss"], abs=1e-9)


def _hidden_shuffled(state: State, seed: int) -> State:
    """`state` with everything no seat sees rearranged by hand: the unseen part of each home and balance stack
    (within its category), the food pile's order, the spirits under the face-up ones, and the chance seeds."""
    rng = random.Random(seed)
    data = state.to_dict()
    d, seen = data["state"], state.observation(None)
    components = state.components
    for pile, category in (("home_pile", components.home_category), ("bal_pile", components.balance_side)):
        hidden = [i for i, (a, b) in enumerate(zip(d[pile], seen[pile], strict=True)) if a != b]
        for cat in set(int(category[d[pile][i]]) for i in hidden):
            slots = [i for i in hidden if category[d[pile][i]] == cat]
            tiles = [d[pile][i] for i in slots]
            rng.shuffle(tiles)
            for i, tile in zip(slots, tiles, strict=True):
                d[pile][i] = tile
    food = d["food_pile"][:d["food_left"]]
    rng.shuffle(food)
    d["food_pile"][:d["food_left"]] = food
    under = [(t, i) for t in range(4) for i in range(4)
             if seen["spirit_stack"][t][i] == NO_TILE and d["spirit_stack"][t][i] != NO_TILE]
    spirits = [d["spirit_stack"][t][i] for t, i in under]
    rng.shuffle(spirits)
    for (t, i), spirit in zip(under, spirits, strict=True):
        d["spirit_stack"][t][i] = spirit
    d["rng"], d["event_rng"] = f"{rng.getrandbits(64):016x}", f"{rng.getrandbits(64):016x}"
    return State.from_dict(data, rules_for())


def _without_seeds(state: State) -> dict[str, object]:
    d = dict(state.to_dict()["state"])
    del d["rng"], d["event_rng"]
    return d


@pytest.mark.parametrize(("players", "mode"), [(2, "normal"), (3, "advanced"), (4, "normal")])
def test_features_do_not_see_hidden_information(players: int, mode: str) -> None:
    """Resampling everything a seat cannot see (determinize for it, or a shuffle of the hidden parts by hand)
    leaves its features as they were, while the states differ."""
    changed = [0, 0]                                 # samples whose piles or spirits moved, by way of resampling
    tested = 0
    for state in game_states(players, seed=20 + players, mode=mode, every=4):
        for viewer in range(players):
            mine = features(state, viewer)
            for sample in range(3):
                for way, other in enumerate((state.determinize(viewer, 1000 + sample),
                                             _hidden_shuffled(state, sample))):
                    assert other.observation(viewer) == state.observation(viewer)
                    changed[way] += _without_seeds(other) != _without_seeds(state)
                    assert np.array_equal(features(other, viewer), mine), (viewer, state.move_count)
                    tested += 1
    assert min(changed) > tested // 4


@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_search_runs_with_a_model_on_bamboo(players: int) -> None:
    rng = np.random.default_rng(players)
    hidden = 16
    model = _search.Model([(rng.normal(0, 0.3, (hidden, N_FEATURES)), rng.normal(0, 0.1, hidden))],
                          (rng.normal(0, 0.3, hidden), 0.1))
    for state in game_states(players, seed=3, every=40)[1:4]:
        handles = state.search_handles()
        p = _search.win_probabilities(handles, model)
        assert len(p) == players and sum(p) == pytest.approx(1.0) and all(0 < x < 1 for x in p)
        done, stats = _search.run_mcts(handles, state.current_player, iterations=60, rollout_depth=0, model=model,
                                       seed=1)
        assert done == 60 and stats and stats[0][0] in state.legal_actions()
        assert all(0.0 <= v <= 1.0 for _, _, v in stats)
        again = _search.run_mcts(handles, state.current_player, iterations=60, rollout_depth=0, model=model, seed=1)
        assert again == (done, stats)
        done, stats = _search.run_mcts(handles, state.current_player, iterations=30, rollout_depth=5,
                                       heuristic_rollout=True, weights=weights_for("balanced",
                                                                                    game=get_game("bamboo")),
                                       model=model, seed=2)
        assert done == 30 and stats[0][0] in state.legal_actions()


def test_self_play_records_bamboo_features() -> None:
    game = get_game("bamboo")
    state = new_game(3, 4)
    w = np.array([weights_for("balanced", game=game)] * 3)
    x, returns, scores = _search.self_play(state.search_handles(), w, seed=2, keep=0.3)
    assert x.shape[1:] == (3, N_FEATURES) and len(x) > 5
    assert np.isfinite(x).all() and np.abs(x).max() <= RANGE
    assert sum(returns) == pytest.approx(1.0) and len(scores) == 3
