"""pyperplan: a pure-Python STRIPS planner from PyPI, the planner that is always there.

It runs as `python -m pyperplan` and writes its plan next to the problem (`problem.pddl.soln`).
It reads no negative preconditions, so only the paper encoding suits it. 'No solution could
be found' is a proof only after a complete search (gbf, astar, wastar, bfs). Its search order
depends on Python's string hashing, so the runner fixes PYTHONHASHSEED (an option): with a random
seed the same deal takes seconds in one run and minutes in the next.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.generators.files import ModelFiles
from patience.numeric import count_or_none
from patience.options import Count, Option, Schema
from patience.reading import read_output
from patience.result import Status
from patience.runners.pddl_plan import Planner, PlanVerdict, read_plan_file
from patience.runs.process import Limits, ProcessRun, python_command

COMPLETE_SEARCHES = ("gbf", "astar", "wastar", "bfs")
INCOMPLETE_SEARCHES = ("ehs", "ids")
HEURISTICS = ("hff", "hadd", "hmax", "hsa", "lmcut", "landmark", "blind")
# from the start of a run of digits only: `(\d+) Nodes` alone is tried from every digit of a long
# run, quadratic in its length; and at most 18 digits, so that int() is never handed a huge number
_EXPANDED = re.compile(r"(?<![0-9])([0-9]{1,18}) Nodes expanded")


class Pyperplan(Planner):
    name = "pyperplan"
    description = "pyperplan (pure Python): greedy best-first search on the FF heuristic by default"
    options: ClassVar[Schema] = (
        Option("encoding", "paper", "PDDL encoding (pyperplan reads no negative preconditions)", ("paper",)),
        Option("search", "gbf", "gbf, astar, wastar, bfs are complete; ehs, ids are not",
               COMPLETE_SEARCHES + INCOMPLETE_SEARCHES),
        Option("heuristic", "hff", "the search's heuristic", HEURISTICS),
        Count("hash-seed", "1", "PYTHONHASHSEED of the planner: its search order follows Python's string "
                                 "hashing, so a fixed seed makes runs reproducible", minimum=0,
              maximum=2 ** 32 - 1),
    )

    def environment(self, options: Mapping[str, Any]) -> Mapping[str, str]:
        return {"PYTHONHASHSEED": str(options["hash-seed"])}

    def available(self) -> bool:
        return importlib.util.find_spec("pyperplan") is not None

    def version(self) -> str | None:
        try:
            return importlib.metadata.version("pyperplan")
        except importlib.metadata.PackageNotFoundError:
            return None

    def install_hint(self) -> str:
        return "pip install pyperplan"

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return python_command("-m", "pyperplan", "-s", options["search"], "-H", options["heuristic"],
                              "domain.pddl", "problem.pddl")

    def verdict(self, run: ProcessRun, folder: Path, options: Mapping[str, Any]) -> PlanVerdict:
        expanded = _EXPANDED.findall(run.stdout)
        nodes = count_or_none(expanded[-1]) if expanded else None
        plan_file = folder / "problem.pddl.soln"
        if plan_file.is_file():
            return PlanVerdict(Status.SOLVED, read_plan_file(read_output(plan_file), "problem.pddl.soln"), nodes)
        if "No solution could be found" in run.stdout:
            if options["search"] in COMPLETE_SEARCHES:
                return PlanVerdict(Status.UNSOLVABLE, None, nodes, "pyperplan: complete search found no plan")
            return PlanVerdict(Status.UNKNOWN, None, nodes, "pyperplan: incomplete search found no plan")
        if run.out_of_time or run.memout:
            return PlanVerdict(Status.UNKNOWN, None, nodes)
        detail = (run.stderr.strip().splitlines() or [""])[-1]
        return PlanVerdict(Status.ERROR, None, nodes, f"pyperplan exit {run.returncode}: {detail}")
