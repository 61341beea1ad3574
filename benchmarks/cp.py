"""Conditional symmetry breaking in the CP model: ACE (or another CP solver) with it on and off.

    nice .venv/bin/python benchmarks/cp.py --first 1 --last 200 --timeout 60
    nice .venv/bin/python benchmarks/cp.py --last 30 --search solver --solver choco --rows cp.jsonl

For each PySol Black Hole seed the deal is solved with the symmetry breaking on and off (same
search, `--search paper` by default: x then y in order, smallest card number first, no restarts,
as in the paper). Every answer is validated by replay; verdicts are compared with the native
solver. Printed per setting: decided counts, median/mean/max wall time and nodes over the decided
deals, and, over the deals both settings decided, how many times fewer nodes the breaking needs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from patience.generators.deals import pysol_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits

SETTINGS = ("on", "off")
DECIDED = ("solved", "unsolvable")


def run_deal(seed: int, solver: str, search: str, timeout: float) -> list[dict]:
    deal = pysol_deal("black_hole", seed)
    reference = solve(deal, "native", Limits(timeout=timeout)).status.value
    rows = []
    for setting in SETTINGS:
        result = solve(deal, solver, Limits(timeout=timeout), {"symmetry-breaking": setting, "search": search})
        rows.append({"seed": seed, "solver": solver, "search": search, "symmetry": setting,
                     "status": result.status.value, "wall": round(result.wall, 3), "cpu": round(result.cpu, 3),
                     "nodes": result.nodes, "native": reference, "message": result.message})
    return rows


def spread(values: list[float], digits: int) -> str:
    if not values:
        return "-"
    return (f"median {statistics.median(values):.{digits}f}, mean {statistics.mean(values):.{digits}f}, "
            f"max {max(values):.{digits}f}")


def report(rows: list[dict]) -> str:
    lines = []
    for setting in SETTINGS:
        mine = [row for row in rows if row["symmetry"] == setting]
        decided = [row for row in mine if row["status"] in DECIDED]
        counts = {status.value: sum(row["status"] == status.value for row in mine) for status in Status}
        disagree = [row["seed"] for row in decided if row["native"] in DECIDED and row["status"] != row["native"]]
        lines += [f"symmetry breaking {setting}: {len(mine)} deals, {len(decided)} decided ("
                  + ", ".join(f"{count} {status}" for status, count in counts.items() if count) + ")",
                  f"  wall s (decided): {spread([row['wall'] for row in decided], 2)}",
                  f"  cpu s (decided):  {spread([row['cpu'] for row in decided], 2)}",
                  f"  nodes (decided):  {spread([row['nodes'] for row in decided if row['nodes'] is not None], 0)}",
                  f"  disagreements with native: {disagree or 'none'}"]
    by_seed: dict[int, dict[str, dict]] = {}
    for row in rows:
        by_seed.setdefault(row["seed"], {})[row["symmetry"]] = row
    both = [pair for pair in by_seed.values() if len(pair) == 2 and all(pair[s]["status"] in DECIDED for s in SETTINGS)]
    nodes = [(pair["off"]["nodes"] + 1) / (pair["on"]["nodes"] + 1) for pair in both
             if all(pair[s]["nodes"] is not None for s in SETTINGS)]
    walls = [pair["off"]["wall"] / pair["on"]["wall"] for pair in both if pair["on"]["wall"] > 0]
    only_on = sum(1 for pair in by_seed.values() if len(pair) == 2 and pair["on"]["status"] in DECIDED
                  and pair["off"]["status"] not in DECIDED)
    only_off = sum(1 for pair in by_seed.values() if len(pair) == 2 and pair["off"]["status"] in DECIDED
                   and pair["on"]["status"] not in DECIDED)
    lines.append(f"decided by both: {len(both)}")
    for what, ratios in (("nodes off/on (+1 each)", nodes), ("wall off/on", walls)):
        if ratios:
            lines.append(f"  {what}: {spread(ratios, 1)}; geometric mean {statistics.geometric_mean(ratios):.1f}")
    lines.append(f"decided only with symmetry breaking: {only_on}; only without: {only_off}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=60.0, help="wall-clock seconds per run")
    parser.add_argument("--solver", default="ace", help="a CP solver with a symmetry-breaking option")
    parser.add_argument("--search", default="paper", choices=("paper", "solver"))
    parser.add_argument("--rows", type=Path, help="also write one JSON line per run here")
    parser.add_argument("--summarise", type=Path, nargs="+", help="only summarise saved rows")
    args = parser.parse_args(argv)
    if args.summarise:
        rows = [json.loads(line) for path in args.summarise for line in path.read_text().splitlines() if line]
        print(report(rows))
        return 0
    rows = []
    for seed in range(args.first, args.last + 1):
        deal_rows = run_deal(seed, args.solver, args.search, args.timeout)
        rows += deal_rows
        if args.rows:
            with args.rows.open("a") as out:
                out.writelines(json.dumps(row) + "\n" for row in deal_rows)
        print(f"seed {seed}: " + ", ".join(f"{row['symmetry']} {row['status']} {row['wall']:.1f}s "
                                           f"{row['nodes']} nodes" for row in deal_rows), file=sys.stderr)
    print(f"{args.solver} (search {args.search}) on PySol Black Hole seeds {args.first}..{args.last}, "
          f"{args.timeout:g} s limit")
    print(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
