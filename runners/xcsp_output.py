"""The template of the Java XCSP3 solvers (ace.py, choco.py fill in their flags): the instance is
built with pycsp3 before the solver's limits start counting, and the solver's `s`/`v` lines are read
by generators/xcsp3/solution.py.
"""

from __future__ import annotations

import importlib.util
from abc import abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.generators.files import ModelFiles
from patience.generators.xcsp3 import black_hole as xcsp3
from patience.generators.xcsp3.solution import clean, read_output
from patience.options import Option, Schema
from patience.result import Answer, Status
from patience.runners.base import ProcessSolver, answer_from_run, find_executable, modelled_games
from patience.runs.process import Limits, ProcessRun

PAPER_ORDER_ARRAY = "x"  # the paper's static search order is over the Black Hole model's x


def pycsp3_jar(folder: str, prefix: str) -> Path | None:
    """A solver jar shipped in the pycsp3 wheel, found without importing pycsp3 (which would
    compile a model at interpreter exit)."""
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or not spec.submodule_search_locations:
        return None
    jars = sorted(Path(spec.submodule_search_locations[0], "solvers", folder).glob(f"{prefix}*.jar"))
    return jars[-1] if jars else None


def search_options(default_search: str) -> Schema:
    """The options of an XCSP3 solver; `default_search` is whichever decides more Black Hole deals."""
    return (
        *xcsp3.OPTIONS,
        Option("search", default_search, "solver: the solver's own heuristics; paper: x, y in order, smallest value "
                                         "first, no restarts (Black Hole deals; LBS deals use the solver's own)",
               ("solver", "paper")),
    )


class XcspSolver(ProcessSolver):
    """The template for Java XCSP3 solvers: the instance built by pycsp3 (before the limits start
    counting), the jar run under limits, its s/v lines read."""

    address_space_limit = False  # a JVM's or many threads' reserved address space would trip RLIMIT_AS

    paradigm = "cp"
    language = "xcsp3"
    games = modelled_games("xcsp3")
    jar_folder: ClassVar[str]
    jar_prefix: ClassVar[str]

    @abstractmethod
    def arguments(self, limits: Limits, paper_search: bool) -> list[str]:
        """The solver's flags after the instance file."""

    @abstractmethod
    def nodes(self, output: str) -> tuple[int | None, dict[str, float]]:
        """Search effort the solver printed: nodes (or what stands for them) and further figures."""

    def jar(self) -> Path | None:
        return pycsp3_jar(self.jar_folder, self.jar_prefix)

    def available(self) -> bool:
        return self.jar() is not None and find_executable(("java",)) is not None

    def version(self) -> str | None:
        jar = self.jar()
        return jar.stem if jar else None

    def install_hint(self) -> str:
        return "pip install pycsp3 (the jar is inside the wheel) and a Java runtime (Debian: default-jre-headless)"

    def classpath(self) -> list[str]:
        return ["-jar", str(self.jar())]

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        paper_search = options["search"] == "paper" and PAPER_ORDER_ARRAY in model.arrays
        return [find_executable(("java",)) or "java", "-XX:ParallelGCThreads=1", *self.classpath(),
                model.primary, *self.arguments(limits, paper_search)]

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        source = f"{self.name} output"
        output = read_output(run.stdout, source, dict(model.arrays))
        nodes, stats = self.nodes(run.stdout)
        if output.status is Status.SOLVED:
            return answer_from_run(run, Status.SOLVED, model.decode(output, source), nodes, stats)
        if output.status is None:
            status = Status.UNKNOWN if run.out_of_time or run.memout else Status.ERROR
            return answer_from_run(run, status, None, nodes, stats, f"no verdict: {_last_line(run)}")
        return answer_from_run(run, output.status, None, nodes, stats, _error_line(run))


def _lines(run: ProcessRun) -> list[str]:
    return [line.strip() for line in clean(run.stdout + run.stderr).splitlines() if line.strip()]


def _last_line(run: ProcessRun) -> str:
    """The solver's last words, to say why it printed no verdict."""
    lines = _lines(run)
    return lines[-1][:200] if lines else f"exit {run.returncode}"


def _error_line(run: ProcessRun) -> str:
    """An error the solver reported beside its verdict (ACE's `! ERROR`, a Java exception), or ''."""
    return next((line[:200] for line in _lines(run) if line.startswith("!") or "Exception" in line), "")
