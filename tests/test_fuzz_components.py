"""Fuzzing of the component data of every game that has some: an edited copy of a built-in file is refused with a
ComponentError, or it gives games that play to the end with every engine invariant holding.

Hypothesis edits the built-in document (values set to boundary or mistyped values, names swapped between
fields, keys deleted or renamed, list items removed or repeated, lists truncated), or sets its data values to
other values of their type and range (plausible edits, which load more often), or damages the bytes of its file
(truncated, bytes inserted or overwritten). Loading happens in this process. Games are played in a child
process, this file run as a script, so that a crash of the compiled engine fails the case that caused it,
with the edits named, instead of killing the test run; the child is started again after a crash.

More cases: ``BORABORA_FUZZ_CASES=20000 pytest tests/test_fuzz_components.py --hypothesis-show-statistics``
(the statistics count the cases refused and played).
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
import select
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

import pytest
from conftest import builtin_component_file, components_of, games_with_components, walk
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from borabora_sim.component_files import ComponentError
from borabora_sim.games import game_names, get_game
from borabora_sim.games.bora_bora.components import load_components

CASES = int(os.environ.get("BORABORA_FUZZ_CASES", "300"))
MAX_MOVES = 2000  # random games end in fewer than 400 moves (tests/test_properties.py), Bamboo's in fewer than 600
ANSWER_TIMEOUT = 60.0  # seconds for one game in the child, start-up included


GAMES = games_with_components()
# A parameter of the fuzz tests for each game without component data, skipped saying so.
WITHOUT_COMPONENTS = [pytest.param(name, marks=pytest.mark.skip(reason=f"{name} gives no component data"))
                      for name in game_names() if name not in GAMES]
# each game's built-in file, as its package keeps it
BUILTIN_TEXTS = {name: builtin_component_file(name).read_bytes() for name in GAMES}
BUILTINS: dict[str, dict[str, Any]] = {name: json.loads(text) for name, text in BUILTIN_TEXTS.items()}
Key = str | int


def settings_for(cases: int) -> settings:
    return settings(max_examples=cases, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---- edits of the document ---------------------------------------------------------------------------------------
class Edit(NamedTuple):
    op: str  # set, delete, rename, remove, repeat, truncate
    path: tuple[Key, ...]
    value: Any = None

    def __repr__(self) -> str:
        where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in self.path).lstrip(".") or "<document>"
        return f"{self.op} {where}" + ("" if self.op in ("delete", "remove", "repeat") else f" {self.value!r}")


def apply(doc: Any, edit: Edit) -> None:
    *parent_path, key = edit.path
    parent = doc
    for k in parent_path:
        parent = parent[k]
    if edit.op == "set":  # a copy: later edits must not change the Edit, which is replayed
        parent[key] = copy.deepcopy(edit.value)
    elif edit.op in ("delete", "remove"):
        del parent[key]
    elif edit.op == "rename":
        parent[edit.value] = parent.pop(key)
    elif edit.op == "repeat":
        parent.insert(key, copy.deepcopy(parent[key]))
    else:  # truncate the list at path to value items
        parent[key] = parent[key][: edit.value]


NAMES = {game: sorted({v for _, v in walk(doc) if isinstance(v, str) and len(v) <= 20})
         for game, doc in BUILTINS.items()}
BOUNDARY_INTS = (-2**63, -129, -128, -1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 15, 16, 17, 23, 24, 25, 30, 31,
                 36, 59, 60, 61, 72, 127, 128, 255, 256, 2**15, 2**16, 2**31, 2**63, 2**64)
ODD_VALUES = (None, True, False, 0.5, 1.0, -0.0, math.inf, "", " ", "x" * 300, [], [1], {}, {"kind": "men"})
PROVENANCE = ("mark", "marks", "source", "sources")


def field_name(path: tuple[Key, ...]) -> Key:
    """The name of the field at `path`, or of the list holding it (``values`` for ``status_vp.values[3]``)."""
    return next((key for key in reversed(path) if isinstance(key, str)), "")


def is_data(node: tuple[tuple[Key, ...], Any]) -> bool:
    """A single data value (a number, a name, a flag), not provenance."""
    path, value = node
    return not isinstance(value, dict | list) and not any(key in PROVENANCE for key in path)


def same_field(doc: dict[str, Any]) -> dict[Key, list[Any]]:
    """Field name -> the distinct values it has anywhere in the document."""
    values: dict[Key, list[Any]] = {}
    for path, value in walk(doc):
        if not isinstance(value, dict | list):
            values.setdefault(field_name(path), []).append(value)
    return {name: list({(type(v), v): v for v in found}.values()) for name, found in values.items()}


SAME_FIELD = {name: same_field(doc) for name, doc in BUILTINS.items()}


def usual_values(game: str, path: tuple[Key, ...], value: Any) -> list[st.SearchStrategy[Any]]:
    """Values of the type and about the range of the field at `path`, or that a field of that name has elsewhere."""
    usual = [st.sampled_from(SAME_FIELD[game].get(field_name(path)) or [value])]
    if isinstance(value, bool):
        usual.append(st.booleans())
    elif isinstance(value, int):
        usual.append(st.integers(-1, 12))
    return usual


@st.composite
def edits(draw: st.DrawFn, game: str, plausible: bool) -> list[Edit]:
    """Edits, each drawn from the document as the earlier ones left it. Plausible edits set data values to values
    of their type and range: many load, and their games test the engine. The others also set odd values, delete,
    rename, remove, repeat and truncate, mostly testing the loader."""
    doc = copy.deepcopy(BUILTINS[game])
    chosen = []
    for _ in range(draw(st.integers(1, 4 if plausible else 3))):
        # A section first, then a value in it: short sections are edited as often as long ones.
        section = draw(st.sampled_from(sorted(doc)))
        nodes = [node for node in walk(doc[section], (section,)) if is_data(node) or not plausible]
        path, value = draw(st.sampled_from(nodes))
        if plausible:
            edit = Edit("set", path, draw(st.one_of(usual_values(game, path, value))))
        else:
            in_list = isinstance(path[-1], int)
            ops = ["set"] * 4 + ["copy"] * 2 + ["remove" if in_list else "delete", "repeat" if in_list else "rename"]
            op = draw(st.sampled_from(ops + (["truncate"] if isinstance(value, list) and value else [])))
            if op == "copy":  # another value of the file: sometimes of the right type, or a name valid elsewhere;
                # a copy, as the value drawn is a part of the document that later edits may change
                edit = Edit("set", path, copy.deepcopy(draw(st.sampled_from(list(walk(doc))))[1]))
            elif op == "set":
                odd = [st.sampled_from(BOUNDARY_INTS), st.sampled_from(NAMES[game]), st.sampled_from(ODD_VALUES)]
                edit = Edit("set", path, draw(st.one_of(*usual_values(game, path, value), *odd)))
            elif op == "rename":
                edit = Edit("rename", path, f"{path[-1]}_")
            elif op == "truncate":
                edit = Edit("truncate", path, draw(st.integers(0, len(value) - 1)))
            else:
                edit = Edit(op, path)
        apply(doc, edit)
        chosen.append(edit)
    return chosen


# ---- games in a child process ------------------------------------------------------------------------------------
def play(game: str, doc: dict[str, Any], players: int, seed: int, choices: int) -> int:
    """Plays a uniformly random game to its end, checking the invariants after every move; returns the moves."""
    state = get_game(game, components=doc).new_initial_state(players, seed)
    rng = random.Random(choices)
    while True:
        broken = state.check_invariants()
        if broken is not None:
            raise AssertionError(f"invariant broken after move {state.move_count}: {broken}")
        if state.is_terminal():
            break
        if state.move_count >= MAX_MOVES:
            raise AssertionError(f"the game has not ended after {MAX_MOVES} moves")
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    if len(state.scores()) != players:
        raise AssertionError(f"scores for {len(state.scores())} players in a {players}-player game")
    moves: int = state.move_count
    return moves


def serve() -> None:
    """The child: one JSON case per line in, one JSON answer per line out."""
    for line in sys.stdin:
        case = json.loads(line)
        try:
            answer = {"moves": play(**case)}
        except Exception as error:  # every failure is a finding, reported to the parent
            answer = {"problem": f"{type(error).__name__}: {error}"}
        print(json.dumps(answer), flush=True)


class Player:
    """The parent's end of the child process; a new child is started after a crash."""

    def __init__(self, errors: IO[str]) -> None:
        self.child: subprocess.Popen[str] | None = None
        self.errors = errors

    def play(self, case: dict[str, Any]) -> dict[str, Any]:
        """The child's answer: {"moves": n}, {"problem": text} for an exception, or {"crash": text}."""
        if self.child is None:
            self.errors.seek(0)
            self.errors.truncate()
            self.child = subprocess.Popen([sys.executable, "-X", "faulthandler", __file__], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self.errors, text=True)
        assert self.child.stdin is not None and self.child.stdout is not None
        try:
            self.child.stdin.write(json.dumps(case) + "\n")
            self.child.stdin.flush()
        except BrokenPipeError:
            pass  # the child is gone: the empty answer below reports it
        if not select.select([self.child.stdout], [], [], ANSWER_TIMEOUT)[0]:
            self.child.kill()
            self.child.wait()
            self.child = None
            return {"crash": f"no answer within {ANSWER_TIMEOUT:.0f} s"}
        line = self.child.stdout.readline()
        if line:
            return json.loads(line)
        code = self.child.wait()
        self.child = None
        self.errors.seek(0)
        return {"crash": f"exit code {code}; stderr: {self.errors.read()[-2000:]}"}

    def close(self) -> None:
        if self.child is not None:
            assert self.child.stdin is not None
            self.child.stdin.close()
            self.child.wait(timeout=ANSWER_TIMEOUT)


@pytest.fixture(scope="module")
def player() -> Iterator[Player]:
    with tempfile.TemporaryFile("w+") as errors:
        child = Player(errors)
        yield child
        child.close()


@pytest.fixture(scope="module")
def damaged_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "components.json"


def refused_or_played(player: Player, game: str, source: Any, what: str, players: int, seed: int,
                      choices: int) -> None:
    try:
        components = components_of(game, source)
    except ComponentError as error:
        event("refused")
        assert error.source == ("<dict>" if isinstance(source, dict) else str(source)), error
        assert error.field and error.problem and error.allowed, error
        return
    answer = player.play({"game": game, "doc": components.to_json_dict(), "players": players, "seed": seed,
                          "choices": choices})
    assert "crash" not in answer, f"the engine crashed on components {what}: {answer['crash']}"
    assert "problem" not in answer, f"a game on components {what} went wrong: {answer['problem']}"
    event("played")


DIGITS = {name: [i for i, byte in enumerate(text) if chr(byte).isdigit()]  # where damage may still load
          for name, text in BUILTIN_TEXTS.items()}
BYTES = st.one_of(st.sampled_from(b"0123456789"), st.sampled_from(b'{}[],:"-.etx\\ \n'), st.integers(0, 255))
GAME_CASES = {"seed": st.integers(0, 2**64 - 1), "choices": st.integers(0, 2**32)}


def players_of(data: st.DataObject, game: str) -> int:
    """A player count the game allows."""
    return data.draw(st.sampled_from(get_game(game).player_counts), label="players")


def edited(game: str, changes: list[Edit]) -> dict[str, Any]:
    doc = copy.deepcopy(BUILTINS[game])
    for change in changes:
        apply(doc, change)
    return doc


@pytest.mark.slow
@pytest.mark.parametrize("game", [*GAMES, *WITHOUT_COMPONENTS])
@settings_for(CASES)
@given(data=st.data(), **GAME_CASES)
def test_edited_documents_are_refused_or_play(player: Player, game: str, data: st.DataObject, seed: int,
                                              choices: int) -> None:
    changes = data.draw(edits(game, plausible=False), label="changes")
    refused_or_played(player, game, edited(game, changes), f"edited by {changes}", players_of(data, game), seed,
                      choices)


@pytest.mark.slow
@pytest.mark.parametrize("game", [*GAMES, *WITHOUT_COMPONENTS])
@settings_for(CASES)
@given(data=st.data(), **GAME_CASES)
def test_plausible_edits_are_refused_or_play(player: Player, game: str, data: st.DataObject, seed: int,
                                             choices: int) -> None:
    changes = data.draw(edits(game, plausible=True), label="changes")
    refused_or_played(player, game, edited(game, changes), f"edited by {changes}", players_of(data, game), seed,
                      choices)


@pytest.mark.parametrize("game", [*GAMES, *WITHOUT_COMPONENTS])
@settings_for(max(1, CASES // 3))
@given(data=st.data(), **GAME_CASES)
def test_damaged_files_are_refused_or_play(player: Player, damaged_file: Path, game: str, data: st.DataObject,
                                           seed: int, choices: int) -> None:
    text = BUILTIN_TEXTS[game]
    at = data.draw(st.one_of(st.integers(0, len(text)), st.sampled_from(DIGITS[game])), label="offset")
    damage = data.draw(st.sampled_from(("truncate", "insert", "overwrite")), label="damage")
    inserted = b"" if damage == "truncate" else bytes(data.draw(st.lists(BYTES, min_size=1, max_size=4), label="bytes"))
    end = at + len(inserted) if damage == "overwrite" else at
    content = text[:at] + inserted + (b"" if damage == "truncate" else text[end:])
    damaged_file.write_bytes(content)
    refused_or_played(player, game, damaged_file, f"damaged by {damage} {inserted!r} at byte {at}",
                      players_of(data, game), seed, choices)


def set_every(doc: dict[str, Any], section: str, value: Any, field: str | None = None) -> None:
    """Sets every data value of `section` (only those of `field`, if given) to `value`."""
    for path, _ in [node for node in walk(doc[section], (section,)) if is_data(node)]:
        if field is None or field_name(path) == field:
            apply(doc, Edit("set", path, value))


def generous(doc: dict[str, Any]) -> None:
    """The largest rewards and the smallest costs the format allows."""
    for section, field, value in (("person_tiles", "symbols", 9), ("jewelry_tiles", "cost", 0),
                                  ("jewelry_tiles", "vp", 9), ("tasks", "count", 1), ("paths", "value", 1)):
        set_every(doc, section, value, field)
    for section, value in (("status_vp", 15), ("building_vp_by_round", 30), ("temple_vp_by_round", 9),
                           ("start_vp", 9), ("fishing_vp", 9), ("helper_cost", 1), ("start_huts_on_12th_space", 12)):
        set_every(doc, section, value)
    ones = [tile for tile in doc["fish_tiles"] if tile["value"] == 1][:4]  # the fewest 1-fish allowed
    for tile in doc["fish_tiles"]:
        tile["value"] = 1 if tile in ones else 6


def stingy(doc: dict[str, Any]) -> None:
    """The smallest rewards and the largest costs the format allows."""
    for section, field, value in (("person_tiles", "symbols", 1), ("jewelry_tiles", "cost", 9),
                                  ("jewelry_tiles", "vp", 1), ("paths", "value", 6)):
        set_every(doc, section, value, field)
    for section, value in (("status_vp", 0), ("building_vp_by_round", 0), ("temple_vp_by_round", 0),
                           ("start_vp", 0), ("fishing_vp", 0), ("helper_cost", 9), ("building_values", 6),
                           ("start_huts_on_12th_space", 1)):
        set_every(doc, section, value)
    for task in doc["tasks"]:
        for requirement in task["requirements"]:
            requirement["count"] = 1 if requirement["kind"] == "first_player" else 60


@pytest.mark.parametrize("extreme", [generous, stingy])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_extreme_documents_play(player: Player, extreme: Callable[[dict[str, Any]], None], players: int) -> None:
    doc = copy.deepcopy(BUILTINS["bora_bora"])
    extreme(doc)
    for seed in range(3):
        answer = player.play({"game": "bora_bora", "doc": load_components(doc).to_json_dict(), "players": players,
                              "seed": seed, "choices": seed})
        assert answer.get("moves", 0) > 0, answer


def test_a_crashed_child_is_reported_and_replaced(player: Player) -> None:
    case = {"game": "bora_bora", "doc": BUILTINS["bora_bora"], "players": 2, "seed": 1, "choices": 2}
    assert player.play(case)["moves"] > 0
    assert player.child is not None
    player.child.kill()
    assert player.play(case)["crash"].startswith("exit code -9")
    assert player.play(case)["moves"] > 0


if __name__ == "__main__":
    serve()
