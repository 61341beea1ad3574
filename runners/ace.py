"""ACE (AbsCon Essence), the Java XCSP3 solver shipped inside the pycsp3 wheel.

ACE prints no node count; its `d WRONG DECISIONS` (refuted decisions, about the backtracks) stands
for the nodes, and the effective filterings (`effs`) and runs (restarts) go into the statistics.
"""

from __future__ import annotations

import math
import re

from patience.generators.xcsp3.solution import clean
from patience.numeric import count_or_none
from patience.runners.xcsp_output import XcspSolver, search_options
from patience.runs.process import Limits

# `[ \t]*`, not `\s*`: `\s` eats line breaks too, and from every line start of a long run of blank
# lines the search would scan the rest of the run again. Counts are at most 18 digits (with
# commas): a longer one is not read at all rather than handed to int().
_COUNT = r"([0-9](?:,?[0-9]){0,17})(?![0-9]|,[0-9])"
_WRONG = re.compile(rf"^d WRONG DECISIONS[ \t]+{_COUNT}", re.MULTILINE)
_GLOBAL_EFFS = re.compile(rf"^[ \t]*effs:{_COUNT}", re.MULTILINE)
_RUN = re.compile(r"^[ \t]*run([0-9]{1,18})\s", re.MULTILINE)
# -dsp=false keeps the variables preprocessing fixed: ACE 2.6's static Lexico heuristic otherwise
# fails an assertion ("! ERROR", `s UNKNOWN`) when preprocessing fixes every variable, as on a
# small deal it decides without search. It changes no decision (same wrong decisions on PySol deals).
PAPER_SEARCH = ["-varh=Lexico", "-valh=First", "-lc=0", "-r_n=1", "-r_c=2000000000", "-dsp=false"]


def _number(text: str) -> int | None:
    return count_or_none(text.replace(",", ""))


class Ace(XcspSolver):
    name = "ace"
    description = "ACE 2.6 (pycsp3 wheel) on the XCSP3 instance built with pycsp3"
    jar_folder = "ace"
    jar_prefix = "ACE"
    options = search_options("paper")  # the paper's order decides far more Black Hole deals (README, figures)

    def arguments(self, limits: Limits, paper_search: bool) -> list[str]:
        timeout = [f"-t={math.ceil(limits.timeout)}s"] if limits.timeout is not None else []
        return ["-npc", *timeout, *(PAPER_SEARCH if paper_search else [])]

    def nodes(self, output: str) -> tuple[int | None, dict[str, float]]:
        text = clean(output)
        wrong = _WRONG.search(text)
        effs = _GLOBAL_EFFS.findall(text)
        runs = _RUN.findall(text)
        found = {"effective_filterings": _number(effs[-1]) if effs else None,
                 "runs": count_or_none(runs[-1]) if runs else None,
                 "wrong_decisions": _number(wrong.group(1)) if wrong else None}
        stats: dict[str, float] = {name: value for name, value in found.items() if value is not None}
        return found["wrong_decisions"], stats
