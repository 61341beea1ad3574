"""What the CNF models of every game share: the file, PySAT's cardinality encodings, literals that
may be constants, a clause builder over a frozen pool of named variables, and the DIMACS text."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from patience.errors import UsageError, quote
from patience.generators.files import ModelFiles
from patience.options import Option, Switch

CNF_FILE = "deal.cnf"
CARDINALITY = {name: getattr(EncType, name) for name in
               ("seqcounter", "totalizer", "pairwise", "ladder", "cardnetwrk", "sortnetwrk", "mtotalizer",
                "kmtotalizer", "bitwise")}
DEFAULT_CARDINALITY = "seqcounter"
CARDINALITY_OPTION = Option("cardinality", DEFAULT_CARDINALITY, "PySAT encoding of the exactly-one constraints",
                            tuple(CARDINALITY))
# the successor encoding's own options (generators/cnf/successor.py)
SUCCESSOR_OPTIONS = (
    Switch("parity", "on", "fix the lowest bit of a card's place by its rank (even rank counts, with a foundation)"),
    Switch("windows", "on", "bound a card's place by its depth and the cards under it"),
)

Literal = int | bool  # True / False stand for constants that simplify clauses away


def cardinality_encoding(name: str) -> int:
    """PySAT's number for a cardinality encoding's name; a usage error for an unknown one."""
    if name not in CARDINALITY:
        raise UsageError(f"unknown cardinality encoding {quote(name)}; known: {', '.join(CARDINALITY)}")
    return CARDINALITY[name]


def simplified(clause: Iterable[Literal]) -> list[int] | None:
    """The clause without its false constants; None when a true constant satisfies it."""
    literals = []
    for literal in clause:
        if literal is True:
            return None
        if literal is not False:
            literals.append(literal)
    if not literals:
        raise ValueError("the encoding produced an empty clause")
    return literals


def negate(literal: Literal) -> Literal:
    return not literal if isinstance(literal, bool) else -literal


class ClauseBuilder:
    """Clauses over a pool whose variables are all made up front (then frozen), with constants
    simplified away as clauses are added."""

    def __init__(self) -> None:
        self.pool = IDPool()
        self.cnf = CNF()

    def var(self, *key: object) -> int:
        """The variable of a key made before freezing; a mistyped key is a bug, not a new variable."""
        if key not in self.pool.obj2id:
            raise KeyError(f"no SAT variable {key!r}")
        return self.pool.obj2id[key]

    def add(self, clause: Iterable[Literal]) -> None:
        literals = simplified(clause)
        if literals is not None:
            self.cnf.append(literals)

    def exactly_one(self, literals: list[int], encoding: int) -> None:
        self.cnf.extend(CardEnc.equals(literals, 1, vpool=self.pool, encoding=encoding).clauses)


def dimacs_text(comments: list[str], cnf: CNF) -> str:
    """The whole DIMACS file: the comment lines (each starting `c `), `p cnf`, the clauses."""
    lines = [*comments, f"p cnf {cnf.nv} {len(cnf.clauses)}"]
    lines += [" ".join(map(str, clause)) + " 0" for clause in cnf.clauses]
    return "\n".join(lines) + "\n"


def cnf_files(text: str, cnf: CNF, decode: Callable[..., tuple[Any, ...]],
              stats: Mapping[str, int | str] | None = None) -> ModelFiles:
    """deal.cnf with its decode map and its size."""
    return ModelFiles({CNF_FILE: text}, CNF_FILE, decode,
                      {"variables": cnf.nv, "clauses": len(cnf.clauses), **(stats or {})})
