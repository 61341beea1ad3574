"""Running a campaign: plan the runs that have no row yet, run them on the one pool, check each
worker's record again and store it as it arrives, and keep the progress bar going. `patience compare`
and `patience.compare` both come this way (`run_campaign`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from patience.campaign.analysis import Disagreement, disagreements
from patience.campaign.config import Configuration
from patience.campaign.execute import Certified, plan, recheck, run_task
from patience.campaign.record import RunRecord
from patience.campaign.store import Store
from patience.result import Status
from patience.runs import cluster as clusters
from patience.runs.pool import Runner, runner
from patience.runs.process import Limits
from patience.runs.progress import Progress
from patience.runs.specs import NamedDeal
from patience.runs.stops import Kept, keeping


@dataclass(frozen=True)
class Campaign:
    """What a campaign run left in its store: runs wanted, stored before it, stored by it, and the
    deals on which validated verdicts contradict each other; of a certified campaign, the stored
    losses and their certificates (None otherwise); and every run the store reports, as it stands."""

    wanted: int
    before: int
    new: int
    contradictions: list[Disagreement]
    certified: tuple[int, int] | None = None  # (certificates, losses)
    runs: Sequence[RunRecord] = ()


def run_campaign(deals: Sequence[NamedDeal], configurations: Sequence[Configuration], limits: Limits,
                 db: str | Path, *, jobs: int = 1, scheduler: str | None = None,
                 cluster: clusters.Cluster | None = None, here: bool = False, logs: bool = True,
                 show_progress: bool = True, seed: int = 0, retry_errors: bool = False,
                 on_changed: Callable[[list[tuple[str, list[str], str]]], None] | None = None,
                 certify: bool = False) -> Campaign:
    """The campaign `patience compare` and `patience.compare` run: its workers (`jobs` local ones, or
    on `scheduler` or `cluster`, as patience.runs.cluster.runner says; `here`: one local job in this
    process; `logs`: a cluster's jobs write their logs beside `db`, which the nodes must see), then
    `campaign` on the store at `db`, made if missing."""
    run_tasks = clusters.runner(jobs, scheduler, cluster, here=here, seconds=limits.timeout,
                                memory_mb=limits.memory_mb, store=db if logs else None)
    with Store(db) as store:
        return campaign(deals, configurations, limits, store, run_tasks, show_progress, seed, retry_errors,
                        on_changed, certify)


def campaign(deals: Sequence[NamedDeal], configurations: Sequence[Configuration], limits: Limits, store: Store,
             run: Runner | None = None, show_progress: bool = True, seed: int = 0,
             retry_errors: bool = False,
             on_changed: Callable[[list[tuple[str, list[str], str]]], None] | None = None,
             certify: bool = False) -> Campaign:
    """Run every configuration on every deal that has no row in `store` yet (on `run`, by default
    one local worker), each validated record stored the moment it arrives; Interrupted by Ctrl-C,
    Ended by SIGTERM and SIGHUP (a SystemExit), each saying what is stored (patience.runs.stops). A deal is
    known by its content: `on_changed` hears of the deal files whose content changed since they were
    stored (each runs again as a new deal; its old runs stay under the old content). `certify`: each
    loss a run reports gets a certificate, stored with its row (docs/certificates.md)."""
    run = run or runner(1, here=False)
    store.fix_settings({"timeout": limits.timeout, "cpu": limits.cpu, "memory": limits.memory_mb, "certify": certify})
    store.fix_configurations(configurations)
    changed = store.changed(deals)
    store.add_deals(deals)
    if on_changed is not None and changed:
        on_changed(changed)
    if retry_errors:
        store.forget_errors()
    wanted = {(item.name, item.content, configuration.label) for item in deals for configuration in configurations}
    done = Counter(status for key, status in store.statuses().items() if key in wanted)
    tasks = plan(deals, configurations, limits, store.finished(), seed, certify)
    by_run = {(task.deal.name, task.configuration.label): task for task in tasks}
    progress = Progress(len(wanted), done, enabled=show_progress, title="compare")
    new = 0

    def keep(finished: RunRecord | Certified) -> None:
        nonlocal new
        record, certificate = finished if isinstance(finished, Certified) else (finished, None)
        record = recheck(by_run[record.deal, record.configuration], record)
        new += store.record(record, certificate)
        progress.update(record.status)

    with keeping(lambda: Kept(sum(done.values()) + new, len(wanted), new)), progress:
        run(run_task, tasks, keep)
    lost = sum(status is Status.UNSOLVABLE for key, status in store.statuses().items() if key in wanted)
    runs = store.runs()
    return Campaign(len(wanted), sum(done.values()), new, disagreements(runs),  # each label one content
                    (len(store.certified_runs() & wanted), lost) if certify else None, runs)

