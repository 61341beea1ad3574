"""HiGHS (through the highspy wheel) on the paper's MIP formulations.

highspy is a library, not a program, so the runner starts `python -m patience.runners.highs
MODEL SOLUTION [SECONDS]` through the runner core like any other solver: the same limits, the
same group kill, and a crash of the solver cannot take the caller down. HiGHS stops itself at
its own time_limit and writes its raw solution file; the hard kill comes a few seconds later.
One thread, so that figures compare with single-threaded CBC.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

from patience.errors import InputError
from patience.generators.lp.solution import MipVerdict, read_highs
from patience.generators.lp.start import read_start
from patience.numeric import count_or_none
from patience.result import Status
from patience.runners.mip import START_OPTION, MipSolver, split_start
from patience.runs.process import ProcessRun, python_command

_NODES = re.compile(r"^nodes: (\d+)$", re.MULTILINE)


class Highs(MipSolver):
    name = "highs"
    description = "HiGHS branch and cut on the paper's MIP-1..MIP-4 (CPLEX LP file; --set model=mip3)"
    options = (*MipSolver.options, START_OPTION)

    def available(self) -> bool:
        return importlib.util.find_spec("highspy") is not None

    def version(self) -> str | None:
        if not self.available():
            return None
        import highspy  # its constants: a Highs() object would print HiGHS's banner on stdout

        return f"{highspy.HIGHS_VERSION_MAJOR}.{highspy.HIGHS_VERSION_MINOR}.{highspy.HIGHS_VERSION_PATCH}"

    def install_hint(self) -> str:
        return "pip install highspy"

    def solver_command(self, model: str, solution: str, seconds: float | None) -> list[str]:
        limit = [] if seconds is None else [f"{seconds:g}"]
        return python_command("-m", "patience.runners.highs", model, solution, *limit)

    def verdict(self, run: ProcessRun, solution: str) -> MipVerdict:
        if not solution:
            if run.out_of_time or run.memout:
                return MipVerdict(Status.UNKNOWN, message="killed before writing a solution file")
            detail = (run.stderr.strip().splitlines() or run.stdout.strip().splitlines() or [""])[-1]
            raise InputError("HiGHS output", None, f"no solution file (exit {run.returncode}): {detail}")
        return read_highs(solution, "HiGHS solution")

    def nodes(self, run: ProcessRun) -> int | None:
        match = _NODES.search(run.stdout)
        return count_or_none(match.group(1)) if match else None


def main(arguments: list[str]) -> int:
    """Solve one LP file with highspy; write the raw solution file and print the node count."""
    import highspy

    arguments, start = split_start(arguments)
    model, solution = arguments[0], arguments[1]
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("threads", 1)
    if len(arguments) > 2:
        highs.setOptionValue("time_limit", float(arguments[2]))
    if highs.readModel(model) != highspy.HighsStatus.kOk:
        print(f"HiGHS cannot read {model}", file=sys.stderr)
        return 1
    if start is not None:
        set_start(highs, read_start(Path(start).read_text()))
    highs.run()
    highs.writeSolution(solution, 0)
    print(f"status: {highs.modelStatusToString(highs.getModelStatus())}")
    print(f"nodes: {highs.getInfo().mip_node_count}")
    return 0


def set_start(highs: Any, values: dict[str, float]) -> None:
    """Hand HiGHS a partial MIP start (it completes the other columns itself, or drops the start)."""
    import numpy

    columns = [highs.getColByName(name)[1] for name in values]
    highs.setSolution(len(columns), numpy.array(columns, dtype=numpy.int32),
                      numpy.array(list(values.values()), dtype=numpy.float64))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
