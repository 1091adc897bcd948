"""What a person reads of a player and of Bamboo's picture: explanations and hints name the player in words ("the
strong AI", "the balanced heuristic"), never by its spec; Bamboo's shoots, header and pending decisions are
sentences in the rulebook's words, never the engine's codes ("C1 cook", "(draft)", "stalks (seat 2)")."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from conftest import first_position
from test_web import Client, start

import borabora_sim
from borabora_sim import _bamboo
from borabora_sim.games import get_game
from borabora_sim.games.bamboo import words as W
from borabora_sim.players import make_player
from borabora_sim.viewer import to_svg

SPEC_SYNTAX = re.compile(r"\b\w+:\w+=|\b\w+=\w")          # "mcts:iterations=2000", "rollout=heuristic"

NAMES = [("strong", "the strong AI"), ("best:threads=1", "the best AI"), ("heuristic", "the balanced heuristic"),
         ("heuristic:style=tuned", "the tuned heuristic"), ("random", "the random player"),
         ("mcts:iterations=40", "the tree search with 40 iterations a decision"),
         ("flatmc:rollouts=3", "the flat Monte Carlo search with 3 rollouts a move")]


@pytest.mark.parametrize(("spec", "words"), NAMES)
def test_an_explanation_names_its_player_in_words(spec: str, words: str) -> None:
    state = borabora_sim.new_game(players=2, seed=4)
    player = make_player(spec, 1, get_game())
    player.choose(state)
    text = player.explain(3)
    assert text.startswith(f"{words}: chose "), text
    assert not SPEC_SYNTAX.search(text.splitlines()[0]), text
    reasons = player.reasons(3)
    if reasons is not None:
        assert reasons.headline().startswith(f"{words}: chose ")


def test_browser_play_names_the_seats_and_the_advisor_in_words() -> None:
    server = start(["human", "mcts:iterations=30,rollout=heuristic,rollout_depth=30", "strong"])
    try:
        client = Client(server)
        view = client.state()
        assert view["seat_words"] == ["a person", "the tree search with 30 iterations a decision", "the strong AI"]
        view = client.to_human(view)
        status, advice = client.call("GET", "/api/advice?player=strong")
        assert status == 200 and advice["player_words"] == "the strong AI"
        assert advice["explanation"].startswith("the strong AI: chose "), advice["explanation"]
        assert not SPEC_SYNTAX.search(advice["explanation"].splitlines()[0])
        while not any(move["ai"] for move in view["moves"]):
            view = client.to_human(client.human_move(view, view["legal"][0]["action"]))
        ai_moves = [index for index, move in enumerate(view["moves"]) if move["ai"]]
        status, why = client.call("GET", f"/api/why?move={ai_moves[0]}")
        assert status == 200 and why["explanation"].startswith(f"{view['seat_words'][why['seat']]}: chose ")
    finally:
        server.shutdown()
        server.server_close()


def texts(svg: str) -> tuple[list[str], list[str]]:
    """The texts drawn and the hover texts (<title>) of a picture."""
    root = ET.fromstring(svg)
    drawn = ["".join(e.itertext()) for e in root.iter("{http://www.w3.org/2000/svg}text")]
    titles = [e.text or "" for e in root.iter("{http://www.w3.org/2000/svg}title")]
    return drawn, titles


def test_bamboo_shoots_header_and_pending_decisions_are_sentences() -> None:
    game = get_game("bamboo")
    start_state = game.new_initial_state(players=3, seed=7)
    drawn, titles = texts(to_svg(start_state, 0, game))
    header = next(text for text in drawn if text.startswith("Bamboo: round"))
    assert header.endswith(f"decides ({W.DECISION_WORDS['draft']})"), header
    svg = "{http://www.w3.org/2000/svg}"
    pieces = ET.fromstring(to_svg(start_state, 0, game)).iter(f"{svg}g")
    shoots = [piece.findtext(f"{svg}title") or "" for piece in pieces if "data-kind" in piece.attrib]
    assert shoots and all(re.fullmatch(r"temple-[1-4] (Balance|Improve Your Home|Cook|Fund|Wildcard) shoot: .+",
                                       title) for title in shoots), shoots
    assert "Nothing pending" in drawn or any(text.startswith("Next: ") for text in drawn)
    deep = first_position(game, 3, lambda state: len(state.observation(None)["stack"]) >= 2)
    drawn, titles = texts(to_svg(deep, 0, game))
    stack = deep.observation(None)["stack"]
    pending = next(text for text in drawn if text.startswith("Next: "))
    first = _bamboo.DECISIONS[stack[-1]["kind"]]
    assert pending.startswith(f"Next: seat {stack[-1]['player']} {W.DECISION_DOINGS[first]}, then "), pending
    codes = re.compile(r"\bC[1-4]\b|pending, top first|\((draft|stalks|activations|offering)\)|\(seat \d\)")
    assert [text for text in drawn + titles if codes.search(text)] == []
