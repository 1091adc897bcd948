"""The question engine's limits: a policy arm that would change an option its rung sets is refused (it would compare
another player than it says); numbers above their ceilings, over-long titles, over-deep nesting, out-of-range seeds
and question files that are folders or not text are refused in one line before any folder is made; the help's
examples name real questions; importing the package does not load the question engine; and an answer shows itself
in a notebook."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from borabora_sim import cli
from borabora_sim.questions import Answer, QuestionError, ask, list_questions, load_question
from borabora_sim.questions.question import (
    MAX_BUDGET_SECONDS,
    MAX_GAMES,
    MAX_NESTING,
    MAX_ROLLOUTS,
    MAX_TITLE,
    Question,
)

TINY = {"quick": {"games": 2, "search_games": 1, "robustness_games": 1}}


def setup_question(**fields: Any) -> dict[str, Any]:
    """A tiny setup question on Pig with `fields` changed."""
    return {"title": "Is moving first an advantage?", "game": "pig", "form": "setup", "vary": "players",
            "arms": [2], "sizes": TINY, **fields}


def refused_in_one_line(data: object) -> str:
    with pytest.raises(QuestionError) as refused:
        Question.from_dict(data)                       # type: ignore[arg-type]
    message = str(refused.value)
    assert "\n" not in message and len(message) < 400, message
    return message


def deep(levels: int, leaf: object = 1) -> dict[str, Any]:
    """A table nested `levels` deep: {"a": {"a": ... leaf}}, built without recursion."""
    table: dict[str, Any] = {"a": leaf}
    for _ in range(levels - 1):
        table = {"a": table}
    return table


# =============================================================================
# Arms and rungs
# =============================================================================
def test_an_arm_that_changes_its_rungs_option_is_refused_naming_the_arm_the_option_and_the_rung() -> None:
    message = refused_in_one_line({"title": "Expansion or balance?", "game": "bora_bora", "form": "policy",
                                   "rungs": ["heuristic", "tuned"],
                                   "arms": {"balanced": "", "expansion": "style=builder"}})
    assert message.startswith("arms.expansion sets style=builder, which rung tuned (the tuned heuristic: "
                              "heuristic:style=tuned) sets to tuned: an arm may not change an option its rung sets")
    assert "allowed: options tuned leaves unset" in message


def test_an_arm_may_set_options_its_rung_leaves_unset() -> None:
    question = Question.from_dict({"title": "Expansion or balance?", "game": "bora_bora", "form": "policy",
                                   "rungs": ["heuristic"], "arms": {"balanced": "", "expansion": "style=builder"}})
    assert [arm.value for arm in question.arms] == ["", "style=builder"]


def test_an_arm_that_makes_another_rung_names_the_player_it_plays_in_the_settings() -> None:
    hold = load_question("hold")
    arms = next(line for line in hold.settings("quick") if line.startswith("arms: "))
    assert ("keeping pace with the other player (`style=keep_pace`: the keep-pace player in place of the "
            "hold-at-20 player)") in arms
    assert "holding at 15 (`w_hold_at=15`);" in arms


def test_the_command_refuses_such_an_arm_in_one_line_writing_nothing(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "expansion.toml"
    path.write_text('title = "Expansion or balance?"\ngame = "bora_bora"\nform = "policy"\nrungs = ["tuned"]\n'
                    '[arms]\nbalanced = ""\nexpansion = { value = "style=builder", words = "leaning to expansion" }\n')
    out = tmp_path / "out"
    assert cli.main(["ask", str(path), "--out", str(out), "--size", "quick"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "arms.expansion sets style=builder, which rung tuned" in err
    assert not out.exists()


def test_every_built_in_question_still_loads() -> None:
    assert [load_question(name).title for name, _, _ in list_questions()] == [
        title for _, _, title in list_questions()]


# =============================================================================
# Ceilings, titles, nesting and seeds
# =============================================================================
CEILINGS = [
    ("games", MAX_GAMES), ("search_games", MAX_GAMES), ("robustness_games", MAX_GAMES),
    ("second_judge_games", MAX_GAMES), ("rollouts", MAX_ROLLOUTS),
]


@pytest.mark.parametrize(("key", "ceiling"), CEILINGS, ids=[key for key, _ in CEILINGS])
def test_a_count_above_its_ceiling_is_refused_and_the_ceiling_itself_is_taken(key: str, ceiling: int) -> None:
    for too_many in (ceiling + 1, 10**30):
        message = refused_in_one_line(setup_question(sizes={"quick": {key: too_many}}))
        assert message.startswith(f"sizes.quick.{key}: ") and f"at most {ceiling:,}" in message
    assert getattr(Question.from_dict(setup_question(sizes={"quick": {key: ceiling}})).size("quick"), key) == ceiling


@pytest.mark.parametrize("budget", [MAX_BUDGET_SECONDS + 1, 1e300, float("inf"), float("nan")])
def test_a_budget_above_a_week_or_not_a_number_is_refused(budget: float) -> None:
    message = refused_in_one_line(setup_question(sizes={"default": {"budget": budget}}))
    assert message.startswith("sizes.default.budget: ") and f"at most {MAX_BUDGET_SECONDS:,}" in message


@pytest.mark.parametrize("target", [1, 5.0, float("inf"), float("nan")])
def test_a_target_that_is_no_half_width_of_a_rate_is_refused(target: float) -> None:
    assert refused_in_one_line(setup_question(sizes={"default": {"target": target}})).startswith(
        "sizes.default.target: ")


def test_a_title_over_its_ceiling_is_refused_in_a_short_line_and_one_at_it_taken() -> None:
    message = refused_in_one_line(setup_question(title="Is moving first " + "x" * MAX_TITLE))
    assert message.startswith("title: ") and f"at most {MAX_TITLE}" in message
    assert len(Question.from_dict(setup_question(title="y" * MAX_TITLE)).title) == MAX_TITLE


def test_a_part_title_over_its_ceiling_is_refused_naming_the_part() -> None:
    parts = {"title": "Two parts", "game": "pig", "parts": [
        {"name": "first", "form": "setup", "vary": "players", "arms": [2], "title": "z" * (MAX_TITLE + 1)}]}
    assert refused_in_one_line(parts).startswith("parts.first.title: ")


@pytest.mark.parametrize("where", ["sizes", "colour", "arms", "parts"])
def test_a_table_nested_ten_thousand_deep_is_refused_not_a_recursion_error(where: str) -> None:
    message = refused_in_one_line(setup_question(**{where: deep(10_000)}))
    assert f"nested more than {MAX_NESTING} deep" in message


def test_the_deepest_nesting_a_question_uses_is_taken() -> None:
    parts = {"title": "Two parts", "game": "pig", "parts": [
        {"name": "first", "form": "setup", "vary": "players", "arms": [2],
         "sizes": {"quick": {"games": 2, "variants": []}}}]}
    assert Question.from_dict(parts).parts[0].size("quick").games == 2


@pytest.mark.parametrize("text", [
    "title = \"Deep\"\na = " + "[" * 5000 + "1" + "]" * 5000 + "\n",
    "title = \"Deep\"\na = " + "{ a = " * 3000 + "1" + " }" * 3000 + "\n",
    "title = \"Deep\"\n" + ".".join(["a"] * 3000) + " = 1\n",
], ids=["arrays", "inline tables", "dotted keys"])
def test_a_toml_file_nested_deep_is_refused_in_one_line(text: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(text)
    out = tmp_path / "out"
    assert cli.main(["ask", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nest" in err and "Recursion" not in err, err
    assert not out.exists()


def test_a_json_file_nested_deep_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"title": "Deep", "a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(QuestionError, match=f"deep.json nests its tables and lists too deep; a question nests at "
                                            f"most {MAX_NESTING}"):
        load_question(path)


@pytest.mark.parametrize("seed", [10**29, 2**64, -1])
def test_a_seed_out_of_range_is_refused_before_the_output_folder_is_made(seed: int, tmp_path: Path) -> None:
    out = tmp_path / "OUT"
    with pytest.raises(QuestionError, match=r"seed: .* must be a whole number >= 0 and below 2\*\*64"):
        ask(setup_question(seed=seed), out=out, size="quick", jobs=1, progress=False)
    assert not out.exists()


def test_a_thirty_digit_seed_in_a_file_is_refused_by_the_command_writing_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "seed.toml"
    path.write_text('title = "Is moving first an advantage?"\ngame = "pig"\nform = "setup"\narms = [2]\n'
                    "seed = 123456789012345678901234567890\n")
    out = tmp_path / "OUT"
    assert cli.main(["ask", str(path), "--out", str(out), "--size", "quick"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seed: 123456789012345678901234567890 must be" in err
    assert not out.exists()


def test_the_largest_seed_is_taken() -> None:
    assert Question.from_dict(setup_question(seed=2**64 - 1)).seed == 2**64 - 1


@pytest.mark.parametrize(("changes", "message"), [
    ({"jobs": 0}, "jobs must be a number of workers"),
    ({"scheduler": "tcp://127.0.0.1:1"}, "it needs backend \"dask\""),
])
def test_ask_refuses_its_own_arguments_before_the_output_folder_is_made(changes: dict[str, Any], message: str,
                                                                        tmp_path: Path) -> None:
    out = tmp_path / "OUT"
    with pytest.raises(ValueError, match=message):
        ask(setup_question(), out=out, size="quick", progress=False, **{"jobs": 1, **changes})
    assert not out.exists()


# =============================================================================
# Question files that are no question files
# =============================================================================
def test_a_folder_given_as_the_question_file_is_refused_naming_it(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "questions.toml"
    folder.mkdir()
    assert cli.main(["ask", str(folder), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err == (f"borabora ask: error: question file: {folder} is a folder; expected a question file (.toml or "
                   ".json) or a built-in question's name\n")


@pytest.mark.parametrize("name", ["binary.toml", "binary.json"])
def test_a_binary_question_file_is_refused_naming_it(name: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_bytes(bytes([0x99, 0xFF, 0x00, 0x81]) * 50)
    assert cli.main(["ask", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    kind = name.rpartition(".")[2].upper()
    assert err == f"borabora ask: error: question file: {path} is not text (UTF-8); expected {kind} text\n"
    assert not (tmp_path / "out").exists()


def test_a_binary_file_of_another_kind_is_refused_for_its_name_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(bytes([0x89, 0x50, 0xFF]) * 10)
    with pytest.raises(QuestionError, match=r"question file: 'picture\.png' must end in \.toml or \.json"):
        load_question(path)


# =============================================================================
# Help, the top-level `ask` and notebooks
# =============================================================================
def example_names(command: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The question names `borabora COMMAND --help`'s examples give (not files, not options)."""
    assert cli.main([command, "--help"]) == 0
    examples = capsys.readouterr().out.partition("examples:")[2].splitlines()
    words = [line.split("#")[0].split() for line in examples if line.strip().startswith("borabora")]
    return [w[2] for w in words if len(w) > 2 and not w[2].startswith("-") and not w[2].endswith((".toml", ".json"))]


def test_the_ask_help_examples_name_built_in_questions(capsys: pytest.CaptureFixture[str]) -> None:
    names = example_names("ask", capsys)
    assert len(names) >= 2
    assert set(names) <= {name for name, _, _ in list_questions()}


def test_the_analyze_help_examples_name_its_studies(capsys: pytest.CaptureFixture[str]) -> None:
    names = example_names("analyze", capsys)
    assert len(names) >= 2
    assert set(names) <= set(cli.studies())


def test_importing_the_package_does_not_load_the_question_engine() -> None:
    loaded = subprocess.run([sys.executable, "-c", "import sys, borabora_sim; "
                             "print('borabora_sim.questions' in sys.modules, 'pandas' in sys.modules)"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert loaded == ["False", "False"]


def test_an_answer_shows_its_question_and_sentences_as_markdown_in_a_notebook() -> None:
    question = load_question(setup_question())
    answer = Answer(question, "quick", {}, ["Place 1 wins 52% (50% to 54%)."], None, 1.0, 2.0,
                    lead=["Yes, slightly.", "Weaker players differ little."])
    assert answer._repr_markdown_() == ("### Is moving first an advantage?\n\nYes, slightly. Weaker players differ "
                                        "little.\n\n- Place 1 wins 52% (50% to 54%).")

