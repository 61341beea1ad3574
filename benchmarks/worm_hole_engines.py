"""Worm Hole's two search engines, compiled and Python, on the same PySolFC deals (one cell), deal by deal.

Each deal is searched by each engine as the survey searches it (`patience.worm_hole.native`'s limits:
SECONDS of CPU, the survey's memory bound), and every win (or, in max-cards mode, longest play) is
replayed by the rules before it counts. The engines take the same steps, so on a deal both decide
they must give the same verdict and the same most cards, and the same nodes; only a clock can leave
a deal undecided by one of them (the slower one). A deal both decide differently is listed, and the
run exits 1. Prints the verdicts, the win rate of each with its Wilson interval, and the CPU seconds
each engine spent (this process's, the deal's dealing and replay included).

    nice -n 19 .venv/bin/python benchmarks/worm_hole_engines.py --first 1000001 --deals 20000
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from patience.names import WORM_HOLE
from patience.result import Status
from patience.survey.report import wilson
from patience.worm_hole.deals import numbered_deal
from patience.worm_hole.native import SURVEY_MEMORY_MB, checked
from patience.worm_hole.search import compiled, search

ENGINES = ("c", "python")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1000001, help="the first PySolFC deal number")
    parser.add_argument("--deals", type=int, default=20000, help="how many deals from --first")
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds a deal, each engine")
    parser.add_argument("--max-cards", action="store_true", help="max-cards mode (default: decision)")
    args = parser.parse_args()
    if compiled() is None:
        raise SystemExit("the compiled Worm Hole search is not built (setup.py builds it)")
    verdicts: dict[str, Counter[Status]] = {engine: Counter() for engine in ENGINES}
    cpu = dict.fromkeys(ENGINES, 0.0)
    nodes = dict.fromkeys(ENGINES, 0)
    differ, node_differ, one_decided = [], 0, 0
    for seed in range(args.first, args.first + args.deals):
        found = {}
        for engine in ENGINES:
            started = time.process_time()
            deal = numbered_deal(WORM_HOLE, seed)
            outcome = checked(deal, search(deal, args.max_cards, None, None, args.seconds,
                                           memory_mb=SURVEY_MEMORY_MB, engine=engine))
            cpu[engine] += time.process_time() - started
            verdicts[engine][outcome.status] += 1
            nodes[engine] += outcome.nodes
            found[engine] = outcome
        c, python = found["c"], found["python"]
        decided = [outcome.status in (Status.SOLVED, Status.UNSOLVABLE) for outcome in (c, python)]
        if all(decided):
            if (c.status, c.max_cards) != (python.status, python.max_cards):
                differ.append((seed, c, python))
            node_differ += c.nodes != python.nodes
        elif any(decided):
            one_decided += 1
    print(f"PySolFC Worm Hole deals {args.first:,}-{args.first + args.deals - 1:,}, one cell, "
          f"{'max-cards' if args.max_cards else 'decision'} mode, {args.seconds:g} s of CPU a deal")
    print("| engine | won | lost | undecided | won of the decided (95% Wilson) | nodes | CPU s | ms a deal |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    for engine in ENGINES:
        won, lost = verdicts[engine][Status.SOLVED], verdicts[engine][Status.UNSOLVABLE]
        low, high = wilson(won, won + lost)
        print(f"| {engine} | {won:,} | {lost:,} | {args.deals - won - lost:,} | {100 * won / max(won + lost, 1):.2f}% "
              f"({100 * low:.2f}-{100 * high:.2f}%) | {nodes[engine]:,} | {cpu[engine]:.1f} | "
              f"{1000 * cpu[engine] / args.deals:.3f} |")
    print(f"decided by both and differing: {len(differ)}; differing in nodes: {node_differ}; "
          f"decided by one engine only: {one_decided}; CPU python/c: {cpu['python'] / max(cpu['c'], 1e-9):.1f}")
    for seed, c, python in differ[:20]:
        print(f"  deal {seed}: c {c.status.value} {c.max_cards}, python {python.status.value} {python.max_cards}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
