"""What `survey --certify` costs a survey, and what `check --db` costs (docs/certificates.md, "What
`--certify` costs a survey"):

    nice -n 19 .venv/bin/python benchmarks/survey_certify.py --game black_hole --seeds 1-10000
    nice -n 19 .venv/bin/python benchmarks/survey_certify.py --game all_in_a_row --seeds 1-10000

Runs, each as its own command in a child process, `patience survey` of the seeds into a scratch store,
`patience survey --certify` into another, and `patience check --db` of the certified one, and prints
the CPU seconds of each (user + system of the child and its workers), the ratio of the certified
survey to the plain one, the losses and certificates, the certificates' positions (median, 90th
percentile, largest, total) and stored bytes, and the check's verdict line. A command that fails, or a
check that does not certify every certificate, ends the run with exit 1. `--keep DIR` keeps the
stores in DIR (else a scratch folder, removed at the end).
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def cpu_of(command: list[str]) -> tuple[float, str]:
    """The CPU seconds (user + system) of `command` and its children, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {run.returncode}: {run.stderr.strip()[-300:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, run.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black_hole")
    parser.add_argument("--seeds", default="1-10000")
    parser.add_argument("--keep", type=Path, help="keep the stores in this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        plain, certified = folder / f"{args.game}.plain.sqlite", folder / f"{args.game}.certified.sqlite"
        for store in (plain, certified):
            store.unlink(missing_ok=True)
        survey = [sys.executable, "-m", "patience", "survey", "--game", args.game, "--seeds", args.seeds, "--quiet"]
        plain_cpu, _ = cpu_of([*survey, "--db", str(plain)])
        certified_cpu, _ = cpu_of([*survey, "--db", str(certified), "--certify"])
        check_cpu, checked = cpu_of([sys.executable, "-m", "patience", "check", "--db", str(certified), "--quiet"])
        with sqlite3.connect(certified) as connection:
            lost = connection.execute("SELECT count(*) FROM deals WHERE verdict = 0").fetchone()[0]
            rows = connection.execute("SELECT positions, length(data) FROM certificates").fetchall()
        connection.close()
    positions = sorted(count for count, _ in rows)
    print(f"{args.game} {args.seeds}: {lost:,} lost, {len(rows):,} certified")
    print(f"survey {plain_cpu:.2f} s CPU, survey --certify {certified_cpu:.2f} s ({certified_cpu / plain_cpu:.2f} "
          f"times), check --db {check_cpu:.1f} s")
    if positions:
        print(f"positions: median {statistics.median(positions):,.0f}, 90th pct "
              f"{positions[int(0.9 * len(positions))]:,}, largest {positions[-1]:,}, total {sum(positions):,}; "
              f"stored {sum(size for _, size in rows) / 1e6:.1f} MB")
    print(f"check --db: {checked.strip().splitlines()[-1]}")
    return 0 if len(rows) == lost and "not certified" not in checked else 1


if __name__ == "__main__":
    sys.exit(main())
