"""Certificates of a loss measured: size and time of the certificate pass and of the checker.

    nice .venv/bin/python benchmarks/certificates.py --game black_hole --losses 200
    nice .venv/bin/python benchmarks/certificates.py --game all_in_a_row --losses 200
    nice .venv/bin/python benchmarks/certificates.py --game binary_star --losses 200
    nice .venv/bin/python benchmarks/certificates.py --game golf --losses 200  # golf_queens_on_kings, golf_wrap_ranks
    nice .venv/bin/python benchmarks/certificates.py --game worm_hole --seeds lost.txt

`--check-every N` checks every Nth certificate only (the others are still made, measured and
counted; the check's figures are then of those checked). `--seeds FILE` takes the deal numbers
from FILE (one a line; a survey's losses, as Worm Hole's are one deal in a thousand) instead of
every number from 1 on; each is still decided again here. A stop (Ctrl-C, SIGTERM) prints the
figures of the losses done.

PySolFC's deals from number 1 on are decided by the native search; each loss gets its certificate
(the pass of patience.certificates, in this process), written to a scratch folder and checked by
patience.checker from the files, as `patience check` does. Per game: the losses, and the positions,
bytes (gzip), pass seconds and check seconds of a certificate (median, 90th percentile, largest,
total), and the losses whose pass reached its time limit (left out of the figures: a pass keeps
every position in memory, some hundred bytes each). A loss the checker does not certify, or whose
pass finds a win, is a fault and ends the run with exit 1. `--verbose` prints a line a loss.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from patience.certificates import dead_positions
from patience.checker import Broken, check
from patience.games import game_of
from patience.generators.deals import pysol_deal
from patience.golf.pysol import numbered_deal as golf_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.worm_hole.deals import numbered_deal as worm_hole_deal

GOLF = ("golf", "golf_queens_on_kings", "golf_wrap_ranks")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black_hole", choices=("black_hole", "all_in_a_row", "binary_star", *GOLF,
                                                                 "worm_hole"))
    parser.add_argument("--seeds", type=Path, help="a file of the deal numbers to try, one a line")
    parser.add_argument("--check-every", type=int, default=1, metavar="N", help="check every Nth certificate only")
    parser.add_argument("--losses", type=int, default=200, help="how many lost deals to certify")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for one certificate pass")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    rows: list[tuple[int, int, float, float | None]] = []
    seed, open_losses, backward, stopped = 0, [], 0, ""
    seeds = iter(int(line) for line in args.seeds.read_text().split()) if args.seeds else None
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a stop prints the figures of the losses done
    try:
        with tempfile.TemporaryDirectory(prefix="certificates-") as scratch:
            deal_path, certificate_path = Path(scratch, "deal.txt"), Path(scratch, "deal.cert")
            while len(rows) + len(open_losses) < args.losses:
                seed = seed + 1 if seeds is None else next(seeds, 0)
                if seed == 0:
                    break
                deal = (golf_deal(args.game, seed) if args.game in GOLF else worm_hole_deal(args.game, seed)
                        if args.game == "worm_hole" else pysol_deal(args.game, seed))
                status = solve(deal, "native", Limits(timeout=60)).status
                if status is not Status.UNSOLVABLE:
                    if status is not Status.SOLVED:
                        print(f"deal {seed}: the native search left it {status.value}", flush=True)
                    continue
                started = time.process_time()
                found = dead_positions(deal, args.timeout)
                if found.limited_by:
                    open_losses.append(seed)
                    print(f"deal {seed}: the pass reached its limit of {args.timeout:g} s", flush=True)
                    continue
                if found.won:
                    print(f"deal {seed}: the pass found a win")
                    return 1
                data = found.file(deal)
                passed = time.process_time() - started  # the positions found and encoded
                certificate_path.write_bytes(data)
                game = game_of(deal)
                deal_path.write_text(game.write_deal(deal, game.forms[0]))
                checked = None
                if len(rows) % args.check_every == 0:
                    started = time.process_time()
                    try:
                        check(deal_path, certificate_path)
                    except Broken as broken:
                        print(f"deal {seed}: not certified: {broken}")
                        return 1
                    checked = time.process_time() - started
                rows.append((found.count, len(data), passed, checked))
                backward += found.direction == "backward"
                if args.verbose:
                    told = "not checked" if checked is None else f"check {checked:.3f} s"
                    print(f"deal {seed}: {found.count:,} positions ({found.direction}), {len(data):,} bytes, "
                          f"pass {passed:.3f} s, {told}", flush=True)
    except KeyboardInterrupt:
        stopped = f"; stopped at deal {seed}"
    report(args, rows, open_losses, seed, backward, stopped)
    return 0


def report(args: argparse.Namespace, rows: list[tuple[int, int, float, float | None]], open_losses: list[int],
           seed: int, backward: int, stopped: str) -> None:
    past = f" (deals {', '.join(map(str, open_losses))})" if open_losses else ""
    among = f"deals 1-{seed}" if args.seeds is None else f"the deals of {args.seeds}"
    checked = [row for row in rows if row[3] is not None]
    print(f"{args.game}: {len(rows) + len(open_losses)} losses among {among}{stopped}; {len(rows)} certified "
          f"({len(checked)} checked), {len(open_losses)} with the pass past {args.timeout:g} s{past}"
          + (f"; {backward} certificates from the back" if args.game in ("black_hole", "all_in_a_row") else ""))
    if not rows:
        return
    print(f"{'':12} {'median':>10} {'90th pct':>10} {'largest':>10} {'total':>12}")
    for index, label in enumerate(("positions", "bytes", "pass s", "check s")):
        values = sorted(row[index] for row in (checked if index == 3 else rows))  # type: ignore[type-var]
        tenth = values[min(len(values) - 1, int(0.9 * len(values)))]
        shown = [statistics.median(values), tenth, values[-1], sum(values)]
        print(f"{label:12} " + " ".join(f"{value:>10,.0f}" if index < 2 else f"{value:>10.3f}"
                                         for value in shown[:3]) + f" {shown[3]:>12,.{0 if index < 2 else 1}f}")
    positions = sum(row[0] for row in checked)
    if positions:
        print(f"check: {1e6 * sum(row[3] or 0.0 for row in checked) / positions:.1f} µs a position listed")


if __name__ == "__main__":
    sys.exit(main())
