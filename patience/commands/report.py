"""`patience report STORE`: the comparison's tables (the paper's Table 4, correlations, win rates,
disagreements) from a campaign store, with --plots the cactus and per-deal effort figures, and with
--html all of it as a page with a replay page per deal."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from patience.arguments import Subcommands
from patience.campaign import analysis, tables
from patience.campaign.store import CHANGED_SHOWN, Store
from patience.errors import InputError
from patience.exit_codes import ExitCode
from patience.outputs import check_folder, write_files
from patience.runs import specs


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser("report", help="tables and plots of a `patience compare` store",
                                   description="Print the comparison's tables (the paper's Table 4, correlations "
                                               "of per-deal times, win rates, disagreements) from a campaign "
                                               "store; with --plots also draw the cactus and effort figures; with "
                                               "--html write it all as a page, with a replay page per deal.")
    parser.add_argument("db", help="SQLite store written by `patience compare`")
    parser.add_argument("--format", choices=tables.FORMATS, default="text", help="table format (default text)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="which time the tables and plots use (default cpu, as the paper)")
    parser.add_argument("--deals", metavar="SPEC", help="only the runs on these deals (a deal spec, as compare's)")
    parser.add_argument("--plots", type=Path, metavar="DIR", help="write cactus and effort plots (PNG, SVG) here")
    parser.add_argument("--html", type=Path, metavar="DIR",
                        help="write the report as a page (DIR/index.html, sortable tables, plots with hover) "
                             "and a replay page per deal (DIR/deals/); prints only the page's path, not the tables")
    parser.set_defaults(handler=run)


@contextlib.contextmanager
def opened(db: str, deals: Sequence[specs.NamedDeal] | None) -> Iterator[Store]:
    """The store to report on (only the runs on `deals` when given): an input error when it holds no runs
    yet, a note on standard error for each deal whose file changed between runs. `patience report` and
    `patience.report` both open it here."""
    with Store(db, create=False) as store:
        if deals is not None:
            store.keep_deals(deals)
        if not store.finished():
            raise InputError(db, None, "no runs stored yet")
        for name, contents in list(store.several_contents().items())[:CHANGED_SHOWN]:
            shown = ", ".join(f"{name}#{content[:12] or 'unrecorded'}" for content in contents)
            print(f"note: {name} changed between runs; its {len(contents)} contents are reported apart: {shown}",
                  file=sys.stderr)
        yield store


def run(args: argparse.Namespace) -> int:
    for folder in (args.plots, args.html):  # every output checked before anything is made or written
        if folder is not None:
            check_folder(folder)
    with opened(args.db, specs.resolve(args.deals) if args.deals else None) as store:
        data, built = tables.build(store, args.clock)
        text = tables.render(data, built, args.format) if args.html is None else ""  # the page holds the tables
        if args.plots is not None:
            from patience.campaign import plots  # matplotlib: half a second, so only when drawing

            timeout = analysis.limit(data["settings"], args.clock)
            runs = analysis.grid(store.runs(), args.clock, timeout)
            labels = [label for label, _, _ in store.configurations()]
            drawn = plots.cactus(runs, labels, timeout, args.clock)
            paths = write_files(args.plots, {**drawn, **plots.effort(runs, labels, timeout, args.clock)})
        if args.html is not None:
            from patience.pages import report

            pages = report.write(store, args.clock, args.html)
    print(text, end="")
    if args.plots is not None:
        print("\n".join(f"plot: {path}" for path in paths))
    if args.html is not None:
        print(f"page: {pages[0]} ({len(pages) - 1} replay pages)")
    return ExitCode.SOLVED
