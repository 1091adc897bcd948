"""Policy-and-value networks (borabora_sim.network), the expert player and PUCT search (mcts:evaluation=net): the
compiled inference against numpy, files, the trainer's gradients, and the players' choices and refusals."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

from borabora_sim import _search
from borabora_sim.games import game_names, get_game, record_of
from borabora_sim.network import (
    FitConfig,
    Network,
    Samples,
    _network,
    _params,
    fit,
    initial_network,
    load_network,
    losses_and_gradients,
    network_path,
)
from borabora_sim.players import make_player
from borabora_sim.players.expert import ExpertPlayer
from borabora_sim.players.heuristic import weights_for
from borabora_sim.players.search import MCTSPlayer
from borabora_sim.protocol import Game, GameState

GAMES = ("bora_bora", "bamboo")         # the games with learned features


def random_network(game: Game, hidden: tuple[int, ...] = (12, 8), seed: int = 0) -> Network:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=1)
    features = len(_search.features(state.search_handles(), 0))
    layers, inputs = [], features
    for units in hidden:
        layers.append((rng.normal(0, 0.3, (units, inputs)), rng.normal(0, 0.1, units)))
        inputs = units
    return Network(tuple(layers), (rng.normal(0, 0.5, inputs), 0.1),
                   (rng.normal(0, 0.5, inputs), rng.normal(0, 0.2, game.num_actions)),
                   rng.normal(0, 0.1, features), rng.uniform(0.5, 2.0, features), rng.normal(0, 0.1, features))


def mid_game(game: Game, players: int = 4, moves: int = 25, seed: int = 2) -> GameState:
    state = game.new_initial_state(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def policy_of(state: GameState, model: _search.Model, seed: int) -> dict[int, float]:
    return dict(_search.policy(state.search_handles(), model, seed))


def numpy_trunk(net: Network, x: np.ndarray) -> np.ndarray:
    h = (x - net.mean) / net.scale
    for w, b in net.layers:
        h = np.tanh(h @ w.T + b)
    return h


def numpy_policy(net: Network, after: np.ndarray, actions: list[int], values: np.ndarray | None = None) -> np.ndarray:
    """The policy over `actions` whose afterstates have the features `after` (and the mover's heuristic values
    `values`): hidden layers, biases, linear part, heuristic term."""
    assert net.policy is not None and net.policy_linear is not None
    x = after.astype(np.float64)
    logits = numpy_trunk(net, x) @ net.policy[0] + net.policy[1][actions] + (x - net.mean) / net.scale @ \
        net.policy_linear
    if net.policy_heuristic is not None:
        assert values is not None
        logits += net.policy_heuristic * values
    p = np.exp(logits - logits.max())
    result: np.ndarray = p / p.sum()
    return result


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Game:
    return get_game(request.param)


@pytest.fixture(scope="module")
def network_file(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("network") / "net.npz"
    random_network(game).save(path)
    return path


@pytest.mark.parametrize("hidden", [(12,), (12, 8)])
def test_compiled_value_and_policy_match_numpy(game: Game, hidden: tuple[int, ...]) -> None:
    net = random_network(game, hidden)
    model = net.compiled()
    state = mid_game(game)
    handles = state.search_handles()
    x = np.array([_search.features(handles, s) for s in range(state.num_players)])
    logits = numpy_trunk(net, x) @ net.value[0] + net.value[1]
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert np.allclose(_search.win_probabilities(handles, model), expected, atol=1e-5)
    assert net.policy is not None
    actions, after, values = _search.afterstate_features(handles, seed=9)
    assert not values.any()
    compiled = _search.policy(handles, model, seed=9)
    assert [a for a, _ in compiled] == actions == state.legal_actions()
    assert np.allclose([p for _, p in compiled], numpy_policy(net, after, actions), atol=1e-5)
    without_linear = dataclasses.replace(net, policy_linear=None)
    assert not np.allclose([p for _, p in _search.policy(handles, without_linear.compiled(), seed=9)],
                           numpy_policy(net, after, actions), atol=1e-5)


def finishing(game: Game, net: Network, heuristic: float | None = None) -> Network:
    """`net`, judging each move after the rest of the mover's turn played by the game's default heuristic (and
    adding `heuristic` times the mover's heuristic value there)."""
    return dataclasses.replace(net, finish=weights_for(game.default_style, game=game), policy_heuristic=heuristic)


def compound_move_state(game: Game) -> GameState:
    """A state in which some legal move leaves the same seat to move (a compound move), from heuristic play."""
    for seed in range(50):
        state = game.new_initial_state(players=4, seed=seed)
        player = make_player("heuristic", seed=seed, game=game)
        for _ in range(200):
            mover = state.current_player
            for action in state.legal_actions():
                after = state.clone()
                after.apply(action)
                if not after.is_terminal() and after.current_player == mover and len(state.legal_actions()) > 2:
                    return state
            state.apply(player.choose(state))
    raise AssertionError("no compound move in 50 games")


def test_a_finishing_policy_judges_the_state_after_the_rest_of_the_turn(game: Game) -> None:
    """With finish weights, the compiled policy reads the features `afterstate_features` gives with the same
    weights (what training reads), and those differ from the state a compound move leads to at once."""
    state = compound_move_state(game)
    handles = state.search_handles()
    actions, at_once, _ = _search.afterstate_features(handles, seed=9)
    for heuristic in (None, 0.3):
        net = finishing(game, random_network(game), heuristic)
        same, finished, values = _search.afterstate_features(handles, seed=9, finish=net.finish)
        assert same == actions and not np.array_equal(at_once, finished) and len(set(values.tolist())) > 1
        compiled = _search.policy(handles, net.compiled(), seed=9)
        assert np.allclose([p for _, p in compiled], numpy_policy(net, finished, actions, values), atol=1e-5)


def test_finish_weights_of_the_wrong_length_are_refused(game: Game) -> None:
    net = dataclasses.replace(random_network(game), finish=np.ones(3))
    state = mid_game(game)
    with pytest.raises(ValueError, match="finishes turns with 3 heuristic weights, the game's heuristic has"):
        _search.policy(state.search_handles(), net.compiled())
    with pytest.raises(ValueError, match="finish weights need a policy head"):
        dataclasses.replace(net, policy=None).compiled()
    with pytest.raises(ValueError, match="the heuristic's weight in the policy must be finite and needs finish"):
        dataclasses.replace(net, finish=None, policy_heuristic=0.5).compiled()
    with pytest.raises(ValueError, match=r"the policy's linear part must have one weight per feature \(\d+\), got "
                                          r"shape \(3,\)"):
        _search.Model(net.layers, net.value, (*net.policy, np.ones(3)))


@pytest.mark.parametrize("finish", [False, True], ids=["at once", "finished turn"])
def test_the_policy_reads_only_what_the_mover_sees(game: Game, finish: bool) -> None:
    """Two states that differ only in what the player to move cannot see get the same policy from the same seed."""
    net = random_network(game)
    model = (finishing(game, net) if finish else net).compiled()
    state = mid_game(game)
    mover = state.current_player
    for seed in range(5):
        other = state.determinize(mover, 1000 + seed)
        assert policy_of(other, model, 4) == pytest.approx(policy_of(state, model, 4))


@pytest.mark.parametrize("finish", [False, True], ids=["at once", "finished turn"])
def test_a_network_file_round_trips(game: Game, finish: bool, tmp_path: Path) -> None:
    net = finishing(game, random_network(game), 0.25) if finish else random_network(game)
    net.save(tmp_path / "n.npz")
    back = load_network(tmp_path / "n.npz")
    assert back.hidden == net.hidden and back.num_features == net.num_features
    if finish:
        assert back.policy_heuristic == back.compiled().heuristic == 0.25
        assert np.array_equal(back.compiled().finish, net.finish)
    else:
        assert back.compiled().finish is None and back.policy_heuristic is None
    state = mid_game(game)
    assert policy_of(state, back.compiled(), 3) == pytest.approx(policy_of(state, net.compiled(), 3))


def test_a_malformed_network_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, layer0_w=np.zeros((2, 3)))
    with pytest.raises(ValueError, match="is not a network file: it holds the arrays layer0_w"):
        load_network(path)
    np.savez(path, layer0_w=np.zeros((2, 3)), layer0_b=np.zeros(2), value_w=np.zeros(2), value_b=np.zeros(()),
             mean=np.zeros(4), scale=np.ones(4))
    with pytest.raises(ValueError, match="mean and scale must hold one value per feature"):
        load_network(path)
    np.savez(path, layer0_w=np.zeros((2, 3)), layer0_b=np.zeros(2), value_w=np.zeros(5), value_b=np.zeros(()),
             mean=np.zeros(3), scale=np.ones(3))
    with pytest.raises(ValueError, match="value head must have one value per hidden unit"):
        load_network(path)


def tiny_samples(seed: int = 0) -> Samples:
    rng = np.random.default_rng(seed)
    n, seats, features, actions = 6, 4, 5, 9
    players = np.array([4, 3, 2, 4, 3, 2], np.int8)
    x = rng.normal(size=(n, seats, features))
    for i in range(n):
        x[i, players[i]:] = 0
    returns = np.zeros((n, seats))
    returns[np.arange(n), [1, 0, 1, 2, 2, 0]] = 1
    lengths = np.array([2, 3, 2, 4, 3, 2])
    first = np.concatenate([[0], np.cumsum(lengths)])
    target = np.zeros(first[-1])
    for i in range(n):
        if i != 2:                                  # a position without a policy target
            share = rng.random(lengths[i])
            target[first[i]:first[i + 1]] = share / share.sum()
    return Samples(x, players, np.array([0, 2, 1, 3, 0, 1], np.int8), returns, first,
                   rng.normal(size=(first[-1], features)), rng.integers(0, actions, first[-1]).astype(np.int16),
                   target, rng.normal(size=first[-1]))


def test_the_trainers_gradients_are_those_of_its_loss() -> None:
    """Central differences of value loss + 0.7 policy loss against the analytic gradient, every weight."""
    samples = tiny_samples()
    net = initial_network(5, 9, FitConfig(hidden=(4, 3), heuristic=True), samples.x)
    assert net.policy_linear is not None and net.policy_heuristic is not None
    params = _params(net)
    _, _, grads = losses_and_gradients(net, samples, 0.7)

    def loss(values: list[np.ndarray]) -> float:
        value, policy, _ = losses_and_gradients(_network(net, values), samples, 0.7, False)
        return value + 0.7 * policy

    for k, array in enumerate(params):
        for index in np.ndindex(array.shape):
            moved = [a.copy() for a in params]
            moved[k][index] += 1e-6
            up = loss(moved)
            moved[k][index] -= 2e-6
            assert (up - loss(moved)) / 2e-6 == pytest.approx(grads[k][index], abs=1e-7)


def test_samples_are_taken_and_joined_with_their_afterstates() -> None:
    samples = tiny_samples()
    part = samples.take(np.array([3, 1]))
    assert part.first.tolist() == [0, 4, 7]
    assert part.action.tolist() == samples.action[7:11].tolist() + samples.action[2:5].tolist()
    joined = Samples.join([samples, part])
    assert len(joined) == 8 and joined.first[-1] == len(joined.after) == 16 + 7
    assert joined.action[16:].tolist() == part.action.tolist()


def test_sharpened_targets_lean_to_the_most_likely_move() -> None:
    samples = tiny_samples()
    sharp = samples.sharpened(4.0)
    for i in range(len(samples)):
        rows = slice(samples.first[i], samples.first[i + 1])
        before, after = samples.target[rows], sharp.target[rows]
        if before.sum() == 0:                       # the position without a target keeps none
            assert after.sum() == 0
            continue
        assert after.sum() == pytest.approx(1.0) and np.argmax(after) == np.argmax(before)
        assert after.max() > before.max() and np.allclose(after, before**4 / (before**4).sum())
    assert samples.sharpened(1.0) is samples


def test_fitting_learns_a_policy_it_is_shown() -> None:
    """Targets that always favour the afterstate with the larger first feature are learned: the fitted policy
    puts most of its weight there on positions it was not trained on."""
    rng = np.random.default_rng(3)

    def make(n: int) -> Samples:
        lengths = rng.integers(2, 5, n)
        first = np.concatenate([[0], np.cumsum(lengths)])
        after = rng.normal(size=(first[-1], 5))
        target = np.zeros(first[-1])
        for i in range(n):
            target[first[i] + np.argmax(after[first[i]:first[i + 1], 0])] = 1
        x = rng.normal(size=(n, 2, 5))
        returns = np.zeros((n, 2))
        returns[np.arange(n), (x[:, 0, 0] < x[:, 1, 0]).astype(int)] = 1
        return Samples(x, np.full(n, 2, np.int8), np.zeros(n, np.int8), returns, first, after,
                       rng.integers(0, 3, first[-1]).astype(np.int16), target, np.zeros(first[-1]))

    train, held = make(3000), make(300)
    net, curve = fit(train, held, FitConfig(hidden=(16,), epochs=20, batch=64, seed=1), actions=3)
    _, policy_loss, _ = losses_and_gradients(net, held, 1.0, False)
    assert curve[-1]["policy_loss"] < curve[0]["policy_loss"]
    assert policy_loss < 0.35             # a uniform policy over 2-4 actions scores about 1.0


def test_the_expert_plays_the_policys_most_likely_move(game: Game, network_file: Path) -> None:
    expert = ExpertPlayer(seed=1, network=str(network_file), game=game)
    state = mid_game(game)
    action = expert.choose(state)
    options = expert.last_options
    assert action == options[0].action and options[0].value == max(o.value for o in options)
    assert sum(o.value for o in options) == pytest.approx(1.0)
    assert "chose" in expert.explain() and "preference" in expert.explain()


def test_the_network_is_an_option_of_the_spec(game: Game, network_file: Path) -> None:
    expert = make_player(f"expert:network={network_file}", game=game)
    assert expert.spec() == f"expert:network={network_file}"
    with pytest.raises(ValueError, match=r"network=x\.npz is the network of evaluation=net"):
        make_player("mcts:network=x.npz")
    with pytest.raises(ValueError, match=r"the network file missing\.npz cannot be read: No such file"):
        make_player("expert:network=missing.npz")


def test_a_network_without_a_policy_head_is_refused_for_the_expert(game: Game, network_file: Path,
                                                                   tmp_path: Path) -> None:
    value_only = tmp_path / "value_only.npz"
    dataclasses.replace(load_network(network_file), policy=None, policy_linear=None).save(value_only)
    with pytest.raises(ValueError, match=re.escape(f"the network {value_only} has no policy head: the expert player "
                                                   "needs one; give network=FILE")):
        make_player(f"expert:network={value_only}", game=game)


def test_a_game_without_a_network_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import borabora_sim.games as registry

    record = registry.record_of("pig")
    monkeypatch.setitem(registry._RECORDS, "pig", dataclasses.replace(record, network=None))
    with pytest.raises(ValueError, match="the game 'pig' has no network yet: train one with borabora train --game pig"):
        make_player("expert", game=get_game("pig"))


def stats_choice(player: MCTSPlayer) -> int:
    assert player.last_choice is not None
    return player.last_choice[0]


def test_puct_search_chooses_legal_moves_and_repeats_itself(game: Game, network_file: Path) -> None:
    state = mid_game(game)
    player = MCTSPlayer(iterations=300, seed=5, evaluation="net", network=str(network_file), game=game)
    again = MCTSPlayer(iterations=300, seed=5, evaluation="net", network=str(network_file), game=game)
    assert player.choose(state) == again.choose(state)
    assert player.last_stats == again.last_stats
    assert sum(s.visits for s in player.last_stats) == 300
    kinds = "".join(f",{kind}=normal" for kind in game.action_kinds)
    assert player.spec() == f"mcts:iterations=300,c=1.5,evaluation=net,network={network_file}{kinds}"
    assert make_player(player.spec(), seed=5, game=game).choose(state) == stats_choice(player)
    done, stats = _search.run_mcts(state.search_handles(), state.current_player, iterations=400, seed=2,
                                   model=load_network(network_file).compiled(), c_puct=1.5, noise_alpha=0.3,
                                   threads=2)
    assert done == 400 and {a for a, _, _ in stats} <= set(state.legal_actions())


def test_a_prior_from_the_network_guides_the_rollout_search(game: Game, network_file: Path) -> None:
    state = mid_game(game)
    rollouts = "rollout=heuristic,rollout_depth=10"
    spec = f"mcts:iterations=300,{rollouts},prior=net,network={network_file}"
    player, again = (make_player(spec, seed=5, game=game) for _ in range(2))
    assert player.choose(state) == again.choose(state) and player.last_stats == again.last_stats
    assert sum(s.visits for s in player.last_stats) == 300
    assert "prior=net" in player.spec() and player.spec().startswith("mcts:iterations=300,c=1.5,")
    assert make_player(player.spec(), seed=5, game=game).choose(state) == stats_choice(player)
    uct = make_player(f"mcts:iterations=300,{rollouts}", seed=5, game=game)
    uct.choose(state)
    assert [(s.action, s.visits) for s in uct.last_stats] != [(s.action, s.visits) for s in player.last_stats]
    assert "the network's policy guiding which moves they tried" in player.explain()
    done, stats = _search.run_mcts(state.search_handles(), state.current_player, iterations=200, seed=2,
                                   model=load_network(network_file).compiled(), c_puct=1.5, rollout_leaves=True,
                                   threads=2)
    assert done == 200 and {a for a, _, _ in stats} <= set(state.legal_actions())


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:prior=net,evaluation=net", "with evaluation=net leave it out"),
    ("mcts:prior=net,evaluation=learned,rollout_depth=5", "with evaluation=learned leave it out"),
    ("mcts:prior=policy", "option prior: must be one of none, net"),
])
def test_a_prior_needs_the_heuristic_to_judge_the_cut_offs(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_player(spec, game=get_game("bora_bora"))


def test_rollout_leaves_are_puct_s(game: Game, network_file: Path) -> None:
    state = mid_game(game)
    with pytest.raises(ValueError, match="rollout_leaves judges PUCT's leaves by rollouts: give c_puct > 0"):
        _search.run_mcts(state.search_handles(), 0, iterations=10, rollout_leaves=True,
                         model=load_network(network_file).compiled())


@pytest.mark.parametrize("option", ["rollout=heuristic", "rollout_depth=3", "temperature=5", "style=builder",
                                    "margin=0.2"])
def test_rollout_options_are_refused_with_the_network(option: str) -> None:
    with pytest.raises(ValueError, match="has no effect with evaluation=net"):
        MCTSPlayer(iterations=10, evaluation="net", game=get_game("bora_bora"), **dict([_parse(option)]))


def _parse(option: str) -> tuple[str, object]:
    key, value = option.split("=")
    return key, float(value) if key in ("temperature", "margin") else int(value) if key == "rollout_depth" else value


def test_flat_monte_carlo_has_no_network_search() -> None:
    with pytest.raises(ValueError, match="evaluation=net is PUCT"):
        make_player("flatmc:evaluation=net")


def test_root_noise_needs_puct(game: Game) -> None:
    state = mid_game(game)
    with pytest.raises(ValueError, match="root noise"):
        _search.run_mcts(state.search_handles(), 0, iterations=10, noise_alpha=0.3)


def test_the_root_values_are_every_seats_mean_reward(game: Game, network_file: Path) -> None:
    state = mid_game(game)
    me = state.current_player
    for options in ({"model": load_network(network_file).compiled(), "c_puct": 1.5}, {}):
        done, stats, root = _search.run_mcts(state.search_handles(), me, iterations=300, seed=3, threads=2,
                                             root_values=True, **options)
        assert len(root) == state.num_players and sum(root) == pytest.approx(1.0)
        assert root[me] == pytest.approx(sum(visits * mean for _, visits, mean in stats) / done)


@pytest.mark.parametrize("name", game_names())
def test_every_game_ships_a_network_with_the_command_that_made_it(name: str) -> None:
    game = get_game(name)
    if record_of(name).network is None:
        with pytest.raises(ValueError, match=f"the game '{name}' has no network") as refused:
            make_player("expert", game=game)
        assert "\n" not in str(refused.value)
        pytest.skip(f"{name} ships no network (its record names none): the expert player is refused for it")
    path = network_path(game)
    summary = json.loads(path.with_suffix(".json").read_text())
    assert summary["command"].startswith(f"borabora train --game {name} ")
    final = summary["best"].startswith("final-")                          # a final fit is the last entry
    best = summary["generations"][-1] if final else \
        next(g for g in summary["generations"] if f"gen{g['generation']:02d}" == summary["best"])
    assert best["kept"] and all(g["kept"] == (g["gate"] is None or g["gate"]["ci_low"] > g["gate"].get("fair_share", 0))
                                for g in summary["generations"])      # a field gate's interval is of a difference
    expert = make_player("expert", seed=1, game=game)
    state = game.new_initial_state(seed=2)
    while not state.is_terminal():
        state.apply(expert.choose(state))
    assert state.winner() is not None


def test_the_expert_preferring_a_kind_takes_its_move_when_at_least_a_quarter_as_likely_as_the_best() -> None:
    """A policy's probability is a preference, not a win chance: `prefer` takes the kind's most likely move when it is
    at least a quarter as likely as the policy's best, and says so in `explain()`; a less likely one is passed over
    (taking it whenever legal would have the player fish at every turn)."""
    from borabora_sim import new_game
    from borabora_sim.games.bora_bora.game import is_fishing

    preferring = make_player("expert:fishing=prefer", seed=3)
    assert "at least a quarter as likely as the best option" in \
        ExpertPlayer.params(get_game("bora_bora"))["fishing"].help
    moved = passed_over = 0
    for seed in range(11, 15):
        state = new_game(seed=seed)
        while not state.is_terminal():
            action = preferring.choose(state)
            options = preferring.last_options
            if options:
                best = options[0].value
                near = [o for o in options if is_fishing(o.action) and o.value >= 0.25 * best]
                if near and not is_fishing(options[0].action) and options[1].value < best:
                    moved += 1
                    assert action == near[0].action and "at least a quarter as likely as" in preferring.explain()
                elif not near:
                    passed_over += any(is_fishing(o.action) for o in options)
                    assert [o.value for o in options if o.action == action] == [best]
            state.apply(action)
    assert moved > 0 and passed_over > 0, (moved, passed_over)
