"""What a game offers the question engine, declared once in the game's package (its `QUESTIONS`): the players a
question is answered for (the rungs of its strength ladder), the named groups of actions a choice is asked about,
the situation columns a decision is described by, the named edits of a state a gift is valued through, its
component variants and who moves first. Everything a person reads is in the game's words."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from borabora_sim.errors import StateFormatError
from borabora_sim.protocol import Game, GameState
from borabora_sim.specs import split_spec, with_options


@dataclass(frozen=True)
class Rung:
    """One player of a game's strength ladder: a short label for tables, its player spec and its name in words."""

    label: str
    spec: str
    words: str

    @property
    def searches(self) -> bool:
        """Whether the player searches (costs milliseconds a decision, not microseconds)."""
        return self.spec.startswith(("mcts", "flatmc", "strong", "best"))

    def with_options(self, options: str) -> str:
        """The spec with more options ("fishing=never"), an option of the same name replaced ("style=keep_pace"
        on a heuristic of another style), or as it is for none."""
        return with_options(self.spec, options) if options else self.spec

    def changed_options(self, options: str) -> dict[str, tuple[str, str]]:
        """The options of the rung's own spec that `options` would give another value: name -> (the rung's
        value, the new one); `{"style": ("tuned", "expansion")}` for "style=expansion" on the tuned heuristic."""
        name, own = split_spec(self.spec)
        given = split_spec(f"{name}:{options}")[1]
        return {key: (own[key], value) for key, value in given.items() if key in own and own[key] != value}


@dataclass(frozen=True)
class ActionGroup:
    """Actions a choice question asks about, named in words ("a die on the Fishing action"), matched by a regular
    expression over the engine's action names (what programs read; never shown); `alternatives` matches the moves
    a count weighs the group against (default: every move)."""

    words: str
    pattern: str
    alternatives: str = ".*"

    def actions(self, game: Game) -> frozenset[int]:
        """The game's actions in the group (action names do not change with a game's options or components)."""
        return _matching(game, self.pattern)

    def alternative_actions(self, game: Game) -> frozenset[int]:
        """The moves a count of the group weighs it against: a decision is counted when the player takes one of
        these (for a die on the fishing space: any die placement, so that a God card played first is not a
        second count of the same placement)."""
        return _matching(game, self.alternatives)


def _matching(game: Game, pattern: str) -> frozenset[int]:
    key = (game.name, pattern)
    if key not in _MATCHING:
        expression = re.compile(pattern)
        _MATCHING[key] = frozenset(a for a in range(game.num_actions) if expression.fullmatch(game.action_name(a)))
    return _MATCHING[key]


_MATCHING: dict[tuple[str, str], frozenset[int]] = {}


Wording = str | Callable[[float], str]
"""How a condition on a situation reads after "when": a template of the value ("the die shows {}") or a function of
it (for a gap, whose sign changes the words: "you lead by at least 3 VP", "you trail by at most 2 VP")."""


@dataclass(frozen=True)
class Situation:
    """A column that describes a decision at which an option of a group is legal: its words ("die value") and its
    value for the state and the option. Only what the deciding player sees at the table goes into a value.

    `at_least`, `at_most` and `equal` word a condition on it as a clause after "when" (`condition_words`), `{s}`
    in a template being "s" unless the value is 1 ("you hold at least {} shell{s}"); left empty, they read "the die
    value is at least 5", "... is at most 5", "... is 5"."""

    words: str
    of: Callable[[GameState, int], object]
    at_least: Wording = ""
    at_most: Wording = ""
    equal: Wording = ""

    def condition_words(self, op: str, value: float | str) -> str:
        """The clause of a condition `op` (">=", "<=" or "==") on this situation's `value`, a whole number shown
        without its ".0"."""
        wordings = {">=": (self.at_least, "is at least"), "<=": (self.at_most, "is at most"), "==": (self.equal, "is")}
        if op not in wordings:
            raise ValueError(f"a condition is >=, <= or ==, not {op!r}")
        wording, verb = wordings[op]
        text = value_text(value)
        if callable(wording):
            return wording(float(value))
        return wording.format(text, s="" if text == "1" else "s") if wording else f"the {self.words} {verb} {text}"


def value_text(value: object) -> str:
    """A situation's value as a person reads it: a whole number without its ".0"."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def lead_words(unit: str) -> tuple[Callable[[float], str], Callable[[float], str]]:
    """The `at_least` and `at_most` wordings of a score gap (own score minus the best other player's) in `unit`:
    "you lead by at least 3 VP" / "you trail by at most 2 VP", "you are level or ahead"."""
    def at_least(gap: float) -> str:
        if gap > 0:
            return f"you lead by at least {value_text(gap)} {unit}"
        return "you are level or ahead" if gap == 0 else f"you trail by at most {value_text(-gap)} {unit}"

    def at_most(gap: float) -> str:
        if gap < 0:
            return f"you trail by at least {value_text(-gap)} {unit}"
        return "you are level or behind" if gap == 0 else f"you lead by at most {value_text(gap)} {unit}"

    return at_least, at_most


@dataclass(frozen=True)
class Moment:
    """Where an edit is made: `state` (a copy the edit may change), the `seat` it is made for, the `kind` of a
    family of edits (an index into its kinds; 0 for a single edit) and `before`, the state at the game's previous
    moment (its start for the first), for an edit that depends on what happened since."""

    state: GameState
    seat: int
    kind: int
    before: GameState
    game: Game                  # the game `state` is played in


@dataclass(frozen=True)
class Edit:
    """A named change to a state that gives one seat one more of something, or takes one away: its words ("one
    more priest in the temple"), the edited copy (None where it cannot be made, e.g. no priest left) and the
    moments it is made at: the first state of each round for which `at` is true, or with `after_phase`, the
    first state after that phase of each round (the final state included), in `moment_words` ("at the start of
    round {round}").

    - `direct`: where the rules give the gift a direct value, that value at a moment (named `direct_words`:
      "direct temple VP");
    - `kinds`: a family of edits, one per kind the game names (each spirit), answered together (`kind_words`
      names the column: "spirit");
    - `removes`: the edit takes away what the seat has (a spirit tile it just won), so the state as it stands is
      the one *with* it;
    - `own_source`: the score source that is the gift's own value at the end (the spirit-variety HP), whose
      difference each pair reports, named `own_words`, with the effect beyond it tested on its own."""

    words: str
    apply: Callable[[Moment], GameState | None]
    at: Callable[[GameState], bool] = lambda state: True
    direct: Callable[[GameState], float] | None = None
    direct_words: str = ""
    kinds: Callable[[Game], tuple[str, ...]] | None = None
    kind_words: str = ""
    removes: bool = False
    own_source: str = ""
    own_words: str = ""
    after_phase: str = ""
    moment_words: str = "at the start of round {round}"

    def kind_names(self, game: Game) -> tuple[str, ...]:
        """The kinds of a family of edits in the game's order; none for a single edit."""
        return self.kinds(game) if self.kinds is not None else ()


def one_more(counter: str) -> Callable[[Moment], GameState | None]:
    """An edit's `apply` that gives the seat one more of a counter of its player record in the saved state
    ("shells", "coins"); None where the engine's laws refuse the result."""
    def apply(moment: Moment) -> GameState | None:
        data = copy.deepcopy(moment.state.to_dict())
        data["state"]["pl"][moment.seat][counter] += 1
        try:
            return moment.game.state_from_dict(data)
        except StateFormatError:
            return None

    return apply


def _no_variant(name: str, folder: Path) -> Path:
    raise ValueError(f"this game has no component variants (asked for {name!r})")


@dataclass(frozen=True)
class Vocabulary:
    """A game's pieces for questions (see the module docstring). `title` is the game's name in words; `rungs`
    are in ladder order, weakest first; `study_rungs` the labels a question uses when it names none; `opponent`
    plays the other seats; `judge` judges the options of a choice ("expert": the game's network, the expert
    player's; or a heuristic style, by its rollouts), `second_judge` judges some of them again, for the agreement
    of the two; `invented` a sentence on the INVENTED component values the answers rest on."""

    title: str
    rungs: tuple[Rung, ...]
    study_rungs: tuple[str, ...]
    opponent: str
    opponent_words: str
    judge: str
    second_judge: str = ""
    groups: Mapping[str, ActionGroup] = field(default_factory=lambda: MappingProxyType({}))
    situations: Mapping[str, Situation] = field(default_factory=lambda: MappingProxyType({}))
    edits: Mapping[str, Edit] = field(default_factory=lambda: MappingProxyType({}))
    variants: tuple[str, ...] = ()
    write_variant: Callable[[str, Path], Path] = _no_variant
    invented: str = ""
    score_words: str = ""                 # the score's unit in reports where the game's short one is no word a
    #                                       player uses (Pig's "PTS": "points"); empty: the game's own

    def rung(self, label: str) -> Rung:
        for candidate in self.rungs:
            if candidate.label == label:
                return candidate
        raise KeyError(label)

    @property
    def rung_labels(self) -> tuple[str, ...]:
        return tuple(rung.label for rung in self.rungs)


__all__ = ["ActionGroup", "Edit", "Moment", "Rung", "Situation", "Vocabulary", "Wording", "lead_words", "one_more",
           "value_text"]
