"""What a survey costs: deals per second per core and the total time of `patience survey` in
max-cards mode on a range of numbered deals, and the time a million deals would take.

    nice .venv/bin/python benchmarks/survey.py                        # Black Hole 1..2000, 1 job
    nice .venv/bin/python benchmarks/survey.py --first 100001 --last 120000 --jobs 2

Wall-clock seconds on a shared machine are only as steady as the machine; the CPU seconds (user and
system) of the survey and all its worker processes are not, much: deals a second per core from CPU
time, and the million projected from them on two cores, are the figures to compare before and after
a change on a loaded machine.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from patience.survey.store import SurveyStore

MILLION = 1_000_000


def children_cpu() -> float:
    """User and system seconds of every child process waited for so far (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black_hole")
    parser.add_argument("--first", type=int, default=1, help="deals FIRST..LAST (default 1)")
    parser.add_argument("--last", type=int, default=2000, help="deals FIRST..LAST (default 2000)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--cores", type=int, default=2, help="cores the million is projected on (default 2)")
    args = parser.parse_args()
    deals = args.last - args.first + 1
    with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
        db = Path(scratch, "survey.db")
        cpu_before, started = children_cpu(), time.monotonic()
        subprocess.run([sys.executable, "-m", "patience", "survey", "--game", args.game, "--seeds",
                        f"{args.first}-{args.last}", "--jobs", str(args.jobs), "--batch", str(args.batch), "--quiet",
                        "--db", str(db)], check=True, stdout=subprocess.DEVNULL)
        total, cpu = time.monotonic() - started, children_cpu() - cpu_before
        with SurveyStore(db, create=False) as store:
            searched = sum(row.seconds for row in store.rows())
    print(f"{args.game} {args.first}..{args.last}, max-cards mode, --jobs {args.jobs}, batches of {args.batch}")
    print(f"wall {total:.1f} s: {deals / total:.0f} deals/s, {deals / total / args.jobs:.0f} deals/s per job; "
          f"a million at this rate: {MILLION / (deals / total) / 60:.1f} min")
    print(f"CPU {cpu:.1f} s (user+sys, survey and workers): {1000 * cpu / deals:.3f} ms per deal, "
          f"{deals / cpu:.0f} deals/s per core; a million on {args.cores} cores: "
          f"{MILLION * cpu / deals / args.cores / 60:.1f} min")
    print(f"inside the workers' per-deal clock (deal, search, replay): {searched:.1f} s, "
          f"{1000 * searched / deals:.2f} ms per deal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
