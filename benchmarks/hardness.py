"""A hardness map of the generalised game: `patience survey` on seeded random deals over a grid of
shapes (ranks x suits x pile height), one store per shape under a folder, then a markdown table and
heat maps (share won, median nodes, undecided share over ranks x suits, one panel per pile height),
and the same measures against suits / pile height, which is twice the expected number of playable
top cards per rank-adjacent foundation card (see docs/hardness.md).

    nice -n 15 .venv/bin/python benchmarks/hardness.py run --out hardness-grid --deals 100
    .venv/bin/python benchmarks/hardness.py write --out hardness-grid   # docs/hardness.md's table, PNGs
    .venv/bin/python benchmarks/hardness.py compare --out hardness-grid --before old-grid   # two searches
    nice .venv/bin/python benchmarks/hardness.py deeper --out hardness-grid --per-shape 10 --budgets 1e6,4e6,16e6
    nice -n 19 .venv/bin/python benchmarks/hardness.py run --out hardness-dense --deals 30 \
        --ranks 13,20,26,40,52,75,100 --suits 2,3,4,5,6,8,10,12,16 --heights 2,3,5 --band 0.8,4
    .venv/bin/python benchmarks/hardness.py write --out hardness-dense --label dense   # beside the grid's
    .venv/bin/python benchmarks/hardness.py scaling --out hardness-grid --also hardness-dense
    nice .venv/bin/python benchmarks/hardness.py losses --out hardness-grid --nodes 2e6 --timeout 30
    nice -n 19 .venv/bin/python benchmarks/hardness.py run --out grid-certified --deals 10 --certify

`scaling` finds each rank count's 50%-won point (the suits / height at which half the decided deals
are won) by a logistic fit and by an isotonic crossing, each with a bootstrap interval over deals, and
fits a finite-size-scaling collapse as for random 3-SAT with the size either the ranks or the cards.

`run` works in rounds of `--round` deals per shape, every shape once per round, so that a run
stopped early (`--minutes`, Ctrl-C, kill) leaves every shape with about the same count; a rerun of
the same command resumes from the stores. Verdicts use a node limit (`--nodes`) so that they do not
depend on the machine's load; `--timeout` only guards against a stalled search.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
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
from patience.survey.store import DECISION, UNDECIDED, VERDICTS, Row, SurveyStore, survey_settings

RANKS = (13, 26, 52, 100)
SUITS = (2, 4, 8, 16, 32)
HEIGHTS = (2, 3, 4, 5, 6)
MAX_GRID_CARDS = 1000
DOCS = Path(__file__).resolve().parent.parent / "docs"
Shape = tuple[int, int, int]
OUTCOMES = {Status.SOLVED: "won", Status.UNSOLVABLE: "lost", UNDECIDED: "undecided"}


def numbers(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(","))


def band(text: str) -> tuple[float, float]:
    """LOW,HIGH: the range of suits / pile height a dense grid keeps."""
    low, high = (float(part) for part in text.split(","))
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"{text!r}: want LOW,HIGH with 0 <= LOW <= HIGH")
    return low, high


def grid(ranks: tuple[int, ...], suits: tuple[int, ...], heights: tuple[int, ...],
         band: tuple[float, float] = (0.0, math.inf)) -> list[Shape]:
    """Every shape of at most MAX_GRID_CARDS cards with suits / height inside `band`, small decks first."""
    shapes = [(r, s, h) for r in ranks for s in suits for h in heights
              if r * s <= MAX_GRID_CARDS and band[0] <= s / h <= band[1]]
    return sorted(shapes, key=lambda shape: (shape[0] * shape[1], shape))


def store_path(out: Path, shape: Shape) -> Path:
    return out / f"r{shape[0]}-s{shape[1]}-h{shape[2]}.db"


def run(args: argparse.Namespace) -> int:
    """Survey every shape round by round until `--deals` deals each or the time is up."""
    shapes = grid(args.ranks, args.suits, args.heights, args.band or (0.0, math.inf))
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
        store.fix_settings(survey_settings(GENERALISED, None, shape, DECISION, args.timeout, args.nodes, args.certify))
        before = store.verdict_counts(set(seeds))
        survey(store, GENERALISED, None, seeds, len(seeds), args.timeout, run_here, False, args.nodes, DECISION, shape,
               args.certify)
        after = store.verdict_counts(set(seeds))
    return Counter({verdict: count - before.get(verdict, 0) for verdict, count in after.items()})


def shape_rows(folders: list[Path]) -> dict[Shape, list[Row]]:
    """Every shape's stored deals over the folders, one row a seed (the first folder's where two hold
    it: the same deal under the same search). Folders searched with different node limits are
    refused, since their verdicts do not mix."""
    found: dict[Shape, dict[int, Row]] = {}
    limits = {}
    for folder in folders:
        if not folder.is_dir():
            raise UsageError(f"{folder}: no such folder of survey stores")
        for path in sorted(folder.glob("r*-s*-h*.db")):
            with SurveyStore(path, create=False) as store:
                settings, rows = store.settings(), store.rows()
            if not (rows and isinstance(settings.get("shape"), list)):
                continue
            limits[path] = settings.get("nodes")
            if len(set(limits.values())) > 1:
                raise UsageError(f"{path}: searched with {settings.get('nodes')} nodes a deal, but "
                                 f"{next(iter(limits))} with {next(iter(limits.values()))}: the verdicts do not mix")
            seeds = found.setdefault(tuple(settings["shape"]), {})
            for row in rows:
                seeds.setdefault(row.seed, row)
    return {shape: [seeds[seed] for seed in sorted(seeds)] for shape, seeds in found.items()}


def measure(*folders: Path) -> dict[Shape, report.Summary]:
    """The summary of every shape stored in the folders."""
    return {shape: report.summarise(GENERALISED, rows, shape[0] * shape[1] - 1)
            for shape, rows in sorted(shape_rows(list(folders)).items())}


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
TABLE = "hardness table"


def suffix(label: str) -> str:
    """What a run's label adds to its figures' names: `won-1m.png` for label 1m, `won.png` for none."""
    return f"-{label}" if label else ""


def markers(name: str, label: str = "") -> tuple[str, str]:
    """The comments that bound a generated block of docs/hardness.md."""
    name = f"{name} {label}" if label else name
    return f"<!-- {name} -->", f"<!-- /{name} -->"


def heat_maps(summaries: dict[Shape, report.Summary], folder: Path, label: str = "") -> list[Path]:
    """One PNG per measure (`won-LABEL.png`, ...): a panel per pile height, ranks down, suits across,
    each cell labelled."""
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
                    shown = "none\ndecided" if math.isnan(cell) else f"{cell:.1f}" if name == "median-nodes" \
                        else f"{cell:.0f}"
                    axes.text(column, row, shown, ha="center", va="center", fontsize=7,
                              path_effects=[patheffects.withStroke(linewidth=2, foreground="white")])
        panels[0][0].set_ylabel("ranks")
        figure.colorbar(image, ax=list(panels[0]), shrink=0.8)
        figure.suptitle(f"Generalised Black Hole, random deals: {title}", y=1.04)
        path = folder / f"{name}{suffix(label)}.png"
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


def page_parts(page: Path, bounds: tuple[str, str]) -> tuple[str, str]:
    """The page's text before and after the block between the markers `bounds` (checked before any
    figure is written, so that a page without them leaves nothing half done)."""
    try:
        content = page.read_text()
    except OSError as error:
        raise UsageError(f"{page}: cannot read the page: {error.strerror}") from None
    before, start, rest = content.partition(bounds[0])
    _, end, after = rest.partition(bounds[1])
    if not (start and end):
        raise UsageError(f"{page}: lacks the markers {bounds[0]} and {bounds[1]}")
    return before, after


def put_table(page: Path, text: str, bounds: tuple[str, str] = markers(TABLE)) -> None:
    """Replace the block between the page's markers `bounds`, leaving the prose around it."""
    before, after = page_parts(page, bounds)
    write_file(page, f"{before}{bounds[0]}\n{text}{bounds[1]}{after}")


def write(args: argparse.Namespace) -> int:
    summaries = measure(args.out)
    if not summaries:
        print(f"error: {args.out}: no survey stores with deals", file=sys.stderr)
        return 2
    page_parts(args.docs / "hardness.md", markers(TABLE, args.label))
    heat_maps(summaries, args.docs / "hardness", args.label)
    ratio_plot(summaries, args.docs / "hardness" / f"by-ratio{suffix(args.label)}.png")
    put_table(args.docs / "hardness.md", table(summaries), markers(TABLE, args.label))
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


LOSS_OUTCOMES = ("confirmed", "open", "won")  # what the plain search made of a stored loss


def losses(args: argparse.Namespace) -> int:
    """Every loss a grid run (`--out`) stored, decided again by the plain search (patience.plain_search,
    written apart from the native one) in this process, at `--nodes` nodes and `--timeout` s of CPU a
    deal: one JSON line a deal in out/losses-plain.jsonl, which a rerun resumes. Prints per shape the
    losses confirmed and left open; a win of the plain search is a contradiction, printed, and makes
    the exit status 1."""
    from patience.plain_search import search
    from patience.validator import replay

    path = args.out / "losses-plain.jsonl"
    records = _loss_records(path)
    stored = [(shape, seed) for shape, found in sorted(verdicts(args.out).items())
              for seed, verdict in sorted(found.items()) if verdict == Status.UNSOLVABLE]
    todo = [item for item in stored if item not in records]
    progress = Progress(len(stored), Counter(record["outcome"] for record in records.values()),
                        title="losses", shown=LOSS_OUTCOMES)
    progress.show()
    try:
        with path.open("a") as log:
            for shape, seed in todo:
                deal = random_deal(*shape, seed)
                started = time.process_time()
                found = search(deal, node_limit=args.nodes, cpu_seconds=args.timeout)
                outcome = "confirmed" if found.lost else "open" if found.won is None else "won"
                record = {"shape": list(shape), "seed": seed, "outcome": outcome, "nodes": found.nodes,
                          "route": found.direction, "cpu_s": round(time.process_time() - started, 3),
                          "replayed": None if found.won is None else replay(deal, found.won).valid}
                log.write(json.dumps(record) + "\n")
                log.flush()
                records[shape, seed] = record
                progress.update(outcome)
    finally:
        progress.finish()
    print(loss_table(records))
    clashes = [deal_name(shape, seed) for (shape, seed), record in sorted(records.items())
               if record["outcome"] == "won"]
    if clashes:
        print(f"error: lost by the search, won by the plain search: {', '.join(clashes)}")
    return 1 if clashes else 0


def _loss_records(path: Path) -> dict[tuple[Shape, int], dict]:
    """The records of an earlier `losses` run; a last line cut short by a kill is dropped (the file is
    written again without it), any other unreadable line is an error."""
    if not path.exists():
        return {}
    lines, records = path.read_text().splitlines(), {}
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
            records[tuple(record["shape"]), record["seed"]] = record
        except (ValueError, KeyError, TypeError):
            if number < len(lines):
                raise InputError(str(path), number, "not a record of `losses`") from None
            write_file(path, "".join(f"{kept}\n" for kept in lines[:-1]))
    return records


def loss_table(records: dict[tuple[Shape, int], dict]) -> str:
    """Per shape: the stored losses checked, how many the plain search confirmed, left open or won,
    and its nodes and CPU seconds in all."""
    lines = ["| shape | losses | confirmed | open | won | nodes | CPU s |", "|---|---:|---:|---:|---:|---:|---:|"]
    shapes = sorted({shape for shape, _ in records})
    for shape in shapes:
        found = [record for (each, _), record in records.items() if each == shape]
        counts = Counter(record["outcome"] for record in found)
        lines.append(f"| {shape[0]}x{shape[1]}x{shape[2]} | {len(found)} | {counts['confirmed']} | {counts['open']} "
                     f"| {counts['won']} | {sum(record['nodes'] for record in found):,} "
                     f"| {sum(record['cpu_s'] for record in found):.1f} |")
    counts = Counter(record["outcome"] for record in records.values())
    lines.append(f"| all | {len(records)} | {counts['confirmed']} | {counts['open']} | {counts['won']} "
                 f"| {sum(record['nodes'] for record in records.values()):,} "
                 f"| {sum(record['cpu_s'] for record in records.values()):.1f} |")
    return "\n".join(lines)


# --- the held-out sample through `patience solve` ---------------------------------------------------

# The first 10 seeds of each of the six worst shapes that 250,000 nodes leave undecided (docs/hardness.md,
# "The 99% goal at 60 s a deal"): 60 deals, none decided at 250,000 nodes.
HELD_OUT: dict[Shape, tuple[int, ...]] = {
    (52, 16, 6): tuple(range(1, 11)),
    (100, 8, 3): tuple(range(1, 11)),
    (52, 16, 5): (1, 2, 3, 4, 5, 6, 7, 8, 10, 11),
    (52, 8, 4): (1, 3, 4, 5, 6, 7, 8, 9, 10, 12),
    (100, 8, 4): (1, 2, 3, 4, 7, 9, 11, 12, 13, 14),
    (100, 4, 2): (2, 3, 4, 8, 9, 10, 12, 13, 14, 15),
}


HELD_OUT_ORDER = {shape: place for place, shape in enumerate(HELD_OUT)}


def deal_name(shape: Shape, seed: int) -> str:
    return f"r{shape[0]}-s{shape[1]}-h{shape[2]}-seed{seed}"


def held_out(only: str | None, grid: Path | None = None, per_shape: int = 10) -> list[tuple[Shape, int]]:
    """The held-out deals, or those of the shapes named in `only` (52x16x5,100x8x3); with `grid` (a
    `run`'s folder) instead the first `per_shape` deals of each shape that run left undecided."""
    wanted = None if not only else {tuple(int(n) for n in name.split("x")) for name in only.split(",")}
    pool = HELD_OUT.items() if grid is None else [
        (shape, tuple(seed for seed, verdict in sorted(seeds.items()) if verdict is UNDECIDED)[:per_shape])
        for shape, seeds in sorted(verdicts(grid).items())]
    return [(shape, seed) for shape, seeds in pool if wanted is None or shape in wanted for seed in seeds]


def solve_one(out: Path, shape: Shape, seed: int, args: argparse.Namespace, extra: tuple[str, ...] = (),
              suffix: str = "") -> dict:
    """`patience solve` on one held-out deal in a child process (`extra` its further arguments): its
    JSON record, with the child's CPU (user + system, from wait4) and the load average before and
    after; written whole to out/NAME{suffix}.json, which a rerun skips."""
    name = deal_name(shape, seed)
    deal = out / f"{name}.txt"
    patience = [sys.executable, "-m", "patience"]
    if not deal.exists():
        text = subprocess.run([*patience, "deal", "--ranks", str(shape[0]), "--suits", str(shape[1]),
                               "--pile-height", str(shape[2]), "--seed", str(seed)],
                              check=True, capture_output=True, text=True).stdout
        write_file(deal, text)
    command = [*patience, "solve", str(deal), "--cpu", f"{args.cpu:g}", "--timeout", f"{args.timeout:g}", "--json",
               *(part for option in args.set for part in ("--set", option)),
               *(("--solver", args.solver) if args.solver else ()), *extra]
    name += suffix
    load, started = os.getloadavg()[0], time.monotonic()
    with open(out / f"{name}.out", "w") as stdout, open(out / f"{name}.err", "w") as stderr:
        child = subprocess.Popen(command, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(child.pid, 0)  # the child's own CPU, which RUSAGE_CHILDREN mixes across jobs
        child.returncode = os.waitstatus_to_exitcode(status)
    text = (out / f"{name}.out").read_text()
    record = json.loads(text) if text.strip().startswith("{") else {
        "status": "error", "stderr": (out / f"{name}.err").read_text()[-500:]}
    record.update(shape=list(shape), seed=seed, exit=child.returncode, wall_s=round(time.monotonic() - started, 1),
                  child_cpu_s=round(usage.ru_utime + usage.ru_stime, 2), load_before=load,
                  load_after=os.getloadavg()[0], command=" ".join(command[2:]), sequence=record.get("sequence"))
    write_file(out / f"{name}.json", json.dumps(record, indent=1) + "\n")
    return record


# The second methods a loss is checked by, in turn until one decides, each skipped when it is the route
# that decided the loss: the plain search (written apart from the native one, the one method that
# refutes losses of hundreds of cards), the search from the back alone, the paper's CNF (PySAT's
# CaDiCaL), then CP-SAT with its presolve off (its presolve calls some won deals infeasible).
CHECKS = ((".plain", "plain", ("--solver", "plain")),
          (".check", "backward", ("--set", "direction=backward", "--set", "then=none")),
          (".sat", "sat", ("--solver", "sat")),
          (".cpsat", "cpsat", ("--solver", "cpsat", "--set", "presolve=off")))


def cross_check(args: argparse.Namespace, records: list[dict]) -> int:
    """Every loss of `records` decided again by a second sound method (CHECKS, in turn, at the same
    CPU, never the route that decided it); a win there is a contradiction, reported, and makes the
    exit status 1. Wins need no second method: `patience solve` replayed each before calling it solved."""
    clashes, lines = [], []
    for record in records:
        if record["status"] != "unsolvable":
            continue
        shape, seed = tuple(record["shape"]), record["seed"]
        route = record.get("stats", {}).get("route")
        found = []
        for suffix, method, extra in CHECKS:
            if method == route:
                continue
            path = args.out / f"{deal_name(shape, seed)}{suffix}.json"
            check = json_record(path) if path.exists() else solve_one(
                args.out, shape, seed, args, extra, suffix)
            found.append(f"{' '.join(extra)}: {check['status']} ({check.get('cpu') or 0:.1f} s, "
                         f"{check.get('nodes') or 0:,} nodes)")
            if check["status"] == "solved":
                clashes.append(deal_name(shape, seed))
            if check["status"] in ("solved", "unsolvable"):
                break
        lines.append(f"{deal_name(shape, seed)}: lost ({route}); " + "; ".join(found))
    print("\n".join(lines) or "no loss to check")
    if clashes:
        print(f"error: lost by the search, won by a second method: {', '.join(clashes)}")
    return 1 if clashes else 0


def heldout(args: argparse.Namespace) -> int:
    """The held-out sample through `patience solve --cpu CPU` (its default route unless `--solver` or
    `--set` say otherwise), `--jobs` deals at a time, one JSON record a deal under `--out`; a rerun
    resumes. Prints the held-out table (heldout_table) and, with `--check`, checks the losses."""
    from concurrent.futures import ThreadPoolExecutor

    args.out.mkdir(parents=True, exist_ok=True)
    for cut_off in args.out.glob("*.out"):  # a deal begun by a run that was stopped: begun again (one run a folder)
        if not cut_off.with_suffix(".json").exists():
            cut_off.unlink()
    todo = [(shape, seed) for shape, seed in held_out(args.only, args.grid, args.per_shape)
            if not (args.out / f"{deal_name(shape, seed)}.json").exists()]
    print(f"{len(todo)} deals to solve in {args.out}", flush=True)

    def one(item: tuple[Shape, int]) -> dict:
        return solve_one(args.out, item[0], item[1], args)

    with ThreadPoolExecutor(args.jobs) as pool:
        for record in pool.map(one, todo):
            print(f"{deal_name(tuple(record['shape']), record['seed'])}: {record['status']} "
                  f"route {record.get('stats', {}).get('route', '-')} cpu {record.get('cpu')} "
                  f"child cpu {record['child_cpu_s']} nodes {record.get('nodes')} wall {record['wall_s']}", flush=True)
    records = [json_record(path) for path in args.out.glob("*.json") if path.name.count(".") == 1]
    print(heldout_table(records))
    return cross_check(args, records) if args.check else 0


def json_record(path: Path) -> dict:
    return json.loads(path.read_text())


def heldout_table(records: list[dict]) -> str:
    """The held-out records as docs/hardness.md's tables: a row per shape (decided, won, lost, CPU) and
    a row per deal (verdict, the route that decided, CPU of the search and of the whole child, nodes)."""
    by_shape: dict[tuple[int, ...], list[dict]] = {}
    for record in sorted(records, key=lambda record: (HELD_OUT_ORDER.get(tuple(record["shape"]), 99), record["shape"],
                                                      record["seed"])):
        by_shape.setdefault(tuple(record["shape"]), []).append(record)
    verdict = {"solved": "won", "unsolvable": "lost"}
    lines = ["| shape | deals | won | lost | open | CPU s of the searches |", "|---|---:|---:|---:|---:|---:|"]
    for shape, rows in by_shape.items():
        counts = Counter(verdict.get(row["status"], "open") for row in rows)
        lines.append(f"| {'x'.join(map(str, shape))} | {len(rows)} | {counts['won']} | {counts['lost']} "
                     f"| {counts['open']} | {sum(row.get('cpu') or 0 for row in rows):,.0f} |")
    lines += ["", "| deal | verdict | route | CPU s (search) | CPU s (child) | nodes | load |",
              "|---|---|---|---:|---:|---:|---:|"]
    for shape, rows in by_shape.items():
        for row in rows:
            stats = row.get("stats") or {}
            decided = row["status"] in verdict
            route = stats.get("route", "forward" if decided and row.get("solver") == "native" else
                              (row.get("solver") or "-") if decided else "-")
            nodes = f"{row['nodes']:,}" if row.get("nodes") is not None else "-"
            outcome = verdict.get(row["status"], f"open ({row['status']})")
            lines.append(f"| {'x'.join(map(str, shape))} seed {row['seed']} | {outcome} "
                         f"| {route} | {row.get('cpu') or 0:.1f} | {row.get('child_cpu_s') or 0:.1f} | {nodes} "
                         f"| {row.get('load_before', 0):.1f} |")
    return "\n".join(lines)


# --- the threshold and its finite-size scaling -------------------------------------------------------


@dataclass(frozen=True)
class Point:
    """One shape's decided deals at its ratio suits / pile height."""

    ranks: int
    ratio: float
    won: int
    decided: int
    cards: int = 0


@dataclass(frozen=True)
class Threshold:
    """A rank count's 50%-won point: by a logistic fit in log(suits / height) and by the monotone
    (isotonic) fit of the won shares interpolated, each with a 95% bootstrap interval over deals."""

    ranks: int
    shapes: int
    deals: int
    decided: int
    logistic: float
    logistic_interval: tuple[float, float]
    width: float  # the logistic's scale in log(suits / height): 1 / slope
    crossing: float
    crossing_interval: tuple[float, float]
    deviance: float
    bracket: tuple[float, float]  # the logistic 50% point were every undecided deal lost, or won


@dataclass(frozen=True)
class Collapse:
    """The finite-size-scaling fit, as for random 3-SAT, with the size L either the number of ranks
    or the number of cards: won share = F((ln x - ln c(L)) * (L / L0)^(1/nu) / w), F logistic, x the
    ratio suits / height, the threshold a power law c(L) = c0 (L / L0)^gamma and the width w
    shrinking as L^(-1/nu); `exponent` is 1/nu (0: the transition does not sharpen)."""

    size: str  # "ranks" or "cards"
    exponent: float
    exponent_interval: tuple[float, float]
    reference: float  # L0, the geometric mean of the points' sizes
    width: float  # w at L0, in ln x
    c0: float
    gamma: float
    deviance: float
    free_deviance: float  # the rank counts' separate logistic fits, two parameters each
    points: int
    parameters: int = 4

    def centre(self, size: float) -> float:
        return self.c0 * (size / self.reference) ** self.gamma

    def rescaled(self, point: Point) -> float:
        size = size_of(point, self.size)
        return math.log(point.ratio / self.centre(size)) * (size / self.reference) ** self.exponent / self.width


def size_of(point: Point, size: str) -> int:
    return point.ranks if size == "ranks" else point.cards


def points(summaries: dict[Shape, report.Summary]) -> list[Point]:
    return [Point(shape[0], shape[1] / shape[2], summary.won, summary.decided, shape[0] * shape[1])
            for shape, summary in sorted(summaries.items()) if summary.decided]


def logistic(eta):
    """The won share of the logistic model, and its derivative in the linear predictor."""
    import numpy as np

    share = 1 / (1 + np.exp(-np.clip(eta, -30, 30)))
    return share, share * (1 - share)


def fit_binomial(design, won, trials, link=logistic):
    """The binomial fit of `won` of `trials` on the columns of `design` through `link` (iteratively
    reweighted least squares, halving a step that raises the deviance), with half a deal won and half
    lost added to each row so that a clean step (every deal lost below some ratio, every one won
    above) still has a finite slope. (coefficients, deviance, their covariance)."""
    import numpy as np

    trials = np.asarray(trials, float) + 1
    share = (np.asarray(won, float) + 0.5) / trials

    def deviance(beta) -> float:
        predicted = np.clip(link(design @ beta)[0], 1e-12, 1 - 1e-12)
        return float(2 * np.sum(trials * (share * np.log(share / predicted)
                                          + (1 - share) * np.log((1 - share) / (1 - predicted)))))

    def information(beta):
        predicted, slope = link(design @ beta)
        predicted = np.clip(predicted, 1e-12, 1 - 1e-12)
        weights = trials * slope ** 2 / (predicted * (1 - predicted))
        return design.T @ (design * weights[:, None]) + 1e-9 * np.eye(len(beta)), predicted, slope

    beta = np.zeros(design.shape[1])
    current = deviance(beta)
    for _ in range(200):
        matrix, predicted, slope = information(beta)
        score = design.T @ (trials * slope * (share - predicted) / (predicted * (1 - predicted)))
        step = np.linalg.solve(matrix, score)
        for _ in range(30):
            trial = deviance(beta + step)
            if trial <= current + 1e-12:
                break
            step = step / 2
        beta, improvement, current = beta + step, current - trial, trial
        if np.max(np.abs(step)) < 1e-10 or 0 <= improvement < 1e-12:
            break
    return beta, current, np.linalg.inv(information(beta)[0])


def fit_logistic(design, won, trials):
    """`fit_binomial` with the logistic link: (coefficients, deviance)."""
    beta, deviance, _ = fit_binomial(design, won, trials)
    return beta, deviance


def logistic_centre(found: list[Point]) -> tuple[float, float, float]:
    """The ratio where the logistic fit in log ratio crosses one half, its width, and the deviance
    (nan and nan where the fit does not rise with the ratio or crosses outside the ratios measured)."""
    import numpy as np

    design = np.column_stack([np.ones(len(found)), np.log([p.ratio for p in found])])
    (intercept, slope), deviance = fit_logistic(design, [p.won for p in found], [p.decided for p in found])
    centre = math.exp(-intercept / slope) if slope > 0 else math.nan
    if not min(p.ratio for p in found) <= centre <= max(p.ratio for p in found):
        return math.nan, math.nan, deviance  # falls, or crosses outside the grid: not a measured point
    return centre, 1 / slope, deviance


def isotonic_crossing(found: list[Point]) -> float:
    """The ratio where the won share, pooled over the shapes of one ratio and made non-decreasing by
    pooling adjacent violators, crosses one half, interpolated linearly in log ratio between the two
    ratios around it; nan if it does not cross inside the grid."""
    pooled: dict[float, list[int]] = {}
    for point in found:
        pooled.setdefault(point.ratio, [0, 0])
        pooled[point.ratio][0] += point.won
        pooled[point.ratio][1] += point.decided
    ratios = sorted(pooled)
    blocks: list[list[float]] = []  # [share, weight, how many ratios]
    for ratio in ratios:
        blocks.append([pooled[ratio][0] / pooled[ratio][1], pooled[ratio][1], 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (share, weight, count), (share2, weight2, count2) = blocks.pop(), blocks.pop()
            blocks.append([(share * weight + share2 * weight2) / (weight + weight2), weight + weight2, count + count2])
    fitted = [share for share, _, count in blocks for _ in range(int(count))]
    for index in range(1, len(ratios)):
        if fitted[index - 1] < 0.5 <= fitted[index]:
            low, high = math.log(ratios[index - 1]), math.log(ratios[index])
            part = (0.5 - fitted[index - 1]) / (fitted[index] - fitted[index - 1])
            return math.exp(low + part * (high - low))
    return math.nan


def resampled(summaries: dict[Shape, report.Summary], rng) -> list[Point]:
    """The points of one bootstrap sample: each shape's deals drawn again with replacement, so that
    its decided count varies as well as its won share."""
    found = []
    for shape, summary in sorted(summaries.items()):
        shares = [summary.won / summary.deals, summary.lost / summary.deals, len(summary.undecided) / summary.deals]
        won, lost, _ = rng.multinomial(summary.deals, shares)
        if won + lost:
            found.append(Point(shape[0], shape[1] / shape[2], int(won), int(won + lost), shape[0] * shape[1]))
    return found


def interval(values: list[float]) -> tuple[float, float]:
    """The central 95% of the finite values (nan, nan if under half are finite)."""
    import numpy as np

    finite = [value for value in values if math.isfinite(value)]
    if len(finite) < len(values) / 2:
        return math.nan, math.nan
    return float(np.percentile(finite, 2.5)), float(np.percentile(finite, 97.5))


def thresholds(summaries: dict[Shape, report.Summary], samples: int, seed: int = 1) -> list[Threshold]:
    """Every rank count's 50%-won point, with bootstrap intervals over `samples` resamplings."""
    import numpy as np

    rng = np.random.default_rng(seed)
    found = []
    for ranks in sorted({shape[0] for shape in summaries}):
        mine = {shape: summary for shape, summary in summaries.items() if shape[0] == ranks}
        observed = points(mine)
        if len({point.ratio for point in observed}) < 2:
            continue
        centre, width, deviance = logistic_centre(observed)
        draws = [resampled(mine, rng) for _ in range(samples)]
        extremes = tuple(logistic_centre([Point(r, s / h, m.won + (len(m.undecided) if won else 0), m.deals)
                                          for (r, s, h), m in sorted(mine.items())])[0] for won in (False, True))
        found.append(Threshold(
            ranks, len(mine), sum(s.deals for s in mine.values()), sum(p.decided for p in observed),
            centre, interval([logistic_centre(draw)[0] for draw in draws]), width,
            isotonic_crossing(observed), interval([isotonic_crossing(draw) for draw in draws]), deviance,
            extremes))
    return found


def collapse(found: list[Point], size: str = "ranks", exponents=None) -> Collapse:
    """The `Collapse` fit: for each exponent 1/nu on a grid, a logistic fit whose columns are
    (L/L0)^(1/nu) times ln x, 1 and ln(L/L0); the exponent of least deviance, and those within 3.84
    of it (a 95% profile-likelihood interval)."""
    import numpy as np

    exponents = np.linspace(-1, 2, 301) if exponents is None else exponents
    sizes = np.array([size_of(point, size) for point in found], float)
    reference = float(np.exp(np.mean(np.log(sizes))))
    scaled, logs = sizes / reference, np.log([point.ratio for point in found])
    won, trials = [point.won for point in found], [point.decided for point in found]
    fits = []
    for exponent in exponents:
        factor = scaled ** exponent
        beta, deviance = fit_logistic(np.column_stack([factor * logs, factor, factor * np.log(scaled)]), won, trials)
        fits.append((deviance, float(exponent), beta))
    best_deviance, best, (slope, offset, drift) = min(fits, key=lambda fit: fit[0])
    near = [exponent for deviance, exponent, _ in fits if deviance <= best_deviance + 3.84]
    free = sum(logistic_centre([p for p in found if p.ranks == r])[2] for r in {p.ranks for p in found})
    return Collapse(size, best, (min(near), max(near)), reference, 1 / slope, math.exp(-offset / slope),
                    -drift / slope, best_deviance, free, len(found))


def power_law(found: list[Threshold]) -> tuple[float, float]:
    """(a, g) of the least-squares line ln c(R) = ln a + g ln R through the logistic 50% points: how
    the threshold moves with the number of ranks (nan, nan with fewer than two points)."""
    import numpy as np

    known = [t for t in found if math.isfinite(t.logistic)]
    if len(known) < 2:
        return math.nan, math.nan
    slope, intercept = np.polyfit(np.log([t.ranks for t in known]), np.log([t.logistic for t in known]), 1)
    return math.exp(intercept), float(slope)


def threshold_table(found: list[Threshold]) -> str:
    lines = ["| ranks | shapes | deals | decided | 50% point, logistic (95% bootstrap) | width in ln x "
             "| 50% point, isotonic (95% bootstrap) | were the undecided lost / won |",
             "|---:|---:|---:|---:|---|---:|---|---|"]
    for t in found:
        lines.append(f"| {t.ranks} | {t.shapes} | {t.deals:,} | {t.decided:,} "
                     f"| {t.logistic:.2f} ({t.logistic_interval[0]:.2f}-{t.logistic_interval[1]:.2f}) "
                     f"| {t.width:.2f} | {t.crossing:.2f} ({t.crossing_interval[0]:.2f}-{t.crossing_interval[1]:.2f}) "
                     f"| {t.bracket[0]:.2f} / {t.bracket[1]:.2f} |")
    return "\n".join(lines) + "\n"


SCENARIOS = ("decided deals", "undecided counted lost", "undecided counted won")


def scenario_points(summaries: dict[Shape, report.Summary], scenario: str) -> list[Point]:
    """The points of the decided deals, or of every deal with the undecided ones counted lost or won:
    how far the answer rests on what the search left open."""
    if scenario == SCENARIOS[0]:
        return points(summaries)
    return [Point(r, s / h, m.won + (len(m.undecided) if scenario == SCENARIOS[2] else 0), m.deals, r * s)
            for (r, s, h), m in sorted(summaries.items())]


def collapse_table(fits: dict[tuple[str, str], Collapse]) -> str:
    lines = ["| deals | size L | 1/nu (95% profile) | threshold c(L) | width in ln x at L0 | deviance (dof) |",
             "|---|---|---|---|---:|---|"]
    for (scenario, size), fit in fits.items():
        unit = "R" if size == "ranks" else "N"
        lines.append(f"| {scenario} | {size} | {fit.exponent:.2f} ({fit.exponent_interval[0]:.2f} to "
                     f"{fit.exponent_interval[1]:.2f}) | {fit.c0:.2f} ({unit} / {fit.reference:.0f})^{fit.gamma:.3f} "
                     f"| {fit.width:.3f} | {fit.deviance:.1f} ({fit.points - fit.parameters}) |")
    return "\n".join(lines) + "\n"


def scaling_plot(summaries: dict[Shape, report.Summary], found: list[Threshold], fits: list[Collapse],
                 path: Path) -> None:
    """Four panels: won share against suits / height, one colour per rank count, with each count's
    logistic fit; the 50% points against the ranks; and the won share against each collapse's
    rescaled ratio, where the shapes fall on one curve if the scaling holds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    figure, panels = plt.subplots(2, 2, figsize=(13, 9.5))
    (raw, moving), collapsed = panels[0], panels[1]
    every = points(summaries)
    ranks_seen = sorted({p.ranks for p in every})
    colours = dict(zip(ranks_seen, plt.get_cmap("viridis")(np.linspace(0, 0.9, len(ranks_seen))), strict=True))
    logistic_of = {t.ranks: t for t in found}
    for ranks, colour in colours.items():
        mine = [p for p in every if p.ranks == ranks]
        shares = np.array([p.won / p.decided for p in mine])
        errors = np.abs(np.array([report.wilson(p.won, p.decided) for p in mine]).T - shares)
        ratios = np.array([p.ratio for p in mine])
        raw.errorbar(ratios, shares, yerr=errors, fmt="o", ms=3, alpha=0.6, color=colour, label=f"{ranks} ranks")
        threshold = logistic_of.get(ranks)
        if threshold and math.isfinite(threshold.logistic):
            curve = np.geomspace(ratios.min(), ratios.max(), 200)
            raw.plot(curve, 1 / (1 + np.exp(-np.log(curve / threshold.logistic) / threshold.width)), color=colour)
        for axes, fit in zip(collapsed, fits, strict=True):
            axes.plot([fit.rescaled(p) for p in mine], shares, "o", ms=4, alpha=0.6, color=colour,
                      label=f"{ranks} ranks")
    axis = np.linspace(-8, 8, 200)
    for axes, fit in zip(collapsed, fits, strict=True):
        unit = "R" if fit.size == "ranks" else "N"
        axes.plot(axis, 1 / (1 + np.exp(-axis)), "k-", alpha=0.6, label="logistic")
        axes.set_xlim(-8, 8)
        axes.set_xlabel(f"ln(x / c({unit})) ({unit} / {fit.reference:.0f})^{fit.exponent:.2f} / {fit.width:.2f}")
        axes.set_ylabel("share won of decided deals")
        axes.set_title(f"collapse by {fit.size}: 1/nu = {fit.exponent:.2f} ({fit.exponent_interval[0]:.2f} to "
                       f"{fit.exponent_interval[1]:.2f}), deviance {fit.deviance:.0f}")
    raw.set_xscale("log")
    raw.set_xlabel("x = suits / pile height")
    raw.set_ylabel("share won of decided deals")
    raw.set_title("won share, with each rank count's logistic fit")
    shown = [t for t in found if math.isfinite(t.logistic) and not math.isnan(t.logistic_interval[0])]
    if shown:
        moving.errorbar([t.ranks for t in shown], [t.logistic for t in shown],
                        yerr=np.abs(np.array([t.logistic_interval for t in shown]).T - [t.logistic for t in shown]),
                        fmt="o", capsize=3, label="50% point, logistic (95% bootstrap)")
    shown = [t for t in found if math.isfinite(t.crossing) and not math.isnan(t.crossing_interval[0])]
    if shown:
        moving.errorbar([1.03 * t.ranks for t in shown], [t.crossing for t in shown],
                        yerr=np.abs(np.array([t.crossing_interval for t in shown]).T - [t.crossing for t in shown]),
                        fmt="s", capsize=3, label="50% point, isotonic (95% bootstrap)")
    for index, label in ((0, "were every undecided deal lost"), (1, "were every undecided deal won")):
        moving.plot([t.ranks for t in found], [t.bracket[index] for t in found], "v^"[index], color="grey",
                    alpha=0.7, label=label)
    by_ranks = next((fit for fit in fits if fit.size == "ranks"), None)
    if by_ranks:
        line = np.geomspace(min(ranks_seen), max(ranks_seen), 50)
        moving.plot(line, [by_ranks.centre(r) for r in line], "k--", alpha=0.5, label="collapse by ranks: c(R)")
    moving.set_xscale("log")
    moving.set_yscale("log")
    moving.set_xlabel("ranks")
    moving.set_ylabel("x at 50% won")
    moving.set_title("the threshold against the number of ranks")
    for axes in (raw, moving, *collapsed):
        axes.grid(alpha=0.3)
        axes.legend(fontsize=7)
    figure.suptitle("Generalised Black Hole, random deals: the won share across the threshold")
    figure.tight_layout()
    save_figure(figure, path, dpi=80)
    plt.close(figure)


def undecided_plot(summaries: dict[Shape, report.Summary], band: tuple[float, float], fit: Collapse,
                   path: Path) -> None:
    """The undecided share of each shape in the band against its number of cards, coloured by how far
    its ratio lies from the threshold of its size (the collapse `fit`'s c): how the wall grows with
    the deal, and where."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7.5, 4.5))
    mine = [(shape, s) for shape, s in sorted(summaries.items()) if band[0] <= shape[1] / shape[2] <= band[1]]
    sizes = [shape[0] if fit.size == "ranks" else shape[0] * shape[1] for shape, _ in mine]
    image = axes.scatter([shape[0] * shape[1] for shape, _ in mine],
                         [100 * len(s.undecided) / s.deals for _, s in mine],
                         c=[math.log(shape[1] / shape[2] / fit.centre(size)) for (shape, _), size in zip(mine, sizes,
                                                                                                        strict=True)],
                         cmap="coolwarm_r", vmin=-1, vmax=1, alpha=0.8, edgecolors="grey", linewidths=0.5)
    figure.colorbar(image, ax=axes, label="ln(x / c): lost side (red) to won side (blue)")
    axes.set_xscale("log")
    axes.set_xlabel("cards")
    axes.set_ylabel("undecided share (%)")
    axes.set_title(f"shapes with {band[0]:g} <= x = suits / pile height <= {band[1]:g}")
    axes.grid(alpha=0.3)
    save_figure(figure, path, dpi=90, bbox_inches="tight")
    plt.close(figure)


def scaling(args: argparse.Namespace) -> int:
    """The 50%-won point of each rank count with intervals, the finite-size-scaling collapse, their
    figures and their table in docs/hardness.md."""
    summaries = measure(args.out, *args.also)
    found = thresholds(summaries, args.bootstrap)
    if not found:
        print(f"error: {args.out}: no rank count with decided deals at two ratios", file=sys.stderr)
        return 2
    every = {(scenario, size): collapse(scenario_points(summaries, scenario), size)
             for scenario in SCENARIOS for size in ("ranks", "cards")}
    fits = [every[SCENARIOS[0], size] for size in ("ranks", "cards")]
    page_parts(args.docs / "hardness.md", markers("hardness threshold", args.label))
    heat = args.docs / "hardness"
    heat.mkdir(parents=True, exist_ok=True)
    scaling_plot(summaries, found, fits, heat / f"scaling{suffix(args.label)}.png")
    undecided_plot(summaries, args.band or (1.0, 4.0), fits[1], heat / f"undecided-band{suffix(args.label)}.png")
    factor, power = power_law(found)
    text = (threshold_table(found) + f"\nThe logistic 50% points against the ranks: c(R) = {factor:.3f} R^{power:.3f} "
            f"by least squares in logs. The collapses, 4 parameters each ({fits[0].points} shapes with decided deals; "
            f"the rank counts' separate logistic fits, {2 * len(found)} parameters, have deviance "
            f"{fits[0].free_deviance:.1f}):\n\n")
    text += collapse_table(every)
    put_table(args.docs / "hardness.md", text, markers("hardness threshold", args.label))
    print(text, end="")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("run", "write", "compare", "deeper", "scaling", "heldout", "losses"))
    parser.add_argument("--out", type=Path, default=Path("hardness-grid"), help="folder of the stores, one per shape")
    parser.add_argument("--ranks", type=numbers, default=RANKS, help="ranks of the grid (13,26,52,100)")
    parser.add_argument("--suits", type=numbers, default=SUITS, help="suits of the grid (2,4,8,16,32)")
    parser.add_argument("--heights", type=numbers, default=HEIGHTS, help="pile heights of the grid (2,3,4,5,6)")
    parser.add_argument("--band", type=band, help="run: only the shapes with LOW <= suits / height <= HIGH "
                        "(LOW,HIGH; all); scaling: the shapes of the undecided share's figure (1,4)")
    parser.add_argument("--deals", type=int, default=100, help="deals per shape, seeds 1..DEALS (100)")
    parser.add_argument("--round", type=int, default=10, help="deals per shape per round (10)")
    parser.add_argument("--nodes", type=lambda text: int(float(text)), default=1_000_000,
                        help="node limit per deal (1000000)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per deal, a guard only; losses: "
                        "CPU seconds a deal (60)")
    parser.add_argument("--certify", action="store_true",
                        help="run: a certificate of each loss kept in the stores (survey --certify)")
    parser.add_argument("--minutes", type=float, help="start no shape's round after this many minutes")
    parser.add_argument("--docs", type=Path, default=DOCS, help="where write finds hardness.md and puts hardness/")
    parser.add_argument("--label", default="", help="write, scaling: a suffix for the figures' names and the "
                        "page's markers, so that two runs' tables and figures stand side by side (none)")
    parser.add_argument("--also", type=Path, action="append", default=[],
                        help="scaling: another grid's folder to pool with --out, seed by seed (repeatable)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="scaling: bootstrap samples (1000)")
    parser.add_argument("--before", type=Path, help="compare: the other grid's folder")
    parser.add_argument("--per-shape", type=int, default=10,
                        help="deeper, heldout --grid: undecided deals per shape (10)")
    parser.add_argument("--budgets", type=lambda text: tuple(int(float(part)) for part in text.split(",")),
                        default=(1_000_000, 4_000_000, 16_000_000), help="deeper: node budgets (1e6,4e6,16e6)")
    parser.add_argument("--cpu", type=float, default=60.0, help="heldout: CPU seconds a deal (60)")
    parser.add_argument("--jobs", type=int, default=1, help="heldout: deals solved at a time (1)")
    parser.add_argument("--check", action="store_true", help="heldout: then search every loss again from the back")
    parser.add_argument("--only", help="heldout: only these shapes, RxSxH,... (all six)")
    parser.add_argument("--grid", type=Path,
                        help="heldout: instead of the held-out sample, the deals this `run` folder left undecided "
                             "(the first --per-shape of each shape)")
    parser.add_argument("--solver", help="heldout: `patience solve --solver` (its default)")
    parser.add_argument("--set", action="append", default=[], help="heldout: `patience solve --set` (repeatable)")
    args = parser.parse_args()
    try:
        if args.action == "heldout":
            return heldout(args)
        if args.action == "losses":
            return losses(args)
        if args.action == "compare":
            if args.before is None:
                raise UsageError("compare needs --before FOLDER (the other grid)")
            return compare(args)
        if args.action == "deeper":
            return deeper(args)
        if args.action == "scaling":
            if args.bootstrap < 1:
                raise UsageError(f"--bootstrap {args.bootstrap}: want at least one sample")
            return scaling(args)
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
