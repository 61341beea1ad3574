"""Whether a survey store gives the rows of a stored export, deal by deal: the same verdict and the
same most cards on every seed the store holds (a change to the search may change its node counts,
never those). Prints the deals that differ and the nodes of both; exit status 1 if any differs.
With --verdicts only the verdicts are compared: a decision-mode survey's most cards is the longest
play it happened to meet, and an export may hold the verdicts alone (`seed,verdict`).

    nice .venv/bin/python benchmarks/survey_check.py all_in_a_row.db docs/survey/all_in_a_row-1m.csv.xz
    nice .venv/bin/python benchmarks/survey_check.py golf.db docs/golf/golf-1m.csv.xz --verdicts
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
    parser.add_argument("--verdicts", action="store_true", help="compare the verdicts alone")
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
                cards = rows[seed].cards if args.verdicts else int(line["cards"])
                stored[seed] = (verdict, cards, int(line.get("nodes") or 0))
    missing = sorted(set(rows) - set(stored))
    differ = [(seed, row.verdict.value, row.cards, *stored[seed][:2]) for seed, row in sorted(rows.items())
              if seed in stored and (row.verdict.value, row.cards) != stored[seed][:2]]
    nodes, old_nodes = sum(rows[seed].nodes for seed in stored), sum(nodes for *_, nodes in stored.values())
    compared = f"; nodes {nodes:,} against {old_nodes:,} ({nodes / old_nodes:.3f})" if old_nodes else ""
    print(f"{len(stored)} deals compared, {len(differ)} differ in verdict{'' if args.verdicts else ' or most cards'}, "
          f"{len(missing)} not in the export{compared}")
    for seed, verdict, cards, old_verdict, old_cards in differ[:50]:
        print(f"  deal {seed}: {verdict} {cards} cards, stored {old_verdict} {old_cards}")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
