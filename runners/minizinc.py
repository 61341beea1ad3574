"""MiniZinc (Debian's `minizinc`, 2.6.4 with Gecode) on the project's MiniZinc models, with any
solver MiniZinc reports as configured behind it (`--set backend=...`, Gecode by default).

Debian's Gecode is 6.2, whose solver library (`-Ggecode`) predates MiniZinc 2.6's standard library:
with it a model that includes "globals.mzn" does not compile. Behind such a MiniZinc, Gecode runs
with the project's own library instead (minizinc_gecode/, beside this file, README.md there), which
gives the standard library's globals Gecode's propagators where 6.2 has them and the standard
decompositions elsewhere. A backend counts as running here only once a small model ran on it.

MiniZinc stops itself at `--time-limit` (compilation and search together); the hard kill of the
whole process group (minizinc and the FlatZinc solver it starts) comes a grace period later.
Solutions are printed as JSON (`--output-mode json`) and decoded by the model's own map.
"""

from __future__ import annotations

import functools
import json
import re
import tempfile
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from patience.errors import InputError
from patience.generators.files import ModelFiles
from patience.generators.mzn import black_hole
from patience.generators.mzn.solution import MiniZincOutput, read_output
from patience.numeric import count_or_none
from patience.options import Asked, Option, Schema
from patience.result import Answer, Status
from patience.runners.base import ExecutableSolver, ProcessSolver, answer_from_run, modelled_games
from patience.runs.process import Limits, ProcessRun, run_process

GRACE_SECONDS = 5.0  # MiniZinc stops itself at the time limit; the hard kill comes this much later
LIST_SECONDS = 10.0
DEFAULT_BACKEND = "gecode"
GECODE_ID = "org.gecode.gecode"
VERDICTS = {"UNSATISFIABLE": Status.UNSOLVABLE, "UNKNOWN": Status.TIMEOUT}
CAUSE_CHARS = 300  # a MiniZinc error's cause, as a message keeps it
# The model a backend must solve to count as running: a global, as students' models use them.
PROBE_MODEL = 'include "globals.mzn";\narray[1..3] of var 1..3: x;\nconstraint all_different(x);\nsolve satisfy;\n'
_LOCATION = re.compile(r"^(?:.*/)?([^/\s]+\.(?:mzn|dzn|json|mzc|fzn)):(\d[\d.-]*):?$")  # `/tmp/x/model.mzn:3.12-30:`
_ERROR = re.compile(r"\b(?:Error|error|exception):")


# What MiniZinc says of itself is asked once per process and per executable: the one found may change
# (MINIZINC_PATH set or moved), and what one said must not stand for another's.

def minizinc_version() -> str | None:
    """MiniZinc's version number (`minizinc --version`: "MiniZinc to FlatZinc converter, version
    2.6.4, build ..."), asked with a generous limit, as a loaded machine is slow."""
    return _version(MiniZinc().executable())


@functools.cache
def _version(executable: str | None) -> str | None:
    try:
        run = None if executable is None else run_process([executable, "--version"], Limits(timeout=LIST_SECONDS))
    except OSError:
        return None
    match = re.search(r"version (\d+(?:\.\d+)+)", run.stdout) if run is not None else None
    return match.group(1) if match else None


def solver_configurations() -> tuple[Mapping[str, Any], ...]:
    """The solver configurations `minizinc --solvers-json` reports (none if MiniZinc cannot say)."""
    return _configurations(MiniZinc().executable())


@functools.cache
def _configurations(executable: str | None) -> tuple[Mapping[str, Any], ...]:
    listed: list = []
    if executable is not None:
        try:
            run = run_process([executable, "--solvers-json"], Limits(timeout=LIST_SECONDS))
            listed = json.loads(run.stdout) if run.returncode == 0 else []
        except (OSError, ValueError, RecursionError):  # (lists nested past the interpreter's limit)
            listed = []
    return tuple(entry for entry in listed if isinstance(entry, dict) and isinstance(entry.get("id"), str)) \
        if isinstance(listed, list) else ()


def configured_backends() -> dict[str, str]:
    """Short name -> MiniZinc solver id, for every non-GUI solver `minizinc --solvers-json` reports
    (Debian's also lists CPLEX, Gurobi, SCIP and Xpress, which need their own libraries to run)."""
    backends = {entry["id"].rsplit(".", 1)[-1]: entry["id"] for entry in solver_configurations()
                if not entry.get("isGUIApplication", False)}
    return dict(sorted(backends.items())) or {DEFAULT_BACKEND: GECODE_ID}


def own_gecode_configuration() -> Path:
    """The project's solver configuration for fzn-gecode 6.2 (its library is the folder it lies in)."""
    return Path(str(resources.files("patience.runners").joinpath("minizinc_gecode", "gecode.msc")))


def needs_own_gecode_library() -> bool:
    """Whether Gecode is the 6.2 that MiniZinc 2.5 and later cannot compile globals for with its own
    library (Debian's: version 6.2.x, library `-Ggecode`)."""
    gecode = next((entry for entry in solver_configurations() if entry["id"] == GECODE_ID), None)
    number = tuple(int(part) for part in (minizinc_version() or "0").split("."))
    return (gecode is not None and str(gecode.get("version", "")).startswith("6.2.")
            and gecode.get("mznlib") == "-Ggecode" and number >= (2, 5))


def solver_argument(backend: str) -> str:
    """What `--solver` names for a backend: its configured id, or for Debian's Gecode 6.2 the
    project's configuration file."""
    configured = configured_backends().get(backend, backend)
    return str(own_gecode_configuration()) if configured == GECODE_ID and needs_own_gecode_library() else configured


def minizinc_command(executable: str, backend: str, seconds: float | None, files: list[str]) -> list[str]:
    """One MiniZinc run: the backend, statistics, JSON solutions, MiniZinc's own time limit."""
    limit = [] if seconds is None else ["--time-limit", str(max(1, int(seconds * 1000)))]
    return [executable, "--solver", solver_argument(backend), "-s", "--output-mode", "json", *limit, *files]


def error_cause(stderr: str) -> str | None:
    """The line of MiniZinc's error output that says what went wrong, with the place it names (the
    line after it, or before: `model.mzn:3.12-30: Error: type error: ...`), or None when it says
    nothing. A MIP backend prints its statistics on the error's line: the cause starts at `Error:`."""
    lines = [line.strip() for line in stderr.splitlines()]
    for number, line in enumerate(lines):
        if _ERROR.search(line) is None or line.lower().startswith("warning"):
            continue
        start = line.find("Error:")
        cause = line[start:] if start > 0 else line
        near = [*lines[number + 1:number + 12], *reversed(lines[max(0, number - 4):number])]
        place = next((match for match in map(_LOCATION.match, near) if match), None)
        cause = f"{place.group(1)}:{place.group(2)}: {cause}" if place else cause
        return cause if len(cause) <= CAUSE_CHARS else cause[:CAUSE_CHARS] + "..."
    return None


def answered(run: ProcessRun) -> bool:
    """Whether MiniZinc printed a solution or a verdict line (a run killed at a limit may have)."""
    return "----------" in run.stdout or "=====" in run.stdout


def failure_of(run: ProcessRun) -> str | None:
    """Why a MiniZinc run failed (its error's cause), or None if it printed a solution or a verdict."""
    if "=====ERROR=====" in run.stdout or (run.returncode not in (0, None) and not answered(run)):
        return error_cause(run.stderr) or f"minizinc exit {run.returncode}"
    return None


def verdict_of(run: ProcessRun, source: str = "MiniZinc output") -> MiniZincOutput:
    """The parsed output of a run, or InputError carrying MiniZinc's own error (a model that does not
    compile, a backend that cannot load)."""
    failure = failure_of(run)
    if failure is not None:
        raise InputError(source, None, failure)
    return read_output(run.stdout, source)


def probe_backend(executable: str, backend: str, folder: Path) -> str | None:
    """None if `backend` solves the probe model here, else why not (its error's cause)."""
    try:
        run = run_process([executable, "--solver", solver_argument(backend), str(folder / "probe.mzn")],
                          Limits(timeout=LIST_SECONDS))
    except OSError as error:
        return f"minizinc does not start: {error.strerror}"
    if run.returncode == 0 and "----------" in run.stdout:
        return None
    return "no answer within the probe's time" if run.timed_out else (failure_of(run) or "no solution printed")


def backend_failures() -> dict[str, str]:
    """Why each configured backend that cannot run a model here cannot (a backend that solved the
    probe model is not in it); all probed at once, once per process and executable."""
    return dict(_failures(MiniZinc().executable()))


@functools.cache
def _failures(executable: str | None) -> dict[str, str]:
    if executable is None:
        return {}
    with tempfile.TemporaryDirectory(prefix="patience-probe-") as scratch:
        (Path(scratch) / "probe.mzn").write_text(PROBE_MODEL)
        names = list(configured_backends())
        with ThreadPoolExecutor(max_workers=len(names)) as pool:
            causes = list(pool.map(lambda name: probe_backend(executable, name, Path(scratch)), names))
    return {name: cause for name, cause in zip(names, causes, strict=True) if cause is not None}


def running_backends() -> tuple[str, ...]:
    """The configured backends that solved the probe model here."""
    return tuple(name for name in configured_backends() if name not in backend_failures())


@dataclass(frozen=True)
class BackendOption(Option):
    """The backend: any MiniZinc has configured is accepted (a run on one that cannot load says why),
    but the listing offers those that ran a model here and names the others apart."""

    def describe(self) -> str:
        failing = backend_failures()
        running = "|".join(name for name in self.values if name not in failing) or self.metavar
        apart = f"; configured, not running here: {', '.join(sorted(failing))}" if failing else ""
        return f"{running}: {self.explain()[:-1]}{apart})"


class MiniZinc(ExecutableSolver, ProcessSolver):
    address_space_limit = False  # its backends may be JVMs or many threads: RLIMIT_AS would trip
    name = "minizinc"
    paradigm = "cp"
    description = ("MiniZinc on the project's model (dual viewpoint, table of following pairs, pile order, "
                   "conditional symmetry breaking); formulation=benchmark runs the public minizinc-benchmarks model")
    language = "mzn"
    grace = GRACE_SECONDS
    games = modelled_games("mzn")
    executables = ("minizinc",)
    env_var = "MINIZINC_PATH"

    # the backends are asked of MiniZinc where a value is checked or shown, not when the schema is read
    options: ClassVar[Schema] = (*black_hole.OPTIONS,
                                 BackendOption("backend", DEFAULT_BACKEND, "the solver behind MiniZinc, one "
                                               "that `minizinc --solvers` reports",
                                               Asked(lambda: tuple(configured_backends()))))

    def version(self) -> str | None:
        """MiniZinc's version and the backends that run here (each probed with a model)."""
        number = minizinc_version()
        return f"MiniZinc {number} ({', '.join(running_backends()) or 'no backend runs'})" if number else None

    def version_of(self, answer: Answer) -> str | None:
        """MiniZinc's version and the backend that gave `answer` (no probe of the others)."""
        number = minizinc_version()
        return f"MiniZinc {number} ({answer.stats.get('backend', DEFAULT_BACKEND)})" if number else None

    def install_hint(self) -> str:
        return "Debian package minizinc (brings Gecode); or set MINIZINC_PATH"

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        models = [name for name in model.files if name.endswith(".mzn")]
        return minizinc_command(self.executable() or "minizinc", options["backend"], limits.timeout,
                                [*models, model.primary])

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        stats = {"backend": options["backend"]}
        if (run.out_of_time or run.memout) and not answered(run):
            return answer_from_run(run, Status.UNKNOWN, None, None, stats, "killed before MiniZinc answered")
        failure = failure_of(run)
        if failure is not None:  # the model does not compile, the backend cannot load: MiniZinc says why
            return answer_from_run(run, Status.ERROR, None, None, stats, f"MiniZinc: {failure}")
        output = read_output(run.stdout, "MiniZinc output")
        nodes = count_or_none(output.stats.get("nodes"))
        if output.values is not None:
            return answer_from_run(run, Status.SOLVED, model.decode(output.values, "MiniZinc output"), nodes, stats)
        if output.verdict in VERDICTS:
            return answer_from_run(run, VERDICTS[output.verdict], None, nodes, stats, output.verdict)
        if run.out_of_time or run.memout:
            return answer_from_run(run, Status.UNKNOWN, None, nodes, stats, "killed before MiniZinc answered")
        raise InputError("MiniZinc output", None, f"no solution and no verdict (status {output.verdict})")
