"""Root-parallel MCTS (run_mcts(threads=k), MCTSPlayer(threads=k)): one thread is the single-threaded search
unchanged; k threads give the per-thread searches' root statistics added up by action, the same for the same seed;
bad thread counts are refused; both games."""

from __future__ import annotations

import hashlib
import random

import pytest
from conftest import played

from borabora_sim import _search
from borabora_sim.errors import ArgumentTypeError
from borabora_sim.games import get_game
from borabora_sim.players import MCTSPlayer, make_player
from borabora_sim.players.heuristic import weights_for
from borabora_sim.protocol import Game, GameState
from borabora_sim.simulate import seated_players

MASK = 2**64 - 1
# (game, players, seed, random moves played) of the positions searched below: mid-game in both games.
POSITIONS = [("bora_bora", 4, 11, 80), ("bora_bora", 2, 5, 40), ("bamboo", 4, 3, 60), ("bamboo", 2, 8, 30)]


def mix_seed(seed: int, index: int) -> int:
    """splitmix64's finaliser as cext/seeds.pxd has it: thread t > 0 of a search with seed s uses mix_seed(s, t)."""
    z = (seed + (index + 1) * 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def position(game_name: str, players: int, seed: int, moves: int) -> tuple[Game, GameState]:
    game = get_game(game_name)
    state = played(game, players, seed, moves)
    assert not state.is_terminal()
    return game, state


def searches(game: Game, state: GameState, threads: int | None) -> list[object]:
    """Three direct searches (random rollouts; heuristic cut-off rollouts with a margin; restricted root and a full
    tree) and a player's decision, with `threads` passed on unless it is None."""
    extra = {} if threads is None else {"threads": threads}
    handles, seat = state.search_handles(), state.current_player
    results: list[object] = [
        _search.run_mcts(handles, seat, iterations=300, seed=7, **extra),
        _search.run_mcts(handles, seat, iterations=200, seed=9, c_uct=1.1, heuristic_rollout=True, rollout_depth=8,
                         weights=weights_for(None, game=game), temperature=4.0, margin_weight=0.3, **extra),
        _search.run_mcts(handles, seat, iterations=150, seed=2, root_actions=state.legal_actions()[:2], max_nodes=50,
                         **extra),
    ]
    player = MCTSPlayer(iterations=250, seed=5, game=game, **extra)
    action = player.choose(state)
    results.append((action, [(s.action, s.visits, s.mean_value) for s in player.last_stats]))
    return results


# sha256 (first 16 hex digits) of repr() of each result of searches(), four per position, recorded with the
# single-threaded search before threads existed. A change to a game's rules or to the search itself changes them
# (record them again then, after checking that the commit before that change still gives them); threads must not.
# Bamboo's (positions 2 and 3) were recorded again for ruling B23 (Tanuki offered before the offering), after
# checking that the commit before it gave the old ones.
SINGLE_THREAD_DIGESTS = [
    "d09d715ca901eb50", "25f6d6665c79d6b4", "4afc58c2ce64215b", "bb9c4506673b3686",
    "946134e6653235ce", "bd93768e5b4ba755", "70d683f0cd34a396", "5d86db93be9256ea",
    "a146d9efcfea644b", "777819ae818f5947", "913e5e9020e08932", "558ef190f60d4094",
    "7665aa6bfb98b853", "c0a41abb49a1e540", "6f736606502ec984", "27d82b40e232d63d",
]


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_one_thread_is_the_single_threaded_search_byte_for_byte(index: int) -> None:
    game, state = position(*POSITIONS[index])
    default, one = searches(game, state, None), searches(game, state, 1)
    assert one == default
    digests = [hashlib.sha256(repr(result).encode()).hexdigest()[:16] for result in one]
    assert digests == SINGLE_THREAD_DIGESTS[4 * index:4 * index + 4]


@pytest.mark.parametrize("game_name", ["bora_bora", "bamboo"])
@pytest.mark.parametrize("threads", [2, 3])
def test_threads_add_up_the_searches_of_their_own_seeds_and_shares(game_name: str, threads: int) -> None:
    """k threads with seed s and n iterations = the one-thread searches with seeds s, mix_seed(s, 1), ... and
    n // k iterations each (the first n % k one more), their root visits and rewards summed by action."""
    _, state = position(*next(p for p in POSITIONS if p[0] == game_name))
    handles, seat, seed, total = state.search_handles(), state.current_player, 12345, 301
    done, merged = _search.run_mcts(handles, seat, iterations=total, seed=seed, threads=threads)
    visits: dict[int, int] = {}
    rewards: dict[int, float] = {}
    for t in range(threads):
        share = total // threads + (t < total % threads)
        part_done, part = _search.run_mcts(handles, seat, iterations=share, seed=seed if t == 0 else mix_seed(seed, t))
        assert part_done == share
        for action, count, mean in part:
            visits[action] = visits.get(action, 0) + count
            rewards[action] = rewards.get(action, 0.0) + count * mean
    assert done == total == sum(visits.values())
    assert {action: count for action, count, _ in merged} == visits
    assert {action: mean for action, _, mean in merged} == pytest.approx(
        {action: rewards[action] / visits[action] for action in visits}, rel=1e-12)
    assert [s[1] for s in merged] == sorted((s[1] for s in merged), reverse=True)


@pytest.mark.parametrize("budget", [{"iterations": 401}, {"iterations": 0, "seconds": 0.05}])
def test_merged_root_visits_sum_to_the_iterations_done(budget: dict[str, float]) -> None:
    _, state = position(*POSITIONS[0])
    done, stats = _search.run_mcts(state.search_handles(), state.current_player, seed=3, threads=2, **budget)
    assert done > 0 and sum(visits for _, visits, _ in stats) == done
    if "seconds" not in budget:
        assert done == budget["iterations"]


def test_more_threads_than_iterations_starts_only_the_threads_with_work() -> None:
    _, state = position(*POSITIONS[0])
    done, stats = _search.run_mcts(state.search_handles(), state.current_player, iterations=3, seed=3, threads=8)
    assert done == 3 and sum(visits for _, visits, _ in stats) == 3


@pytest.mark.parametrize("game_name", ["bora_bora", "bamboo"])
def test_a_threaded_player_chooses_legal_actions_the_same_for_the_same_seed(game_name: str) -> None:
    game = get_game(game_name)
    for spec in ("mcts:iterations=120,threads=2", "mcts:iterations=60,rollout=heuristic,rollout_depth=6,threads=2"):
        first, second = make_player(spec, seed=9, game=game), make_player(spec, seed=9, game=game)
        rng = random.Random(4)
        state = game.new_initial_state(players=3, seed=4)
        searched = 0
        while not state.is_terminal() and searched < 6:
            legal = state.legal_actions()
            action = first.choose(state)
            assert action in legal and second.choose(state) == action
            assert first.last_stats == second.last_stats
            if first.last_stats:
                searched += 1
                assert isinstance(first, MCTSPlayer)
                assert sum(s.visits for s in first.last_stats) == first.last_iterations == first.iterations
            state.apply(legal[rng.randrange(len(legal))])
        assert searched == 6


def test_threads_is_a_spec_option_and_shows_in_the_spec_and_the_explanation() -> None:
    player = make_player("mcts:seconds=0.02,threads=2", seed=1)
    assert isinstance(player, MCTSPlayer) and player.threads == 2
    assert player.spec().startswith("mcts:seconds=0.02,threads=2,")
    assert make_player(player.spec()).spec() == player.spec()
    _, state = position(*POSITIONS[0])
    player.choose(state)
    explanation = player.explain()
    assert explanation.startswith(f"{player.in_words()}: chose ")
    assert f"after {player.last_iterations} iterations" in explanation and player.last_iterations > 0
    assert "threads" not in make_player("mcts:iterations=10").spec()       # one thread: the spec of earlier runs


@pytest.mark.parametrize("bad", [0, -1, _search.THREADS_MAX + 1])
def test_thread_counts_out_of_range_are_refused(bad: int) -> None:
    _, state = position(*POSITIONS[0])
    allowed = rf"threads must be an integer in \[1, {_search.THREADS_MAX}\], got {bad}"
    with pytest.raises(ValueError, match=allowed):
        MCTSPlayer(iterations=10, threads=bad)
    with pytest.raises(ValueError, match=allowed):
        _search.run_mcts(state.search_handles(), state.current_player, iterations=10, threads=bad)
    with pytest.raises(ValueError, match=r"threads"):
        make_player(f"mcts:threads={bad}")


@pytest.mark.parametrize("bad", [1.5, True, "2", None])
def test_thread_counts_that_are_not_integers_are_refused(bad: object) -> None:
    with pytest.raises(ArgumentTypeError, match=r"threads must be an integer in \[1, 64\], got "):
        MCTSPlayer(iterations=10, threads=bad)  # type: ignore[arg-type]


def test_the_simulator_seats_single_threaded_searches_by_default() -> None:
    players = seated_players(["mcts:iterations=10", "mcts:seconds=0.01,c=0.5", "random"], game_seed=1)
    assert [getattr(player, "threads", 1) for player in players] == [1, 1, 1]
