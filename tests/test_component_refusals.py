"""Every field of the component documents of every game that has component data, given bad values. A value no
field allows is refused with a one-line ComponentError naming the field, the value and what is allowed. A value of
the field's own type either is refused with a ComponentError naming a field (this one, or another that the change
makes inconsistent, as a region id that paths still use) or gives a document on which games start: the engine never
refuses what the loader took.

A field is a value of the built-in document at one place of its format, provenance aside; the first record of a
list stands for the others (``balance_tiles[0].hp`` for every balance tile's ``hp``), as does the first item of a
list of values (``status_vp.values[0]``). Documents are given as dicts and written as files.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import components_of, games_with_components, walk

from borabora_sim.component_files import ComponentError, show
from borabora_sim.games import game_names, get_game
from borabora_sim.games.bamboo.components import ENGINE_NUMBERS, ENGINE_SINGLE_EFFECTS

Key = str | int
PROVENANCE = ("mark", "marks", "source", "sources")


GAMES = games_with_components()
BUILTIN: dict[str, dict[str, Any]] = {name: components_of(name).to_json_dict() for name in GAMES}
# A parameter (game, path) of the field tests for each game without component data, skipped saying so.
WITHOUT_COMPONENTS = [pytest.param(name, (), id=name, marks=pytest.mark.skip(reason=f"{name} gives no component data"))
                      for name in game_names() if name not in GAMES]


def where(path: tuple[Key, ...]) -> str:
    """The field path of the messages: ``tasks[0].requirements[1].count``."""
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")


def schema(path: tuple[Key, ...]) -> str:
    """The place of the format a path is at: ``tasks[].requirements[].count``."""
    return re.sub(r"\[\d+\]", "[]", where(path))


def fields(doc: dict[str, Any]) -> list[tuple[Key, ...]]:
    """One path for each place of the format holding a value: not the sections, nor the records of a list section."""
    found: dict[str, tuple[Key, ...]] = {}
    for path, _ in walk(doc):
        is_record = len(path) == 2 and isinstance(path[1], int)
        if len(path) >= 2 and not is_record and not any(key in PROVENANCE for key in path):
            found.setdefault(schema(path), path)
    return list(found.values())


FIELDS = [pytest.param(game, path, id=f"{game}:{where(path)}") for game in GAMES for path in fields(BUILTIN[game])]


def value_at(doc: Any, path: tuple[Key, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def edited(game: str, path: tuple[Key, ...], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(BUILTIN[game])
    value_at(doc, path[:-1])[path[-1]] = value
    return doc


def one_line(error: ComponentError) -> ComponentError:
    assert "\n" not in str(error) and error.problem and error.allowed, str(error)
    return error


def refusal(game: str, source: Any) -> ComponentError:
    """The ComponentError loading `source` raises, checked to be one line with a problem and what is allowed."""
    with pytest.raises(ComponentError) as error:
        components_of(game, source)
    return one_line(error.value)


# Values no field allows: of no field's JSON type, negative, above every range (the widest is Pig's goal, 1..200),
# blank.
WRONG: tuple[Any, ...] = (None, -1, 201, 2**64, 0.5, "", " ", [], {})


def wrong_values(value: Any) -> tuple[Any, ...]:
    """WRONG and the values of another type that are easily mistaken for one of the field's own."""
    if isinstance(value, bool):
        return (*WRONG, 1, "true")
    if isinstance(value, int):
        return (*WRONG, True, "3")
    return WRONG


@pytest.mark.parametrize(("game", "path"), FIELDS + WITHOUT_COMPONENTS)
def test_a_wrong_value_is_refused_naming_the_field_and_the_value(game: str, path: tuple[Key, ...]) -> None:
    for value in wrong_values(value_at(BUILTIN[game], path)):
        error = refusal(game, edited(game, path, value))
        assert error.source == "<dict>"
        if value == {} and isinstance(value_at(BUILTIN[game], path), dict):  # a record: its first field is missing
            assert error.field.startswith(f"{where(path)}."), str(error)
        else:
            assert error.field == where(path), str(error)
        if not isinstance(value, list | dict):
            assert show(value) in error.problem, str(error)


@pytest.mark.parametrize(("game", "path"), FIELDS + WITHOUT_COMPONENTS)
def test_a_wrong_value_in_a_file_is_refused_naming_the_file_and_the_field(game: str, path: tuple[Key, ...],
                                                                          tmp_path: Path) -> None:
    file = tmp_path / "components.json"
    file.write_text(json.dumps(edited(game, path, None)), encoding="utf-8")
    error = refusal(game, file)
    assert str(error) == f"{file}: {where(path)}: {error.problem}; allowed: {error.allowed}"
    assert "None" in error.problem


def own_type_values(doc: dict[str, Any], path: tuple[Key, ...]) -> list[Any]:
    """Values a field of this type could hold: for an integer, the small ones and those at the ends of the ranges;
    for a name, those of the same field in other records (up to 12) and one no table holds; both flags."""
    value = value_at(doc, path)
    if isinstance(value, bool):
        return [True, False]
    if isinstance(value, int):
        return [*range(13), 15, 16, 20, 21, 24, 26, 30, 31, 36, 60, 61, 96, 97, 99]
    place = schema(path)
    return [*sorted({v for p, v in walk(doc) if isinstance(v, str) and schema(p) == place})[:12], "unheard_of"]


SCALAR_FIELDS = [field for field in FIELDS if not isinstance(value_at(BUILTIN[field.values[0]], field.values[1]),
                                                             list | dict)]


@pytest.mark.parametrize(("game", "path"), SCALAR_FIELDS + WITHOUT_COMPONENTS)
def test_a_value_of_the_fields_type_is_refused_naming_a_field_or_the_game_starts(game: str,
                                                                                 path: tuple[Key, ...]) -> None:
    for value in own_type_values(BUILTIN[game], path):
        try:
            components = components_of(game, edited(game, path, value))
        except ComponentError as error:
            assert one_line(error).source == "<dict>", str(error)
            assert error.field not in ("<document>", "<file>", "source"), str(error)
            continue
        for players in get_game(game).player_counts:
            try:
                get_game(game, components=components).new_initial_state(players, 1)
            except Exception as exc:  # the engine refused what the loader accepted
                pytest.fail(f"{where(path)} = {value!r} was accepted, then a {players}-player game refused it: "
                            f"{type(exc).__name__}: {exc}")


BUILT_FOR = "the value the compiled engine is built for"


def _set(path: str, value: int) -> Callable[[dict[str, Any]], None]:
    section, field = path.split(".")
    return _set_all(section, **{field: value})


def _set_all(section: str, **values: int) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc[section].update(values)


def _spirit_amount(effect: str, amount: int) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        next(spirit for spirit in doc["spirits"] if spirit["effect"] == effect)["amount"] = amount
    return edit


def _food_kinds(counts: list[int]) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        doc["food"] = [{**doc["food"][0], "name": f"food{i}", "count": count} for i, count in enumerate(counts)]
    return edit


def _spirit(effect: str) -> int:
    return next(i for i, spirit in enumerate(BUILTIN["bamboo"]["spirits"]) if spirit["effect"] == effect)


# Documents of Bamboo's format the compiled engine cannot play: (edit, the field path, the message after the path).
# A field the format ties to others is changed together with them.
ENGINE_CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    **{path: (_set(path, value), path, f"{value}; allowed: {built_for}, {BUILT_FOR}")
       for path, value, built_for in (
           ("home.rows", 4, 3), ("home.cols", 6, 5), ("setup.start_left_balance", 2, 1), ("setup.drafted_shoots", 1, 2),
           ("setup.spirit_stack_size", 5, 4), ("setup.balance_face_up", 4, 3), ("setup.home_face_up", 3, 4),
           ("setup.food_face_up", 6, 5), ("board.stalk_new_shoots", 3, 2), ("board.temple_area_spaces", 5, 4),
           ("board.balance_slots", 3, 2), ("actions.balance_steps", 3, 2))},
    "setup.incense_per_player": (_set_all("setup", start_incense=4, incense_per_player=8), "setup.incense_per_player",
                                 f"8; allowed: 7, {BUILT_FOR}"),
    "setup.rounds": (_set_all("setup", start_incense=2, rounds=5), "setup.rounds", f"5; allowed: 4, {BUILT_FOR}"),
    "board.stalks": (_set_all("board", stalks=6, stalk_shaded_spaces=2), "board.stalks", f"6; allowed: 4, {BUILT_FOR}"),
    "two food kinds": (_food_kinds([13, 13]), "food", f"2 kinds of food; allowed: exactly 3, {BUILT_FOR}"),
    "four food kinds": (_food_kinds([8, 6, 6, 6]), "food", f"4 kinds of food; allowed: exactly 3, {BUILT_FOR}"),
    **{f"{effect} amount": (_spirit_amount(effect, 2), f"spirits[{_spirit(effect)}].amount",
                            f"2 for the effect {effect}; allowed: 1 (the compiled engine performs the effect once)")
       for effect in ENGINE_SINGLE_EFFECTS},
}


def test_every_number_the_compiled_engine_fixes_has_a_case() -> None:
    assert set(ENGINE_NUMBERS) <= {field for _, field, _ in ENGINE_CASES.values()}


@pytest.mark.parametrize("case", ENGINE_CASES)
def test_a_number_the_compiled_engine_is_not_built_for_is_refused_on_load(case: str, tmp_path: Path) -> None:
    edit, field, message = ENGINE_CASES[case]
    doc = copy.deepcopy(BUILTIN["bamboo"])
    edit(doc)
    file = tmp_path / "mine.json"
    file.write_text(json.dumps(doc), encoding="utf-8")
    for source, name in ((doc, "<dict>"), (file, str(file))):
        assert str(refusal("bamboo", source)) == f"{name}: {field}: {message}"
