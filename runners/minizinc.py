"""MiniZinc (Debian's `minizinc`, 2.6.4 with Gecode) on the project's MiniZinc models, with any
solver MiniZinc reports as configured behind it (`--set backend=...`, Gecode by default).

MiniZinc stops itself at `--time-limit` (compilation and search together); the hard kill of the
whole process group (minizinc and the FlatZinc solver it starts) comes a grace period later.
Solutions are printed as JSON (`--output-mode json`) and decoded by the model's own map.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.errors import InputError
from patience.generators.files import ModelFiles
from patience.generators.mzn import black_hole
from patience.generators.mzn.solution import MiniZincOutput, read_output
from patience.names import BINARY_STAR_FAMILY, BLACK_HOLE_FAMILY, LBS
from patience.numeric import count_or_none
from patience.options import Asked, Option, Schema
from patience.result import Answer, Status
from patience.runners.base import ExecutableSolver, ProcessSolver, answer_from_run
from patience.runs.process import Limits, ProcessRun, run_process

GRACE_SECONDS = 5.0  # MiniZinc stops itself at the time limit; the hard kill comes this much later
LIST_SECONDS = 10.0
DEFAULT_BACKEND = "gecode"
VERDICTS = {"UNSATISFIABLE": Status.UNSOLVABLE, "UNKNOWN": Status.TIMEOUT}


@functools.cache
def minizinc_version() -> str | None:
    """MiniZinc's version number (`minizinc --version`: "MiniZinc to FlatZinc converter, version
    2.6.4, build ..."), asked once per process with a generous limit, as a loaded machine is slow."""
    executable = MiniZinc().executable()
    try:
        run = None if executable is None else run_process([executable, "--version"], Limits(timeout=LIST_SECONDS))
    except OSError:
        return None
    match = re.search(r"version (\d+(?:\.\d+)+)", run.stdout) if run is not None else None
    return match.group(1) if match else None


@functools.cache
def configured_backends() -> dict[str, str]:
    """Short name -> MiniZinc solver id, for every non-GUI solver `minizinc --solvers-json` reports
    (Debian's also lists CPLEX, Gurobi, SCIP and Xpress, which need their own libraries to run)."""
    executable = MiniZinc().executable()
    listed: list = []
    if executable is not None:
        try:
            run = run_process([executable, "--solvers-json"], Limits(timeout=LIST_SECONDS))
            listed = json.loads(run.stdout) if run.returncode == 0 else []
        except (OSError, ValueError):
            listed = []
    backends = {entry["id"].rsplit(".", 1)[-1]: entry["id"] for entry in listed if isinstance(entry, dict)
                and isinstance(entry.get("id"), str) and not entry.get("isGUIApplication", False)}
    return dict(sorted(backends.items())) or {DEFAULT_BACKEND: "org.gecode.gecode"}


def minizinc_command(executable: str, backend: str, seconds: float | None, files: list[str]) -> list[str]:
    """One MiniZinc run: the backend, statistics, JSON solutions, MiniZinc's own time limit."""
    limit = [] if seconds is None else ["--time-limit", str(max(1, int(seconds * 1000)))]
    return [executable, "--solver", configured_backends().get(backend, backend), "-s", "--output-mode", "json",
            *limit, *files]


def verdict_of(run: ProcessRun, source: str = "MiniZinc output") -> MiniZincOutput:
    """The parsed output of a run, or InputError carrying MiniZinc's own error line (a model that
    does not compile, a backend that cannot load)."""
    output = None if run.returncode not in (0, None) and "=====" not in run.stdout else read_output(run.stdout, source)
    if output is None or output.verdict == "ERROR":
        detail = next((line.strip()[:200] for line in run.stderr.splitlines() if "rror" in line),
                      f"minizinc exit {run.returncode}")
        raise InputError(source, None, detail)
    return output


class MiniZinc(ExecutableSolver, ProcessSolver):
    name = "minizinc"
    paradigm = "cp"
    description = ("MiniZinc on the project's model (dual viewpoint, table of following pairs, pile order, "
                   "conditional symmetry breaking); formulation=benchmark runs the public minizinc-benchmarks model")
    language = "mzn"
    grace = GRACE_SECONDS
    games = (*BLACK_HOLE_FAMILY, *BINARY_STAR_FAMILY, LBS)
    executables = ("minizinc",)
    env_var = "MINIZINC_PATH"

    # the backends are asked of MiniZinc where a value is checked or shown, not when the schema is read
    options: ClassVar[Schema] = (*black_hole.OPTIONS,
                                 Option("backend", DEFAULT_BACKEND, "the solver behind MiniZinc (those "
                                        "`minizinc --solvers` reports)", Asked(lambda: tuple(configured_backends()))))

    def version(self) -> str | None:
        number = minizinc_version()
        return f"MiniZinc {number} ({', '.join(configured_backends())})" if number else None

    def install_hint(self) -> str:
        return "Debian package minizinc (brings Gecode); or set MINIZINC_PATH"

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        models = [name for name in model.files if name.endswith(".mzn")]
        return minizinc_command(self.executable() or "minizinc", options["backend"], limits.timeout,
                                [*models, model.primary])

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        output = verdict_of(run)
        nodes = count_or_none(output.stats.get("nodes"))
        stats = {"backend": options["backend"]}
        if output.values is not None:
            return answer_from_run(run, Status.SOLVED, model.decode(output.values, "MiniZinc output"), nodes, stats)
        if output.verdict in VERDICTS:
            return answer_from_run(run, VERDICTS[output.verdict], None, nodes, stats, output.verdict)
        if run.timed_out or run.memout:
            return answer_from_run(run, Status.UNKNOWN, None, nodes, stats, "killed before MiniZinc answered")
        raise InputError("MiniZinc output", None, f"no solution and no verdict (status {output.verdict})")
