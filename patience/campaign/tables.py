"""The report's tables, built once from the store and printed as text, CSV, JSON or Markdown."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict, cast

from patience import columns, stores
from patience.campaign import analysis
from patience.campaign.store import Store

FORMATS = ("text", "csv", "json", "markdown")
_ERRORS_SHOWN = 20


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]


class ConfigurationData(TypedDict):
    label: str
    solver: str
    options: dict[str, object]
    versions: list[str]


class ReportData(TypedDict):
    """The report as JSON shows it; the tables and the summary are drawn from it."""

    settings: analysis.Settings
    clock: str
    deals: int
    runs: int
    planned_runs: int  # one per configuration on every deal of the campaign: more than `runs` while unfinished
    compared_deals: int  # the deals every configuration finished, on which they are compared
    configurations: list[ConfigurationData]
    hosts: list[str]
    table4: dict[str, dict[str, object]]
    correlations: list[dict[str, object]]
    win_rates: list[dict[str, object]]
    disagreements: list[analysis.Disagreement]
    errors: list[dict[str, object]]


def _options(text: str) -> dict[str, object]:
    # opening the store checked every configuration's options to be a JSON object
    return cast(dict[str, object], stores.stored_json(text))


def build(store: Store, clock: str) -> tuple[ReportData, list[Table]]:
    """The report's data (for JSON) and its tables (for the other formats)."""
    rows = store.runs()
    labels = [label for label, _, _ in store.configurations()]
    settings = store.settings()
    runs = analysis.grid(rows, clock, analysis.limit(settings, clock))
    compared = analysis.complete(runs, labels)
    table4 = analysis.table4(compared, labels)
    correlations = analysis.correlations(compared, labels)
    win_rates = analysis.win_rates(compared, labels)
    disagreements = analysis.disagreements(rows)
    errors = analysis.errors(rows)
    planned = len(store.planned_deals() | set(runs)) * len(labels)
    data: ReportData = {"settings": settings, "clock": clock, "deals": len(runs), "runs": len(rows),
                        "planned_runs": planned, "compared_deals": len(compared),
                        "configurations": [{"label": label, "solver": solver, "options": _options(options),
                                            "versions": sorted({str(row.version) for row in rows
                                                                if row.configuration == label and row.version})}
                                           for label, solver, options in store.configurations()],
                        "hosts": sorted({str(row.host).rsplit(":", 1)[0] for row in rows}),
                        "table4": table4, "correlations": correlations, "win_rates": win_rates,
                        "disagreements": disagreements, "errors": errors}
    metrics = list(next(iter(table4.values()))) if table4 else []
    tables = [
        Table("configurations", "Configurations", ("configuration", "solver", "options", "versions"),
              tuple((item["label"], item["solver"], " ".join(f"{k}={v}" for k, v in item["options"].items()) or "-",
                     ", ".join(item["versions"]) or "-") for item in data["configurations"])),
        Table("table4", f"Table 4: {clock} seconds of decided runs on {_compared(data)} "
                        f"({analysis.limit_used(settings, clock)})",
              ("", *labels), tuple((metric, *(table4[label][metric] for label in labels)) for metric in metrics)),
        Table("correlations", "Correlation of per-deal times (deals both decided)",
              ("first", "second", "deals", "r", "r log"),
              tuple(tuple(item.values()) for item in correlations)),
        Table("win_rates", "Win rate of first over second (deals one of them won first), Wilson 95% CI",
              ("first", "second", "wins", "losses", "win rate", "ci low", "ci high"),
              tuple(tuple(item.values()) for item in win_rates)),
        Table("disagreements", f"Disagreements (solved vs unsolvable): {len(disagreements)}",
              ("deal", "solved by", "unsolvable by"),
              tuple((item["deal"], ", ".join(item["solved by"]), ", ".join(item["unsolvable by"]))
                    for item in disagreements)),
        Table("errors", f"Errors: {len(errors)}", ("deal", "configuration", "message"),
              tuple(tuple(item.values()) for item in errors)),
    ]
    return data, tables


def cell(value: object) -> str:
    """A value as table text, numbers in the reports' one format (columns.number), on one line
    whatever a deal's name holds (text and markdown are read by lines)."""
    if value is None or (isinstance(value, int | float) and not isinstance(value, bool)):
        return columns.number(value)
    return "".join(char if char.isprintable() else "?" for char in str(value))  # a deal's name: one row


def render(data: ReportData, tables: Sequence[Table], form: str) -> str:
    if form == "json":
        return json.dumps(data, indent=2) + "\n"
    if form == "csv":
        return "\n".join(_csv(table) for table in tables)
    head = summary(data) if form == "markdown" else "\n".join(
        line for part in summary(data).splitlines() for line in columns.wrapped(part))
    blocks = [head] + [_markdown(table) if form == "markdown" else _text(table) for table in tables]
    return "\n\n".join(blocks) + "\n"


def summary(data: ReportData) -> str:
    """The report's first line: runs, deals, hosts and the limits that were set; first of all, on a
    campaign not finished, that it is not, and what its comparisons count."""
    unfinished = ""
    planned, compared = data.get("planned_runs", data["runs"]), data.get("compared_deals", data["deals"])
    if data["runs"] < planned:
        unfinished = (f"unfinished campaign: {data['runs']:,} of {planned:,} runs; compared on the {compared:,} "
                      "deals every configuration ran\n")
    return (f"{unfinished}{data['runs']:,} runs on {data['deals']:,} deals; hosts: {', '.join(data['hosts']) or '-'}; "
            f"limits: {analysis.limits_set(data['settings'])}")


def _compared(data: ReportData) -> str:
    """`8 deals`, or where some configuration has not run them all `3 of 8 deals` (those all ran)."""
    compared = data.get("compared_deals", data["deals"])
    return f"{data['deals']:,} deals" if compared == data["deals"] else f"{compared:,} of {data['deals']:,} deals"


def _shown(table: Table) -> tuple[tuple[object, ...], ...]:
    if table.name == "errors" and len(table.rows) > _ERRORS_SHOWN:
        return (*table.rows[:_ERRORS_SHOWN], (f"... {len(table.rows) - _ERRORS_SHOWN} more (--format json)", "", ""))
    return table.rows


def _text(table: Table) -> str:
    """Numbers (and the `-` of a missing one) right-aligned, and the heads of columns of numbers;
    text, such as a version `2.3`, left-aligned."""
    shown = _shown(table)
    rows = [tuple(table.headers)] + [tuple(cell(value) for value in row) for row in shown]
    right = [column > 0 and bool(shown) and all(_numeric(row[column]) for row in shown)
             for column in range(len(table.headers))]
    title = columns.fit(table.title)
    return "\n".join([title, "-" * len(title), *columns.aligned(rows, right)])


def _numeric(value: object) -> bool:
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def _markdown(table: Table) -> str:
    lines = [f"**{table.title}**", "", "| " + " | ".join(table.headers) + " |",
             "|" + "|".join("---" for _ in table.headers) + "|"]
    lines += ["| " + " | ".join(cell(value).replace("|", "\\|") for value in row) + " |" for row in _shown(table)]
    return "\n".join(lines)


def _csv(table: Table) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["table", *table.headers])
    for row in table.rows:
        writer.writerow([table.name, *("" if value is None else value for value in row)])
    return buffer.getvalue()
