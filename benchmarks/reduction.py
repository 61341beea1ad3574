"""The SAT-to-Black-Hole reduction at growing sizes: random 3-SAT at a clause ratio, reduced to a
generalised deal, decided by several solvers; prints per variable count the deal's size and each
solver's verdict and time. Every win is replayed (the solve road does it) and turned back into an
assignment that is checked against the formula; every "unsolvable" is checked against PySAT on the
formula itself."""

from __future__ import annotations

import argparse
import random

from pysat.solvers import Solver as PySatSolver

from patience.generators.reduction import Formula, assignment_from_sequence, reduce_formula
from patience.result import Status
from patience.runners.process import Limits
from patience.runners.solve import solve


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variables", default="3-8", help="range of variable counts, e.g. 3-20")
    parser.add_argument("--ratio", type=float, default=4.26, help="clauses per variable")
    parser.add_argument("--per-size", type=int, default=2, help="formulas per variable count")
    parser.add_argument("--solvers", default="native,sat,fd-ff")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per solver run")
    args = parser.parse_args()
    low, _, high = args.variables.partition("-")
    solvers = [name.strip() for name in args.solvers.split(",") if name.strip()]
    print(f"{'vars':>4} {'seed':>4} {'clauses':>7} {'cards':>5} {'formula':>7}  "
          + "  ".join(f"{name:>18}" for name in solvers))
    wrong = 0
    for variables in range(int(low), int(high or low) + 1):
        for seed in range(args.per_size):
            formula = random_3sat(variables, args.ratio, seed)
            deal = reduce_formula(formula)
            truth = satisfiable(formula)
            cells = []
            for name in solvers:
                result = solve(deal, name, Limits(timeout=args.timeout))
                if result.status is Status.SOLVED:
                    wrong += not formula.satisfied_by(assignment_from_sequence(formula, tuple(result.sequence)))
                elif result.status is Status.UNSOLVABLE:
                    wrong += truth
                cells.append(f"{result.status.value} {result.wall:6.2f} s")
            print(f"{variables:>4} {seed:>4} {len(formula.clauses):>7} {len(deal.cards):>5} "
                  f"{'sat' if truth else 'unsat':>7}  " + "  ".join(f"{cell:>18}" for cell in cells), flush=True)
    print(f"verdicts contradicting the formula: {wrong}")


if __name__ == "__main__":
    main()
