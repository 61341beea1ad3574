"""Binary Star through its models: the native search against the CNF (SAT solvers) and the MIP
(MIP solvers) on PySolFC's deals, every answer validated, verdicts compared with native's.

    nice .venv/bin/python benchmarks/binary_star_models.py --first 1 --last 6 --cpu 60 --rows rows.jsonl
    .venv/bin/python benchmarks/binary_star_models.py --summarise rows.jsonl      # no re-running

The limit is CPU time (wall-clock is capped at a multiple of it), so a loaded machine slows runs
down without turning them into timeouts. Prints one line per deal and solver configuration, then
per configuration the deals decided, their CPU times, and the agreement with native.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path

from patience.generators.deals import pysol_deal
from patience.names import BINARY_STAR
from patience.runners.solve import solve
from patience.runs.process import Limits

REFERENCE = "native"
DECIDED = ("solved", "unsolvable")
WALL_PER_CPU = 4  # the wall-clock cap, as a multiple of the CPU limit
# a configuration: label -> (solver, options)
CONFIGURATIONS = {
    "native": ("native", {}),
    "sat": ("sat", {}),
    "sat symmetry-breaking=off": ("sat", {"symmetry-breaking": "off"}),
    "cadical": ("cadical", {}),
    "highs": ("highs", {}),
}


def run_one(seed: int, label: str, cpu: float) -> dict:
    solver, options = CONFIGURATIONS[label]
    result = solve(pysol_deal(BINARY_STAR, seed), solver, Limits(timeout=cpu * WALL_PER_CPU, cpu=cpu), options)
    stats = dict(result.stats)
    return {"seed": seed, "configuration": label, "status": result.status.value, "wall": round(result.wall, 2),
            "cpu": round(result.cpu, 2), "conflicts": stats.get("conflicts"), "nodes": result.nodes,
            "size": {key: stats[key] for key in ("variables", "clauses", "rows", "columns") if key in stats},
            "message": result.message}


def report(rows: list[dict]) -> str:
    reference = {row["seed"]: row["status"] for row in rows if row["configuration"] == REFERENCE}
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["configuration"], []).append(row)
    lines = []
    for label, group in groups.items():
        counts = Counter(row["status"] for row in group)
        decided = [row for row in group if row["status"] in DECIDED]
        lines.append(f"{label}: {len(group)} deals, {len(decided)} decided ("
                     + ", ".join(f"{counts[status]} {status}" for status in sorted(counts)) + ")")
        times = [row["cpu"] for row in decided]
        if times:
            lines.append(f"  CPU s over decided: median {statistics.median(times):.2f}, max {max(times):.2f}")
        if label != REFERENCE and reference:
            both = [row for row in decided if reference.get(row["seed"]) in DECIDED]
            disagree = [row["seed"] for row in both if row["status"] != reference[row["seed"]]]
            lines.append(f"  agreement with {REFERENCE}: {len(both) - len(disagree)}/{len(both)} decided by both"
                         + (f"; DISAGREE on seeds {disagree}" if disagree else ""))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=6)
    parser.add_argument("--cpu", type=float, default=60.0, help="CPU-time limit per run (s)")
    parser.add_argument("--configurations", nargs="+", default=list(CONFIGURATIONS), choices=list(CONFIGURATIONS))
    parser.add_argument("--rows", type=Path, help="append one JSON line per run here")
    parser.add_argument("--summarise", type=Path, help="print the report of a rows file and exit")
    args = parser.parse_args()
    if args.summarise:
        print(report([json.loads(line) for line in args.summarise.read_text().splitlines() if line.strip()]))
        return
    rows = []
    for seed in range(args.first, args.last + 1):
        for label in args.configurations:
            row = run_one(seed, label, args.cpu)
            rows.append(row)
            print(f"deal {seed} {label}: {row['status']} cpu {row['cpu']} s wall {row['wall']} s {row['size']}",
                  flush=True)
            if args.rows:
                with args.rows.open("a") as file:
                    file.write(json.dumps(row) + "\n")
    print(report(rows))


if __name__ == "__main__":
    main()
