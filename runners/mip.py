"""What the CBC and HiGHS runners share: the LP file of a formulation, the solver run on it in a
private folder under the runner core's limits, its solution file read back into cards."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from patience.deal import Deal
from patience.errors import UsageError
from patience.games import AnyDeal, deal_as, game_of
from patience.generators.files import ModelFiles
from patience.generators.lp import black_hole as lp
from patience.generators.lp.solution import MipVerdict
from patience.generators.lp.start import START_FILE, start_text
from patience.names import BLACK_HOLE
from patience.options import Option, Schema
from patience.reading import read_output
from patience.result import Answer, Status
from patience.runners.base import ProcessSolver, answer_from_run, modelled_games
from patience.runs.process import Limits, ProcessRun

SOLUTION_FILE = "solution.txt"
GRACE_SECONDS = 5.0  # the solver stops itself at the time limit; the hard kill comes this much later
START_OPTION = Option("start", "none", "greedy: give the solver the first moves of a greedy play as a (partial) "
                                       "MIP start; none: no start", ("none", "greedy"))
START_ARGUMENT = "--start="
BLACK_HOLE_ONLY = ("model", "start")  # options that choose among Black Hole's MIPs and start them


def split_start(arguments: Sequence[str]) -> tuple[list[str], str | None]:
    """A solver child's arguments without its `--start=FILE`, and that file (None if not given)."""
    start = next((item.removeprefix(START_ARGUMENT) for item in arguments if item.startswith(START_ARGUMENT)), None)
    return [item for item in arguments if not item.startswith(START_ARGUMENT)], start


class MipSolver(ProcessSolver):
    """A MIP solver reading the CPLEX LP file of one of the paper's formulations; it stops itself at
    the time limit and writes its solution file, and the hard kill comes a grace period later."""

    paradigm = "mip"
    language = "lp"
    grace = GRACE_SECONDS
    games = modelled_games("lp")
    options: ClassVar[Schema] = (
        lp.OPTIONS[0],
        Option("objective", "none", "none: stop at the first solution; paper: also prove the paper's breadth-first "
                                    "objective optimal", lp.OBJECTIVES),
    )

    @abstractmethod
    def solver_command(self, model: str, solution: str, seconds: float | None) -> list[str]:
        """The command that solves `model`, stops itself after `seconds` and writes `solution`."""

    @abstractmethod
    def verdict(self, run: ProcessRun, solution: str) -> MipVerdict:
        """Read the solution file's text (empty if none was written) and the run's output."""

    @abstractmethod
    def nodes(self, run: ProcessRun) -> int | None:
        """Branch-and-bound nodes, from the solver's output."""

    def build(self, deal: AnyDeal, options: Mapping[str, Any]) -> ModelFiles:
        game = game_of(deal).name
        if game != BLACK_HOLE:
            chosen = [f"{option.name}={options[option.name]}" for option in self.options
                      if option.name in BLACK_HOLE_ONLY and options.get(option.name, option.default) != option.default]
            if chosen:
                raise UsageError(f"{self.name} has one model of {game} deals and no MIP start for them: "
                                 f"drop --set {chosen[0]}")
        model = super().build(deal, options)
        if options.get("start", "none") == "none":
            return model
        start = start_text(deal_as(Deal, deal), options.get("model", "mip3"))
        return replace(model, files={**model.files, START_FILE: start})

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        command = self.solver_command(model.primary, SOLUTION_FILE, limits.timeout)
        return command + ([START_ARGUMENT + START_FILE] if START_FILE in model.files else [])

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        solution = folder / SOLUTION_FILE
        verdict = self.verdict(run, read_output(solution) if solution.exists() else "")
        sequence = None
        if verdict.status is Status.SOLVED:
            sequence = model.decode(verdict.values, f"{self.name} solution")
        return answer_from_run(run, verdict.status, sequence, self.nodes(run), message=verdict.message)
