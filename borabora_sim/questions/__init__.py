"""The question engine: ask a strategy question of any game in a few lines of TOML (or a dict), get its tables
and a report a player can read in a minute.

>>> from borabora_sim.questions import load_question
>>> question = load_question({"title": "Is the first seat an advantage?", "game": "pig", "form": "setup",
...                           "vary": "players", "arms": [2]})
>>> question.form, [arm.words for arm in question.arms]
('setup', ['2 players'])

`ask(question, out=DIR, size="quick")` plays the games (resumable in DIR), writes DIR/report.md with its figures,
tables as CSV and an HTML replay, and returns an `Answer`. The forms and the question file's fields are in
`borabora_sim.questions.question`; each game declares its pieces (ladder, action groups, situations, gifts,
variants) in its package's `questions.py`; docs/questions.md explains it all.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

import pandas as pd

from borabora_sim import files, stats
from borabora_sim.games import get_game
from borabora_sim.players import files_fingerprint, player_files
from borabora_sim.questions.forms import FORM_RUNNERS, Findings, judge_files, played_specs
from borabora_sim.questions.lead import Lead
from borabora_sim.questions.question import (
    FORMS,
    PARTS,
    Question,
    QuestionError,
    builtin_questions,
    load_question,
)
from borabora_sim.questions.work import Work, fingerprint
from borabora_sim.simulate import check_n_jobs, check_out_directory

REPORT = "report.md"
SHORT_ANSWER = 3                      # sentences of a one-part question's short answer
SUMMARY = "summary.json"              # the answer in one sentence and how sure it is (the atlas page reads it)
REPLAY = "replay.html"
METHODS = {
    "policy": "Arms that differ only in the studied player's options play the same game seeds and seat rotations; "
              "each game is a pair (exact McNemar test and the exact interval that inverts it for the win rate, "
              "paired t-test and its t interval for the score).",
    "choice": "At every decision of the studied seat where an option of the group is legal beside others, every "
              "legal option is judged by paired rollouts (the same hidden-card samples and dice for every option); "
              "the option's advantage over the best other one is judged again on fresh rollouts (t-test and its t "
              "interval). The situation in which the option is best most often is learned on two thirds of the "
              "games and checked on the others.",
    "gift": "At the moment of each round at which the gift can be made, the game is continued twice by the same "
            "players with the same seeds and dice, with and without the gift; each continuation pair is a pair "
            "(exact McNemar test and the exact interval that inverts it for the win rate, paired t-test and its t "
            "interval for the score).",
    "setup": "Every seat is played by the same player; each place in the first round's turn order is tested against "
             "its fair share, and the places' chances are compared between setups.",
}


@dataclass
class Answer:
    """What `ask` found: the question, the size, the tables by name, the answer for a player (`lead`: the verdict,
    whether weaker players differ, when it flips, how it moves with the INVENTED values), every sentence of the
    answer with its figures (`answer`), the report's path (None without `out`) and the seconds it took (wall and
    the games' CPU)."""

    question: Question
    size: str
    tables: dict[str, pd.DataFrame]
    answer: list[str]
    report: Path | None
    wall_seconds: float
    cpu_seconds: float
    cpu_incomplete: bool = False          # some games were kept by an older run that did not record their CPU
    from_kept: bool = False               # written again from the games kept, none played
    lead: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join([self.question.title, " ".join(self.lead or self.answer[:1])])

    def _repr_markdown_(self) -> str:
        """How a notebook shows the answer: the question as a heading, the answer for a player, then the rest."""
        return "\n\n".join([f"### {self.question.title}", " ".join(self.lead),
                             *(f"- {sentence}" for sentence in self.answer)])


def ask(question: str | os.PathLike[str] | Mapping[str, Any] | Question, out: str | os.PathLike[str] | None = None,
        size: str = "default", jobs: int = -1, backend: str = "loky", scheduler: str | None = None,
        progress: bool | None = None, log: Callable[[str], None] | None = None, kept_only: bool = False) -> Answer:
    """Answers `question` (a file, a built-in question's name, a dict or a Question) at `size` ("quick", "default"
    or "full"). With `out`, its games are kept there (an interrupted run continues where it stopped) and the
    report is written to `out`/report.md with its figures, tables (CSV) and a replay. `jobs` worker processes on
    the joblib `backend` ("loky", or "dask" with the `scheduler` address); `progress` shows bars with the time
    left (None: on a terminal). `kept_only` writes the report again from the games kept in `out`, adding no batch
    of games beyond them (after an upgrade of the report, say)."""
    checked = load_question(question)       # everything is checked before a folder is made or a game played
    checked.size(size)
    check_n_jobs(jobs, "jobs")
    if backend not in ("loky", "dask"):
        raise QuestionError(f"backend: {backend!r} is not a backend; allowed: loky, dask")
    if scheduler is not None and backend != "dask":
        raise QuestionError(f"scheduler: {scheduler!r} is the address of a Dask scheduler: it needs backend \"dask\"")
    folder = None if out is None else check_out_directory(out)
    work_folder = None if folder is None else folder / "games" / games_key(checked, size)
    if folder is not None:
        files.make_directory(folder)
    began = time.monotonic()
    say = log or (lambda line: None)
    say(f"{checked.title} ({checked.form} question, {checked.game}, size {size})")
    cpu = 0.0
    parts = checked.parts or (checked,)
    findings = Findings()
    headlines: list[str] = []                 # how sure: each part's first sentence, or the first few
    leads: list[Lead] = []                    # each part's first words, in the order of the parts
    cpu_unknown = False
    played = False
    for part in parts:
        part_size = part.size(size)
        deadline = time.monotonic() + part_size.budget if part_size.budget else None
        where = None if work_folder is None else (work_folder / part.name if checked.parts else work_folder)
        work = Work(where, jobs, backend, scheduler, progress, deadline, kept_only)
        found = FORM_RUNNERS[part.form](part, part_size, work, folder)
        cpu += work.cpu
        cpu_unknown = cpu_unknown or work.cpu_unknown
        played = played or work.played
        if checked.parts:
            found = _as_part(part, found)
        findings.tables.update(found.tables)
        findings.figures.update(found.figures)
        findings.answer += found.answer
        headlines += found.answer[:1] if checked.parts else found.answer[:SHORT_ANSWER]
        findings.evidence += found.evidence
        findings.certainty = findings.certainty or found.certainty
        findings.replay = findings.replay or found.replay
        if found.lead is not None:
            leads.append(found.lead)
    wall = time.monotonic() - began
    result = Answer(checked, size, findings.tables, findings.answer, None, wall, cpu, cpu_unknown,
                    kept_only or not played, _lead_sentences(leads))
    if folder is not None:
        result.report = write_report(result, findings, folder, jobs, headlines[:SHORT_ANSWER + 1])
        say(f"report written to {result.report}")
    return result


def _lead_sentences(leads: list[Lead]) -> list[str]:
    """The answer for a player: the whole lead of the first part (a question file puts first the part that answers
    its title), then the verdicts of the other parts; how it moves with the INVENTED values from the first part
    that measured it."""
    if not leads:
        return []
    first = leads[0]
    varied = next((one.invented for one in leads if one.varied), first.invented)
    return [*replace(first, invented=varied).sentences(), *(one.verdict for one in leads[1:])]


def _time_words(answer: Answer, jobs: int, played_wall: int | None) -> str:
    """What the answer took: wall time with its workers and the games' CPU, or, for a report written again from
    the games kept, what those took when they were played (their wall time `played_wall`, when known)."""
    if answer.cpu_incomplete:
        return (f"{answer.wall_seconds:.0f} s of wall time to write this report from games an earlier run kept; that "
                f"run did not record the CPU time of all of them (the rest took {answer.cpu_seconds:.0f} s)")
    if answer.from_kept:
        wall = f" and {played_wall} s of wall time" if played_wall is not None else ""
        return (f"the games took {answer.cpu_seconds:.0f} s of CPU{wall} when they were played; this report was "
                f"written again from them in {answer.wall_seconds:.0f} s")
    return (f"{answer.wall_seconds:.0f} s of wall time with {jobs if jobs > 0 else os.cpu_count()} worker(s); the "
            f"games took {answer.cpu_seconds:.0f} s of CPU")


def games_key(question: Question, size: str) -> str:
    """The name of the folder a question's games are kept in: a digest of what decides them (its fields and its
    size's, those left at their defaults out, so that a field added to the library later keeps old games), and
    the contents of the files its players and a choice's judges read (a network, learned weights, a style's data
    file; left out when they read none), so that games played before such a file changed are never mixed with games
    played after. A judge that reads no file adds nothing, so that its question keeps its key."""
    def decisive(item: Question) -> dict[str, object]:
        fields = {f.name: getattr(item, f.name) for f in dataclass_fields(item)
                  if f.name not in ("title", "source", "sizes", "parts") and getattr(item, f.name) != f.default}
        chosen = item.size(size) if item.form != PARTS else None
        sized = {f.name: getattr(chosen, f.name) for f in dataclass_fields(chosen)
                 if getattr(chosen, f.name) != f.default} if chosen is not None else {}
        read = ""
        if chosen is not None:
            game = get_game(item.game)
            read = files_fingerprint([*(player_files(spec, game) for spec in played_specs(item, chosen)),
                                      *judge_files(item, chosen)])
        return {**fields, "size": size, **sized, **({"player_files": read} if read else {}),
                "parts": [decisive(part) for part in item.parts]}

    return fingerprint(decisive(question))


def _as_part(part: Question, found: Findings) -> Findings:
    """A part's findings under its name: its tables and figures prefixed, its evidence under its title."""
    renamed = {name: f"{part.name.replace('_', '-')}-{name}" for name in found.figures}
    evidence = [f"### {part.title}"]
    for line in found.evidence:
        for old, new in renamed.items():
            line = line.replace(f"]({old})", f"]({new})")
        evidence.append(line)
    return Findings(tables={f"{part.name}_{name}": table for name, table in found.tables.items()},
                    answer=found.answer, evidence=evidence,
                    figures={renamed[name]: figure for name, figure in found.figures.items()},
                    replay=found.replay, certainty=found.certainty, lead=found.lead)


def write_report(answer: Answer, findings: Findings, folder: Path, jobs: int, short: list[str]) -> Path:
    """The report (the short answer, every sentence of the answer, the evidence, a replay, the method and the
    settings) with its figures and CSV tables in `folder`."""
    question = answer.question
    timing = _timing(answer, folder / SUMMARY)
    for name, figure in findings.figures.items():
        figure.savefig(folder / name, dpi=110, bbox_inches="tight")
    for name, table in findings.tables.items():
        stats.interval_columns(table).to_csv(folder / f"{name}.csv", index=False)
    parts = [f"# {question.title}", "## Answer", " ".join(answer.lead), "## How sure", " ".join(short),
             f"How sure, in short: {findings.certainty}." if findings.certainty else "",
             " ".join(["The answer rests on the players measured: a stronger player may gain or lose differently.",
                       *([question.vocabulary.invented] if question.vocabulary.invented else [])]),
             "## In detail", "\n".join(f"- {sentence}" for sentence in findings.answer),
             "## Evidence", *findings.evidence]
    if findings.replay is not None:
        from borabora_sim.viewer import replay_html

        seed, specs, decision, words = findings.replay
        replay_html(folder / REPLAY, seed, specs, game=question.game)
        parts += ["## An illustrative game",
                  f"[Replay of the game]({REPLAY}#decision={decision}), opened at the decision where {words}."]
    forms = dict.fromkeys(part.form for part in (question.parts or (question,)))
    parts += ["## Method", *[METHODS[form] for form in forms],
              "The rows of each table are judged together: every interval printed beside a verdict is a "
              f"simultaneous {100 * (1 - question.alpha):.4g}% interval over its table's rows (each at "
              f"1 - {question.alpha:g} / rows), an effect is detectable exactly when its interval excludes no effect, "
              "and the p-values are adjusted alike. A sentence names an effect only where its table calls it "
              "detectable.",
              "## Settings", "\n".join([*[f"- {line}" for line in question.settings(answer.size)],
              f"- time: {_time_words(answer, jobs, timing['wall_seconds'])}",
              f"- reproduce: `borabora ask {_command_name(question)} --size {answer.size} --out DIR`"])]
    report = folder / REPORT
    files.write_bytes(report, ("\n\n".join(part for part in parts if part) + "\n").encode())
    summary = {"name": question.name, "title": question.title, "game": question.vocabulary.title,
               "form": question.form, "size": answer.size, "headline": answer.lead[0] if answer.lead else "",
               "certainty": findings.certainty, **timing,
               "cpu_seconds": round(answer.cpu_seconds), "cpu_complete": not answer.cpu_incomplete, "report": REPORT}
    files.write_bytes(folder / SUMMARY, (json.dumps(summary, indent=1) + "\n").encode())
    return report


def _timing(answer: Answer, earlier: Path) -> dict[str, int | None]:
    """The summary's wall time: the run's own, or, for a report written again from kept games, the wall time the
    summary before it gave for the same games (same size and CPU; None when there is none) beside the rewrite's."""
    if not answer.from_kept:
        return {"wall_seconds": round(answer.wall_seconds)}
    try:
        before = files.read_json(earlier, "a question's summary", "it is written again")
    except (OSError, ValueError):
        before = None
    if not isinstance(before, dict) or before.get("size") != answer.size or \
            before.get("cpu_seconds") != round(answer.cpu_seconds):
        before = {}                                  # no summary of these games
    played = before.get("wall_seconds")
    return {"wall_seconds": played if isinstance(played, int) else None,
            "rewrite_seconds": round(answer.wall_seconds)}


def _command_name(question: Question) -> str:
    """How `borabora ask` names the question: a built-in one by its name, another by its file."""
    if question.source and builtin_questions().get(question.name) == Path(question.source):
        return question.name
    return question.source or "QUESTION.toml"


def list_questions() -> list[tuple[str, str, str]]:
    """The built-in questions: (name, game, title), one per file."""
    rows = []
    for name, path in builtin_questions().items():
        question = load_question(path)
        rows.append((name, question.game, question.title))
    return rows


__all__ = ["FORMS", "Answer", "Question", "QuestionError", "ask", "builtin_questions", "list_questions",
           "load_question"]
