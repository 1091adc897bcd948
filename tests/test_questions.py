"""The question engine (borabora_sim.questions): question files are checked before any game is played, every form
runs on both games, an interrupted question continues from its kept games, and the written answer says only what
its table's verdicts allow, in game words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from game_words import identifiers_in

from borabora_sim import cli
from borabora_sim.games import get_game
from borabora_sim.questions import Question, QuestionError, ask, builtin_questions, list_questions, load_question
from borabora_sim.questions.forms import choice as choice_form
from borabora_sim.questions.forms import gift as gift_form
from borabora_sim.questions.forms.common import WIN_WORDS, effect_sentence

TINY = {"quick": {"games": 6, "search_games": 1, "robustness_games": 4, "rollouts": 2}}


def question(**fields: Any) -> dict[str, Any]:
    """A small question of `fields` over the defaults: the first seat on Pig at a tiny size."""
    base: dict[str, Any] = {"title": "Is moving first an advantage?", "game": "pig", "form": "setup",
                            "vary": "players", "arms": [2], "sizes": TINY}
    return {**base, **fields}


BAD_QUESTIONS = [
    ("unknown form", {"form": "poll"}, "form: 'poll' is not a form; allowed: policy, choice, gift, setup"),
    ("unknown field", {"colour": "red"}, "colour: 'red' is not a field of a setup question"),
    ("no title", {"title": " "}, "title: ' ' must be the question in words"),
    ("unknown game", {"game": "chess"}, "game: unknown game 'chess'"),
    ("player count", {"game": "bora_bora", "players": 5, "form": "choice", "group": "fishing"},
     "players: 5 is not a player count of bora_bora; allowed: 2, 3, 4"),
    ("unknown rung", {"rungs": ["alphazero"]}, "rungs: 'alphazero' is not a rung of the game's ladder; allowed: "
                                               "hold20, keep_pace"),
    ("rung twice", {"rungs": ["hold20", "hold20"]}, "names a rung twice"),
    ("unknown group", {"game": "bora_bora", "form": "choice", "group": "fish", "arms": None, "vary": None},
     "group: 'fish' is not an action group of bora_bora; allowed: fishing, temple"),
    ("unknown situation", {"game": "bora_bora", "form": "choice", "group": "fishing", "by": ["weather"]},
     "by: ['weather'] must name situation columns of bora_bora; allowed: round, die"),
    ("equal arms", {"game": "bora_bora", "form": "policy",
                    "arms": {"a": "fishing=never", "b": "fishing=never"}},
     "arms.b: 'fishing=never' is the same as arm a: each arm must differ"),
    ("arms making the same player", {"form": "policy", "arms": {"plain": "", "same": "style=hold20"}},
     "arms.same: 'style=hold20' makes the same player as arms.plain for hold20 (heuristic:style=hold20)"),
    ("group twice", {"game": "bamboo", "form": "choice", "group": ["ramen", "ramen"]},
     "group: ['ramen', 'ramen'] names a group twice"),
    ("one arm", {"game": "bora_bora", "form": "policy", "arms": {"a": ""}}, "arms: {'a': ''} must be a table of "
                                                                            "two or more arms"),
    ("option a rung refuses", {"game": "bora_bora", "form": "policy", "rungs": ["heuristic", "learned"],
                               "arms": {"plain": "", "vp": "w_vp=2"}},
     "arms.vp: 'w_vp=2' does not suit the player learned"),
    ("compare unknown arm", {"game": "bora_bora", "form": "policy", "arms": {"a": "", "b": "fishing=never"},
                             "compare": [["a", "c"]]}, "compare: ['a', 'c'] must be a pair of two different arms"),
    ("gift the game lacks", {"form": "gift", "edit": "priest"},
     "edit: 'priest' is not a gift pig declares; allowed: none (this game declares no gifts)"),
    ("unknown gift", {"game": "bora_bora", "form": "gift", "edit": "castle"},
     "edit: 'castle' is not a gift bora_bora declares; allowed: priest, shell, offering"),
    ("setup of another game", {"game": "bamboo", "vary": "game", "arms": {"a": "bamboo", "b": "bora_bora"}},
     "arms.b: 'bora_bora' is another game"),
    ("unknown variant", {"game": "bamboo", "vary": "variant", "arms": ["built-in", "gold_rush"]},
     "arms.gold_rush: 'gold_rush' is not a component variant"),
    ("player count arm", {"arms": [2, 7]}, "arms.7_players: 7 is not a player count of pig; allowed: 2"),
    ("unknown vary", {"vary": "weather"}, "vary: 'weather' is not what a setup question varies"),
    ("size key", {"sizes": {"quick": {"hours": 2}}}, "sizes.quick.hours: 2 is not a setting of a size"),
    ("size value", {"sizes": {"quick": {"games": 0}}}, "sizes.quick.games: 0 must be a whole number >= 1"),
    ("unknown size", {"sizes": {"huge": {}}}, "sizes: 'huge' is not a size; allowed: quick, default, full"),
    ("robustness variant", {"game": "bora_bora", "form": "choice", "group": "fishing",
                            "robustness": {"variants": ["cheap_fish"]}},
     "robustness.variants: ['cheap_fish'] must be a list of component variants"),
    ("alpha", {"alpha": 2}, "alpha: 2 must be a significance level between 0 and 0.5"),
]


def _clean(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in fields.items() if value is not None}


@pytest.mark.parametrize(("case", "changes", "message"), BAD_QUESTIONS, ids=[case for case, _, _ in BAD_QUESTIONS])
def test_a_bad_question_is_refused_in_one_line_before_any_work(case: str, changes: dict[str, Any], message: str,
                                                               tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    fields = question(**changes)
    if fields["form"] != "setup":
        fields = {k: v for k, v in fields.items() if k not in ("vary", "arms") or k in changes}
    fields = _clean(fields)
    with pytest.raises(QuestionError, match=None) as refused:
        Question.from_dict(fields)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)
    path = tmp_path / "question.json"
    import json

    path.write_text(json.dumps(fields))
    out = tmp_path / "out"
    status = cli.main(["ask", str(path), "--out", str(out), "--size", "quick"])
    _, stderr = capsys.readouterr()
    assert status == 2
    assert stderr.count("\n") == 1 and message in stderr
    assert not out.exists()


def test_a_file_that_is_not_toml_is_refused_naming_the_file(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("title = \"unfinished\ngame = pig\n")
    assert cli.main(["ask", str(path), "--out", str(tmp_path / "out")]) == 2
    assert "is not valid TOML" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_unknown_question_name_lists_the_built_in_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ask", "is_chess_fun", "--out", "unused"]) == 2
    err = capsys.readouterr().err
    assert "neither a file nor a built-in question" in err and "fishing" in err


def test_ask_list_shows_every_built_in_question_and_each_loads(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ask", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    files = builtin_questions()
    assert len(lines) == len(files) >= 17
    for (name, game, title), line in zip(list_questions(), lines, strict=True):
        assert line.split()[:2] == [name, game] and line.endswith(title)
        assert load_question(name).title == title
    games = pd.Series([game for _, game, _ in list_questions()]).value_counts()
    assert games["bora_bora"] >= 5 and games["bamboo"] >= 5


FORMS_ON_BOTH_GAMES = [
    ("policy", {"game": "bora_bora", "form": "policy", "rungs": ["heuristic", "tuned"],
                "arms": {"never": {"value": "fishing=never", "words": "never fishing"},
                         "normal": {"value": "", "words": "fishing as it likes"}},
                "robustness": {"players": [2], "variants": ["fish_rich"]}}),
    ("policy", {"game": "bamboo", "form": "policy", "rungs": ["heuristic"], "players": 2,
                "arms": {"balanced": "", "spirits": "style=spirits"}}),
    ("choice", {"game": "bora_bora", "form": "choice", "group": "fishing", "by": ["die", "round"],
                "rungs": ["heuristic"]}),
    ("choice", {"game": "bamboo", "form": "choice", "group": "balance_hp", "by": ["round"], "rungs": ["tuned"],
                "robustness": {"variants": ["home_costly"]}}),
    ("gift", {"game": "bora_bora", "form": "gift", "edit": "priest", "rungs": ["heuristic", "learned"],
              "players": 3, "robustness": {"players": [2], "variants": ["status_steep"]}}),
    ("gift", {"game": "bamboo", "form": "gift", "edit": "coin", "rungs": ["heuristic"], "players": 2}),
    ("setup", {"game": "bora_bora", "form": "setup", "vary": "players", "arms": [2, 3], "rungs": ["heuristic"]}),
    ("setup", {"game": "bamboo", "form": "setup", "vary": "game", "rungs": ["heuristic"],
               "arms": {"normal": "bamboo", "advanced": "bamboo:mode=advanced"}}),
]


STATISTICS_WORDS = ("Holm", "CI", " p ", "p =", "rollout", "heuristic", "rung", "interval", "significan")


def assert_reads_as_a_verdict(sentence: str) -> None:
    """An answer's first sentence, for a player: at most MAX_VERDICT_WORDS words, none of statistics or of the
    library's machinery."""
    from borabora_sim.questions.lead import MAX_VERDICT_WORDS

    assert len(sentence.split()) <= MAX_VERDICT_WORDS, sentence
    assert not [word for word in STATISTICS_WORDS if word in sentence], sentence


@pytest.mark.slow
@pytest.mark.parametrize(("form", "fields"), FORMS_ON_BOTH_GAMES,
                         ids=[f"{form}-{fields['game']}" for form, fields in FORMS_ON_BOTH_GAMES])
def test_every_form_answers_on_both_games_in_game_words(form: str, fields: dict[str, Any], tmp_path: Path) -> None:
    answer = ask({"title": f"A {form} question", "seed": 3, "sizes": TINY, **fields}, tmp_path, size="quick", jobs=1,
                 progress=False)
    assert answer.answer and answer.report is not None
    text = answer.report.read_text()
    assert (text.index("## Answer") < text.index("## How sure") < text.index("## In detail") < text.index("## Evidence")
            < text.index("## Method") < text.index("## Settings"))
    short = text.split("## Answer\n\n")[1].split("\n\n")[0]
    assert short == " ".join(answer.lead)
    assert text.split("## How sure\n\n")[1].split("\n\n")[0] == " ".join(answer.answer[:3])
    assert_reads_as_a_verdict(answer.lead[0])
    assert all(f"- {sentence}" in text for sentence in answer.answer)
    assert identifiers_in(text, get_game(fields["game"])) == []
    for name in answer.tables:
        assert (tmp_path / f"{name}.csv").exists()
    for figure in [line for line in text.splitlines() if line.startswith("![")]:
        assert (tmp_path / figure.split("(")[1].rstrip(")")).exists()
    if "robustness" in fields:
        robustness = answer.tables["robustness"]
        settings = len(fields["robustness"].get("players", [])) + len(fields["robustness"].get("variants", []))
        beside = 1 if form in ("choice", "gift", "policy") else 0   # the question's own games, as printed
        assert robustness[["players", "components"]].drop_duplicates().shape[0] == settings + beside
        assert any(line.startswith(f"Across {settings} robustness setting") for line in answer.answer)


def test_the_policy_answer_words_each_effect_from_its_corrected_verdict(tmp_path: Path) -> None:
    fields = FORMS_ON_BOTH_GAMES[0][1]
    answer = ask({"title": "Fishing", "seed": 5, "sizes": {"quick": {"games": 30}}, **fields}, tmp_path,
                 size="quick", jobs=1, progress=False)
    table = answer.tables["effects"]
    strongest = table.iloc[-1]
    sentence = next(line for line in answer.answer if line.startswith(f"For {strongest['player']},"))
    assert WIN_WORDS[strongest["win_verdict"]] in sentence
    assert effect_sentence(strongest, "VP") in sentence
    detectable = table[table["win_verdict"] != "no detectable difference"]
    said = " ".join(answer.answer)
    if detectable.empty:
        assert "No effect on the win rate is detectable" in said
    else:
        assert all(row["comparison"] in said for _, row in detectable.iterrows())


def test_the_policy_answer_also_speaks_for_the_strongest_player_measured_precisely(tmp_path: Path) -> None:
    """A search rung plays fewer games: the answer gives each effect for the strongest player and, first, for the
    strongest player with about the full number of pairs, each from its own corrected verdict."""
    fields = {**FORMS_ON_BOTH_GAMES[0][1], "rungs": ["heuristic", "expert", "mcts100"], "robustness": {}}
    answer = ask({"title": "Fishing", "seed": 5, "sizes": {"quick": {"games": 12, "search_games": 4,
                                                                     "search_rungs": True}}, **fields},
                 tmp_path, size="quick", jobs=1, progress=False)
    table = answer.tables["effects"]
    for comparison, rows in table.groupby("comparison", sort=False):
        precise, strongest = rows[rows["rung"] == "expert"].iloc[0], rows.iloc[-1]
        assert precise["games"] == 12 and strongest["games"] == 4
        said = [line for line in answer.answer if comparison in line and line.startswith("For ")]
        assert said == [f"For {row['player']}, {comparison} {effect_sentence(row, 'VP')}."
                        for row in (precise, strongest)]


def test_an_interrupted_question_continues_from_the_games_it_kept(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fields = {"title": "A priest", "game": "bora_bora", "form": "gift", "edit": "priest", "rungs": ["heuristic"],
              "players": 2, "seed": 9, "sizes": TINY}
    first = ask(fields, tmp_path, size="quick", jobs=1, progress=False)

    def must_not_play(*args: object) -> list[dict[str, object]]:
        raise AssertionError("a kept task was played again")

    monkeypatch.setattr(gift_form, "_gift_task", must_not_play)
    second = ask(fields, tmp_path, size="quick", jobs=1, progress=False)
    pd.testing.assert_frame_equal(first.tables["effects"], second.tables["effects"])


def test_a_changed_question_does_not_reuse_the_games_of_another(tmp_path: Path) -> None:
    fields = question(seed=1)
    ask(fields, tmp_path, size="quick", jobs=1, progress=False)
    ask(question(seed=2), tmp_path, size="quick", jobs=1, progress=False)
    assert len(list((tmp_path / "games").iterdir())) == 2


def test_the_same_question_as_toml_and_as_a_dict_is_the_same_question(tmp_path: Path) -> None:
    path = tmp_path / "first.toml"
    path.write_text('title = "Is moving first an advantage?"\ngame = "pig"\nform = "setup"\nvary = "players"\n'
                    'arms = [2]\n\n[sizes.quick]\ngames = 6\nsearch_games = 1\nrobustness_games = 4\nrollouts = 2\n')
    from_file = load_question(path)
    assert from_file == Question.from_dict(question(), name="first", source=str(path))


def test_the_tables_do_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    fields = {"title": "A priest", "game": "bora_bora", "form": "gift", "edit": "priest", "rungs": ["heuristic"],
              "players": 2, "seed": 4, "sizes": {"quick": {"games": 4}}}
    one = ask(fields, None, size="quick", jobs=1, progress=False)
    two = ask(fields, None, size="quick", jobs=2, progress=False)
    pd.testing.assert_frame_equal(one.tables["effects"], two.tables["effects"])
    pd.testing.assert_frame_equal(one.tables["pairs"], two.tables["pairs"])


def test_the_studied_seat_plays_the_rung_and_the_others_the_opponents() -> None:
    from borabora_sim.questions.forms.choice_games import _choice_players

    one = load_question({"title": "t", "game": "bora_bora", "form": "choice", "group": "fishing", "players": 3})
    assert _choice_players(one, "learned", 4) == (["heuristic", "learned", "heuristic"], [1])
    every = load_question({"title": "t", "game": "bora_bora", "form": "choice", "group": "fishing", "seats": "all"})
    assert _choice_players(every, "tuned", 3) == (["heuristic", "heuristic", "heuristic", "heuristic:style=tuned"], [3])
    assert _choice_players(every, "heuristic", 1) == (["heuristic"] * 4, [0, 1, 2, 3])


def _gift_rows(round_: int, pairs: int, win_with: int, win_without: int, gains: list[int]) -> pd.DataFrame:
    return pd.DataFrame({"rung": "heuristic", "round": round_, "score_without": [100] * pairs,
                         "score_with": [100 + g for g in gains], "win_with": [i < win_with for i in range(pairs)],
                         "win_without": [win_with <= i < win_with + win_without for i in range(pairs)]})


def test_a_gift_is_called_detectable_exactly_where_its_printed_interval_excludes_0() -> None:
    from borabora_sim import stats
    from borabora_sim.questions.forms.gift import _gift_answer, _gift_table

    question = load_question({"title": "t", "game": "bora_bora", "form": "gift", "edit": "priest"})
    weak = _gift_rows(1, 20, 9, 1, [1] * 8 + [-1] + [0] * 11)          # raw p about 0.015, not over 6 rows
    strong = _gift_rows(2, 20, 20, 0, [5 + i % 3 for i in range(20)])    # detectable over the 6 rows
    nothing = [_gift_rows(r, 20, 0, 0, [0] * 20) for r in range(3, 7)]
    table = stats.paired_table(_gift_table(question, pd.concat([weak, strong, *nothing]), "VP", ("rung", "round")))
    first, second = table.iloc[0], table.iloc[1]
    assert first["vp_p"] < 0.05 and first["vp_p_adjusted"] >= 0.05
    assert first["vp_diff_ci"][0] < 0 < first["vp_diff_ci"][1]         # the interval printed beside it holds 0
    assert first["vp_verdict"] == "no detectable difference" and second["vp_verdict"] == "A better"
    [sentence] = _gift_answer(table, question.vocabulary.edits["priest"], "VP")
    assert "detectably raises the final VP when gained at the start of round 2: +6.0" in sentence
    assert f"makes no detectable difference to the final VP when gained at the start of round 1: {0.35:+.1f}" \
        in sentence
    assert "detectable in round 2 (+100.0 points)" in sentence and "round 1 (" not in sentence.split("win rate")[1]


def test_judge_agreement_counts_the_options_both_judges_saw() -> None:
    from borabora_sim.questions.forms.choice import judge_agreement

    def judged(best: list[bool], advantage: list[float]) -> pd.DataFrame:
        return pd.DataFrame({"game_id": 0, "decision": range(len(best)), "option": "place 1 on fishing",
                             "best": best, "advantage": advantage})

    first = judged([True, True, False, False, True], [0.2, 0.1, -0.1, -0.3, 0.05])
    second = judged([True, False, False, True], [0.1, -0.05, -0.2, 0.02])        # did not see the fifth
    row = judge_agreement(first, second).iloc[0]
    assert (row["options"], row["both"], row["first_only"], row["second_only"], row["neither"]) == (4, 1, 1, 1, 1)
    assert row["agreement"] == 0.5 and row["first_share"] == row["second_share"] == 0.5
    assert row["mcnemar_p"] == 1.0
    assert judge_agreement(first, second.iloc[0:0]).empty


def test_a_question_runs_on_a_dask_cluster_with_the_same_tables(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    fields = {"title": "A coin", "game": "bamboo", "form": "gift", "edit": "coin", "rungs": ["heuristic"],
              "players": 2, "seed": 6, "sizes": {"quick": {"games": 2}}}
    local = ask(fields, None, size="quick", jobs=1, progress=False)
    cluster = ask(fields, None, size="quick", jobs=2, backend="dask", progress=False)
    pd.testing.assert_frame_equal(local.tables["effects"], cluster.tables["effects"])


def test_a_choice_adds_games_until_its_share_is_as_precise_as_asked() -> None:
    from borabora_sim import stats

    fields = {"title": "Hold?", "game": "pig", "form": "choice", "group": "hold", "rungs": ["hold20"], "seed": 2,
              "sizes": {"quick": {"games": 1, "rollouts": 2, "target": 0.08, "budget": 300}}}
    answer = ask(fields, None, size="quick", jobs=1, progress=False)
    options = answer.tables["options"]
    assert options["game_id"].nunique() > 1
    low, high = stats.wilson_interval(int(options["best"].sum()), len(options))
    assert (high - low) / 2 <= 0.08


def test_a_report_is_written_again_from_the_kept_games_without_playing_more(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    fields = {"title": "Hold?", "game": "pig", "form": "choice", "group": "hold", "rungs": ["hold20"], "seed": 2,
              "sizes": {"quick": {"games": 1, "rollouts": 2, "target": 0.08, "budget": 300}}}
    first = ask(fields, tmp_path, size="quick", jobs=1, progress=False)

    def must_not_play(*args: object) -> list[dict[str, object]]:
        raise AssertionError("a game was played again")

    monkeypatch.setattr(choice_form, "_choice_task", must_not_play)
    again = ask({**fields, "sizes": {"quick": {"games": 1, "rollouts": 2, "target": 0.08, "budget": 300}}}, tmp_path,
                size="quick", jobs=1, progress=False, kept_only=True)
    pd.testing.assert_frame_equal(first.tables["summary"], again.tables["summary"])


@pytest.mark.parametrize("fields", [
    {"title": "A coin", "game": "bamboo", "form": "gift", "edit": "coin", "rungs": ["heuristic"], "players": 2,
     "seed": 6, "sizes": {"quick": {"games": 2}}},
    {"title": "Hold?", "game": "pig", "form": "choice", "group": "hold", "rungs": ["hold20"], "seed": 2,
     "sizes": {"quick": {"games": 1, "rollouts": 2}}}], ids=["simulated arms", "tasks"])
def test_a_rerun_that_finds_every_game_kept_says_it_played_none(fields: dict[str, object], tmp_path: Path) -> None:
    """A question asked again over a folder that keeps all its games (not only with kept_only) reports what the
    games took when they were played, not its own short wall time as the run's."""
    first = ask(fields, tmp_path, size="quick", jobs=1, progress=False)
    played = json.loads((tmp_path / "summary.json").read_text())
    again = ask(fields, tmp_path, size="quick", jobs=1, progress=False)
    assert not first.from_kept and again.from_kept
    assert again.cpu_seconds == pytest.approx(first.cpu_seconds)
    assert again.report is not None and "written again from them" in again.report.read_text()
    rewritten = json.loads((tmp_path / "summary.json").read_text())
    assert "rewrite_seconds" not in played and rewritten["wall_seconds"] == played["wall_seconds"]
    assert rewritten["rewrite_seconds"] == round(again.wall_seconds)
    assert f"and {played['wall_seconds']} s of wall time when they were played" in again.report.read_text()


def test_the_answer_speaks_for_the_strongest_player_measured_to_within_3_points() -> None:
    """The strongest rung whose widest interval is at most 3 points either side; where none is, the strongest with
    about the full number of pairs, not one with a few more."""
    from borabora_sim.questions.forms.common import _strongest_precise

    table = pd.DataFrame({"rung": ["heuristic", "heuristic", "expert", "expert", "mcts300", "mcts300"],
                          "games": [800, 800, 800, 790, 24, 24],
                          "win_diff_ci": [(-0.02, 0.01), (0.0, 0.03), (-0.03, 0.029), (0.01, 0.04), (-0.2, 0.1),
                                          (-0.1, 0.2)]})
    assert set(_strongest_precise(table)["rung"]) == {"expert"}
    assert set(_strongest_precise(table[table["rung"] != "expert"])["rung"]) == {"heuristic"}
    wide = table.assign(win_diff_ci=[(-0.04, 0.04)] * 2 + [(-0.05, 0.05)] * 2 + [(-0.2, 0.2)] * 2)
    assert set(_strongest_precise(wide)["rung"]) == {"expert"}      # none within 3 points: the full-size strongest


def test_a_choice_lists_its_players_in_the_ladders_order_the_strongest_last() -> None:
    fields = {"title": "Ramen?", "game": "bamboo", "form": "choice", "group": "ramen", "rungs": ["expert", "tuned"],
              "seed": 3, "sizes": {"quick": {"games": 2, "rollouts": 2}}}
    answer = ask(fields, None, size="quick", jobs=1, progress=False)
    assert list(answer.tables["summary"]["rung"]) == ["tuned", "expert"]       # by name, expert would come first
    assert "decisions of the expert player" in answer.answer[0]


def test_a_gift_pooled_over_rounds_lists_its_players_in_the_ladders_order() -> None:
    fields = {"title": "A spirit", "game": "bamboo", "form": "gift", "edit": "spirit", "seats": "all",
              "rungs": ["expert", "tuned"], "seed": 4, "sizes": {"quick": {"games": 3}}}
    answer = ask(fields, None, size="quick", jobs=1, progress=False)
    players = list(dict.fromkeys(answer.tables["effects"]["rung"]))
    assert players == ["tuned", "expert"]                                      # by name, expert would come first


def test_a_gift_by_round_lists_each_players_rounds_in_order_whatever_order_its_batches_were_kept_in() -> None:
    """A later batch of a player's games may hold an earlier round than the batch before it (the priest report
    once listed rounds 1, 2, 3, 5, 6, 4): the table's rows follow the ladder's players, then the rounds."""
    pairs = pd.DataFrame({"rung": ["tuned", "tuned", "expert", "expert", "expert", "tuned"],
                          "round": ["2", "1", "1", "5", "4", "1"], "game_id": [0, 0, 0, 0, 1_000_000, 1]})
    ordered = gift_form._in_round_order(pairs)
    assert list(zip(ordered["rung"], ordered["round"], ordered["game_id"], strict=True)) == [
        ("tuned", "1", 0), ("tuned", "1", 1), ("tuned", "2", 0),
        ("expert", "1", 0), ("expert", "4", 1_000_000), ("expert", "5", 0)]


def test_game_seeds_above_2_63_stay_whole_across_batches() -> None:
    """A batch whose seeds all fit in 63 bits and one with a seed above: joined, the seeds must not become floats
    (a replay of a rounded seed plays another game)."""
    from borabora_sim.questions.forms.common import _frame

    big = 2**64 - 5
    joined = pd.concat([_frame([{"game_seed": 5}]), _frame([{"game_seed": big}])], ignore_index=True)
    assert joined["game_seed"].tolist() == [5, big]
    assert int(joined["game_seed"].iloc[1]) == big


def test_the_rounds_of_a_gift_are_named_as_a_player_says_them() -> None:
    from borabora_sim.questions.lead import _rounds_words

    assert _rounds_words([4]) == "round 4"
    assert _rounds_words([1, 2, 4]) == "rounds 1, 2 and 4"
    assert _rounds_words([1, 2, 3, 5]) == "rounds 1 to 3 and 5"
    assert _rounds_words([6, 1, 2, 3, 4, 5]) == "rounds 1 to 6"
