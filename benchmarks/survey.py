"""What a survey costs: deals per second per core and the total time of `patience survey` in
max-cards mode on a range of numbered deals, and the time a million deals would take.

    nice .venv/bin/python benchmarks/survey.py                        # Black Hole 1..2000, 1 job
    nice .venv/bin/python benchmarks/survey.py --game all_in_a_row --last 10000 --jobs 2

Wall-clock seconds on a shared machine: only as steady as the machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from patience.survey.store import SurveyStore


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black_hole")
    parser.add_argument("--last", type=int, default=2000, help="deals 1..LAST (default 2000)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
        db = Path(scratch, "survey.db")
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "patience", "survey", "--game", args.game, "--seeds", f"1-{args.last}",
                        "--jobs", str(args.jobs), "--batch", str(args.batch), "--quiet", "--db", str(db)],
                       check=True, stdout=subprocess.DEVNULL)
        total = time.monotonic() - started
        store = SurveyStore(db, create=False)
        searched = sum(row.seconds for row in store.rows())
        store.close()
    print(f"{args.game} 1..{args.last}, max-cards mode, --jobs {args.jobs}, batches of {args.batch}")
    print(f"total {total:.1f} s: {args.last / total:.0f} deals/s, {args.last / total / args.jobs:.0f} deals/s per core")
    print(f"inside the search (deal, search, replay): {searched:.1f} s, {1000 * searched / args.last:.2f} ms per deal")
    print(f"a million deals at this rate: {1_000_000 / (args.last / total) / 3600:.2f} h on {args.jobs} core(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
