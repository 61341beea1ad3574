"""Savile Row 1.6.5 on the Essence Prime model, with Minion or a SAT solver behind it.

Savile Row and Minion are in neither PyPI nor Debian: `savilerow` is found on PATH or through
SAVILEROW_PATH (its start script or `savilerow.jar`), Minion on PATH or through MINION_PATH.
Savile Row writes `deal.param.solution` and `deal.param.info`; both are read back, and the
verdict comes from the `.info` file (SolverSatisfiable, SolverTimeOut, SavileRowTimeOut).
"""

from __future__ import annotations

import math
import os
import tempfile
from abc import abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from patience.deal import Deal
from patience.errors import UsageError
from patience.generators.eprime import MODEL_FILE, Numbering, model_text, parameters
from patience.result import Answer, Status
from patience.runners.base import Solver, answer_from_run, find_executable, option_flag
from patience.runners.process import Limits, ProcessRun, run_process
from patience.runners.sat_cli import Cadical, CommandLineSat, CryptoMiniSat, Minisat, Picosat
from patience.runners.savilerow_output import read_info, read_solution

PARAM_FILE = "deal.param"
# --set sat-solver=NAME: the binary's runner (for finding it) and the output family Savile Row reads
SAT_SOLVERS: dict[str, tuple[type[CommandLineSat], str]] = {
    "minisat": (Minisat, "minisat"), "cadical": (Cadical, "lingeling"),
    "cryptominisat": (CryptoMiniSat, "lingeling"), "picosat": (Picosat, "lingeling"),
}
STATS = ("SavileRowTotalTime", "SolverTotalTime", "SolverSolveTime", "SATVars", "SATClauses")
SOURCE_HINT = ("Savile Row 1.6.5: GitHub stacs-cp/cp2018-tabulation, folder savilerow (savilerow.jar, or "
               "compile.sh with javac; needs Java); put its `savilerow` script on PATH or set SAVILEROW_PATH")
MINION_HINT = ("Minion: build GitHub minion/minion (mkdir bin; cd bin; ../configure.py; make minion) and "
               "put `minion` on PATH or set MINION_PATH")


def savilerow_command() -> list[str] | None:
    """How to start Savile Row: its start script, or `java -jar` when SAVILEROW_PATH names the jar."""
    jar = os.environ.get("SAVILEROW_PATH", "")
    if jar.endswith(".jar"):
        java = find_executable(("java",))
        return [java, "-XX:ParallelGCThreads=1", "-jar", jar] if java and Path(jar).is_file() else None
    found = find_executable(("savilerow",), "SAVILEROW_PATH")
    return [found] if found else None


def minion_path() -> str | None:
    return find_executable(("minion",), "MINION_PATH")


def minion_time_limits(seconds: float) -> list[str]:
    """Savile Row's -timelimit (milliseconds) stops only its own translation; Minion gets the limit
    through -solver-options, so the search stops too and Savile Row still writes its .info file.
    Each phase has the whole limit, as the coursework times them apart."""
    return ["-timelimit", str(int(seconds * 1000)), "-solver-options", f"-cpulimit {max(1, math.ceil(seconds))}"]


class SavileRow(Solver):
    """The template: write model and parameters, run Savile Row with a back end, read its files."""

    paradigm = "cp"
    options: ClassVar[Mapping[str, str]] = {
        "symmetry-breaking": "on|off: the paper's conditional symmetry breaking (default on)",
        "optimisation": "0|1|2|3: Savile Row's -O level (default 2; 2 and 3 need Minion)",
    }

    @abstractmethod
    def backend_arguments(self, options: Mapping[str, str]) -> list[str]:
        """Savile Row's flags choosing and locating the back-end solver."""

    def available(self) -> bool:
        return savilerow_command() is not None and minion_path() is not None

    def version(self) -> str | None:
        return "Savile Row 1.6.5"

    def install_hint(self) -> str:
        return f"{SOURCE_HINT}; {MINION_HINT}"

    def solve(self, deal: Deal, limits: Limits, options: Mapping[str, str]) -> Answer:
        symmetry = option_flag(options, "symmetry-breaking", True)
        level = options.get("optimisation", "2")
        if level not in ("0", "1", "2", "3"):
            raise UsageError(f"option optimisation must be 0, 1, 2 or 3, not {level!r}")
        command = [*(savilerow_command() or ["savilerow"]), MODEL_FILE, PARAM_FILE, f"-O{level}", "-run-solver",
                   "-minion-bin", minion_path() or "minion", *self.backend_arguments(options)]
        with tempfile.TemporaryDirectory(prefix="patience-") as folder:
            Path(folder, MODEL_FILE).write_text(model_text())
            Path(folder, PARAM_FILE).write_text(parameters(deal, symmetry))
            run = run_process(command, limits, cwd=folder)
            return self.verdict(run, Path(folder), Numbering(deal))

    def verdict(self, run: ProcessRun, folder: Path, numbering: Numbering) -> Answer:
        info_path, solution_path = folder / f"{PARAM_FILE}.info", folder / f"{PARAM_FILE}.solution"
        if not info_path.exists():
            if run.timed_out or run.memout:
                return answer_from_run(run, Status.UNKNOWN)
            detail = next((line for line in (run.stdout + run.stderr).splitlines() if "ERROR" in line),
                          f"Savile Row exit {run.returncode} without an .info file")
            return answer_from_run(run, Status.ERROR, message=detail.strip())
        info = read_info(info_path.read_text(), info_path.name)
        nodes = int(info["SolverNodes"]) if "SolverNodes" in info else None
        stats = {key: info[key] for key in STATS if key in info}
        if solution_path.exists():
            sequence = read_solution(solution_path.read_text(), solution_path.name, numbering)
            return answer_from_run(run, Status.SOLVED, sequence, nodes, stats)
        timed_out = info.get("SolverTimeOut", 0) or info.get("SavileRowTimeOut", 0)
        if info.get("SolverSatisfiable") == 0 and not timed_out:
            return answer_from_run(run, Status.UNSOLVABLE, None, nodes, stats)
        return answer_from_run(run, Status.TIMEOUT if timed_out else Status.UNKNOWN, None, nodes, stats)


class SavileRowMinion(SavileRow):
    name = "savilerow-minion"
    description = "Savile Row 1.6.5 + Minion on the Essence Prime model (x/y channelled, table, symmetry breaking)"

    def backend_arguments(self, options: Mapping[str, str]) -> list[str]:
        return []


class SavileRowSat(SavileRow):
    """Savile Row reads MiniSat's result file (its `minisat` family) or the competition format on
    stdout (its `lingeling` family), which CaDiCaL, CryptoMiniSat and PicoSAT print."""

    name = "savilerow-sat"
    description = "Savile Row 1.6.5 SAT encoding of the Essence Prime model, solved by MiniSat (or CaDiCaL, ...)"
    options: ClassVar[Mapping[str, str]] = {
        **SavileRow.options,
        "sat-solver": f"{'|'.join(SAT_SOLVERS)}: the SAT solver behind Savile Row (default minisat)",
    }

    def solve(self, deal: Deal, limits: Limits, options: Mapping[str, str]) -> Answer:
        name, binary = _sat_solver(options)
        if binary.executable() is None:  # as for any solver that is not installed
            return Answer(Status.ERROR, message=f"{name} not installed: {binary.install_hint()}")
        return super().solve(deal, limits, options)

    def backend_arguments(self, options: Mapping[str, str]) -> list[str]:
        name, binary = _sat_solver(options)
        return ["-sat", "-sat-family", SAT_SOLVERS[name][1], "-satsolver-bin", binary.executable() or name]

    def available(self) -> bool:
        return super().available() and Minisat().available()

    def install_hint(self) -> str:
        return f"{SOURCE_HINT}; {MINION_HINT}; MiniSat: Debian package minisat"


def _sat_solver(options: Mapping[str, str]) -> tuple[str, CommandLineSat]:
    """The `sat-solver` option's name and the runner that finds its binary."""
    name = options.get("sat-solver", "minisat")
    if name not in SAT_SOLVERS:
        raise UsageError(f"option sat-solver must be one of {', '.join(SAT_SOLVERS)}, not {name!r}")
    return name, SAT_SOLVERS[name][0]()
