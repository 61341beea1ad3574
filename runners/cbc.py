"""CBC (COIN-OR branch and cut) on the paper's MIP formulations.

Debian's coinor-cbc (or the cbcbox wheel) gives the `cbc` binary; CBC_PATH overrides it. CBC
stops itself at the wall-clock limit (`-timeMode elapsed -sec T`) and writes its solution file;
the runner core kills it a few seconds later if it does not.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache

from patience.errors import InputError
from patience.generators.lp.solution import MipVerdict, read_cbc
from patience.numeric import count_or_none
from patience.result import Status
from patience.runners.base import ExecutableSolver
from patience.runners.mip import MipSolver
from patience.runs.process import ProcessRun

_NODES = re.compile(r"^Enumerated nodes:\s+(\d+)", re.MULTILINE)
_PROOF = re.compile(r"^(Result - (Problem proven|Linear relaxation) infeasible"
                    r"|Pre-processing says infeasible|Problem is infeasible)", re.MULTILINE)


@cache
def _version(executable: str) -> str | None:
    try:
        banner = subprocess.run([executable, "-quit"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"^Version: (\S+)", banner, re.MULTILINE)
    return match.group(1) if match else None


class Cbc(MipSolver, ExecutableSolver):
    name = "cbc"
    description = "CBC branch and cut on the paper's MIP-1..MIP-4 (CPLEX LP file; --set model=mip3)"

    executables = ("cbc",)
    env_var = "CBC_PATH"

    def version(self) -> str | None:
        executable = self.executable()
        return _version(executable) if executable else None

    def install_hint(self) -> str:
        return "apt-get install coinor-cbc (or pip install cbcbox), or set CBC_PATH"

    def solver_command(self, model: str, solution: str, seconds: float | None) -> list[str]:
        limit = ["-timeMode", "elapsed", "-sec", f"{seconds:g}"] if seconds is not None else []
        return [self.executable() or "cbc", model, *limit, "-solve", "-solu", solution]

    def verdict(self, run: ProcessRun, solution: str) -> MipVerdict:
        if not solution:
            if run.out_of_time or run.memout:
                return MipVerdict(Status.UNKNOWN, message="killed before writing a solution file")
            detail = (run.stdout.strip().splitlines() or run.stderr.strip().splitlines() or [""])[-1]
            raise InputError("CBC output", None, f"no solution file (exit {run.returncode}): {detail}")
        verdict = read_cbc(solution, "CBC solution")
        if verdict.status is Status.UNSOLVABLE and (not _PROOF.search(run.stdout) or "time limit" in run.stdout):
            # CBC 2.10.8 wrote "Infeasible" for a solvable 52-card MIP-3 (PySol seed 3) when its
            # time limit struck: only an infeasibility the log states, before any limit, is a proof
            return MipVerdict(Status.UNKNOWN, message=f"infeasibility not proved in the log: {verdict.message}")
        return verdict

    def nodes(self, run: ProcessRun) -> int | None:
        match = _NODES.search(run.stdout)
        return count_or_none(match.group(1)) if match else None
