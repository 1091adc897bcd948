"""Why a player chose its move, as a person reads it: the move in the game's words, the rule it chose by, a small
table of the options it weighed (best first, the chosen one always among them) and a one-line legend of what the
numbers mean. Values are in a unit a person can read: a search's mean reward is a win chance in %, the heuristic's
evaluation is shown in the game's points against its best option (never as a win chance it does not estimate).

`explain()` of every player, the hint and "why?" of browser play and of the terminal game, and the HTML replay all
show these (`Reasons.text()`, `Reasons.cells()`).
"""

from __future__ import annotations

from dataclasses import dataclass

PERCENT = "percent"          # a fraction shown as a percentage: 0.612 -> "61.2%"
COUNT = "count"              # a whole number: visits, rollouts
DIFFERENCE = "difference"    # points against the best option: 0 -> "0.0", -1.25 -> "-1.3"


@dataclass(frozen=True)
class Column:
    """A column of the reasons' table: its heading and how its values are shown (PERCENT, COUNT, DIFFERENCE)."""

    heading: str
    kind: str

    def cell(self, value: float) -> str:
        if self.kind == PERCENT:
            return f"{100 * value:.1f}%"
        if self.kind == COUNT:
            return str(int(value))
        return "0.0" if round(value, 1) == 0 else f"{value:+.1f}"


@dataclass(frozen=True)
class Option:
    """One option a player weighed: the action, its words and its values (by column)."""

    action: int
    words: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Reasons:
    """Why `player` (its name in words, `SeededPlayer.in_words`) chose `action` (`words`): the rule `why`, the
    options weighed (best first; the chosen one always among them, at index `chosen`) with their values by column,
    how many options were weighed, and a one-line legend of the columns."""

    player: str
    action: int
    words: str
    why: str
    columns: tuple[Column, ...]
    options: tuple[Option, ...]
    chosen: int
    weighed: int
    legend: str

    def cells(self) -> list[list[str]]:
        """Each option's values as shown, by column."""
        return [[column.cell(value) for column, value in zip(self.columns, option.values, strict=True)]
                for option in self.options]

    def headline(self) -> str:
        return (f"{self.player}: chose {self.words}: {self.why}; {self.weighed} option(s) weighed"
                + (f", the best {len(self.options)} shown" if len(self.options) < self.weighed else ""))

    def table(self) -> list[str]:
        """The options as lines of text: the values first (right-aligned under their headings), then the move;
        the chosen move marked with ">"."""
        cells = self.cells()
        widths = [max(len(column.heading), *(len(row[k]) for row in cells)) for k, column in enumerate(self.columns)]
        head = "  " + "  ".join(column.heading.rjust(width) for column, width in zip(self.columns, widths,
                                                                                      strict=True)) + "  move"
        lines = [head]
        for index, (option, row) in enumerate(zip(self.options, cells, strict=True)):
            mark = ">" if index == self.chosen else " "
            values = "  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True))
            lines.append(f"{mark} {values}  {option.words}")
        return lines

    def text(self) -> str:
        """The headline, the table and the legend."""
        return "\n".join([self.headline(), *self.table(), f"legend: {self.legend}"])


def top_options(options: list[Option], chosen_action: int, top: int) -> tuple[tuple[Option, ...], int]:
    """The `top` first options, the chosen one always among them (in place of the last when it is not), and its
    index."""
    shown = options[:top]
    if all(option.action != chosen_action for option in shown):
        shown = [*shown[:top - 1], next(option for option in options if option.action == chosen_action)]
    return tuple(shown), next(k for k, option in enumerate(shown) if option.action == chosen_action)


__all__ = ["Column", "Option", "Reasons", "top_options"]
