"""The component variants the studies and questions vary the INVENTED values with (the studies themselves:
tests/test_study_questions.py and tests/test_questions.py)."""

from __future__ import annotations

import pytest

from borabora_sim.games.bora_bora.variants import VARIANTS, variant_document


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_component_variant_is_valid_and_changes_invented_values(name: str) -> None:
    from borabora_sim.games.bora_bora.components import load_components

    base = load_components()
    variant = load_components(variant_document(name))
    changed = [key for key, mark in base.marks.items()
               if key in variant.marks and repr(_value(base, key)) != repr(_value(variant, key))]
    assert changed, "the variant changes nothing"
    assert all(base.marks[key] == "INVENTED" for key in changed), changed


def _value(components, path: str):
    doc = components.to_json_dict()
    for part in path.replace("]", "").replace("[", ".").split("."):
        doc = doc[int(part)] if part.isdigit() else doc.get(part) if isinstance(doc, dict) else None
        if doc is None:
            return None
    return doc
