"""Grading Essence Prime coursework on LBS: run (or read) Savile Row's answers and judge each one.

A claimed solution is graded by replaying its moves; a claimed "no solution" by the native
solver, which must fail to find one. Timeouts are not graded. Nothing the student's model prints
is trusted: a missing constraint shows up as an illegal move, an extra one as a lost solution.
"""

from __future__ import annotations

import math
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from patience.errors import InputError
from patience.generators.eprime.solution import read_info
from patience.grading.sandbox import confined
from patience.grading.student import own_file
from patience.grading.table import (
    CORRECT,
    ERROR,
    NO_SOLUTION,
    SOLVED,
    TIMEOUT,
    UNGRADED,
    WRONG,
    Graded,
    Stats,
    students_words,
)
from patience.lbs import solver
from patience.lbs.deal import LBSDeal, read_param
from patience.lbs.rules import replay
from patience.lbs.solution import Mapping, read_moves
from patience.reading import read_output, read_text
from patience.result import Status
from patience.runners.savilerow import minion_path, savilerow_command, savilerow_limits, savilerow_run
from patience.runs.process import run_process


class NativeVerdicts:
    """The native solver's verdict per deal, computed once each (a teacher's ground truth)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._known: dict[tuple[int, ...], solver.Search] = {}

    def __call__(self, deal: LBSDeal) -> solver.Search:
        if deal.cards not in self._known:
            self._known[deal.cards] = solver.solve(deal, timeout=self.timeout)
        return self._known[deal.cards]


def grade_answer(deal: LBSDeal, info_text: str | None, solution_text: str | None, source: str,
                 mapping: Mapping | None, native: NativeVerdicts, note: str = "") -> Graded:
    """Grade one instance from the text of its `.info` and `.solution` files (None if absent)."""
    n = len(deal.cards)
    if info_text is None:
        return Graded(deal.name, n, ERROR, WRONG if solution_text is None else UNGRADED, note or "no .info file")
    try:
        info, unreadable = read_info(info_text, f"{source}.info"), ""
    except InputError as error:  # the statistics are no verdict: a solution is still graded by replay
        info, unreadable = {}, f"unreadable .info: {error}"
    note = "; ".join(part for part in (note, unreadable) if part)
    stats = Stats(nodes=_count(info.get("SolverNodes")), solve_time=_finite(info.get("SolverSolveTime")),
                  savilerow_time=_finite(info.get("SavileRowTotalTime")))
    if solution_text is not None:
        graded = grade_solution(deal, lambda: read_moves(solution_text, f"{source}.solution", mapping), stats)
        return graded if not note or graded.grade == WRONG else replace(graded, note=f"{graded.note}; {note}")
    if unreadable:
        return Graded(deal.name, n, ERROR, WRONG, note)
    if info.get("SolverTimeOut", 0) or info.get("SavileRowTimeOut", 0) or "SolverSatisfiable" not in info:
        return Graded(deal.name, n, TIMEOUT, UNGRADED, f"not graded (native: {native(deal).verdict})", **stats)
    if info["SolverSatisfiable"]:
        return Graded(deal.name, n, SOLVED, WRONG, "claims a solution but wrote no .solution file", **stats)
    return grade_no_solution(deal, native, stats)


def _finite(value: float | None) -> float | None:
    """A statistic Savile Row printed, or None if it is no finite non-negative number (`1e400`, `nan`)."""
    return value if value is not None and math.isfinite(value) and value >= 0 else None


def _count(value: float | None) -> int | None:
    """A count (SolverNodes) as an integer, or None if it is no whole number a run could reach."""
    value = _finite(value)
    return int(value) if value is not None and value.is_integer() and value < 2 ** 63 else None


def grade_solution(deal: LBSDeal, read: Callable[[], Sequence[tuple[int, int]]], stats: Stats) -> Graded:
    """A claimed solution, whatever wrote it: correct only if it reads and the replay accepts it."""
    try:
        moves = read()
    except InputError as error:
        return Graded(deal.name, len(deal.cards), SOLVED, WRONG, f"unreadable solution: {error}", **stats)
    result = replay(deal, moves)
    if result.valid:
        return Graded(deal.name, len(deal.cards), SOLVED, CORRECT, result.describe(), **stats)
    return Graded(deal.name, len(deal.cards), SOLVED, WRONG, students_words(deal, f"illegal: {result.fault}"), **stats)


def grade_no_solution(deal: LBSDeal, native: NativeVerdicts, stats: Stats) -> Graded:
    """A claim that the deal has no solution, checked against the native search."""
    n, truth = len(deal.cards), native(deal)
    if truth.verdict is Status.UNSOLVABLE:
        return Graded(deal.name, n, NO_SOLUTION, CORRECT, f"native agrees ({truth.nodes} nodes)", **stats)
    if truth.verdict is Status.SOLVED:
        moves = " ".join(f"{a}->{b}" for a, b in truth.moves or ())
        return Graded(deal.name, n, NO_SOLUTION, WRONG, f"lost solutions: native wins with {moves}", **stats)
    return Graded(deal.name, n, NO_SOLUTION, UNGRADED, "native solver ran out of time", **stats)


def instance_order(path: Path) -> tuple:
    """LBS<n>_<k> sorted by n, then k; other names after them by name."""
    match = re.fullmatch(r"LBS(\d+)_(\d+)\.(?:param|dzn)", path.name)
    return (0, int(match.group(1)), int(match.group(2)), "") if match else (1, 0, 0, path.name)


def instances(folder: Path, suffixes: tuple[str, ...] = (".param",)) -> list[Path]:
    if not folder.is_dir():
        raise InputError(str(folder), None, "not a folder")
    found = sorted((path for path in folder.rglob("*") if path.suffix in suffixes and path.is_file()),
                   key=instance_order)
    if not found:
        raise InputError(str(folder), None, f"no {' or '.join(suffixes)} files in the folder (LBS instances: a model "
                                            "of another game is graded with --game GAME)")
    return found


def _optional_text(path: Path) -> str | None:
    # undecodable bytes stay visible to the readers, which grade the row WRONG instead of stopping
    return read_output(path) if path.exists() else None


def grade_results(folder: Path, mapping: Mapping | None, native: NativeVerdicts) -> list[Graded]:
    """Grade the `.info`/`.solution` files Savile Row already wrote next to each `.param`."""
    rows = []
    for param in instances(folder):
        deal = read_param(read_text(param), str(param))
        rows.append(grade_answer(deal, _optional_text(Path(f"{param}.info")),
                                 _optional_text(Path(f"{param}.solution")), str(param), mapping, native))
    return rows


def grade_model(model: Path, folder: Path, mapping: Mapping | None, native: NativeVerdicts,
              timeout: float, level: int) -> list[Graded]:
    """Run the model through Savile Row + Minion at -O`level` on every instance and grade it."""
    if savilerow_command() is None or minion_path() is None:
        raise InputError(str(model), None, "Savile Row and Minion are needed: set SAVILEROW_PATH and MINION_PATH")
    if not model.is_file():
        raise InputError(str(model), None, "no such model file")
    own_file(model)
    rows = []
    for param in instances(folder):
        deal = read_param(read_text(param), str(param))
        with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
            shutil.copy(model, Path(scratch, "model.eprime"))
            shutil.copy(param, Path(scratch, "instance.param"))
            command = savilerow_run("model.eprime", "instance.param", str(level), timeout)
            run = run_process(confined(command, Path(scratch)), savilerow_limits(timeout), cwd=scratch)
            info = _optional_text(Path(scratch, "instance.param.info"))
            if run.out_of_time and info is None:  # out of time is no verdict: never graded wrong
                rows.append(Graded(deal.name, len(deal.cards), TIMEOUT, UNGRADED,
                                   f"killed at the time limit; not graded (native: {native(deal).verdict})"))
                continue
            note = ""
            if run.returncode != 0:
                note = next((line.strip() for line in (run.stdout + run.stderr).splitlines() if "ERROR" in line),
                            f"Savile Row exit {run.returncode}")
            rows.append(grade_answer(deal, info, _optional_text(Path(scratch, "instance.param.solution")),
                                     str(param), mapping, native, note))
    return rows
