"""Late Binding Solitaire: the course's instances decided by each route, with the verdicts checked.

    nice .venv/bin/python benchmarks/lbs.py                                  # native on all 43
    nice .venv/bin/python benchmarks/lbs.py --solver cadical --max-cards 14
    nice .venv/bin/python benchmarks/lbs.py --solver savilerow --max-cards 10 --timeout 120
    nice .venv/bin/python benchmarks/lbs.py --generate 12..20 --per-size 5   # seeded LBS<n>_<k>, native only

Per instance: verdict, seconds (wall), the route's figures, and whether the verdict agrees with
the native search and with the course's Savile Row .info file (where that run was not cut off).
Every claimed win is replayed. Times are wall-clock on whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from patience.commands.solve import parse_options
from patience.generators.eprime.solution import read_info
from patience.lbs import solver
from patience.lbs.deal import load_deal, random_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits

COURSE = Path(__file__).resolve().parent.parent / "instances" / "lbs-coursework"


def course_verdict(param: Path) -> str | None:
    info_path = Path(f"{param}.info")
    if not info_path.exists():
        return None
    info = read_info(info_path.read_text(), info_path.name)
    if info.get("SolverTimeOut") or info.get("SavileRowTimeOut"):
        return None
    return "solved" if info.get("SolverSatisfiable") else "unsolvable"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver", default="native", help="a solver of `patience solvers` that plays lbs")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", dest="options")
    parser.add_argument("--folder", type=Path, default=COURSE)
    parser.add_argument("--max-cards", type=int, default=52)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--generate", help="N..M: seeded deals of N to M cards instead of the folder")
    parser.add_argument("--per-size", type=int, default=2)
    args = parser.parse_args()
    if args.generate:
        low, high = (int(part) for part in args.generate.split(".."))
        deals = [(random_deal(n, seed), None) for n in range(low, high + 1) for seed in range(args.per_size)]
    else:
        deals = [(load_deal(str(path)), course_verdict(path)) for path in sorted(args.folder.rglob("*.param"))]
    deals = sorted(((deal, known) for deal, known in deals if len(deal.cards) <= args.max_cards),
                   key=lambda item: (len(item[0].cards), item[0].name))
    times, verdicts, disagreements = [], [], 0
    print(f"{'instance':10} {'n':>3} {'verdict':11} {'seconds':>8}  native  course  figures")
    for deal, known in deals:
        result = solve(deal, args.solver, Limits(timeout=args.timeout), parse_options(args.options))
        verdict = result.status.value if result.decided or result.status is Status.ERROR else "unknown"
        native = solver.solve(deal, timeout=args.timeout).verdict
        agree_native = "-" if "unknown" in (verdict, native) else ("yes" if verdict == native else "NO")
        agree_course = "-" if known is None or verdict == "unknown" else ("yes" if verdict == known else "NO")
        disagreements += "NO" in (agree_native, agree_course) or result.status is Status.ERROR
        counts = ({"nodes": result.nodes} if result.nodes is not None else {}) | dict(result.stats)
        figures = " ".join(f"{key}={value}" for key, value in counts.items())
        print(f"{deal.name:10} {len(deal.cards):>3} {verdict:11} {result.wall:8.3f}  "
              f"{agree_native:6}  {agree_course:6}  {figures}")
        times.append(result.wall)
        verdicts.append(verdict)
    decided = sum(verdict in ("solved", "unsolvable") for verdict in verdicts)
    print(f"{args.solver}: {len(deals)} instances, {decided} decided ({verdicts.count('solved')} solved, "
          f"{verdicts.count('unsolvable')} unsolvable), {disagreements} disagreements; "
          f"total {sum(times):.2f} s, median {statistics.median(times) if times else 0:.3f} s, "
          f"max {max(times, default=0):.2f} s")


if __name__ == "__main__":
    main()
