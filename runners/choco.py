"""Choco 4.10 (its XCSP3 parser), the Java solver shipped inside the pycsp3 wheel.

At its default log level Choco prints only the competition lines (`s`, `v`, `d FOUND SOLUTIONS`),
so no node count is read.
"""

from __future__ import annotations

import math

from patience.runners.xcsp_output import XcspSolver, search_options
from patience.runs.process import Limits

MAIN_CLASS = "org.chocosolver.parser.xcsp.ChocoXCSP"
PAPER_SEARCH = ["-f", "-varh", "INPUT", "-valh", "MIN", "-restarts", "[NONE,0,0,0,false]"]


class Choco(XcspSolver):
    name = "choco"
    description = "Choco 4.10 (pycsp3 wheel) on the XCSP3 instance built with pycsp3"
    jar_folder = "choco"
    jar_prefix = "choco-parsers"
    options = search_options("solver")  # as many deals decided as with the paper's order, and faster

    def classpath(self) -> list[str]:
        return ["-cp", str(self.jar()), MAIN_CLASS]

    def arguments(self, limits: Limits, paper_search: bool) -> list[str]:
        timeout = [f"-limit=[{math.ceil(limits.timeout)}s]"] if limits.timeout is not None else []
        return [*timeout, *(PAPER_SEARCH if paper_search else [])]

    def nodes(self, output: str) -> tuple[int | None, dict[str, float]]:
        return None, {}
