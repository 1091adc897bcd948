"""The presets (borabora_sim/players/presets.py): the same names in every game that declares presets, each the
player spec its game declares, options appended to it, and each refused in one line by a game that declares none;
refusals that name what is allowed; the help texts and the defaults of play that suggest them, and never a player
the ladder rates below the balanced heuristic; a game with `strong` in every game that has it."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from borabora_sim.cli import build_parser
from borabora_sim.cli.common import split_specs
from borabora_sim.cli.play import DEFAULT_PLAY_PLAYERS
from borabora_sim.games import game_names, get_game
from borabora_sim.players import PLAYER_TYPES, PRESETS, make_player
from borabora_sim.players.presets import is_preset, preset_names, resolve_preset
from borabora_sim.protocol import Game
from borabora_sim.simulate import simulate
from borabora_sim.specs import split_spec
from borabora_sim.terminal import COMMANDS, HUMAN
from borabora_sim.terminal import DEFAULT_ADVISOR as TERMINAL_ADVISOR
from borabora_sim.viewer.web_game import DEFAULT_ADVISOR as WEB_ADVISOR
from borabora_sim.viewer.web_game import WebGame
from borabora_sim.viewer.web_page import page_html

ROOT = Path(__file__).resolve().parents[1]
LADDERS = ROOT / "benchmarks" / "results" / "ladder"        # <game>/ratings.csv of benchmarks/ladder.py


@pytest.fixture(params=game_names())
def game(request: pytest.FixtureRequest) -> Game:
    return get_game(request.param)


def with_presets() -> list[str]:
    """The games that declare presets."""
    return [name for name in game_names() if get_game(name).presets]


def needs_presets(game: Game) -> None:
    """Skips the test, saying so, for a game that declares no presets."""
    if not game.presets:
        pytest.skip(f"{game.name} gives no presets (Game.presets is empty)")


def test_every_game_with_presets_declares_every_preset_as_a_player_spec_of_its_own(game: Game) -> None:
    needs_presets(game)
    assert tuple(game.presets) == tuple(PRESETS) == preset_names(game) == preset_names()
    for name, spec in game.presets.items():
        assert name not in PLAYER_TYPES
        assert split_spec(spec)[0] in PLAYER_TYPES, f"{game.name}: {name} = {spec} is no player of the library"
        assert resolve_preset(name, game) == spec and is_preset(name, game)
        assert make_player(name, seed=3, game=game).spec() == make_player(spec, seed=3, game=game).spec()
        assert make_player(f" {name}: ", seed=3, game=game).spec() == make_player(spec, seed=3, game=game).spec()
    assert not is_preset("heuristic", game) and resolve_preset("heuristic:style=balanced", game) == \
        "heuristic:style=balanced"


@pytest.mark.parametrize("name", [name for name in game_names() if not get_game(name).presets])
def test_a_game_without_presets_refuses_each_in_one_line_saying_it_has_none(name: str) -> None:
    game = get_game(name)
    assert preset_names(game) == () and not is_preset("strong", game)
    for preset in PRESETS:
        with pytest.raises(ValueError, match=rf"^unknown player {preset!r} in spec {preset!r}; players: .*; "
                                             r"presets: none$"):
            make_player(preset, game=game)


def test_the_presets_differ_between_games_where_the_measurements_chose_differently() -> None:
    """A preset is the game's own choice: one game's spec is not every game's."""
    for name in PRESETS:
        assert len({get_game(played).presets[name] for played in with_presets()}) > 1, name


def test_options_after_a_preset_are_added_to_its_spec_or_replace_the_same_option(game: Game) -> None:
    needs_presets(game)
    strong = game.presets["strong"]
    player, options = split_spec(strong)
    assert split_spec(resolve_preset("strong:threads=2", game)) == (player, {**options, "threads": "2"})
    assert make_player("strong:threads=2", seed=1, game=game).spec() == \
        make_player(f"{strong},threads=2", seed=1, game=game).spec()
    smaller = make_player("strong:iterations=7", seed=1, game=game)
    assert split_spec(smaller.spec())[1]["iterations"] == "7"
    assert {**split_spec(smaller.spec())[1], "iterations": ""} == \
        {**split_spec(make_player(strong, seed=1, game=game).spec())[1], "iterations": ""}


def test_an_unknown_preset_or_option_is_refused_in_one_line_naming_what_is_allowed() -> None:
    bora = get_game("bora_bora")
    with pytest.raises(ValueError, match=r"^unknown player 'stronger' in spec 'stronger'; players: random, "
                                         r"heuristic, .*; presets: strong, best$"):
        make_player("stronger", game=bora)
    with pytest.raises(ValueError, match=r"; presets: strong, best$"):
        make_player("bestest")
    spec = bora.presets["strong"]
    with pytest.raises(ValueError) as refused:
        make_player("strong:colour=red", game=bora)
    assert str(refused.value).startswith(f"player spec 'strong:colour=red' (in bora_bora: '{spec},colour=red'): "
                                         f"player 'mcts' has no option 'colour'; options: iterations, seconds, ")
    assert "\n" not in str(refused.value)
    with pytest.raises(ValueError, match=r"^player spec 'best:threads=0' \(in pig: '.*threads=0'\): option threads: "
                                         r"must be a positive integer; got '0'$"):
        make_player("best:threads=0", game=get_game("pig"))
    # Without a game a preset is no one player: the refusal says what it is in each game.
    with pytest.raises(ValueError) as refused:
        make_player("strong")
    message = str(refused.value)
    assert message.startswith("player spec 'strong': the preset 'strong' is a different player in each game (")
    assert all(f"{played}: {get_game(played).presets['strong']}" in message for played in with_presets())


def ladder_ratings() -> dict[str, dict[str, float]]:
    """By game, each player the ladder rated (its spec as the player writes it) and its rating: the balanced
    heuristic is 0."""
    ratings: dict[str, dict[str, float]] = {}
    for path in sorted(LADDERS.glob("*/ratings.csv")):
        game = get_game(path.parent.name)
        with path.open(newline="") as file:
            rows = list(csv.DictReader(file))
        ratings[game.name] = {make_player(row["player"], game=game).spec(): float(row["rating"]) for row in rows}
        assert ratings[game.name][make_player("heuristic:style=balanced", game=game).spec()] == 0
    return ratings


def spec_in(spec: str, game: str) -> str | None:
    """`spec` as its player writes it in `game`; None if the game has no such player."""
    try:
        return make_player(spec, game=get_game(game)).spec()
    except ValueError:
        return None


def suggested_players(text: str) -> list[str]:
    """The player specs `text` suggests: those of each `--players` and `hint` in it, and of a default of
    --players."""
    found = re.findall(r"--players ([a-z]\S*)|default: (human,\S+)\)|\bhint ([a-z]\S*?)[,)]?(?:\s|$)", text)
    return [spec for groups in found for group in groups if group
            for spec in split_specs(group) if spec != HUMAN]


def web_page_suggestions() -> list[str]:
    """The players named in the titles and the default value of the page's player fields."""
    fields = re.findall(r'<input id="(?:advisor|new-players)"[^>]*>', page_html())
    assert len(fields) == 2
    words = re.findall(r"[a-z_]+(?::\S+)?", " ".join(re.findall(r'(?:title|value)="([^"]*)"', " ".join(fields))))
    return [word for word in words if split_spec(word)[0] in (*PLAYER_TYPES, *PRESETS)]


def test_play_help_the_terminal_and_the_web_page_suggest_presets_and_no_player_rated_below_balanced(
        capsys: pytest.CaptureFixture[str]) -> None:
    ratings = ladder_ratings()
    assert {"bora_bora", "bamboo"} <= set(ratings)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--help"])
    play_help = capsys.readouterr().out
    commands = "\n".join(f"{name} {what}" for name, what in COMMANDS)
    suggestions = {"play --help": suggested_players(play_help),
                   "the terminal's hint": [TERMINAL_ADVISOR, *suggested_players(commands)],
                   "the web page": [WEB_ADVISOR, *web_page_suggestions()]}
    assert set(PRESETS) <= set(suggestions["play --help"]) and "strong:threads=2" in suggestions["play --help"]
    assert {"strong", "best"} <= set(suggestions["the terminal's hint"]) <= {"strong", "best", "heuristic"}
    assert {"strong", "best"} <= set(suggestions["the web page"])
    for where, specs in suggestions.items():
        for spec in specs:
            if is_preset(spec):
                continue
            rated = {played: by_spec[written] for played, by_spec in ratings.items()
                     if (written := spec_in(spec, played)) in by_spec}
            assert rated, f"{where} suggests {spec}, which no ladder rates"
            assert min(rated.values()) >= 0, f"{where} suggests {spec}, rated below the balanced heuristic: {rated}"
    # Played without --players, in the terminal or the browser, and asked for a hint: the strong preset.
    assert build_parser().parse_args(["play", "--web"]).players == DEFAULT_PLAY_PLAYERS == "human,strong,strong,strong"
    assert TERMINAL_ADVISOR == WEB_ADVISOR == "strong"
    assert 'id="advisor" value="strong"' in page_html() and '.trim() || "strong"' in page_html()


def test_a_suggestion_below_balanced_would_be_found() -> None:
    """The check above reads what it should: the search the play help suggested before the presets is rated below
    the balanced heuristic in Bora Bora's ladder, and a spec in a --players or hint is found."""
    assert ladder_ratings()["bora_bora"][make_player("mcts:iterations=300", game=get_game()).spec()] < 0
    assert suggested_players("borabora play --players human,mcts:iterations=300,heuristic  # x") == \
        ["mcts:iterations=300", "heuristic"]
    assert suggested_players("(e.g. hint mcts:iterations=300, hint best)") == ["mcts:iterations=300", "best"]


@pytest.mark.parametrize("command", ["play", "simulate", "replay"])
def test_the_help_of_the_commands_that_take_players_lists_the_presets(command: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name, what in PRESETS.items():
        assert f"{name} {what}" in text
    # and an example with one, where playing against the AI or running a study is the point
    assert re.search(r"--players \S*\bstrong\b", text) or command == "replay"


def test_a_game_with_strong_in_every_game_records_the_spec_it_stands_for(game: Game) -> None:
    """A tiny budget through an option after the preset: the game is played as by the preset's search."""
    needs_presets(game)
    rows = simulate(1, ["strong:iterations=5", "heuristic"], seed=2, n_jobs=1, backend="sequential",
                    progress=False, game=game.name)
    assert rows is not None and len(rows) == 2
    expected = resolve_preset("strong:iterations=5", game)
    assert set(rows["spec"]) == {expected, "heuristic"}


def test_browser_play_seats_the_preset_strong_and_explains_its_move(game: Game) -> None:
    needs_presets(game)
    web = WebGame(game, ["strong", "strong"], seed=4)
    assert web.ai[0].spec() == web.ai[1].spec() == make_player(game.presets["strong"], game=game).spec()
    web.step(0)
    assert len(web.moves) == 1 and web.moves[0].reasons is not None


def test_the_web_advisor_takes_every_preset_of_the_game_but_caps_a_spec_asking_for_more(game: Game) -> None:
    from borabora_sim.viewer.web_game import ADVICE_CAPS, RequestError

    web = WebGame(game, ["human", "heuristic"], seed=4)
    while not web.human_to_move():
        web.step(0)
    for name in game.presets:
        assert web.advice_task(name).player == name
    too_many = f"mcts:iterations={int(ADVICE_CAPS['iterations']) + 1}"
    with pytest.raises(RequestError, match="more than an advice may take"):
        web.advice_task(too_many)
