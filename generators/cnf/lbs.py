"""Late Binding Solitaire as DIMACS CNF, with the decode map in `c` lines.

Variables (PySAT IDPool): top(t, p, k) "after t moves, pile p is topped by the deal's k-th card"
(p ranges over the n - t piles left) and move(t, i, s) "move t takes pile i onto pile i - s"
(s = 1 or 3). Exactly one move per step; a move needs its two tops to share suit or value (one
clause per clashing pair of cards); its effect copies every top to its new position in both
directions, so the first row fixes every later one. A model is the winning move list.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from patience.generators.cnf.common import cnf_files, dimacs_text
from patience.generators.files import ModelFiles, no_fixed_files
from patience.lbs.deal import LBSDeal
from patience.lbs.rules import STEPS, Move
from patience.syntax import comment

TITLE = "DIMACS CNF (the paper's SAT encoding)"
OPTIONS = ()
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


@dataclass(frozen=True)
class LbsEncoding:
    cnf: CNF
    moves: dict[int, tuple[int, Move]]  # variable -> (step, (source, target))

    def decode(self, true_variables: set[int]) -> tuple[Move, ...]:
        """The move list of a model (one true move variable per step)."""
        chosen = dict(self.moves[variable] for variable in true_variables if variable in self.moves)
        return tuple(chosen[step] for step in sorted(chosen))


def encode(deal: LBSDeal) -> LbsEncoding:
    n = len(deal.cards)
    pool, cnf = IDPool(), CNF()
    top = lambda t, p, k: pool.id(("top", t, p, k))  # noqa: E731 - the one name of the state variables
    for p, _ in enumerate(deal.cards, 1):
        cnf.append([top(0, p, p - 1)])
    clashes = [(a, b) for a in range(n) for b in range(n)
               if a != b and not deal.matches(deal.cards[a], deal.cards[b])]
    moves: dict[int, tuple[int, Move]] = {}
    for t in range(1, n):
        piles = n - t + 1  # before move t
        step_moves = []
        for source in range(2, piles + 1):
            for step in STEPS:
                target = source - step
                if target < 1:
                    continue
                move = pool.id(("move", t, source, step))
                moves[move] = (t, (source, target))
                step_moves.append(move)
                for a, b in clashes:
                    cnf.append([-move, -top(t - 1, source, a), -top(t - 1, target, b)])
                for q in range(1, piles):
                    origin = source if q == target else (q if q < source else q + 1)
                    for k in range(n):
                        cnf.append([-move, -top(t - 1, origin, k), top(t, q, k)])
                        cnf.append([-move, top(t - 1, origin, k), -top(t, q, k)])
        cnf.extend(CardEnc.equals(step_moves, 1, vpool=pool, encoding=EncType.seqcounter).clauses)
    return LbsEncoding(cnf, moves)


def dimacs(deal: LBSDeal, encoding: LbsEncoding) -> str:
    named = f"LBS deal {deal.name} cards" if deal.name else "LBS deal cards"
    comments = [comment("cnf", f"{named} {' '.join(map(str, deal.cards))}"),
                "c move variables: c move VAR STEP SOURCE TARGET (1-based positions)"]
    comments += [f"c move {variable} {step} {source} {target}"
                 for variable, (step, (source, target)) in sorted(encoding.moves.items())]
    return dimacs_text(comments, encoding.cnf)


def formula(deal: LBSDeal) -> LbsEncoding:
    """The clauses and their decode map, for solvers that take the formula in memory."""
    return encode(deal)


def build(deal: LBSDeal) -> ModelFiles:
    """deal.cnf; the decode map reads a model's true move variables back into moves."""
    encoding = encode(deal)
    return cnf_files(dimacs(deal, encoding), encoding.cnf, encoding.decode)
