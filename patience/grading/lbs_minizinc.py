"""Grading a student's MiniZinc model of LBS: run it through MiniZinc on every instance (`.dzn`
files `cards = [...];`, or the coursework's `.param` files, given to the model as `.dzn`) and judge
each answer as the Essence Prime grader does: a solution by replaying its moves, a "no solution"
by the native solver, a timeout not at all. Nothing the model prints is trusted."""

from __future__ import annotations

import tempfile
from pathlib import Path

from patience.errors import InputError, UsageError, quote
from patience.formats import read_text
from patience.generators.mzn.lbs import data, decode
from patience.generators.mzn.solution import stat_count, stat_seconds
from patience.grading.lbs_savilerow import NativeVerdicts, grade_no_solution, grade_solution, instances
from patience.grading.sandbox import confined
from patience.grading.student import helper_files, own_file
from patience.grading.table import ERROR, TIMEOUT, UNGRADED, WRONG, Graded, Stats
from patience.lbs.deal import LBSDeal, read_dzn, read_param
from patience.lbs.solution import Mapping
from patience.runners.base import write_scratch
from patience.runners.minizinc import GRACE_SECONDS, MiniZinc, configured_backends, minizinc_command, verdict_of
from patience.runs.process import Limits, ProcessRun, run_process

COLUMNS = ("nodes", "solveTime", "flatTime")  # MiniZinc's statistics in the table


def load_instance(path: Path) -> LBSDeal:
    text = read_text(path)
    return read_dzn(text, str(path)) if path.suffix == ".dzn" else read_param(text, str(path))


def grade_minizinc(model: Path, folder: Path, mapping: Mapping | None, native: NativeVerdicts,
                   timeout: float, backend: str) -> list[Graded]:
    """Run the model with MiniZinc's `backend` on every instance under `folder` and grade it."""
    executable = MiniZinc().executable()
    if executable is None:
        raise InputError(str(model), None, "MiniZinc is needed: Debian package minizinc, or set MINIZINC_PATH")
    if backend not in configured_backends():  # a `.msc` path would run whatever program it names
        raise UsageError(f"--backend {quote(backend)} is not a solver MiniZinc has configured here "
                         f"(choose from {', '.join(configured_backends())})")
    if not model.is_file():
        raise InputError(str(model), None, "no such model file")
    own_file(model)
    model_text = read_text(model)
    helpers = helper_files(model, model_text)
    clash = next((name for name in ("model.mzn", "instance.dzn") if name in helpers), None)
    if clash is not None:
        raise InputError(str(model), None, f"includes {clash!r} of its folder, the name of a file the grader "
                                           "writes (the model or the deal's data): rename it")
    rows = []
    for path in instances(folder, (".dzn", ".param")):
        deal = load_instance(path)
        with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
            write_scratch(Path(scratch), {**helpers, "model.mzn": model_text, "instance.dzn": data(deal)})
            command = minizinc_command(executable, backend, timeout, ["model.mzn", "instance.dzn"])
            run = run_process(confined(command, Path(scratch)), Limits(timeout).with_grace(GRACE_SECONDS), cwd=scratch)
        rows.append(grade_run(deal, run, str(path), mapping or Mapping(), native))
    return rows


def grade_run(deal: LBSDeal, run: ProcessRun, source: str, mapping: Mapping, native: NativeVerdicts) -> Graded:
    """Grade one instance from what MiniZinc printed."""
    n = len(deal.cards)
    try:
        output = verdict_of(run, source)
    except InputError as error:
        if run.out_of_time:
            return Graded(deal.name, n, TIMEOUT, UNGRADED, f"killed at the time limit; not graded "
                                                           f"(native: {native(deal).verdict})")
        return Graded(deal.name, n, ERROR, WRONG, error.message)
    stats = Stats(nodes=stat_count(output.stats, "nodes"), solve_time=stat_seconds(output.stats, "solveTime"),
                  savilerow_time=stat_seconds(output.stats, "flatTime"))
    if output.values is not None:
        values = output.values
        return grade_solution(
            deal, lambda: decode(values, source, n - 1, mapping.source, mapping.target, mapping.first), stats)
    if output.verdict == "UNSATISFIABLE":
        return grade_no_solution(deal, native, stats)
    if output.verdict == "UNKNOWN" or run.out_of_time:
        return Graded(deal.name, n, TIMEOUT, UNGRADED, f"not graded (native: {native(deal).verdict})", **stats)
    return Graded(deal.name, n, ERROR, WRONG, f"no solution and no verdict (MiniZinc exit {run.returncode})",
                  **stats)

