"""Our copy of pysol_cards' shuffles against pysol_cards itself, deal for deal: every deal of a range
of numbers of Black Hole and All in a Row dealt by pysol_cards (its dealer and board text, read back:
`pysol_board`) and by `pysol_deal` (`numbered_piles`), compared, and the CPU time of each.

    nice -n 10 .venv/bin/python benchmarks/dealing.py --first 1 --last 100000
    nice -n 10 .venv/bin/python benchmarks/dealing.py --first 500001 --last 510000 --numbering pysol

Exit status 1 if any deal differs.
"""

from __future__ import annotations

import argparse
import time

from patience.formats import board
from patience.generators.deals import pysol_board, pysol_deal
from patience.names import ALL_IN_A_ROW, BLACK_HOLE, DEFAULT_NUMBERING, NUMBERINGS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=10000)
    parser.add_argument("--numbering", choices=NUMBERINGS, default=DEFAULT_NUMBERING)
    args = parser.parse_args()
    seeds = range(args.first, args.last + 1)
    differ = 0
    for game in (BLACK_HOLE, ALL_IN_A_ROW):
        ours = theirs = 0.0
        for seed in seeds:
            started = time.process_time()
            dealt = pysol_deal(game, seed, args.numbering)
            between = time.process_time()
            expected = board.read(pysol_board(game, seed, args.numbering), "text")
            ours, theirs = ours + between - started, theirs + time.process_time() - between
            if dealt != expected:
                differ += 1
                print(f"{game} deal {seed} ({args.numbering}) differs")
        print(f"{game} {args.first}..{args.last} ({args.numbering}): {len(seeds)} deals compared; "
              f"pysol_deal {1000 * ours / len(seeds):.3f} ms a deal, pysol_cards' board read back "
              f"{1000 * theirs / len(seeds):.3f} ms")
    print(f"{differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
