"""The SAT-to-Black-Hole reduction at growing sizes: random 3-SAT at a clause ratio, reduced to a
generalised deal, decided by several solvers; prints per variable count the deal's size and each
solver's verdict and CPU time. Every win is replayed (the solve road does it) and turned back into
an assignment that is checked against the formula; every "unsolvable" is checked against PySAT on
the formula itself.

The deal solvers (native, sat, fd-ff, ...) search the deal. The column `via-formula` is not a search
of the deal: it is `decode assignment --via-formula`, CaDiCaL on the formula the deal was built
from, a model turned into a win by the reduction's proof (replayed), a refutation turned into
"unsolvable" by the reduction theorem.

A deal solver that decides none of the formulas of `--give-up` consecutive variable counts is not
run on larger ones (its cells say `not run`): it would only time out, and CPU is shared."""

from __future__ import annotations

import argparse
import random

from pysat.solvers import Solver as PySatSolver

from patience.generators.reduction import Formula, assignment_from_sequence, reduce_formula
from patience.result import Result, Status
from patience.runners.solve import solve
from patience.runners.via_formula import ROUTE, solve_via_formula
from patience.runs.process import Limits

WALL_FACTOR = 3  # the wall-clock limit, in multiples of the CPU limit


def random_3sat(variables: int, ratio: float, seed: int) -> Formula:
    """round(ratio * variables) clauses of three distinct variables with random signs."""
    chooser = random.Random(seed)
    clauses = tuple(tuple(var if chooser.random() < 0.5 else -var
                          for var in chooser.sample(range(1, variables + 1), 3))
                    for _ in range(round(ratio * variables)))
    return Formula(variables, clauses)


def satisfiable(formula: Formula) -> bool:
    with PySatSolver(name="cadical195", bootstrap_with=[list(clause) for clause in formula.clauses]) as sat:
        return sat.solve()


def run(name: str, formula: Formula, cpu: float) -> Result:
    """One run: CPU-limited where the solver is a child process; the native search, which keeps only a
    wall clock, gets the whole wall-clock limit (on a loaded machine it uses less CPU than the others)."""
    deal = reduce_formula(formula)
    if name == ROUTE:
        return solve_via_formula(deal, formula, Limits(timeout=WALL_FACTOR * cpu, cpu=cpu), "benchmark")
    if name == "native":
        return solve(deal, name, Limits(timeout=WALL_FACTOR * cpu))
    return solve(deal, name, Limits(timeout=WALL_FACTOR * cpu, cpu=cpu))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variables", default="3-20", help="range of variable counts, e.g. 3-20")
    parser.add_argument("--ratio", type=float, default=4.26, help="clauses per variable")
    parser.add_argument("--per-size", type=int, default=2, help="formulas per variable count (seeds 0..N-1)")
    parser.add_argument("--solvers", default=f"native,sat,fd-ff,{ROUTE}")
    parser.add_argument("--cpu", type=float, default=60.0,
                        help="CPU seconds per run; the wall-clock limit is three times this (the native "
                             "search has only that one)")
    parser.add_argument("--give-up", type=int, default=2,
                        help="stop running a deal solver after this many consecutive variable counts it decided "
                             "nothing on")
    args = parser.parse_args()
    low, _, high = args.variables.partition("-")
    solvers = [name.strip() for name in args.solvers.split(",") if name.strip()]
    print(f"{'vars':>4} {'seed':>4} {'clauses':>7} {'cards':>5} {'formula':>7}  "
          + "  ".join(f"{name:>18}" for name in solvers))
    wrong = 0
    barren_sizes = dict.fromkeys(solvers, 0)
    for variables in range(int(low), int(high or low) + 1):
        decided = dict.fromkeys(solvers, False)
        for seed in range(args.per_size):
            formula = random_3sat(variables, args.ratio, seed)
            truth = satisfiable(formula)
            cells = []
            for name in solvers:
                if name != ROUTE and barren_sizes[name] >= args.give_up:
                    cells.append("not run")
                    continue
                result = run(name, formula, args.cpu)
                if result.status is Status.SOLVED:
                    wrong += not formula.satisfied_by(assignment_from_sequence(formula, tuple(result.sequence)))
                elif result.status is Status.UNSOLVABLE:
                    wrong += truth
                decided[name] |= result.decided
                cells.append(f"{result.status.value} {result.cpu:6.2f} s")
            print(f"{variables:>4} {seed:>4} {len(formula.clauses):>7} {len(reduce_formula(formula).cards):>5} "
                  f"{'sat' if truth else 'unsat':>7}  " + "  ".join(f"{cell:>18}" for cell in cells), flush=True)
        for name in solvers:
            barren_sizes[name] = 0 if decided[name] else barren_sizes[name] + 1
    print(f"verdicts contradicting the formula: {wrong}")


if __name__ == "__main__":
    main()
