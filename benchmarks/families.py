"""Time `gen FORMAT --deals SPEC -o DIR` for every format and print the docs/families.md table.

    nice -n 10 .venv/bin/python benchmarks/families.py --deals black_hole:1-1000 --jobs 2 --out /tmp/families

Each format's family is written into OUT/FORMAT by the installed `patience` (a fresh process, as a
user runs it); the table gives its wall time, files, bytes on disk, mean model size from its index,
and the labels' verdicts (which must be the same in every format).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

FORMATS = ("pddl", "eprime", "cnf", "lp", "xcsp3", "cpsat")
SIZES = {"cnf": ("variables", "clauses"), "lp": ("rows", "columns"), "xcsp3": ("variables", "constraints"),
         "cpsat": ("variables", "constraints"), "pddl": ("objects", "facts", "actions"), "eprime": ()}


def measure(language: str, deals: str, jobs: int, out: Path) -> str:
    target = out / language
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "patience", "gen", language, "--deals", deals, "-o", str(target),
                    "--jobs", str(jobs), "--quiet", "--force"], check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - started
    about = json.loads((target / "index.json").read_text())
    rows = about["instances"]
    files = [path for path in target.iterdir()]
    size = sum(path.stat().st_size for path in files)
    verdicts = Counter(row["status"] for row in rows)
    model = ", ".join(f"{statistics.mean(row[key] for row in rows):,.0f} {key}" for key in SIZES[language]) or "-"
    return (f"| {language} | {wall:,.0f} | {len(files):,} | {size / 2**20:,.1f} | {model} | "
            f"{', '.join(f'{count} {status}' for status, count in sorted(verdicts.items()))} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="black_hole:1-1000")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    print("| format | wall s | files | MiB on disk | mean model size | labels |")
    print("|---|---|---|---|---|---|")
    for language in args.formats.split(","):
        print(measure(language, args.deals, args.jobs, args.out), flush=True)


if __name__ == "__main__":
    main()
