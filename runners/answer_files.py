"""A solver's answer file, as the solver wrote it, read back into moves of any game through that
game's own model in the solver's language.

The formats: a plan (pyperplan's `.soln`, Fast Downward's `sas_plan`: `(operator arg ...)` lines;
FF's output or its `step N:` lines), a MIP solution file (CBC's `solu`, HiGHS's raw solution,
runners/ortools_mip.py's), an XCSP3 solver's `s` and `v` lines (ACE, Choco), MiniZinc's output
(the models' own `x = [...];` lines or `--output-mode json`, each solution ended by `----------`),
Savile Row's `.solution` file (`letting x be [...]`, which the Essence Prime model's decode reads as
it is) and clingo's (its text output, `Answer: N` and the atoms on the next line, or `--outf=2` JSON).

The answer is read into the terms of its language (plan steps, variable values, atoms), and the
deal's model in that language, built again with its default options, decodes it through the names
its generator gave: no option of these models renames what a decode reads. The moves then go to the
game's replay, like any answer. A file that says there is no solution (`s UNSATISFIABLE`,
`=====UNSATISFIABLE=====`, CBC's `Infeasible`) is refused, naming what it says; a SAT solver's
output holds variables only, whose names are in the CNF's header, so `patience decode model CNF
OUTPUT` reads it and this module refuses it with that hint.

A game's `read_answer` calls `read_solver_answer` first (by name: the game packages import no
runner) and reads its own move lists when it gives None.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from patience.caps import MAX_VALUES
from patience.errors import InputError, UsageError, quote
from patience.games import AnyDeal, game_of
from patience.generators import build
from patience.generators.eprime.solution import detect_solution as detect_savilerow
from patience.generators.files import ModelFiles
from patience.generators.lp import solution as mip
from patience.generators.mzn.solution import SEARCH_COMPLETE, SOLUTION_END
from patience.generators.mzn.solution import read_output as read_minizinc
from patience.generators.xcsp3 import solution as xcsp
from patience.reading import at_most, first_line, numbered_lines
from patience.result import Status
from patience.runners import pddl_plan

_PLAN_STEP = re.compile(r"^\(\s*[A-Za-z]")
_MZN_VERDICT = re.compile(r"^=====[A-Z ]+=====$", re.MULTILINE)
# `x = [0, 4, 1];`, numbers of at most 18 digits (a longer one is no card's: the line is refused, never int()'d)
_MZN_ARRAY = re.compile(r"^([A-Za-z][A-Za-z0-9_]{0,40}) = \[((?:-?[0-9]{1,18}(?:, ?|(?=\])))*)\];$")
_CLINGO_ANSWER = re.compile(r"^Answer: [0-9]{1,18}\b")
_CLINGO_VERDICTS = ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "OPTIMUM FOUND")
_SAT_STATUS = re.compile(r"^s (SATISFIABLE|UNSATISFIABLE|UNKNOWN|INDETERMINATE)[ \t]*$", re.MULTILINE)
_SAT_VALUES = re.compile(r"^v( -?[0-9]+)+[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class AnswerFile:
    """One solver's format: its model language, how it is told apart, how it is read into the
    terms that language's decode maps read (the model is given for what a reader needs of it, an
    XCSP3 solution's array sizes)."""

    name: str
    language: str
    detect: Callable[[str], bool]
    terms: Callable[[str, str, ModelFiles], Any]


def _no_solution(source: str, line: int | None, says: str) -> InputError:
    return InputError(source, line, f"the answer says {says}: there are no moves to replay")


# PDDL


def _is_plan(text: str) -> bool:
    return _PLAN_STEP.match(first_line(text, skip=";")) is not None


def _ff_plan(text: str, source: str, model: ModelFiles) -> tuple[Any, ...]:
    verdict = pddl_plan.read_ff(text, source)
    if verdict.plan is None:
        raise _no_solution(source, 1, verdict.status.value)
    return verdict.plan


# MIP


def _mip_values(reader: Callable[[str, str], mip.MipVerdict]) -> Callable[[str, str, ModelFiles], Any]:
    def values(text: str, source: str, model: ModelFiles) -> Any:
        verdict = reader(text, source)
        if verdict.status is not Status.SOLVED:
            raise _no_solution(source, 1, f"{verdict.status.value} ({verdict.message})")
        return verdict.values
    return values


# XCSP3


def _xcsp_output(text: str, source: str, model: ModelFiles) -> Any:
    output = xcsp.read_output(text, source, dict(model.arrays))
    if output.status is not Status.SOLVED:
        raise _no_solution(source, output.status_line, "no solution" if output.status is None
                           else output.status.value)
    return output


# MiniZinc


def _is_minizinc(text: str) -> bool:
    return any(line in (SOLUTION_END, SEARCH_COMPLETE) for _, line in numbered_lines(text)) or \
        _MZN_VERDICT.search(text) is not None


def _minizinc_values(text: str, source: str, model: ModelFiles) -> Any:
    """The last solution's arrays: MiniZinc's JSON (`--output-mode json`), or the models' own output
    items, one `name = [n, ...];` line an array."""
    if any(line.startswith("{") for _, line in numbered_lines(text)):
        output = read_minizinc(text, source)
        if output.values is None:
            raise _no_solution(source, None, output.verdict or "no solution")
        return output.values
    values: dict[str, object] = {}
    last: dict[str, object] | None = None
    verdict = None
    for number, line in numbered_lines(text):
        stripped = line.strip()
        if stripped == SOLUTION_END:
            last, values = values, {}
        elif _MZN_VERDICT.fullmatch(stripped):
            verdict = stripped.strip("=")
        elif stripped and not stripped.startswith("%") and stripped != SEARCH_COMPLETE:
            match = _MZN_ARRAY.match(stripped)
            if match is None:
                raise InputError(source, number, f"not a line of MiniZinc's output: {quote(stripped)}")
            at_most(stripped.count(","), MAX_VALUES, "values", source, number)
            values[match.group(1)] = [int(word) for word in match.group(2).split(",") if word.strip()]
    if last is None:
        raise _no_solution(source, None, verdict or "no solution")
    return last


# clingo


def _is_clingo(text: str) -> bool:
    head = first_line(text)
    return head.startswith(("clingo version", "pyclingo version")) or \
        (head == "{" and '"Solver": "' in text[:200] and "clingo" in text[:200])


def _clingo_atoms(text: str, source: str, model: ModelFiles) -> Sequence[object]:
    """The last answer set's atoms: the line after the last `Answer: N` (text), or the last
    witness's value (`--outf=2`); refused when the result is not SATISFIABLE."""
    if first_line(text) == "{":
        return _clingo_json(text, source)
    atoms: str | None = None
    verdict, verdict_line, expect_atoms = None, None, False
    for number, line in numbered_lines(text):
        stripped = line.strip()
        if expect_atoms:
            atoms, expect_atoms = stripped, False
        elif _CLINGO_ANSWER.match(stripped):
            expect_atoms = True
        elif stripped in _CLINGO_VERDICTS:
            verdict, verdict_line = stripped, number
    if verdict not in ("SATISFIABLE", "OPTIMUM FOUND") or atoms is None:
        raise _no_solution(source, verdict_line, verdict or "no answer set")
    shown = atoms.split()
    at_most(len(shown), MAX_VALUES, "atoms", source, None)
    return shown


def _clingo_json(text: str, source: str) -> Sequence[object]:
    try:
        output = json.loads(text)
        result = output["Result"]
        witnesses = output["Call"][-1].get("Witnesses", [])
    except RecursionError:
        raise InputError(source, None, "clingo's JSON output nested too deep") from None
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise InputError(source, None, "not clingo's JSON output (`--outf=2`): no Result and Call") from None
    if result not in ("SATISFIABLE", "OPTIMUM FOUND") or not witnesses:
        raise _no_solution(source, None, str(result)[:40])
    shown = witnesses[-1].get("Value") if isinstance(witnesses[-1], dict) else None
    if not isinstance(shown, list):
        raise InputError(source, None, "an answer set that is not a list of atoms")
    return shown


# A SAT solver's output: variables only; the CNF's header holds their names


def _is_sat_output(text: str) -> bool:
    return _SAT_STATUS.search(text) is not None and "<instantiation" not in text


def _sat_output(text: str, source: str, model: ModelFiles) -> Any:
    status = _SAT_STATUS.search(text)
    assert status is not None
    if status.group(1) != "SATISFIABLE" or _SAT_VALUES.search(text) is None:
        raise _no_solution(source, text.count("\n", 0, status.start()) + 1, status.group(1))
    raise InputError(source, None, "a SAT solver's model holds variables, not moves: "
                                   "read it with `patience decode model CNF OUTPUT` (the CNF's header names them)")


_PLANS = {reader.name: reader.detect for reader in pddl_plan.ANSWER_READERS}  # Black Hole's detectors of FF's output
_MIP = {reader.name: reader.detect for reader in mip.ANSWER_READERS}
FORMATS: tuple[AnswerFile, ...] = (
    AnswerFile("ff", "pddl", _PLANS["ff"], _ff_plan),
    AnswerFile("ff-steps", "pddl", _PLANS["ff-steps"],
               lambda text, source, model: pddl_plan.read_ff_steps(text, source)),
    AnswerFile("pddl-plan", "pddl", _is_plan, lambda text, source, model: pddl_plan.read_plan_file(text, source)),
    AnswerFile("cbc-solution", "lp", _MIP["cbc-solution"], _mip_values(mip.read_cbc)),
    AnswerFile("highs-solution", "lp", _MIP["highs-solution"], _mip_values(mip.read_highs)),
    AnswerFile("ortools-solution", "lp", _MIP["ortools-solution"], _mip_values(mip.read_ortools)),
    AnswerFile("xcsp3-output", "xcsp3", xcsp.detect, _xcsp_output),
    AnswerFile("clingo", "asp", _is_clingo, _clingo_atoms),
    AnswerFile("minizinc", "mzn", _is_minizinc, _minizinc_values),
    AnswerFile("savilerow-solution", "eprime", detect_savilerow, lambda text, source, model: text),
    AnswerFile("sat-output", "cnf", _is_sat_output, _sat_output),
)


def detected(text: str) -> AnswerFile | None:
    """The solver format `text` is written in, or None (then it is a game's own move list)."""
    return next((answer for answer in FORMATS if answer.detect(text)), None)


def read_solver_answer(text: str, source: str, deal: AnyDeal) -> tuple[Any, ...] | None:
    """The moves of a solver's answer file on `deal`, decoded by the deal's model in the solver's
    language; None when `text` is no solver's format. InputError when it is one but holds no
    solution, or when the deal's game has no model in that language."""
    answer = detected(text)
    if answer is None:
        return None
    game = game_of(deal)
    variant = game.variant(deal)
    try:
        model = build(answer.language, variant, deal, {})
    except UsageError as error:  # the game has no model in that language
        raise InputError(source, None, f"{answer.name} output, but {error}") from None
    return tuple(model.decode(answer.terms(text, source, model), source))
