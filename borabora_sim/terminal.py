"""The terminal game (`borabora play`): human and AI seats at one game, in the game's words.

A human seat sees the board's text picture once, then at each of its decisions only the lines that changed since
its last look, the AI moves as they are made, and its choices. Besides a choice (its number, its words or the
engine's name of the move) it may type a command:

    help          the commands, and the rules of the decision at hand in one line
    board         the whole board again
    hint [SPEC]   what an AI (default: the preset strong) would play here, and why; the move is marked in the list
    why           why the last AI move was made: the options it weighed
    undo          back to your previous decision (the AI moves after it are taken back too)
    q, quit       abandon the game

The game is kept as its start and its moves, and undo replays them. An AI seat is seeded afresh for each of its
decisions from the game seed, the seat and the number of decisions since the start (as in browser play), so that
the same position always gets the same AI move, however often undo reaches it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from borabora_sim.players import make_player
from borabora_sim.players.base import SeededPlayer
from borabora_sim.protocol import Game
from borabora_sim.simulate import player_seed

HUMAN = "human"
DEFAULT_ADVISOR = "strong"      # the preset: the game's strongest search at about 0.1 s a move
REASON_OPTIONS = 8              # the options a hint and an AI move's reasons show
COMMANDS = (
    ("help", "the commands, and the rules of this decision in one line"),
    ("board", "the whole board again"),
    ("hint [SPEC]", f"what an AI would play here and why (default {DEFAULT_ADVISOR}; e.g. hint best, hint heuristic)"),
    ("why", "why the last AI move was made"),
    ("undo", "back to your previous decision"),
    ("q", "abandon the game"),
)


@dataclass(frozen=True)
class Played:
    """A move: the seat, the action, its words, and for an AI seat its explanation."""

    seat: int
    action: int
    words: str
    explanation: str | None = None


class TerminalGame:
    """One game of `game` between the seats `specs` ("human" for a person) from `seed`, read with `read(prompt)`
    and written with `write(text)`."""

    def __init__(self, game: Game, specs: Sequence[str], seed: int, read: Callable[[str], str],
                 write: Callable[[str], None]) -> None:
        self.game, self.specs, self.seed = game, tuple(specs), seed
        self.read, self.write = read, write
        self.ai: dict[int, SeededPlayer] = {seat: make_player(spec, None, game)
                                            for seat, spec in enumerate(self.specs) if spec != HUMAN}
        self.humans = tuple(seat for seat, spec in enumerate(self.specs) if spec == HUMAN)
        self.start = game.new_initial_state(players=len(self.specs), seed=seed)
        self.state = self.start.clone()
        self.moves: list[Played] = []
        self.seen: dict[int, list[str]] = {}          # the board's lines as each human seat last saw them

    def play(self) -> None:
        """Plays the game to its end; Ctrl-C, the end of the input or q abandon it."""
        self.write(f"game seed {self.seed}; seats: " + ", ".join(f"{s}: {spec}" for s, spec in enumerate(self.specs)))
        if self.humans:
            self.write("type help for the commands (board, hint, why, undo, q)")
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player
                if seat in self.ai:
                    self._ai_move(seat)
                else:
                    self._human_turn(seat)
        except (KeyboardInterrupt, EOFError):
            self.write("\ngame abandoned")
            return
        self.write(f"\nfinal scores {self.state.scores()}; winner seat {self.state.winner()}")
        for seat, row in enumerate(self.state.score_breakdown()):
            self.write(f"  seat {seat}: " + ", ".join(f"{self.game.describe_source(k)} {v}" for k, v in row.items()
                                                      if v))

    # ----------------------------------------------------------------------------------------------------------
    # Moves
    # ----------------------------------------------------------------------------------------------------------
    def _decision_seed(self, stream: int) -> int:
        """The seed of an AI decision now: from the game seed, the seat (the advisor's stream is after the seats)
        and the number of decisions since the start."""
        return self.game.derive_seed(player_seed(self.seed, stream, self.game), len(self.moves))

    def _apply(self, move: Played) -> None:
        self.state.apply(move.action)
        self.moves.append(move)

    def _ai_move(self, seat: int) -> None:
        player = self.ai[seat]
        player.reset(self._decision_seed(seat))
        action = player.choose(self.state.clone())
        move = Played(seat, action, self.game.describe_action(self.state, action), player.explain(REASON_OPTIONS))
        self.write(f"seat {seat} ({player.in_words()}): {move.words}")
        self._apply(move)

    def undo(self) -> Played | None:
        """Back to the position before the last human decision (and the AI moves after it), replaying the moves
        before it; the decision taken back, or None when there is none."""
        last = next((i for i in range(len(self.moves) - 1, -1, -1) if self.moves[i].explanation is None), None)
        if last is None:
            return None
        undone = self.moves[last]
        self.moves = self.moves[:last]
        self.state = self.start.clone()
        for move in self.moves:
            self.state.apply(move.action)
        return undone

    # ----------------------------------------------------------------------------------------------------------
    # A human's decision
    # ----------------------------------------------------------------------------------------------------------
    def _show_board(self, seat: int, whole: bool = False) -> None:
        """The board as `seat` sees it: the whole of it the first time (or when asked), else the lines that changed
        since its last look."""
        lines = self.game.render(self.state, seat).splitlines()
        before = self.seen.get(seat)
        self.seen[seat] = lines
        if before is None or whole:
            self.write("\n" + "\n".join(lines))
            return
        known = set(before)
        changed = [line for line in lines if line not in known]
        self.write("\nChanged since your last decision:" if changed else "\nNothing changed on the board.")
        for line in changed:
            self.write("  " + line)

    def _list_choices(self, legal: list[int], words: list[str], hinted: int | None = None) -> None:
        state = self.state
        self.write(f"\nYour decision, seat {state.current_player}: {self.game.describe_decision(state)} "
                   f"({self.game.describe_phase(state)})")
        for number, (action, text) in enumerate(zip(legal, words, strict=True), start=1):
            self.write(f"  {number:>2}: {text}" + ("   <- hint" if action == hinted else ""))

    def _choice(self, answer: str, legal: list[int], words: list[str]) -> int | None:
        """The legal action `answer` names: its number in the list (from 1), its words or the engine's name of it."""
        if answer.isdecimal() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        folded = answer.casefold()
        for action, text in zip(legal, words, strict=True):
            if text.casefold() == folded:
                return action
        try:
            action = self.state.action_from_string(answer)
        except ValueError:
            return None
        return action if action in legal else None

    def _human_turn(self, seat: int) -> None:
        """Shows the board's changes and the choices, and answers commands until a move is made (or undone)."""
        self._show_board(seat)
        legal = self.state.legal_actions()
        words = self.game.describe_actions(self.state, legal)
        self._list_choices(legal, words)
        while True:
            answer = self.read("choose a number or a move (help for the commands, q to quit): ").strip()
            command, _, argument = answer.partition(" ")
            command = command.casefold()
            if command in ("q", "quit"):
                raise KeyboardInterrupt
            if command in ("help", "?"):
                self._help()
            elif command == "board" and not argument:
                self._show_board(seat, whole=True)
                self._list_choices(legal, words)
            elif command == "why" and not argument:
                self._why()
            elif command == "hint":
                hinted = self._hint(argument.strip() or DEFAULT_ADVISOR)
                if hinted is not None:
                    self._list_choices(legal, words, hinted)
            elif command == "undo" and not argument:
                undone = self.undo()
                if undone is None:
                    self.write("There is no decision of yours to undo since the start of this game.")
                    continue
                self.write(f"Undone: back to before seat {undone.seat}'s move: {undone.words}")
                return
            else:
                action = self._choice(answer, legal, words)
                if action is not None:
                    self._apply(Played(seat, action, words[legal.index(action)]))
                    return
                self.write(f"'{answer}' is not one of the legal choices below; help lists the commands.")
                self._list_choices(legal, words)

    def _help(self) -> None:
        decision = str(self.state.decision)
        self.write("Type the number of a move, or its words. Commands:")
        for name, what in COMMANDS:
            self.write(f"  {name:<12} {what}")
        hint = self.game.rules_hint(decision)
        if hint:
            self.write(f"Rules of this decision ({self.game.describe_decision(self.state)}): {hint}")

    def _why(self) -> None:
        last = next((move for move in reversed(self.moves) if move.explanation is not None), None)
        if last is None:
            self.write("No AI move yet: why explains the last AI move.")
            return
        self.write(f"Why seat {last.seat} ({self.ai[last.seat].in_words()}) played {last.words}:")
        self.write(last.explanation or "")

    def _hint(self, spec: str) -> int | None:
        """What the AI `spec` would play now, with its reasons; its action, or None when the spec is refused."""
        if spec == HUMAN:
            self.write("hint: name an AI player, e.g. hint strong, hint best or hint heuristic")
            return None
        try:
            advisor = make_player(spec, None, self.game)
        except (ValueError, TypeError) as error:
            self.write(f"hint: {error}")
            return None
        advisor.reset(self._decision_seed(len(self.specs)))
        action = advisor.choose(self.state.clone())
        words = advisor.in_words()
        self.write(f"{words[:1].upper()}{words[1:]} would play: {self.game.describe_action(self.state, action)}")
        self.write(advisor.explain(REASON_OPTIONS))
        return action


def play_in_terminal(game: Game, specs: Sequence[str], seed: int, read: Callable[[str], str],
                     write: Callable[[str], None]) -> TerminalGame:
    """Plays one game in the terminal (TerminalGame) and returns it."""
    played = TerminalGame(game, specs, seed, read, write)
    played.play()
    return played


__all__ = ["TerminalGame", "play_in_terminal"]
