"""CP-SAT and SCIP (both in the OR-Tools wheel) on the paper's MIP formulations.

OR-Tools' own LP reader takes only its own small dialect, not CPLEX LP, so the child process
`python -m patience.runners.ortools_mip BACKEND MODEL SOLUTION [SECONDS]` reads the generated
CPLEX LP file with HiGHS's reader (highspy, already a dependency), hands it over as MPS to
OR-Tools' model_builder, solves it with the backend and writes its own solution file: the status,
then `name value` per variable. Running in a child keeps the runner core's limits and group kill.
One thread for both backends, so that figures compare with CBC and HiGHS.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.errors import InputError
from patience.generators.files import ModelFiles
from patience.generators.lp.solution import ORTOOLS_HEADER, MipVerdict, read_ortools
from patience.generators.lp.start import read_start
from patience.outputs import write_file
from patience.result import Status
from patience.runners.cpsat import PRESOLVE, OrToolsSolver
from patience.runners.mip import START_OPTION, MipSolver, split_start
from patience.runs.process import Limits, ProcessRun, python_command

PRESOLVE_ARGUMENT = "--presolve"  # CP-SAT's presolve on (it is off unless asked: runners/cpsat.py)
STOPPED_EARLY = 0.95  # a run that ends undecided after this share of its time limit hit the limit


class OrToolsMip(OrToolsSolver, MipSolver):
    """One OR-Tools model_builder backend on the LP file."""

    backend: ClassVar[str]  # model_builder's solver name
    options = (*MipSolver.options, START_OPTION)

    def solver_command(self, model: str, solution: str, seconds: float | None) -> list[str]:
        limit = [] if seconds is None else [f"{seconds:g}"]
        return python_command("-m", "patience.runners.ortools_mip", self.backend, model, solution, *limit)

    def verdict(self, run: ProcessRun, solution: str) -> MipVerdict:
        if not solution:
            if run.out_of_time or run.memout:
                return MipVerdict(Status.UNKNOWN, message="killed before writing a solution file")
            detail = (run.stderr.strip().splitlines() or run.stdout.strip().splitlines() or [""])[-1]
            raise InputError(f"{self.name} output", None, f"no solution file (exit {run.returncode}): {detail}")
        return read_ortools(solution, f"{self.name} solution")

    def nodes(self, run: ProcessRun) -> int | None:
        return None  # model_builder does not report a node count


class CpSatMip(OrToolsMip):
    name = "cpsat-mip"
    backend = "sat"
    description = "OR-Tools CP-SAT on the paper's MIP-1..MIP-4 (CPLEX LP file; --set model=mip3)"
    options = (*OrToolsMip.options, PRESOLVE)

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return super().command(model, limits, options) + ([PRESOLVE_ARGUMENT] if options["presolve"] else [])


class Scip(OrToolsMip):
    name = "scip"
    backend = "scip"
    description = "SCIP (in the OR-Tools wheel) on the paper's MIP-1..MIP-4 (CPLEX LP file; --set model=mip3)"


def main(arguments: list[str]) -> int:
    """Solve one CPLEX LP file with an OR-Tools backend; write the solution file."""
    import highspy
    from ortools.linear_solver.python import model_builder

    arguments, start = split_start(arguments)
    presolve = PRESOLVE_ARGUMENT in arguments
    arguments = [item for item in arguments if item != PRESOLVE_ARGUMENT]
    backend, lp_file, solution = arguments[0], arguments[1], arguments[2]
    seconds = float(arguments[3]) if len(arguments) > 3 else None
    started = time.monotonic()
    reader = highspy.Highs()
    reader.setOptionValue("output_flag", False)
    if reader.readModel(lp_file) != highspy.HighsStatus.kOk:
        print(f"cannot read {lp_file}", file=sys.stderr)
        return 1
    model = model_builder.Model()
    with tempfile.TemporaryDirectory(prefix="patience-") as folder:
        mps = str(Path(folder, "model.mps"))
        reader.writeModel(mps)
        if not model.import_from_mps_file(mps):
            print(f"OR-Tools cannot read the MPS form of {lp_file}", file=sys.stderr)
            return 1
    if start is not None:
        by_name = {variable.name: variable for variable in model.get_variables()}
        for name, value in read_start(Path(start).read_text()).items():
            model.add_hint(by_name[name], value)
    solver = model_builder.Solver(backend)
    if backend == "sat":
        solver.set_solver_specific_parameters(f"num_workers: 1 cp_model_presolve: {str(presolve).lower()}")
    if seconds is not None:
        solver.set_time_limit_in_seconds(max(seconds - (time.monotonic() - started), 0.1))
    status = solver.solve(model)
    name = status.name
    if status in (model_builder.SolveStatus.OPTIMAL, model_builder.SolveStatus.FEASIBLE):
        values = solver.values(model.get_variables())
        lines = [f"{variable.name} {values[variable]:g}" for variable in model.get_variables()]
    else:
        lines = []
        if seconds is not None and time.monotonic() - started >= STOPPED_EARLY * seconds:
            name = "TIME_LIMIT"
    write_file(Path(solution), "\n".join([f"{ORTOOLS_HEADER} {backend} {name}", *lines]) + "\n")  # read whole
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
