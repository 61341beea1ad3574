"""XCSP3 solver output read back: the competition's `s` and `v` lines, as ACE and Choco print them.

`s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` give the verdict; the `v` lines (one or several)
hold `<instantiation> <list> x[] y[] </list> <values> ... </values> </instantiation>`. Lists may
name whole arrays (`x[]`), ranges (`x[2..5]`) or single cells; a value repeated k times may be
compressed (`3x4` or `3*4`). The x values are card numbers in play order, decoded
through the generator's `Numbering`. ANSI colour codes (ACE's default) are ignored.

`XcspSolver` is the template the Java XCSP3 solvers (ace.py, choco.py) fill in with their flags;
the pycsp3 build of the instance happens before the solver's limits start counting.
"""

from __future__ import annotations

import importlib.util
import re
from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from patience.answers import AnswerReader
from patience.caps import MAX_VALUES
from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.generators.analysis.black_hole import Numbering
from patience.generators.files import ModelFiles
from patience.generators.xcsp3 import black_hole as xcsp3
from patience.names import BINARY_STAR_FAMILY, BLACK_HOLE_FAMILY, LBS
from patience.options import Option, Schema
from patience.reading import at_most
from patience.result import Answer, Status
from patience.runners.base import ProcessSolver, answer_from_run, find_executable
from patience.runs.process import Limits, ProcessRun

PAPER_ORDER_ARRAY = "x"  # the paper's static search order is over the Black Hole model's x
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# `s UNKNOWN`: ACE and Choco say it when the time limit they are given (-t, -limit) stops them, so it
# is the clock's (the rule of patience.result), as CP-SAT's, clingo's and MiniZinc's UNKNOWN are
_STATUS = {"SATISFIABLE": Status.SOLVED, "OPTIMUM FOUND": Status.SOLVED, "UNSATISFIABLE": Status.UNSOLVABLE,
           "UNKNOWN": Status.TIMEOUT, "UNSUPPORTED": Status.ERROR}
_CELL = re.compile(r"^(\w+)\[(?:([0-9]{1,9})(?:\.\.([0-9]{1,9}))?)?\]$")
_VALUE = re.compile(r"^(-?[0-9]{1,9}|\*)(?:[*x]([0-9]{1,9}))?$")
_DETECT = re.compile(r"^[ \t]*v[ \t]+<instantiation", re.MULTILINE)


@dataclass(frozen=True)
class XcspOutput:
    """The verdict line and the solution's values by variable name (`x[3]` -> 12); a variable the
    solver printed as `*` (any value: no constraint involves it) has none."""

    status: Status | None
    values: dict[str, int]
    status_line: int | None
    values_line: int | None


def clean(text: str) -> str:
    return _ANSI.sub("", text)


def read_output(text: str, source: str, sizes: dict[str, int]) -> XcspOutput:
    """Parse `s` and `v` lines; `sizes` gives the length of each array a list may name whole."""
    status, status_line, v_lines, v_start = None, None, [], None
    for number, raw in enumerate(clean(text).splitlines(), 1):
        line = raw.strip()
        if line.startswith("s "):
            verdict = line[2:].strip()
            if verdict not in _STATUS:
                raise InputError(source, number, f"unknown verdict {quote(verdict)}")
            status, status_line = _STATUS[verdict], number
        elif line.startswith("v ") or line == "v":
            v_start = v_start or number
            v_lines.append(line[1:])
    if not v_lines:
        return XcspOutput(status, {}, status_line, None)
    instantiation = " ".join(v_lines)
    if "</instantiation>" in instantiation:  # Choco prints its last solution twice; keep one
        instantiation = instantiation[:instantiation.index("</instantiation>")]
    names, values = _between(instantiation, "list"), _between(instantiation, "values")
    if names is None or values is None:
        raise InputError(source, v_start, "the v lines hold no <list> and <values>")
    cells, numbers = [], []
    for token in names.split():
        cells.extend(_expand_cell(token, sizes, source, v_start))
        at_most(len(cells), MAX_VALUES, "variables", source, v_start)
    for token in values.split():
        numbers.extend(_expand_value(token, source, v_start))
        at_most(len(numbers), MAX_VALUES, "values", source, v_start)
    if len(cells) != len(numbers):
        raise InputError(source, v_start, f"{len(cells)} variables but {len(numbers)} values")
    values = {cell: number for cell, number in zip(cells, numbers, strict=True) if number is not None}
    return XcspOutput(status, values, status_line, v_start)


def _between(text: str, tag: str) -> str | None:
    """The text between the first `<tag>` and the `</tag>` after it (str.find: one pass)."""
    start = text.find(f"<{tag}>")
    end = -1 if start < 0 else text.find(f"</{tag}>", start)
    return None if end < 0 else text[start + len(tag) + 2:end]


def _expand_cell(token: str, sizes: dict[str, int], source: str, line: int) -> list[str]:
    match = _CELL.match(token)
    if not match:
        raise InputError(source, line, f"not a variable of the model: {quote(token)}")
    name, first, last = match.groups()
    if first is None:
        if name not in sizes:
            raise InputError(source, line, f"unknown array {quote(name)}")
        return [f"{name}[{index}]" for index in range(sizes[name])]
    low, high = int(first), int(last if last is not None else first)
    at_most(high - low + 1, MAX_VALUES, f"cells of {quote(token)}", source, line)
    return [f"{name}[{index}]" for index in range(low, high + 1)]


def _expand_value(token: str, source: str, line: int) -> list[int | None]:
    match = _VALUE.match(token)
    if not match:
        raise InputError(source, line, f"not a value: {quote(token)}")
    value = None if match.group(1) == "*" else int(match.group(1))
    count = int(match.group(2) or 1)
    at_most(count, MAX_VALUES, f"repeats of {quote(token)}", source, line)
    return [value] * count


def sequence(output: XcspOutput, source: str, numbering: Numbering) -> tuple[Card, ...]:
    """The cards in play order from the x values (a permutation of the card numbers, 0 first)."""
    x = [output.values.get(f"x[{position}]") for position in range(numbering.size)]
    if None in x or sorted(x) != list(range(numbering.size)) or x[0] != 0:
        raise InputError(source, output.values_line, f"x is not a sequence of the card numbers "
                                                     f"0..{numbering.size - 1} starting with the start card 0")
    return numbering.decode(x)


def detect(text: str) -> bool:
    return "<instantiation" in text and _DETECT.search(clean(text)) is not None


def _read_answer(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    numbering = Numbering(deal)
    output = read_output(text, source, {"x": numbering.size, "y": numbering.size})
    return sequence(output, source, numbering)


ANSWER_READERS = [AnswerReader("xcsp3-output", detect, _read_answer)]


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

    paradigm = "cp"
    language = "xcsp3"
    games = (*BLACK_HOLE_FAMILY, *BINARY_STAR_FAMILY, LBS)
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
            status = Status.UNKNOWN if run.timed_out or run.memout else Status.ERROR
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
