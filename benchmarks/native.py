"""The native solver on PySol deals: total and median time per deal, the slowest deals, nodes/s,
and the win rate with a 95% confidence interval; optionally side by side with Shlomi Fish's
black-hole-solve on the same boards (same verdicts required).

    nice .venv/bin/python benchmarks/native.py                          # Black Hole seeds 1..2000
    nice .venv/bin/python benchmarks/native.py --game all_in_a_row --last 500
    nice .venv/bin/python benchmarks/native.py --last 300 --set reach=off --set symmetry=off
    nice .venv/bin/python benchmarks/native.py --last 300 --bhs /tmp/tools/bhs/build/black-hole-solve
    nice .venv/bin/python benchmarks/native.py --last 500 --max-cards   # Wolter's analysis mode
    nice .venv/bin/python benchmarks/native.py --max-cards --batch       # one compiled call for all deals

Times are CPU seconds of this process (native) and of the child process (black-hole-solve), one
deal at a time; on a shared machine they are only as steady as the machine. With --batch the deals
are searched in one call of the compiled engine (no runner, no replay: the throughput a survey
gets), each timed by the search thread's CPU clock.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections import Counter

from patience.commands.solve import parse_options
from patience.generators.deals import PYSOL_GAMES, pysol_deal
from patience.native import engine
from patience.native.board import Board
from patience.native.rules import Rules
from patience.result import Status
from patience.runners.black_hole_solve import BlackHoleSolve
from patience.runners.solve import solve
from patience.runs.process import Limits


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0% and 100%, unlike p +- 2 se)."""
    if trials == 0:
        return (math.nan, math.nan)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (centre - spread, centre + spread)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_native(game: str, seeds: range, limits: Limits, options: dict[str, str]) -> list[dict]:
    rows = []
    for seed in seeds:
        deal = pysol_deal(game, seed)
        started = time.process_time()
        result = solve(deal, "native", limits, options)
        rows.append({"seed": seed, "status": result.status.value, "cpu": time.process_time() - started,
                     "nodes": result.nodes or 0, "max_cards": result.stats.get("max_cards"),
                     "engine": result.stats.get("engine")})
    return rows


def run_batch(game: str, seeds: range, timeout: float, options: dict[str, str]) -> list[dict]:
    """All deals in one compiled call, the rules switched as the native solver's options say."""
    switches = Rules.of({rule: options.get(rule, "on") == "on" for rule in Rules.names()})
    boards = [Board.of(pysol_deal(game, seed)) for seed in seeds]
    max_cards = options.get("max-cards") == "on"
    decisions = engine.decide_many(boards, switches, max_cards, seconds=timeout)
    return [{"seed": seed, "status": row.status.value, "cpu": row.seconds, "nodes": row.nodes,
             "max_cards": row.max_cards if max_cards else None, "engine": "c, one batch"}
            for seed, row in zip(seeds, decisions, strict=True)]


def run_bhs(binary: str, game: str, seeds: range, limits: Limits) -> list[dict]:
    """black-hole-solve through its runner, so its wins are replayed by the validator too."""
    os.environ[BlackHoleSolve.env_var] = binary
    rows = []
    for seed in seeds:
        result = solve(pysol_deal(game, seed), "black-hole-solve", limits)
        if result.status is Status.ERROR:
            raise SystemExit(f"black-hole-solve, seed {seed}: {result.message}")
        rows.append({"seed": seed, "status": result.status.value, "cpu": result.cpu})
    return rows


def describe(name: str, rows: list[dict]) -> list[str]:
    counts = Counter(row["status"] for row in rows)
    times = [row["cpu"] for row in rows]
    solved = counts[Status.SOLVED.value]
    decided = solved + counts[Status.UNSOLVABLE.value]
    low, high = wilson(solved, decided)
    tally = ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
    lines = [f"{name}: {len(rows)} deals, {tally}",
             f"  cpu s: total {sum(times):.2f}, median {statistics.median(times) * 1000:.1f} ms, "
             f"99th percentile {percentile(times, 0.99):.3f} s, max {max(times):.3f} s",
             f"  win rate {solved}/{decided} = {100 * solved / max(decided, 1):.1f}% "
             f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)"]
    if "nodes" in rows[0]:
        nodes = sum(row["nodes"] for row in rows)
        lines.append(f"  nodes: {nodes:,} in all, {nodes / max(sum(times), 1e-9):,.0f} per cpu second")
    slowest = sorted(rows, key=lambda row: row["cpu"], reverse=True)[:5]
    lines.append("  slowest: " + ", ".join(f"seed {row['seed']} {row['cpu']:.3f} s ({row['status']})"
                                           for row in slowest))
    return lines


def max_cards_lines(rows: list[dict]) -> list[str]:
    """Wolter's figures: the average number of cards played, and how many deals stop at 0, 1, 2."""
    played = [row["max_cards"] for row in rows if row["max_cards"] is not None]
    if not played:
        return []
    stuck = Counter(played)
    return [f"  max cards: mean {statistics.fmean(played):.2f}; deals stopping at 0/1/2 cards: "
            f"{stuck[0]}/{stuck[1]}/{stuck[2]} of {len(played)}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=PYSOL_GAMES, default="black_hole")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=2000)
    parser.add_argument("--timeout", type=float, default=60.0, help="per deal, seconds")
    parser.add_argument("--set", action="append", default=[], dest="options", metavar="OPTION=VALUE",
                        help="native solver option, e.g. reach=off (repeatable)")
    parser.add_argument("--max-cards", action="store_true", help="Wolter's analysis mode")
    parser.add_argument("--batch", action="store_true", help="one compiled call for all deals (no replay)")
    parser.add_argument("--bhs", metavar="PATH", help="black-hole-solve binary to compare with")
    args = parser.parse_args(argv)
    seeds = range(args.first, args.last + 1)
    options = parse_options(args.options)
    if args.max_cards:
        options["max-cards"] = "on"
    limits = Limits(timeout=args.timeout)
    started = time.process_time()
    rows = run_batch(args.game, seeds, args.timeout, options) if args.batch else run_native(args.game, seeds, limits,
                                                                                           options)
    spent = time.process_time() - started
    print(f"PySol {args.game} seeds {args.first}..{args.last}, options {options or 'default'}, "
          f"limit {args.timeout:g} s per deal")
    searched = sum(row["cpu"] for row in rows)
    lines = describe(f"native ({rows[0]['engine']})", rows) + max_cards_lines(rows) + [
        f"  throughput: {len(rows) / max(searched, 1e-9):,.0f} deals per cpu second searching "
        f"({1000 * searched / len(rows):.2f} ms per deal); {spent:.2f} cpu s in all with dealing"
        + ("" if args.batch else ", running and replaying")]
    if args.bhs:
        theirs = run_bhs(args.bhs, args.game, seeds, limits)
        lines += describe("black-hole-solve", theirs)
        pairs = [(mine, other) for mine, other in zip(rows, theirs, strict=True)
                 if {mine["status"], other["status"]} <= {"solved", "unsolvable"}]
        differ = [mine["seed"] for mine, other in pairs if mine["status"] != other["status"]]
        lines.append(f"verdicts agree on {len(pairs) - len(differ)}/{len(pairs)} deals decided by both"
                     + (f"; DIFFER on seeds {differ}" if differ else ""))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
