"""Running a campaign into its store: fix the store's limits and configurations, plan the runs that
have no row, run them, recheck and store each the moment it arrives, and look for contradicting
verdicts. `patience compare` and `patience.compare` both come this way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from patience.campaign import execute
from patience.campaign.analysis import disagreements
from patience.campaign.config import Configuration
from patience.campaign.progress import Progress
from patience.campaign.record import RunRecord
from patience.campaign.specs import NamedDeal
from patience.campaign.store import Store
from patience.runners.process import Limits

RunTasks = Callable[[Sequence[execute.Task]], Iterator[tuple[execute.Task, RunRecord]]]


@dataclass(frozen=True)
class CampaignRun:
    """What one sitting of a campaign did: the runs it asked for, those stored before and now, its rows
    (the asked-for runs found in the store), the verdicts that contradict each other in the whole
    store, and whether it was interrupted (then `contradictions` is empty: nothing was looked at)."""

    wanted: int
    before: int
    new: int
    rows: tuple[RunRecord, ...]
    contradictions: tuple[dict[str, object], ...]
    interrupted: bool


def run_campaign(path: str | Path, deals: Sequence[NamedDeal], configurations: Sequence[Configuration],
                 limits: Limits, run_tasks: RunTasks, seed: int = 0, retry_errors: bool = False,
                 show_progress: bool = True) -> CampaignRun:
    """Run every deal x configuration that the store at `path` has no row for. A store made with other
    limits, or another configuration under the same label, is refused before anything runs. Ctrl-C
    stops the sitting; what was stored stays, and a rerun continues."""
    store = Store(path)
    try:
        store.fix_settings({"timeout": limits.timeout, "cpu": limits.cpu, "memory": limits.memory_mb})
        store.fix_configurations(configurations)
        store.add_deals(item.describe() for item in deals)
        if retry_errors:
            store.forget_errors()
        wanted = {(item.name, configuration.label) for item in deals for configuration in configurations}
        done = Counter(str(row.status) for row in store.runs() if (row.deal, row.configuration) in wanted)
        tasks = execute.plan(deals, configurations, limits, store.finished(), seed)
        progress = Progress(len(wanted), done, enabled=show_progress)
        progress.show()
        stored, interrupted = 0, False
        try:
            for task, record in run_tasks(tasks):
                record = execute.recheck(task, record)
                stored += store.record(record)
                progress.update(record.status)
        except KeyboardInterrupt:
            interrupted = True
        progress.finish()
        rows = store.runs()
    finally:
        store.close()
    return CampaignRun(len(wanted), sum(done.values()), stored,
                       tuple(row for row in rows if (row.deal, row.configuration) in wanted),
                       () if interrupted else tuple(disagreements(rows)), interrupted)
