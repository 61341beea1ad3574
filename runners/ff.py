"""FF 2.3 (Hoffmann): enforced hill-climbing, then complete best-first search, on the PDDL task.

FF is in neither PyPI nor Debian; it is found as `ff` on PATH or through FF_PATH. Its verdict is
read from stdout, not the exit code (a goal simplified to FALSE exits 1, a proof of
unsolvability exits 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from patience.generators.files import ModelFiles
from patience.result import Answer, Status
from patience.runners.base import ExecutableSolver
from patience.runners.pddl_plan import Planner, PlanVerdict, read_ff
from patience.runs.process import Limits, ProcessRun

if TYPE_CHECKING:
    from patience.games import AnyDeal

MAX_PLAN_LENGTH = 2000  # FF 2.3's MAX_PLAN_LENGTH (and MAX_CONSTANTS) in ff.h


class FF(Planner, ExecutableSolver):
    name = "ff"
    description = "FF 2.3 planner (EHC then best-first search, FF heuristic) on the PDDL encoding"
    executables = ("ff",)
    env_var = "FF_PATH"

    def version(self) -> str | None:
        return "2.3"

    def install_hint(self) -> str:
        return ("build FF 2.3 from source (GitHub brean/simple_planning, folder FF-v2.3: `make`, needs "
                "flex and bison) and put `ff` on PATH or set FF_PATH to the binary")

    def solve(self, deal: AnyDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
        if len(deal.cards) > MAX_PLAN_LENGTH:
            return Answer(Status.ERROR, message=f"FF 2.3 plans at most {MAX_PLAN_LENGTH} steps; "
                                                f"this deal needs {len(deal.cards)}")
        return super().solve(deal, limits, options)

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return [self.executable() or "ff", "-o", "domain.pddl", "-f", "problem.pddl"]

    def verdict(self, run: ProcessRun, folder: Path, options: Mapping[str, Any]) -> PlanVerdict:
        verdict = read_ff(run.stdout, "FF output")
        if verdict.status is Status.UNKNOWN and run.returncode not in (0, None) and not run.out_of_time:
            detail = (run.stdout.strip().splitlines() or run.stderr.strip().splitlines() or [""])[-1]
            return PlanVerdict(Status.ERROR, None, verdict.nodes, f"FF exit {run.returncode}: {detail}")
        return verdict
