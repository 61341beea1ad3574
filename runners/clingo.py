"""clingo (the `clingo` wheel from PyPI) on the project's answer set programs.

The wheel is a library with clingo's whole application behind `python -m clingo`, so the runner
starts that through the runner core like any other solver: the same limits, the same group kill.
clingo stops itself at `--time-limit`; the hard kill comes a grace period later. Its answer is
read from its JSON output (`--outf=2`): the result word and the last answer set's shown atoms.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import itertools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.errors import InputError
from patience.generators.asp import black_hole
from patience.generators.asp.facts import SEARCH_PREFIX
from patience.generators.files import ModelFiles
from patience.options import Option, Schema
from patience.result import Answer, Status
from patience.runners.base import ProcessSolver, answer_from_run, modelled_games
from patience.runs.process import Limits, ProcessRun, python_command

GRACE_SECONDS = 5.0  # clingo stops itself at the time limit; the hard kill comes this much later
CONFIGURATIONS = ("auto", "frumpy", "jumpy", "tweety", "handy", "crafty", "trendy")
VERDICTS = {"SATISFIABLE": Status.SOLVED, "UNSATISFIABLE": Status.UNSOLVABLE, "UNKNOWN": Status.TIMEOUT}
SOURCE = "clingo output"


class Clingo(ProcessSolver):
    name = "clingo"
    paradigm = "asp"
    description = "clingo on the project's answer set programs (time steps, choice rules, symmetry breaking)"
    language = "asp"
    grace = GRACE_SECONDS
    games = modelled_games("asp")
    options: ClassVar[Schema] = (
        *black_hole.OPTIONS,
        Option("configuration", "auto", "clingo's --configuration (its preset search strategies)", CONFIGURATIONS),
    )

    def available(self) -> bool:
        return importlib.util.find_spec("clingo") is not None

    def version(self) -> str | None:
        return f"clingo {importlib.metadata.version('clingo')}" if self.available() else None

    def install_hint(self) -> str:
        return "pip install clingo"

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        programs = [name for name in model.files if name != model.primary]
        limit = [] if limits.timeout is None else [f"--time-limit={max(1, round(limits.timeout))}"]
        heuristic = ["--heuristic=Domain"] if any(name.startswith(SEARCH_PREFIX) for name in programs) else []
        return python_command("-m", "clingo", *programs, model.primary, "--outf=2", "--stats",
                              f"--configuration={options['configuration']}", *heuristic, *limit)

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        if not run.stdout.strip() and (run.out_of_time or run.memout):
            return answer_from_run(run, Status.UNKNOWN, message="killed before clingo answered")
        try:
            output = json.loads(run.stdout)
        except ValueError:
            detail = next((line.strip() for line in run.stderr.splitlines() if "error" in line.lower()),
                          f"clingo exit {run.returncode}")
            raise InputError(SOURCE, None, f"not clingo's JSON output: {detail}") from None
        result = output.get("Result") if isinstance(output, dict) else None
        if not isinstance(result, str) or result not in VERDICTS:
            raise InputError(SOURCE, None, f"clingo says {str(result)[:40]}")
        failure = _failure(run.stderr) if result == "UNKNOWN" else None
        if failure is not None:  # clingo answers UNKNOWN, exit 0, for a program it cannot read or ground
            return answer_from_run(run, Status.ERROR, message=failure)
        sequence = None
        if VERDICTS[result] is Status.SOLVED:
            sequence = model.decode(_last_answer_set(output), SOURCE)
        return answer_from_run(run, VERDICTS[result], sequence, _choices(output), message=result)


def _failure(stderr: str) -> str | None:
    """What stopped clingo before it searched (`*** ERROR: (clingo): parsing failed` and the error lines
    before it), or None if nothing did."""
    if "*** ERROR" not in stderr or "stopped by signal" in stderr:  # a signal: its time limit, or a kill
        return None
    lines = stderr.splitlines()
    start = next((index for index, line in enumerate(lines) if ": error: " in line), None)
    detail = " ".join(line.strip() for line in itertools.takewhile(str.strip, lines[start:])) if start is not None \
        else next(line for line in lines if "*** ERROR" in line).strip()
    compiles = not any(word in stderr for word in ("parsing failed", "grounding stopped because of errors"))
    return ("clingo stopped: " if compiles else "the program does not compile: ") + detail


def _last_answer_set(output: Mapping[str, Any]) -> list:
    try:
        shown = output["Call"][-1]["Witnesses"][-1]["Value"]
    except (KeyError, IndexError, TypeError):
        raise InputError(SOURCE, None, "SATISFIABLE but no answer set") from None
    if not isinstance(shown, list):
        raise InputError(SOURCE, None, "an answer set that is not a list of atoms")
    return shown


def _choices(output: Mapping[str, Any]) -> int | None:
    """clingo's choice count (its search's branches), when --stats printed it."""
    try:
        choices = output["Stats"]["Core"]["Choices"]
    except (KeyError, TypeError):
        return None
    return choices if type(choices) is int else None
