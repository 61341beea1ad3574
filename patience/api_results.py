"""What the Python API returns (patience/api.py): a model's files, a judged solver result (the runners'
own `Result`, patience.result) and a survey summed up, each showing itself in Jupyter (`_repr_html_`)
and printing itself plainly."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from patience.result import Result

if TYPE_CHECKING:
    import pandas

    from patience.certificates import Written
    from patience.generators.files import ModelFiles
    from patience.survey.report import Summary
    from patience.survey.store import Row


@dataclass(frozen=True)
class Model:
    """A deal's model in one solver language; `str(model)` is its primary file.

    Attributes:
        language: the model language (`pddl`, `cnf`, ...).
        files: file name -> text, every file of the model.
        primary: the file `gen LANGUAGE` prints.
        model_files: the generator's own result, with the way back from a solver's answer to moves.
    """

    language: str
    files: Mapping[str, str] = field(repr=False)
    primary: str
    model_files: ModelFiles = field(repr=False)

    def write(self, folder: str | os.PathLike[str]) -> list[Path]:
        """Write every file into `folder` (made if missing), all whole or none; returns their paths."""
        from patience.outputs import write_files

        return write_files(Path(folder), self.files)

    def __str__(self) -> str:
        return self.files[self.primary]

    def __repr__(self) -> str:
        sizes = ", ".join(f"{name}: {len(text.splitlines()):,} lines" for name, text in self.files.items())
        return f"<Model {self.language}: {sizes}>"

    def _repr_html_(self) -> str:
        from patience.pages.notebook import files_html

        return f"<p>{self.language} model, {len(self.files)} files</p>" + files_html(self.files)


@dataclass(frozen=True)
class Certificate:
    """What `certify` did: the judged result of the run, and of a loss the certificate written to
    `path` (`patience solve --certificate`); true exactly when one was written.

    Attributes:
        result: the solver's judged `Result`.
        path: where the certificate was asked for.
        written: its `positions` (those a game's certificate lists, or a SAT proof's steps) and
            `size` in bytes, or the `reason` none was written (not lost, or the pass reached a limit).
        kind: what `positions` counts: `positions` or `DRAT steps`.
    """

    result: Result
    path: Path
    written: Written
    kind: str = "positions"

    @property
    def positions(self) -> int:
        return self.written.positions

    @property
    def size(self) -> int:
        return self.written.size

    @property
    def reason(self) -> str | None:
        return self.written.reason

    def __bool__(self) -> bool:
        return self.written.reason is None

    def __str__(self) -> str:
        if self.written.reason is not None:
            return f"certificate: none ({self.written.reason})"
        return f"certificate: {self.written.said(str(self.path), self.kind)}"


@dataclass(frozen=True)
class Checked:
    """What `check` found of a certificate: true exactly when it proves the loss.

    Attributes:
        certified: whether the certificate proves the deal lost.
        lines: what `patience check` prints: `certified: cannot be won` and what else it proves (the
            most cards a play can play, the lemmas checked), or `not certified: ...`.
        fault: the first position or proof step that breaks it; None when certified.
    """

    certified: bool
    lines: tuple[str, ...]
    fault: str | None = None

    def __bool__(self) -> bool:
        return self.certified

    def __str__(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class SurveySummary:
    """A survey summed up, as `patience survey report` prints it (`str(summary)`).

    Attributes:
        game: the game surveyed.
        deals: deals in the survey (decided or cut short by the limits).
        won: deals won.
        lost: deals proven lost.
        interval: the 95% Wilson interval (low, high) of the win rate among decided deals.
        histogram: the most cards removable from the tableau -> how many deals.
        undecided: the numbers of the deals the time or node limit cut short.
        settings: the survey's settings as its store keeps them (game, mode, timeout, ...).
        summary: the report's own summary (mean cards, nodes, ...).
    """

    game: str
    deals: int
    won: int
    lost: int
    interval: tuple[float, float]
    histogram: Mapping[int, int] = field(repr=False)
    undecided: tuple[int, ...] = field(repr=False)
    settings: Mapping[str, object] = field(repr=False)
    summary: Summary = field(repr=False)
    survey_rows: tuple[Row, ...] = field(repr=False)

    @property
    def rate(self) -> float:
        """The share of decided deals won."""
        return self.summary.rate

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain data (JSON-ready): the counts, the interval, the histogram and the settings."""
        return {"game": self.game, "deals": self.deals, "won": self.won, "lost": self.lost, "rate": self.rate,
                "interval": list(self.interval), "histogram": {str(cards): count for cards, count
                                                              in sorted(self.histogram.items())},
                "undecided": list(self.undecided), "settings": dict(self.settings)}

    @property
    def rows(self) -> pandas.DataFrame:
        """One row a deal: `seed`, `verdict` (solved, unsolvable, unknown), `cards`, `nodes`, `seconds`."""
        import pandas

        return pandas.DataFrame([{**row._asdict(), "verdict": row.verdict.value} for row in self.survey_rows])

    def plot(self, axes: Any = None) -> Any:
        """The histogram of the most cards removable, as `survey report --plot` draws it; returns the axes."""
        if axes is None:
            import matplotlib.pyplot as plt

            axes = plt.subplots(figsize=(8, 4.5))[1]
        from patience.survey.report import draw_histogram

        draw_histogram(self.summary, self.settings, axes)
        return axes

    def __str__(self) -> str:
        from patience.survey.report import render

        return render(self.summary, self.settings)

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(str(self))}</pre>"


@dataclass(frozen=True)
class Page:
    """A deal's page, as `patience show` writes it: one self-contained HTML file to step through an
    answer or to play by hand. A notebook draws it; `.write(path)` writes it whole.

    Attributes:
        html: the page.
        verdict: the validator's words on the moves it steps through (None: no moves, play by hand).
        result: the solver's judged result when a solver was asked, else None.
    """

    html: str = field(repr=False)
    verdict: str | None
    result: Result | None
    height: int = field(default=600, repr=False)  # about the page's height in pixels, for a notebook's frame

    def write(self, path: str | os.PathLike[str]) -> Path:
        """Write the page to `path` (whole or not at all); returns the path."""
        from patience.api_checks import path as checked
        from patience.outputs import write_file

        target = Path(checked(path, "path"))
        write_file(target, self.html)
        return target

    def __bool__(self) -> bool:
        raise TypeError("a Page is neither true nor false: ask page.verdict, or page.result.solved")

    def _repr_html_(self) -> str:
        from patience.pages.notebook import page_frame

        return page_frame(self.html, self.height)


@dataclass(frozen=True)
class Report:
    """A campaign store's report, as `patience report STORE` prints it (`str(report)`): the paper's
    Table 4, the correlations of per-deal times, the win rates, the disagreements and the errors,
    each a pandas DataFrame.

    Attributes:
        data: the report as `patience report --format json` writes it (`to_dict()`).
        tables: name -> DataFrame: `configurations`, `table4`, `correlations`, `win_rates`,
            `disagreements`, `errors`.
    """

    data: Mapping[str, Any] = field(repr=False)
    tables: Mapping[str, pandas.DataFrame] = field(repr=False)
    built: tuple[Any, ...] = field(repr=False)  # the report's own tables, as the command renders them

    @property
    def table4(self) -> pandas.DataFrame:
        """Table 4: one row a measure (decided, mean, median, ...), one column a configuration."""
        return self.tables["table4"]

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data: what `patience report --format json` writes."""
        import json

        return json.loads(json.dumps(self.data))

    def __bool__(self) -> bool:
        raise TypeError("a Report is neither true nor false: ask report.data['deals'] or report.tables")

    def __str__(self) -> str:
        from patience.campaign.tables import render

        return render(self.data, self.built, "text")  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"<Report: {self.data['runs']:,} runs on {self.data['deals']:,} deals>"

    def _repr_html_(self) -> str:
        import html

        return "".join(f"<h4>{html.escape(table.title)}</h4>{self.tables[table.name].to_html()}"
                       for table in self.built)
