"""A strategy question as data: a TOML or JSON file (or a dict, or a `Question`) that names the game, one of four
forms and its options. `Question.from_dict` checks everything before any game is played and refuses a bad
question in one line naming the field, what was given and what is allowed (`QuestionError`).

The forms:
- `policy`: arms that differ only in the studied seat's player options ("fishing=never" against "" against
  "fishing=prefer"), paired on common seeds and seat rotations;
- `choice`: at every decision of the studied seat where an action of a named group (or of several, each its own
  row) is legal beside others, how often it is the best move and by how much, judged by paired rollouts, by
  situation columns;
- `gift`: what one more of something (or one fewer, of each kind of a family) is worth at a moment of each
  round, through a named state edit, the game continued twice on common seeds;
- `setup`: the seats' chances from the start (who moves first), across player counts, game options or component
  variants, each seat played by the same player.

Every form is answered for each rung of the game's strength ladder named in `rungs` (the studied player; the other
seats are the game's opponents), sized by `--size` (`quick`, `default`, `full`; a `[sizes.<name>]` table changes a
size's numbers).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomllib

from borabora_sim.games import canonical_game_spec, get_game, record_of
from borabora_sim.questions.work import BATCH_ID_STRIDE
from borabora_sim.records import SEED_MAX
from borabora_sim.specs import split_spec
from borabora_sim.vocabulary import Vocabulary

FORMS = ("policy", "choice", "gift", "setup")
PARTS = "parts"                       # the form of a question made of several parts, each of one of FORMS
SEATS = ("one", "all")
VARIES = ("players", "game", "variant")
SIZE_NAMES = ("quick", "default", "full")
FORM_WORDS = {"policy": "a comparison of playing policies", "choice": "the value of a choice",
              "gift": "the value of a gift", "setup": "a comparison of setups"}
BUILT_IN = "built-in"


class QuestionError(ValueError):
    """A question that cannot be asked: the message names the field, what was given and what is allowed."""


@dataclass(frozen=True)
class Size:
    """How much a question plays at one size: `games` per rung and arm for players that do not search,
    `search_games` for those that do; `robustness_games` per robustness setting (first rung only); `rollouts` per
    option of a choice; `target`: the half-width of the win-rate effects to reach by adding batches of games (None,
    or 0 in a file: play the games once; at most MAX_BATCHES batches); `budget`: the seconds the batches may take in
    all; `search_rungs`: whether the rungs that search take part; `rungs` and `variants`, when given, narrow the
    question's rungs and robustness variants at this size; `second_judge_games`: how many of a choice's games the
    second judge judges too."""

    games: int
    search_games: int
    robustness_games: int
    rollouts: int = 48
    target: float | None = None
    budget: float | None = None
    search_rungs: bool = True
    rungs: tuple[str, ...] | None = None
    variants: tuple[str, ...] | None = None
    second_judge_games: int = 0


MAX_BATCHES = 16
# The ceilings of a question's numbers, refused above before any work: each far above the built-in `full` sizes.
MAX_GAMES = BATCH_ID_STRIDE           # games of a batch (of any kind): a batch's game ids stay below the next's
MAX_ROLLOUTS = 4096                   # rollouts per option of a choice
MAX_BUDGET_SECONDS = 7 * 24 * 3600    # a week
MAX_TITLE = 300                       # characters of a title
MAX_NESTING = 6                       # tables and lists inside each other: a question, its parts, a part, its
#                                       sizes, a size, its list of rungs
# The sizes of each form: the quick size answers in under a minute on 2 cores, the default in under ten.
SIZES: dict[str, dict[str, Size]] = {
    "policy": {"quick": Size(40, 4, 24, search_rungs=False),
               "default": Size(1000, 40, 400, target=0.03, budget=420),
               "full": Size(20000, 1000, 8000, target=0.01)},
    "choice": {"quick": Size(2, 1, 1, rollouts=8, search_rungs=False),
               "default": Size(12, 4, 4, rollouts=48, target=0.05, budget=420, second_judge_games=4),
               "full": Size(150, 40, 40, rollouts=128)},
    "gift": {"quick": Size(6, 1, 4, search_rungs=False),
             "default": Size(600, 16, 200, target=0.03, budget=420),
             "full": Size(6000, 200, 2000, target=0.01)},
    "setup": {"quick": Size(200, 4, 100, search_rungs=False),
              "default": Size(2000, 60, 1000, target=0.02, budget=420),
              "full": Size(40000, 1000, 10000, target=0.005)},
}


@dataclass(frozen=True)
class Arm:
    """One arm: its name in tables, its value (player options, a player count, a game spec or a variant) and its
    words in the report."""

    name: str
    value: str | int
    words: str


@dataclass(frozen=True)
class Question:
    """A question, checked (see the module docstring); build one with `Question.from_dict` or `load_question`."""

    name: str
    title: str
    game: str
    form: str
    players: int
    rungs: tuple[str, ...]
    seed: int = 0
    alpha: float = 0.05
    arms: tuple[Arm, ...] = ()
    compare: tuple[tuple[str, str], ...] = ()
    groups: tuple[str, ...] = ()
    by: tuple[str, ...] = ()
    edit: str = ""
    vary: str = ""
    judge: str = ""
    second_judge: str = ""
    seats: str = "one"
    robustness_players: tuple[int, ...] = ()
    robustness_variants: tuple[str, ...] = ()
    sizes: Mapping[str, Size] = field(default_factory=dict)
    parts: tuple[Question, ...] = ()
    source: str = ""

    @property
    def vocabulary(self) -> Vocabulary:
        return vocabulary_of(self.game)

    def size(self, name: str) -> Size:
        if name not in SIZE_NAMES:
            raise QuestionError(f"size: {name!r} is not a size; allowed: {', '.join(SIZE_NAMES)}")
        return self.sizes[name] if self.form != PARTS else Size(0, 0, 0)

    def arm(self, name: str) -> Arm:
        return next(arm for arm in self.arms if arm.name == name)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str = "question", source: str = "") -> Question:
        """The question `data` describes, checked; a QuestionError names the first field that is wrong."""
        _check_nesting(data)
        return _parse(data, name, source)

    def settings(self, size: str) -> list[str]:
        """The question and its size as a readable list (the report's settings)."""
        if self.form == PARTS:
            return [f"{part.title}: " + "; ".join(part.settings(size)) for part in self.parts]
        chosen = self.size(size)
        vocabulary = self.vocabulary
        options = self.game.partition(":")[2]
        lines = [f"game: {vocabulary.title}" + (f" ({options.replace(',', ', ')})" if options else ""),
                 f"form: {FORM_WORDS[self.form]}"]
        if self.form == "setup":
            lines.append("every seat played by the same player: " + "; ".join(
                f"{vocabulary.rung(r).words} (`{vocabulary.rung(r).spec}`)" for r in self.rungs))
        else:
            lines += [f"players: {self.players}",
                      "studied players: " + "; ".join(f"{vocabulary.rung(r).words} (`{vocabulary.rung(r).spec}`)"
                                                      for r in self.rungs),
                      f"other seats: {vocabulary.opponent_words} (`{vocabulary.opponent}`)"]
        lines += [f"seed: {self.seed}", f"significance level: {self.alpha:g}, over the rows of each table together"]
        if self.arms:
            lines.append("arms: " + "; ".join(self._arm_words(arm) for arm in self.arms))
        if self.compare:
            lines.append("comparisons: " + "; ".join(f"{self.arm(a).words} against {self.arm(b).words}"
                                                     for a, b in self.compare))
        if self.groups:
            lines.append("choice: " + "; ".join(vocabulary.groups[g].words for g in self.groups) + "; "
                         + (f"judged by {judge_words(self.judge)}" if self.judge != NO_JUDGE
                            else "counted, not judged")
                         + (f", and again by {judge_words(self.second_judge)}" if self.second_judge else "")
                         + ("; every seat the studied player plays is studied" if self.seats == "all" else ""))
        if self.by:
            lines.append("situations: " + ", ".join(vocabulary.situations[b].words for b in self.by))
        if self.edit:
            edit = vocabulary.edits[self.edit]
            lines.append(f"gift: {edit.words}" + (f", each {edit.kind_words}" if edit.kinds is not None else "")
                         + (" (taken away: the state as it stands is the one with it)" if edit.removes else "")
                         + ("; every seat the studied player plays is studied" if self.seats == "all" else ""))
        if self.robustness_players or self.robustness_variants:
            lines.append("robustness: " + "; ".join(
                [f"{p} players" for p in self.robustness_players]
                + [f"component variant \"{variant_words(v)}\"" for v in self.robustness_variants]))
        lines.append(f"size: {size} ({chosen.games:,} games per arm and player that does not search, "
                     f"{chosen.search_games:,} for a player that searches"
                     + (f", {chosen.rollouts} rollouts per option" if self.form == "choice" else "")
                     + (f", batches added until the win-rate intervals are +/- {100 * chosen.target:g} points or "
                        f"{chosen.budget:.0f} s are spent" if chosen.target and chosen.budget else "")
                     + ("" if chosen.search_rungs else "; the players that search are left out at this size")
                     + ")")
        return lines

    def _arm_words(self, arm: Arm) -> str:
        """An arm as the settings name it: its words, its value, and for a policy arm that makes another rung of
        the ladder of a rung, which player it plays instead ("the keep-pace player in place of the hold-at-20
        player")."""
        if arm.value == "":
            return arm.words
        instead = []
        if self.form == "policy":
            vocabulary = self.vocabulary
            for label in self.rungs:
                other = replacing_rung(vocabulary, label, str(arm.value))
                if other is not None:
                    instead.append(f"{vocabulary.rung(other).words} in place of {vocabulary.rung(label).words}")
        return f"{arm.words} (`{arm.value}`" + "".join(f": {words}" for words in instead[:1]) + \
            "".join(f"; {words}" for words in instead[1:]) + ")"


def variant_words(name: str) -> str:
    """A component variant's name as a person reads it ("fish rich")."""
    return name.replace("_", " ")


def vocabulary_of(game: str) -> Vocabulary:
    """The question pieces of `game` (a game spec); a QuestionError if the game declares none."""
    record = record_of(game.partition(":")[0])
    if record.questions is None:
        raise QuestionError(f"game: {game!r} declares no question pieces; games that do: "
                            f"{', '.join(questionable_games())}")
    vocabulary: Vocabulary = record.part("questions")
    return vocabulary


def questionable_games() -> list[str]:
    from borabora_sim.games import game_names

    return [name for name in game_names() if record_of(name).questions is not None]


# =============================================================================
# Reading and checking
# =============================================================================
COMMON = ("title", "game", "form", "players", "rungs", "seed", "alpha", "sizes", "robustness", "description")
FORM_KEYS = {"policy": ("arms", "compare"), "choice": ("group", "by", "judge", "second_judge", "seats"),
             "gift": ("edit", "seats"), "setup": ("vary", "arms")}
SHARED = ("title", "game", "players", "rungs", "seed", "alpha", "description")   # what the parts of a question share
NO_JUDGE = "none"                     # a choice counted, not judged
NETWORK_JUDGE = "expert"              # a choice judged by the game's network, the expert player's


def judge_words(judge: str) -> str:
    """A choice's judge in words: the network's win chance after each move, or a heuristic style's rollouts."""
    if judge == NETWORK_JUDGE:
        return "the expert network's win chance right after each move"
    return f"rollouts played to the end by the {judge} heuristic"


def _fail(field_name: str, given: object, allowed: str) -> QuestionError:
    return QuestionError(f"{field_name}: {_shown(given)} {allowed}")


def _shown(given: object, limit: int = 80) -> str:
    """What was given, as an error quotes it: shortened past `limit` characters, so that the error stays a line."""
    text = repr(given)
    return text if len(text) <= limit else f"{text[:limit - 5]}...{text[-2:]}"


def _title(data: Mapping[str, Any]) -> str:
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise _fail("title", title, "must be the question in words, e.g. \"Is the fishing space ever worth it?\"")
    if len(title.strip()) > MAX_TITLE:
        raise _fail("title", title, f"is {len(title.strip())} characters long; a title has at most {MAX_TITLE} (put "
                                    "the rest in description)")
    return title.strip()


def _check_nesting(data: object) -> None:
    """Refuses tables and lists nested deeper than any question's fields (MAX_NESTING), walked without recursion so
    that no depth can exhaust the stack."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            raise QuestionError(f"question: its tables and lists are nested more than {MAX_NESTING} deep; a question "
                                f"nests at most {MAX_NESTING} (parts, a part, sizes, a size, its rungs)")
        children = value.values() if isinstance(value, Mapping) else value if isinstance(value, list | tuple) else ()
        stack += [(child, depth + 1) for child in children if isinstance(child, Mapping | list | tuple)]


def _listing(values: Sequence[object]) -> str:
    return ", ".join(str(v) for v in values) or "none"


def _parse(data: Mapping[str, Any], name: str, source: str) -> Question:
    if not isinstance(data, Mapping):
        raise QuestionError(f"question: must be a table of fields, got {type(data).__name__}")
    if PARTS in data:
        return _parse_parts(data, name, source)
    form = data.get("form")
    if form not in FORMS:
        raise _fail("form", form, f"is not a form; allowed: {_listing(FORMS)}")
    unknown = [key for key in data if key not in COMMON + FORM_KEYS[form]]
    if unknown:
        raise _fail(unknown[0], data[unknown[0]], f"is not a field of a {form} question; allowed: "
                                                   f"{_listing(COMMON + FORM_KEYS[form])}")
    title = _title(data)
    game_spec = data.get("game")
    if not isinstance(game_spec, str):
        raise _fail("game", game_spec, f"must be a game; allowed: {_listing(questionable_games())}")
    try:
        game = get_game(game_spec)
        game_spec = canonical_game_spec(game_spec)
    except ValueError as exc:
        raise QuestionError(f"game: {exc}") from None
    vocabulary = vocabulary_of(game_spec)
    players = data.get("players", max(game.player_counts))
    if isinstance(players, bool) or players not in game.player_counts:
        raise _fail("players", players, f"is not a player count of {game.name}; allowed: "
                                        f"{_listing(game.player_counts)}")
    rungs = check_rungs(data.get("rungs", vocabulary.study_rungs), vocabulary)
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise _fail("seed", seed, "must be a whole number >= 0 and below 2**64")
    alpha = data.get("alpha", 0.05)
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 0.5:
        raise _fail("alpha", alpha, "must be a significance level between 0 and 0.5, e.g. 0.05")
    question = Question(name=name, title=title, game=game_spec, form=form, players=players, rungs=rungs,
                        seed=seed, alpha=float(alpha), sizes=_sizes(data.get("sizes", {}), form, vocabulary),
                        source=source)
    robust_players, robust_variants = _robustness(data.get("robustness", {}), game.player_counts, vocabulary)
    question = replace(question, robustness_players=robust_players, robustness_variants=robust_variants)
    return {"policy": _policy, "choice": _choice, "gift": _gift, "setup": _setup}[form](question, data)


def _parse_parts(data: Mapping[str, Any], name: str, source: str) -> Question:
    """A question of several parts: each a table of `parts` with a `name`, a form and its fields; the fields of
    SHARED are given once for all (a part may change them); a part's error names the part."""
    unknown = [key for key in data if key not in (*SHARED, PARTS)]
    if unknown:
        raise _fail(unknown[0], data[unknown[0]], f"is not a field of a question of parts; allowed: "
                                                   f"{_listing((*SHARED, PARTS))} (the rest goes in each part)")
    given = data[PARTS]
    if not isinstance(given, list) or not given or not all(isinstance(part, Mapping) for part in given):
        raise _fail(PARTS, given, "must be a list of tables, [[parts]] in TOML, each with a name and a form")
    shared = {key: data[key] for key in SHARED if key in data}
    parts: list[Question] = []
    for index, part in enumerate(given):
        part_name = part.get("name")
        if not isinstance(part_name, str) or not part_name.isidentifier():
            raise _fail(f"parts[{index}].name", part_name, "must be a short name such as \"frequency\"")
        if part_name in [p.name for p in parts]:
            raise _fail(f"parts[{index}].name", part_name, "names another part too; name each part once")
        fields = {**shared, **{key: value for key, value in part.items() if key != "name"}}
        try:
            parts.append(_parse(fields, part_name, source))
        except QuestionError as error:
            raise QuestionError(f"parts.{part_name}.{error}") from None
    first = parts[0]
    return Question(name=name, title=_title(data), game=first.game, form=PARTS, players=first.players,
                    rungs=first.rungs, seed=first.seed, alpha=first.alpha, parts=tuple(parts), source=source)


def check_rungs(given: object, vocabulary: Vocabulary) -> tuple[str, ...]:
    """`given` (labels) as rungs of the vocabulary's ladder in ladder order, each once; else a QuestionError."""
    allowed = vocabulary.rung_labels
    if isinstance(given, str):
        given = [given]
    if isinstance(given, tuple):
        given = list(given)
    if not isinstance(given, list) or not given:
        raise _fail("rungs", given, f"must be a list of one or more players of the ladder; allowed: "
                                    f"{_listing(allowed)}")
    for label in given:
        if label not in allowed:
            raise _fail("rungs", label, f"is not a rung of the game's ladder; allowed: {_listing(allowed)}")
    if len(set(given)) < len(given):
        raise _fail("rungs", given, "names a rung twice; name each once")
    return tuple(label for label in allowed if label in given)


def _sizes(given: object, form: str, vocabulary: Vocabulary) -> dict[str, Size]:
    if not isinstance(given, Mapping):
        raise _fail("sizes", given, "must be a table of sizes, e.g. [sizes.quick] games = 20")
    sizes = dict(SIZES[form])
    for size_name, table in given.items():
        if size_name not in SIZE_NAMES:
            raise _fail("sizes", size_name, f"is not a size; allowed: {_listing(SIZE_NAMES)}")
        if not isinstance(table, Mapping):
            raise _fail(f"sizes.{size_name}", table, "must be a table, e.g. games = 20")
        changes: dict[str, Any] = dict(table)
        for key, value in table.items():
            where = f"sizes.{size_name}.{key}"
            if key not in Size.__dataclass_fields__:
                raise _fail(where, value, f"is not a setting of a size; allowed: "
                                          f"{_listing(tuple(Size.__dataclass_fields__))}")
            if key == "search_rungs":
                if not isinstance(value, bool):
                    raise _fail(where, value, "must be true or false")
            elif key == "rungs":
                changes[key] = check_rungs(value, vocabulary)
            elif key == "variants":
                if not isinstance(value, list) or any(v not in vocabulary.variants for v in value):
                    raise _fail(where, value, f"must be a list of component variants; allowed: "
                                              f"{_listing(vocabulary.variants)}")
                changes[key] = tuple(value)
            elif key == "target":
                if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1:
                    raise _fail(where, value, "must be a half-width such as 0.03 (0: play the games once)")
                changes[key] = value or None
            elif key == "budget":
                if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= MAX_BUDGET_SECONDS:
                    raise _fail(where, value, f"must be a positive number of seconds, at most {MAX_BUDGET_SECONDS:,} "
                                              "(a week)")
            else:
                ceiling = MAX_ROLLOUTS if key == "rollouts" else MAX_GAMES
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ceiling:
                    raise _fail(where, value, f"must be a whole number >= 1 and at most {ceiling:,}")
        sizes[size_name] = replace(sizes[size_name], **changes)
    return sizes


def _robustness(given: object, counts: Sequence[int], vocabulary: Vocabulary) -> tuple[tuple[int, ...],
                                                                                          tuple[str, ...]]:
    if not isinstance(given, Mapping):
        raise _fail("robustness", given, "must be a table with players = [...] and/or variants = [...]")
    unknown = [key for key in given if key not in ("players", "variants")]
    if unknown:
        raise _fail(f"robustness.{unknown[0]}", given[unknown[0]], "is not a robustness setting; allowed: "
                                                                   "players, variants")
    players = given.get("players", [])
    if not isinstance(players, list) or any(p not in counts or isinstance(p, bool) for p in players):
        raise _fail("robustness.players", players, f"must be a list of player counts; allowed: {_listing(counts)}")
    variants = given.get("variants", [])
    if variants == "all":
        variants = list(vocabulary.variants)
    if not isinstance(variants, list) or any(v not in vocabulary.variants for v in variants):
        raise _fail("robustness.variants", variants, f"must be a list of component variants (or \"all\"); "
                                                     f"allowed: {_listing(vocabulary.variants)}")
    return tuple(players), tuple(variants)


def _arms(given: object, check: Any, what: str, minimum: int = 2) -> tuple[Arm, ...]:
    """Arms from a table name -> value or name -> {value-key, words}; `check(name, value)` returns the value."""
    if not isinstance(given, Mapping) or len(given) < minimum:
        count = "two or more arms" if minimum == 2 else "one or more arms"
        raise _fail("arms", given, f"must be a table of {count}, name = {what}")
    arms = []
    for arm_name, value in given.items():
        words = arm_name.replace("_", " ")
        if isinstance(value, Mapping):
            unknown = [key for key in value if key not in ("value", "words")]
            if unknown or "value" not in value:
                raise _fail(f"arms.{arm_name}", value, f"must be {what}, or a table with value = {what} and "
                                                       "words = \"...\"")
            words = str(value.get("words", words))
            value = value["value"]
        arms.append(Arm(arm_name, check(arm_name, value), words))
    values = [arm.value for arm in arms]
    for i, arm in enumerate(arms):
        if arm.value in values[:i]:
            other = arms[values.index(arm.value)].name
            raise _fail(f"arms.{arm.name}", arm.value, f"is the same as arm {other}: each arm must differ")
    return tuple(arms)


def _policy(question: Question, data: Mapping[str, Any]) -> Question:
    from borabora_sim.players import make_player

    vocabulary = question.vocabulary
    game = get_game(question.game)

    def check(arm_name: str, options: object) -> str:
        if not isinstance(options, str):
            raise _fail(f"arms.{arm_name}", options, "must be the studied player's options as text, e.g. "
                                                     "\"fishing=never\" (\"\" for none)")
        for label in question.rungs:
            try:
                make_player(vocabulary.rung(label).with_options(options.strip()), seed=0, game=game)
            except ValueError as exc:
                raise QuestionError(f"arms.{arm_name}: {options!r} does not suit the player {label}: {exc}") from None
            _check_arm_keeps_rung(vocabulary, arm_name, options.strip(), label)
        return options.strip()

    arms = _arms(data.get("arms"), check, "player options (\"fishing=never\")")
    for label in question.rungs:
        players: dict[str, str] = {}
        for arm in arms:
            spec = vocabulary.rung(label).with_options(str(arm.value))
            if spec in players:
                raise _fail(f"arms.{arm.name}", arm.value, f"makes the same player as arms.{players[spec]} for "
                                                          f"{label} ({spec}); each arm must differ")
            players[spec] = arm.name
    names = [arm.name for arm in arms]
    compare = data.get("compare", [[name, names[0]] for name in names[1:]])
    pairs = []
    if not isinstance(compare, list) or not compare:
        raise _fail("compare", compare, "must be a list of pairs of arm names, e.g. [[\"normal\", \"never\"]]")
    for pair in compare:
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in names for p in pair) and pair[0] != pair[1]):
            raise _fail("compare", pair, f"must be a pair of two different arms; arms: {_listing(names)}")
        pairs.append((pair[0], pair[1]))
    return replace(question, arms=arms, compare=tuple(pairs))


def _check_arm_keeps_rung(vocabulary: Vocabulary, arm_name: str, options: str, label: str) -> None:
    """Refuses an arm that changes an option its rung sets (the style of the tuned heuristic), which would compare
    another player than the arm's words say, unless the arm makes another rung of the ladder (holding at 20 made
    the keep-pace player): that player is then named in the settings."""
    rung = vocabulary.rung(label)
    changed = rung.changed_options(options)
    if not changed or replacing_rung(vocabulary, label, options) is not None:
        return
    key, (own, new) = next(iter(changed.items()))
    name, own_options = split_spec(rung.spec)
    others = [f"{other.spec.partition(':')[2]} ({other.label})" for other in vocabulary.rungs
              if other is not rung and split_spec(other.spec)[0] == name and own_options.keys() <= split_spec(
                  other.spec)[1].keys()]
    raise QuestionError(f"arms.{arm_name} sets {key}={new}, which rung {label} ({rung.words}: {rung.spec}) sets to "
                        f"{own}: an arm may not change an option its rung sets; allowed: options {label} leaves "
                        "unset" + (f", or those of another rung: {_listing(others)}" if others else ""))


def replacing_rung(vocabulary: Vocabulary, label: str, options: str) -> str | None:
    """The rung of the ladder an arm's `options` make of rung `label` by changing an option it sets (the keep-pace
    player of the hold-at-20 player with "style=keep_pace"); None when they change none, or make no rung."""
    rung = vocabulary.rung(label)
    if not rung.changed_options(options):
        return None
    spec = rung.with_options(options)
    return next((other.label for other in vocabulary.rungs if other.spec == spec), None)


def _choice(question: Question, data: Mapping[str, Any]) -> Question:
    vocabulary = question.vocabulary
    given = data.get("group")
    groups: list[Any] = given if isinstance(given, list) and given else [given]
    for group in groups:
        if not isinstance(group, str) or group not in vocabulary.groups:
            raise _fail("group", group, f"is not an action group of {question.game}; allowed: "
                                        f"{_listing(tuple(vocabulary.groups))}")
    if len(set(groups)) < len(groups):
        raise _fail("group", given, "names a group twice; name each group once")
    # by default the round, or in a game without rounds its first situation column
    by = data.get("by", ["round" if "round" in vocabulary.situations else next(iter(vocabulary.situations), "")])
    if isinstance(by, str):
        by = [by]
    if not isinstance(by, list) or not by or any(b not in vocabulary.situations for b in by):
        raise _fail("by", by, f"must name situation columns of {question.game}; allowed: "
                              f"{_listing(tuple(vocabulary.situations))}")
    judge = data.get("judge", vocabulary.judge)
    judges = (NETWORK_JUDGE, *get_game(question.game).styles)
    if judge not in (*judges, NO_JUDGE):
        raise _fail("judge", judge, f"is not a judge; allowed: {_listing((*judges, NO_JUDGE))} (the game's network, "
                                    "a heuristic style's rollouts, or none: counted, not judged)")
    second = data.get("second_judge", vocabulary.second_judge if "judge" not in data else "")
    if second == judge or judge == NO_JUDGE:
        second = "" if "second_judge" not in data else second
    if second and (second not in judges or judge == NO_JUDGE or second == judge):
        raise _fail("second_judge", second, f"must be another judge than the judge's; allowed: "
                                            f"{_listing([j for j in judges if j != judge])}")
    return replace(question, groups=tuple(str(g) for g in groups), by=tuple(by), judge=str(judge),
                   second_judge=str(second), seats=_seats(data))


def _seats(data: Mapping[str, Any]) -> str:
    seats = data.get("seats", "one")
    if seats not in SEATS:
        raise _fail("seats", seats, f"is not which seats are studied; allowed: {_listing(SEATS)}")
    return str(seats)


def _gift(question: Question, data: Mapping[str, Any]) -> Question:
    vocabulary = question.vocabulary
    edit = data.get("edit")
    if edit not in vocabulary.edits:
        allowed = _listing(tuple(vocabulary.edits)) if vocabulary.edits else "none (this game declares no gifts)"
        raise _fail("edit", edit, f"is not a gift {question.game} declares; allowed: {allowed}")
    return replace(question, edit=str(edit), seats=_seats(data))


def _setup(question: Question, data: Mapping[str, Any]) -> Question:
    vocabulary = question.vocabulary
    game = get_game(question.game)
    vary = data.get("vary", "players")
    if vary not in VARIES:
        raise _fail("vary", vary, f"is not what a setup question varies; allowed: {_listing(VARIES)}")
    given = data.get("arms")

    def count(arm_name: str, value: object) -> int:
        if isinstance(value, bool) or value not in game.player_counts:
            raise _fail(f"arms.{arm_name}", value, f"is not a player count of {game.name}; allowed: "
                                                   f"{_listing(game.player_counts)}")
        return int(str(value))

    def game_arm(arm_name: str, value: object) -> str:
        try:
            spec = canonical_game_spec(str(value))
        except ValueError as exc:
            raise QuestionError(f"arms.{arm_name}: {exc}") from None
        if spec.partition(":")[0] != game.name:
            raise _fail(f"arms.{arm_name}", value, f"is another game; the arms must be {game.name} with its options "
                                                   f"({_listing(tuple(game.options))})")
        return spec

    def variant(arm_name: str, value: object) -> str:
        if value != BUILT_IN and value not in vocabulary.variants:
            raise _fail(f"arms.{arm_name}", value, f"is not a component variant; allowed: {BUILT_IN}, "
                                                   f"{_listing(vocabulary.variants)}")
        return str(value)

    if vary == "players":
        if given is None:
            given = list(game.player_counts)
        if isinstance(given, list):
            given = {f"{c}_players": {"value": c, "words": f"{c} players"} for c in given}
        arms = _arms(given, count, "a player count", minimum=1)
    elif vary == "game":
        arms = _arms(given, game_arm, "a game spec (\"bamboo:mode=advanced\")", minimum=1)
    else:
        if isinstance(given, list):
            given = {str(v): {"value": v, "words": f"the {variant_words(str(v))} components"} for v in given}
        arms = _arms(given, variant, "a component variant", minimum=1)
    return replace(question, vary=vary, arms=arms)


# =============================================================================
# Files and built-in questions
# =============================================================================
def question_data(path: Path) -> dict[str, Any]:
    """The fields of a question file, read but not yet checked."""
    return _read(path)


def with_rungs(data: Mapping[str, Any], rungs: Sequence[str]) -> dict[str, Any]:
    """The question's fields with its studied players replaced by `rungs`, at every size and in every part that
    does not name its own."""
    def changed(fields: Mapping[str, Any]) -> dict[str, Any]:
        sizes = {name: {key: value for key, value in size.items() if key != "rungs"}
                 for name, size in fields.get("sizes", {}).items()}
        return {**fields, "rungs": list(rungs), **({"sizes": sizes} if sizes else {})}

    if PARTS not in data:
        return changed(data)
    return {**data, "rungs": list(rungs), PARTS: [part if "rungs" in part else changed(part) for part in data[PARTS]]}


def _read(path: Path) -> dict[str, Any]:
    expected = "a question file (.toml or .json) or a built-in question's name"
    if path.is_dir():
        raise QuestionError(f"question file: {path} is a folder; expected {expected}")
    if path.suffix not in (".toml", ".json"):
        raise QuestionError(f"question file: {path.name!r} must end in .toml or .json")
    kind = path.suffix[1:].upper()
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise QuestionError(f"question file: {path} is not text (UTF-8); expected {kind} text") from None
    except OSError as exc:
        raise QuestionError(f"question file: {path} cannot be read ({exc.strerror or exc})") from None
    try:
        data: dict[str, Any] = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise QuestionError(f"question file: {path} is not valid {kind}: {exc}") from None
    except RecursionError:
        raise QuestionError(f"question file: {path} nests its tables and lists too deep; a question nests at most "
                            f"{MAX_NESTING}") from None
    return data


def builtin_questions() -> dict[str, Path]:
    """Every game's built-in questions, name -> file (the TOML files in each game package's `questions/`)."""
    from importlib import import_module

    found: dict[str, Path] = {}
    for game in questionable_games():
        module = str(record_of(game).questions).partition(":")[0]
        folder = Path(import_module(module).__file__ or "").parent
        for path in sorted((folder / "questions").glob("*.toml")):
            found[path.stem] = path
    return found


def load_question(source: str | os.PathLike[str] | Mapping[str, Any] | Question) -> Question:
    """A question from a file (.toml or .json), the name of a built-in question, a dict or a Question."""
    if isinstance(source, Question):
        return source
    if isinstance(source, Mapping):
        return Question.from_dict(source)
    path = Path(source)
    if not path.exists():
        known = builtin_questions()
        if str(source) in known:
            path = known[str(source)]
        else:
            raise QuestionError(f"question: {str(source)!r} is neither a file nor a built-in question; built-in: "
                                f"{_listing(tuple(known))}")
    return Question.from_dict(_read(path), name=path.stem, source=str(path))


__all__ = ["FORMS", "NO_JUDGE", "PARTS", "SIZES", "Arm", "Question", "QuestionError", "Size", "builtin_questions",
           "check_rungs", "load_question", "question_data", "variant_words", "vocabulary_of", "with_rungs"]
