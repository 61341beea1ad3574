"""Settle Binary Star through the survey: PySolFC's deals FIRST..LAST decided by `patience survey
--game binary_star` (a node limit, so that the verdicts do not depend on the machine's load), the
store exported one JSON line per deal, and the figures reported from either by `survey report`'s code.

    nice .venv/bin/python benchmarks/binary_star.py --last 10000 --db bs.db       # runs (and resumes) the survey
    .venv/bin/python benchmarks/binary_star.py --db bs.db --export docs/binary_star/results.jsonl.gz
    .venv/bin/python benchmarks/binary_star.py --report docs/binary_star/results.jsonl.gz --plot docs/binary_star.png

An exported line is a survey row: seed, verdict (solved, unsolvable, timeout), the most pile cards
playable (102 for a win), nodes (a lost deal: its proof and its max-cards search) and seconds.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path

from patience.names import BINARY_STAR
from patience.outputs import write_file
from patience.survey import report
from patience.survey.store import UNDECIDED, VERDICTS, Row, SurveyStore

# a verdict's name in an export; files exported before the one status vocabulary say timeout for undecided
BY_NAME = {verdict.value: verdict for verdict in VERDICTS} | {"timeout": UNDECIDED}


def export(db: Path, out: Path) -> int:
    """Write the store's rows, one JSON line per deal in seed order (gzip when `out` ends in .gz)."""
    with SurveyStore(db, create=False) as store:
        rows = store.rows()
    text = "".join(json.dumps({"seed": row.seed, "verdict": row.verdict.value, "cards": row.cards,
                               "nodes": row.nodes, "seconds": round(row.seconds, 4)}) + "\n" for row in rows)
    write_file(out, gzip.compress(text.encode(), mtime=0) if out.suffix == ".gz" else text.encode())
    return len(rows)


def read_rows(path: Path) -> list[Row]:
    """The rows of an exported file."""
    data = path.read_bytes()
    text = (gzip.decompress(data) if path.suffix == ".gz" else data).decode()
    return [Row(line["seed"], BY_NAME[line["verdict"]], line["cards"], line["nodes"], line["seconds"])
            for line in map(json.loads, text.splitlines())]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=10000)
    parser.add_argument("--db", type=Path, default=Path("results/binary_star.db"), help="the survey store")
    parser.add_argument("--nodes", type=int, default=100_000_000, help="node limit per search (100,000,000)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--export", type=Path, help="write the store's rows to this file instead of running")
    parser.add_argument("--report", type=Path, help="print the figures of an exported file instead of running")
    parser.add_argument("--plot", type=Path, help="with --report: the histogram (.png or .svg)")
    args = parser.parse_args()
    if args.export:
        print(f"{args.export}: {export(args.db, args.export)} deals")
        return 0
    if args.report:
        rows = [row for row in read_rows(args.report) if args.first <= row.seed <= args.last]
        summary = report.summarise(BINARY_STAR, rows)
        settings = {"numbering": "pysolfc", "timeout": 600.0, "nodes": args.nodes}
        if args.plot:
            report.plot_histogram(summary, settings, args.plot)
        print(report.render(summary, settings), end="")
        return 0
    args.db.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.run([sys.executable, "-m", "patience", "survey", "--game", BINARY_STAR,
                           "--seeds", f"{args.first}-{args.last}", "--nodes", str(args.nodes), "--timeout", "600",
                           "--jobs", str(args.jobs), "--db", str(args.db)]).returncode


if __name__ == "__main__":
    sys.exit(main())
