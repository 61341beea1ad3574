"""Every solver route of every game against the native search, on small seeded random deals: the
sweep that finds a false verdict before a user does.

Each deal is decided by the native search and then by every installed route that plays its game,
each with its defaults, under `--cpu` seconds of CPU (and ten times that of wall clock: a loaded
machine stretches the wall clock, not the CPU a run needs). Every win is replayed by the validator before it counts
(the runner core's `judge`), so a route that says "unsolvable" where the native search wins has given
a false loss, and a replayed win where the native search says "unsolvable" shows a false loss of the
native search's: either is a disagreement, and the run ends with exit status 1 if it found one.

    nice -n 15 .venv/bin/python benchmarks/agreement.py run --out agreement --deals 500 --jobs 2 --cpu 30
    .venv/bin/python benchmarks/agreement.py report --out agreement     # docs/agreement.md's table

A run is resumable: rows go to `OUT/rows.jsonl` one deal at a time, and a rerun of the same command
runs only the (deal, route) pairs that have no row (with `--retry-open`, also those that timed out).
`--routes` and `--families` narrow a run; the
deals of a family are numbered 1, 2, ... and dealt from the family's name and that number alone.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patience.errors import UsageError
from patience.games import AnyDeal, game_of
from patience.generators.deals import pysol_deal, random_deal
from patience.golf import deals as golf_deals
from patience.golf.pysol import VARIANTS as GOLF_VARIANTS
from patience.golf.pysol import golf_deal
from patience.grading.hunt import random_binary_star
from patience.lbs import deal as lbs_deal
from patience.names import BLACK_HOLE
from patience.outputs import write_file
from patience.result import Status
from patience.runners.registry import SOLVERS, get_solver
from patience.runners.solve import solve
from patience.runs.pool import runner
from patience.runs.process import Limits
from patience.runs.progress import Progress
from patience.worm_hole import deals as worm_hole_deals

GOLF_SMALL = {"golf_generalised": (False, False), "golf_queens_on_kings_generalised": (True, False),
              "golf_wrap_ranks_generalised": (True, True)}  # family -> (queens_on_kings, wrap_ranks)
WORM_HOLE_SMALL = {"worm_hole_generalised": 1, "worm_hole_two_cells": 2}  # family -> cells
NUMBERED = ("black_hole", "golf")  # PySolFC's numbered deals, counted by their own option
FAMILIES = ("generalised", "all_in_a_row_like", "binary_star_generalised", "lbs", *GOLF_SMALL, *WORM_HOLE_SMALL,
            *NUMBERED)
REFERENCE = "native"
OUTCOMES = ("agree", "open", "error", "disagree")  # per (deal, route)
NATIVE_LIMITS = Limits(timeout=600, cpu=60)
WALL_PER_CPU = 10  # a run's wall-clock limit, in multiples of its CPU limit
ROWS = "rows.jsonl"


def small_deal(family: str, number: int) -> AnyDeal:
    """Deal `number` of `family`, made from those two alone: small enough for every route to decide
    in about a second (at most 16 cards, a Golf deal's stock and start card counted: the MIP routes
    take a minute on some binary star deals of 22), except the numbered families' (NUMBERED), which
    are PySolFC's deals: Black Hole's, and Golf's in the three variants in turn."""
    rng = random.Random(f"{family}/{number}")
    seed = rng.randrange(2 ** 32)
    if family in ("generalised", "all_in_a_row_like"):
        ranks, suits, height = rng.randint(3, 7), rng.randint(1, 4), rng.randint(1, 4)
        while ranks * suits > 16:
            suits -= 1
        return random_deal(ranks, suits, height, seed, empty_foundation=family == "all_in_a_row_like")
    if family == "binary_star_generalised":
        ranks, suits = rng.randint(3, 6), rng.randint(1, 2)
        return random_binary_star(ranks, 1 if ranks > 4 else suits, rng.randint(1, 3), seed)
    if family == "lbs":
        return lbs_deal.random_deal(rng.randint(3, 10), seed)
    if family in GOLF_SMALL:
        ranks, suits = rng.randint(3, 7), rng.randint(1, 4)
        while ranks * suits > 16:
            suits -= 1
        piles = rng.randint(1, min(4, ranks * suits - 1))
        height = rng.randint(1, min(3, (ranks * suits - 1) // piles))
        stock = rng.randint(0, min(6, ranks * suits - 1 - piles * height))
        queens_on_kings, wrap_ranks = GOLF_SMALL[family]
        return golf_deals.random_deal(seed, ranks, suits, piles, height, stock, queens_on_kings, wrap_ranks)
    if family in WORM_HOLE_SMALL:
        ranks, suits, height = rng.randint(3, 7), rng.randint(1, 4), rng.randint(1, 4)
        while ranks * suits > 16:
            suits -= 1
        return worm_hole_deals.random_deal(ranks, suits, height, seed, cells=WORM_HOLE_SMALL[family])
    if family == "black_hole":
        return pysol_deal(BLACK_HOLE, number)
    if family == "golf":  # the three variants in turn
        queens_on_kings, wrap_ranks = tuple(GOLF_VARIANTS.values())[(number - 1) % len(GOLF_VARIANTS)]
        return golf_deal(number, queens_on_kings=queens_on_kings, wrap_ranks=wrap_ranks)
    raise UsageError(f"no deal family {family!r}; the families: {', '.join(FAMILIES)}")


def routes_for(deal: AnyDeal, wanted: Sequence[str] | None) -> list[str]:
    """Every installed solver (by the registry's name) that plays the deal's game, the reference aside."""
    return _routes(game_of(deal).variant(deal), tuple(wanted or SOLVERS))


@functools.cache
def _routes(game: str, names: tuple[str, ...]) -> list[str]:
    return [name for name in names
            if name != REFERENCE and game in get_solver(name).games and get_solver(name).available()]


def outcome(native: Status, route: Status) -> str:
    """How one route's validated verdict stands against the native search's on the same deal."""
    if route is Status.ERROR:
        return "error"
    if not (native.decided and route.decided):
        return "open"
    return "agree" if native is route else "disagree"


@dataclass(frozen=True)
class Task:
    family: str
    number: int
    routes: tuple[str, ...]
    cpu: float


def decide_deal(task: Task) -> list[dict[str, Any]]:
    """The native verdict and each route's on one deal, as rows (one per route)."""
    deal = small_deal(task.family, task.number)
    native = solve(deal, REFERENCE, NATIVE_LIMITS)
    rows = []
    for route in task.routes:
        row = {"family": task.family, "number": task.number, "cards": len(deal.cards), "route": route,
               "native": native.status.value}
        try:
            result = solve(deal, route, Limits(timeout=WALL_PER_CPU * task.cpu, cpu=task.cpu))
        except Exception as error:  # a route that crashes is a fault to list, not the end of the sweep
            rows.append({**row, "status": Status.ERROR.value, "outcome": "error", "wall": 0.0, "cpu": 0.0,
                         "message": f"{type(error).__name__}: {error}"[:200]})
            continue
        rows.append({**row, "status": result.status.value, "outcome": outcome(native.status, result.status),
                     "wall": round(result.wall, 3), "cpu": round(result.cpu, 3), "message": result.message[:200]})
    return rows


def read_rows(folder: Path) -> list[dict[str, Any]]:
    """The rows a run has stored; a last line cut by a stop is dropped (its deal runs again)."""
    path = folder / ROWS
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return rows


def merged_rows(folders: Sequence[Path]) -> list[dict[str, Any]]:
    """The rows of several runs, a (family, deal, route) pair run more than once kept once: by its worst
    outcome, so that a disagreement in any run stays in the merge."""
    kept: dict[tuple[str, int, str], dict[str, Any]] = {}
    for folder in folders:
        for row in read_rows(folder):
            key = (row["family"], row["number"], row["route"])
            if key not in kept or OUTCOMES.index(row["outcome"]) > OUTCOMES.index(kept[key]["outcome"]):
                kept[key] = row
    return list(kept.values())


def plan(families: Iterable[str], deals: int, routes: Sequence[str] | None, cpu: float,
         done: set[tuple[str, int, str]], black_hole_deals: int, golf_deals: int = 0) -> list[Task]:
    """The deals with routes left to run, the families in turns (deal 1 of each, then deal 2...), so that a
    run stopped early has covered every family about equally."""
    tasks = []
    counts = {"black_hole": black_hole_deals, "golf": golf_deals}  # the numbered families' own counts
    for number in range(1, max(deals, *counts.values()) + 1):
        for family in families:
            if number > counts.get(family, deals):
                continue
            missing = tuple(route for route in routes_for(small_deal(family, number), routes)
                            if (family, number, route) not in done)
            if missing:
                tasks.append(Task(family, number, missing, cpu))
    return tasks


def run(folder: Path, families: Sequence[str], deals: int, routes: Sequence[str] | None, cpu: float,
        jobs: int, black_hole_deals: int, show_progress: bool = True, retry_open: bool = False,
        golf_deals: int = 0) -> Counter[str]:
    """Run every missing (deal, route) pair, appending each deal's rows as it finishes; the outcomes of
    the whole store."""
    folder.mkdir(parents=True, exist_ok=True)
    stored = [row for row in read_rows(folder) if not (retry_open and row["outcome"] == "open")]
    write_file(folder / ROWS, "".join(json.dumps(row) + "\n" for row in stored))  # drop a cut last line
    done = {(row["family"], row["number"], row["route"]) for row in stored}
    tasks = plan(families, deals, routes, cpu, done, black_hole_deals, golf_deals)
    progress = Progress(len(tasks), {}, enabled=show_progress, shown=OUTCOMES, title="agreement")
    counts = Counter(row["outcome"] for row in stored)

    def keep(rows: list[dict[str, Any]]) -> None:
        with (folder / ROWS).open("a", encoding="utf-8") as out:
            out.write("".join(json.dumps(row) + "\n" for row in rows))
        counts.update(row["outcome"] for row in rows)
        worst = max((row["outcome"] for row in rows), key=OUTCOMES.index, default="agree")
        progress.update(worst)

    runner(jobs)(decide_deal, tasks, keep)
    progress.finish()
    return counts


def table(rows: Sequence[dict[str, Any]]) -> str:
    """A markdown table: per route, the deals run and their outcomes, the families it played."""
    by_route: dict[str, Counter[str]] = defaultdict(Counter)
    families: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        by_route[row["route"]][row["outcome"]] += 1
        families[row["route"]].add(row["family"])
    lines = ["| route | runs | agree | open | error | disagree | families |", "|---|---:|---:|---:|---:|---:|---|"]
    for route in sorted(by_route):
        counts = by_route[route]
        lines.append(f"| {route} | {sum(counts.values()):,} | " + " | ".join(f"{counts[name]:,}" for name in OUTCOMES)
                     + f" | {', '.join(sorted(families[route]))} |")
    total = Counter(row["outcome"] for row in rows)
    deals = len({(row["family"], row["number"]) for row in rows})
    lines.append(f"| all | {sum(total.values()):,} | " + " | ".join(f"{total[name]:,}" for name in OUTCOMES)
                 + f" | {deals:,} deals |")
    return "\n".join(lines)


def disagreements(rows: Sequence[dict[str, Any]]) -> list[str]:
    return [f"{row['family']} deal {row['number']} ({row['cards']} cards): {row['route']} says {row['status']}, "
            f"native {row['native']}" for row in rows if row["outcome"] == "disagree"]


def main(arguments: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run", help="run the sweep (resumable)")
    run_parser.add_argument("--out", type=Path, required=True)
    run_parser.add_argument("--deals", type=int, default=20, help="deals of each small family")
    run_parser.add_argument("--black-hole-deals", type=int, default=5, help="PySolFC's Black Hole deals 1..N")
    run_parser.add_argument("--golf-deals", type=int, default=3,
                            help="PySolFC's Golf deals 1..N (golf, queens on kings, wrap ranks in turn)")
    run_parser.add_argument("--families", default=",".join(FAMILIES))
    run_parser.add_argument("--routes", default="", help="comma-separated solvers (default: every installed one)")
    run_parser.add_argument("--cpu", type=float, default=30.0, help="seconds of CPU a route run")
    run_parser.add_argument("--retry-open", action="store_true", help="run again the pairs that timed out")
    run_parser.add_argument("--jobs", type=int, default=1)
    report_parser = commands.add_parser("report", help="the table of one run or of several merged")
    report_parser.add_argument("--out", type=Path, required=True, action="append",
                               help="a run's folder; given again, the runs are merged (a pair run twice counts once)")
    options = parser.parse_args(arguments)
    try:
        if options.command == "run":
            families = [name.strip() for name in options.families.split(",") if name.strip()]
            for family in families:
                small_deal(family, 1)  # an unknown family is refused before anything runs
            routes = [name.strip() for name in options.routes.split(",") if name.strip()] or None
            for route in routes or ():
                get_solver(route)
            run(options.out, families, options.deals, routes, options.cpu, options.jobs,
                options.black_hole_deals, retry_open=options.retry_open, golf_deals=options.golf_deals)
    except UsageError as error:
        print(f"agreement.py: {error}", file=sys.stderr)
        return 2
    rows = merged_rows(options.out if options.command == "report" else [options.out])
    print(table(rows))
    wrong = disagreements(rows)
    for line in wrong:
        print(f"DISAGREEMENT: {line}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
