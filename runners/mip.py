"""What the CBC and HiGHS runners share: write the LP file, run the solver on it in a private
folder under the runner core's limits, read its solution file back into cards."""

from __future__ import annotations

import tempfile
from abc import abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from patience.deal import Deal
from patience.errors import InputError
from patience.generators.lp import MODELS, OBJECTIVES, check_model, check_objective, lp_model
from patience.result import Answer, Status
from patience.runners.base import Solver, answer_from_run
from patience.runners.lp_solution import Verdict, cards_played
from patience.runners.process import Limits, ProcessRun, run_process

GRACE_SECONDS = 5.0  # the solver stops itself at the time limit; the hard kill comes this much later


class MipSolver(Solver):
    """A MIP solver reading the CPLEX LP file of one of the paper's formulations."""

    paradigm = "mip"
    options: ClassVar[Mapping[str, str]] = {
        "model": f"formulation: {', '.join(MODELS)} (default mip3, the paper's best)",
        "objective": f"{' or '.join(OBJECTIVES)} (default none: stop at the first solution; paper "
                     "makes the solver also prove its breadth-first objective optimal)",
    }

    @abstractmethod
    def command(self, model: Path, solution: Path, seconds: float | None) -> list[str]:
        """The command that solves `model`, stops itself after `seconds` and writes `solution`."""

    @abstractmethod
    def verdict(self, run: ProcessRun, solution: str) -> Verdict:
        """Read the solution file's text (empty if none was written) and the run's output."""

    @abstractmethod
    def nodes(self, run: ProcessRun) -> int | None:
        """Branch-and-bound nodes, from the solver's output."""

    def check_options(self, options: Mapping[str, str]) -> tuple[str, str]:
        self.refuse_unknown_options(options)
        return check_model(options.get("model", "mip3")), check_objective(options.get("objective", "none"))

    def solve(self, deal: Deal, limits: Limits, options: Mapping[str, str]) -> Answer:
        model, objective = self.check_options(options)
        lp = lp_model(deal, model, objective)
        hard = Limits(None if limits.timeout is None else limits.timeout + GRACE_SECONDS,
                      None if limits.cpu_limit is None else limits.cpu_limit + GRACE_SECONDS, limits.memory_mb)
        with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
            folder = Path(scratch)
            (folder / "model.lp").write_text(lp.text)
            run = run_process(self.command(folder / "model.lp", folder / "solution.txt", limits.timeout),
                              hard, cwd=folder)
            solution = folder / "solution.txt"
            text = solution.read_text() if solution.exists() else ""
        stats = {"model": model, "objective": objective, "rows": lp.constraints, "columns": lp.columns}
        try:
            verdict = self.verdict(run, text)
            sequence = None
            if verdict.status is Status.SOLVED:
                sequence = cards_played(deal, verdict.values, f"{self.name} solution")
        except InputError as error:
            return answer_from_run(run, Status.ERROR, nodes=self.nodes(run), stats=stats,
                                   message=f"unreadable solver output: {error}")
        return answer_from_run(run, verdict.status, sequence, self.nodes(run), stats, verdict.message)
