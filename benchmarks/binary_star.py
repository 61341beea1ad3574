"""Settle Binary Star: decide PySolFC's deals FIRST..LAST with the native search, replay every win
in the validator, and find the most cards a lost deal lets one play (Wolter's analysis mode).

    nice .venv/bin/python benchmarks/binary_star.py --last 10000 --out results/binary_star.jsonl
    .venv/bin/python benchmarks/binary_star.py --last 10000 --out results/binary_star.jsonl --report \
        --plot docs/binary_star.png

Each deal is one JSON line in --out (seed, status, cards played, nodes, CPU seconds of the search,
replay verdict); a run started again skips the seeds already there, so it can be stopped and
resumed, except deals left undecided with fewer nodes than --nodes now allows (searched again;
the last row of a seed counts). A deal is searched in decision mode with a node limit (so that verdicts do not depend on
the machine's load); a deal proved lost is searched again in max-cards mode (same limit) for the
longest play. --report prints the figures of each seed's last line in the file (and the CPU time
of every line, retries included) and draws the histogram of cards played; it reads a
gzip-compressed copy (a name ending in .gz) as well.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from patience.binary_star.deal import pysolfc_deal
from patience.binary_star.rules import replay
from patience.campaign.progress import Progress
from patience.native import engine
from patience.native.board import Board
from patience.runners.native import binary_star_plays

RULES = dict.fromkeys(("cache", "symmetry", "wolter", "reach", "restarts"), True)
START_CARDS = 2  # A♠ and K♥ begin on the foundations: Wolter counts them among the 104


def decide(seed: int, nodes: int, seconds: float | None) -> dict[str, object]:
    """One deal's row: status (solved, unsolvable, limit), pile cards played at most, effort."""
    deal = pysolfc_deal(seed)
    board = Board.of_piles(deal.piles, deal.foundations, deal.ranks)
    started = time.process_time()
    outcome, _ = engine.run_board(board, "c", RULES, False, nodes, seconds)
    row: dict[str, object] = {"seed": seed, "status": outcome.status, "nodes": outcome.nodes}
    if outcome.status == engine.SOLVED:
        verdict = replay(deal, binary_star_plays(outcome))
        row.update(cards=len(deal.cards) if verdict.valid else None, replay=verdict.describe())
    elif outcome.status == engine.UNSOLVABLE:
        longest, _ = engine.run_board(board, "c", RULES, True, nodes, seconds)
        row.update(cards=longest.max_cards, exact=longest.status != engine.LIMIT, nodes_max=longest.nodes)
    else:  # the longest play met before the limit: a lower bound
        row.update(cards=outcome.max_cards, exact=False)
    row["seconds"] = round(time.process_time() - started, 3)
    return row


def run(first: int, last: int, out: Path, nodes: int, seconds: float | None) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    done = latest(read_rows(out))
    seeds = [seed for seed in range(first, last + 1)
             if seed not in done or (done[seed]["status"] == engine.LIMIT and done[seed]["nodes"] < nodes)]
    progress = Progress(last - first + 1, Counter(_shown(row) for seed, row in done.items()
                                                  if first <= seed <= last and seed not in seeds))
    with out.open("a") as stream:
        for seed in seeds:
            row = decide(seed, nodes, seconds)
            stream.write(json.dumps(row) + "\n")
            stream.flush()
            progress.update(_shown(row))
    progress.finish()


def _shown(row: dict) -> str:
    return {"limit": "timeout"}.get(row["status"], row["status"])


def latest(rows: list[dict]) -> dict[int, dict]:
    """Each seed's last row (a deal left undecided may be searched again with more nodes)."""
    return {row["seed"]: row for row in rows}


def read_rows(path: Path) -> list[dict]:
    """The rows of a results file, gzip-compressed when its name ends in .gz (the committed copy)."""
    if not path.exists():
        return []
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def report(rows: list[dict], plot: Path | None, every_search: float) -> None:
    total = len(rows)
    counts = Counter(row["status"] for row in rows)
    bad = [row["seed"] for row in rows
           if row["status"] == engine.SOLVED and row.get("replay", "").startswith("invalid")]
    cards = [row["cards"] for row in rows if row.get("cards") is not None]
    inexact = sum(1 for row in rows if row.get("cards") is not None and not row.get("exact", True))
    seconds = [row["seconds"] for row in rows]
    print(f"deals {min(row['seed'] for row in rows)}..{max(row['seed'] for row in rows)}: {total}")
    for status in (engine.SOLVED, engine.UNSOLVABLE, engine.LIMIT):
        print(f"  {status:10} {counts[status]:6}  {100 * counts[status] / total:5.1f}%")
    print(f"  wins rejected by the replay: {len(bad)} {bad[:10]}")
    print(f"  mean pile cards played: {statistics.mean(cards):.2f} of 102 "
          f"({statistics.mean(cards) + START_CARDS:.2f} of 104 with the start cards; {len(cards)} deals, "
          f"{inexact} of them with a lower bound: the longest play met before the node limit)")
    print(f"  CPU seconds: total {sum(seconds):.1f}, mean {statistics.mean(seconds):.3f}, "
          f"max {max(seconds):.1f} (seed {max(rows, key=lambda row: row['seconds'])['seed']}); "
          f"{every_search:.1f} with the searches of deals searched again")
    if plot is not None:
        _histogram(rows, plot)
        print(f"  histogram: {plot}")


def _histogram(rows: list[dict], plot: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lost = [row["cards"] + START_CARDS for row in rows if row["status"] == engine.UNSOLVABLE]
    undecided = [row["cards"] + START_CARDS for row in rows if row["status"] == engine.LIMIT and "cards" in row]
    won = sum(1 for row in rows if row["status"] == engine.SOLVED)
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.hist([lost, undecided], bins=range(0, 106), color=["tab:red", "tab:grey"], stacked=True,
              label=["lost: most cards playable", "undecided: longest play found (a lower bound)"])
    axes.bar(104, won, width=1, color="tab:green", label="won (104)")
    axes.set_yscale("log")
    axes.set_xlabel("cards on the foundations at the end (of 104)")
    axes.set_ylabel("deals")
    axes.set_title(f"Binary Star: {len(rows)} PySolFC deals")
    axes.legend()
    figure.tight_layout()
    plot.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(plot)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=10000)
    parser.add_argument("--out", type=Path, default=Path("results/binary_star.jsonl"))
    parser.add_argument("--nodes", type=int, default=2_000_000,
                        help="node limit per search (decision, then max-cards): the same verdicts on any machine")
    parser.add_argument("--seconds", type=float, help="wall-clock limit per search as well (default none)")
    parser.add_argument("--report", action="store_true", help="print the figures of --out instead of searching")
    parser.add_argument("--plot", type=Path, help="with --report: histogram PNG")
    args = parser.parse_args()
    if args.report:
        every = [row for row in read_rows(args.out) if args.first <= row["seed"] <= args.last]
        report(sorted(latest(every).values(), key=lambda row: row["seed"]), args.plot,
               sum(row["seconds"] for row in every))
    else:
        run(args.first, args.last, args.out, args.nodes, args.seconds)


if __name__ == "__main__":
    main()
