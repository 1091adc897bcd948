"""Loading, provenance and validation of every game's component data (borabora_sim/component_files.py, which every
game's components.py loads with): what is the same for every registered game that has component data, with each
game's own malformed data (BAD_COMPONENTS of its samples), then what only Bora Bora's file holds
(borabora_sim/games/bora_bora/components.py). Bamboo's own: tests/test_bamboo_components.py."""

from __future__ import annotations

import codecs
import json
import os
import pickle
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import (
    accepted_change,
    component_loader,
    components_of,
    games_with_components,
    needs_components,
    sample,
    sample_params,
    samples_of,
)

from borabora_sim.component_files import ComponentError
from borabora_sim.games import game_names, get_game
from borabora_sim.games.bora_bora.components import (
    MARKS,
    MAX_FILE_BYTES,
    PERSON_TYPES,
    TASK_REQUIREMENT_KINDS,
    Components,
    load_components,
)

GAMES = game_names()
Edit = Callable[[dict[str, Any]], Any]


def builtin_document(name: str) -> dict[str, Any]:
    return components_of(name).to_json_dict()


# =============================================================================
# Every game's component file
# =============================================================================
SAMPLES = ("COMPONENT_CHANGE", "COMPONENT_FILE_ERROR", "BAD_COMPONENTS")


@pytest.mark.parametrize("name", games_with_components())
def test_every_game_with_component_data_gives_its_samples_of_it(name: str) -> None:
    assert [constant for constant in SAMPLES if not hasattr(samples_of(name), constant)] == []


@pytest.mark.parametrize("name", GAMES)
def test_a_users_file_replaces_the_builtin_one(name: str, tmp_path: Path) -> None:
    change = accepted_change(name)
    builtin = change.read(components_of(name))
    assert builtin != change.value
    doc = builtin_document(name)
    change.apply(doc, mark="CONFIRMED", source="a photo of the tile")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    mine = components_of(name, path)
    assert change.read(mine) == change.value
    assert mine.marks[change.path] == "CONFIRMED"
    assert mine.sources[change.path] == "a photo of the tile"
    assert mine.source_path == str(path)
    assert change.read(components_of(name)) == builtin
    from_dict = components_of(name, doc)
    assert from_dict.source_path == "<dict>" and change.read(from_dict) == change.value


@pytest.mark.parametrize("name", GAMES)
def test_loaded_dict_is_not_shared_with_the_caller(name: str) -> None:
    change = accepted_change(name)
    doc = builtin_document(name)
    change.apply(doc)
    loaded = components_of(name, doc)
    change.record_in(doc)[change.field] = change.value + 1
    assert change.read(loaded) == change.value
    assert change.record_in(loaded.to_json_dict())[change.field] == change.value


@pytest.mark.parametrize("name", GAMES)
def test_arrays_are_read_only(name: str) -> None:
    arrays = [v for v in vars(components_of(name)).values() if isinstance(v, np.ndarray)]
    assert arrays
    for array in arrays:
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = array.flat[0]


# ---- malformed data: each game's cases, each naming the field ------------------------------------------------------
@pytest.mark.parametrize(("name", "case", "malformed"), sample_params("BAD_COMPONENTS", "malformed component data"))
def test_malformed_data_names_the_field(name: str, case: str, malformed: tuple[Edit, str]) -> None:
    change, expected = malformed
    doc = builtin_document(name)
    change(doc)
    with pytest.raises(ComponentError) as error:
        components_of(name, doc)
    message = str(error.value)
    assert message.startswith("<dict>: ")
    assert expected in message
    assert "; allowed: " in message


@pytest.mark.parametrize("name", GAMES)
def test_a_file_error_names_the_file_and_the_field(name: str, tmp_path: Path) -> None:
    doc = builtin_document(name)
    change, expected = sample(name, "COMPONENT_FILE_ERROR", "value its component file cannot hold")
    change(doc)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ComponentError) as error:
        components_of(name, path)
    assert str(error.value) == f"{path}: {expected}"
    assert (error.value.source, error.value.field) == (str(path), expected.partition(":")[0])


# ---- what is read: the source, the file and its bytes -------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("source", "expected"), [
    (5, "<int>: source: neither a file path nor a dict; allowed: None (the built-in file), a file path"),
    ([1, 2], "<list>: source: neither a file path nor a dict"),
    (b"components.json", "<bytes>: source: neither a file path nor a dict"),
    ("", "'': source: an empty path"),
])
def test_unusable_source(name: str, source: Any, expected: str) -> None:
    with pytest.raises(ComponentError) as error:
        components_of(name, source)
    assert str(error.value).startswith(expected)


@pytest.mark.parametrize("name", GAMES)
def test_unreadable_paths(name: str, tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(ComponentError) as error:
        components_of(name, str(missing))
    assert str(error.value).startswith(f"{missing}: <file>: cannot be read (No such file or directory)")
    with pytest.raises(ComponentError) as error:
        components_of(name, tmp_path / "a\0b.json")
    assert ": <file>: cannot be opened (" in str(error.value)


NOT_REGULAR = "; allowed: a regular file (not a directory, FIFO, device or socket)"


def _refused(name: str, source: Any) -> str:
    with pytest.raises(ComponentError) as error:
        components_of(name, source)
    assert (error.value.field, error.value.allowed) == ("<file>", NOT_REGULAR.removeprefix("; allowed: "))
    return str(error.value)


@pytest.mark.parametrize("name", GAMES)
def test_a_directory_is_refused(name: str, tmp_path: Path) -> None:
    assert _refused(name, tmp_path) == f"{tmp_path}: <file>: a directory{NOT_REGULAR}"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("name", GAMES)
def test_a_fifo_is_refused_without_waiting_for_a_writer(name: str, tmp_path: Path) -> None:
    needs_components(name)              # here, not in the thread below
    fifo = tmp_path / "components.json"
    os.mkfifo(fifo)
    messages: list[str] = []
    reader = threading.Thread(target=lambda: messages.append(_refused(name, fifo)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():  # the reader waits in open(): a writer lets it go on, so that the test can end
        with open(fifo, "wb"):
            pass
        reader.join()
        pytest.fail("loading a FIFO waited for a writer")
    assert messages == [f"{fifo}: <file>: a FIFO (named pipe){NOT_REGULAR}"]


@pytest.mark.skipif(not Path("/dev/zero").is_char_device(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("name", GAMES)
def test_a_device_is_refused(name: str) -> None:
    assert _refused(name, "/dev/zero") == f"/dev/zero: <file>: a character device{NOT_REGULAR}"


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets on this system")
@pytest.mark.parametrize("name", GAMES)
def test_a_socket_is_refused(name: str, tmp_path: Path) -> None:
    path = tmp_path / "components.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        assert _refused(name, path) == f"{path}: <file>: a socket{NOT_REGULAR}"


@pytest.mark.parametrize("name", GAMES)
def test_a_path_with_a_line_break_is_quoted(name: str, tmp_path: Path) -> None:
    path = tmp_path / "two\nlines.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ComponentError) as error:
        components_of(name, path)
    assert str(error.value).startswith(f"{str(path)!r}: <document>: not valid JSON")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("name", [name for name in GAMES if component_loader(name) is None])
def test_a_game_without_component_data_refuses_any_in_one_line(name: str, tmp_path: Path) -> None:
    for source in (tmp_path, {}, 1.5):
        with pytest.raises(ValueError, match=rf"^{name} has no component data to replace \(got .*\)$"):
            get_game(name, components=source)


@pytest.mark.parametrize("name", GAMES)
def test_a_new_game_reports_component_errors(name: str, tmp_path: Path) -> None:
    needs_components(name)
    with pytest.raises(ComponentError, match="<file>: a directory"):
        get_game(name, components=tmp_path).new_initial_state(2, 1)
    with pytest.raises(ComponentError, match="<float>: source"):
        get_game(name, components=1.5).new_initial_state(2, 1)


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


BAD_FILES: dict[str, tuple[bytes, str]] = {
    "binary": (bytes(range(256)), "<file>: a NUL byte at offset 0 (binary data, or UTF-16 or UTF-32 text)"),
    "latin-1": ('{"a": "caf\u00e9"}'.encode("latin-1"), "<file>: not UTF-8 (byte 0xe9 at offset 10)"),
    "UTF-16 with byte-order mark": ('{"a": 1}'.encode("utf-16"), "<file>: UTF-16 or UTF-32 text"),
    "UTF-16 without byte-order mark": ('{"a": 1}'.encode("utf-16-le"), "<file>: a NUL byte at offset 1"),
    "UTF-32": ('{"a": 1}'.encode("utf-32"), "<file>: UTF-16 or UTF-32 text"),
    "empty": (b"", "<file>: empty"),
    "blank": (b" \n\t", "<file>: empty"),
    "unclosed object": (b"{", "<document>: not valid JSON"),
    "syntax error": (b'{\n  "a": 1,\n}', "<document>: not valid JSON: Expecting property name enclosed in double "
                     "quotes at line 3, column 1"),
    "deep nesting": (_deep(200_000).encode(), "<document>: nested too deeply to parse"),
    "NaN": (b'{"fishing_vp": {"value": NaN}}', "<document>: NaN is not a JSON number"),
    "repeated key": (b'{"a": 1, "b": 2, "a": 3}', "<document>: the key 'a' appears twice in one object"),
    "long integer": (b'{"a": ' + b"9" * 5000 + b"}", "<document>: an integer literal of 5000 digits"),
    "array": (b"[]", "<document>: list instead of an object"),
    "too large": (b" " * (MAX_FILE_BYTES + 1), f"<file>: larger than {MAX_FILE_BYTES} bytes"),
}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("case", BAD_FILES)
def test_malformed_files(name: str, case: str, tmp_path: Path) -> None:
    content, expected = BAD_FILES[case]
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ComponentError) as error:
        components_of(name, path)
    assert str(error.value).startswith(f"{path}: {expected}")
    assert "; allowed: " in str(error.value)


@pytest.mark.parametrize("name", GAMES)
def test_utf8_byte_order_mark_and_the_size_limit_are_accepted(name: str, tmp_path: Path) -> None:
    change = accepted_change(name)
    doc = builtin_document(name)
    change.apply(doc)
    path = tmp_path / "bom.json"
    path.write_bytes(codecs.BOM_UTF8 + json.dumps(doc).encode())
    assert change.read(components_of(name, path)) == change.value
    text = json.dumps(doc)
    path.write_text(text + " " * (MAX_FILE_BYTES - len(text)), encoding="utf-8")
    assert path.stat().st_size == MAX_FILE_BYTES
    assert change.read(components_of(name, path)) == change.value


# =============================================================================
# Bora Bora's component file
# =============================================================================
@pytest.fixture(scope="module")
def builtin() -> Components:
    return load_components()


@pytest.fixture
def doc(builtin: Components) -> dict[str, Any]:
    return builtin.to_json_dict()


def test_builtin_counts_and_shapes(builtin: Components) -> None:
    c = builtin
    assert c.source_path == "builtin"
    assert len(c.region_ids) == 12
    assert len(c.island_names) == 5
    assert c.land_path.shape == c.water_path.shape == (12, 12)
    assert (c.land_path > 0).sum() == (c.water_path > 0).sum() == 16  # 8 land + 8 water paths, both directions
    assert np.array_equal(c.land_path, c.land_path.T)
    assert np.array_equal(c.water_path, c.water_path.T)
    assert sorted(c.fish_value.tolist()) == [1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6]
    assert len(c.fish_type_names) == 4
    assert c.person_sex.tolist() == [0] * 36 + [1] * 36
    for sex in (0, 1):
        types = c.person_type[c.person_sex == sex]
        assert np.bincount(types, minlength=len(PERSON_TYPES)).tolist() == [3] * 12
        assert sorted(c.person_symbols[c.person_sex == sex].tolist()) == [1] * 12 + [2] * 12 + [3] * 12
    assert len(c.task_ids) == 60
    assert c.task_crane.dtype == np.bool_
    assert c.task_crane.sum() == 7
    assert c.task_crane[:7].all()
    assert c.task_req_kind.shape == c.task_req_count.shape == c.task_req_param.shape == (60, 2)
    assert c.jewelry_kind.shape == (24,)
    assert c.jewelry_kind_names[c.necklace_kind] == "necklace"
    assert sorted(set(zip(c.jewelry_cost.tolist(), c.jewelry_vp.tolist(), strict=True))) == [
        (1, 1), (2, 2), (3, 4), (4, 5), (5, 7), (6, 9)
    ]
    assert c.status_vp.shape == (16,)
    assert c.temple_values.tolist() == [6, 5, 4, 3, 2, 1]
    assert c.ceremony_rows * c.ceremony_cols == c.ceremony_material.size == 12
    assert c.building_values.tolist() == [1, 2, 3, 4, 5, 6]
    assert c.building_vp_by_round.tolist() == [10, 10, 7, 7, 4, 4]
    assert c.temple_vp_by_round.tolist() == [1, 1, 2, 2, 3, 3]
    assert c.start_vp.tolist() == [0, 1, 2, 3]
    assert c.helper_cost.tolist() == [1, 1, 1, 2, 2, 2, 2]
    assert (c.fishing_vp, c.start_huts_on_12th_space, c.regular_person_spaces) == (2, 2, 11)


def test_arrays_are_int8_and_the_crane_flags_bool(builtin: Components) -> None:
    arrays = [v for v in vars(builtin).values() if isinstance(v, np.ndarray)]
    assert len(arrays) == 25
    for array in arrays:
        assert not array.flags.writeable
        assert array.dtype == (np.bool_ if array is builtin.task_crane else np.int8)


def test_confirmed_map_example(builtin: Components) -> None:
    """R 'Expand': from the central mountain, land 4 north, land 2 west, water 5 south, water 4 east."""
    ids = builtin.region_ids
    mountain = ids.index("C_SE")
    assert builtin.region_terrain[mountain] == 0
    land = {ids[j]: int(v) for j, v in enumerate(builtin.land_path[mountain]) if v}
    water = {ids[j]: int(v) for j, v in enumerate(builtin.water_path[mountain]) if v}
    assert land == {"C_NE": 4, "C_SW": 2}
    assert water == {"S_E": 5, "E_S": 4}


def test_task_requirements_are_encoded(builtin: Components) -> None:
    c = builtin
    t06 = c.task_ids.index("T06")
    kinds = [TASK_REQUIREMENT_KINDS[k] for k in c.task_req_kind[t06]]
    assert kinds == ["men", "first_player"]
    assert c.task_req_param[t06].tolist() == [-1, -1]
    t28 = c.task_ids.index("T28")
    assert TASK_REQUIREMENT_KINDS[c.task_req_kind[t28, 0]] == "jewelry_of_kind"
    assert c.task_req_param[t28, 0] == c.necklace_kind
    assert c.task_req_count[t28, 0] == 2
    assert c.task_req_kind[t28, 1] == -1
    assert c.task_req_count[t28, 1] == 0
    t59 = c.task_ids.index("T59")
    assert PERSON_TYPES[c.task_req_param[t59, 0]] == "shell"


def test_marks_and_sources(builtin: Components) -> None:
    assert builtin.marks["regions[3].terrain"] == "CONFIRMED"
    assert builtin.marks["regions[4].terrain"] == "INVENTED"
    assert builtin.marks["building_vp_by_round.values"] == "DERIVED"
    assert builtin.marks["temple_vp_by_round.values"] == "CONFIRMED"
    assert set(builtin.marks.values()) == set(MARKS)
    assert builtin.marks.keys() == builtin.sources.keys()
    assert "R 'Expand' map example" in builtin.sources["paths[0].value"]
    invented = builtin.invented()
    assert "jewelry_tiles[0].vp" in invented
    assert "status_vp.values" in invented
    assert "start_vp.values" not in invented


def test_to_json_dict_is_a_copy(builtin: Components) -> None:
    first = builtin.to_json_dict()
    first["regions"].clear()
    assert len(builtin.to_json_dict()["regions"]) == 12


def test_modified_dict_loads(doc: dict[str, Any]) -> None:
    doc["paths"][0]["value"] = 6
    doc["paths"][0]["mark"] = "INVENTED"
    c = load_components(doc)
    a, b = c.region_ids.index("C_SE"), c.region_ids.index("C_NE")
    assert c.land_path[a, b] == c.land_path[b, a] == 6
    assert c.marks["paths[0].value"] == "INVENTED"
    assert c.source_path == "<dict>"
    assert load_components().land_path[a, b] == 4


def test_deeply_nested_dict_is_refused_with_a_short_message(doc: dict[str, Any]) -> None:
    nested: list[Any] = []
    for _ in range(100_000):
        nested = [nested]
    doc["regions"][0]["id"] = nested
    with pytest.raises(ComponentError) as error:
        load_components(doc)
    assert str(error.value).startswith("<dict>: regions[0].id: [[[[")
    assert str(error.value).endswith("]]]]; allowed: a non-empty string")
    assert len(str(error.value)) < 100


def test_messages_stay_short_for_long_names(doc: dict[str, Any]) -> None:
    doc["islands"][0]["name"] = "x" * 100_000
    with pytest.raises(ComponentError) as error:
        load_components(doc)
    assert str(error.value).startswith("<dict>: regions[0].island: 'central' is not a known name; allowed: xxx")
    assert len(str(error.value)) < 200


def test_component_error_survives_pickling(doc: dict[str, Any]) -> None:
    """Errors raised in worker processes reach the caller pickled."""
    doc["fish_tiles"][1]["value"] = 9
    with pytest.raises(ComponentError) as error:
        load_components(doc)
    copied = pickle.loads(pickle.dumps(error.value))
    assert str(copied) == str(error.value)
    assert (copied.source, copied.field, copied.allowed) == ("<dict>", "fish_tiles[1].value", "an integer 1..6")
