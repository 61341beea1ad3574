"""Golf's native search on a shape of generalised deal, or on PySolFC's numbered deals: how many it
decides within a CPU limit a deal, the search's own CPU seconds and its nodes, and the verdicts in a
line (S won, U lost, T open at the limit), so that two searches' runs can be compared deal by deal.

    nice .venv/bin/python benchmarks/golf_search.py --shape 13 8 14 5 30 --deals 20 --cpu 20
    nice .venv/bin/python benchmarks/golf_search.py --game golf_wrap_ranks --first 1000001 --deals 300

Run the same line with another checkout's interpreter (`../before/.venv/bin/python
benchmarks/golf_search.py ...`, from that checkout) to measure its search on the same deals. The
CPU seconds are the search's thread time, dealing and tables left out.
"""

from __future__ import annotations

import argparse
import time

from patience.golf.deals import random_deal
from patience.golf.pysol import VARIANTS, numbered_deal
from patience.golf.search import search

SHAPE = ("ranks", "suits", "piles", "height", "stock")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", type=int, nargs=5, metavar=SHAPE,
                        help="random generalised deals of this shape, seeds 0..DEALS-1")
    parser.add_argument("--game", default="golf", choices=VARIANTS,
                        help="the variant (numbered deals, or the shape's rule)")
    parser.add_argument("--first", type=int, default=1, help="the first numbered deal (without --shape)")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--cpu", type=float, default=20.0, help="CPU seconds a deal")
    parser.add_argument("--max-cards", action="store_true", help="the longest play, not the verdict")
    args = parser.parse_args()
    queens_on_kings, wrap_ranks = args.game != "golf", args.game == "golf_wrap_ranks"
    cpu, nodes, verdicts = 0.0, 0, []
    for index in range(args.deals):
        deal = (random_deal(index, *args.shape, queens_on_kings=queens_on_kings, wrap_ranks=wrap_ranks)
                if args.shape else numbered_deal(args.game, args.first + index))
        started = time.thread_time()
        outcome = search(deal, max_cards=args.max_cards, cpu=args.cpu)
        cpu += time.thread_time() - started
        nodes += outcome.nodes
        verdicts.append({"SOLVED": "S", "UNSOLVABLE": "U"}.get(outcome.status.name, "T"))
    what = f"shape {' '.join(map(str, args.shape))}, seeds 0-{args.deals - 1}" if args.shape else (
        f"deals {args.first}-{args.first + args.deals - 1}")
    decided = sum(verdict != "T" for verdict in verdicts)
    print(f"{args.game}, {what}: {decided} of {args.deals} decided at {args.cpu:g} s, {cpu:.3f} s of the "
          f"search's CPU, {nodes:,} nodes")
    print("".join(verdicts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
