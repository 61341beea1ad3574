"""CP-SAT (OR-Tools) on the paper's CP model, built by `generators/cpsat/black_hole.py` as a CpModelProto.

CP-SAT is a library, so the runner starts `python -m patience.runners.cpsat MODEL SECONDS
WORKERS` through the runner core like any other solver: the same limits and the same group
kill. CP-SAT stops itself at max_time_in_seconds; the hard kill comes a grace period later.
One worker by default, so that figures compare with the single-threaded solvers.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.errors import InputError
from patience.generators.cpsat import black_hole as cpsat
from patience.generators.files import ModelFiles
from patience.numeric import LARGEST, count_or_none, whole
from patience.options import Count, Schema, Switch
from patience.result import Answer, Status
from patience.runners.base import ProcessSolver, answer_from_run, modelled_games
from patience.runners.mip import GRACE_SECONDS
from patience.runs.process import Limits, ProcessRun, python_command

_STATUS = re.compile(r"^status: (\S+)$", re.MULTILINE)
_VALUES = re.compile(r"^x: ([0-9 ]*)$", re.MULTILINE)
_BRANCHES = re.compile(r"^branches: (\d+)$", re.MULTILINE)
VERDICTS = {"FEASIBLE": Status.SOLVED, "OPTIMAL": Status.SOLVED, "INFEASIBLE": Status.UNSOLVABLE,
            "UNKNOWN": Status.TIMEOUT}  # UNKNOWN: stopped at max_time_in_seconds without a verdict


def ortools_version() -> str | None:
    return importlib.metadata.version("ortools") if importlib.util.find_spec("ortools") else None


# Off by default: OR-Tools 9.15's presolve calls some won generalised deals infeasible (9.14's does not),
# and a route known to give a false verdict is never the default.
PRESOLVE = Switch("presolve", "off", "CP-SAT's presolve; on by request only: OR-Tools 9.15's calls some won "
                                     "generalised deals infeasible (docs/hardness.md)")


class OrToolsSolver:
    """What the OR-Tools routes share: found when the wheel is, and its version."""

    address_space_limit = False  # a JVM's or many threads' reserved address space would trip RLIMIT_AS

    def available(self) -> bool:
        return importlib.util.find_spec("ortools") is not None

    def version(self) -> str | None:
        return ortools_version()

    def install_hint(self) -> str:
        return "pip install ortools"


class CpSat(OrToolsSolver, ProcessSolver):
    name = "cpsat"
    paradigm = "cp"
    description = "OR-Tools CP-SAT on the paper's CP model (dual viewpoint, table of following pairs)"
    language = "cpsat"
    games = modelled_games("cpsat")
    grace = GRACE_SECONDS
    options: ClassVar[Schema] = (
        *cpsat.OPTIONS,
        Count("workers", "1", "CP-SAT's num_workers (1: one thread, comparable with the other solvers)",
              maximum=1024),
        PRESOLVE,
    )

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        seconds = "0" if limits.timeout is None else f"{limits.timeout:g}"
        return python_command("-m", "patience.runners.cpsat", model.primary, seconds, str(options["workers"]),
                              "1" if options["presolve"] else "0")

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        match = _STATUS.search(run.stdout)
        if match is None:
            if run.out_of_time or run.memout:
                return answer_from_run(run, Status.UNKNOWN, message="killed before CP-SAT answered")
            detail = (run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[-1]
            raise InputError("CP-SAT output", None, f"no status line: {detail}")
        name = match.group(1)
        if name not in VERDICTS:
            raise InputError("CP-SAT output", None, f"CP-SAT says {name}")
        status, sequence = VERDICTS[name], None
        if status is Status.SOLVED:
            values = _VALUES.search(run.stdout)
            if values is None:
                raise InputError("CP-SAT output", None, f"status {name} but no x values")
            numbers = [whole(value, "a CP-SAT value", 0, LARGEST, "CP-SAT output") for value in values.group(1).split()]
            sequence = model.decode({f"x_{step}": value for step, value in enumerate(numbers)}, "CP-SAT output")
        branches = _BRANCHES.search(run.stdout)
        return answer_from_run(run, status, sequence, count_or_none(branches.group(1)) if branches else None,
                               message=name)


def main(arguments: list[str]) -> int:
    """Solve one CpModelProto text file (arguments: the file, seconds, workers, presolve 1 or 0); print
    the status, the x values and the branch count."""
    from ortools.sat.python import cp_model

    model_file, seconds, workers, presolve = arguments[0], float(arguments[1]), int(arguments[2]), arguments[3] == "1"
    model = cp_model.CpModel()
    model.proto.parse_text_format(Path(model_file).read_text())
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.cp_model_presolve = presolve
    if seconds > 0:
        solver.parameters.max_time_in_seconds = seconds
    status = solver.solve(model)
    print(f"status: {solver.status_name(status)}")
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        steps = {int(match.group(1)): index for index, variable in enumerate(model.proto.variables)
                 if (match := cpsat.X_NAME.fullmatch(variable.name))}
        print("x: " + " ".join(str(solver.value(model.get_int_var_from_proto_index(steps[step])))
                               for step in sorted(steps)))
    print(f"branches: {solver.num_branches}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
