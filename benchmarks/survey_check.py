"""Whether a survey store gives the rows of a stored export, deal by deal: the same verdict and the
same most cards on every seed the store holds (a change to the search may change its node counts,
never those). Prints the deals that differ and the nodes of both; exit status 1 if any differs.

    nice .venv/bin/python benchmarks/survey_check.py all_in_a_row.db docs/survey/all_in_a_row-1m.csv.xz
"""

from __future__ import annotations

import argparse
import csv
import gzip
import lzma
from pathlib import Path
from typing import IO

from patience.survey.store import SurveyStore

OLD_NAMES = {"timeout": "unknown"}  # exports written before the one limit rule say timeout


def opened(path: Path) -> IO[str]:
    if path.name.endswith(".xz"):
        return lzma.open(path, "rt")
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt")
    return path.open()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path, help="a survey store (patience survey --db)")
    parser.add_argument("export", type=Path, help="the rows to hold it to (patience survey export: .csv, .csv.xz)")
    args = parser.parse_args()
    store = SurveyStore(args.store, create=False)
    rows = {row.seed: row for row in store.rows()}
    store.close()
    stored: dict[int, tuple[str, int, int]] = {}
    with opened(args.export) as lines:
        for line in csv.DictReader(lines):
            seed = int(line["seed"])
            if seed in rows:
                verdict = OLD_NAMES.get(line["verdict"], line["verdict"])
                stored[seed] = (verdict, int(line["cards"]), int(line["nodes"]))
    missing = sorted(set(rows) - set(stored))
    differ = [(seed, row.verdict.value, row.cards, *stored[seed][:2]) for seed, row in sorted(rows.items())
              if seed in stored and (row.verdict.value, row.cards) != stored[seed][:2]]
    nodes, old_nodes = sum(rows[seed].nodes for seed in stored), sum(nodes for *_, nodes in stored.values())
    print(f"{len(stored)} deals compared, {len(differ)} differ in verdict or most cards, {len(missing)} not in the "
          f"export; nodes {nodes:,} against {old_nodes:,} ({nodes / max(old_nodes, 1):.3f})")
    for seed, verdict, cards, old_verdict, old_cards in differ[:50]:
        print(f"  deal {seed}: {verdict} {cards} cards, stored {old_verdict} {old_cards}")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
