"""`patience decode`: read SAT answers back. `decode model` turns a SAT solver's output on a
`gen cnf` or `gen successor` formula into the card sequence (through the CNF's header map) and validates it;
`decode assignment` turns a won game of a reduced deal into the formula's satisfying assignment
(or, with --via-formula, decides the recorded formula and builds the win by the reduction's proof)."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import Any, cast

from patience.answers import read_answer
from patience.arguments import Subcommands
from patience.cards import Card
from patience.errors import InputError
from patience.exit_codes import ExitCode
from patience.formats import parse_deal
from patience.games import game_of
from patience.generators import MODEL_LANGUAGES
from patience.generators.cnf import black_hole as paper_cnf
from patience.generators.reduction import assignment_from_sequence, dimacs_assignment, formula_from_meta
from patience.generators.successor import black_hole as successor_cnf
from patience.limits import seconds
from patience.reading import lines, read_text
from patience.result import Status
from patience.runners.dimacs_output import SATISFIABLE, UNSATISFIABLE, read_competition, read_minisat_result
from patience.runners.solve import solve
from patience.runners.via_formula import ROUTE, solve_via_formula
from patience.runs.process import Limits
from patience.validator import replay


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser("decode",
                                   help="read a SAT model back as cards, or a won reduced deal as an assignment")
    kinds = parser.add_subparsers(dest="kind", required=True, metavar="KIND")
    model = kinds.add_parser(
        "model", help="a SAT solver's output on a `gen cnf` or `gen successor` formula -> validated moves",
        description="Exit 0 solved (validated), 1 the solver says UNSATISFIABLE, 2 bad input, 3 no verdict, "
                    "4 the decoded sequence does not win.")
    model.add_argument("cnf", help="the CNF written by `gen cnf` or `gen successor` (its header holds the deal and "
                       "the map)")
    model.add_argument("output", help="solver output: competition format (`s`/`v` lines) or MiniSat's result file")
    model.set_defaults(handler=run_decode_model)
    assignment = kinds.add_parser(
        "assignment", help="a won game of a `patience reduce` deal -> satisfying assignment (DIMACS v line)",
        description="Give an ANSWER file, --solver to solve the deal first, or --via-formula. Exit 0 with "
                    "`s SATISFIABLE` and a checked `v ... 0` line; 1 `s UNSATISFIABLE` when the solver proved the "
                    "deal unsolvable (with --via-formula: CaDiCaL refuted the recorded formula, so the deal is "
                    "unsolvable by the reduction theorem); 3 no verdict; 4 the assignment fails the formula.")
    assignment.add_argument("deal", help="YAML deal made by `patience reduce`")
    assignment.add_argument("answer", nargs="?", help="winning card sequence in any answer format")
    assignment.add_argument("--solver", help="solve the deal with this solver instead of reading an answer")
    assignment.add_argument("--via-formula", action="store_true",
                            help="not a search of the deal: CaDiCaL on the formula the deal records, a model "
                                 "turned into a win by the reduction's proof and replayed")
    assignment.add_argument("--timeout", type=seconds, default=60.0,
                            help="the solver's wall-clock limit in seconds (default 60)")
    assignment.set_defaults(handler=run_assignment)


def header_reader(cnf_text: str) -> Callable[[str, str], Any]:
    """The `read_header` of the CNF module whose header tag opens `cnf_text` (the longest tag that
    does: each game's CNF, and the successor encoding, tags its own); Black Hole's paper encoding,
    whose reader names what is wrong with any other text, when none does."""
    modules = [importlib.import_module(name) for name in MODEL_LANGUAGES["cnf"].values()]
    readers = {module.HEADER_TAG: module.read_header for module in (*modules, successor_cnf)
               if hasattr(module, "read_header")}
    tag = max((tag for tag in readers if cnf_text.startswith(tag)), key=len, default=paper_cnf.HEADER_TAG)
    return readers[tag]


def run_decode_model(args: argparse.Namespace) -> int:
    cnf_text = read_text(args.cnf)
    decode_map = header_reader(cnf_text)(cnf_text, args.cnf)
    text = read_text(args.output)
    if any(line.startswith("s ") for line in lines(text)):
        verdict = read_competition(text, args.output, decode_map.variables)
    else:
        verdict = read_minisat_result(text, args.output, variables=decode_map.variables)
    if verdict.status == UNSATISFIABLE:
        print("s UNSATISFIABLE: the solver says the deal cannot be won")
        return ExitCode.UNSOLVABLE
    if verdict.status != SATISFIABLE:
        print("s UNKNOWN: the solver decided nothing")
        return ExitCode.UNDECIDED
    deal = decode_map.deal
    game = game_of(deal)
    moves = decode_map.sequence(verdict.true_variables)
    outcome = game.replay(deal, moves)
    print(" ".join(game.move_names(deal, moves)))
    print(outcome.describe())
    return ExitCode.SOLVED if outcome.valid else ExitCode.SOLVER_ERROR


def run_assignment(args: argparse.Namespace) -> int:
    text = read_text(args.deal)
    deal = parse_deal(text, args.deal)
    formula = formula_from_meta(text, args.deal)
    if [args.answer is not None, args.solver is not None, args.via_formula].count(True) != 1:
        raise InputError(args.deal, None, "give one of an ANSWER file, --solver NAME or --via-formula")
    if args.answer is None:
        if args.via_formula:
            result = solve_via_formula(deal, formula, Limits(timeout=args.timeout), args.deal)
        else:
            result = solve(deal, args.solver, Limits(timeout=args.timeout))
        if result.status is Status.UNSOLVABLE:
            print("s UNSATISFIABLE (the deal is unsolvable by the reduction theorem: CaDiCaL refuted the formula "
                  "the deal was built from; the deal itself was not searched)" if args.via_formula else
                  f"s UNSATISFIABLE ({args.solver} proved the reduced deal unsolvable)")
            return ExitCode.UNSOLVABLE
        if result.status is not Status.SOLVED:
            print(f"s UNKNOWN ({args.solver or ROUTE}: {result.status.value} {result.message})".rstrip())
            return ExitCode.UNDECIDED
        sequence = cast(tuple[Card, ...], result.sequence)  # a solved Black Hole deal's cards, replayed
    else:
        sequence = read_answer(read_text(args.answer), args.answer, deal)
        outcome = replay(deal, sequence)
        if not outcome.valid:
            raise InputError(args.answer, None, f"does not win the deal: {outcome.describe()}")
    assignment = assignment_from_sequence(formula, tuple(sequence))
    print(dimacs_assignment(formula, assignment), end="")
    if not formula.satisfied_by(assignment):
        print("c the assignment does NOT satisfy the formula")
        return ExitCode.SOLVER_ERROR
    print(f"c checked: satisfies all {len(formula.clauses)} clauses")
    if args.via_formula:
        print("c won by the reduction's play (replayed): " + " ".join(deal.name(card) for card in sequence))
    return ExitCode.SOLVED
