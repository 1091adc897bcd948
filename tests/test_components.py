"""Loading, provenance and validation of the component data (borabora_sim/components.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from borabora_sim.components import (
    MARKS,
    PERSON_TYPES,
    TASK_REQUIREMENT_KINDS,
    ComponentError,
    Components,
    load_components,
)


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


def test_arrays_are_read_only_int8(builtin: Components) -> None:
    arrays = [v for v in vars(builtin).values() if isinstance(v, np.ndarray)]
    assert len(arrays) == 25
    for array in arrays:
        assert not array.flags.writeable
        assert array.dtype == (np.bool_ if array is builtin.task_crane else np.int8)
    with pytest.raises(ValueError, match="read-only"):
        builtin.fish_value[0] = 6


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


def test_loads_from_file(doc: dict[str, Any], tmp_path: Path) -> None:
    doc["fishing_vp"]["value"] = 3
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    c = load_components(path)
    assert c.fishing_vp == 3
    assert c.source_path == str(path)


def _empty_west_island(doc: dict[str, Any]) -> None:
    for region in doc["regions"]:
        if region["island"] == "west":
            region["island"] = "central"


def _cut_off_north(doc: dict[str, Any]) -> None:
    doc["paths"] = [p for p in doc["paths"] if not (p["a"].startswith("C") and p["b"].startswith("N"))]


def _two_fish_ones(doc: dict[str, Any]) -> None:
    ones = [f for f in doc["fish_tiles"] if f["value"] == 1]
    ones[0]["value"] = ones[1]["value"] = 2


BAD: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "bad terrain": (lambda d: d["regions"][3].update(terrain="swamp"), "regions[3].terrain"),
    "region count": (lambda d: d["regions"].pop(), "regions: 11 records"),
    "unknown path end": (lambda d: d["paths"][2].update(b="Z_Z"), "paths[2].b"),
    "self loop": (lambda d: d["paths"][0].update(b=d["paths"][0]["a"]), "paths[0].b"),
    "duplicate path": (lambda d: d["paths"].append(dict(d["paths"][1])), "paths[16]"),
    "path value": (lambda d: d["paths"][5].update(value=7), "paths[5].value"),
    "missing mark": (lambda d: d["regions"][0].pop("mark"), "regions[0].id: no provenance mark"),
    "bad mark": (lambda d: d["fish_tiles"][1].update(mark="GUESSED"), "fish_tiles[1].mark"),
    "mark for unknown field": (lambda d: d["paths"][0].update(marks={"colour": "DERIVED"}), "paths[0].marks.colour"),
    "disconnected map": (_cut_off_north, "paths: N_W, N_E cannot be reached"),
    "too few 1-fish": (_two_fish_ones, "fish_tiles: 2 tiles of value 1"),
    "unknown top-level key": (lambda d: d.update(colours=[]), "colours: unknown key"),
    "missing section": (lambda d: d.pop("temple"), "temple: missing"),
    "format version": (lambda d: d.update(format_version=2), "format_version"),
    "empty island": (_empty_west_island, "regions: no region has 'west'"),
    "person count": (lambda d: d["person_tiles"][0]["symbols"].pop(), "person_tiles: 35 man tiles"),
    "person type missing": (lambda d: d["person_tiles"][13].update(type="land_path"), "no woman tile has 'water_path'"),
    "symbols range": (lambda d: d["person_tiles"][2].update(symbols=[1, 0, 3]), "person_tiles[2].symbols[1]"),
    "crane count": (lambda d: d["tasks"][7].update(crane=True), "tasks: 8 crane tasks"),
    "requirement kind": (lambda d: d["tasks"][0]["requirements"][1].update(kind="wives"),
                         "tasks[0].requirements[1].kind"),
    "missing param": (lambda d: d["tasks"][27]["requirements"][0].pop("param"), "tasks[27].requirements[0].param"),
    "unexpected param": (lambda d: d["tasks"][0]["requirements"][0].update(param="blue"),
                         "tasks[0].requirements[0].param"),
    "zero count": (lambda d: d["tasks"][3]["requirements"][0].update(count=0), "tasks[3].requirements[0].count"),
    "jewelry vp": (lambda d: d["jewelry_tiles"][5].update(vp=10), "jewelry_tiles[5].vp"),
    "no necklace": (lambda d: d["jewelry_kinds"][0].update(name="collar"), "jewelry_kinds: no kind named 'necklace'"),
    "status decreasing": (lambda d: d["status_vp"].update(values=[0, 1, 2, 3] * 4), "status_vp.values"),
    "temple values": (lambda d: d["temple"].update(values=[6, 5, 4, 3, 2, 2]), "temple.values"),
    "ceremony material": (lambda d: d["ceremony"].update(materials=[["sand"] * 4, ["stone"] * 4, ["sand"] * 4]),
                          "ceremony.materials: 0 wood spaces"),
    "helper key": (lambda d: d["helper_cost"].pop("tattoo"), "helper_cost.tattoo: missing"),
    "bool as int": (lambda d: d["fishing_vp"].update(value=True), "fishing_vp.value"),
}


@pytest.mark.parametrize("name", BAD)
def test_malformed_data_names_the_field(doc: dict[str, Any], name: str) -> None:
    change, expected = BAD[name]
    change(doc)
    with pytest.raises(ComponentError) as error:
        load_components(doc)
    assert expected in str(error.value)
    assert "allowed:" in str(error.value)


def test_invalid_json_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ComponentError, match="not valid JSON"):
        load_components(path)
