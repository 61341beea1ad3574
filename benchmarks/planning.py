"""Planners on PySol deals: how many each decides, how fast, and whether it agrees with native.

    nice .venv/bin/python benchmarks/planning.py --first 1 --last 200 --timeout 60
    nice .venv/bin/python benchmarks/planning.py --solvers fd-ff fd-lama ff --encoding compact --last 20
    .venv/bin/python benchmarks/planning.py --summarise rows-a.jsonl rows-b.jsonl   # no re-running

Every answer goes through the validator (patience.runners.solve); a verdict is compared with the
native solver's where that solver is registered. Rows can be kept as JSON lines (--rows FILE) and
summarised again later, several runs together (--summarise FILE...).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from patience.errors import UsageError
from patience.generators.deals import PYSOL_GAMES, pysol_deal
from patience.result import Status
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits

REFERENCE = "native"


def reference_available() -> bool:
    try:
        return get_solver(REFERENCE).available()
    except UsageError:
        return False


def summary(name: str, rows: list[dict], reference: dict[tuple[str, int], str] | None) -> list[str]:
    counts = Counter(row["status"] for row in rows)
    walls = sorted(row["wall"] for row in rows)
    decided = [row["wall"] for row in rows if row["status"] in ("solved", "unsolvable")]
    lines = [f"{name}: {len(rows)} deals: " + ", ".join(
        f"{counts[status.value]} {status.value}" for status in Status if counts[status.value]),
        f"  wall s over all runs: median {statistics.median(walls):.2f}, max {walls[-1]:.2f}; "
        f"over decided: median {statistics.median(decided) if decided else float('nan'):.2f}, "
        f"max {max(decided, default=float('nan')):.2f}"]
    if reference is not None:
        both = [row for row in rows if row["status"] in ("solved", "unsolvable")
                and reference.get((row["game"], row["seed"])) in ("solved", "unsolvable")]
        disagree = [row["seed"] for row in both if row["status"] != reference[row["game"], row["seed"]]]
        lines.append(f"  agreement with {REFERENCE}: {len(both) - len(disagree)}/{len(both)} decided by both"
                     + (f"; DISAGREE on seeds {disagree}" if disagree else ""))
    return lines


def report(rows: list[dict], title: str) -> str:
    """Per solver and encoding: counts, times, and agreement with the native rows among them."""
    reference = {(row["game"], row["seed"]): row["status"] for row in rows if row["solver"] == REFERENCE}
    groups: dict[str, list[dict]] = {}
    for row in rows:
        key = row["solver"] + (f" ({row['encoding']})" if row.get("encoding") else "")
        groups.setdefault(key, []).append(row)
    lines = [title + ("" if reference else f"; no '{REFERENCE}' rows, agreement not checked")]
    for key, group in groups.items():
        lines += summary(key, group, reference if reference and group[0]["solver"] != REFERENCE else None)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black_hole", choices=PYSOL_GAMES)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--solvers", nargs="+", default=["fd-ff", "fd-lama"])
    parser.add_argument("--encoding", default="paper", choices=["paper", "compact"])
    parser.add_argument("--rows", help="append one JSON line per run to this file")
    parser.add_argument("--without-native", action="store_true",
                        help="do not run the native solver (join its saved rows with --summarise instead)")
    parser.add_argument("--summarise", nargs="+", metavar="ROWS", help="only summarise saved rows files")
    args = parser.parse_args(argv)
    if args.summarise:
        saved = [json.loads(line) for name in args.summarise for line in Path(name).read_text().splitlines()
                 if line.strip()]
        runs = {(row["game"], row["seed"], row["solver"], row["encoding"]): row for row in saved}  # last wins
        print(report(list(runs.values()), f"{len(runs)} saved runs from {', '.join(args.summarise)}"))
        return 0
    limits = Limits(timeout=args.timeout)
    seeds = range(args.first, args.last + 1)
    with_reference = not args.without_native and reference_available()
    names = ([REFERENCE] if with_reference else []) + args.solvers
    results: dict[str, list[dict]] = {name: [] for name in names}
    started = time.monotonic()
    for seed in seeds:
        deal = pysol_deal(args.game, seed)
        for name in names:
            options = {} if name == REFERENCE else {"encoding": args.encoding}
            result = solve(deal, name, limits, options)
            row = {"game": args.game, "seed": seed, "solver": name, "encoding": options.get("encoding"),
                   "status": result.status.value, "wall": round(result.wall, 3), "cpu": round(result.cpu, 3),
                   "nodes": result.nodes, "timeout": args.timeout}
            results[name].append(row)
            if args.rows:
                with open(args.rows, "a") as stream:
                    stream.write(json.dumps(row) + "\n")
        print(f"seed {seed}: " + ", ".join(f"{name} {results[name][-1]['status']} {results[name][-1]['wall']:.2f}s"
                                           for name in names), file=sys.stderr, flush=True)
    rows = [row for name in names for row in results[name]]
    print(report(rows, f"{args.game} PySol seeds {args.first}..{args.last}, {args.encoding} encoding, "
                       f"limit {args.timeout:g} s wall, {time.monotonic() - started:.0f} s in all"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
