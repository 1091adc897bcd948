"""The picture of a Bamboo state (borabora_sim.games.bamboo.picture): well-formed and stable, every tile, shoot, spirit,
counter and stick of the state drawn and named by a data attribute, the order of the face-down stacks never
shown (a determinized copy draws the same), both modes and 2-4 players; and Bamboo's HTML replay, from Python and
from the command line. The replay in a real browser: test_viewer_browser.py."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from test_viewer import frame_svg, named, replay_data

from borabora_sim import _bamboo
from borabora_sim.cli import main
from borabora_sim.games import get_game
from borabora_sim.games.bamboo import new_game
from borabora_sim.games.bamboo.components import ACTIONS, HOME_TYPES, SIDES
from borabora_sim.games.bamboo.picture import shoot_name
from borabora_sim.viewer import record_game, renderer_names, to_svg

NO_TILE = 255
MODES = ("normal", "advanced")


def walk(players: int, seed: int, mode: str, every: int) -> list[Any]:
    """Copies of a random game of Bamboo every `every` decisions, its start and its end included."""
    state = new_game(players=players, seed=seed, mode=mode)
    rng = random.Random(seed)
    states = [state.clone()]
    step = 0
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        step += 1
        if step % every == 0 or state.is_terminal():
            states.append(state.clone())
    return states


def table(tree: ET.Element, attribute: str, value: str) -> dict[str, str]:
    """{name: value attribute} of every element named by `attribute`; a name drawn twice fails."""
    found = named(tree, attribute)
    result = {e.attrib[attribute]: e.attrib[value] for e in found}
    assert len(result) == len(found), f"{attribute} names an element twice"
    return result


def check_picture(state: Any, viewer: int | None) -> set[str]:
    """Asserts that the picture shows every thing of the state where it is, and nothing of a face-down stack;
    returns which of the rarer things it held (to show that a walk met them)."""
    c = state.components
    view = state.observation(0 if viewer is None else viewer)
    players = len(view["pl"])
    tree = ET.fromstring(to_svg(state, viewer))
    seen: set[str] = set()
    # Shoots: the reed field, the areas, the turn in progress and the draft pool; nothing else.
    expected = {f"stalk-{s + 1}-{level + 1}": shoot_name(k) for s, stalk in enumerate(view["stalk"])
                for level, k in enumerate(stalk)}
    expected |= {f"stalk-{s + 1}-new-{i + 1}": shoot_name(k) for s, new in enumerate(view["stalk_new"])
                 for i, k in enumerate(new) if k != NO_TILE}
    expected |= {f"{seat}-area-{t + 1}-{i + 1}": shoot_name(k) for seat, p in enumerate(view["pl"])
                 for t, area in enumerate(p["area"]) for i, k in enumerate(area) if k != NO_TILE}
    for name, kinds in (("to-place", view["to_place"]), ("received", view["received"][: view["n_received"]]),
                        ("draft", view["draft"])):
        expected |= {f"{name}-{i + 1}": shoot_name(k) for i, k in enumerate(kinds) if k != NO_TILE}
        seen |= {name} if any(k != NO_TILE for k in kinds) else set()
    assert table(tree, "data-shoot", "data-kind") == expected
    # Home tiles: the markets, the homes and one just bought; each once, and no other.
    homes = table(tree, "data-home-market", "data-tile")
    assert homes == {f"{'AB'[cat]}-{i + 1}": c.home_tile_ids[t] for cat, row in enumerate(view["home_market"])
                     for i, t in enumerate(row) if t != NO_TILE}
    spaces = {e.attrib["data-home-space"]: e for e in named(tree, "data-home-space")}
    assert len(spaces) == 15 * players
    night = dict(zip(map(int, c.night_cells), map(int, c.night_types), strict=True))
    for seat, p in enumerate(view["pl"]):
        for cell, tile in enumerate(p["home"]):
            space = spaces[f"{seat}-r{cell // 5 + 1}c{cell % 5 + 1}"]
            drawn = [e.attrib["data-tile"] for e in space.iter() if "data-tile" in e.attrib]
            assert drawn == ([] if tile == NO_TILE else [c.home_tile_ids[tile]])
            typed = HOME_TYPES[night[cell]] if p["advanced"] and cell in night else None
            assert space.attrib.get("data-night-type") == typed
    pending = [f["a"] for f in view["stack"] if _bamboo.DECISIONS[f["kind"]] == "home_space"]
    assert [e.attrib["data-tile"] for e in named(tree, "data-pending-home")] == [c.home_tile_ids[t] for t in pending]
    seen |= {"pending home tile"} if pending else set()
    every_home = [e.attrib["data-tile"] for e in named(tree, "data-tile") if e.attrib["data-tile"].startswith("H")]
    assert len(every_home) == len(set(every_home))
    # Balance tiles: the markets and the slots, with their HP.
    market = table(tree, "data-balance-market", "data-tile")
    assert market == {f"{SIDES[side]}-{i + 1}": c.balance_ids[t] for side, row in enumerate(view["bal_market"])
                      for i, t in enumerate(row) if t != NO_TILE}
    slots = table(tree, "data-balance-slot", "data-tile")
    assert slots == {f"{seat}-{SIDES[side]}-{j + 1}": c.balance_ids[t] for seat, p in enumerate(view["pl"])
                     for side, row in enumerate(p["balance"]) for j, t in enumerate(row) if t != NO_TILE}
    hp = {e.attrib["data-tile"]: int(e.attrib["data-hp"]) for e in named(tree, "data-tile")
          if e.attrib["data-tile"].startswith("B")}
    assert hp == {c.balance_ids[t]: int(c.balance_hp[t]) for t in range(len(c.balance_ids))
                  if c.balance_ids[t] in {*market.values(), *slots.values()}}
    # Stacks: sizes only.
    assert {k: (int(v), int(e)) for (k, v), e in zip(table(tree, "data-home-stack", "data-count").items(),
                                                       table(tree, "data-home-stack", "data-unseen").values(),
                                                       strict=True)} == {
        "AB"[cat]: (view["home_left"][cat], view["home_unseen"][cat]) for cat in range(2)}
    assert {k: int(v) for k, v in table(tree, "data-balance-stack", "data-count").items()} == dict(
        zip(SIDES, view["bal_left"], strict=True))
    # Spirits: face up on the temples, the stacks' heights, held (and asleep) by the players, gone.
    assert table(tree, "data-temple-spirit", "data-spirit") == {
        str(t + 1): c.spirit_names[view["spirit_stack"][t][left - 1]] for t, left in enumerate(view["spirit_left"])
        if left}
    assert table(tree, "data-spirit-stack", "data-count") == {str(t + 1): str(n)
                                                              for t, n in enumerate(view["spirit_left"])}
    held = {k: (int(n), int(a)) for (k, n), a in zip(table(tree, "data-player-spirit", "data-count").items(),
                                                     table(tree, "data-player-spirit", "data-asleep").values(),
                                                     strict=True)}
    assert held == {f"{seat}-{c.spirit_names[s]}": (n, p["asleep"][s]) for seat, p in enumerate(view["pl"])
                    for s, n in enumerate(p["spirits"]) if n}
    seen |= {"asleep spirit"} if any(a for _, a in held.values()) else set()
    assert table(tree, "data-spirit-gone", "data-count") == {
        name: str(n) for name, n in zip(c.spirit_names, view["spirit_gone"], strict=True) if n}
    # Incense in the temples (the ghost's too) and the 2-player temple tiles; the players' reserves and rounds.
    incense = {k: int(v) for k, v in table(tree, "data-incense", "data-count").items()}
    assert incense == {f"{t + 1}-{'ghost' if seat == 4 else seat}": n for t, row in enumerate(view["incense"])
                       for seat, n in enumerate(row) if n}
    tiles = table(tree, "data-temple-tile", "data-ghost-sticks")
    assert tiles == ({str(t + 1): str(row[4]) for t, row in enumerate(view["incense"])} if players == 2 else {})
    for seat, p in enumerate(view["pl"]):
        assert table(tree, "data-coins", "data-count")[str(seat)] == str(p["coins"])
        assert table(tree, "data-incense-reserve", "data-count")[str(seat)] == str(p["incense"])
        rounds = [int(v) for k, v in table(tree, "data-round-space", "data-stick").items() if k.startswith(f"{seat}-")]
        assert sum(rounds) == p["track"] and len(rounds) == 4
        food = {k: int(v) for k, v in table(tree, "data-player-food", "data-count").items()
                if k.startswith(f"{seat}-")}
        assert food == {f"{seat}-{name}": n for name, n in zip(c.food_names, p["food"], strict=True)}
        assert table(tree, "data-balance-scored", "data-count")[str(seat)] == str(p["n_scored"])
        assert table(tree, "data-hp-seat", "data-hp")[str(seat)] == str(state.scores()[seat])
        marker = table(tree, "data-action-marker", "data-area").get(str(seat))
        assert marker == (None if p["last_visit"] < 0 else str(p["last_visit"] + 1))
    # Food, the first player, the gifts and the season.
    display = table(tree, "data-food-display", "data-count")
    assert display == {name: str(n) for name, n in zip(c.food_names, view["food_display"], strict=True)}
    counters = sum(1 for e in named(tree, "data-food-display") for x in e if x.tag.endswith("circle"))
    assert counters == sum(view["food_display"])
    assert table(tree, "data-food-discard", "data-count") == {
        name: str(n) for name, n in zip(c.food_names, view["food_discard"], strict=True)}
    assert [e.attrib["data-count"] for e in named(tree, "data-food-pile")] == [str(view["food_left"])]
    assert [e.attrib["data-start-player"] for e in named(tree, "data-start-player")] == [str(view["start_seat"])]
    gifts = sorted(e.attrib["data-gift"] for e in named(tree, "data-gift"))
    assert gifts == sorted(ACTIONS[int(c.gift_action[g])] for g in range(4) if view["gifts_up"] >> g & 1)
    seen |= {"gifts"} if gifts else set()
    current = [e.attrib["data-current-season"] for e in named(tree, "data-current-season")]
    seasons = {"spring": "spring", "summer": "summer", "wake": "winter", "feed": "winter"}
    assert current == ([f"{state.round}-{seasons[state.phase]}"] if state.phase in seasons else [])
    return seen


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_thing_of_the_state_is_drawn_where_it_is_and_named(players: int, mode: str) -> None:
    met: set[str] = set()
    states = walk(players, 10 + players, mode, every=9)
    for k, state in enumerate(states):
        met |= check_picture(state, None if k % 2 else k % players)
    assert met >= {"draft", "to-place", "asleep spirit"}, met


def test_a_walk_meets_gifts_received_shoots_and_home_tiles_waiting_for_their_space() -> None:
    """The rarer moments: the gifts of a Spring, a shoot pushed off into a full area, a home tile bought and not
    yet placed."""
    rarer = {"gifts", "received", "pending home tile"}
    met: set[str] = set()
    state = new_game(players=3, seed=4, mode="advanced")
    rng = random.Random(4)
    while not state.is_terminal() and not met >= rarer:
        state.apply(rng.choice(state.legal_actions()))
        if state.decision in ("gift", "keep_shoot", "home_space"):
            met |= check_picture(state, 1)
    assert met >= rarer, met


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pictures_are_well_formed_and_stable(players: int, mode: str) -> None:
    for state in walk(players, players, mode, every=150):
        for viewer in (None, *range(players)):
            svg = to_svg(state, viewer)
            tree = ET.fromstring(svg)
            assert tree.attrib["data-game"] == "bamboo"
            assert tree.attrib["data-viewer"] == ("public" if viewer is None else str(viewer))
            assert svg == to_svg(state.clone(), viewer) == to_svg(state, viewer, game="bamboo")
            assert len({e.attrib["data-player"] for e in named(tree, "data-player")}) == players
            assert all(child.tag == "g" or child.attrib.get("data-panel") for child in tree)
            boards = {e.attrib["data-player"]: "(you)" in "".join(e.itertext()) for e in named(tree, "data-player")
                      if e.attrib["data-panel"] == f"player-{e.attrib['data-player']}-score"}
            assert boards == {str(seat): seat == viewer for seat in range(players)}


def test_the_end_names_the_winner_or_a_shared_victory() -> None:
    game = get_game("bamboo")
    for seed, text in ((80, "a shared victory of seats 0, 1"), (81, None)):
        state = game.new_initial_state(players=2, seed=seed)
        for action in game.random_game_actions(2, seed):
            state.apply(action)
        header = "".join(next(e for e in named(ET.fromstring(to_svg(state)), "data-panel")
                              if e.attrib["data-panel"] == "header").itertext())
        assert header.startswith(f"Bamboo: game over, {text or f'winner seat {state.winner()}'}")
        assert (max(state.returns()) < 1) == (text is not None)


@pytest.mark.parametrize(("players", "mode"), [(2, "advanced"), (3, "normal"), (4, "advanced")])
def test_a_determinized_copy_draws_the_same(players: int, mode: str) -> None:
    """A determinization redraws the order of the face-down stacks, the food pile and the hidden spirits: none
    of it may show."""
    for state in walk(players, 30 + players, mode, every=70)[1:-1]:
        full = state.to_dict()["state"]
        changed = False
        for viewer in range(players):
            pictures = (to_svg(state), to_svg(state, viewer))
            for seed in range(2):
                other = state.determinize(viewer, seed)
                changed |= other.to_dict()["state"] != full
                assert (to_svg(other), to_svg(other, viewer)) == pictures
        assert changed, "the determinizations changed nothing hidden: the test would prove nothing"


def test_bamboo_has_a_picture_and_a_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`borabora replay --game bamboo:mode=advanced --html` writes the game that record_game plays: its first and
    last frames are the pictures of the start and of the end."""
    assert "bamboo" in renderer_names()
    players, spec = ["heuristic", "random"], "bamboo:mode=advanced"
    out = tmp_path / "bamboo.html"
    assert main(["replay", "--game", spec, "--seed", "5", "--players", ",".join(players), "--html", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    data = replay_data(out.read_text(encoding="utf-8"))
    record = record_game(5, players, game=spec)
    state = record.game.new_initial_state(players=2, seed=5)
    assert frame_svg(data, 0) == to_svg(state)
    for action in record.actions:
        state.apply(action)
    assert state.is_terminal() and len(data["frames"]) == len(record.actions) + 1
    assert frame_svg(data, len(record.actions)) == to_svg(state)
    assert data["unit"] == "HP" and 'data-night-type="' in frame_svg(data, 0)
