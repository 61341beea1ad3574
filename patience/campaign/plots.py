"""The report's figures, PNG and SVG (matplotlib, Agg): a cactus plot (deals decided within a time,
per configuration) and the paper's Fig. 1 style plot (each deal's time per configuration, deals
sorted by difficulty = the best time any configuration took; undecided deals at the right)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["text.usetex"] = False  # a matplotlibrc asking for TeX would parse labels as TeX
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from patience.campaign.analysis import Grid  # noqa: E402
from patience.outputs import figure_bytes  # noqa: E402

_FLOOR = 1e-3  # seconds; times below it are drawn at it (log axis)


def plain(label: str) -> str:
    """A configuration label as matplotlib should draw it, literally: each `$` escaped, so that
    `a$\\frac{$` is no mathtext to parse (and fail on); a leading `_`, which a legend skips, kept
    behind a zero-width space. (The ticks of a log axis still need mathtext, so it stays on.)"""
    text = label.replace("$", r"\$")
    return "\u200b" + text if text.startswith("_") else text


def _drawn(figure, stem: str) -> dict[str, bytes]:
    """The figure's PNG and SVG files (written together by `patience.outputs.write_files`)."""
    files = {f"{stem}.png": figure_bytes(figure, ".png", dpi=110), f"{stem}.svg": figure_bytes(figure, ".svg")}
    plt.close(figure)
    return files


def cactus_figure(runs: Grid, labels: Sequence[str], timeout: float | None, clock: str):
    """The cactus figure, and the (deal, seconds) of its points in drawing order by the gid of their
    line (`cactus-<label>`), so that a page can name each point."""
    figure, axes = plt.subplots(figsize=(7, 4.5))
    points: dict[str, list[tuple[str, float]]] = {}
    for label in labels:
        decided = [(deal, max(by_label[label].seconds, _FLOOR)) for deal, by_label in runs.items()
                   if label in by_label and by_label[label].decided]
        points[f"cactus-{label}"] = sorted(decided, key=lambda item: item[1])
        times = [seconds for _, seconds in points[f"cactus-{label}"]]
        (line,) = axes.step(range(1, len(times) + 1), times, where="post", marker=".", markersize=3,
                            label=f"{plain(label)} ({len(times)})")  # a marker shows a single decided deal
        line.set_gid(f"cactus-{label}")
    if timeout:
        axes.axhline(timeout, color="grey", linestyle=":", linewidth=1, label=f"timeout {timeout:g} s")
    axes.set_yscale("log")
    axes.set_xlabel(f"deals decided (of {len(runs)})")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # a count of deals: no tick at 1.5
    axes.set_ylabel(f"{clock} seconds per deal")
    axes.set_title("Cactus plot: deals decided within a time")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    return figure, points


def cactus(runs: Grid, labels: Sequence[str], timeout: float | None, clock: str) -> dict[str, bytes]:
    return _drawn(cactus_figure(runs, labels, timeout, clock)[0], "cactus")


def effort_figure(runs: Grid, labels: Sequence[str], timeout: float | None, clock: str,
                  link: Callable[[str], str | None] | None = None):
    """The per-deal effort figure, and the (deal, seconds) of its points in drawing order by the gid of
    their group (`effort-<label>`, and `undecided-<label>` for the crosses); `link` gives each point a URL."""
    ceiling = timeout or max((run.seconds for by_label in runs.values() for run in by_label.values()), default=1.0)

    def difficulty(deal: str) -> tuple[int, float]:
        decided = [run.seconds for run in runs[deal].values() if run.decided]
        return (0, min(decided)) if decided else (1, 0.0)

    order = sorted(runs, key=difficulty)
    figure, axes = plt.subplots(figsize=(7, 4.5))
    points: dict[str, list[tuple[str, float]]] = {}
    for label in labels:
        decided = [(position, deal) for position, deal in enumerate(order)
                   if label in runs[deal] and runs[deal][label].decided]
        failed = [(position, deal) for position, deal in enumerate(order)
                  if label in runs[deal] and not runs[deal][label].decided]
        ys = [max(runs[deal][label].seconds, _FLOOR) for _, deal in decided]
        drawn = axes.scatter([position for position, _ in decided], ys, s=6, label=plain(label))
        drawn.set_gid(f"effort-{label}")
        points[f"effort-{label}"] = [(deal, seconds) for (_, deal), seconds in zip(decided, ys, strict=True)]
        if link:
            drawn.set_urls([link(deal) for _, deal in decided])
        if failed:
            crosses = axes.scatter([position for position, _ in failed], [ceiling * 1.3] * len(failed), s=10,
                                   marker="x", color=drawn.get_facecolor()[0])
            crosses.set_gid(f"undecided-{label}")
            points[f"undecided-{label}"] = [(deal, runs[deal][label].seconds) for _, deal in failed]
            if link:
                crosses.set_urls([link(deal) for _, deal in failed])
    axes.axhline(ceiling, color="grey", linestyle=":", linewidth=1)
    axes.set_yscale("log")
    axes.set_xlabel("deals sorted by difficulty (best time of any configuration)")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # deals are counted: no tick at 1.5
    axes.set_ylabel(f"{clock} seconds (x above the line: not decided)")
    axes.set_title("Per-deal effort by configuration")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small", markerscale=2)
    figure.tight_layout()
    return figure, points


def effort(runs: Grid, labels: Sequence[str], timeout: float | None, clock: str) -> dict[str, bytes]:
    return _drawn(effort_figure(runs, labels, timeout, clock)[0], "effort")
