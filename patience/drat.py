"""A DRAT proof checker (docs/certificates.md, SAT proofs): a SAT solver's proof that a CNF has no
model, checked forward with no code of any solver or SAT library.

Each added clause (a lemma) must be RUP: assigning its literals false and propagating the units of
the clauses held so far (two watched literals a clause) ends in a conflict; or else RAT on its first
literal p: every clause holding -p, with -p taken out and the lemma added, is RUP. A `d` line deletes a
clause held (deleting only makes the clauses fewer, so a proof stays sound), except a clause that is
the reason of a unit the clauses imply (as drat-trim does: solvers such as Glucose delete those, and
keeping a clause is sound too). The proof holds when it
adds the empty clause, RUP. Then the CNF has no model: each lemma keeps the clauses satisfiable if
they were, and the empty clause is not.
"""

from __future__ import annotations

from collections.abc import Iterable

Clause = list[int]
SHOWN_LITERALS = 20  # of a lemma a failure names: the first ones, then `...`


class ProofError(Exception):
    """The proof does not prove the CNF unsatisfiable: the message names the first step that fails."""


def parse_step(line: str, number: int) -> tuple[bool, Clause] | None:
    """One DRAT text line as (deleted?, literals); None for a blank or comment line; ValueError
    naming the line for anything else."""
    words = line.split()
    if not words or words[0] == "c":
        return None
    deleted = words[0] == "d"
    try:
        literals = [int(word) for word in words[deleted:]]
    except ValueError:
        raise ValueError(f"proof line {number}: not a DRAT step (numbers ending in 0)") from None
    if not literals or literals[-1] != 0 or 0 in literals[:-1]:
        raise ValueError(f"proof line {number}: a DRAT step is literals ending in one 0")
    return deleted, literals[:-1]


class Checker:
    """The clauses held, watched on their first two literals; units apart."""

    def __init__(self, clauses: Iterable[Clause]) -> None:
        self.clauses: list[Clause | None] = []
        self.watches: dict[int, list[int]] = {}
        self.units: list[int] = []  # indices of the clauses of one literal
        self.index: dict[tuple[int, ...], list[int]] = {}  # a clause's sorted literals -> its indices held
        self.value: dict[int, bool] = {}  # variable -> true/false while a check runs
        self.unsatisfiable = False  # an empty clause is held
        self.top: dict[int, bool] | None = None  # what the clauses' units imply, None until asked again
        for clause in clauses:
            self.add(clause)

    def add(self, literals: Clause) -> None:
        clause = list(dict.fromkeys(literals))
        if not clause:
            self.unsatisfiable = True
            return
        number = len(self.clauses)
        self.top = None
        self.clauses.append(clause)
        self.index.setdefault(tuple(sorted(clause)), []).append(number)
        if len(clause) == 1:
            self.units.append(number)
        else:
            self.watches.setdefault(clause[0], []).append(number)
            self.watches.setdefault(clause[1], []).append(number)

    def delete(self, literals: Clause) -> bool:
        """Forget one clause of these literals; False when none is held (the step deletes nothing)."""
        held = self.index.get(tuple(sorted(set(literals))))
        if not held:
            return False
        clause = self.clauses[held[-1]]
        if clause is not None and self.reason(clause):
            return True
        number = held.pop()
        self.top = None
        self.clauses[number] = None  # its watches are dropped when propagation meets them
        if clause is not None and len(clause) == 1:
            self.units.remove(number)
        return True

    def reason(self, clause: Clause) -> bool:
        """Whether `clause` has one literal the units imply true and every other false."""
        if self.top is None:
            self.rup([], keep=True)
        top = self.top or {}
        values = [top.get(abs(literal)) == (literal > 0) if abs(literal) in top else None for literal in clause]
        return values.count(True) == 1 and values.count(False) == len(clause) - 1

    def truth(self, literal: int) -> bool | None:
        value = self.value.get(abs(literal))
        return None if value is None else value == (literal > 0)

    def rup(self, falsified: Iterable[int], keep: bool = False) -> bool:
        """Whether assigning `falsified` false and propagating every unit ends in a conflict; `keep`:
        the assignment reached is kept as what the units imply."""
        trail: list[int] = []
        try:
            return self._conflict(falsified, trail)
        finally:
            if keep:
                self.top = dict(self.value)
            for literal in trail:
                del self.value[abs(literal)]

    def _conflict(self, falsified: Iterable[int], trail: list[int]) -> bool:
        value, clauses, watches = self.value, self.clauses, self.watches

        def assign(literal: int) -> bool:
            """Make `literal` true; True for a conflict (it is false already)."""
            current = self.truth(literal)
            if current is None:
                value[abs(literal)] = literal > 0
                trail.append(literal)
            return current is False

        if any(assign(-literal) for literal in falsified):
            return True
        for number in self.units:
            clause = clauses[number]
            if clause is not None and assign(clause[0]):
                return True
        head = 0
        while head < len(trail):
            false = -trail[head]
            head += 1
            watching = watches.get(false, [])
            kept: list[int] = []
            conflict = False
            for number in watching:
                clause = clauses[number]
                if clause is None or false not in clause[:2]:
                    continue  # deleted, or a stale watch of a clause watched elsewhere now
                if conflict:
                    kept.append(number)
                    continue
                if clause[0] == false:
                    clause[0], clause[1] = clause[1], clause[0]
                if self.truth(clause[0]) is True:
                    kept.append(number)
                    continue
                for other in range(2, len(clause)):
                    if self.truth(clause[other]) is not False:
                        clause[1], clause[other] = clause[other], clause[1]
                        watches.setdefault(clause[1], []).append(number)
                        break
                else:
                    kept.append(number)
                    if assign(clause[0]):
                        conflict = True
            watches[false] = kept
            if conflict:
                return True
        return False

    def rat(self, lemma: Clause) -> bool:
        """Whether `lemma` is RAT on its first literal against every clause held."""
        pivot = lemma[0]
        resolvents = [clause for clause in self.clauses if clause is not None and -pivot in clause]
        return all(self.rup([*lemma, *(literal for literal in clause if literal != -pivot)])
                   for clause in resolvents)


def check_proof(clauses: Iterable[Clause], steps: Iterable[str]) -> int:
    """Check the DRAT text `steps` (lines) against `clauses`; the number of lemmas added when the proof
    adds the empty clause; ProofError naming the first failing step; ValueError for a line that is
    no DRAT step."""
    checker = Checker(clauses)
    if checker.unsatisfiable:
        return 0
    lemmas = 0
    for number, line in enumerate(steps, 1):
        step = parse_step(line, number)
        if step is None:
            continue
        deleted, literals = step
        if deleted:
            checker.delete(literals)
            continue
        lemmas += 1
        if not checker.rup(literals) and not (literals and checker.rat(literals)):
            shown = " ".join(map(str, literals[:SHOWN_LITERALS])) + " ..." * (len(literals) > SHOWN_LITERALS)
            shown = shown or "the empty clause"  # (a lemma of a million literals is not quoted whole)
            raise ProofError(f"proof line {number}: lemma {shown} is neither RUP nor RAT")
        if not literals:
            return lemmas
        checker.add(literals)
    raise ProofError("the proof never adds the empty clause")
