"""What a person at the terminal reads: the terminal game numbers a decision's moves from 1, as a person counts,
and reads a typed number the same way (1 is the first move listed, the last number the last one, and 0 is no
move); `borabora --help` names everything each command makes, `replay`'s HTML page and PNG picture too."""

from __future__ import annotations

import re

from borabora_sim.cli import build_parser
from borabora_sim.games import get_game
from borabora_sim.terminal import HUMAN, TerminalGame

LISTED = re.compile(r"^\s+(\d+): (.*?)(?:   <- hint)?$")


def play_typing(answers: list[str], seed: int = 2) -> tuple[TerminalGame, list[str]]:
    """A 2-player Pig game of two human seats, given `answers` in turn and then q."""
    typed = iter([*answers, "q"])
    written: list[str] = []
    played = TerminalGame(get_game("pig"), [HUMAN, HUMAN], seed, lambda _: next(typed), written.append)
    played.play()
    return played, written


def first_listing(written: list[str]) -> list[tuple[int, str]]:
    """The numbers and words of the moves listed at the first decision."""
    start = next(i for i, line in enumerate(written) if line.startswith("\nYour decision, seat "))
    listing = []
    for line in written[start + 1:]:
        match = LISTED.match(line)
        if match is None:
            break
        listing.append((int(match[1]), match[2]))
    return listing


def test_the_moves_are_numbered_from_1() -> None:
    _, written = play_typing([])
    listing = first_listing(written)
    assert len(listing) >= 2
    assert [number for number, _ in listing] == list(range(1, len(listing) + 1))


def test_a_typed_number_names_the_move_listed_with_it() -> None:
    game = get_game("pig")
    _, written = play_typing([])
    listing = first_listing(written)
    for number, words in listing:
        played, said = play_typing([str(number)])
        assert "is not one of the legal choices" not in "\n".join(said)
        first = played.moves[0]
        assert game.describe_action(game.new_initial_state(players=2, seed=2), first.action) == words
        assert first.words == words


def test_0_and_one_past_the_last_number_are_refused() -> None:
    _, written = play_typing([])
    last = len(first_listing(written))
    played, said = play_typing(["0", str(last + 1)])
    assert not played.moves
    for bad in ("0", str(last + 1)):
        assert f"'{bad}' is not one of the legal choices below; help lists the commands." in said


def test_the_overview_of_the_commands_names_the_replay_page_and_picture() -> None:
    overview = " ".join(build_parser().format_help().split())
    replay = overview.split(" replay ", 1)[1].split(" analyze ", 1)[0]
    assert "HTML replay page (--html)" in replay and "PNG picture (--png)" in replay
