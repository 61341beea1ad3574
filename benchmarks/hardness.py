"""A hardness map of the generalised game: `patience survey` on seeded random deals over a grid of
shapes (ranks x suits x pile height), one store per shape under a folder, then a markdown table and
heat maps (share won, median nodes, undecided share over ranks x suits, one panel per pile height),
and the same measures against suits / pile height, which is twice the expected number of playable
top cards per rank-adjacent foundation card (see docs/hardness.md).

    nice -n 15 .venv/bin/python benchmarks/hardness.py run --out hardness-grid --deals 100
    .venv/bin/python benchmarks/hardness.py write --out hardness-grid   # docs/hardness.md's table, PNGs
    .venv/bin/python benchmarks/hardness.py compare --out hardness-grid --before old-grid   # two searches
    nice .venv/bin/python benchmarks/hardness.py deeper --out hardness-grid --per-shape 10 --budgets 1e6,4e6,16e6

`run` works in rounds of `--round` deals per shape, every shape once per round, so that a run
stopped early (`--minutes`, Ctrl-C, kill) leaves every shape with about the same count; a rerun of
the same command resumes from the stores. Verdicts use a node limit (`--nodes`) so that they do not
depend on the machine's load; `--timeout` only guards against a stalled search.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

from patience.errors import InputError, UsageError
from patience.generators.deals import random_deal
from patience.names import GENERALISED
from patience.outputs import save_figure, write_file
from patience.result import Status
from patience.runs.pool import run_here
from patience.runs.progress import Progress
from patience.survey import report
from patience.survey.decide import decide
from patience.survey.run import survey
from patience.survey.store import DECISION, UNDECIDED, VERDICTS, SurveyStore, survey_settings

RANKS = (13, 26, 52, 100)
SUITS = (2, 4, 8, 16, 32)
HEIGHTS = (2, 3, 4, 5, 6)
MAX_GRID_CARDS = 1000
DOCS = Path(__file__).resolve().parent.parent / "docs"
Shape = tuple[int, int, int]
OUTCOMES = {Status.SOLVED: "won", Status.UNSOLVABLE: "lost", UNDECIDED: "undecided"}


def numbers(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(","))


def grid(ranks: tuple[int, ...], suits: tuple[int, ...], heights: tuple[int, ...]) -> list[Shape]:
    """Every shape of at most MAX_GRID_CARDS cards, small decks first."""
    shapes = [(r, s, h) for r in ranks for s in suits for h in heights if r * s <= MAX_GRID_CARDS]
    return sorted(shapes, key=lambda shape: (shape[0] * shape[1], shape))


def store_path(out: Path, shape: Shape) -> Path:
    return out / f"r{shape[0]}-s{shape[1]}-h{shape[2]}.db"


def run(args: argparse.Namespace) -> int:
    """Survey every shape round by round until `--deals` deals each or the time is up."""
    shapes = grid(args.ranks, args.suits, args.heights)
    args.out.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + 60 * args.minutes if args.minutes else math.inf
    done: Counter[Status] = Counter()
    for shape in shapes:
        path = store_path(args.out, shape)
        if path.exists():
            with SurveyStore(path, create=False) as store:
                counts = store.verdict_counts(set(range(1, args.deals + 1)))
            done.update(counts)
    progress = Progress(len(shapes) * args.deals, done, title=f"{len(shapes)} shapes", shown=VERDICTS)
    progress.show()
    try:
        for first in range(1, args.deals + 1, args.round):
            seeds = list(range(first, min(first + args.round, args.deals + 1)))
            for shape in shapes:
                if time.monotonic() > deadline:
                    progress.finish()
                    print(f"stopped at the time limit in the round from seed {first}; rerun to continue",
                          file=sys.stderr)
                    return 0
                progress.counts.update(_survey_shape(args, shape, seeds))
                progress.show()
    finally:
        progress.finish()
    return 0


def _survey_shape(args: argparse.Namespace, shape: Shape, seeds: list[int]) -> Counter[Status]:
    """Decide `seeds` of one shape into its store; the verdicts newly stored."""
    with SurveyStore(store_path(args.out, shape)) as store:
        store.fix_settings(survey_settings(GENERALISED, None, shape, DECISION, args.timeout, args.nodes))
        before = store.verdict_counts(set(seeds))
        survey(store, GENERALISED, None, seeds, len(seeds), args.timeout, run_here, False, args.nodes, DECISION, shape)
        after = store.verdict_counts(set(seeds))
    return Counter({verdict: count - before.get(verdict, 0) for verdict, count in after.items()})


def measure(out: Path) -> dict[Shape, report.Summary]:
    """The summary of every shape's store in the folder."""
    summaries = {}
    for path in sorted(out.glob("r*-s*-h*.db")):
        with SurveyStore(path, create=False) as store:
            settings, rows = store.settings(), store.rows()
        if rows and isinstance(settings.get("shape"), list):
            shape = tuple(settings["shape"])
            summaries[shape] = report.summarise(GENERALISED, rows, report.tableau_cards(settings))
    return summaries


def table(summaries: dict[Shape, report.Summary]) -> str:
    lines = ["| ranks | suits | height | cards | deals | won % of decided (95% Wilson) | undecided % "
             "| median nodes | 99th pct nodes |",
             "|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for (ranks, suits, height), summary in sorted(summaries.items()):
        low, high = report.wilson(summary.won, summary.decided)
        won = f"{100 * summary.rate:.0f} ({100 * low:.0f}-{100 * high:.0f})" if summary.decided else "-"
        lines.append(f"| {ranks} | {suits} | {height} | {ranks * suits} | {summary.deals} | {won} "
                     f"| {100 * len(summary.undecided) / summary.deals:.0f} | {summary.median_nodes:,} "
                     f"| {summary.top_nodes:,} |")
    return "\n".join(lines) + "\n"


MEASURES = {
    "won": ("share won of decided deals (%)", lambda s: 100 * s.rate if s.decided else math.nan, "RdYlGn"),
    "median-nodes": ("median nodes per deal (log10)", lambda s: math.log10(max(s.median_nodes, 1)), "magma_r"),
    "undecided": ("undecided share (%)", lambda s: 100 * len(s.undecided) / s.deals, "Reds"),
}
TABLE_START, TABLE_END = "<!-- hardness table -->", "<!-- /hardness table -->"


def heat_maps(summaries: dict[Shape, report.Summary], folder: Path) -> list[Path]:
    """One PNG per measure: a panel per pile height, ranks down, suits across, each cell labelled."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import patheffects

    folder.mkdir(parents=True, exist_ok=True)
    ranks = sorted({shape[0] for shape in summaries})
    suits = sorted({shape[1] for shape in summaries})
    heights = sorted({shape[2] for shape in summaries})
    written = []
    for name, (title, value, colours) in MEASURES.items():
        figure, panels = plt.subplots(1, len(heights), figsize=(3.2 * len(heights) + 1, 3.6), squeeze=False)
        cells = [[[value(summaries[(r, s, h)]) if (r, s, h) in summaries else math.nan for s in suits]
                  for r in ranks] for h in heights]
        finite = [cell for panel in cells for row in panel for cell in row if not math.isnan(cell)]
        low, high = (min(finite), max(finite)) if finite else (0, 1)
        image = None
        for axes, height, panel in zip(panels[0], heights, cells, strict=True):
            image = axes.imshow(panel, cmap=colours, vmin=low, vmax=high if high > low else low + 1, aspect="auto")
            axes.set_xticks(range(len(suits)), [str(s) for s in suits])
            axes.set_yticks(range(len(ranks)), [str(r) for r in ranks])
            axes.set_xlabel("suits (cards per rank)")
            axes.set_title(f"piles of {height}")
            for row, rank_cells in enumerate(panel):
                for column, cell in enumerate(rank_cells):
                    if (ranks[row], suits[column], height) not in summaries:
                        continue  # more than MAX_GRID_CARDS cards: left blank
                    label = "none\ndecided" if math.isnan(cell) else f"{cell:.1f}" if name == "median-nodes" \
                        else f"{cell:.0f}"
                    axes.text(column, row, label, ha="center", va="center", fontsize=7,
                              path_effects=[patheffects.withStroke(linewidth=2, foreground="white")])
        panels[0][0].set_ylabel("ranks")
        figure.colorbar(image, ax=list(panels[0]), shrink=0.8)
        figure.suptitle(f"Generalised Black Hole, random deals: {title}", y=1.04)
        path = folder / f"{name}.png"
        save_figure(figure, path, dpi=90, bbox_inches="tight")
        plt.close(figure)
        written.append(path)
    return written


def ratio_plot(summaries: dict[Shape, report.Summary], path: Path) -> None:
    """Share won, undecided share and median nodes of every shape against suits / pile height, one
    colour per number of ranks: if that ratio is the order parameter, the shapes fall on one curve."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, panels = plt.subplots(1, len(MEASURES), figsize=(15, 4))
    for axes, (title, value, _) in zip(panels, MEASURES.values(), strict=True):
        for ranks in sorted({shape[0] for shape in summaries}):
            points = sorted((shape[1] / shape[2], value(summary)) for shape, summary in summaries.items()
                            if shape[0] == ranks)
            axes.plot([x for x, _ in points], [y for _, y in points], "o", alpha=0.7, label=f"{ranks} ranks")
        axes.set_xscale("log")
        axes.set_xlabel("suits / pile height")
        axes.set_title(title)
        axes.grid(alpha=0.3)
    panels[0].legend(fontsize=8)
    figure.suptitle("Generalised Black Hole, random deals, every shape of the grid")
    figure.tight_layout()
    save_figure(figure, path, dpi=90)
    plt.close(figure)


def put_table(page: Path, text: str) -> None:
    """Replace the table between the page's markers, leaving the prose around it."""
    content = page.read_text()
    before, start, rest = content.partition(TABLE_START)
    _, end, after = rest.partition(TABLE_END)
    if not (start and end):
        raise UsageError(f"{page}: lacks the markers {TABLE_START} and {TABLE_END}")
    write_file(page, f"{before}{TABLE_START}\n{text}{TABLE_END}{after}")


def write(args: argparse.Namespace) -> int:
    summaries = measure(args.out)
    if not summaries:
        print(f"error: {args.out}: no survey stores with deals", file=sys.stderr)
        return 2
    heat_maps(summaries, args.docs / "hardness")
    ratio_plot(summaries, args.docs / "hardness" / "by-ratio.png")
    put_table(args.docs / "hardness.md", table(summaries))
    deals = Counter(summary.deals for summary in summaries.values())
    decided = sum(summary.decided for summary in summaries.values())
    total = sum(summary.deals for summary in summaries.values())
    won = sum(summary.won for summary in summaries.values())
    hard = sum(1 for summary in summaries.values() if summary.undecided)
    print(f"{len(summaries)} shapes, deals per shape {dict(sorted(deals.items()))}, {total} deals, "
          f"{decided} decided, {won} won, {hard} shapes with an undecided deal; "
          f"wrote the table in {args.docs / 'hardness.md'} and {args.docs / 'hardness'}/*.png")
    return 0


def verdicts(out: Path) -> dict[Shape, dict[int, int]]:
    """Every shape's stored verdict per seed."""
    found = {}
    for path in sorted(out.glob("r*-s*-h*.db")):
        with SurveyStore(path, create=False) as store:
            settings, rows = store.settings(), store.rows()
        if isinstance(settings.get("shape"), list):
            found[tuple(settings["shape"])] = {row.seed: row.verdict for row in rows}
    return found


def compare(args: argparse.Namespace) -> int:
    """Two grids (say, two versions of the search) on the seeds both decided or tried: per shape the
    undecided share before and after, and every deal one called won and the other lost (an unsound
    search), which makes the exit status 1."""
    before, after = verdicts(args.before), verdicts(args.out)
    lines = ["| ranks | suits | height | deals | undecided before % | undecided after % | won before | won after |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    clashes, totals = [], Counter()
    for shape in sorted(before.keys() & after.keys()):
        seeds = before[shape].keys() & after[shape].keys()
        if not seeds:
            continue
        counts = Counter((side, verdict) for side, found in (("before", before[shape]), ("after", after[shape]))
                         for seed, verdict in found.items() if seed in seeds)
        totals.update(counts | Counter(deals=len(seeds)))
        clashes += [(shape, seed) for seed in sorted(seeds)
                    if {before[shape][seed], after[shape][seed]} == {Status.SOLVED, Status.UNSOLVABLE}]
        lines.append(f"| {shape[0]} | {shape[1]} | {shape[2]} | {len(seeds)} "
                     f"| {100 * counts['before', UNDECIDED] / len(seeds):.0f} "
                     f"| {100 * counts['after', UNDECIDED] / len(seeds):.0f} "
                     f"| {counts['before', Status.SOLVED]} | {counts['after', Status.SOLVED]} |")
    print("\n".join(lines))
    print(f"\n{totals['deals']} deals: undecided {totals['before', UNDECIDED]} before, {totals['after', UNDECIDED]} "
          f"after; won {totals['before', Status.SOLVED]} and {totals['after', Status.SOLVED]}; "
          f"lost {totals['before', Status.UNSOLVABLE]} and {totals['after', Status.UNSOLVABLE]}; "
          f"won by one and lost by the other: {len(clashes)} {clashes[:10]}")
    return 1 if clashes else 0


def deeper(args: argparse.Namespace) -> int:
    """The grid's undecided deals (the first `--per-shape` of each shape) searched again, in decision
    mode, at each node budget in turn, each budget only on the deals the smaller ones left open: how
    far a larger budget moves the wall. Prints a line a deal and the decided count per budget."""
    todo = [(shape, seed) for shape, found in sorted(verdicts(args.out).items())
            for seed in sorted(seed for seed, verdict in found.items() if verdict == UNDECIDED)[:args.per_shape]]
    print(f"{len(todo)} undecided deals of {args.out}")
    for budget in args.budgets:
        started, still, found = time.process_time(), [], Counter()
        for shape, seed in todo:
            searched = time.process_time()
            verdict, _, nodes, _ = decide(random_deal(*shape, seed), args.timeout, max_cards=False, nodes=budget)
            found[verdict] += 1
            print(f"{shape[0]}x{shape[1]}x{shape[2]} seed {seed}: {OUTCOMES[verdict]} after {nodes:,} nodes, "
                  f"{time.process_time() - searched:.1f} s", flush=True)
            if verdict == UNDECIDED:
                still.append((shape, seed))
        print(f"budget {budget:,} nodes: {found[Status.SOLVED]} won, {found[Status.UNSOLVABLE]} lost, "
              f"{found[UNDECIDED]} still undecided "
              f"of {len(todo)}; {time.process_time() - started:.0f} s of CPU", flush=True)
        todo = still
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("run", "write", "compare", "deeper"))
    parser.add_argument("--out", type=Path, default=Path("hardness-grid"), help="folder of the stores, one per shape")
    parser.add_argument("--ranks", type=numbers, default=RANKS, help="ranks of the grid (13,26,52,100)")
    parser.add_argument("--suits", type=numbers, default=SUITS, help="suits of the grid (2,4,8,16,32)")
    parser.add_argument("--heights", type=numbers, default=HEIGHTS, help="pile heights of the grid (2,3,4,5,6)")
    parser.add_argument("--deals", type=int, default=100, help="deals per shape, seeds 1..DEALS (100)")
    parser.add_argument("--round", type=int, default=10, help="deals per shape per round (10)")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="node limit per deal (1000000)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per deal, a guard only (60)")
    parser.add_argument("--minutes", type=float, help="start no shape's round after this many minutes")
    parser.add_argument("--docs", type=Path, default=DOCS, help="where write finds hardness.md and puts hardness/")
    parser.add_argument("--before", type=Path, help="compare: the other grid's folder")
    parser.add_argument("--per-shape", type=int, default=10, help="deeper: undecided deals per shape (10)")
    parser.add_argument("--budgets", type=lambda text: tuple(int(float(part)) for part in text.split(",")),
                        default=(1_000_000, 4_000_000, 16_000_000), help="deeper: node budgets (1e6,4e6,16e6)")
    args = parser.parse_args()
    try:
        if args.action == "compare":
            if args.before is None:
                raise UsageError("compare needs --before FOLDER (the other grid)")
            return compare(args)
        if args.action == "deeper":
            return deeper(args)
        return run(args) if args.action == "run" else write(args)
    except (InputError, UsageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"interrupted: the finished rounds are in {args.out}; rerun the same command to continue",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
