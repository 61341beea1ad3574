"""Solution files of MIP solvers read back into a verdict and a card sequence.

CBC (`solu FILE`) and HiGHS (`writeSolution`, raw style) print a status line and a value per
variable. The card at move k is the card i with a_i_k = 1 (card numbers from
`patience.generators.lp.black_hole.card_numbers`). Nothing here trusts the solver: a status that is not
understood is an input error, and a decoded sequence still goes through the replay validator.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import islice

from patience.answers import AnswerReader
from patience.caps import MAX_VALUES
from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.generators.lp.black_hole import card_numbers
from patience.numeric import real
from patience.reading import at_most, numbered_lines, small_int
from patience.result import Status

_HUGE = 1e300  # a value beyond it (or inf, nan) is no solver's value for a 0-1 variable
_A_NAME = re.compile(r"a_([0-9]{1,9})_([0-9]{1,9})")  # longer numbers name no card: skipped, never int()'d
_CBC_VALUE = re.compile(r"^\s*(?:\*\*\s*)?\d+\s+(\S+)\s+(\S+)")


@dataclass(frozen=True)
class MipVerdict:
    """A solver's claim and the variable values it printed (only when it claims a solution)."""

    status: Status
    values: Mapping[str, float] = field(default_factory=dict)
    message: str = ""


def _float(text: str, source: str, line: int) -> float:
    return real(text, "a variable's value", -_HUGE, _HUGE, source, line)


def read_cbc(text: str, source: str = "CBC solution") -> MipVerdict:
    """CBC's solution file: `Optimal - objective value 0`, `Infeasible - ...`, `Stopped on time
    (no integer solution - continuous used) - ...`, then `index name value reduced-cost` lines."""
    numbered = numbered_lines(text)
    head = next((line.strip() for _, line in numbered), None)
    if head is None:
        raise InputError(source, 1, "empty solution file")
    if head.startswith("Optimal") or (head.startswith("Stopped on") and "no integer solution" not in head):
        values: dict[str, float] = {}
        for number, line in numbered:
            match = _CBC_VALUE.match(line)
            if not match:
                raise InputError(source, number, f"expected `index name value reduced-cost`, got {quote(line.strip())}")
            values[match.group(1)] = _float(match.group(2), source, number)
            at_most(len(values), MAX_VALUES, "values", source, number)
        return MipVerdict(Status.SOLVED, values, head)
    if head.startswith(("Infeasible", "Integer infeasible")):
        return MipVerdict(Status.UNSOLVABLE, message=head)
    if head.startswith("Stopped on time"):
        return MipVerdict(Status.TIMEOUT, message=head)
    if head.startswith("Stopped on"):
        return MipVerdict(Status.UNKNOWN, message=head)
    if head.startswith("Unbounded"):
        return MipVerdict(Status.ERROR, message=f"CBC says unbounded, impossible for these bounded models: {head}")
    raise InputError(source, 1, f"unknown CBC status {quote(head)}")


def read_highs(text: str, source: str = "HiGHS solution") -> MipVerdict:
    """HiGHS's raw solution file: `Model status` and its value, then under `# Primal solution
    values` the word Feasible/None and `# Columns N` with `name value` lines."""
    numbered = numbered_lines(text)
    head = [line.strip() for _, line in islice(numbered, 2)]
    if len(head) < 2 or head[0] != "Model status":
        raise InputError(source, 1, "expected `Model status` on the first line")
    status, feasible, columns = head[1], False, None
    for number, line in numbered:  # up to `# Columns N`, if there is one
        if line.startswith("# Columns"):
            columns = number, line
            break
        feasible = feasible or line.strip() == "Feasible"
    if feasible and columns is not None:
        number, line = columns
        count = small_int(line.split()[-1])
        if count is None or count < 0:
            raise InputError(source, number, "expected `# Columns N`")
        at_most(count, MAX_VALUES, "columns", source, number)
        values = {}
        for _ in range(count):
            number, line = next(numbered, (number + 1, ""))
            parts = line.split()
            if len(parts) != 2:
                raise InputError(source, number, "expected `name value`")
            values[parts[0]] = _float(parts[1], source, number)
        return MipVerdict(Status.SOLVED, values, status)
    # HiGHS says "infeasible or unbounded" when presolve cannot tell; every variable here is bounded
    if status in ("Infeasible", "Primal infeasible or unbounded"):
        return MipVerdict(Status.UNSOLVABLE, message=status)
    if status == "Time limit reached":
        return MipVerdict(Status.TIMEOUT, message=status)
    if status == "Memory limit reached":
        return MipVerdict(Status.MEMOUT, message=status)
    if status in ("Interrupted by user", "Iteration limit reached", "Unknown"):
        return MipVerdict(Status.UNKNOWN, message=status)
    raise InputError(source, 2, f"unknown HiGHS model status {quote(status)}")


ORTOOLS_HEADER = "OR-Tools model_builder"
ORTOOLS_VERDICTS = {"OPTIMAL": Status.SOLVED, "FEASIBLE": Status.SOLVED, "INFEASIBLE": Status.UNSOLVABLE,
                    "TIME_LIMIT": Status.TIMEOUT, "NOT_SOLVED": Status.UNKNOWN, "CANCELLED_BY_USER": Status.UNKNOWN}


def read_ortools(text: str, source: str = "OR-Tools solution") -> MipVerdict:
    """The solution file `runners/ortools_mip.py` writes: `OR-Tools model_builder BACKEND STATUS`
    (model_builder's SolveStatus, or TIME_LIMIT), then `name value` lines when there is a solution."""
    numbered = numbered_lines(text)
    first = next((line for _, line in numbered), "")
    head = first.split(maxsplit=4)
    if not first.startswith(ORTOOLS_HEADER + " ") or len(head) != 4:
        raise InputError(source, 1, f"expected `{ORTOOLS_HEADER} BACKEND STATUS`")
    status = head[-1]
    if status not in ORTOOLS_VERDICTS:
        if status in ("UNBOUNDED", "ABNORMAL", "MODEL_INVALID", "INVALID_SOLVER_PARAMETERS",
                      "SOLVER_TYPE_UNAVAILABLE", "INCOMPATIBLE_OPTIONS"):
            return MipVerdict(Status.ERROR, message=f"the solver says {status}")
        raise InputError(source, 1, f"unknown OR-Tools status {quote(status)}")
    values = {}
    for number, line in numbered:
        parts = line.split(maxsplit=2)
        if len(parts) != 2:
            raise InputError(source, number, "expected `name value`")
        values[parts[0]] = _float(parts[1], source, number)
        at_most(len(values), MAX_VALUES, "values", source, number)
    if ORTOOLS_VERDICTS[status] is Status.SOLVED and not values:
        raise InputError(source, 2, f"status {status} but no values")
    return MipVerdict(ORTOOLS_VERDICTS[status], values, status)


def cards_played(deal: Deal, values: Mapping[str, float], source: str) -> tuple[Card, ...]:
    """The card of every move from the `a_<card>_<move>` values (rounded at 1/2)."""
    numbered = card_numbers(deal)
    at_move: dict[int, int] = {}
    for name, value in values.items():
        match = _A_NAME.fullmatch(name)
        if match is None or value < 0.5:
            continue
        card, move = int(match.group(1)), int(match.group(2))
        if not (1 <= card <= len(numbered) and 1 <= move <= len(numbered)):
            raise InputError(source, None, f"{name}: no such card or move in this deal")
        if move in at_move:
            raise InputError(source, None, f"move {move} plays both card {at_move[move]} and card {card}")
        at_move[move] = card
    missing = [move for move in range(1, len(numbered) + 1) if move not in at_move]
    if missing:
        raise InputError(source, None, f"no card is played at move {missing[0]}")
    return tuple(numbered[at_move[move] - 1] for move in range(1, len(numbered) + 1))


def _solution_cards(reader, text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    verdict = reader(text, source)
    if verdict.status is not Status.SOLVED:
        raise InputError(source, 1, f"the solution file holds no solution ({verdict.message})")
    return cards_played(deal, verdict.values, source)


def _is_cbc(text: str) -> bool:
    return bool(re.match(r"(Optimal|Stopped on|Infeasible|Integer infeasible) .*- objective value", text))


ANSWER_READERS = [
    AnswerReader("cbc-solution", _is_cbc, lambda text, source, deal: _solution_cards(read_cbc, text, source, deal)),
    AnswerReader("highs-solution", lambda text: text.startswith("Model status\n"),
                 lambda text, source, deal: _solution_cards(read_highs, text, source, deal)),
    AnswerReader("ortools-solution", lambda text: text.startswith(ORTOOLS_HEADER + " "),
                 lambda text, source, deal: _solution_cards(read_ortools, text, source, deal)),
]
