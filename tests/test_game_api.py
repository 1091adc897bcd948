"""The game protocol, checked on every registered game: a game is tested by these checks the day it is
registered in borabora_sim.games, with no change here.

Members and their types, random games through the Python API against the random playouts, clones and saved
states, every player type choosing legal actions in the game (or refusing in one line what needs a part the game
leaves out), and simulate / replay writing the game's columns. Browser play lists every legal move, and the game's
click targets, where it has them, name things its picture draws. The optional parts of a game's record are tested
for each game that has them, and skipped, saying so, for the others: a picture of any state, public and as each
seat sees it; an observation encoder that every adapter loads the game by name with (OpenSpiel, PettingZoo and
Gymnasium, where they are installed); and a built-in study that runs at its quick size.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest
from conftest import needs_part, random_game_position, samples_of
from game_words import identifiers_in

from borabora_sim import _search, stats, verdicts
from borabora_sim.games import (
    DEFAULT_GAME,
    GameRecord,
    canonical_game_spec,
    game_names,
    game_spec,
    get_game,
    record_of,
    register,
    score_columns,
)
from borabora_sim.match import play_game
from borabora_sim.network import FitConfig, initial_network
from borabora_sim.players import PLAYER_TYPES, make_player
from borabora_sim.players.heuristic import heuristic_kinds
from borabora_sim.players.models import LearnedEvaluation
from borabora_sim.protocol import ActionKind, CompiledState, Game, GameState, search_handles
from borabora_sim.report import format_summary
from borabora_sim.runs import RunDirectory, counter_columns, players_schema
from borabora_sim.simulate import games_table, replay, simulate
from borabora_sim.viewer import to_svg
from borabora_sim.viewer.web_game import HUMAN, WebGame

GAMES = game_names()
SEEDS = (3, 11)


@pytest.fixture(scope="module", params=GAMES)
def game(request: pytest.FixtureRequest) -> Game:
    return get_game(request.param)


def random_states(game: Game, players: int, seed: int) -> Iterator[GameState]:
    """Every state of one game of uniformly random moves, terminal included (the same object, moved on)."""
    rng = random.Random(seed)
    state = game.new_initial_state(players=players, seed=seed)
    while not state.is_terminal():
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    yield state


def test_the_default_game_is_registered_and_names_are_checked() -> None:
    assert DEFAULT_GAME in GAMES
    with pytest.raises(ValueError, match="unknown game 'nosuch'; games: "):
        get_game("nosuch")
    with pytest.raises(ValueError, match="already registered"):
        register(GameRecord(DEFAULT_GAME, get_game))
    with pytest.raises(ValueError, match="a game name is an identifier"):
        register(GameRecord("bora bora", get_game))
    with pytest.raises(TypeError, match="register takes a GameRecord, got function"):
        register(get_game)          # type: ignore[arg-type]
    assert game_names() == GAMES


def test_the_game_has_every_member_of_the_protocol(game: Game) -> None:
    assert isinstance(game, Game)
    assert game.name in GAMES and get_game(game.name) == game
    assert isinstance(game.num_actions, int) and game.num_actions > 0
    assert game.player_counts and all(isinstance(n, int) and n >= 1 for n in game.player_counts)
    for names in (game.sources, game.counters, game.weight_names):
        assert isinstance(names, tuple) and names and all(isinstance(n, str) for n in names)
        assert len(set(names)) == len(names)
    assert "start_position" in game.counters
    assert game.score_unit.isalpha() and game.score_unit.isupper() and game.score_unit.lower() in score_columns()
    columns = players_schema(["random"], game=game).names
    assert len(set(columns)) == len(columns), "two of the game's names would share a column"
    assert isinstance(game.fingerprint, str) and game.fingerprint
    assert game.default_style in game.styles
    for style, weights in game.styles.items():
        assert set(weights) == set(game.weight_names), style
    assert isinstance(game.action_kinds, Mapping)
    for name, kind in game.action_kinds.items():
        assert name.isidentifier() and isinstance(kind, ActionKind)
        assert kind.weight is None or kind.weight in game.weight_names
    assert len(game.default_players) in game.player_counts
    for spec in game.default_players:
        make_player(spec, seed=1, game=game)
    assert game.end_action is None or 0 <= game.end_action < game.num_actions
    for method in ("describe_actions", "describe_action", "describe_decision", "describe_phase", "rules_hint",
                   "describe_source"):
        assert callable(getattr(game, method)), method
    for source in game.sources:
        assert game.describe_source(source) and not identifiers_in(game.describe_source(source), game)


def test_the_game_names_every_action_decision_and_phase_in_its_own_words(game: Game) -> None:
    """What a person reads of a game (Game.describe_actions and the rest) is in the game's words: no engine
    identifier, each legal action worded apart from the others at its decision, and a rules hint for every
    decision kind met in a random game of each size."""
    hints: dict[str, str] = {}
    for players in game.player_counts:
        for i, state in enumerate(random_states(game, players, seed=players)):
            phase = game.describe_phase(state)
            assert phase and not identifiers_in(phase, game), phase
            if state.is_terminal():
                assert phase == "Game over"
                break
            legal = state.legal_actions()
            words = game.describe_actions(state, legal)
            assert len(words) == len(legal) and len(set(words)) == len(words), (state.decision, words)
            if i % 17 == 0:
                assert [game.describe_action(state, a) for a in legal] == words
            decision = game.describe_decision(state)
            hints[state.decision] = game.rules_hint(state.decision)
            for text in (*words, decision, hints[state.decision]):
                assert text and not identifiers_in(text, game), (state.decision, text)
    assert all(hints.values())


def test_the_games_options_are_declared_and_its_default_spec_is_its_name(game: Game) -> None:
    assert isinstance(game.options, Mapping)
    for key, values in game.options.items():
        assert key.isidentifier() and isinstance(values, tuple) and values
        assert all(isinstance(value, str) for value in values)
        assert getattr(game, key) == values[0], "the first allowed value is the default"
    assert game_spec(game) == canonical_game_spec(game.name) == canonical_game_spec(f"{game.name}:") == game.name
    assert get_game(game_spec(game)) == game


def test_a_game_is_named_by_a_spec_with_its_options() -> None:
    advanced = get_game("bamboo:mode=advanced")
    assert advanced.mode == "advanced" and advanced == get_game("bamboo", mode="advanced")
    assert advanced != get_game("bamboo") and advanced.fingerprint != get_game("bamboo").fingerprint
    assert game_spec(advanced) == canonical_game_spec(" bamboo : mode = advanced ") == "bamboo:mode=advanced"
    assert canonical_game_spec("bamboo:mode=normal") == "bamboo"
    assert get_game(game_spec(advanced)) == advanced


@pytest.mark.parametrize(("spec", "options", "message"), [
    ("bamboo:mode=night", {}, r"^game spec 'bamboo:mode=night': option mode must be one of normal, advanced, "
                              r"got 'night'$"),
    ("bamboo", {"mode": "night"}, r"^game 'bamboo': option mode must be one of normal, advanced, got 'night'$"),
    ("bamboo:colour=red", {}, r"^game spec 'bamboo:colour=red': game 'bamboo' has no option 'colour'; "
                              r"options: mode$"),
    ("bora_bora:mode=advanced", {}, r"game 'bora_bora' has no option 'mode'; options: none$"),
    ("bamboo:mode", {}, r"^game spec 'bamboo:mode': option 'mode' must look like key=value$"),
    ("bamboo:mode=advanced", {"mode": "advanced"}, r"option 'mode' given twice"),
    ("nosuch:mode=advanced", {}, r"^unknown game 'nosuch' in game spec 'nosuch:mode=advanced'; games: "),
])
def test_a_bad_game_spec_is_refused_naming_what_is_allowed(spec: str, options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_game(spec, **options)
    if not options:
        with pytest.raises(ValueError, match=message):
            canonical_game_spec(spec)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_new_state_follows_the_state_protocol(game: Game, seed: int) -> None:
    for players in game.player_counts:
        state = game.new_initial_state(players=players, seed=seed)
        assert isinstance(state, GameState)
        assert state.num_players == players and not state.is_terminal()
        legal = state.legal_actions()
        assert legal and all(0 <= a < game.num_actions for a in legal)
        mask = state.legal_action_mask()
        assert mask.shape == (game.num_actions,) and list(np.flatnonzero(mask)) == sorted(legal)
        for action in legal:
            assert game.action_name(action) == state.action_to_string(action)
            assert state.action_from_string(state.action_to_string(action)) == action
        assert isinstance(game.render(state, 0), str)
        assert [set(row) for row in state.score_breakdown()] == [set(game.sources)] * players
        assert [set(row) for row in state.counters()] == [set(game.counters)] * players


@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_game_through_the_api_scores_as_the_compiled_playouts(game: Game, seed: int) -> None:
    for players in game.player_counts:
        game_seed = game.derive_seed(seed, 0)
        out = game.random_playouts(1, players, seed)
        state = game.new_initial_state(players=players, seed=game_seed)
        for action in game.random_game_actions(players, game_seed):
            assert action in state.legal_actions()
            state.apply(action)
        assert state.is_terminal()
        assert state.scores() == out["scores"][0].tolist()
        assert state.winner() == out["winner"][0] and state.ranks() == out["ranks"][0].tolist()
        breakdown = [[row[name] for name in game.sources] for row in state.score_breakdown()]
        assert breakdown == out["breakdown"][0].tolist()
        counters = [[row[name] for name in game.counters] for row in state.counters()]
        assert counters == out["counters"][0].tolist()
        assert [sum(row) for row in breakdown] == state.scores()


def test_applying_to_a_clone_leaves_the_original_unchanged(game: Game) -> None:
    players = max(game.player_counts)
    for i, state in enumerate(random_states(game, players, seed=5)):
        if state.is_terminal() or i % 7:
            continue
        before = json.dumps(state.to_dict(), sort_keys=True)
        twin = state.clone()
        twin.apply(twin.legal_actions()[-1])
        assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_a_saved_state_loads_and_plays_on_as_the_original(game: Game) -> None:
    players = min(game.player_counts)
    for i, state in enumerate(random_states(game, players, seed=8)):
        if i % 11:
            continue
        loaded = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
        assert loaded.to_dict() == state.to_dict()
        assert loaded.legal_actions() == state.legal_actions() and loaded.scores() == state.scores()
        if not state.is_terminal():
            action = state.legal_actions()[0]
            after = state.clone()
            after.apply(action)
            loaded.apply(action)
            assert loaded.to_dict() == after.to_dict()


def tiny_network(game: Game, path: Path) -> Path:
    """A network of random weights for `game` (its features and actions), written to `path`."""
    state = game.new_initial_state(seed=1)
    x = np.array([_search.features(search_handles(state), 0)])
    initial_network(x.shape[1], game.num_actions, FitConfig(hidden=(6,)), x).save(path)
    return path


def cheap_specs(game: Game, network: Path | None) -> tuple[list[str], list[str]]:
    """One cheap spec of every player type, every style and every action-kind setting of `game`: those it plays,
    and those it refuses. The players that need the compiled interface (a search cut off, a network, here the one
    in the file `network`) are refused by a game written in Python (`network` None), the learned evaluation by a
    game that has none."""
    specs = ["random", "heuristic", "heuristic:thorough=false", "flatmc:rollouts=2", "mcts:iterations=20",
             "mcts:iterations=10,rollout=heuristic"]
    specs += [f"heuristic:style={style}" for style in game.styles]
    for kind in game.action_kinds:
        for setting in ("never", "prefer"):
            if kind in heuristic_kinds(game):
                specs.append(f"heuristic:{kind}={setting}")
            specs += [f"flatmc:rollouts=2,{kind}={setting}", f"mcts:iterations=20,{kind}={setting}"]
    compiled = ["mcts:iterations=10,rollout=heuristic,rollout_depth=8"]
    compiled += ([f"expert:network={network}", f"mcts:iterations=20,evaluation=net,network={network}"]
                 if network is not None else ["expert", "mcts:iterations=20,evaluation=net"])
    learned = ["learned", "mcts:iterations=10,rollout_depth=4,evaluation=learned"]
    refused: list[str] = []
    (specs if network is not None else refused).extend(compiled)
    (specs if isinstance(game, LearnedEvaluation) else refused).extend(learned)
    assert {spec.partition(":")[0] for spec in specs + refused} == set(PLAYER_TYPES)
    return specs, refused


def test_every_player_type_chooses_legal_actions_or_is_refused_in_one_line(game: Game, tmp_path: Path) -> None:
    players = max(game.player_counts)
    states = [state.clone() for i, state in enumerate(random_states(game, players, seed=21))
              if not state.is_terminal() and i % 25 == 0]
    compiled = isinstance(states[0], CompiledState)
    specs, refused = cheap_specs(game, tiny_network(game, tmp_path / "network.npz") if compiled else None)
    for spec in specs:
        player = make_player(spec, seed=4, game=game)
        assert player.game == game
        for state in states:
            assert player.choose(state) in state.legal_actions(), spec
        assert isinstance(player.explain(), str)
    for spec in refused:
        with pytest.raises(ValueError) as refusal:
            make_player(spec, seed=4, game=game)
        assert "\n" not in str(refusal.value) and game.name in str(refusal.value), spec


def test_heuristic_players_play_whole_games(game: Game) -> None:
    players = max(game.player_counts)
    seats = [make_player("heuristic", seed=seat, game=game) for seat in range(players)]
    record = play_game(seats, seed=9, game=game)
    assert len(record.scores) == players and record.decisions > 0
    assert [set(row) for row in record.breakdown] == [set(game.sources)] * players


@pytest.mark.parametrize("specs", [["random"], ["heuristic", "random"]], ids=["compiled", "python"])
def test_simulate_writes_the_games_columns_and_replays_its_games(game: Game, specs: list[str],
                                                                  tmp_path: Path) -> None:
    players = min(game.player_counts)
    specs = (specs * players)[:players]
    out = tmp_path / "run"
    frame = simulate(4, specs, seed=2, n_jobs=1, progress=False, out=out, game=game.name)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == game.name and manifest["components_fingerprint"] == game.fingerprint
    assert RunDirectory(out).read_manifest().game == game.name
    score = game.score_unit.lower()
    assert [c for c in frame.columns if c.startswith(f"{score}_")] == [f"{score}_{source}" for source in game.sources]
    assert [c for c in frame.columns if c in counter_columns(game)] == list(counter_columns(game))
    sources = frame[[f"{score}_{source}" for source in game.sources]].astype(np.int64).sum(axis=1)
    assert (sources == frame[score]).all()
    assert (frame["game_seed"] == [game.derive_seed(2, g) for g in frame["game_id"]]).all()
    rows = frame[frame["game_id"] == 1]
    log = replay(int(rows["game_seed"].iloc[0]), rows["spec"].astype(str).tolist(), game=game.name)
    assert log[-players - 1].startswith(f"final scores {rows[score].tolist()}")


def test_tables_summaries_and_comparisons_speak_the_games_unit(game: Game, tmp_path: Path) -> None:
    """Bora Bora scores VP, Bamboo HP, Pig PTS: the player and game rows, the printed summary, the win-rate table
    and a paired comparison all name the game's own unit, and no other game's."""
    players = min(game.player_counts)
    score, unit = game.score_unit.lower(), game.score_unit
    frame = simulate(6, ["random"] * players, seed=4, n_jobs=1, progress=False, out=tmp_path / "run", game=game.name)
    others = set(score_columns()) - {score}
    assert score in frame.columns and not others & set(frame.columns) and stats.score_column(frame) == score
    assert f"winner_{score}" in RunDirectory(tmp_path / "run").read("games").columns
    assert f"winner_{score}" in games_table(frame).columns
    assert f"mean {unit} by source:" in format_summary(frame)
    assert f"mean_{score}" in stats.win_rate(frame).columns
    assert list(stats.vp_by_source(frame).columns) == [
        source for source in game.sources if frame[f"{score}_{source}"].any()]
    paired = stats.paired_compare(frame, frame, focus=[0])
    assert paired.unit == unit and f"mean {unit} A " in paired.summary()
    assert f"mean {unit} A - B" in verdicts.verdict_lines([paired])[0]


# ---------------------------------------------------------------------------------------------------------------
# What the shared layers serve every game with: its picture, browser play, the adapters and a study
# ---------------------------------------------------------------------------------------------------------------
def test_the_game_draws_a_mid_game_state_for_everyone_and_for_each_seat(game: Game) -> None:
    needs_part(game.name, "picture", "picture")
    players = max(game.player_counts)
    state = random_game_position(game, players, 7)
    public = to_svg(state)
    assert public == to_svg(state, None, game)
    pictures = [public]
    for seat in range(players):
        pictures.append(to_svg(state, seat))
        assert pictures[-1] == to_svg(state, seat, game.name)
        seen, everyone = dict(state.observation(seat), viewer=None), dict(state.observation(None), viewer=None)
        if seen != everyone:                    # a seat that sees more than everyone does sees another picture
            assert pictures[-1] != public
    for svg in pictures:
        root = ElementTree.fromstring(svg)
        assert root.tag.rpartition("}")[2] == "svg" and len(root) > 0
        assert any(name.startswith("data-") for element in root.iter() for name in element.attrib), \
            "the picture names the game's things (docs/viewer.md)"
    with pytest.raises(ValueError, match="viewer"):
        to_svg(state, players)


def drawn(svg: str, attribute: str, value: object) -> bool:
    """Whether the picture draws a thing with the data attribute (and value, unless None)."""
    return (f'{attribute}="{value}"' if value is not None else f"{attribute}=") in svg


def test_browser_play_lists_every_legal_move_and_the_board_marks_them_on_drawn_things(game: Game) -> None:
    """A game of human seats in browser play (the WebGame behind `borabora play --web`), played by random moves
    from the list: at every 25th decision (at least 4 times in a shorter game) every legal move is listed with its
    name and plays from the list, and things a click on the board picks it by (the click_targets of the game's
    record, where it has them) are drawn in the picture shown. The game ends with the engine's scores."""
    players = min(game.player_counts)
    every = max(1, min(25, (sum(1 for _ in random_states(game, players, seed=5)) - 1) // 4))
    web = WebGame(game, [HUMAN] * players, seed=5)
    mapper = record_of(game.name).part("click_targets")
    rng = random.Random(5)
    checked = marked = 0
    while not web.state.is_terminal():
        state, seat = web.state.clone(), web.state.current_player
        legal = state.legal_actions()
        if len(web.moves) % every == 0:
            view = web.view()
            assert [move["action"] for move in view["legal"]] == legal
            assert [move["name"] for move in view["legal"]] == [state.action_to_string(a) for a in legal]
            assert [move["words"] for move in view["legal"]] == game.describe_actions(state, legal)
            assert view["decision_words"] == game.describe_decision(state)
            assert view["hint"] == game.rules_hint(state.decision)
            end = game.end_action
            assert view["end"] == ({"action": end, "words": game.describe_action(state, end)}
                                   if end in legal else None)
            targets = mapper(state, legal) if mapper is not None else {}
            assert set(targets) <= set(legal)
            for move in view["legal"]:
                assert move["targets"] == targets.get(move["action"], [])
                assert all(attribute.startswith("data-") for attribute, _ in move["targets"]), move
                if move["targets"]:             # any of them: a thing may be drawn only at times (a die on a tile)
                    assert any(drawn(view["svg"], attribute, value) for attribute, value in move["targets"]), move
                    marked += 1
            for action in legal:                # each plays from the list, and is taken back
                expected = state.clone()
                expected.apply(action)
                web.move(web.version, seat, action)
                assert web.state.to_dict() == expected.to_dict()
                web.undo(web.version)
            assert web.state.to_dict() == state.to_dict()
            checked += 1
        web.move(web.version, seat, legal[rng.randrange(len(legal))])
    assert checked >= 3 and (mapper is None or marked > 0)
    final = game.new_initial_state(players=players, seed=5)
    for move in web.moves:
        final.apply(move.action)
    view = web.view()
    assert view["terminal"] and view["legal"] == [] and view["scores"] == final.scores()


def test_the_games_encoder_gives_every_seat_a_tensor_within_its_bounds(game: Game) -> None:
    from borabora_sim.envs.encoders import encoded_games, encoder_for

    needs_part(game.name, "encoder", "observation encoder")
    assert game.name in encoded_games()
    encoder = encoder_for(game)
    assert encoder.game == game.name and encoder.score_unit == game.score_unit.lower()
    for players in game.player_counts:
        state = game.new_initial_state(players=players, seed=players)
        for i, action in enumerate(game.random_game_actions(players, players)):
            if i % 40 == 0:
                for seat in range(players):
                    vector = encoder.tensor(state, seat)
                    assert vector.dtype == np.float32 and vector.shape == (encoder.size,)
                    assert (vector >= encoder.low).all() and (vector <= encoder.high).all()
            state.apply(action)
        assert state.is_terminal()
        for seat in range(players):
            vector = encoder.tensor(state, seat)
            assert (vector >= encoder.low).all() and (vector <= encoder.high).all()


def test_openspiel_loads_the_game_by_name(pyspiel: Any, openspiel_adapter: Any, game: Game) -> None:
    """The adapter registers every game with an encoder with OpenSpiel when it is imported."""
    from borabora_sim.envs.encoders import encoder_for

    needs_part(game.name, "encoder", "observation encoder")
    spiel = pyspiel.load_game(f"python_{game.name}")
    assert spiel.get_type().short_name == f"python_{game.name}" and spiel.game == game
    assert spiel.observation_tensor_size() == encoder_for(game).size
    state = spiel.new_initial_state()
    rng = random.Random(3)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(spiel.num_players()):
        np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), dtype=np.float32),
                                      encoder_for(game).tensor(state.engine, seat))


def test_pettingzoo_loads_the_game_by_name(pettingzoo_adapter: Any, game: Game) -> None:
    from borabora_sim.envs.encoders import encoder_for

    needs_part(game.name, "encoder", "observation encoder")
    environment = pettingzoo_adapter.raw_env(game=game.name, players=max(game.player_counts))
    assert environment.metadata["name"] == f"{game.name}_v0" and environment.game == game
    environment.reset(seed=1)
    for agent in environment.agents:
        assert environment.observe(agent)["observation"].shape == (encoder_for(game).size,)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    environment.step(int(np.flatnonzero(mask)[0]))
    assert environment.game_state.move_count > 0


def test_gymnasium_makes_the_game_by_its_id(gymnasium_adapter: Any, game: Game) -> None:
    import gymnasium

    needs_part(game.name, "encoder", "observation encoder")
    env = gymnasium.make(gymnasium_adapter.env_id(game.name), opponents=["random"] * (min(game.player_counts) - 1))
    assert env.unwrapped.game == game
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    obs, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.observation_space.contains(obs)
    env.close()


@pytest.mark.slow
def test_a_built_in_study_runs_at_its_quick_size(game: Game, tmp_path: Path) -> None:
    """The study its samples name (QUICK_STUDY: of several, the one quick enough for the default run), else the
    first its record names."""
    from borabora_sim.questions import ask, builtin_questions

    needs_part(game.name, "studies", "built-in study")
    studies = record_of(game.name).studies
    assert set(studies) <= set(builtin_questions()), "each study is a built-in question"
    name = getattr(samples_of(game.name), "QUICK_STUDY", studies[0])
    assert name in studies
    logged: list[str] = []
    report = ask(name, tmp_path / name, size="quick", jobs=1, progress=False, log=logged.append).report
    assert report is not None
    assert report.parent == tmp_path / name and report.suffix == ".md"
    assert report.read_text(encoding="utf-8").startswith("#") and logged
    assert len(list(report.parent.iterdir())) > 1          # the tables and figures beside the report
