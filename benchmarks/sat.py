"""SAT on PySol Black Hole deals: the paper's CNF with and without its symmetry-breaking ladder.

    nice .venv/bin/python benchmarks/sat.py --first 1 --last 200 --timeout 60
    nice .venv/bin/python benchmarks/sat.py --solvers sat cadical minisat --last 20 --rows rows.jsonl
    .venv/bin/python benchmarks/sat.py --summarise rows.jsonl      # no re-running

Prints, per solver and symmetry setting: deals decided (solved / unsolvable), median, mean and max
wall and CPU time over decided deals, conflicts (median, max) and formula sizes. Every answer is validated
(patience.runners.solve); verdicts are compared with the native solver's (run with the same limit).
The limit is CPU time (wall-clock is capped at a multiple of it), so a busy machine slows runs down
without turning them into timeouts.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path

from patience.generators.deals import pysol_deal
from patience.runners.solve import solve
from patience.runs.process import Limits

REFERENCE = "native"
DECIDED = ("solved", "unsolvable")


def run_one(game: str, seed: int, solver: str, symmetry: str, limits: Limits) -> dict:
    deal = pysol_deal(game, seed)
    options = {} if solver == REFERENCE else {"symmetry-breaking": symmetry}
    result = solve(deal, solver, limits, options)
    stats = dict(result.stats)
    return {"game": game, "seed": seed, "solver": solver, "symmetry": symmetry if options else "-",
            "status": result.status.value, "wall": round(result.wall, 3), "cpu": round(result.cpu, 3),
            "conflicts": stats.get("conflicts"), "variables": stats.get("variables"),
            "clauses": stats.get("clauses"), "message": result.message}


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def report(rows: list[dict]) -> str:
    reference = {(row["game"], row["seed"]): row["status"] for row in rows if row["solver"] == REFERENCE}
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["solver"], row["symmetry"]), []).append(row)
    lines = []
    for (solver, symmetry), group in groups.items():
        counts = Counter(row["status"] for row in group)
        decided = [row for row in group if row["status"] in DECIDED]
        conflicts = [row["conflicts"] for row in decided if row["conflicts"] is not None]
        name = solver if symmetry == "-" else f"{solver} symmetry-breaking={symmetry}"
        lines.append(f"{name}: {len(group)} deals, {len(decided)} decided ("
                     + ", ".join(f"{counts[status]} {status}" for status in sorted(counts)) + ")")
        for clock in ("wall", "cpu"):
            times = [row[clock] for row in decided]
            if times:
                lines.append(f"  {clock} s over decided: median {_median(times):.2f}, "
                             f"mean {statistics.mean(times):.2f}, max {max(times):.2f}")
        if conflicts:
            lines.append(f"  conflicts over decided: median {_median(conflicts):.0f}, max {max(conflicts)}")
        sizes = {(row["variables"], row["clauses"]) for row in group if row["variables"]}
        if sizes:
            variables, clauses = (sorted(values) for values in zip(*sizes, strict=True))
            lines.append(f"  formula: {variables[0]}-{variables[-1]} variables, {clauses[0]}-{clauses[-1]} clauses")
        if solver != REFERENCE and reference:
            both = [row for row in decided if reference.get((row["game"], row["seed"])) in DECIDED]
            disagree = [row["seed"] for row in both if row["status"] != reference[row["game"], row["seed"]]]
            lines.append(f"  agreement with {REFERENCE}: {len(both) - len(disagree)}/{len(both)} decided by both"
                         + (f"; DISAGREE on seeds {disagree}" if disagree else ""))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black_hole", choices=("black_hole", "all_in_a_row"))
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=60.0, help="CPU-time limit per run (s)")
    parser.add_argument("--wall-factor", type=float, default=4.0,
                        help="wall-clock limit = this times the CPU limit (the machine may be shared)")
    parser.add_argument("--solvers", nargs="+", default=["sat"], help="SAT solver names (default: sat)")
    parser.add_argument("--symmetry", nargs="+", default=["on", "off"], choices=("on", "off"))
    parser.add_argument("--no-reference", action="store_true", help=f"do not run {REFERENCE} for agreement")
    parser.add_argument("--rows", type=Path, help="append every row to this JSON-lines file")
    parser.add_argument("--summarise", nargs="+", type=Path, metavar="ROWS", help="report saved rows only")
    args = parser.parse_args()
    if args.summarise:
        rows = [json.loads(line) for path in args.summarise for line in path.read_text().splitlines() if line]
        print(report(rows))
        return
    limits = Limits(timeout=args.timeout * args.wall_factor, cpu=args.timeout)
    runs = [(solver, symmetry) for solver in args.solvers for symmetry in args.symmetry]
    if not args.no_reference:
        runs.append((REFERENCE, "-"))
    rows = []
    for seed in range(args.first, args.last + 1):
        for solver, symmetry in runs:
            row = run_one(args.game, seed, solver, symmetry, limits)
            rows.append(row)
            if args.rows:
                with args.rows.open("a") as stream:
                    stream.write(json.dumps(row) + "\n")
    print(f"{args.game} PySol seeds {args.first}..{args.last}, {args.timeout:g} s CPU limit "
          f"({args.timeout * args.wall_factor:g} s wall)")
    print(report(rows))


if __name__ == "__main__":
    main()
