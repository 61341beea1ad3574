"""PDDL plans back into cards, and the one road every planner runner takes.

Readers: FF's stdout (`step    0: PLAY-UP-TOP TWO CLUBS ACE`, upper case) and plan files as Fast
Downward (`sas_plan`) and pyperplan (`*.soln`) write them (`(play-up-top two clubs ace)`,
`; cost = ...`). The card is decoded from the action's first parameters through the generator's
object names, never re-derived. `Planner` fills in the solver template for planners: subclasses
give the command and the verdict only.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from patience.answers import AnswerReader
from patience.caps import MAX_MOVES
from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.generators.files import ModelFiles
from patience.generators.pddl import black_hole as pddl
from patience.generators.pddl.black_hole import plan_cards
from patience.generators.pddl.common import Action
from patience.numeric import count_or_none
from patience.options import Schema
from patience.reading import at_most, first_line, numbered_lines
from patience.result import Answer, Status
from patience.runners.base import ProcessSolver, answer_from_run, modelled_games
from patience.runs.process import ProcessRun


@dataclass(frozen=True)
class PlanVerdict:
    """What a planner's output says: a status and, when it found one, the plan."""

    status: Status
    plan: tuple[Action, ...] | None = None
    nodes: int | None = None
    message: str = ""


# greedy to the line's end (the words are split after): a lazy `(\S.*?)\s*$` tried `\s*$` at every
# character of a long run of spaces, quadratic in the run
_FF_STEP = re.compile(r"^\s*(?:step\s+)?\d+:\s+(\S.*)")
_FF_FIRST_STEP = re.compile(r"^\s*step\s+\d+:", re.IGNORECASE)
_FF_STATES = re.compile(r"evaluating (\d+) states")
_FF_LINE = re.compile(r"^ff: (parsing|found legal plan|goal can be simplified)", re.MULTILINE)
_PLAN_LINE = re.compile(r"^\s*\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)\s*$")


def read_ff(text: str, source: str = "FF output") -> PlanVerdict:
    """FF 2.3's stdout. Its search ends in complete best-first search, so 'proven unsolvable' and a
    goal simplified to FALSE both mean no plan exists; anything else without a plan is unknown."""
    states = _FF_STATES.findall(text)
    nodes = count_or_none(states[-1]) if states else None
    if "goal can be simplified to FALSE" in text:
        return PlanVerdict(Status.UNSOLVABLE, None, nodes, "FF: goal can be simplified to FALSE")
    if "problem proven unsolvable" in text:
        return PlanVerdict(Status.UNSOLVABLE, None, nodes, "FF: best-first search space empty")
    if "goal can be simplified to TRUE" in text:
        return PlanVerdict(Status.SOLVED, (), nodes)
    numbered = numbered_lines(text)
    if not any("found legal plan" in line for _, line in numbered):  # stops after that line
        return PlanVerdict(Status.UNKNOWN, None, nodes, "FF printed no plan and no proof")
    return PlanVerdict(Status.SOLVED, _ff_steps(numbered, source), nodes)


def _ff_steps(numbered: Iterable[tuple[int, str]], source: str) -> tuple[Action, ...]:
    """FF's numbered steps, up to the first blank line after them; refused at the cap on moves
    while they are read."""
    plan: list[Action] = []
    for number, line in numbered:
        if not line.strip():
            if plan:
                break
            continue
        match = _FF_STEP.match(line)
        if not match:
            raise InputError(source, number, f"not a plan step: {quote(line.strip())}")
        words = match.group(1).lower().split()
        plan.append(Action(words[0], tuple(words[1:]), number))
        at_most(len(plan), MAX_MOVES, "plan steps", source, number)
    return tuple(plan)


def read_plan_file(text: str, source: str = "plan") -> tuple[Action, ...]:
    """A plan file: one `(operator arg ...)` per line; `;` comments and blank lines skipped;
    refused at the cap on moves while it is read."""
    plan: list[Action] = []
    for number, line in numbered_lines(text):
        content = line.split(";", 1)[0].strip()
        if not content:
            continue
        match = _PLAN_LINE.match(content)
        if not match:
            raise InputError(source, number, f"not a plan step: {quote(content)}")
        plan.append(Action(match.group(1).lower(), tuple(match.group(2).lower().split()), number))
        at_most(len(plan), MAX_MOVES, "plan steps", source, number)
    return tuple(plan)


def _detect_ff(text: str) -> bool:
    return _FF_LINE.search(text) is not None


def _read_ff_answer(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    verdict = read_ff(text, source)
    if verdict.plan is None:
        raise InputError(source, 1, f"the answer says {verdict.status.value}: there is no plan to replay")
    return plan_cards(deal, verdict.plan, source)


def _detect_ff_steps(text: str) -> bool:
    """FF's plan lines alone, as copied out of its output (`step    0: PLAY-UP-TOP ...`)."""
    return _FF_FIRST_STEP.match(first_line(text)) is not None


def read_ff_steps(text: str, source: str = "FF steps") -> tuple[Action, ...]:
    """FF's plan lines alone, as copied out of its output."""
    return _ff_steps(numbered_lines(text), source)


def _read_ff_steps_answer(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    return plan_cards(deal, read_ff_steps(text, source), source)


def _detect_plan_file(text: str) -> bool:
    return first_line(text, skip=";").lower().startswith("(play")


def _read_plan_answer(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    return plan_cards(deal, read_plan_file(text, source), source)


ANSWER_READERS = [
    AnswerReader("ff", _detect_ff, _read_ff_answer),
    AnswerReader("ff-steps", _detect_ff_steps, _read_ff_steps_answer),
    AnswerReader("pddl-plan", _detect_plan_file, _read_plan_answer),
]


class Planner(ProcessSolver):
    """A PDDL planner: the task of either game in a private folder, the plan read back."""

    paradigm = "planning"
    language = "pddl"
    games = modelled_games("pddl")
    options: ClassVar[Schema] = pddl.OPTIONS

    @abstractmethod
    def verdict(self, run: ProcessRun, folder: Path, options: Mapping[str, Any]) -> PlanVerdict:
        """Read the run's output (and files it left in `folder`)."""

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        verdict = self.verdict(run, folder, options)
        sequence = None if verdict.plan is None else model.decode(verdict.plan, f"{self.name} plan")
        return answer_from_run(run, verdict.status, sequence, verdict.nodes, message=verdict.message)
