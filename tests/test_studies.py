"""The strategy studies run end to end at a tiny size and write a report that states its sample sizes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from borabora_sim.studies import fishing
from borabora_sim.studies.variants import VARIANTS, variant_document


def test_fishing_study_runs_end_to_end_at_quick_size(tmp_path: Path) -> None:
    report = fishing.run(fishing.sized("quick"), tmp_path, log=lambda _: None)
    text = report.read_text()
    for heading in ("1. How often MCTS fishes", "2. Forbidding, allowing, preferring fishing",
                    "3. When fishing is the best move", "4. Robustness"):
        assert heading in text
    assert "paired games" in text and "95% CI" in text
    for figure in ("fishing_by_round.png", "fishing_arms.png"):
        assert (tmp_path / figure).stat().st_size > 0


def test_unknown_study_size_is_rejected() -> None:
    with pytest.raises(ValueError, match="quick, default, full"):
        fishing.sized("huge")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_component_variant_is_valid_and_changes_invented_values(name: str) -> None:
    from borabora_sim.components import load_components

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


def test_priest_study_runs_end_to_end_and_pairs_differ_only_by_the_priest(tmp_path: Path) -> None:
    from borabora_sim.studies import priest

    report = priest.run(priest.sized("quick", games=4), tmp_path, log=lambda _: None)
    text = report.read_text()
    assert "| round | pairs | vp_gain" in text and "direct temple VP" in text
    values = pd.read_parquet(tmp_path / "priest_values.parquet")
    assert set(values["round"]) == {1, 2, 3, 4, 5, 6}


def test_extra_priest_is_placed_like_a_temple_action() -> None:
    from borabora_sim.studies import priest

    state = priest.round_starts(7, ["heuristic"] * 4)[3]
    before = state.to_dict()["state"]["temple"]
    after = priest.with_extra_priest(state, 2).to_dict()["state"]["temple"]
    assert after[0] == 2
    end = before.index(-1) if -1 in before else len(before) - 1
    assert after[1:end + 1] == before[:end] and after[end + 1:] == before[end + 1:]
