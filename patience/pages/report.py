"""The campaign report as a static page: the report's tables (sortable), its cactus and per-deal
effort plots as inline SVG from matplotlib with the deal and time on every point, and a replay page
per deal made from the stored sequences.

The plots stay matplotlib's: the same figures as `report --plots`, no new dependency and no script
library inlined into the page; hover text and links are added to the SVG's points here.
"""

from __future__ import annotations

import hashlib
import io
import math
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from patience.campaign import analysis, tables
from patience.campaign.record import RunRecord, stored_moves
from patience.campaign.store import Store
from patience.outputs import write_files
from patience.pages import replay
from patience.result import Status
from patience.runs.specs import stored_deal

SVG, XLINK = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
ElementTree.register_namespace("", SVG)
ElementTree.register_namespace("xlink", XLINK)
DEALS_FOLDER = "deals"
_STEM_LIMIT = 100  # characters of a deal name kept in its page's file name


@dataclass(frozen=True)
class Plot:
    name: str
    title: str
    svg: str


_DIGITS = re.compile(r"([0-9]+)")

def page_names(deals: Sequence[str]) -> dict[str, str]:
    """Each deal's replay page file name (`black_hole:17` -> `black_hole_17.html`), made unique where
    two names differ only in the characters a file name cannot keep (`a/b.txt`, `a_b.txt`). A long
    name (a deal file deep in folders) keeps its end and a hash of the whole: every file system takes
    it (255 bytes at most), and two long names never meet."""
    names: dict[str, str] = {}
    for deal in deals:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", deal).strip("_")
        if len(stem) > _STEM_LIMIT:
            stem = f"{stem[-_STEM_LIMIT:].lstrip('._-')}-{hashlib.sha256(deal.encode()).hexdigest()[:16]}"
        name, copy = f"{stem}.html", 1
        while name in names.values():
            copy += 1
            name = f"{stem}-{copy}.html"
        names[deal] = name
    return names


def deal_pages(rows: Sequence[RunRecord], clock: str) -> dict[str, str]:
    """Deal label -> replay page HTML: the fastest validated sequence stored for it, or the deal to play
    by hand when no configuration solved it. A stored deal is made again from its name as strictly as a
    typed one (one deal, within the caps); one that no longer can be, or is no longer the content the
    runs were on (a moved or changed file), gets no page."""
    by_deal: dict[str, list[RunRecord]] = {}
    for row in rows:
        by_deal.setdefault(row.deal, []).append(row)
    pages = {}
    for name, runs in by_deal.items():
        named = stored_deal(runs[0].source or name, runs[0].content)
        if named is None:
            continue
        solved = sorted((run for run in runs if run.status == Status.SOLVED and run.sequence),
                        key=lambda run: float(getattr(run, clock)))
        notes = [f"{run.configuration}: {run.status} in {float(getattr(run, clock)):.3f} {clock} s"
                 for run in sorted(runs, key=lambda run: run.configuration)]
        moves, source = None, ""
        if solved:
            moves = stored_moves(named.game, named.deal, str(solved[0].sequence), f"{name} stored sequence")
            source = f"{solved[0].configuration}'s stored sequence"
        page = replay.game_page(named.game.name, named.deal, moves, source)
        pages[name] = replay.render(page, name, notes, back="../index.html")
    return pages


def svg_text(figure, salt: str) -> str:
    """A matplotlib figure as SVG markup to inline (ids salted so that two plots on a page never clash)."""
    import matplotlib
    import matplotlib.pyplot as plt

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": salt, "svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg")
    plt.close(figure)
    return buffer.getvalue()


def annotate(svg: str, points: Mapping[str, Sequence[tuple[str, float]]], clock: str) -> str:
    """Give every point of the named groups a hover text (`deal: time`) and a `data-deal`; drop the
    metadata (its date would make two reports of one store differ) and let the figure scale."""
    root = ElementTree.fromstring(svg)
    for metadata in root.findall(f"{{{SVG}}}metadata"):
        root.remove(metadata)
    root.set("width", "100%")
    root.attrib.pop("height", None)
    for group in root.iter(f"{{{SVG}}}g"):
        drawn = points.get(group.get("id", ""))
        if drawn is None:
            continue
        kind, label = group.get("id", "").split("-", 1)
        marks = _marks(group)
        for mark, (deal, seconds) in zip(marks, drawn, strict=False):
            verdict = "not decided after" if kind == "undecided" else "decided in"
            text = f"{deal}: {label} {verdict} {seconds:.3g} {clock} s"
            mark.set("data-deal", deal)
            mark.set("data-tip", text)
            mark.set("class", "point")
            ElementTree.SubElement(mark, f"{{{SVG}}}title").text = text
        for anchor in group.iter(f"{{{SVG}}}a"):
            anchor.attrib.pop("target", None)
    return ElementTree.tostring(root, encoding="unicode")


def _marks(group: ElementTree.Element) -> list[ElementTree.Element]:
    """A group's point marks in drawing order: `<use>` of one marker shape, or, where matplotlib found
    that not worth it (few unfilled markers), one `<path>` per point; shape definitions never count."""
    uses: list[ElementTree.Element] = []
    paths: list[ElementTree.Element] = []

    def walk(element: ElementTree.Element) -> None:
        for child in element:
            if child.tag == f"{{{SVG}}}defs":
                continue
            (uses if child.tag == f"{{{SVG}}}use" else paths if child.tag == f"{{{SVG}}}path" else []).append(child)
            walk(child)

    walk(group)
    return uses or paths


def plots(runs: analysis.Grid, labels: Sequence[str], timeout: float | None, clock: str,
          link: Callable[[str], str | None]) -> list[Plot]:
    from patience.campaign import plots as figures  # matplotlib: only when a page is drawn

    cactus, cactus_points = figures.cactus_figure(runs, labels, timeout, clock)
    effort, effort_points = figures.effort_figure(runs, labels, timeout, clock, link)
    return [Plot("cactus", "Cactus plot", annotate(svg_text(cactus, "cactus"), cactus_points, clock)),
            Plot("effort", "Per-deal effort", annotate(svg_text(effort, "effort"), effort_points, clock))]


def _real(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(value: object) -> bool:
    return value is None or _real(value)


def sort_key(value: object) -> str:
    """What a column sorts by: numbers by value (a missing one last), text as itself."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "inf"
    return repr(float(value)) if _real(value) else str(value)


def html_table(table: tables.Table, link: Callable[[str], str | None]) -> dict[str, object]:
    """A table as the template draws it: each cell its text, sort key and link (deal cells)."""
    deal_columns = {index for index, head in enumerate(table.headers) if head == "deal"}
    status_columns = {index for index, head in enumerate(table.headers) if head.endswith(" status")}
    rows = [[{"text": tables.cell(value), "key": sort_key(value),
              "href": link(str(value)) if index in deal_columns else None,
              "status": value if index in status_columns else None} for index, value in enumerate(row)]
            for row in table.rows]
    numeric = [bool(table.rows) and all(_number(row[index]) for row in table.rows)
               for index in range(len(table.headers))]
    return {"name": table.name, "title": table.title, "headers": [head or "metric" for head in table.headers],
            "numeric": numeric, "rows": rows}


def natural(name: str) -> list[object]:
    """`black_hole:9` before `black_hole:10`: runs of ASCII digits compare as numbers (by length without
    leading zeros, then text: no int() of a 5,000-digit run), anything else (`²`, `٣`) as text."""
    return [(len(part.lstrip("0")), part.lstrip("0"), part) if index % 2 else part
            for index, part in enumerate(_DIGITS.split(name))]


def deals_table(rows: Sequence[RunRecord], labels: Sequence[str], clock: str) -> tables.Table:
    """One row per deal: its game and each configuration's status and time, for finding and opening deals."""
    known: dict[str, dict[str, RunRecord]] = {}
    for row in rows:
        known.setdefault(row.deal, {})[row.configuration] = row
    body = []
    for deal, by_label in sorted(known.items(), key=lambda item: natural(item[0])):
        cells: list[object] = [deal]
        for label in labels:
            run = by_label.get(label)
            cells += [run.status if run else None, float(getattr(run, clock)) if run else None]
        body.append(tuple(cells))
    headers = ("deal", *(f"{label} {part}" for label in labels for part in ("status", f"{clock} s")))
    return tables.Table("deals", f"Deals ({len(body)}): each links to its replay", headers, tuple(body))


def write(store: Store, clock: str, directory: Path) -> list[Path]:
    """index.html and one replay page per deal under `directory`/deals; the paths written."""
    data, built = tables.build(store, clock)
    rows = store.runs()
    labels = [label for label, _, _ in store.configurations()]
    pages = deal_pages(rows, clock)
    files = page_names(list(pages))

    def link(deal: str) -> str | None:
        return f"{DEALS_FOLDER}/{files[deal]}" if deal in pages else None

    stop = analysis.limit(data["settings"], clock)
    runs = analysis.grid(rows, clock, stop)
    drawn = plots(runs, labels, stop, clock, link)
    shown = [table for table in built if table.name != "configurations" or table.rows]
    html = replay.environment().get_template("report.html.j2").render(
        heading=f"Campaign report: {Path(store.path).name}", summary=tables.summary(data), plots=drawn,
        tables=[html_table(table, link) for table in [*shown, deals_table(rows, labels, clock)]],
        style=replay.asset("report.css"), script=replay.asset("report.js"))
    # the pages before the index, so that it is never put in place linking to a page not there
    written = {f"{DEALS_FOLDER}/{files[deal]}": page for deal, page in pages.items()}
    write_files(directory, {**written, "index.html": html})
    return [directory / "index.html", *(directory / name for name in written)]
