"""Binary Star deals as XCSP3 instances, built with pycsp3: the model of `models/binary-star.eprime`.

Values are positions (`eprime/binary_star.py` Positions): x[i] the position played at step i and y its
inverse (channelled), f[i] the foundation, r[i] the rank, top[i*k + j] the rank on top of
foundation j after i plays, play[i] = x[i]*k + f[i] the variable a step the paper's static order
branches on (declared first, so `search=paper`'s lexicographic order takes it). The symmetry
breaking is the Essence Prime model's. pycsp3 keeps its model in global state, so (as in
`black_hole.py`) a fresh process builds each instance.
"""

from __future__ import annotations

import json
import sys

from patience.binary_star.deal import BinaryStarDeal
from patience.generators.analysis.binary_star import NO_POSITION, SYMMETRY_BREAKING, Positions, stats
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.xcsp3.common import compile_in_fresh_process, post_symmetry_breaking

INSTANCE_FILE = "binary-star.xml"
TITLE = "XCSP3 instance built with pycsp3 (ACE, Choco)"
OPTIONS = (SYMMETRY_BREAKING,)  # the Essence Prime model's, the same symmetry breaking
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


def model_data(deal: BinaryStarDeal, symmetry_breaking: bool) -> dict[str, object]:
    """Everything the pycsp3 model needs, as plain JSON data."""
    positions = Positions(deal)
    return {"n": positions.size, "k": positions.foundations, "ranks": deal.ranks,
            "start": positions.start_ranks, "piles": positions.pile_positions, "plays": positions.plays,
            "moves": [positions.moves(foundation) for foundation in range(positions.foundations)],
            "symmetry": positions.symmetry_pairs() if symmetry_breaking else [],
            "foundation_symmetry": symmetry_breaking}


def instance(deal: BinaryStarDeal, symmetry_breaking: bool = True) -> str:
    """The XCSP3 text of one deal, compiled by pycsp3 in a child process."""
    return compile_in_fresh_process(__name__, model_data(deal, symmetry_breaking), INSTANCE_FILE)


def build_from_stdin() -> None:
    """In the child process: read the model data, state the model in pycsp3, compile it."""
    import pycsp3 as csp

    data = json.load(sys.stdin)
    n, k = data["n"], data["k"]
    play = csp.VarArray(size=n, dom=range(n * k), id="play")
    x = csp.VarArray(size=n, dom=range(n), id="x")
    y = csp.VarArray(size=n, dom=range(n), id="y")
    f = csp.VarArray(size=n, dom=range(k), id="f")
    r = csp.VarArray(size=n, dom=range(data["ranks"]), id="r")
    top = csp.VarArray(size=(n + 1) * k, dom=range(data["ranks"]), id="top")
    plays = [tuple(row) for row in data["plays"]]
    moves = [[tuple(row) for row in table] for table in data["moves"]]
    csp.satisfy(
        [(play[i], x[i], f[i], r[i]) in plays for i in range(n)],
        csp.Channel(x, y) if n > 1 else [x[0] == 0, y[0] == 0],  # pycsp3 refuses a channel of one
        [top[j] == data["start"][j] for j in range(k)],
        [_move(f[i], top[i * k + j], r[i], top[(i + 1) * k + j], moves[j]) for i in range(n) for j in range(k)],
        [csp.Increasing([y[p] for p in pile], strict=True) for pile in data["piles"] if len(pile) > 1],
    )
    if data["foundation_symmetry"] and k > 1:
        csp.satisfy([csp.imply(top[i * k + j1] == top[i * k + j2], f[i] != j2)
                     for i in range(n) for j1 in range(k) for j2 in range(j1 + 1, k)])
    post_symmetry_breaking(y, data["symmetry"], NO_POSITION)
    csp.compile(INSTANCE_FILE, verbose=-1)


def _move(foundation, top, rank, top_after, table):
    """One foundation at one step: the table of its moves. A table is empty only for one foundation
    and one rank (no two ranks one apart): then no play exists, and since an empty table is no
    XCSP3, the constraint says that the play changes the top, which one rank cannot do."""
    return (foundation, top, rank, top_after) in table if table else top != top_after


def build(deal: BinaryStarDeal, symmetry_breaking: bool = True) -> ModelFiles:
    """binary-star.xml; the decode map reads the x and f values of a solution back into plays."""
    positions = Positions(deal)
    n, k = positions.size, positions.foundations

    def decode(output, source: str):
        x = [output.values.get(f"x[{step}]") for step in range(n)]
        f = [output.values.get(f"f[{step}]", 0 if k == 1 else None) for step in range(n)]
        return positions.decode(x, f, source, output.values_line)

    return ModelFiles({INSTANCE_FILE: instance(deal, symmetry_breaking)}, INSTANCE_FILE, decode,
                      stats(deal, symmetry_breaking),
                      {"play": n, "x": n, "y": n, "f": n, "r": n, "top": (n + 1) * k})
