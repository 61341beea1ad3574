"""The report's figures, PNG and SVG (matplotlib, Agg): a cactus plot (deals decided within a time,
per configuration) and the paper's Fig. 1 style plot (each deal's time per configuration, deals
sorted by difficulty = the best time any configuration took; undecided deals at the right)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from patience.campaign.analysis import Grid  # noqa: E402

_FLOOR = 1e-3  # seconds; times below it are drawn at it (log axis)


def _save(figure, directory: Path, stem: str) -> list[Path]:
    paths = [directory / f"{stem}.png", directory / f"{stem}.svg"]
    figure.savefig(paths[0], dpi=110)
    figure.savefig(paths[1])
    plt.close(figure)
    return paths


def cactus(runs: Grid, labels: Sequence[str], timeout: float | None, clock: str, directory: Path) -> list[Path]:
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for label in labels:
        times = sorted(max(by_label[label].seconds, _FLOOR) for by_label in runs.values()
                       if label in by_label and by_label[label].decided)
        axes.step(range(1, len(times) + 1), times, where="post", marker=".", markersize=3,
                  label=f"{label} ({len(times)})")  # the marker shows a configuration that decided one deal
    if timeout:
        axes.axhline(timeout, color="grey", linestyle=":", linewidth=1, label=f"timeout {timeout:g} s")
    axes.set_yscale("log")
    axes.set_xlabel(f"deals decided (of {len(runs)})")
    axes.set_ylabel(f"{clock} seconds per deal")
    axes.set_title("Cactus plot: deals decided within a time")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    return _save(figure, directory, "cactus")


def effort(runs: Grid, labels: Sequence[str], timeout: float | None, clock: str, directory: Path) -> list[Path]:
    ceiling = timeout or max((run.seconds for by_label in runs.values() for run in by_label.values()), default=1.0)

    def difficulty(deal: str) -> tuple[int, float]:
        decided = [run.seconds for run in runs[deal].values() if run.decided]
        return (0, min(decided)) if decided else (1, 0.0)

    order = sorted(runs, key=difficulty)
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for label in labels:
        xs, ys, failed_x = [], [], []
        for position, deal in enumerate(order):
            run = runs[deal].get(label)
            if run is None:
                continue
            if run.decided:
                xs.append(position)
                ys.append(max(run.seconds, _FLOOR))
            else:
                failed_x.append(position)
        points = axes.scatter(xs, ys, s=6, label=label)
        if failed_x:
            axes.scatter(failed_x, [ceiling * 1.3] * len(failed_x), s=10, marker="x", color=points.get_facecolor()[0])
    axes.axhline(ceiling, color="grey", linestyle=":", linewidth=1)
    axes.set_yscale("log")
    axes.set_xlabel("deals sorted by difficulty (best time of any configuration)")
    axes.set_ylabel(f"{clock} seconds (x above the line: not decided)")
    axes.set_title("Per-deal effort by configuration")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small", markerscale=2)
    figure.tight_layout()
    return _save(figure, directory, "effort")
