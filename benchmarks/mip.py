"""The paper's Table 3 on today's solvers: MIP-1..MIP-4 sizes, then CBC, HiGHS, CP-SAT and SCIP
(the last two through OR-Tools) on PySol deals.

    nice .venv/bin/python benchmarks/mip.py --last 10 --timeout 300      # the paper's setting
    nice .venv/bin/python benchmarks/mip.py --last 10 --timeout 60 --models mip3 mip4 \
        --solvers highs cbc cpsat-mip scip --rows mip-rows.jsonl           # resumable: reruns skip stored rows
    nice .venv/bin/python benchmarks/mip.py --last 10 --timeout 15 --rows mip-rows.jsonl
    .venv/bin/python benchmarks/mip.py --sizes-only

Sizes (rows, columns, generation time) are for the paper's example deal next to the published
figures. Every answer goes through the validator; verdicts are compared with the native solver's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from patience.formats import read_deal
from patience.generators.deals import pysol_deal
from patience.generators.lp.black_hole import FORMULATIONS, MODELS, lp_model
from patience.runners.solve import solve
from patience.runs.process import Limits

PAPER = {"mip1": (1071, 2908), "mip2": (6269, 2652), "mip3": (8683, 2601), "mip4": (8734, 2601)}
EXAMPLE = Path(__file__).resolve().parent.parent / "instances" / "black_hole" / "paper-example.txt"


def sizes() -> list[str]:
    deal = read_deal(EXAMPLE)
    lines = ["model  rows (paper)     columns (paper)  generation s  LP MB"]
    for model in MODELS:
        started = time.perf_counter()
        built = lp_model(deal, model, "paper")
        seconds = time.perf_counter() - started
        rows, columns = PAPER[model]
        lines.append(f"{model}   {built.constraints:5d} ({rows:5d})   {built.columns:5d} ({columns:5d})   "
                     f"{seconds:12.2f}  {len(built.text) / 1e6:5.1f}")
    return lines


def summary(rows: list[dict], reference: dict[int, str]) -> list[str]:
    lines = []
    for key in sorted({(row["solver"], row["model"]) for row in rows}):
        group = [row for row in rows if (row["solver"], row["model"]) == key]
        counts = Counter(row["status"] for row in group)
        decided = sorted(row["wall"] for row in group if row["status"] in ("solved", "unsolvable"))
        disagree = [row["seed"] for row in group if row["status"] in ("solved", "unsolvable")
                    and reference.get(row["seed"]) in ("solved", "unsolvable")
                    and row["status"] != reference[row["seed"]]]
        times = f"median {statistics.median(decided):.1f} s, max {decided[-1]:.1f} s" if decided else "-"
        lines.append(f"{key[0]:6s} {key[1]}: decided {len(decided)}/{len(group)} "
                     f"({counts['solved']} solved, {counts['unsolvable']} unsolvable); decided wall {times}"
                     + (f"; DISAGREES with native on {disagree}" if disagree else ""))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=FORMULATIONS)
    parser.add_argument("--solvers", nargs="+", default=["cbc", "highs", "cpsat-mip", "scip"])
    parser.add_argument("--objective", choices=("none", "paper"), default="none")
    parser.add_argument("--rows", type=Path, help="also write one JSON line per run here")
    parser.add_argument("--sizes-only", action="store_true")
    args = parser.parse_args()
    print("\n".join(sizes()), flush=True)
    if args.sizes_only:
        return 0
    stored = [json.loads(line) for line in args.rows.read_text().splitlines()] \
        if args.rows and args.rows.exists() else []
    done = {(row["seed"], row["solver"], row["model"], row.get("objective", "none"), row.get("timeout"))
            for row in stored}
    rows, reference = [], {}
    for seed in range(args.first, args.last + 1):
        deal = pysol_deal("black_hole", seed)
        reference[seed] = solve(deal, "native", Limits(timeout=60)).status.value
        for solver in args.solvers:
            for model in args.models:
                key = (seed, solver, model, args.objective, args.timeout)
                if key in done:
                    rows += [row for row in stored if (row["seed"], row["solver"], row["model"],
                                                       row.get("objective", "none"), row.get("timeout")) == key]
                    continue
                options = {"model": model, "objective": args.objective}
                result = solve(deal, solver, Limits(timeout=args.timeout), options)
                row = {"seed": seed, "solver": solver, "model": model, "objective": args.objective,
                       "timeout": args.timeout, "status": result.status.value,
                       "wall": round(result.wall, 2), "nodes": result.nodes, "native": reference[seed]}
                rows.append(row)
                print(json.dumps(row), flush=True)
                if args.rows:
                    with args.rows.open("a") as out:
                        out.write(json.dumps(row) + "\n")
    print(f"\nBlack Hole PySol seeds {args.first}..{args.last}, {args.timeout:g} s wall limit per run, "
          f"objective {args.objective}; "
          f"native: {Counter(reference.values())}")
    print("\n".join(summary(rows, reference)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
