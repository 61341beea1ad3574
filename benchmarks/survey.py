"""What a survey costs: deals per second per core and the total time of `patience survey` (max-cards
mode, or `--mode decision`) on a range of numbered deals, and the time a million deals would take.

    nice .venv/bin/python benchmarks/survey.py                        # Black Hole 1..2000, 1 job
    nice .venv/bin/python benchmarks/survey.py --first 100001 --last 120000 --jobs 2
    nice .venv/bin/python benchmarks/survey.py --game all_in_a_row --last 4000 --jobs 2 --before /work/main
    nice .venv/bin/python benchmarks/survey.py --game golf --mode decision --first 2000001 --last 2005000 --jobs 2

With --before CHECKOUT the same survey runs first with that checkout's engine (its .venv, its
package) and then with this one, back to back, so that both meet the same load; --rounds N
alternates them N times. A checkout of an older commit that shares this one's .venv (as docs/survey.md's
figures of issue 55 were measured against main 094b8f7) is made outside the tree, its folders mapped
into the package by links as the editable install maps them, and its search built in place:

    git archive 094b8f7 | tar -x -C /tmp/before && ln -s "$PWD/.venv" /tmp/before/.venv
    for folder in generators runners templates models; do ln -s ../$folder /tmp/before/patience/$folder; done
    (cd /tmp/before && .venv/bin/python setup.py build_ext --inplace)

Wall-clock seconds on a shared machine are only as steady as the machine; the CPU seconds (user and
system) of the survey and all its worker processes are not, much: deals a second per core from CPU
time, and the million projected from them on two cores, are the figures to compare before and after
a change on a loaded machine.
"""

from __future__ import annotations

import argparse
import os
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


def measure(python: str, checkout: Path | None, args: argparse.Namespace) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds of the survey and its workers, seconds inside the workers' per-deal
    clock) of one survey of the range, run by `python` in `checkout` (None: this one)."""
    with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
        db = Path(scratch, "survey.db")
        cpu_before, started = children_cpu(), time.monotonic()
        subprocess.run([python, "-m", "patience", "survey", "--game", args.game, "--seeds",
                        f"{args.first}-{args.last}", "--mode", args.mode, "--jobs", str(args.jobs), "--batch",
                        str(args.batch), "--quiet", "--db", str(db)],
                       check=True, stdout=subprocess.DEVNULL, cwd=checkout)
        total, cpu = time.monotonic() - started, children_cpu() - cpu_before
        with SurveyStore(db, create=False) as store:
            searched = sum(row.seconds for row in store.rows())
    return total, cpu, searched


def report(label: str, deals: int, total: float, cpu: float, searched: float, args: argparse.Namespace) -> None:
    print(f"{label}{args.game} {args.first}..{args.last}, {args.mode} mode, --jobs {args.jobs}, "
          f"batches of {args.batch}")
    print(f"wall {total:.1f} s: {deals / total:.0f} deals/s, {deals / total / args.jobs:.0f} deals/s per job; "
          f"a million at this rate: {MILLION / (deals / total) / 60:.1f} min (load {os.getloadavg()[0]:.1f})")
    print(f"CPU {cpu:.1f} s (user+sys, survey and workers): {1000 * cpu / deals:.3f} ms per deal, "
          f"{deals / cpu:.0f} deals/s per core; a million on {args.cores} cores: "
          f"{MILLION * cpu / deals / args.cores / 60:.1f} min")
    print(f"inside the workers' per-deal clock (deal, search, replay): {searched:.1f} s, "
          f"{1000 * searched / deals:.2f} ms per deal")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="black_hole")
    parser.add_argument("--first", type=int, default=1, help="deals FIRST..LAST (default 1)")
    parser.add_argument("--last", type=int, default=2000, help="deals FIRST..LAST (default 2000)")
    parser.add_argument("--mode", choices=("max-cards", "decision"), default="max-cards")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--cores", type=int, default=2, help="cores the million is projected on (default 2)")
    parser.add_argument("--before", type=Path, help="a checkout whose engine runs the same survey first")
    parser.add_argument("--rounds", type=int, default=1, help="with --before: alternate the two this many times")
    args = parser.parse_args()
    deals = args.last - args.first + 1
    if args.before is None:
        report("", deals, *measure(sys.executable, None, args), args)
        return 0
    before_python = str(args.before.resolve() / ".venv" / "bin" / "python")
    sums = {"before": 0.0, "after": 0.0}
    engines = (("before", before_python, args.before.resolve()), ("after", sys.executable, None))
    for _ in range(args.rounds):
        for label, python, checkout in engines:
            total, cpu, searched = measure(python, checkout, args)
            report(f"{label} ({checkout or 'this checkout'}): ", deals, total, cpu, searched, args)
            sums[label] += cpu
    print(f"CPU after / before: {sums['after'] / sums['before']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
