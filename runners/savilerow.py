"""Savile Row 1.6.5 on the Essence Prime model, with Minion or a SAT solver behind it.

Savile Row and Minion are in neither PyPI nor Debian: `savilerow` is found on PATH or through
SAVILEROW_PATH (its start script or `savilerow.jar`), Minion on PATH or through MINION_PATH.
Savile Row writes `X.param.solution` and `X.param.info`; both are read back, and the verdict comes
from the `.info` file (SolverSatisfiable, SolverTimeOut, SavileRowTimeOut). The same runner plays every
game whose family has an Essence Prime model (generators/eprime/FAMILY.py): Black Hole and Golf
(models/blackhole.eprime), Binary Star, Worm Hole (models/worm-hole.eprime) and LBS (the coursework model).
"""

from __future__ import annotations

import math
import os
from abc import abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from patience.generators.eprime import black_hole as eprime
from patience.generators.eprime.solution import read_info
from patience.generators.files import ModelFiles
from patience.numeric import count_or_none
from patience.options import Option, Schema
from patience.reading import read_output
from patience.result import Answer, Status
from patience.runners.base import ProcessSolver, answer_from_run, find_executable, modelled_games
from patience.runners.sat_cli import Cadical, CommandLineSat, CryptoMiniSat, Minisat, Picosat
from patience.runs.process import Limits, ProcessRun

if TYPE_CHECKING:
    from patience.games import AnyDeal

GRACE_SECONDS = 30.0  # Savile Row and Minion stop themselves at the limit; the hard kill comes this much later
MINION_TIME_FLAG = "-cpulimit {}"  # the back end's own time limit ({}: whole seconds), through -solver-options
# --set sat-solver=NAME: the binary's runner (for finding it), the output family Savile Row reads and
# the solver's own time limit flag (Savile Row passes -solver-options to the SAT solver as they are)
SAT_SOLVERS: dict[str, tuple[type[CommandLineSat], str, str]] = {
    "minisat": (Minisat, "minisat", "-cpu-lim={}"), "cadical": (Cadical, "lingeling", "-t {}"),
    "cryptominisat": (CryptoMiniSat, "lingeling", "--maxtime {}"), "picosat": (Picosat, "lingeling", "-L {}"),
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


def minion_time_limits(seconds: float, flag: str = MINION_TIME_FLAG) -> list[str]:
    """Savile Row's -timelimit (milliseconds) stops only its own translation; the back end (Minion,
    or the SAT solver with its own `flag`) gets the limit through -solver-options, so the search
    stops too and Savile Row still writes its .info file. Each phase has the whole limit, as the
    coursework times them apart."""
    return ["-timelimit", str(int(seconds * 1000)), "-solver-options", flag.format(max(1, math.ceil(seconds)))]


def savilerow_run(model_file: str, param_file: str, level: str, seconds: float | None,
                  backend: list[str] | None = None, time_flag: str = MINION_TIME_FLAG) -> list[str]:
    """The command that runs Savile Row (with Minion unless `backend` says otherwise) on two files."""
    timeout = [] if seconds is None else minion_time_limits(seconds, time_flag)
    return [*(savilerow_command() or ["savilerow"]), model_file, param_file, f"-O{level}", "-run-solver",
            "-minion-bin", minion_path() or "minion", *(backend or []), *timeout]


def savilerow_limits(seconds: float | None, memory_mb: int | None = None) -> Limits:
    """The hard limits of a Savile Row run: its phases stop themselves at `seconds`, the kill comes later."""
    return Limits(seconds, None, memory_mb).with_grace(GRACE_SECONDS)


class SavileRow(ProcessSolver):
    """The template: write model and parameters, run Savile Row with a back end, read its files.
    Savile Row's -timelimit covers its translation; the back end gets the limit through
    -solver-options, and the hard kill comes a grace period after the limit, so a run that stops
    at the limit still writes its .info file."""

    address_space_limit = False  # a JVM's or many threads' reserved address space would trip RLIMIT_AS

    paradigm = "cp"
    language = "eprime"
    games = modelled_games("eprime")
    options: ClassVar[Schema] = (
        *eprime.OPTIONS,
        Option("optimisation", "2", "Savile Row's -O level (2 and 3 need Minion)", ("0", "1", "2", "3")),
    )

    @abstractmethod
    def backend_arguments(self, options: Mapping[str, Any]) -> list[str]:
        """Savile Row's flags choosing and locating the back-end solver."""

    def time_flag(self, options: Mapping[str, Any]) -> str:
        """The back end's own time limit flag, `{}` the seconds."""
        return MINION_TIME_FLAG

    def available(self) -> bool:
        return savilerow_command() is not None and minion_path() is not None

    def version(self) -> str | None:
        return "Savile Row 1.6.5"

    def install_hint(self) -> str:
        return f"{SOURCE_HINT}; {MINION_HINT}"

    def run_limits(self, limits: Limits) -> Limits:
        return savilerow_limits(limits.timeout, limits.memory_mb)

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        model_file = next(name for name in model.files if name.endswith(".eprime"))
        return savilerow_run(model_file, model.primary, options["optimisation"], limits.timeout,
                             self.backend_arguments(options), self.time_flag(options))

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        info_path, solution_path = folder / f"{model.primary}.info", folder / f"{model.primary}.solution"
        if not info_path.exists():
            if run.out_of_time or run.memout:
                return answer_from_run(run, Status.UNKNOWN)
            detail = next((line for line in (run.stdout + run.stderr).splitlines() if "ERROR" in line),
                          f"Savile Row exit {run.returncode} without an .info file")
            return answer_from_run(run, Status.ERROR, message=detail.strip())
        info = read_info(read_output(info_path), info_path.name)
        nodes = count_or_none(info.get("SolverNodes"))
        stats = {key: info[key] for key in STATS if key in info}
        if solution_path.exists():
            sequence = model.decode(read_output(solution_path), solution_path.name)
            return answer_from_run(run, Status.SOLVED, sequence, nodes, stats)
        timed_out = info.get("SolverTimeOut", 0) or info.get("SavileRowTimeOut", 0)
        if info.get("SolverMemOut", 0):  # MiniSat's bare INDETERMINATE: Savile Row's guess of a memout
            return answer_from_run(run, Status.MEMOUT, None, nodes, stats)
        if info.get("SolverSatisfiable") == 0 and not timed_out:
            return answer_from_run(run, Status.UNSOLVABLE, None, nodes, stats)
        return answer_from_run(run, Status.TIMEOUT if timed_out else Status.UNKNOWN, None, nodes, stats)


class SavileRowMinion(SavileRow):
    name = "savilerow-minion"
    description = "Savile Row 1.6.5 + Minion on the Essence Prime model (x/y channelled, table, symmetry breaking)"

    def backend_arguments(self, options: Mapping[str, Any]) -> list[str]:
        return []


class SavileRowSat(SavileRow):
    """Savile Row reads MiniSat's result file (its `minisat` family) or the competition format on
    stdout (its `lingeling` family), which CaDiCaL, CryptoMiniSat and PicoSAT print."""

    name = "savilerow-sat"
    description = "Savile Row 1.6.5 SAT encoding of the Essence Prime model, solved by MiniSat (or CaDiCaL, ...)"
    options: ClassVar[Schema] = (
        *SavileRow.options,
        Option("sat-solver", "minisat", "the SAT solver behind Savile Row", tuple(SAT_SOLVERS)),
    )

    def solve(self, deal: AnyDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
        binary = SAT_SOLVERS[options["sat-solver"]][0]()
        if binary.executable() is None:  # as for any solver that is not installed
            return Answer(Status.ERROR, message=f"{options['sat-solver']} not installed: {binary.install_hint()}")
        return super().solve(deal, limits, options)

    def backend_arguments(self, options: Mapping[str, Any]) -> list[str]:
        name = options["sat-solver"]
        binary, family, _ = SAT_SOLVERS[name]
        return ["-sat", "-sat-family", family, "-satsolver-bin", binary().executable() or name]

    def time_flag(self, options: Mapping[str, Any]) -> str:
        return SAT_SOLVERS[options["sat-solver"]][2]

    def available(self) -> bool:
        return super().available() and Minisat().available()

    def install_hint(self) -> str:
        return f"{SOURCE_HINT}; {MINION_HINT}; MiniSat: Debian package minisat"
