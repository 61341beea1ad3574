"""What the campaign machinery costs: one campaign of the native solver on PySol deals through
`patience compare` (process pool, SQLite store, re-validation) against the same runs made directly,
and the time a rerun needs to find that everything is already stored.

    nice .venv/bin/python benchmarks/campaign.py                 # Black Hole seeds 1..300, 2 jobs
    nice .venv/bin/python benchmarks/campaign.py --last 1000 --jobs 1

Wall-clock seconds on a shared machine: only as steady as the machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from patience.generators.deals import pysol_deal
from patience.runners.solve import solve
from patience.runs.process import Limits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black_hole")
    parser.add_argument("--last", type=int, default=300, help="seeds 1..LAST (default 300)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    spec = f"{args.game}:1-{args.last}"

    started = time.monotonic()
    for seed in range(1, args.last + 1):
        solve(pysol_deal(args.game, seed), "native", Limits(timeout=args.timeout))
    direct = time.monotonic() - started

    with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
        command = [sys.executable, "-m", "patience", "compare", "--deals", spec, "--solvers", "native",
                   "--timeout", str(args.timeout), "--jobs", str(args.jobs), "--quiet",
                   "--db", str(Path(scratch, "runs.sqlite"))]
        timings = []
        for _ in range(2):
            started = time.monotonic()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            timings.append(time.monotonic() - started)
    print(f"{spec}, native, timeout {args.timeout:g} s")
    print(f"direct solve() calls, one process:     {direct:8.2f} s ({direct / args.last * 1000:.1f} ms/deal)")
    print(f"patience compare --jobs {args.jobs}:             {timings[0]:8.2f} s "
          f"({timings[0] / args.last * 1000:.1f} ms/deal, {args.last / timings[0]:.1f} runs/s)")
    print(f"rerun with every row stored (resume): {timings[1]:8.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
