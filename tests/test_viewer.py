"""The SVG picture of a state and the HTML replay (borabora_sim.viewer): well-formed and stable pictures in which
every thing of the state is an element named by a data attribute, hidden cards only in their owner's picture,
a map laid out from the component data, the registry of pictures by game, and a replay file that holds every
frame, the decision log of `borabora replay` and the scores after each decision. The replay in a real browser:
test_viewer_browser.py."""

from __future__ import annotations

import dataclasses
import html
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import played

import borabora_sim
from borabora_sim import games
from borabora_sim.cli import main
from borabora_sim.games import get_game
from borabora_sim.games.bora_bora import layout
from borabora_sim.games.bora_bora.components import GOD_COLOURS, TERRAINS, load_components
from borabora_sim.games.bora_bora.picture import map_layout
from borabora_sim.kits.svg import label, root, sub
from borabora_sim.simulate import replay, simulate
from borabora_sim.viewer import (
    record_game,
    renderer_names,
    replay_html,
    replay_page,
    to_svg,
)

NO_TILE = 255


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def named(tree: ET.Element, attribute: str) -> list[ET.Element]:
    return [e for e in tree.iter() if attribute in e.attrib]


def by_name(tree: ET.Element, attribute: str) -> dict[str, ET.Element]:
    found = named(tree, attribute)
    table = {e.attrib[attribute]: e for e in found}
    assert len(table) == len(found), f"{attribute} names an element twice"
    return table


@pytest.fixture(scope="module")
def mid_game() -> borabora_sim.State:
    """A 4-player game in round 3: huts, priests, dice on tiles, persons, tasks and God cards all in play."""
    state = played("bora_bora", 4, 11, 170)
    assert state.round >= 3 and not state.is_terminal()
    return state


# ---------------------------------------------------------------------------------------------------------------
# The picture
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pictures_are_well_formed_and_stable_from_start_to_end(players: int) -> None:
    for steps in (0, 60, 10_000):
        state = played("bora_bora", players, players, steps)
        for viewer in (None, *range(players)):
            svg = to_svg(state, viewer)
            tree = parse(svg)
            assert tree.tag.endswith("svg") and tree.attrib["data-viewer"] == ("public" if viewer is None
                                                                                else str(viewer))
            assert svg == to_svg(state.clone(), viewer) == to_svg(state, viewer)
            assert len(named(tree, "data-player")) >= players


def test_every_thing_of_the_state_is_drawn_and_named(mid_game: borabora_sim.State) -> None:
    state, c = mid_game, mid_game.components
    obs = state.observation(0)
    tree = parse(to_svg(state, 0))
    regions = by_name(tree, "data-region")
    assert list(regions) == list(c.region_ids)
    for r, rid in enumerate(c.region_ids):
        assert regions[rid].attrib["data-terrain"] == TERRAINS[c.region_terrain[r]]
    huts = by_name(tree, "data-hut")
    assert {rid: int(e.attrib["data-seat"]) for rid, e in huts.items()} == {
        rid: obs["region_owner"][r] for r, rid in enumerate(c.region_ids) if obs["region_owner"][r] >= 0}
    assert len(huts) >= 4
    fish = by_name(tree, "data-fish")
    for r, rid in enumerate(c.region_ids):
        assert int(fish[rid].attrib["data-value"]) == c.fish_value[obs["fish_at"][r]]
    paths = {(e.attrib["data-path"], e.attrib["data-kind"]): int(e.attrib["data-value"])
             for e in named(tree, "data-path")}
    expected = {(f"{c.region_ids[a]}-{c.region_ids[b]}", kind): int(table[a, b])
                for kind, table in (("land", c.land_path), ("water", c.water_path))
                for a in range(12) for b in range(a + 1, 12) if table[a, b]}
    assert paths == expected
    priests = {int(e.attrib["data-priest"]): int(e.attrib["data-seat"]) for e in named(tree, "data-priest")}
    assert priests == {t: seat for t, seat in enumerate(obs["temple"]) if seat >= 0} and priests
    assert list(by_name(tree, "data-temple-god-tiles")) == [str(obs["temple_god_tiles"])]
    tiles = by_name(tree, "data-action-tile")
    dice = {e.attrib["data-die"]: int(e.attrib["data-value"]) for e in named(tree, "data-die")}
    names = layout.ACTION_TILE_NAMES[4]
    assert dice == {names[slot]: low for slot, low in enumerate(obs["tile_low"]) if low != 7}
    assert set(tiles) == {"fishing", *names}
    for seat, p in enumerate(obs["pl"]):
        assert int(by_name(tree, "data-status-seat")[str(seat)].attrib["data-status"]) == p["status"]
        assert int(by_name(tree, "data-score-seat")[str(seat)].attrib["data-vp"]) == state.scores()[seat]
        own_dice = [int(e.attrib["data-value"]) for e in named(tree, "data-player-die")
                    if e.attrib["data-player-die"].startswith(f"{seat}-")]
        assert own_dice == [d for d in p["dice"] if d]
        slots = [int(e.attrib["data-tile"]) for e in named(tree, "data-person-slot")
                 if e.attrib["data-person-slot"].startswith(f"{seat}-")]
        assert slots == p["persons"][: p["n_persons"]]
        cells = [e.attrib["data-content"] for e in named(tree, "data-ceremony")
                 if e.attrib["data-ceremony"].startswith(f"{seat}-")]
        assert cells == [("empty", "material", "building")[v] for v in p["ceremony"]]
        tasks = [e.attrib["data-task"] for e in named(tree, "data-player-task")
                 if e.attrib["data-player-task"].startswith(f"{seat}-")]
        assert tasks == [c.task_ids[t] for t in p["tasks"] if t != NO_TILE]
        built = [int(e.attrib["data-built"]) for e in named(tree, "data-building")
                 if e.attrib["data-building"].startswith(f"{seat}-")]
        assert built == [p["built"] >> k & 1 for k in range(6)]
    for sex, name in enumerate(("man", "woman")):
        shown = {int(e.attrib["data-person-display"].split("-")[1]): int(e.attrib["data-tile"])
                 for e in named(tree, "data-person-display") if e.attrib["data-person-display"].startswith(name)}
        assert shown == {i + 1: t for i, t in enumerate(obs["person_display"][sex]) if t != NO_TILE}
    tasks = {int(e.attrib["data-task-display"]): e.attrib["data-task"] for e in named(tree, "data-task-display")}
    assert tasks == {i + 1: c.task_ids[t] for i, t in enumerate(obs["task_display"]) if t != NO_TILE}
    jewels = {e.attrib["data-jewelry"]: int(e.attrib["data-tile"]) for e in named(tree, "data-jewelry")}
    assert jewels == {f"{r + 1}-{j + 1}": t for r, column in enumerate(obs["jewelry_display"])
                      for j, t in enumerate(column) if t != NO_TILE}
    gods = {int(e.attrib["data-god-display"]): e.attrib["data-colour"] for e in named(tree, "data-god-display")}
    assert gods == {i + 1: GOD_COLOURS[k] for i, k in enumerate(obs["god_display"]) if k != NO_TILE}
    discard = {e.attrib["data-god-discard"]: int(e.attrib["data-count"]) for e in named(tree, "data-god-discard")}
    assert discard == dict(zip(GOD_COLOURS, obs["discard"], strict=True))


def god_hands(tree: ET.Element) -> dict[str, int]:
    return {e.attrib["data-god-hand"]: int(e.attrib["data-count"]) for e in named(tree, "data-god-hand")}


def test_hidden_cards_are_only_in_their_owners_picture(mid_game: borabora_sim.State) -> None:
    state = mid_game
    hands = [p["hand"] for p in state.to_dict()["state"]["pl"][:4]]
    assert sum(map(sum, hands)) > 0
    for viewer in range(4):
        tree = parse(to_svg(state, viewer))
        assert god_hands(tree) == {f"{viewer}-{GOD_COLOURS[k]}": n for k, n in enumerate(hands[viewer]) if n}
        sizes = {int(e.attrib["data-hand-seat"]): int(e.attrib["data-hand-size"])
                 for e in named(tree, "data-hand-size")}
        assert sizes == {seat: sum(hand) for seat, hand in enumerate(hands) if seat != viewer}
    assert god_hands(parse(to_svg(state))) == {}


def test_changing_only_hidden_information_leaves_the_picture_unchanged(mid_game: borabora_sim.State) -> None:
    """A determinization deals the other hands and the piles anew: nothing of it may show."""
    state = mid_game
    hands = [p["hand"] for p in state.to_dict()["state"]["pl"]]
    for viewer in range(4):
        pictures = {None: to_svg(state), viewer: to_svg(state, viewer)}
        changed = False
        for seed in range(4):
            other = state.determinize(viewer, seed)
            changed |= [p["hand"] for p in other.to_dict()["state"]["pl"]] != hands
            assert to_svg(other, viewer) == pictures[viewer]
            assert to_svg(other) == pictures[None]
        assert changed, "the determinizations changed no hidden hand: the test would prove nothing"


def drawn_text_sizes(svg: str) -> list[tuple[float, str]]:
    """Each text of a picture with its size as drawn: its font size times the scale of the transforms above it."""
    sizes = []

    def walk(element: ET.Element, scale: float) -> None:
        found = re.search(r"scale\(([\d.]+)", element.attrib.get("transform", ""))
        scale *= float(found.group(1)) if found else 1.0
        if element.tag.endswith("text"):
            sizes.append((float(element.attrib["font-size"]) * scale, "".join(element.itertext())))
        for child in element:
            walk(child, scale)

    walk(parse(svg), 1.0)
    return sizes


@pytest.mark.parametrize(("spec", "players"), [("bora_bora", 4), ("bora_bora", 2), ("bamboo:mode=advanced", 2),
                                               ("bamboo", 4), ("pig", 3)])
def test_no_text_of_a_picture_is_drawn_under_the_least_size(spec: str, players: int) -> None:
    """The pages show a picture at fit at no less than READABLE_SCALE of its size (viewer/zoom.py), so that its
    text is 11 pixels or more as long as none is drawn under MIN_TEXT units, here along a random game."""
    from borabora_sim.kits.house_style import MIN_TARGET, MIN_TEXT
    from borabora_sim.viewer.zoom import READABLE_SCALE

    assert MIN_TEXT * READABLE_SCALE >= 11 and MIN_TARGET * READABLE_SCALE >= 24
    for steps in (0, 40, 120, 10_000):
        state = played(spec, players, 3, steps)
        sizes = drawn_text_sizes(to_svg(state, 0))
        assert len(sizes) > 20
        small = [(round(size, 1), text) for size, text in sizes if size < MIN_TEXT]
        assert not small, f"{spec} after {steps} decisions: {small[:5]}"


# ---------------------------------------------------------------------------------------------------------------
# The map from the component data
# ---------------------------------------------------------------------------------------------------------------
def assert_regions_apart(components: borabora_sim.Components) -> None:
    positions, _ = map_layout(components)
    for i, (x1, y1) in enumerate(positions):
        for x2, y2 in positions[i + 1:]:
            assert math.hypot(x1 - x2, y1 - y2) >= 2 * layout.REGION_RADIUS


def test_the_map_is_laid_out_and_drawn_from_the_component_file() -> None:
    assert_regions_apart(load_components())
    doc = load_components().to_json_dict()
    doc["regions"][0]["terrain"] = "mountain"
    doc["paths"][0]["value"] = 6
    doc["regions"][5]["island"] = "central"           # N_E joins the central island: five regions there
    edited = load_components(doc)
    assert_regions_apart(edited)
    tree = parse(to_svg(borabora_sim.new_game(players=2, seed=1, components=edited)))
    regions = by_name(tree, "data-region")
    assert regions[doc["regions"][0]["id"]].attrib["data-terrain"] == "mountain"
    assert regions["N_E"].attrib["data-island"] == "central"
    path = doc["paths"][0]
    values = {e.attrib["data-path"]: e.attrib["data-value"] for e in named(tree, "data-path")}
    assert values.get(f"{path['b']}-{path['a']}", values.get(f"{path['a']}-{path['b']}")) == "6"


def test_names_from_the_component_file_are_escaped() -> None:
    doc = load_components().to_json_dict()
    odd = 'A<&">'
    for path in doc["paths"]:
        for end in ("a", "b"):
            if path[end] == doc["regions"][0]["id"]:
                path[end] = odd
    doc["regions"][0]["id"] = odd
    for task in doc["tasks"]:
        task["id"] = f"<{task['id']}&>"
    state = borabora_sim.new_game(players=2, seed=1, components=load_components(doc))
    tree = parse(to_svg(state))
    assert odd in by_name(tree, "data-region")
    assert all(e.attrib["data-task"].startswith("<") for e in named(tree, "data-task")) and named(tree, "data-task")
    assert any(f"{odd}-" in name or f"-{odd}" in name for name in by_name(tree, "data-path"))


# ---------------------------------------------------------------------------------------------------------------
# Errors and the registry of pictures
# ---------------------------------------------------------------------------------------------------------------
def test_a_bad_viewer_is_refused_in_one_line() -> None:
    state = borabora_sim.new_game(players=3, seed=1)
    with pytest.raises(ValueError, match=r"viewer must be an integer in \[0, 2\], got 3"):
        to_svg(state, 3)
    with pytest.raises(TypeError, match="viewer must be an integer"):
        to_svg(state, True)


def bamboo_state() -> object:
    from borabora_sim.games.bamboo import new_game
    return new_game(players=2, seed=1)


def with_bamboo_picture(monkeypatch: pytest.MonkeyPatch, picture: object) -> None:
    """Bamboo's record with another picture (None: none), restored after the test."""
    monkeypatch.setitem(games._RECORDS, "bamboo", dataclasses.replace(games.record_of("bamboo"), picture=picture))


def test_a_game_without_a_picture_is_drawn_as_its_text_for_a_seat_and_for_an_onlooker(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with_bamboo_picture(monkeypatch, None)
    assert "bamboo" not in renderer_names()
    state = bamboo_state()
    for viewer in (None, 1):
        svg = ET.fromstring(to_svg(state, viewer=viewer))
        lines = [text.text for text in svg.iter("{http://www.w3.org/2000/svg}text")]
        assert svg.get("data-game") == "text"
        assert lines == get_game("bamboo").render(state, viewer).splitlines()
    assert "(you)" in " ".join(get_game("bamboo").render(state, 1).splitlines())
    assert "(you)" not in get_game("bamboo").render(state, None)
    replay_html(tmp_path / "text.html", 1, ["random", "random"], game="bamboo")
    first = ET.fromstring(frame_svg(replay_data((tmp_path / "text.html").read_text(encoding="utf-8")), 0))
    assert first.get("data-game") == "text"


def test_the_renderer_a_record_names_gives_a_game_its_picture_and_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    def draw(state: object, viewer: int | None) -> ET.Element:
        svg = root(200, 40, data_game="bamboo")
        label(sub(svg, "g", data_panel="round"), 4, 20, f"round {state.round}")     # type: ignore[attr-defined]
        return svg

    with_bamboo_picture(monkeypatch, draw)
    assert "bamboo" in renderer_names()
    state = bamboo_state()
    assert parse(to_svg(state)).attrib["data-game"] == "bamboo"
    page = replay_page(record_game(1, ["random", "random"], game="bamboo"))
    assert "round 2" in page and 'data-score-seat' in page


# ---------------------------------------------------------------------------------------------------------------
# The replay file
# ---------------------------------------------------------------------------------------------------------------
def replay_data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert match is not None
    return json.loads(match.group(1))


def frame_svg(data: dict, index: int) -> str:
    frame = data["frames"][index]
    return data["roots"][frame[0]] + "".join(data["pieces"][i] for i in frame[1:]) + "</svg>"


@pytest.fixture(scope="module")
def two_player_replay(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    path = replay_html(tmp_path_factory.mktemp("replay") / "game.html", 21, ["heuristic", "random"])
    return path, list(record_game(21, ["heuristic", "random"]).actions)


def test_the_replay_holds_every_frame_and_the_scores_after_each_decision(
        two_player_replay: tuple[Path, list[int]]) -> None:
    path, actions = two_player_replay
    page = path.read_text(encoding="utf-8")
    data = replay_data(page)
    assert len(data["frames"]) == len(actions) + 1
    state = borabora_sim.new_game(players=2, seed=21)
    scores = [[0] * len(data["sources"]) for _ in range(2)]
    changes = iter(data["changes"])
    change = next(changes, None)
    naive = 0
    for index in range(len(actions) + 1):
        if index:
            state.apply(actions[index - 1])
        while change is not None and change[0] == index:
            scores[change[1]][change[2]] = change[3]
            change = next(changes, None)
        assert scores == [list(row.values()) for row in state.score_breakdown()]
        if index % 25 == 0 or index == len(actions):
            picture = to_svg(state)
            assert frame_svg(data, index) == picture
            naive += len(picture) * 25
    assert state.is_terminal() and [sum(row) for row in scores] == state.scores()
    assert len(page) * 4 < naive, "frames should share their unchanged panels"


def test_the_replay_is_self_contained_with_the_log_of_borabora_replay(
        two_player_replay: tuple[Path, list[int]]) -> None:
    page = two_player_replay[0].read_text(encoding="utf-8")
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page
    moves = re.findall(r'<div class="move(?: why)?" data-step="\d+" data-seat="(\d)" title="[^"]+"><span[^>]*>\d</span>'
                       r': ([^<]+)</div>', page)
    logged = [f"  seat {seat}: {html.unescape(move)}" for seat, move in moves]
    text_log = [line for line in replay(21, ["heuristic", "random"]) if re.match(r"  seat \d: [A-Z]", line)]
    assert logged == text_log and len(logged) == len(two_player_replay[1])
    headings = [html.unescape(h) for h in re.findall(r'<div class="heading">([^<]+)</div>', page)]
    assert headings == [line[3:] for line in replay(21, ["heuristic", "random"]) if line.startswith("-- ")]
    chart = ET.fromstring(re.search(r'(<svg[^>]*data-chart="scores".*?</svg>)', page, re.S).group(1))
    assert len([e for e in chart.iter() if e.attrib.get("class") == "cursor"]) == 2
    assert {e.attrib["data-source"] for e in chart.iter() if "data-source" in e.attrib} >= {"start"}


def test_the_replay_shows_the_reasons_of_the_players_that_weigh_options() -> None:
    """Each decision of the heuristic (its evaluation of each option), of MCTS (visits and mean value of the root
    actions) and of flat Monte Carlo (rollouts and mean value) keeps its best options with the chosen one; a random
    player's keeps none."""
    specs = ["heuristic", "mcts:iterations=40", "random", "flatmc:rollouts=3"]
    record = record_game(4, specs, reasons=3)
    state = borabora_sim.new_game(players=4, seed=4)
    kept = {0: 0, 1: 0, 2: 0, 3: 0}
    for action, reasons in zip(record.actions, record.reasons, strict=True):
        seat, legal = state.current_player, len(state.legal_actions())
        if reasons is not None:
            kept[seat] += 1
            words = [option.words for option in reasons.options]
            assert words[reasons.chosen] == reasons.words == record.game.describe_action(state, action)
            assert reasons.options[reasons.chosen].action == action
            assert len(words) == min(3, legal) == len(set(words)) and reasons.weighed == legal
            first = [option.values[0] for option in reasons.options]
            headings = tuple(column.heading for column in reasons.columns)
            if seat == 0:
                assert headings == ("VP vs best",) and "the best by its evaluation" in reasons.why
                assert first[:2] == sorted(first[:2], reverse=True) and first[0] == 0
                assert "not a forecast of the final score" in reasons.legend
            elif seat == 1:
                assert headings == ("win chance", "visits") and "after 40 iterations" in reasons.why
                visits = [option.values[1] for option in reasons.options]
                assert visits[reasons.chosen] == max(visits) and sum(visits) <= 40
            else:
                assert headings == ("win chance", "rollouts") and "the best mean value" in reasons.why
                assert first[reasons.chosen] == max(first) and {option.values[1] for option in reasons.options} == {3}
        else:
            assert seat == 2 or legal == 1
        state.apply(action)
    assert kept[0] > 20 and kept[1] > 20 and kept[2] == 0 and kept[3] > 20
    page = replay_page(record)
    data = replay_data(page)
    assert len(data["reasons"]) == len(data["frames"]) and data["reasons"][0] is None
    marked = [int(step) for step in re.findall(r'<div class="move why" data-step="(\d+)"', page)]
    assert marked == [i for i, r in enumerate(data["reasons"]) if r is not None]
    chosen = data["reasons"][marked[0]]
    kept_reasons = record.reasons[marked[0] - 1]
    assert chosen["rows"][chosen["c"]] == [kept_reasons.words, *kept_reasons.cells()[chosen["c"]]]
    assert chosen["cols"] == [column.heading for column in kept_reasons.columns]
    assert chosen["legend"] == kept_reasons.legend
    assert record_game(4, specs[:2], reasons=0).reasons == ()
    with pytest.raises(ValueError, match=r"reasons must be an integer in \[0, 10000\], got -1"):
        record_game(4, specs, reasons=-1)


def test_a_replay_seen_by_a_seat_shows_its_own_cards_and_no_other() -> None:
    record = record_game(8, ["random", "random"])
    hands = set()
    for viewer in (1, None):
        data = replay_data(replay_page(record, viewer))
        shown = {name for piece in data["pieces"] for name in re.findall(r'data-god-hand="([^"]+)"', piece)}
        assert all(name.startswith(f"{viewer}-") for name in shown)
        hands.add(bool(shown))
    assert hands == {True, False}
    with pytest.raises(ValueError, match=r"viewer must be an integer in \[0, 1\]"):
        replay_page(record, 2)


# ---------------------------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------------------------
def test_borabora_replay_writes_the_html_for_a_seed_and_for_a_game_of_a_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "seed.html"
    assert main(["replay", "--seed", "3", "--players", "random,random", "--html", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    frames = replay_data(out.read_text(encoding="utf-8"))["frames"]
    assert len(frames) == len(record_game(3, ["random"] * 2).actions) + 1
    run = tmp_path / "run"
    simulate(3, ["random", "random", "heuristic"], seed=5, n_jobs=1, out=run, progress=False, load=False)
    from_run = tmp_path / "run.html"
    assert main(["replay", "--run", str(run), "--game-id", "1", "--html", str(from_run)]) == 0
    page = from_run.read_text(encoding="utf-8")
    assert "; seat 0: the " in page and "seat 2: the" in page and "the balanced heuristic" in page
    assert len(replay_data(page)["frames"]) > 100


def test_borabora_replay_reasons_sets_the_options_shown_of_each_decision(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["replay", "--seed", "4", "--players", "heuristic,random", "--html", str(tmp_path / "g.html")]
    shown = {}
    for count in ("2", "0"):
        assert main([*argv, "--reasons", count]) == 0
        shown[count] = replay_data((tmp_path / "g.html").read_text(encoding="utf-8"))["reasons"]
    rows = [len(r["rows"]) for r in shown["2"] if r is not None]
    assert rows and set(rows) == {2} and shown["0"] == []
    assert main([*argv]) == 0           # the default: REASON_OPTIONS
    default = replay_data((tmp_path / "g.html").read_text(encoding="utf-8"))["reasons"]
    assert max(len(r["rows"]) for r in default if r is not None) == 6
    capsys.readouterr()
    assert main(["replay", "--seed", "4", "--players", "heuristic,random", "--reasons", "2"]) == 2
    assert "--reasons is for --html" in capsys.readouterr().err
    assert main([*argv, "--reasons", "-1"]) == 2
    assert "must be an integer in [0, 10000], got '-1'" in capsys.readouterr().err


def test_borabora_replay_html_into_a_missing_directory_is_one_line(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing/x.html"
    assert main(["replay", "--seed", "3", "--players", "random,random", "--html", str(target)]) == 2
    err = capsys.readouterr().err
    assert "no such directory" in err and err.count("\n") == 1 and not target.exists()
