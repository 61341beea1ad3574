"""The NP-completeness construction of Gent et al.: a CNF formula as a generalised Black Hole deal,
and a won game of that deal back as a satisfying assignment.

Ranks, in the proof's cyclic order: sf = 0, variable v = v (1..V), clause i's card c_i = V+2i-1
and gate g_i = V+2i, then the traps o1 o2 o3. Suits: a literal card is suit 0 when true, suit 1
when false; the c_i of the literal fans take suits 0..|C_i|-1 in the order the clause lists its
literals, the gate fan's c_i suit |C_i|; the gate fan's g_i are suits 0..|C_i| from top to bottom;
sf has three suits (0 in the hole), o1, o2, o3 two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from patience.caps import MAX_CARDS, MAX_CNF_CLAUSES, MAX_CNF_VARIABLES, MAX_PILES, MAX_RANKS, MAX_SUITS
from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.numeric import whole_value
from patience.reading import at_most, load_yaml, numbered_lines, small_int

TRUE_SUIT, FALSE_SUIT = 0, 1
START_RANK = 0


@dataclass(frozen=True)
class Formula:
    """A CNF formula: variables 1..variables, clauses as tuples of non-zero literals."""

    variables: int
    clauses: tuple[tuple[int, ...], ...]

    def satisfied_by(self, assignment: dict[int, bool]) -> bool:
        return all(any(assignment.get(abs(literal)) == (literal > 0) for literal in clause)
                   for clause in self.clauses)


def read_formula(text: str, source: str) -> Formula:
    """Read DIMACS CNF: comments, one `p cnf V C` line, clauses ending in 0 (across lines)."""
    header: tuple[int, int] | None = None  # (variables, clauses) of the `p` line
    clauses: list[tuple[int, ...]] = []
    current: list[int] = []
    line_of_clause = 0
    for number, line in numbered_lines(text):
        words = line.split()
        if not words or words[0] == "c" or line.startswith("c") or words[0] == "%":
            continue
        if words[0] == "p":
            if header is not None:
                raise InputError(source, number, "a second `p` line")
            shaped = len(words) == 4 and words[1] == "cnf"
            variables, count = (small_int(words[2]), small_int(words[3])) if shaped else (None, None)
            if variables is None or count is None or min(variables, count) < 0:
                raise InputError(source, number, "expected `p cnf VARIABLES CLAUSES`")
            at_most(variables, MAX_CNF_VARIABLES, "variables", source, number)
            at_most(count, MAX_CNF_CLAUSES, "clauses", source, number)
            check_reducible(variables, [()] * count, source, number)
            header = (variables, count)
            continue
        if header is None:
            raise InputError(source, number, "a clause before the `p cnf` line")
        for word in words:
            literal = small_int(word)
            if literal is None:
                raise InputError(source, number, f"not a literal: {quote(word)}")
            if abs(literal) > header[0]:
                raise InputError(source, number, f"literal {literal} names a variable beyond {header[0]}")
            if literal == 0:
                if not current:
                    raise InputError(source, number, "an empty clause (the reduction needs a literal in each)")
                clauses.append(tuple(dict.fromkeys(current)))
                current = []
                at_most(len(clauses), header[1], "clauses (the `p` line's count)", source, number)
            else:
                line_of_clause = line_of_clause if current else number
                current.append(literal)
                at_most(len(current), MAX_SUITS - 1, "literals in one clause", source, number)
    if header is None:
        raise InputError(source, 1, "no `p cnf VARIABLES CLAUSES` line")
    if current:
        raise InputError(source, line_of_clause, "the last clause does not end in 0")
    if len(clauses) != header[1]:
        raise InputError(source, None, f"the `p` line announces {header[1]} clauses, the file has {len(clauses)}")
    check_reducible(header[0], clauses, source, None)
    return Formula(header[0], tuple(clauses))


def check_reducible(variables: int, clauses: Sequence[Sequence[int]], source: str, line: int | None) -> None:
    """Refuse a formula whose deal (`reduce_formula`) would pass a deal cap: 2V + C + 1 piles,
    V + 2C + 4 ranks and 2V + 2L + 2C + 9 cards for V variables, C clauses and L literals."""
    literals = sum(map(len, clauses))
    at_most(2 * variables + len(clauses) + 1, MAX_PILES, "piles of the reduced deal (2V + C + 1)", source, line)
    at_most(variables + 2 * len(clauses) + 4, MAX_RANKS, "ranks of the reduced deal (V + 2C + 4)", source, line)
    at_most(2 * (variables + literals + len(clauses)) + 9, MAX_CARDS, "cards of the reduced deal (2V + 2L + 2C + 9)",
            source, line)


def literal_card(formula: Formula, literal: int) -> Card:
    return Card(abs(literal), TRUE_SUIT if literal > 0 else FALSE_SUIT)


def clause_rank(formula: Formula, index: int) -> int:
    """Rank of c_i for clause index i = 0..n-1 (g_i is one more)."""
    return formula.variables + 2 * index + 1


def trap_ranks(formula: Formula) -> tuple[int, int, int]:
    first = formula.variables + 2 * len(formula.clauses) + 1
    return first, first + 1, first + 2


def reduce_formula(formula: Formula) -> Deal:
    """The deal of the proof: solvable iff `formula` is satisfiable."""
    literal_fans: dict[int, list[Card]] = {}
    for variable in range(1, formula.variables + 1):
        for literal in (variable, -variable):
            literal_fans[literal] = [literal_card(formula, literal)]
    gate_fans = []
    for index, clause in enumerate(formula.clauses):
        clause_card, gate = clause_rank(formula, index), clause_rank(formula, index) + 1
        for suit, literal in enumerate(clause):
            literal_fans[literal].append(Card(clause_card, suit))
        size = len(clause)
        gate_fans.append([Card(gate, suit) for suit in range(size)] + [Card(clause_card, size), Card(gate, size)])
    o1, o2, o3 = trap_ranks(formula)
    trap = [Card(o1, 0), Card(o2, 0), Card(o3, 0), Card(START_RANK, 1),
            Card(o1, 1), Card(o2, 1), Card(o3, 1), Card(START_RANK, 2)]
    piles = [tuple(fan) for fan in literal_fans.values()] + [tuple(fan) for fan in gate_fans] + [tuple(trap)]
    return Deal(tuple(piles), Card(START_RANK, 0), o3 + 1)


def meta(formula: Formula) -> dict[str, object]:
    """Labels `decode` needs to read a won game back as an assignment (stored in the YAML deal)."""
    return {
        "reduction": "SAT to generalised Black Hole (Gent et al., NP-completeness proof)",
        "variables": formula.variables,
        "variable_ranks": "rank v is variable v",
        "true_suit": TRUE_SUIT,
        "false_suit": FALSE_SUIT,
        "trap_ranks": list(trap_ranks(formula)),
        "clauses": [list(clause) for clause in formula.clauses],
    }


def formula_from_meta(text: str, source: str) -> Formula:
    """The formula a reduced deal's `meta` block records; InputError if it has none."""
    try:
        document = load_yaml(text, source)
    except InputError:
        document = None  # board text or another deal form: no meta block
    block = document.get("meta") if isinstance(document, dict) else None
    if not isinstance(block, dict) or "variables" not in block or not isinstance(block.get("clauses"), list):
        raise InputError(source, None, "not a reduced deal: no `meta` with variables and clauses "
                                       "(made by `patience reduce`)")
    variables = whole_value(block["variables"], "meta variables", 0, MAX_CNF_VARIABLES, source, None)
    at_most(len(block["clauses"]), MAX_CNF_CLAUSES, "meta clauses", source, None)
    clauses = []
    for clause in block["clauses"]:
        if not isinstance(clause, list) or not clause:
            raise InputError(source, None, "meta clauses must be non-empty lists of literals")
        literals = [whole_value(literal, "a meta literal", -variables, variables, source, None) for literal in clause]
        if 0 in literals or len(set(literals)) != len(literals):
            raise InputError(source, None, "a meta clause holds 0 or a literal twice")
        clauses.append(tuple(literals))
    check_reducible(variables, clauses, source, None)
    return Formula(variables, tuple(clauses))


def assignment_from_sequence(formula: Formula, sequence: tuple[Card, ...]) -> dict[int, bool]:
    """The literal cards played before the first o1: one per variable in any won game."""
    first_trap = trap_ranks(formula)[0]
    assignment: dict[int, bool] = {}
    for card in sequence:
        if card.rank == first_trap:
            break
        if 1 <= card.rank <= formula.variables:
            assignment.setdefault(card.rank, card.suit == TRUE_SUIT)
    return assignment


def dimacs_assignment(formula: Formula, assignment: dict[int, bool]) -> str:
    """`s SATISFIABLE` and a `v ... 0` line, variables in order."""
    literals = [variable if assignment.get(variable, False) else -variable
                for variable in range(1, formula.variables + 1)]
    return "s SATISFIABLE\nv " + " ".join(map(str, [*literals, 0])) + "\n"


def winning_sequence(formula: Formula, assignment: dict[int, bool]) -> tuple[Card, ...]:
    """The proof's constructive direction: the play of the reduced deal that an assignment dictates.

    Two passes round the ranks. The first plays sf's successor literal of each variable (the
    assignment's), then for each clause i in turn every c_i its true literals' fans expose, each
    followed by the next g_i off the top of the gate fan, then o1 o2 o3 sf from the trap fan. The
    second plays the other literals, the c_i left in their fans (each with the next top g_i), then
    the gate fan's own c_i and bottom g_i, then o1 o2 o3 sf again. Clause i's step of the first pass
    needs a c_i to follow g_{i-1} (or the last variable), so the play wins exactly when the
    assignment satisfies every clause; callers replay it rather than trust this argument.
    A variable the assignment omits is taken as true.
    """
    chosen = [variable if assignment.get(variable, True) else -variable
              for variable in range(1, formula.variables + 1)]
    sequence: list[Card] = []
    for first_pass in (True, False):
        literals = set(chosen) if first_pass else {-literal for literal in chosen}
        sequence += [literal_card(formula, literal) for literal in sorted(literals, key=abs)]
        for index, clause in enumerate(formula.clauses):
            clause_card, gate = clause_rank(formula, index), clause_rank(formula, index) + 1
            gates_taken = 0 if first_pass else sum(literal in chosen for literal in clause)
            for suit, literal in enumerate(clause):
                if literal in literals:
                    sequence += [Card(clause_card, suit), Card(gate, gates_taken)]
                    gates_taken += 1
            if not first_pass:
                sequence += [Card(clause_card, len(clause)), Card(gate, len(clause))]
        trap_suit = 0 if first_pass else 1
        sequence += [Card(rank, trap_suit) for rank in trap_ranks(formula)]
        sequence.append(Card(START_RANK, trap_suit + 1))
    return tuple(sequence)
