"""Late Binding Solitaire as an XCSP3 instance, built with pycsp3.

Variables: m[t] picks move t+1 from that step's list of (source, target) moves; top[t*n + p - 1] is
the top card of pile p after t moves (-1 beyond the row). A table per move allows it only on
matching tops; implications copy the row into its next state. pycsp3 compiles whatever model is in
its global state at interpreter exit, so (as in generators/xcsp3/black_hole.py) a fresh process builds it.
"""

from __future__ import annotations

import json
import sys

from patience.errors import InputError
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.xcsp3.common import compile_in_fresh_process
from patience.lbs.deal import LBSDeal
from patience.lbs.rules import STEPS, Move

INSTANCE_FILE = "lbs.xml"
TITLE = "XCSP3 instance built with pycsp3 (ACE, Choco)"
OPTIONS = ()
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


def step_moves(n: int, step: int) -> list[Move]:
    """The (source, target) moves that exist at move `step` (1-based), in the model's value order."""
    piles = n - step + 1
    return [(source, source - jump) for source in range(2, piles + 1) for jump in STEPS if source - jump >= 1]


def model_data(deal: LBSDeal) -> dict[str, object]:
    n = len(deal.cards)
    return {"cards": list(deal.cards), "moves": [step_moves(n, step) for step in range(1, n)],
            "matching": [[a, b] for a in deal.cards for b in deal.cards if a != b and deal.matches(a, b)]}


def instance(deal: LBSDeal) -> str:
    """The XCSP3 text of one LBS deal, compiled by pycsp3 in a child process."""
    return compile_in_fresh_process(__name__, model_data(deal), INSTANCE_FILE)


def decode(deal: LBSDeal, values: dict[str, int]) -> tuple[Move, ...] | None:
    """The moves of a solution's m values; None if one is missing or out of range."""
    n = len(deal.cards)
    moves = []
    for step in range(1, n):
        choice, options = values.get(f"m[{step - 1}]"), step_moves(n, step)
        if choice is None or not 0 <= choice < len(options):
            return None
        moves.append(options[choice])
    return tuple(moves)


def build_from_stdin() -> None:
    """In the child process: state the model in pycsp3 and compile it."""
    import pycsp3 as csp

    data = json.load(sys.stdin)
    cards, moves, matching = data["cards"], data["moves"], [tuple(pair) for pair in data["matching"]]
    n = len(cards)
    top = csp.VarArray(size=n * n, dom={-1, *cards}, id="top")
    m = csp.VarArray(size=max(n - 1, 1), dom=lambda t: range(len(moves[t]) if t < len(moves) else 1), id="m")
    csp.satisfy([top[p] == cards[p] for p in range(n)])
    for t in range(1, n):
        piles = n - t + 1
        csp.satisfy([top[t * n + p] == -1 for p in range(piles - 1, n)])
        for choice, (source, target) in enumerate(moves[t - 1]):
            allowed = [(other, csp.ANY, csp.ANY) for other in range(len(moves[t - 1])) if other != choice]
            allowed += [(choice, a, b) for a, b in matching]
            if allowed:
                csp.satisfy((m[t - 1], top[(t - 1) * n + source - 1], top[(t - 1) * n + target - 1]) in allowed)
            else:  # the only move, and no two cards of the deal match: an empty table is no XCSP3
                csp.satisfy(m[t - 1] != choice)
            for q in range(1, piles):
                origin = source if q == target else (q if q < source else q + 1)
                csp.satisfy(csp.imply(m[t - 1] == choice, top[t * n + q - 1] == top[(t - 1) * n + origin - 1]))
    csp.compile(INSTANCE_FILE, verbose=-1)


def build(deal: LBSDeal) -> ModelFiles:
    """lbs.xml; the decode map reads the m values of a solution back into moves."""
    n = len(deal.cards)

    def decode_output(output, source: str) -> tuple[Move, ...]:
        moves = decode(deal, output.values)
        if moves is None:
            raise InputError(source, output.values_line, "the solution has no value for some move m[t]")
        return moves

    return ModelFiles({INSTANCE_FILE: instance(deal)}, INSTANCE_FILE, decode_output,
                      arrays={"m": max(n - 1, 1), "top": n * n})
