"""Golf's native search against Shlomi Fish's black-hole-solve, deal by deal, in every variant.

Each PySolFC Golf deal is decided in each variant (golf, golf_queens_on_kings, golf_wrap_ranks) by
the native search and by black-hole-solve (`--game golf` with the variant's flag), both through
`patience.runners.solve.solve`, so that every win of either is replayed by Golf's rules before it
counts. A deal both decide differently is a disagreement: it is listed, and the run exits 1.
black-hole-solve is found as its runner finds it (BLACK_HOLE_SOLVE_PATH, else `black-hole-solve`
on PATH).

    nice -n 15 .venv/bin/python benchmarks/golf_fish.py run --out golf-fish --first 1000001 --deals 2000
    .venv/bin/python benchmarks/golf_fish.py report --out golf-fish     # the table again

A run is resumable: rows go to `OUT/rows.jsonl` one (deal, variant) at a time, and a rerun of the
same command runs only the pairs without a row. The report gives, per variant, the verdicts, the
win rate with its Wilson interval, the agreement and the CPU seconds each solver spent (the native
search's own thread, black-hole-solve's process), with the mean and the slowest deal.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from patience.golf.pysol import VARIANTS, numbered_deal
from patience.outputs import write_file
from patience.result import Status
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.runs.progress import Progress
from patience.survey.report import wilson

FISH, NATIVE = "black-hole-solve", "native"
OUTCOMES = ("agree", "open", "error", "disagree")
ROWS = "rows.jsonl"
WALL_PER_CPU = 10  # a run's wall-clock limit in multiples of its CPU limit (a loaded machine stretches the wall)


def outcome(native: Status, fish: Status) -> str:
    """How the two validated verdicts on one deal stand: agree, open (either undecided), error or disagree."""
    if Status.ERROR in (native, fish):
        return "error"
    if not (native.decided and fish.decided):
        return "open"
    return "agree" if native is fish else "disagree"


def decide(seed: int, variant: str, cpu: float) -> dict[str, Any]:
    """One deal in one variant, by both solvers: the row the store keeps."""
    deal = numbered_deal(variant, seed)
    limits = Limits(timeout=WALL_PER_CPU * cpu, cpu=cpu)
    row: dict[str, Any] = {"seed": seed, "variant": variant}
    results = {}
    for solver in (NATIVE, FISH):
        result = solve(deal, solver, limits)
        results[solver] = result.status
        row[solver] = {"status": result.status.value, "cpu": round(result.cpu, 4), "nodes": result.nodes,
                       "engine": str(result.stats.get("engine", "")), "message": result.message[:200]}
    row["outcome"] = outcome(results[NATIVE], results[FISH])
    return row


def read_rows(folder: Path) -> list[dict[str, Any]]:
    """The rows a run has stored; a last line cut by a stop is dropped (its pair runs again)."""
    path = folder / ROWS
    rows: list[dict[str, Any]] = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                break
    return rows


def run(folder: Path, seeds: Sequence[int], variants: Sequence[str], cpu: float, show_progress: bool = True) -> None:
    """Decide every (deal, variant) pair without a row, appending each row as it is made."""
    folder.mkdir(parents=True, exist_ok=True)
    stored = read_rows(folder)
    write_file(folder / ROWS, "".join(json.dumps(row) + "\n" for row in stored))  # drops a cut last line
    done = {(row["seed"], row["variant"]) for row in stored}
    tasks = [(seed, variant) for seed in seeds for variant in variants if (seed, variant) not in done]
    progress = Progress(len(tasks), {}, enabled=show_progress, shown=OUTCOMES, title="golf vs black-hole-solve")
    with progress, (folder / ROWS).open("a", encoding="utf-8") as out:
        for seed, variant in tasks:
            row = decide(seed, variant, cpu)
            out.write(json.dumps(row) + "\n")
            out.flush()
            progress.update(row["outcome"])
    progress.finish()


def report(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Per variant: verdicts, win rate (Wilson 95%), agreement, and each solver's CPU on the deals the
    native search ran compiled (`timed`: a run of the Python search, while the compiled one was being
    rebuilt, or of an older row that did not say, counts in the verdicts only)."""
    lines = ["| variant | deals | won | lost | open | win rate (95% Wilson) | agree | disagree | error | timed "
             "| native CPU s (mean, max) | black-hole-solve CPU s (mean, max) |",
             "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---|"]
    for variant in VARIANTS:
        mine = [row for row in rows if row["variant"] == variant]
        if not mine:
            continue
        outcomes = Counter(row["outcome"] for row in mine)
        verdicts = Counter(row[NATIVE]["status"] for row in mine)
        won, lost = verdicts[Status.SOLVED.value], verdicts[Status.UNSOLVABLE.value]
        low, high = wilson(won, won + lost)
        seeds = [row["seed"] for row in mine]
        rate = f"{100 * won / max(won + lost, 1):.2f}% ({100 * low:.2f}-{100 * high:.2f}%)"
        cells = [f"{variant}", f"{len(mine):,} ({min(seeds)}-{max(seeds)})", f"{won:,}", f"{lost:,}",
                 f"{len(mine) - won - lost:,}", rate,
                 f"{outcomes['agree']:,}", f"{outcomes['disagree']:,}", f"{outcomes['error']:,}"]
        timed = [row for row in mine if row[NATIVE].get("engine") == "c"]
        cells.append(f"{len(timed):,}")
        for solver in (NATIVE, FISH):
            times = [row[solver]["cpu"] for row in timed] or [0.0]
            cells.append(f"{sum(times):,.1f} ({sum(times) / len(times):.3f}, {max(times):.2f})")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def faults(rows: Sequence[dict[str, Any]]) -> list[str]:
    """A line for each pair the two decided differently (DISAGREEMENT) or where either failed (ERROR)."""
    return [f"{'DISAGREEMENT' if row['outcome'] == 'disagree' else 'ERROR'}: {row['variant']} deal {row['seed']}: "
            f"native {row[NATIVE]['status']} {row[NATIVE]['message']}, black-hole-solve {row[FISH]['status']} "
            f"{row[FISH]['message']}".rstrip() for row in rows if row["outcome"] in ("disagree", "error")]


def main(arguments: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run", help="decide the deals (resumable)")
    run_parser.add_argument("--out", type=Path, required=True)
    run_parser.add_argument("--first", type=int, default=1_000_001, help="first PySolFC Golf deal number")
    run_parser.add_argument("--deals", type=int, default=2000, help="how many consecutive deals")
    run_parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated, of " + ", ".join(VARIANTS))
    run_parser.add_argument("--cpu", type=float, default=60.0, help="CPU seconds per solver run")
    report_parser = commands.add_parser("report", help="the table of a run")
    report_parser.add_argument("--out", type=Path, required=True)
    options = parser.parse_args(arguments)
    if options.command == "run":
        variants = [name.strip() for name in options.variants.split(",") if name.strip()]
        unknown = [name for name in variants if name not in VARIANTS]
        if unknown or options.deals < 1 or options.first < 1:
            print(f"golf_fish.py: variants are {', '.join(VARIANTS)}; --first and --deals from 1", file=sys.stderr)
            return 2
        fish = get_solver(FISH)
        if not fish.available():
            print(f"golf_fish.py: {FISH} not found: {fish.install_hint()}", file=sys.stderr)
            return 2
        run(options.out, range(options.first, options.first + options.deals), variants, options.cpu)
    rows = read_rows(options.out)
    print("\n".join(report(rows)))
    wrong = faults(rows)
    print("\n".join(wrong))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
