"""Running a survey: plan the batches of deals that have no row yet, run them, store each batch as
it arrives, and keep the progress bar going."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from patience.runs.pool import Runner
from patience.runs.progress import Progress
from patience.survey.decide import Shape, batches, decide_batch
from patience.survey.store import MAX_CARDS, VERDICTS, Row, SurveyStore


def survey(store: SurveyStore, game: str, numbering: str | None, seeds: Sequence[int], batch_size: int,
           seconds: float, run: Runner, show_progress: bool = True, nodes: int | None = None,
           mode: str = MAX_CARDS, shape: Shape | None = None) -> tuple[int, int]:
    """Decide every seed without a row; returns (deals stored before, deals stored now)."""
    wanted = set(seeds)
    stored = store.stored_seeds(min(wanted), max(wanted)) & wanted
    done = Counter(store.verdict_counts(wanted))
    todo = [seed for seed in seeds if seed not in stored]
    progress = Progress(len(wanted), done, enabled=show_progress, shown=VERDICTS)
    progress.show()
    new = 0

    def keep(rows: list[Row]) -> None:
        nonlocal new
        new += store.add_batch(rows)
        for row in rows:
            progress.counts[row.verdict] += 1
        progress.show()

    try:
        run(decide_batch, batches(game, numbering, todo, batch_size, seconds, nodes, mode, shape), keep)
    finally:
        progress.finish()
    return len(stored), new
