"""Deciding an LBS deal with any of its models: native search, a DIMACS solver, or Savile Row + Minion.

Every route ends in the same Outcome, whose moves are replayed before anything calls the deal won.
External solvers run through the runner core (own process group, limits) in a private folder.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from patience.errors import UsageError
from patience.generators import lbs_cnf, lbs_eprime, lbs_pddl, lbs_xcsp3
from patience.lbs import solver
from patience.lbs.deal import LBSDeal
from patience.lbs.rules import Move, replay
from patience.lbs.solution import read_moves
from patience.result import Status
from patience.runners.ace import Ace
from patience.runners.base import find_executable
from patience.runners.dimacs_output import SATISFIABLE, UNSATISFIABLE, read_competition
from patience.runners.fast_downward import SEARCHES, FastDownwardFF, driver
from patience.runners.process import Limits, run_process
from patience.runners.savilerow import minion_path, minion_time_limits, savilerow_command
from patience.runners.savilerow_output import read_info
from patience.runners.xcsp_output import read_output

SAT_SOLVERS = ("cadical", "picosat", "cryptominisat5")
SOLVERS = ("native", *SAT_SOLVERS, "fd", "ace", "savilerow")


@dataclass(frozen=True)
class Outcome:
    """A solver's claim on a deal, judged: `verdict` is solved only when the moves replay."""

    solver: str
    verdict: str  # solved, unsolvable, unknown, invalid
    moves: tuple[Move, ...] | None
    seconds: float
    stats: dict[str, float | int] = field(default_factory=dict)
    message: str = ""


def judged(deal: LBSDeal, name: str, claim: str, moves, seconds: float, stats: dict, message: str = "") -> Outcome:
    if claim == "solved":
        result = replay(deal, moves or ())
        if not result.valid:
            return Outcome(name, "invalid", moves, seconds, stats, result.fault or "")
        return Outcome(name, "solved", moves, seconds, stats, result.describe())
    return Outcome(name, claim, None, seconds, stats, message)


def decide(deal: LBSDeal, name: str, limits: Limits, level: int = 2) -> Outcome:
    """Run solver `name` (one of SOLVERS) on the deal within `limits`."""
    if name == "native":
        search = solver.solve(deal, timeout=limits.timeout)
        return judged(deal, name, search.verdict, search.moves, search.seconds, {"nodes": search.nodes})
    if name in SAT_SOLVERS:
        return _sat(deal, name, limits)
    if name == "fd":
        return _fast_downward(deal, limits)
    if name == "ace":
        return _ace(deal, limits)
    if name == "savilerow":
        return _savilerow(deal, limits, level)
    raise UsageError(f"unknown LBS solver {name!r}; known: {', '.join(SOLVERS)}")


def _sat(deal: LBSDeal, name: str, limits: Limits) -> Outcome:
    executable = find_executable((name,))
    if executable is None:
        raise UsageError(f"{name} is not installed (Debian package {name})")
    encoding = lbs_cnf.encode(deal)
    stats = {"variables": encoding.cnf.nv, "clauses": len(encoding.cnf.clauses)}
    with tempfile.TemporaryDirectory(prefix="patience-") as folder:
        Path(folder, "deal.cnf").write_text(lbs_cnf.dimacs(deal, encoding))
        run = run_process([executable, "deal.cnf"], limits, cwd=folder)
    verdict = read_competition(run.stdout, f"{name} output")
    if verdict.status == SATISFIABLE:
        return judged(deal, name, "solved", encoding.decode(verdict.true_variables), run.wall, stats)
    claim = "unsolvable" if verdict.status == UNSATISFIABLE and not run.timed_out else "unknown"
    return judged(deal, name, claim, None, run.wall, stats)


def _fast_downward(deal: LBSDeal, limits: Limits) -> Outcome:
    """Fast Downward (lazy greedy search on the FF heuristic: complete, so "exhausted" is a proof)."""
    planner = FastDownwardFF()
    if not planner.available():
        raise UsageError(f"Fast Downward is not installed: {planner.install_hint()}")
    with tempfile.TemporaryDirectory(prefix="patience-") as folder:
        Path(folder, "domain.pddl").write_text(lbs_pddl.DOMAIN)
        Path(folder, "problem.pddl").write_text(lbs_pddl.problem(deal))
        run = run_process([sys.executable, str(driver()), "domain.pddl", "problem.pddl", "--search", SEARCHES["lazy"]],
                          limits, cwd=folder)
        verdict = planner.verdict(run, Path(folder), {})
    stats = {} if verdict.nodes is None else {"expanded": verdict.nodes}
    if verdict.status == Status.SOLVED:
        return judged(deal, "fd", "solved", lbs_pddl.plan_moves(deal, verdict.plan, "sas_plan"), run.wall, stats)
    claim = "unsolvable" if verdict.status == Status.UNSOLVABLE else "unknown"
    return judged(deal, "fd", claim, None, run.wall, stats, verdict.message)


def _ace(deal: LBSDeal, limits: Limits) -> Outcome:
    """ACE (from the pycsp3 wheel) on the XCSP3 instance; its s/v lines read by the XCSP3 reader."""
    ace = Ace()
    if not ace.available():
        raise UsageError(f"ACE is not available: {ace.install_hint()}")
    n = len(deal.cards)
    with tempfile.TemporaryDirectory(prefix="patience-") as folder:
        Path(folder, lbs_xcsp3.INSTANCE_FILE).write_text(lbs_xcsp3.instance(deal))
        run = run_process([find_executable(("java",)) or "java", "-XX:ParallelGCThreads=1", *ace.classpath(),
                           lbs_xcsp3.INSTANCE_FILE, *ace.arguments(limits, False)], limits, cwd=folder)
    output = read_output(run.stdout, "ace output", {"m": max(n - 1, 1), "top": n * n})
    nodes, stats = ace.nodes(run.stdout)
    if output.status is Status.SOLVED:
        return judged(deal, "ace", "solved", lbs_xcsp3.decode(deal, output.values), run.wall, stats)
    claim = "unsolvable" if output.status is Status.UNSOLVABLE and not run.timed_out else "unknown"
    return judged(deal, "ace", claim, None, run.wall, stats)


def _savilerow(deal: LBSDeal, limits: Limits, level: int) -> Outcome:
    command, minion = savilerow_command(), minion_path()
    if command is None or minion is None:
        raise UsageError("Savile Row and Minion are needed: set SAVILEROW_PATH and MINION_PATH")
    with tempfile.TemporaryDirectory(prefix="patience-") as folder:
        Path(folder, "lbs.eprime").write_text(lbs_eprime.model_text(deal))
        Path(folder, "deal.param").write_text(lbs_eprime.parameters(deal))
        timeout = [] if limits.timeout is None else minion_time_limits(limits.timeout)
        run = run_process([*command, "lbs.eprime", "deal.param", f"-O{level}", "-run-solver",
                           "-minion-bin", minion, *timeout],
                          Limits(None if limits.timeout is None else limits.timeout + 30), cwd=folder)
        info_path, solution_path = Path(folder, "deal.param.info"), Path(folder, "deal.param.solution")
        if not info_path.exists():
            return judged(deal, "savilerow", "unknown", None, run.wall, {}, "Savile Row wrote no .info file")
        info = read_info(info_path.read_text(), "deal.param.info")
        stats = {key: info[key] for key in ("SolverNodes", "SolverSolveTime", "SavileRowTotalTime") if key in info}
        if solution_path.exists():
            moves = read_moves(solution_path.read_text(), "deal.param.solution")
            return judged(deal, "savilerow", "solved", moves, run.wall, stats)
    decided = info.get("SolverSatisfiable") == 0 and not info.get("SolverTimeOut") and not info.get("SavileRowTimeOut")
    return judged(deal, "savilerow", "unsolvable" if decided else "unknown", None, run.wall, stats)
