"""The AI players: legal and deterministic choices, no use of hidden information, spec parsing, the MCTS
explanation and time budget, the heuristic's fishing switch, and a floor on playing strength.

Budgets are small (MCTS 30-100 iterations, flat MC a few rollouts) so that the whole file runs in seconds.
"""

from __future__ import annotations

import copy
import hashlib
import random
import time

import numpy as np
import pytest

import borabora_sim
from borabora_sim.games import get_game
from borabora_sim.match import play_game
from borabora_sim.players import (
    PLAYER_TYPES,
    STYLES,
    WEIGHT_NAMES,
    FlatMCPlayer,
    HeuristicPlayer,
    MCTSPlayer,
    Player,
    RandomPlayer,
    make_player,
    weights_for,
)

FISHING_ACTIONS = frozenset(range(0, 48, 8))          # "place v on fishing", v = 1..6 (A_PLACE + ACT_FISH)

# One cheap spec of every player type and every heuristic style.
CHEAP_SPECS = [
    "random",
    *(f"heuristic:style={style}" for style in STYLES),
    "heuristic:thorough=false",
    "flatmc:rollouts=3",
    "flatmc:rollouts=2,rollout=heuristic,rollout_depth=15",
    "mcts:iterations=40",
    "mcts:iterations=30,rollout=heuristic,rollout_depth=20,margin=0.5,c=1.2",
    "learned",
    "mcts:iterations=30,rollout_depth=0,evaluation=learned",
]


# ---------------------------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------------------------
def random_game_states(players: int, seed: int, every: int = 1):
    """Clones of the states of one game played by uniformly random moves, every `every`-th decision."""
    rng = random.Random(seed)
    state = borabora_sim.new_game(players, seed=seed)
    i = 0
    while not state.is_terminal():
        if i % every == 0:
            yield state.clone()
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        i += 1


def heuristic_game_states(players: int, seed: int):
    """Clones of every decision state of one game between balanced heuristic players."""
    seats = [HeuristicPlayer(seed=seed * 10 + i) for i in range(players)]
    state = borabora_sim.new_game(players, seed=seed)
    while not state.is_terminal():
        yield state.clone()
        state.apply(seats[state.current_player].choose(state))


def hidden_of(raw: dict, seat: int) -> list[int]:
    """Cards of `seat`'s hand that the other players do not know, by colour."""
    pl = raw["pl"][seat]
    return [h - k for h, k in zip(pl["hand"], pl["known"], strict=True)]


def mid_game_positions(players: int, seed: int, count: int, decisions: tuple[str, ...] = ("die", "phase_b")):
    """`count` states from rounds 2-4 of a heuristic game, waiting on one of `decisions`, with at least
    three legal actions, hidden cards in another seat's hand and a God pile holding another colour."""
    found = []
    for state in heuristic_game_states(players, seed):
        if not 2 <= state.round <= 4 or state.decision not in decisions or len(state.legal_actions()) < 3:
            continue
        raw = state.to_dict()["state"]
        me = state.current_player
        deck = set(raw["god_deck"][raw["deck_top"]:raw["deck_end"]])
        if any(any(n > 0 and deck - {c} for c, n in enumerate(hidden_of(raw, s)))
               for s in range(players) if s != me):
            found.append(state)
    step = max(1, len(found) // count)
    return found[::step][:count]


def rotated(pile: list[int], top: int, end: int) -> None:
    """Reorders pile[top:end] in place (moves the next card to the bottom)."""
    part = pile[top:end]
    if len(part) > 1:
        pile[top:end] = part[1:] + part[:1]


def hidden_variant(state: borabora_sim.State) -> tuple[borabora_sim.State, int]:
    """A state that differs from `state` only in what the player to move cannot see: in each other seat's hand
    (where possible) an unknown card is swapped with a God card of another colour from the draw pile (hand sizes
    and `known` kept), the remaining person, task and God piles are reordered, and the chance seed changes.
    Returns the state and a seat whose hand changed."""
    data = copy.deepcopy(state.to_dict())
    raw = data["state"]
    me = state.current_player
    deck = raw["god_deck"]
    changed = None
    for seat in range(raw["n_players"]):
        if seat == me:
            continue
        for colour, n in enumerate(hidden_of(raw, seat)):
            if n <= 0:
                continue
            i = next((i for i in range(raw["deck_top"], raw["deck_end"]) if deck[i] != colour), None)
            if i is None:
                continue
            hand = raw["pl"][seat]["hand"]
            hand[colour] -= 1
            hand[deck[i]] += 1
            deck[i] = colour
            changed = seat
            break
    assert changed is not None, "test position has no hidden card to swap"
    rotated(deck, raw["deck_top"], raw["deck_end"])
    for sex in range(2):
        rotated(raw["person_pile"][sex], raw["person_top"][sex], len(raw["person_pile"][sex]))
    rotated(raw["task_pile"], raw["task_top"], len(raw["task_pile"]))
    raw["rng"] = format(int(raw["rng"], 16) ^ 0x5DEECE66D1234ABC, "016x")
    return borabora_sim.State.from_dict(data, state.rules), changed


# ---------------------------------------------------------------------------------------------------------------
# every player returns a legal action and leaves the state alone
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_chooses_a_legal_action_without_changing_the_state(players):
    ais = [make_player(spec, seed=17) for spec in CHEAP_SPECS]
    asked = 0
    for state in random_game_states(players, seed=300 + players, every=9):
        before = state.to_dict()
        legal = state.legal_actions()
        for ai in ais:
            action = ai.choose(state)
            assert action in legal, f"{ai!r} chose {action} at {state.decision}; legal {legal}"
            assert isinstance(action, int)
            asked += 1
        assert state.to_dict() == before, "choose() modified the state it was given"
    assert asked >= 10 * len(ais)


def test_players_follow_the_player_protocol():
    for spec in CHEAP_SPECS:
        assert isinstance(make_player(spec, seed=1), Player)
    assert set(PLAYER_TYPES) == {"random", "heuristic", "learned", "flatmc", "mcts", "expert"}


def test_whole_games_between_different_players_finish_with_a_winner():
    for players in (2, 3, 4):
        seats = [make_player(spec, seed=i) for i, spec in enumerate(CHEAP_SPECS[:players])]
        record = play_game(seats, seed=41 + players)
        assert 0 <= record.winner < players
        assert record.scores[record.winner] == max(record.scores)
        assert len(record.counters) == players


# ---------------------------------------------------------------------------------------------------------------
# determinism
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", CHEAP_SPECS)
def test_same_spec_seed_and_state_give_the_same_action(spec):
    positions = mid_game_positions(4, seed=5, count=4)
    first = [make_player(spec, seed=99).choose(s) for s in positions]
    second = [make_player(spec, seed=99).choose(s) for s in positions]
    assert first == second


@pytest.mark.parametrize("spec", CHEAP_SPECS)
def test_reset_with_the_seed_restarts_the_player_stream(spec):
    positions = mid_game_positions(4, seed=6, count=4)
    ai = make_player(spec, seed=3)
    first = [ai.choose(s) for s in positions]
    ai.reset(3)
    assert [ai.choose(s) for s in positions] == first
    assert ai.seed == 3


def test_random_player_seed_changes_its_choices():
    positions = [s for s in random_game_states(4, seed=12, every=3) if len(s.legal_actions()) >= 4]
    a = [RandomPlayer(seed=1).choose(s) for s in positions]
    b = [RandomPlayer(seed=2).choose(s) for s in positions]
    assert a != b


def test_a_whole_game_replays_identically_from_the_same_seeds():
    def run():
        seats = [make_player(spec, seed=70 + i) for i, spec in
                 enumerate(["mcts:iterations=30", "heuristic:style=temple", "flatmc:rollouts=2", "random"])]
        return play_game(seats, seed=2024, keep_actions=True)
    a, b = run(), run()
    assert a.actions == b.actions
    assert a.scores == b.scores


# ---------------------------------------------------------------------------------------------------------------
# no peeking: hidden information of other seats cannot change a decision
# ---------------------------------------------------------------------------------------------------------------
NO_PEEK_SPECS = [
    "random",
    *(f"heuristic:style={style}" for style in STYLES),
    "heuristic:style=builder,fishing=prefer,thorough=false",
    "flatmc:rollouts=4",
    "flatmc:rollouts=3,rollout=heuristic,rollout_depth=25",
    "mcts:iterations=60",
    "mcts:iterations=40,rollout=heuristic,rollout_depth=20,margin=0.3",
    "mcts:iterations=40,fishing=never",
    "flatmc:rollouts=3,fishing=prefer",
]


@pytest.fixture(scope="module")
def peek_positions():
    positions = []
    for players, seed in ((4, 21), (3, 22), (2, 23)):
        positions += mid_game_positions(players, seed, count=2, decisions=("die", "phase_b", "helper", "task"))
    assert len(positions) >= 5
    return positions


def test_hidden_variant_changes_only_what_the_mover_cannot_see(peek_positions):
    for state in peek_positions:
        twin, seat = hidden_variant(state)
        me = state.current_player
        assert twin.check_invariants() is None
        assert twin.to_dict() != state.to_dict()
        assert twin.observation(me) == state.observation(me)
        assert twin.observation(seat) != state.observation(seat)    # that seat sees its own hand changed
        assert twin.legal_actions() == state.legal_actions()


def test_determinization_depends_only_on_the_observers_view(peek_positions):
    for state in peek_positions:
        twin, _ = hidden_variant(state)
        me = state.current_player
        for seed in (0, 1, 2**63 + 5):
            assert state.determinize(me, seed).to_dict() == twin.determinize(me, seed).to_dict()


class PeekingPlayer:
    """Reads the whole raw state, hidden parts included: the check below must catch it."""

    def choose(self, state):
        raw = state.to_dict()["state"]
        legal = state.legal_actions()
        hidden = (raw["rng"], raw["god_deck"][raw["deck_top"]:raw["deck_end"]], [p["hand"] for p in raw["pl"]])
        return legal[int(hashlib.sha256(repr(hidden).encode()).hexdigest(), 16) % len(legal)]


def test_no_peeking_check_catches_a_player_that_reads_hidden_information(peek_positions):
    cheat = PeekingPlayer()
    differs = [cheat.choose(s) != cheat.choose(hidden_variant(s)[0]) for s in peek_positions]
    assert any(differs)


@pytest.mark.parametrize("spec", NO_PEEK_SPECS)
def test_player_does_not_peek_at_hidden_cards_piles_or_future_dice(spec, peek_positions):
    for state in peek_positions:
        twin, _ = hidden_variant(state)
        for seed in (4, 5):
            assert make_player(spec, seed=seed).choose(state) == make_player(spec, seed=seed).choose(twin), (
                f"{spec} chose differently at {state.decision} (round {state.round}) when only hidden "
                "information of other seats changed")


# ---------------------------------------------------------------------------------------------------------------
# spec parsing
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "cls", "attrs"), [
    ("random", RandomPlayer, {}),
    ("heuristic", HeuristicPlayer, {"style": "balanced", "fishing": "normal", "thorough": True}),
    ("heuristic:style=builder,fishing=never", HeuristicPlayer, {"style": "builder", "fishing": "never"}),
    ("heuristic:style=temple,fishing=prefer,thorough=false", HeuristicPlayer,
     {"style": "temple", "fishing": "prefer", "thorough": False}),
    ("heuristic:style=expansion", HeuristicPlayer, {"style": "expansion"}),
    ("heuristic:w_vp=2,w_fish=0.25", HeuristicPlayer, {"overrides": {"vp": 2.0, "fish": 0.25}}),
    (" heuristic : style = builder ", HeuristicPlayer, {"style": "builder"}),
    ("flatmc", FlatMCPlayer, {"rollouts": 100, "rollout": "random"}),
    ("flatmc:rollouts=50", FlatMCPlayer, {"rollouts": 50}),
    ("flatmc:rollouts=5,rollout=heuristic,rollout_depth=30,margin=0.2,style=temple", FlatMCPlayer,
     {"rollouts": 5, "rollout": "heuristic", "rollout_depth": 30, "margin": 0.2, "style": "temple"}),
    ("mcts", MCTSPlayer, {"iterations": 1000, "c": 0.7, "rollout": "random", "rollout_depth": -1}),
    ("mcts:iterations=1000,rollout=heuristic", MCTSPlayer, {"iterations": 1000, "rollout": "heuristic"}),
    ("mcts:seconds=0.5", MCTSPlayer, {"seconds": 0.5, "iterations": 0}),
    ("mcts:iterations=300,fishing=never", MCTSPlayer, {"iterations": 300, "fishing": "never"}),
    ("flatmc:rollouts=20,fishing=prefer", FlatMCPlayer, {"rollouts": 20, "fishing": "prefer"}),
    ("mcts:iterations=250,c=1.4,rollout_depth=40,margin=0.5,style=builder", MCTSPlayer,
     {"iterations": 250, "c": 1.4, "rollout_depth": 40, "margin": 0.5, "style": "builder", "temperature": 10.0}),
    ("flatmc:rollout_depth=5,temperature=2.5", FlatMCPlayer, {"rollout_depth": 5, "temperature": 2.5}),
])
def test_make_player_accepts_the_documented_specs(spec, cls, attrs):
    ai = make_player(spec, seed=8)
    assert type(ai) is cls
    assert ai.seed == 8
    for key, value in attrs.items():
        assert getattr(ai, key) == value, key


def test_heuristic_spec_options_set_the_weight_vector():
    index = {name: i for i, name in enumerate(WEIGHT_NAMES)}
    ai = make_player("heuristic:style=builder,fishing=never,w_vp=2.5")
    expected = weights_for("builder", "never", vp=2.5)
    assert np.array_equal(ai.weights, expected)
    assert ai.weights[index["vp"]] == 2.5
    assert ai.weights[index["fishing"]] < 0
    assert make_player("heuristic:fishing=prefer").weights[index["fishing"]] > 0
    assert make_player("heuristic:fishing=normal").weights[index["fishing"]] == 0


PLAYER_LIST = "random, heuristic, flatmc, mcts, learned"


@pytest.mark.parametrize(("spec", "allowed"), [
    ("nosuch", PLAYER_LIST),
    ("MCTS", PLAYER_LIST),
    (":iterations=5", PLAYER_LIST),
    ("heuristic:colour=red", "style, fishing, thorough, w_vp"),
    ("heuristic:w_nosuch=1", "w_fishing"),
    ("random:seed=3", "options: none"),
    ("mcts:rollouts=5", "iterations, seconds, c, rollout, rollout_depth, margin, temperature, style, fishing"),
    ("flatmc:iterations=5", "rollouts, rollout, rollout_depth, margin, temperature, style, fishing"),
])
def test_make_player_rejects_unknown_names_and_options_listing_what_is_allowed(spec, allowed):
    with pytest.raises(ValueError) as info:
        make_player(spec)
    assert allowed in str(info.value)


BAD_VALUE_MESSAGES = [
    ("mcts:iterations=0", "positive integer"),
    ("mcts:iterations=-5", "positive integer"),
    ("flatmc:rollouts=0", "positive integer"),
    ("mcts:rollout=smart", "random, heuristic"),
    ("flatmc:style=x", "balanced, temple, builder, expansion"),
    ("heuristic:style=foo", "balanced, temple, builder, expansion"),
    ("heuristic:fishing=always", "never, normal, prefer"),
    ("heuristic:thorough=maybe", "true or false"),
    ("mcts:margin=2", "[0, 1]"),
    ("mcts:margin=-0.1", "[0, 1]"),
    ("flatmc:margin=2", "[0, 1]"),
    ("flatmc:margin=-1", "[0, 1]"),
    ("mcts:fishing=sometimes", "never, normal, prefer"),
    ("flatmc:fishing=always", "never, normal, prefer"),
]
NON_NUMBER_VALUES = [
    ("mcts:iterations=abc", "positive integer"),
    ("mcts:iterations=1.5", "positive integer"),
    ("mcts:iterations=", "positive integer"),
    ("flatmc:rollouts=many", "positive integer"),
    ("mcts:c=abc", "number"),
    ("mcts:rollout_depth=x", "integer"),
    ("heuristic:w_vp=abc", "number"),
]
OUT_OF_RANGE = [
    ("mcts:seconds=-1", "seconds"),
    ("mcts:seconds=0", "seconds > 0"),
    ("mcts:seconds=inf", "seconds"),
    ("mcts:c=nan", "c"),
    ("mcts:c=-1", "c"),
    ("mcts:rollout_depth=-2", "-1 (play rollouts to the end) or an integer >= 0"),
    ("flatmc:rollout_depth=-7", "-1 (play rollouts to the end) or an integer >= 0"),
    ("mcts:rollout_depth=5,temperature=0", "temperature must be a finite number > 0"),
    ("flatmc:rollout_depth=5,temperature=-2", "temperature must be a finite number > 0"),
]
CONTRADICTIONS = [
    ("mcts:iterations=10,seconds=1", ("iterations=10", "seconds=1", "give only one")),
    ("mcts:seconds=0.5,iterations=200", ("iterations=200", "seconds=0.5", "give only one")),
    ("heuristic:fishing=never,w_fishing=2", ("fishing=never", "w_fishing", "only one")),
    ("flatmc:style=temple", ("style=temple", "no effect")),
]
# Refused where the search plays its rollouts to the end by default, as in Bora Bora. Bamboo's search cuts them off
# (Game.search_defaults), where a style and a temperature take effect: a player made without a game takes them.
BORA_BORA_CONTRADICTIONS = [
    ("mcts:iterations=50,style=builder", ("style=builder", "no effect", "rollout=heuristic", "rollout_depth >= 0")),
    ("mcts:temperature=2", ("temperature=2", "no effect", "rollout_depth >= 0")),
]


@pytest.mark.parametrize(("spec", "allowed"), [
    *BAD_VALUE_MESSAGES,
    *NON_NUMBER_VALUES,
])
def test_make_player_rejects_bad_option_values_naming_what_is_allowed(spec, allowed):
    with pytest.raises(ValueError) as info:
        make_player(spec)
    assert allowed in str(info.value)


@pytest.mark.parametrize(("spec", "allowed"), OUT_OF_RANGE)
def test_make_player_rejects_out_of_range_search_options(spec, allowed):
    with pytest.raises(ValueError) as info:
        make_player(spec)
    assert allowed in str(info.value)


@pytest.mark.parametrize(("spec", "words", "game"), [*((spec, words, None) for spec, words in CONTRADICTIONS),
                                                     *((spec, words, "bora_bora") for spec, words in
                                                       BORA_BORA_CONTRADICTIONS)])
def test_make_player_refuses_options_that_contradict_or_have_no_effect(spec, words, game):
    with pytest.raises(ValueError) as info:
        make_player(spec, game=None if game is None else get_game(game))
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"player spec {spec!r}: ")
    for word in words:
        assert word in message


@pytest.mark.parametrize("spec", [*(s for s, _ in BAD_VALUE_MESSAGES + NON_NUMBER_VALUES + OUT_OF_RANGE),
                                  *(s for s, _ in CONTRADICTIONS), "nosuch", "heuristic:colour=red", "random:x",
                                  "heuristic:style=builder,style=temple", ""])
def test_every_refused_spec_gives_a_one_line_value_error_quoting_the_spec(spec):
    with pytest.raises(ValueError) as info:
        make_player(spec)
    assert "\n" not in str(info.value)
    assert repr(spec.strip()) in str(info.value) or repr(spec) in str(info.value)


def test_search_players_refuse_a_budget_given_twice_or_of_the_wrong_type():
    with pytest.raises(ValueError, match=r"iterations=10 and seconds=1\.0 are both budgets; give only one"):
        MCTSPlayer(iterations=10, seconds=1.0)
    for bad in (True, 2.5, "100"):
        with pytest.raises(TypeError, match="iterations must be a positive integer"):
            MCTSPlayer(iterations=bad)
        with pytest.raises(TypeError, match="rollouts must be a positive integer"):
            FlatMCPlayer(rollouts=bad)
    with pytest.raises(TypeError, match="rollout_depth must be -1"):
        MCTSPlayer(rollout_depth=1.5)
    with pytest.raises(TypeError, match="margin must be a number in"):
        FlatMCPlayer(margin="0.5")
    assert MCTSPlayer().iterations == 1000
    assert (MCTSPlayer(seconds=0.5).iterations, MCTSPlayer(seconds=0.5).seconds) == (0, 0.5)


@pytest.mark.parametrize("bad", [None, 3, ["heuristic"]])
def test_make_player_refuses_a_spec_that_is_not_a_string(bad):
    with pytest.raises(TypeError, match="player spec must be a string"):
        make_player(bad)


@pytest.mark.parametrize("seed", ["7", 1.5, True])
def test_players_refuse_a_seed_that_is_not_an_integer(seed):
    with pytest.raises(TypeError, match="seed must be an integer or None"):
        make_player("random", seed=seed)


def test_heuristic_constructor_takes_weights_only_with_their_prefix():
    with pytest.raises(TypeError, match="w_<name>"):
        HeuristicPlayer(vp=2.0)
    assert HeuristicPlayer(w_vp=2.0).overrides == {"vp": 2.0}


@pytest.mark.parametrize("spec", ["heuristic:style", "heuristic:=3", "mcts:iterations=10,c", "random:x"])
def test_make_player_rejects_an_option_without_equals_sign(spec):
    with pytest.raises(ValueError, match="key=value"):
        make_player(spec)


@pytest.mark.parametrize("spec", ["heuristic:style=builder,style=temple", "mcts:iterations=5,c=1,iterations=6",
                                  "flatmc:rollouts=1, rollouts=1"])
def test_make_player_rejects_an_option_given_twice(spec):
    with pytest.raises(ValueError, match="given twice"):
        make_player(spec)


@pytest.mark.parametrize("spec", [
    "random",
    "heuristic:style=builder,fishing=never",
    "heuristic:style=temple,fishing=prefer,w_vp=2",
    "mcts:iterations=250,c=1.2,rollout=heuristic,rollout_depth=30",
    "mcts:seconds=0.25",
    "flatmc:rollouts=50,rollout=heuristic",
    "heuristic:thorough=false",
    "mcts:iterations=100,margin=0.5,fishing=never",
    "mcts:iterations=100,rollout_depth=10,style=builder",
    "flatmc:rollouts=10,rollout_depth=20,margin=0.5,style=temple,fishing=prefer",
    "heuristic:w_fishing=-3",
])
def test_player_spec_round_trips_through_make_player(spec):
    ai = make_player(spec, seed=1)
    again = make_player(ai.spec(), seed=1)
    assert type(again) is type(ai)
    assert again.spec() == ai.spec()
    assert vars(again).keys() == vars(ai).keys()
    for key, value in vars(ai).items():
        if key in ("_rng", "last_stats", "last_iterations", "last_choice", "last_decision", "_given"):
            continue                # _given: the options as given, which the spec writes resolved
        other = vars(again)[key]
        assert (np.array_equal(other, value) if isinstance(value, np.ndarray) else other == value), key


def test_weights_for_rejects_unknown_style_fishing_and_weight():
    with pytest.raises(ValueError, match="balanced, temple, builder, expansion"):
        weights_for("aggressive")
    with pytest.raises(ValueError, match="never, normal, prefer"):
        weights_for("balanced", "sometimes")
    with pytest.raises(ValueError, match="weights: vp"):
        weights_for("balanced", nosuch=1.0)


# ---------------------------------------------------------------------------------------------------------------
# MCTS explanation and budgets
# ---------------------------------------------------------------------------------------------------------------
def test_mcts_explain_lists_root_actions_with_visits_summing_to_the_iterations():
    state = mid_game_positions(4, seed=31, count=1)[0]
    legal = state.legal_actions()
    ai = MCTSPlayer(iterations=80, seed=2)
    assert ai.explain() == "no decision yet"
    action = ai.choose(state)
    assert ai.last_iterations == 80
    stats = ai.last_stats
    assert sum(s.visits for s in stats) == 80
    assert {s.action for s in stats} == set(legal)          # 80 iterations expand every root action
    assert stats[0].action == action
    assert [s.visits for s in stats] == sorted((s.visits for s in stats), reverse=True)
    for s in stats:
        assert s.name == state.action_to_string(s.action)
        assert 0.0 <= s.mean_value <= 1.0
        assert s.visits >= 1
    text = ai.explain(top=len(stats))
    first = text.splitlines()[0]
    words = ai.game.describe_actions(state, [s.action for s in stats])
    assert "80 iterations" in first and f"chose {words[0]}: " in first
    for line, stat, said in zip(text.splitlines()[2:-1], stats, words, strict=True):
        assert line.split()[-len(said.split()):] == said.split()
        assert f"{100 * stat.mean_value:.1f}% " in line and f" {stat.visits} " in line
    assert len(ai.explain(top=2).splitlines()) == 5        # the headline, the heading, 2 options, the legend
    assert text.splitlines()[-1].startswith("legend: win chance: ")


# ---------------------------------------------------------------------------------------------------------------
# explain(): every player type names its last choice, consistently with it
# ---------------------------------------------------------------------------------------------------------------
def chosen_lines(text: str) -> list[str]:
    """The rows of an explanation's table that mark the chosen move."""
    return [line for line in text.splitlines()[1:] if line.startswith("> ")]


def test_random_explain_names_the_choice_and_the_number_of_legal_actions():
    state = mid_game_positions(4, seed=35, count=1)[0]
    ai = RandomPlayer(seed=4)
    assert ai.explain() == "no decision yet"
    action = ai.choose(state)
    assert ai.explain() == (f"the random player: chose {ai.game.describe_action(state, action)} uniformly at random "
                            f"among {len(state.legal_actions())} legal action(s)")


@pytest.mark.parametrize("spec", ["heuristic", "heuristic:thorough=false", "heuristic:style=builder,fishing=never"])
def test_heuristic_explain_shows_its_evaluations_with_the_choice_on_top(spec):
    ai = make_player(spec, seed=6)
    assert ai.explain() == "no decision yet"
    positions = mid_game_positions(4, seed=36, count=8, decisions=("die", "phase_b", "temple", "helper"))
    assert len(positions) >= 4
    for state in positions:
        action = ai.choose(state)
        _, seed, recorded = ai.last_decision
        assert recorded == action
        options = ai.option_values(state, seed)
        assert sorted(o.action for o in options) == sorted(state.legal_actions())
        chosen = next(o for o in options if o.action == action)
        # the explanation comes from the evaluation the choice was made with: the choice has the best value
        assert chosen.value >= options[0].value - 1e-5, (spec, chosen, options[:3])
        text = ai.explain(top=3)
        words = ai.game.describe_action(state, action)
        assert text.splitlines()[0].startswith(f"{ai.in_words()}: chose {words}: the best by its evaluation ")
        assert text.splitlines()[1] == "  VP vs best  move"
        [line] = chosen_lines(text)
        assert line.endswith(f"  {words}") and float(line[1:].split()[0]) == round(chosen.value - options[0].value, 1)
        assert len(text.splitlines()) == 3 + min(3, len(options))
        listed = [float(line[1:].split()[0]) for line in text.splitlines()[2:-1]]
        assert listed == sorted(listed, reverse=True) and listed[0] == 0
        assert "not a forecast of the final score" in text.splitlines()[-1]


def test_heuristic_option_values_match_the_compiled_evaluation_after_each_option():
    """Without finishing compound actions, an option's value is the compiled evaluation of the determinized
    state after that one action."""
    state = mid_game_positions(3, seed=37, count=1)[0]
    ai = make_player("heuristic:thorough=false", seed=1)
    ai.choose(state)
    _, seed, _ = ai.last_decision
    sample = state.determinize(state.current_player, seed)
    for option in ai.option_values(state, seed):
        after = sample.clone()
        after.apply(option.action)
        expected = borabora_sim._engine.evaluate_state(after, ai.weights)[state.current_player]
        assert option.value == pytest.approx(expected)


@pytest.mark.parametrize("spec", ["flatmc:rollouts=4", "flatmc:rollouts=3,fishing=prefer",
                                  "mcts:iterations=50,fishing=prefer"])
def test_search_explain_marks_the_chosen_option_with_its_counts_and_mean(spec, fishing_positions):
    for state in fishing_positions[:3]:
        ai = make_player(spec, seed=3)
        action = ai.choose(state)
        text = ai.explain(top=50)
        words = ai.game.describe_action(state, action)
        assert text.splitlines()[0].startswith(f"{ai.in_words()}: chose {words}: ")
        stat = next(s for s in ai.last_stats if s.action == action)
        count = "rollouts" if ai.name == "flatmc" else "visits"
        assert text.splitlines()[1] == f"  win chance  {count}  move"
        [line] = chosen_lines(text)
        assert line.split()[1:3] == [f"{100 * stat.mean_value:.1f}%", str(stat.visits)] and line.endswith(words)
        assert len(text.splitlines()) == 3 + len(ai.last_stats)
        first = ai.last_stats[0]
        if action == first.action:
            assert f"chose {words}: {type(ai).choice_rule}, after" in text.splitlines()[0]
        else:               # fishing=prefer took a fishing move close to the search's own choice
            passed_over = ai.game.describe_action(state, first.action)
            assert f"within 0.02 of the value of {passed_over}" in text.splitlines()[0]
        # the chosen option is listed even when it is not among the first `top`
        if ai.last_stats[0].action != action:
            assert len(chosen_lines(ai.explain(top=1))) == 1


def test_search_explain_describes_a_decision_without_search_not_the_previous_one():
    """With fishing=never and one other legal action there is nothing to search: the explanation says so instead
    of repeating the previous search."""
    ai = make_player("mcts:iterations=30,fishing=never", seed=1)
    states = list(random_game_states(4, seed=2))
    ai.choose(next(s for s in states if len(set(s.legal_actions()) - FISHING_ACTIONS) >= 3))
    assert ai.last_stats
    state = next(s for s in states
                 if set(s.legal_actions()) & FISHING_ACTIONS and len(set(s.legal_actions()) - FISHING_ACTIONS) == 1)
    action = ai.choose(state)
    assert action not in FISHING_ACTIONS
    assert ai.last_stats == [] and ai.last_iterations == 0
    assert ai.explain() == (f"{ai.in_words()}: chose {ai.game.describe_action(state, action)}, the only legal action "
                            "that is not fishing (fishing=never); no search was needed")


@pytest.mark.parametrize("top", [0, -1, 2.5, True])
def test_explain_refuses_a_top_that_is_not_a_positive_integer(top):
    for spec in ("random", "heuristic", "flatmc:rollouts=2"):
        with pytest.raises(ValueError, match="top must be a positive integer"):
            make_player(spec).explain(top=top)


def test_mcts_with_score_margin_keeps_mean_values_in_unit_range():
    state = mid_game_positions(3, seed=32, count=1)[0]
    ai = make_player("mcts:iterations=60,margin=1", seed=4)
    ai.choose(state)
    assert sum(s.visits for s in ai.last_stats) == 60
    assert all(0.0 <= s.mean_value <= 1.0 for s in ai.last_stats)
    # margin=1 rewards the normalised score: some actions must then lie strictly between loss and win
    assert any(0.0 < s.mean_value < 1.0 for s in ai.last_stats)


def test_flatmc_judges_every_legal_action_with_the_same_number_of_rollouts():
    state = mid_game_positions(4, seed=33, count=1)[0]
    legal = state.legal_actions()
    ai = FlatMCPlayer(rollouts=6, seed=1)
    action = ai.choose(state)
    assert ai.last_iterations == 6 * len(legal)
    assert {s.action for s in ai.last_stats} == set(legal)
    assert all(s.visits == 6 and 0.0 <= s.mean_value <= 1.0 for s in ai.last_stats)
    assert action == ai.last_stats[0].action
    assert ai.last_stats[0].mean_value == max(s.mean_value for s in ai.last_stats)


def test_mcts_with_a_seconds_budget_returns_in_time():
    state = mid_game_positions(4, seed=34, count=1)[0]
    ai = make_player("mcts:seconds=0.05", seed=1)
    start = time.perf_counter()
    action = ai.choose(state)
    elapsed = time.perf_counter() - start
    assert action in state.legal_actions()
    assert elapsed < 1.0
    assert ai.last_iterations > 0
    assert sum(s.visits for s in ai.last_stats) == ai.last_iterations


def test_mcts_player_needs_a_positive_budget():
    with pytest.raises(ValueError, match="iterations must be a positive integer, got 0"):
        MCTSPlayer(iterations=0)
    with pytest.raises(ValueError, match="seconds must be a finite number of seconds > 0"):
        MCTSPlayer(seconds=0.0)


# ---------------------------------------------------------------------------------------------------------------
# heuristic fishing switch and strength
# ---------------------------------------------------------------------------------------------------------------
def fishing_dice(fishing: str, games: int = 6) -> tuple[int, int, int]:
    """Dice the tested heuristic put on fishing in `games` 4-player games against balanced heuristics (seats
    rotated): (total by `state.counters()`, chosen by the player while another action was legal, placed by the
    engine as a single-option decision (R7) without the player being asked)."""
    total = chosen_freely = automatic = 0
    for g in range(games):
        seat = g % 4
        seats = [HeuristicPlayer(seed=500 + 4 * g + i) for i in range(4)]
        seats[seat] = make_player(f"heuristic:fishing={fishing}", seed=g)
        state = borabora_sim.new_game(4, seed=700 + g)
        automatic += state.counters()[seat]["dice_fishing"]
        while not state.is_terminal():
            legal = state.legal_actions()
            mover = state.current_player
            action = seats[mover].choose(state)
            before = state.counters()[seat]["dice_fishing"]
            state.apply(action)
            added = state.counters()[seat]["dice_fishing"] - before
            chosen = mover == seat and action in FISHING_ACTIONS
            if chosen:
                assert not set(legal) - FISHING_ACTIONS or fishing != "never", (
                    f"fishing=never placed a die on fishing with {[state.action_to_string(a) for a in legal]}")
                chosen_freely += bool(set(legal) - FISHING_ACTIONS)
            automatic += added - chosen
        total += state.counters()[seat]["dice_fishing"]
    return total, chosen_freely, automatic


def test_heuristic_fishing_never_places_no_die_on_fishing():
    total, freely, automatic = fishing_dice("never")
    assert freely == 0
    # the only dice on fishing are single-option placements the engine makes itself (R7)
    assert total == automatic
    normal_total, _, _ = fishing_dice("normal")
    assert total < normal_total


def test_heuristic_fishing_prefer_fishes_more_than_normal():
    prefer, prefer_freely, _ = fishing_dice("prefer")
    normal, normal_freely, _ = fishing_dice("normal")
    assert prefer > normal
    assert prefer_freely > normal_freely


@pytest.fixture(scope="module")
def fishing_positions():
    """Die decisions of 4-player games where fishing and at least two other placements are legal."""
    positions = []
    for seed in (51, 52):
        for state in mid_game_positions(4, seed, count=6, decisions=("die",)):
            legal = set(state.legal_actions())
            if legal & FISHING_ACTIONS and len(legal - FISHING_ACTIONS) >= 2:
                positions.append(state)
    assert len(positions) >= 6
    return positions


@pytest.mark.parametrize("spec", ["mcts:iterations=50,fishing=never", "flatmc:rollouts=3,fishing=never"])
def test_search_player_fishing_never_leaves_fishing_out_of_its_choices(spec, fishing_positions):
    for state in fishing_positions:
        ai = make_player(spec, seed=2)
        action = ai.choose(state)
        others = set(state.legal_actions()) - FISHING_ACTIONS
        assert action in others
        assert {s.action for s in ai.last_stats} <= others
        if ai.name == "mcts":
            assert sum(s.visits for s in ai.last_stats) == ai.last_iterations == 50
        else:
            assert {s.action for s in ai.last_stats} == others


@pytest.mark.parametrize("spec", ["mcts:iterations=50,fishing=prefer", "flatmc:rollouts=3,fishing=prefer"])
def test_search_player_fishing_prefer_fishes_when_a_fishing_move_is_nearly_best(spec, fishing_positions):
    fished = 0
    for state in fishing_positions:
        ai = make_player(spec, seed=2)
        action = ai.choose(state)
        best = ai.last_stats[0].mean_value
        near = [s.action for s in ai.last_stats if s.action in FISHING_ACTIONS and s.mean_value >= best - 0.02]
        assert action == (near[0] if near else ai.last_stats[0].action)
        fished += action in FISHING_ACTIONS
        normal = make_player(spec.replace("prefer", "normal"), seed=2)
        normal_action = normal.choose(state)
        assert [s.action for s in normal.last_stats] == [s.action for s in ai.last_stats]
        assert normal_action == ai.last_stats[0].action
    assert fished > 0


def test_game_record_counters_match_the_final_state_counters():
    seats = [make_player("heuristic:fishing=prefer", seed=i) for i in range(4)]
    record = play_game(seats, seed=77)
    assert sum(c["dice_fishing"] for c in record.counters) > 0
    fishing_vp = [b["fishing"] for b in record.breakdown]
    per_die = borabora_sim.rules_for().components.fishing_vp
    assert fishing_vp == [c["dice_fishing"] * per_die for c in record.counters]


@pytest.mark.parametrize("style", list(STYLES))
def test_every_heuristic_style_beats_random_players(style):
    wins = 0
    for g in range(20):
        seat = g % 4
        seats = [RandomPlayer(seed=900 + 4 * g + i) for i in range(4)]
        seats[seat] = make_player(f"heuristic:style={style}", seed=g)
        record = play_game(seats, seed=1_000 + g)
        wins += record.winner == seat
    assert wins >= 18, f"heuristic:style={style} won only {wins} of 20 games against 3 random players"


@pytest.mark.parametrize("spec", ["mcts:iterations=60", "flatmc:rollouts=8"])
def test_search_players_beat_random_players(spec):
    wins = 0
    for g in range(12):
        seat = g % 4
        seats = [RandomPlayer(seed=1_300 + 4 * g + i) for i in range(4)]
        seats[seat] = make_player(spec, seed=g)
        wins += play_game(seats, seed=1_200 + g).winner == seat
    assert wins >= 9, f"{spec} won only {wins} of 12 games against 3 random players"


def test_heuristic_policy_refuses_a_finished_game():
    state = borabora_sim.new_game(2, seed=3)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    with pytest.raises(borabora_sim.IllegalActionError, match="game is over"):
        HeuristicPlayer(seed=1).choose(state)
