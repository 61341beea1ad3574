"""The certificates a `survey --certify` kept, measured loss by loss: size and checking time
(docs/certificates.md, "Sizes and times"):

    nice -n 19 .venv/bin/python benchmarks/stored_certificates.py bh.sqlite --losses 10000 --rows bh.rows
    nice -n 19 .venv/bin/python benchmarks/stored_certificates.py grid/*.db --every 4 --rows grid.rows

Takes the certificates of each STORE by deal number (the first `--losses` of each, default all),
checks every `--every`-th of them (1: each) with patience.checker from files, as `patience check`
does, and times each check by this process's CPU. Prints per store, and for all stores together
when there are several: the store's lost deals and the certificates taken; the positions, bytes and
seconds to make (as the store has them) of a certificate, each as median, 90th percentile, largest
and total; and the check seconds of those checked, the same four and µs a position listed.
`--rows FILE` keeps a line a certificate (store, seed, positions, bytes, seconds to make it, check
seconds or -), appended as each is done, and skips those FILE already holds: a stopped run goes on
where it was. A certificate the checker refuses ends the run with exit 1.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TextIO

from patience.checker import Broken, check
from patience.games import write_game_deal
from patience.survey.decide import Batch
from patience.survey.store import SurveyStore

Row = tuple[int, int, float, float | None]  # positions, bytes, seconds to make it, check seconds (None: not checked)


def batch_of(store: SurveyStore) -> Batch:
    """How the store's deals are made again from their numbers (as `check --db` makes them)."""
    settings = store.settings()
    shape = settings.get("shape")
    return Batch(str(settings["game"]), None if shape else str(settings.get("numbering")), (), 0.0,
                 shape=tuple(shape) if isinstance(shape, list) else None)


def read_rows(path: Path | None) -> dict[tuple[str, int], Row]:
    done: dict[tuple[str, int], Row] = {}
    if path is not None and path.exists():
        for line in path.read_text().splitlines():
            name, seed, positions, size, made, seconds = line.split("\t")
            done[name, int(seed)] = (int(positions), int(size), float(made), None if seconds == "-" else float(seconds))
    return done


def measure(path: Path, args: argparse.Namespace, done: dict[tuple[str, int], Row], scratch: Path,
            kept: TextIO | None) -> list[Row]:
    rows: list[Row] = []
    deal_file, certificate_file = scratch / "deal.yaml", scratch / "deal.certificate"
    with SurveyStore(path, create=False) as store:
        batch = batch_of(store)
        lost = store.database.read("SELECT count(*) FROM deals WHERE verdict = 0")[0][0]
        for index, certificate in enumerate(itertools.islice(store.certificates(), args.losses)):
            key = (path.name, certificate.seed)
            if key in done:
                rows.append(done[key])
                continue
            seconds = None
            if index % args.every == 0:
                deal_file.write_text(write_game_deal(batch.deal(certificate.seed), "yaml"), encoding="utf-8")
                certificate_file.write_bytes(certificate.data)
                started = time.process_time()
                try:
                    check(deal_file, certificate_file)
                except Broken as broken:
                    sys.exit(f"{path} deal {certificate.seed}: not certified: {broken}")
                seconds = time.process_time() - started
            rows.append((certificate.positions, len(certificate.data), certificate.seconds, seconds))
            if kept is None:
                continue
            kept.write(f"{path.name}\t{certificate.seed}\t{certificate.positions}\t{len(certificate.data)}\t"
                       f"{certificate.seconds:.6f}\t{'-' if seconds is None else f'{seconds:.6f}'}\n")
            kept.flush()
    report(f"{path.name}: {lost:,} lost", rows)
    return rows


def figures(values: list[float]) -> tuple[float, float, float, float]:
    values = sorted(values)
    return (statistics.median(values), values[min(len(values) - 1, int(0.9 * len(values)))], values[-1],
            sum(values))


def report(title: str, rows: list[Row]) -> None:
    checked = [row for row in rows if row[3] is not None]
    print(f"{title}, {len(rows):,} certificates taken, {len(checked):,} checked")
    if not rows:
        return
    for label, values in (("positions", [row[0] for row in rows]), ("bytes", [row[1] for row in rows])):
        print(f"  {label:9} median {figures(values)[0]:,.0f}, 90th pct {figures(values)[1]:,.0f}, "
              f"largest {figures(values)[2]:,.0f}, total {figures(values)[3]:,.0f}")
    median, tenth, largest, total = figures([row[2] for row in rows])
    print(f"  made s    median {median:.4f}, 90th pct {tenth:.4f}, largest {largest:.3f}, total {total:.1f}")
    if checked:
        median, tenth, largest, total = figures([row[3] or 0.0 for row in checked])
        positions = sum(row[0] for row in checked)
        print(f"  check s   median {median:.4f}, 90th pct {tenth:.4f}, largest {largest:.3f}, total {total:.1f}; "
              f"{1e6 * total / max(positions, 1):.1f} µs a position listed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stores", type=Path, nargs="+", help="survey stores run with --certify")
    parser.add_argument("--losses", type=int, help="the first N certificates of each store (default all)")
    parser.add_argument("--every", type=int, default=1, metavar="K", help="check every K-th certificate only")
    parser.add_argument("--rows", type=Path, help="keep a line a certificate here, and skip those it holds")
    args = parser.parse_args()
    done = read_rows(args.rows)
    every: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="stored-certificates-") as scratch, contextlib.ExitStack() as stack:
        kept = None if args.rows is None else stack.enter_context(args.rows.open("a", encoding="utf-8"))
        for path in args.stores:
            every += measure(path, args, done, Path(scratch), kept)
    if len(args.stores) > 1:
        report(f"all {len(args.stores)} stores", every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
