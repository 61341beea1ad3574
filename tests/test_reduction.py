"""The SAT-to-Black-Hole reduction: the paper's worked example, random 3-SAT round trips decided by
pysat, the native search and the CNF path, and bad DIMACS input."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import pytest
from pysat.solvers import Solver as PySatSolver

from patience.cards import parse_card
from patience.cli import main
from patience.errors import InputError
from patience.formats import read_deal, write_deal
from patience.formats.yaml_form import write
from patience.generators.reduction import (
    Formula,
    assignment_from_sequence,
    meta,
    read_formula,
    reduce_formula,
    winning_sequence,
)
from patience.result import Status
from patience.runners.solve import solve
from patience.runners.via_formula import solve_via_formula
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import EVERY_CLAUSE

# (a or b or not c) and (not a or b or not c) and (a or not b or not c)
PAPER_FORMULA = "c the worked example of the reduction\np cnf 3 3\n1 2 -3 0\n-1 2 -3 0\n1 -2 -3 0\n"
# The paper's table in our suits: sf = A, a b c = 2 3 4, c1 g1 c2 g2 c3 g3 = 5..T, o1 o2 o3 = J Q K;
# literal fans (T suit S, F suit H) list their clause cards, gate fans g..g c g, then the trap fan.
PAPER_TABLE = [
    "2S 5S 9S",        # aT: in clauses 1 and 3
    "2H 7S",           # aF: clause 2
    "3S 5H 7H",        # bT: clauses 1 and 2
    "3H 9H",           # bF: clause 3
    "4S",              # cT: in no clause
    "4H 5D 7D 9D",     # cF: clauses 1, 2, 3
    "6S 6H 6D 5C 6C",  # gate fan 1, top first: g1 g1 g1 c1 g1
    "8S 8H 8D 7C 8C",  # gate fan 2
    "TS TH TD 9C TC",  # gate fan 3
    "JS QS KS AH JH QH KH AD",  # trap fan: o1 o2 o3 sf o1 o2 o3 sf
]
LIMITS = Limits(timeout=30)


def example_deal():
    return reduce_formula(read_formula(PAPER_FORMULA, "paper.cnf"))


def cards(text: str) -> list:
    return [parse_card(name) for name in text.split()]


def test_paper_example_equals_the_papers_table():
    deal = example_deal()
    assert deal.ranks == 13 and deal.foundation == parse_card("AS")
    assert [" ".join(deal.name(card) for card in pile) for pile in deal.piles] == PAPER_TABLE


def test_paper_solution_start_replays():
    """sf aT bT cT c1 g1 c1 g1 c2 g2 c3 g3 o1 o2 o3 sf aF bF cF, for a = b = c = true."""
    start = cards("AS 2S 3S 4S 5S 6S 5H 6H 7H 8S 9S TS JS QS KS AH 2H 3H 4H")
    assert replay(example_deal(), start, complete=False).valid


def test_worked_example_second_c3_has_no_card_to_play():
    """The worked example prints `c3 g3 c3 g3`, but with a = b = c = true only aT's fan holds a c3 (clause 3 is
    a or not b or not c), so a second c3 cannot be uncovered there: the transcription repeats it."""
    start = cards("AS 2S 3S 4S 5S 6S 5H 6H 7H 8S 9S TS 9H")
    outcome = replay(example_deal(), start, complete=False)
    assert not outcome.valid and "9H is under 3H" in outcome.fault


def test_paper_example_solved_and_decoded(tmp_path, capsys):
    formula_file = tmp_path / "paper.cnf"
    formula_file.write_text(PAPER_FORMULA)
    assert main(["reduce", str(formula_file)]) == 0
    deal_file = tmp_path / "paper.yaml"
    deal_file.write_text(capsys.readouterr().out)
    assert read_deal(deal_file) == example_deal()
    assert main(["decode", "assignment", str(deal_file), "--solver", "native"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("s SATISFIABLE\nv ") and "c checked" in out


def random_formula(rng: random.Random, variables: int, clauses: int, widths: tuple[int, ...]) -> Formula:
    """Clauses of distinct variables with random signs, each as wide as a choice from `widths`."""
    def clause() -> tuple[int, ...]:
        chosen = rng.sample(range(1, variables + 1), min(variables, rng.choice(widths)))
        return tuple(variable * rng.choice((1, -1)) for variable in chosen)

    return Formula(variables, tuple(clause() for _ in range(clauses)))


def pysat_says(formula: Formula) -> bool:
    with PySatSolver(name="cadical195", bootstrap_with=[list(clause) for clause in formula.clauses]) as solver:
        return solver.solve()


_RNG = random.Random(2026)
# Small formulas (clauses of 1 to 3 literals over 2 or 3 variables) decide quickly either way.
ROUND_TRIP = [random_formula(_RNG, _RNG.choice((2, 3)), _RNG.randint(2, 5), (1, 2, 3)) for _ in range(12)]
# Proper 3-SAT over three variables, 4 to 6 clauses (deals of 46 to 62 cards), with `-m slow` only.
# The smallest unsatisfiable one, EVERY_CLAUSE (78 cards), is left to the CNF: the native search does
# not decide its deal in 100 s.
THREE_SAT = [random_formula(_RNG, 3, _RNG.randint(4, 6), (3,)) for _ in range(6)]


def _label(formula: Formula) -> str:
    return "&".join("|".join(map(str, clause)) for clause in formula.clauses)


def test_round_trip_sample_holds_both_verdicts():
    assert {pysat_says(formula) for formula in ROUND_TRIP} == {True, False}


def check_round_trip(formula: Formula, solver: str, limits: Limits = LIMITS) -> None:
    deal = reduce_formula(formula)
    result = solve(deal, solver, limits)
    assert result.decided, result.message
    assert (result.status is Status.SOLVED) == pysat_says(formula)
    if result.sequence is not None:
        assert formula.satisfied_by(assignment_from_sequence(formula, result.sequence))


@pytest.mark.parametrize("formula", ROUND_TRIP, ids=_label)
@pytest.mark.parametrize("solver", ["native", "sat"])
def test_round_trip(formula, solver):
    check_round_trip(formula, solver)


@pytest.mark.slow
@pytest.mark.parametrize("formula", THREE_SAT, ids=_label)
@pytest.mark.parametrize("solver", ["native", "sat"])
def test_round_trip_3sat(formula, solver):
    check_round_trip(formula, solver, Limits(timeout=120))


@pytest.mark.slow
def test_the_smallest_unsatisfiable_3sat_formula_gives_an_unsolvable_deal():
    check_round_trip(EVERY_CLAUSE, "sat", Limits(timeout=120))


def test_decode_assignment_from_an_answer_file(tmp_path, capsys):
    formula = Formula(2, ((1, 2), (-1, 2), (1, -2)))  # only a = b = true
    deal = reduce_formula(formula)
    deal_file = tmp_path / "f.yaml"
    deal_file.write_text(write(deal, meta(formula)))
    result = solve(deal, "native", LIMITS)
    answer = tmp_path / "answer.txt"
    answer.write_text(" ".join(deal.name(card) for card in result.sequence))
    assert main(["decode", "assignment", str(deal_file), str(answer)]) == 0
    assert "v 1 2 0" in capsys.readouterr().out
    answer.write_text(" ".join(deal.name(card) for card in result.sequence[:-1]))
    assert main(["decode", "assignment", str(deal_file), str(answer)]) == 2
    assert "does not win the deal" in capsys.readouterr().err


@pytest.mark.parametrize("text, line, words", [
    ("1 2 0\n", 1, "before the `p cnf` line"),
    ("p cnf 2 1\n1 x 0\n", 2, "not a literal"),
    ("p cnf 2 1\n1 3 0\n", 2, "beyond 2"),
    ("p cnf 2 2\n1 2 0\n0\n", 3, "empty clause"),
    ("p cnf 2 1\n1 2\n", 2, "does not end in 0"),
    ("p dnf 2 1\n1 2 0\n", 1, "p cnf"),
    ("c nothing\n", 1, "no `p cnf"),
])
def test_bad_dimacs_names_the_line(text, line, words):
    with pytest.raises(InputError) as caught:
        read_formula(text, "f.cnf")
    assert caught.value.line == line and words in caught.value.message


def test_bad_dimacs_on_the_command_line(tmp_path):
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 2 1\n1 -7 0\n")
    done = subprocess.run([sys.executable, "-m", "patience", "reduce", str(bad)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"error: {bad}:2: literal -7 names a variable beyond 2\n"


@pytest.mark.parametrize("form", ["yaml", "board"])
def test_decode_assignment_needs_a_reduced_deal(tmp_path, capsys, paper_deal, form):
    plain = tmp_path / f"plain.{form}"
    plain.write_text(write_deal(paper_deal, form))
    assert main(["decode", "assignment", str(plain), "--solver", "native"]) == 2
    assert "not a reduced deal" in capsys.readouterr().err


def all_assignments(formula: Formula):
    for values in itertools.product((True, False), repeat=formula.variables):
        yield dict(zip(range(1, formula.variables + 1), values, strict=True))


# Edge cases of the construction: a tautological clause (both literal fans hold its c_i), a variable
# in no clause (a fan of one card), clauses of one to three literals, no clauses at all.
ODD_FORMULAS = [Formula(3, ((1, -1), (2, 3), (-2, -3), (-2, 3))), Formula(4, ((1, 2, 3), (-1,), (-3, 2))),
                Formula(2, ())]


@pytest.mark.parametrize("formula", ROUND_TRIP + THREE_SAT + ODD_FORMULAS, ids=_label)
def test_the_proofs_play_wins_exactly_for_satisfying_assignments(formula):
    """Every assignment of each formula: its play replays to a win iff it satisfies every clause."""
    deal = reduce_formula(formula)
    for assignment in all_assignments(formula):
        outcome = replay(deal, winning_sequence(formula, assignment))
        assert outcome.valid == formula.satisfied_by(assignment), (assignment, outcome.fault)


def reduced_file(tmp_path, formula: Formula):
    deal_file = tmp_path / "f.yaml"
    deal_file.write_text(write(reduce_formula(formula), meta(formula)))
    return deal_file


def test_via_formula_wins_and_prints_the_replayed_play(tmp_path, capsys):
    formula = Formula(2, ((1, 2), (-1, 2), (1, -2)))  # only a = b = true
    deal_file = reduced_file(tmp_path, formula)
    assert main(["decode", "assignment", str(deal_file), "--via-formula"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("s SATISFIABLE\nv 1 2 0\n")
    answer = tmp_path / "play.txt"
    answer.write_text(out.split("(replayed): ")[1])
    assert main(["decode", "assignment", str(deal_file), str(answer)]) == 0


def test_via_formula_refutes_with_the_theorem_named(tmp_path, capsys):
    deal_file = reduced_file(tmp_path, EVERY_CLAUSE)
    assert main(["decode", "assignment", str(deal_file), "--via-formula"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("s UNSATISFIABLE") and "reduction theorem" in out and "not searched" in out


def test_via_formula_refuses_a_deal_its_meta_does_not_describe(tmp_path, capsys):
    """A meta block over another deal must not lend that deal the formula's verdict."""
    formula = Formula(2, ((1, 2), (-1, 2), (1, -2)))
    deal_file = tmp_path / "f.yaml"
    deal_file.write_text(write(reduce_formula(EVERY_CLAUSE), meta(formula)))
    assert main(["decode", "assignment", str(deal_file), "--via-formula"]) == 2
    assert "not `patience reduce`'s deal" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [["--solver", "native"], ["answer.txt"]])
def test_via_formula_is_one_route_of_three(tmp_path, capsys, extra):
    deal_file = reduced_file(tmp_path, EVERY_CLAUSE)
    assert main(["decode", "assignment", str(deal_file), *extra, "--via-formula"]) == 2
    assert "give one of" in capsys.readouterr().err


@pytest.mark.parametrize("seed", range(4))
def test_via_formula_round_trips_20_variable_3sat(seed):
    """Random 3-SAT at ratio 4.26 over 20 variables (seeds 0-3: two satisfiable, two not): the formula route
    decides them where the searches of the deal time out."""
    rng = random.Random(seed)
    formula = random_formula(rng, 20, 85, (3,))
    result = solve_via_formula(reduce_formula(formula), formula, LIMITS, "f.yaml")
    assert result.status is (Status.SOLVED if pysat_says(formula) else Status.UNSOLVABLE)
    if result.sequence is not None:
        assert formula.satisfied_by(assignment_from_sequence(formula, result.sequence))
