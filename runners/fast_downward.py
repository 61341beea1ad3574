"""Fast Downward from the `up-fast-downward` wheel: its driver runs the Python translator, then
the compiled `downward` search, both in the run's private folder (they leave `output.sas` and
`sas_plan` there, and the folder goes away).

Configurations: fd-ff (lazy greedy best-first search on the FF heuristic with preferred
operators, or enforced hill-climbing with `--set search=ehc`) and fd-lama (LAMA-first). The
driver's exit code says what happened; 11 (search space exhausted) is a proof only because the
searches used by default are complete, and FD itself answers 12 when the search was not.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.generators.files import ModelFiles
from patience.numeric import count_or_none
from patience.options import Option, Schema
from patience.reading import read_output
from patience.result import Status
from patience.runners.pddl_plan import Planner, PlanVerdict, read_plan_file
from patience.runs.process import Limits, ProcessRun

_EXPANDED = "Expanded "
_OUTCOMES = {  # driver exit code -> (status, message)
    10: (Status.UNSOLVABLE, "translator: goal unreachable, task provably unsolvable"),
    11: (Status.UNSOLVABLE, "search space exhausted: no plan exists"),
    12: (Status.UNKNOWN, "incomplete search stopped without a plan"),
    20: (Status.MEMOUT, "translator out of memory"),
    21: (Status.TIMEOUT, "translator out of time"),
    22: (Status.MEMOUT, "search out of memory"),
    23: (Status.TIMEOUT, "search out of time"),
    24: (Status.MEMOUT, "search out of memory and time"),
}
SEARCHES = {
    "lazy": "let(hff, ff(), lazy_greedy([hff], preferred=[hff]))",
    "ehc": "let(hff, ff(), ehc(hff, preferred=[hff]))",
}


def driver() -> Path | None:
    """fast-downward.py inside the installed wheel (found without importing the package)."""
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations)), "downward", "fast-downward.py")
    return path if path.is_file() else None


class FastDownward(Planner):
    """The driver's command and verdict; subclasses give the search configuration."""

    def available(self) -> bool:
        return driver() is not None

    def version(self) -> str | None:
        try:
            return "up-fast-downward " + importlib.metadata.version("up-fast-downward")
        except importlib.metadata.PackageNotFoundError:
            return None

    def install_hint(self) -> str:
        return "pip install up-fast-downward"

    def verdict(self, run: ProcessRun, folder: Path, options: Mapping[str, Any]) -> PlanVerdict:
        expanded = [line.split(_EXPANDED, 1)[1].split()[0] for line in run.stdout.splitlines() if _EXPANDED in line]
        nodes = count_or_none(expanded[-1]) if expanded else None
        plan_file = folder / "sas_plan"
        if run.returncode in (0, 1, 2, 3) and plan_file.is_file():
            return PlanVerdict(Status.SOLVED, read_plan_file(read_output(plan_file), "sas_plan"), nodes)
        if run.returncode in _OUTCOMES:
            status, message = _OUTCOMES[run.returncode]
            return PlanVerdict(status, None, nodes, f"Fast Downward: {message}")
        if run.out_of_time or run.memout:
            return PlanVerdict(Status.UNKNOWN, None, nodes)
        detail = (run.stderr.strip().splitlines() or run.stdout.strip().splitlines() or [""])[-1]
        return PlanVerdict(Status.ERROR, None, nodes, f"Fast Downward exit {run.returncode}: {detail}")


class FastDownwardFF(FastDownward):
    name = "fd-ff"
    description = "Fast Downward, FF heuristic with preferred operators (lazy greedy search, or EHC)"
    options: ClassVar[Schema] = (
        *Planner.options,
        Option("search", "lazy", "lazy: lazy greedy best-first search (complete); ehc: enforced hill-climbing "
                                 "(incomplete)", tuple(SEARCHES)),
    )

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return [sys.executable, str(driver()), "domain.pddl", "problem.pddl", "--search", SEARCHES[options["search"]]]


class FastDownwardLama(FastDownward):
    name = "fd-lama"
    description = "Fast Downward, LAMA-first (landmarks + FF heuristic, lazy greedy search)"

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return [sys.executable, str(driver()), "--alias", "lama-first", "domain.pddl", "problem.pddl"]
