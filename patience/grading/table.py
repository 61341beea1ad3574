"""A graded instance's row and the table `patience grade` prints: the same for every game, language
and road (a model run here, Savile Row's files read, a class marked)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from patience.cards import STANDARD_RANKS, SUIT_LETTERS, in_players_words
from patience.errors import printable

SOLVED, NO_SOLUTION, TIMEOUT, ERROR = "solved", "no solution", "timeout", "error"
CORRECT, WRONG, UNGRADED = "correct", "WRONG", "-"


@dataclass(frozen=True)
class Graded:
    """One instance's line of the table. Its instance name and note are kept printable, one line:
    names (a deal file's, a folder's in a solver's message) are data, never a forged row."""

    instance: str
    cards: int
    verdict: str
    grade: str
    note: str = ""
    nodes: int | None = None
    solve_time: float | None = None
    savilerow_time: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "instance", printable(self.instance))
        object.__setattr__(self, "note", printable(self.note))


class Stats(TypedDict):
    """A run's statistics as a `Graded` line shows them (None: not reported, or not believable)."""

    nodes: int | None
    solve_time: float | None
    savilerow_time: float | None


def _number(value: float | int | None, digits: int = 3) -> str:
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def students_words(deal: object, note: str) -> str:
    """A note of the grader's own (an illegal move, the native search's win) with the deal's cards
    named as students know them, `3♠` and `10♥`; `r3s0` stays only on a deal beyond a standard deck."""
    cards: tuple[object, ...] = tuple(getattr(deal, "all_cards", ()) or getattr(deal, "cards", ()))
    standard = getattr(deal, "ranks", STANDARD_RANKS) <= STANDARD_RANKS and all(
        getattr(card, "suit", 0) < len(SUIT_LETTERS) for card in cards)
    return in_players_words(note, standard)


SAVILE_ROW_COLUMNS = ("SolverNodes", "SolverSolveTime", "SavileRowTotalTime")


def table(rows: list[Graded], columns: tuple[str, str, str] = SAVILE_ROW_COLUMNS) -> str:
    """The per-instance table and the summary line; `columns` names the nodes and two times."""
    header = ("instance", "n", "verdict", "grade", *columns, "note")
    cells = [header] + [(row.instance, str(row.cards), row.verdict, row.grade, _number(row.nodes),
                         _number(row.solve_time), _number(row.savilerow_time), row.note) for row in rows]
    widths = [max(len(line[column]) for line in cells) for column in range(len(header) - 1)]
    lines = ["  ".join(cell.ljust(width) if column < 4 else cell.rjust(width)
                       for column, (cell, width) in enumerate(zip(line, widths, strict=False))) + "  " + line[-1]
             for line in cells]
    return "\n".join(line.rstrip() for line in lines) + "\n" + summary(rows) + "\n"


def summary(rows: list[Graded]) -> str:
    count = {key: sum(row.verdict == key for row in rows) for key in (SOLVED, NO_SOLUTION, TIMEOUT, ERROR)}
    wrong = sum(row.grade == WRONG for row in rows)
    correct = sum(row.grade == CORRECT for row in rows)
    return (f"{len(rows)} instances: {count[SOLVED]} solved, {count[NO_SOLUTION]} no solution, "
            f"{count[TIMEOUT]} timeout, {count[ERROR]} error; {correct} correct, {wrong} wrong, "
            f"{len(rows) - correct - wrong} not graded")
