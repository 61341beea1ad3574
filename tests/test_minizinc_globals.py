"""Every global constraint a student's MiniZinc model may use compiles and solves with the MiniZinc
that setup.sh installs (Debian's 2.6.4 and Gecode 6.2, through the project's library for it when
that is what runs here), included through "globals.mzn" or through the global's own file; each
solution is checked against the global's definition, written here in Python; and the globals
Gecode 6.2 has a propagator for reach it.

By default all the globals share one model (one MiniZinc run for each way of including them);
the slow set runs each global alone, both ways, so that a failure names its global."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from patience.generators.deals import random_deal
from patience.generators.mzn import black_hole
from patience.generators.mzn.solution import read_output
from patience.runners.minizinc import GECODE_ID, MiniZinc, failure_of, needs_own_gecode_library, solver_argument
from patience.runs.process import Limits, run_process
from tests.helpers import needs_solver

pytestmark = needs_solver("minizinc")
Values = Mapping[str, Any]


@dataclass(frozen=True)
class Part:
    """One global's piece of a model: the file that defines it, its variables and constraints, and
    the check of a solution's values against the global's definition."""

    name: str
    file: str
    model: str
    holds: Callable[[Values], bool]


def as_set(value: Any) -> set[int]:
    """A set as MiniZinc's JSON writes it: {"set": [[low, high], value, ...]}."""
    found: set[int] = set()
    for item in value["set"]:
        found.update(range(item[0], item[1] + 1) if isinstance(item, list) else (item,))
    return found


def distinct(values: Sequence[int]) -> bool:
    return len(set(values)) == len(values)


def first_max(values: Sequence[int]) -> int:
    return values.index(max(values)) + 1


def first_min(values: Sequence[int]) -> int:
    return values.index(min(values)) + 1


def loads(bins: Sequence[int], weights: Sequence[int], count: int, first: int = 1) -> list[int]:
    return [sum(w for b, w in zip(bins, weights, strict=True) if b == number) for number in range(first, first + count)]


def one_circuit(successor: Sequence[int]) -> bool:
    """x[i] = j: j follows i, all of 1..n in one cycle."""
    seen, at = set(), 1
    for _ in successor:
        seen.add(at)
        at = successor[at - 1]
    return at == 1 and len(seen) == len(successor)


def one_subcircuit(successor: Sequence[int]) -> bool:
    """Those i with x[i] != i form one cycle (or none moves at all)."""
    moving = [i for i, j in enumerate(successor, 1) if i != j]
    if not moving:
        return True
    seen, at = set(), moving[0]
    while at not in seen:
        seen.add(at)
        at = successor[at - 1]
    return at == moving[0] and seen == set(moving)


def peak(starts: Sequence[int], durations: Sequence[int], uses: Sequence[int]) -> int:
    horizon = max(s + d for s, d in zip(starts, durations, strict=True))
    return max(sum(u for s, d, u in zip(starts, durations, uses, strict=True) if s <= t < s + d)
               for t in range(horizon + 1))


def present(starts: Sequence[int | None], durations: Sequence[int], uses: Sequence[int]) -> list[list[int]]:
    """The starts, durations and uses of the optional tasks that occur (MiniZinc writes an absent one null)."""
    kept = [(s, d, u) for s, d, u in zip(starts, durations, uses, strict=True) if s is not None]
    return [[task[k] for task in kept] for k in range(3)]


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Strict reading (MiniZinc's diffn): an empty rectangle still may not lie inside another."""
    (ax, ay, aw, ah), (bx, by, bw, bh) = a, b
    return not (ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay)


def tasks_apart(starts: Sequence[int], durations: Sequence[int], strict: bool) -> bool:
    pairs = [(i, j) for i in range(len(starts)) for j in range(i + 1, len(starts))]
    return all((not strict and 0 in (durations[i], durations[j])) or starts[i] + durations[i] <= starts[j]
               or starts[j] + durations[j] <= starts[i] for i, j in pairs)


def rectangles(v: Values, prefix: str, widths: Sequence[int], heights: Sequence[int]) -> list[tuple[int, ...]]:
    return list(zip(v[f"{prefix}_x"], v[f"{prefix}_y"], widths, heights, strict=True))


def accepted(word: Sequence[int], table: Sequence[Sequence[int]], start: int, final: set[int]) -> bool:
    state = start
    for letter in word:
        state = table[state - 1][letter - 1]
        if state == 0:
            return False
    return state in final


def precedes(values: Sequence[int], s: int, t: int) -> bool:
    return t not in values or (s in values and values.index(s) < values.index(t))


REGULAR = ((2, 1), (2, 3), (0, 3))  # letters 1, 2: a 1 then a 2, and no 1 after them
PARTS = (
    Part("all_different", "all_different.mzn",
         "array[1..4] of var 1..4: ad; constraint all_different(ad) /\\ ad[1] = 3;",
         lambda v: distinct(v["ad"]) and v["ad"][0] == 3),
    Part("alldifferent_except_0", "alldifferent_except_0.mzn",
         "array[1..5] of var 0..3: ae0; constraint alldifferent_except_0(ae0) /\\ sum(i in 1..5)(ae0[i] = 0) = 2;",
         lambda v: distinct([x for x in v["ae0"] if x]) and v["ae0"].count(0) == 2),
    Part("alldifferent_except", "alldifferent_except.mzn",
         "array[1..4] of var 1..4: aex; constraint alldifferent_except(aex, {4}) /\\ aex[1] = 4 /\\ aex[2] = 4;",
         lambda v: distinct([x for x in v["aex"] if x != 4]) and v["aex"][:2] == [4, 4]),
    Part("all_equal", "all_equal.mzn",
         "array[1..3] of var 1..5: aeq; constraint all_equal(aeq) /\\ aeq[2] >= 4;",
         lambda v: len(set(v["aeq"])) == 1 and v["aeq"][0] >= 4),
    Part("among", "among.mzn",
         "array[1..5] of var 1..5: am; constraint among(3, am, {2, 3});",
         lambda v: sum(x in (2, 3) for x in v["am"]) == 3),
    Part("arg_max", "arg_max.mzn",
         "array[1..4] of var 0..5: amx; constraint arg_max(amx) = 3 /\\ amx[1] = 4;",
         lambda v: first_max(v["amx"]) == 3 and v["amx"][0] == 4),
    Part("arg_min", "arg_min.mzn",
         "array[1..4] of var 0..5: amn; constraint arg_min(amn) = 2 /\\ amn[1] = 1;",
         lambda v: first_min(v["amn"]) == 2 and v["amn"][0] == 1),
    Part("bin_packing_load", "bin_packing_load.mzn",
         "array[1..3] of var 0..10: bpl_load; array[1..4] of var 1..3: bpl;\n"
         "constraint bin_packing_load(bpl_load, bpl, [3, 4, 2, 1]) /\\ bpl_load[1] = 7 /\\ bpl_load[2] = 0;",
         lambda v: v["bpl_load"] == loads(v["bpl"], [3, 4, 2, 1], 3) and v["bpl_load"][:2] == [7, 0]),
    Part("bin_packing_capa", "bin_packing_capa.mzn",
         "array[1..4] of var 1..3: bpc; constraint bin_packing_capa([4, 5, 1], bpc, [3, 4, 2, 1]);",
         lambda v: all(load <= cap for load, cap in zip(loads(v["bpc"], [3, 4, 2, 1], 3), [4, 5, 1], strict=True))),
    Part("bin_packing", "bin_packing.mzn",
         "array[1..4] of var 1..3: bp; constraint bin_packing(4, bp, [3, 2, 2, 4]);",
         lambda v: max(loads(v["bp"], [3, 2, 2, 4], 3)) <= 4),
    Part("circuit", "circuit.mzn",
         "array[1..5] of var 1..5: ci; constraint circuit(ci) /\\ ci[1] = 3;",
         lambda v: one_circuit(v["ci"]) and v["ci"][0] == 3),
    Part("subcircuit", "subcircuit.mzn",
         "array[1..4] of var 1..4: sc; constraint subcircuit(sc) /\\ sc[1] = 3 /\\ sc[2] = 2;",
         lambda v: one_subcircuit(v["sc"]) and v["sc"][:2] == [3, 2]),
    Part("count", "count.mzn",
         "array[1..5] of var 1..3: co; var 0..5: co_c; constraint count(co, 2, co_c) /\\ co_c = 3 /\\ co[1] = 1;",
         lambda v: v["co"].count(2) == 3 == v["co_c"] and v["co"][0] == 1),
    Part("count function", "count_fn.mzn",
         "array[1..4] of var 1..2: cf; constraint count(cf, 1) = 3 /\\ cf[1] = 2;",
         lambda v: v["cf"].count(1) == 3),
    Part("cumulative", "cumulative.mzn",
         "array[1..4] of var 0..6: cu; constraint cumulative(cu, [2, 3, 1, 2], [2, 1, 2, 1], 3);\n"
         "constraint forall(i in 1..4)(cu[i] + [2, 3, 1, 2][i] <= 4);",
         lambda v: peak(v["cu"], [2, 3, 1, 2], [2, 1, 2, 1]) <= 3
         and all(s + d <= 4 for s, d in zip(v["cu"], [2, 3, 1, 2], strict=True))),
    Part("cumulative, optional tasks", "cumulative_opt.mzn",
         "array[1..3] of var opt 0..4: cuo; constraint cumulative(cuo, [2, 2, 2], [2, 2, 1], 3);\n"
         "constraint occurs(cuo[1]) /\\ occurs(cuo[2]) /\\ forall(i in 1..3)(occurs(cuo[i]) -> deopt(cuo[i]) <= 2);",
         lambda v: None not in v["cuo"][:2] and peak(*present(v["cuo"], [2, 2, 2], [2, 2, 1])) <= 3),
    Part("disjunctive_strict, optional tasks", "disjunctive_strict_opt.mzn",
         "array[1..3] of var opt 0..3: dso; constraint disjunctive_strict(dso, [2, 2, 2]);\n"
         "constraint occurs(dso[1]) /\\ occurs(dso[2]) /\\ forall(i in 1..3)(occurs(dso[i]) -> deopt(dso[i]) <= 2);",
         lambda v: v["dso"][2] is None and tasks_apart(v["dso"][:2], [2, 2], strict=True)),
    Part("decreasing", "decreasing.mzn",
         "array[1..4] of var 1..4: de; constraint decreasing(de) /\\ de[1] = 3 /\\ de[4] = 2;",
         lambda v: all(a >= b for a, b in pairwise(v["de"])) and v["de"][0] == 3 and v["de"][3] == 2),
    Part("increasing", "increasing.mzn",
         "array[1..4] of var 1..4: inc; constraint increasing(inc) /\\ inc[2] = 3;",
         lambda v: all(a <= b for a, b in pairwise(v["inc"])) and v["inc"][1] == 3),
    Part("strictly_increasing", "strictly_increasing.mzn",
         "array[1..4] of var 1..4: sinc; constraint strictly_increasing(sinc);",
         lambda v: v["sinc"] == [1, 2, 3, 4]),
    Part("diffn", "diffn.mzn",
         "array[1..3] of var 0..3: dn_x; array[1..3] of var 0..3: dn_y;\n"
         "constraint diffn(dn_x, dn_y, [2, 2, 1], [2, 1, 2]);\n"
         "constraint forall(i in 1..3)(dn_x[i] + [2, 2, 1][i] <= 3 /\\ dn_y[i] + [2, 1, 2][i] <= 3);",
         lambda v: not any(overlap(a, b) for a, b in pairwise(rectangles(v, "dn", [2, 2, 1], [2, 1, 2])))
         and not overlap(*rectangles(v, "dn", [2, 2, 1], [2, 1, 2])[::2])),
    Part("diffn with an empty rectangle", "diffn.mzn",  # strict: the empty one may not lie inside the other
         "array[1..2] of var 0..3: dz_x; array[1..2] of var 0..3: dz_y; constraint diffn(dz_x, dz_y, [2, 0], [2, 1]);\n"
         "constraint dz_x[1] = 0 /\\ dz_y[1] = 0 /\\ dz_x[2] = 1;",
         lambda v: not overlap(*rectangles(v, "dz", [2, 0], [2, 1]))),
    Part("diffn_nonstrict", "diffn_nonstrict.mzn",
         "array[1..3] of var 0..2: dns_x; array[1..3] of var 0..2: dns_y;\n"
         "constraint diffn_nonstrict(dns_x, dns_y, [2, 0, 1], [2, 2, 2]) /\\ dns_x[1] = 0 /\\ dns_y[1] = 0;",
         lambda v: not overlap(*[r for r in rectangles(v, "dns", [2, 0, 1], [2, 2, 2]) if r[2]])),
    Part("disjunctive", "disjunctive.mzn",
         "array[1..3] of var 0..5: dj; constraint disjunctive(dj, [2, 0, 3]);\n"
         "constraint forall(i in 1..3)(dj[i] + [2, 0, 3][i] <= 5);",
         lambda v: tasks_apart(v["dj"], [2, 0, 3], strict=False)),
    Part("disjunctive_strict", "disjunctive_strict.mzn",
         "array[1..3] of var 0..4: djs; constraint disjunctive_strict(djs, [2, 1, 2]);\n"
         "constraint forall(i in 1..3)(djs[i] + [2, 1, 2][i] <= 5);",
         lambda v: tasks_apart(v["djs"], [2, 1, 2], strict=True)),
    Part("global_cardinality", "global_cardinality.mzn",
         "array[1..5] of var 1..4: gc; array[1..2] of var 0..5: gc_c;\n"
         "constraint global_cardinality(gc, [1, 2], gc_c) /\\ gc_c[1] = 2 /\\ gc_c[2] = 0 /\\ gc[1] = 3;",
         lambda v: [v["gc"].count(1), v["gc"].count(2)] == v["gc_c"] == [2, 0]),
    Part("global_cardinality_closed", "global_cardinality_closed.mzn",
         "array[1..4] of var 1..5: gcc; array[1..2] of var 0..4: gcc_c;\n"
         "constraint global_cardinality_closed(gcc, [2, 4], gcc_c) /\\ gcc_c[1] = 1;",
         lambda v: set(v["gcc"]) <= {2, 4} and [v["gcc"].count(2), v["gcc"].count(4)] == v["gcc_c"]),
    Part("global_cardinality with bounds", "global_cardinality.mzn",
         "array[1..5] of var 1..3: gclu; constraint global_cardinality(gclu, [1, 2], [2, 1], [3, 1]);",
         lambda v: 2 <= v["gclu"].count(1) <= 3 and v["gclu"].count(2) == 1),
    Part("global_cardinality_closed with bounds", "global_cardinality_closed.mzn",
         "array[1..4] of var 1..5: gcclu; constraint global_cardinality_closed(gcclu, [1, 5], [1, 1], [3, 3]);",
         lambda v: set(v["gcclu"]) <= {1, 5} and 1 <= v["gcclu"].count(1) <= 3 and 1 <= v["gcclu"].count(5) <= 3),
    Part("distribute", "distribute.mzn",
         "array[1..2] of var 0..4: di_c; array[1..4] of var 1..3: di; constraint distribute(di_c, [1, 2], di);\n"
         "constraint di_c[1] = 2 /\\ di_c[2] = 1;",
         lambda v: [v["di"].count(1), v["di"].count(2)] == v["di_c"] == [2, 1]),
    Part("inverse", "inverse.mzn",
         "array[1..4] of var 1..4: inv_f; array[1..4] of var 1..4: inv_g;\n"
         "constraint inverse(inv_f, inv_g) /\\ inv_f[1] = 2 /\\ inv_g[1] = 3;",
         lambda v: all(v["inv_g"][f - 1] == i for i, f in enumerate(v["inv_f"], 1)) and v["inv_g"][0] == 3),
    Part("symmetric_all_different", "symmetric_all_different.mzn",
         "array[1..4] of var 1..4: sad; constraint symmetric_all_different(sad) /\\ sad[1] = 3;",
         lambda v: distinct(v["sad"]) and all(v["sad"][x - 1] == i for i, x in enumerate(v["sad"], 1))),
    Part("lex_less", "lex_less.mzn",
         "array[1..3] of var 0..2: ll_x; array[1..3] of var 0..2: ll_y;\n"
         "constraint lex_less(ll_x, ll_y) /\\ ll_y[1] = 0 /\\ ll_y[2] = 0;",
         lambda v: v["ll_x"] < v["ll_y"]),
    Part("lex_lesseq", "lex_lesseq.mzn",
         "array[1..3] of var bool: lle_x; array[1..3] of var bool: lle_y;\n"
         "constraint lex_lesseq(lle_x, lle_y) /\\ lle_x[1] /\\ not lle_y[3];",
         lambda v: v["lle_x"] <= v["lle_y"] and v["lle_x"][0]),
    Part("maximum", "maximum.mzn",
         "var 0..9: mx; array[1..3] of var 2..6: mx_x; constraint maximum(mx, mx_x) /\\ mx = 4 /\\ mx_x[1] = 2;",
         lambda v: max(v["mx_x"]) == v["mx"] == 4),
    Part("minimum", "minimum.mzn",
         "var 0..9: mn; array[1..3] of var 2..6: mn_x; constraint minimum(mn, mn_x) /\\ mn = 5;",
         lambda v: min(v["mn_x"]) == v["mn"] == 5),
    Part("member", "member.mzn",
         "array[1..3] of var 1..5: me; constraint member(me, 4) /\\ me[1] != 4 /\\ me[2] != 4;",
         lambda v: 4 in v["me"]),
    Part("nvalue", "nvalue.mzn",
         "array[1..5] of var 1..5: nv; constraint nvalue(2, nv) /\\ nv[1] = 3;",
         lambda v: len(set(v["nv"])) == 2),
    Part("regular", "regular.mzn",
         "array[1..4] of var 1..2: re;\n"
         f"constraint regular(re, 3, 2, [|{'|'.join(', '.join(map(str, row)) for row in REGULAR)}|], 1, {{3}});\n"
         "constraint re[4] = 2 /\\ re[1] = 2;",
         lambda v: accepted(v["re"], REGULAR, 1, {3})),
    Part("sort", "sort.mzn",
         "array[1..4] of var 1..5: so_x; array[1..4] of var 1..5: so_y;\n"
         "constraint sort(so_x, so_y) /\\ so_x[1] = 4 /\\ so_x[2] = 2 /\\ so_y[2] = 3;",
         lambda v: sorted(v["so_x"]) == v["so_y"] and v["so_y"][1] == 3),
    Part("arg_sort", "arg_sort.mzn",
         "array[1..3] of var 1..9: as_x; array[1..3] of var 1..3: as_p;\n"
         "constraint as_p = arg_sort(as_x) /\\ as_x = [5, 2, 7];",
         lambda v: v["as_p"] == [2, 1, 3]),
    Part("table", "table.mzn",
         "array[1..3] of var 1..3: ta; constraint table(ta, [|1, 2, 3|2, 3, 1|3, 1, 2|]) /\\ ta[1] != 1;",
         lambda v: v["ta"] in ([2, 3, 1], [3, 1, 2])),
    Part("value_precede", "value_precede.mzn",
         "array[1..4] of var 1..3: vp; constraint value_precede(1, 2, vp) /\\ vp[2] = 2;",
         lambda v: precedes(v["vp"], 1, 2)),
    Part("value_precede_chain", "value_precede_chain.mzn",
         "array[1..4] of var 1..3: vpc; constraint value_precede_chain([1, 2, 3], vpc) /\\ vpc[3] = 3;",
         lambda v: precedes(v["vpc"], 1, 2) and precedes(v["vpc"], 2, 3)),
    Part("sliding_sum", "sliding_sum.mzn",
         "array[1..5] of var 0..3: sl; constraint sliding_sum(3, 4, 3, sl) /\\ sl[1] = 3;",
         lambda v: all(3 <= sum(v["sl"][i:i + 3]) <= 4 for i in range(3))),
    Part("knapsack", "knapsack.mzn",
         "array[1..3] of var 0..3: kn; var 0..20: kn_w; var 0..40: kn_p;\n"
         "constraint knapsack([2, 3, 4], [3, 4, 6], kn, kn_w, kn_p) /\\ kn_w = 9 /\\ kn_p >= 13;",
         lambda v: sum(w * x for w, x in zip([2, 3, 4], v["kn"], strict=True)) == v["kn_w"] == 9
         and sum(p * x for p, x in zip([3, 4, 6], v["kn"], strict=True)) == v["kn_p"] >= 13),
    Part("int_set_channel", "int_set_channel.mzn",
         "array[1..3] of var 1..2: isc_x; array[1..2] of var set of 1..3: isc_y;\n"
         "constraint int_set_channel(isc_x, isc_y) /\\ card(isc_y[1]) = 2;",
         lambda v: all((x == j) == (i in as_set(v["isc_y"][j - 1])) for i, x in enumerate(v["isc_x"], 1)
                       for j in (1, 2)) and len(as_set(v["isc_y"][0])) == 2),
    Part("inverse_set", "inverse_set.mzn",
         "array[1..2] of var set of 1..3: is_f; array[1..3] of var set of 1..2: is_g;\n"
         "constraint inverse_set(is_f, is_g) /\\ card(is_f[1]) = 2 /\\ 3 in is_f[2];",
         lambda v: all((j in as_set(v["is_f"][i - 1])) == (i in as_set(v["is_g"][j - 1]))
                       for i in (1, 2) for j in (1, 2, 3)) and 3 in as_set(v["is_f"][1])),
    Part("link_set_to_booleans", "link_set_to_booleans.mzn",
         "var set of 1..4: lsb_s; array[1..4] of var bool: lsb_b;\n"
         "constraint link_set_to_booleans(lsb_s, lsb_b) /\\ lsb_b[2] /\\ card(lsb_s) = 2 /\\ not lsb_b[1];",
         lambda v: {i for i, b in enumerate(v["lsb_b"], 1) if b} == as_set(v["lsb_s"])
         and len(as_set(v["lsb_s"])) == 2),
    Part("partition_set", "partition_set.mzn",
         "array[1..3] of var set of 1..4: ps; constraint partition_set(ps, 1..4) /\\ card(ps[1]) = 2 /\\ 4 in ps[3];",
         lambda v: sorted(x for s in v["ps"] for x in as_set(s)) == [1, 2, 3, 4] and len(as_set(v["ps"][0])) == 2),
    Part("all_disjoint", "all_disjoint.mzn",
         "array[1..3] of var set of 1..3: adj; constraint all_disjoint(adj) /\\ forall(i in 1..3)(card(adj[i]) = 1);",
         lambda v: len(set.union(*map(as_set, v["adj"]))) == 3),
    Part("disjoint", "disjoint.mzn",
         "var set of 1..3: dis_a; var set of 1..3: dis_b;\n"
         "constraint disjoint(dis_a, dis_b) /\\ card(dis_a) = 2 /\\ card(dis_b) = 1;",
         lambda v: not as_set(v["dis_a"]) & as_set(v["dis_b"])),
    Part("range", "range.mzn",
         "array[1..4] of var 1..4: ra_x; var set of 1..4: ra_s; var set of 1..4: ra_t;\n"
         "constraint range(ra_x, ra_s, ra_t) /\\ ra_s = {1, 2} /\\ card(ra_t) = 2;",
         lambda v: {v["ra_x"][i - 1] for i in as_set(v["ra_s"])} == as_set(v["ra_t"])),
    Part("roots", "roots.mzn",
         "array[1..4] of var 1..3: ro_x; var set of 1..4: ro_s; var set of 1..3: ro_t;\n"
         "constraint roots(ro_x, ro_s, ro_t) /\\ ro_t = {2} /\\ card(ro_s) = 2;",
         lambda v: {i for i, x in enumerate(v["ro_x"], 1) if x in as_set(v["ro_t"])} == as_set(v["ro_s"])),
    Part("sum_set", "sum_set.mzn",
         "var set of 1..3: ss; var 0..30: ss_s; constraint sum_set([1, 2, 3], [5, 7, 9], ss, ss_s) /\\ ss_s = 14;",
         lambda v: sum(w for e, w in zip([1, 2, 3], [5, 7, 9], strict=True) if e in as_set(v["ss"])) == 14),
    # reified: whether the global holds is a variable the solver must get right
    Part("all_different, reified", "all_different.mzn",
         "array[1..3] of var 1..3: rad; var bool: rad_b;\n"
         "constraint rad_b <-> all_different(rad) /\\ rad[1] = 2;",
         lambda v: v["rad_b"] == distinct(v["rad"])),
    Part("count, reified", "count.mzn",
         "array[1..3] of var 1..3: rco; var bool: rco_b; constraint rco_b <-> count(rco, 2, 2); constraint rco[1] = 2;",
         lambda v: v["rco_b"] == (v["rco"].count(2) == 2)),
    Part("member, reified", "member.mzn",
         "array[1..3] of var 1..3: rme; var bool: rme_b; constraint rme_b <-> member(rme, 3); constraint rme[1] = 1;",
         lambda v: v["rme_b"] == (3 in v["rme"])),
    Part("table, reified", "table.mzn",
         "array[1..2] of var 1..2: rta; var bool: rta_b; constraint rta_b <-> table(rta, [|1, 2|2, 1|]);",
         lambda v: v["rta_b"] == (v["rta"] in ([1, 2], [2, 1]))),
    Part("nvalue, reified", "nvalue.mzn",
         "array[1..3] of var 1..3: rnv; var bool: rnv_b; constraint rnv_b <-> nvalue(2, rnv);",
         lambda v: v["rnv_b"] == (len(set(v["rnv"])) == 2)),
    Part("sort, reified", "sort.mzn",
         "array[1..3] of var 1..3: rso_x; array[1..3] of var 1..3: rso_y; var bool: rso_b;\n"
         "constraint rso_b <-> sort(rso_x, rso_y); constraint rso_x = [3, 1, 2];",
         lambda v: v["rso_b"] == (sorted(v["rso_x"]) == v["rso_y"])),
)
# The globals Gecode 6.2 has a propagator for, and the FlatZinc constraint each must reach.
NATIVES = {"all_different": "all_different_offset(", "among": "among(", "arg_max": "gecode_maximum_arg_int_offset(",
           "bin_packing_load": "gecode_bin_packing_load(", "circuit": "gecode_circuit(", "count": "count_reif(",
           "cumulative": "cumulatives(",
           "cumulative, optional tasks": "gecode_schedule_cumulative_optional(",
           "disjunctive_strict, optional tasks": "gecode_schedule_unary_optional(",
           "diffn": "gecode_nooverlap(", "disjunctive_strict": "gecode_schedule_unary(",
           "global_cardinality": "gecode_global_cardinality(", "inverse": "inverse_offsets(",
           "lex_less": "array_int_lt(", "member": "gecode_member_int_reif(", "nvalue": "nvalue(",
           "regular": "gecode_regular(", "sort": "sort(", "table": "gecode_table_int(",
           "value_precede": "gecode_precede(", "int_set_channel": "gecode_int_set_channel(",
           "partition_set": "array_set_partition(", "table, reified": "gecode_table_int_reif("}


def model_of(parts: Sequence[Part], globals_file: bool) -> str:
    """One model holding `parts`, including "globals.mzn" or each part's own file."""
    files = ["globals.mzn"] if globals_file else sorted({part.file for part in parts})
    return "".join(f'include "{name}";\n' for name in files) + "\n".join(part.model for part in parts) + \
        "\nsolve satisfy;\n"


@dataclass(frozen=True)
class Solved:
    """A run's solution and the FlatZinc MiniZinc gave Gecode."""

    values: Values
    flatzinc: str


def solve_model(parts: Sequence[Part], globals_file: bool) -> Solved:
    """MiniZinc with Gecode, as the runner and the grader call it, on a model of `parts`."""
    executable = MiniZinc().executable()
    assert executable is not None
    with tempfile.TemporaryDirectory(prefix="patience-globals-") as folder:
        (Path(folder) / "model.mzn").write_text(model_of(parts, globals_file))
        run = run_process([executable, "--solver", solver_argument("gecode"), "--output-mode", "json",
                           "--fzn", "model.fzn", "model.mzn"], Limits(timeout=120), cwd=folder)
        assert failure_of(run) is None, failure_of(run)
        values = read_output(run.stdout, "MiniZinc output").values
        assert values is not None, run.stdout
        return Solved(values, (Path(folder) / "model.fzn").read_text())


@pytest.fixture(scope="module")
def solved() -> dict[bool, Solved]:
    """Every global in one model, solved once through "globals.mzn" (True) and once through each
    global's own file (False)."""
    return {globals_file: solve_model(PARTS, globals_file) for globals_file in (True, False)}


def wrong(parts: Sequence[Part], values: Values) -> list[str]:
    return [part.name for part in parts if not part.holds(values)]


def test_there_are_at_least_thirty_globals():
    assert len({part.name.split(",")[0] for part in PARTS}) >= 30 and len({part.name for part in PARTS}) == len(PARTS)


@pytest.mark.parametrize("globals_file", [True, False], ids=["globals.mzn", "own files"])
def test_every_global_compiles_solves_and_holds(solved, globals_file):
    assert wrong(PARTS, solved[globals_file].values) == []


def test_the_checks_can_fail(solved):
    """A check that holds for anything would prove nothing: each refuses wrong values."""
    values = solved[True].values
    broken = {"ad": [1, 1, 2, 3], "sinc": [1, 2, 4, 3], "ci": [2, 1, 4, 5, 3], "so_y": [1, 2, 3, 9],
              "dz_y": [0, 0], "cu": [0, 0, 0, 0], "rad_b": not values["rad_b"]}
    assert wrong(PARTS, {**values, **broken}) == ["all_different", "circuit", "cumulative", "strictly_increasing",
                                                  "diffn with an empty rectangle", "sort", "all_different, reified"]


@pytest.mark.parametrize("globals_file", [True, False], ids=["globals.mzn", "own files"])
def test_the_globals_gecode_has_reach_its_propagators(solved, globals_file):
    constraints = [line.split(None, 1)[1] for line in solved[globals_file].flatzinc.splitlines()
                   if line.startswith("constraint ")]
    missing = [name for name, native in NATIVES.items() if not any(line.startswith(native) for line in constraints)]
    assert missing == []


@pytest.mark.slow
@pytest.mark.parametrize("globals_file", [True, False], ids=["globals.mzn", "own files"])
@pytest.mark.parametrize("part", PARTS, ids=[part.name for part in PARTS])
def test_each_global_alone(part, globals_file):
    assert wrong([part], solve_model([part], globals_file).values) == []


def standard_library_globals() -> list[str]:
    """The files "globals.mzn" includes, from the standard library of the MiniZinc installed here."""
    executable = MiniZinc().executable()
    if executable is None:
        return []
    found = run_process([executable, "--config-dirs"], Limits(timeout=30))
    try:
        folder = Path(json.loads(found.stdout)["mznStdlibDir"]) / "std"
        return re.findall(r'^include "([^"]+)";', (folder / "globals.mzn").read_text(), re.MULTILINE)
    except (ValueError, KeyError, TypeError, OSError):  # a MiniZinc that cannot say: its tests fail elsewhere
        return []


@pytest.mark.slow
@pytest.mark.parametrize("file", standard_library_globals())
def test_each_file_of_the_standard_library_compiles_alone(file):
    """A model may include any one global's file: each compiles with nothing else included."""
    with tempfile.TemporaryDirectory(prefix="patience-globals-") as folder:
        (Path(folder) / "model.mzn").write_text(f'include "{file}";\nvar 1..2: x;\nsolve satisfy;\n')
        run = run_process([MiniZinc().executable() or "minizinc", "--solver", solver_argument("gecode"), "model.mzn"],
                          Limits(timeout=60), cwd=folder)
    assert failure_of(run) is None and "----------" in run.stdout, failure_of(run)


@pytest.mark.parametrize("formulation", ["project", "benchmark"])
def test_the_library_keeps_gecodes_search_where_its_own_library_compiles(formulation, tmp_path):
    """On the models Gecode 6.2's own library compiles (the project's, the public benchmark's), the
    project's library gives Gecode the same propagation: the same nodes on a deal both decide quickly."""
    if not needs_own_gecode_library():
        pytest.skip("Gecode runs with its own library here")
    model = black_hole.build(random_deal(13, 4, 3, 3), formulation=formulation)
    for name, text in model.files.items():
        (tmp_path / name).write_text(text)
    models = [name for name in model.files if name.endswith(".mzn")]
    nodes = {}
    for solver in (GECODE_ID, solver_argument("gecode")):
        command = [MiniZinc().executable() or "minizinc", "--solver", solver, "-s", "--output-mode", "json"]
        run = run_process([*command, *models, model.primary], Limits(timeout=120), cwd=tmp_path)
        assert failure_of(run) is None, failure_of(run)
        nodes[solver] = read_output(run.stdout, "MiniZinc output").stats["nodes"]
    assert solver_argument("gecode") != GECODE_ID and len(set(nodes.values())) == 1, nodes
