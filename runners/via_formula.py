"""The reduction's own route for `decode assignment --via-formula`: decide the formula a reduced
deal was built from with CaDiCaL, and turn a model into a win of the deal by the proof's
constructive direction (`winning_sequence`), which the validator replays before anything trusts it.

This is not a search of the deal. A win is checked card by card; "unsolvable" rests on the
reduction theorem (the deal is solvable iff the formula is satisfiable) and on CaDiCaL's refutation
of the formula, and it is only claimed after checking that the deal is exactly `reduce_formula` of
the formula its `meta` block records.
"""

from __future__ import annotations

import time

from pysat.formula import CNF

from patience.errors import InputError
from patience.generators.reduction import Formula, reduce_formula, winning_sequence
from patience.result import Answer, Result, Status, judge
from patience.runners.sat_embedded import ENGINES, run_engine
from patience.runs.process import Limits

ROUTE = "via-formula"


def solve_via_formula(deal: object, formula: Formula, limits: Limits, source: str) -> Result:
    """Decide `deal` through its recorded `formula`; InputError if the deal is not that formula's reduction."""
    if deal != reduce_formula(formula):
        raise InputError(source, None, "the deal is not `patience reduce`'s deal of the formula its meta "
                                       "records: the formula route cannot speak for it")
    started = time.monotonic()
    outcome = run_engine(ENGINES["cadical"], CNF(from_clauses=[list(clause) for clause in formula.clauses]), limits)
    wall, cpu = time.monotonic() - started, outcome.get("cpu", 0.0)
    command = "pysat cadical195 on the recorded formula, then the proof's play"
    verdict = outcome["verdict"]
    if verdict is True:
        true_variables = set(outcome["true"])
        assignment = {variable: variable in true_variables for variable in range(1, formula.variables + 1)}
        return judge(deal, ROUTE, Answer(Status.SOLVED, winning_sequence(formula, assignment), wall, cpu,
                                         command=command))
    if verdict is False:
        return judge(deal, ROUTE, Answer(Status.UNSOLVABLE, None, wall, cpu, command=command,
                                         message="by the reduction theorem: CaDiCaL refuted the formula"))
    status = {"timeout": Status.TIMEOUT, "memout": Status.MEMOUT}.get(verdict, Status.ERROR)
    return judge(deal, ROUTE, Answer(status, None, wall, cpu, command=command, message=outcome.get("message", "")))
