"""A family's labels and measures: the native search's verdict on every deal (its expected answer),
and the hardness measure `--select` ranks by: native nodes, or a solver's time in a campaign store."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from patience.campaign.store import Store
from patience.errors import InputError, UsageError, quote
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.runs.specs import NamedDeal


@dataclass(frozen=True)
class Label:
    """The native search's validated verdict on one deal (a win is replayed before it counts)."""

    status: Status
    nodes: int | None
    max_cards: int | None
    seconds: float


def label(named: NamedDeal, seconds: float) -> Label:
    """Decide one deal with the native search (max-cards mode, so the most cards removable comes
    with the verdict) through the one road from deal to validated result."""
    result = solve(named.deal, "native", Limits(timeout=seconds), {"max-cards": "on"})
    max_cards = result.stats.get("max_cards")  # of LBS, the most moves (each puts a card on another)
    if max_cards is not None and result.status is Status.SOLVED:
        max_cards = len(result.sequence or ())  # the validated win's length, not the search's word
    return Label(result.status, result.nodes, None if max_cards is None else int(max_cards),
                 round(result.wall, 4))


def native_nodes(labels: Sequence[Label]) -> list[float]:
    """Native nodes as the measure; a deal the search left undecided counts as the hardest."""
    return [float(item.nodes or 0) if item.status.decided else math.inf for item in labels]


def store_times(measure: str, names: Sequence[str]) -> list[float]:
    """`STORE:CONFIGURATION`: each deal's wall time in a campaign store under that configuration
    label (or the one configuration of that solver); a run that decided nothing counts as the
    hardest. Every deal of the family must have its run there."""
    path, colon, wanted = measure.rpartition(":")
    if not colon or not path or not wanted:
        raise UsageError(f"--measure {quote(measure)}: expected STORE:SOLVER (a campaign store and a configuration)")
    with Store(path, create=False) as store:
        try:
            configuration = _configuration(store, wanted, path)
            times = {run.deal: (float(run.wall) if run.status.decided else math.inf)
                     for run in store.runs() if run.configuration == configuration}
        except (sqlite3.DatabaseError, TypeError, ValueError) as error:
            raise InputError(path, None, f"not a readable campaign store: {error}") from None
    missing = [name for name in names if name not in times]
    if missing:
        raise UsageError(f"--measure {measure}: {len(missing)} deals have no {configuration} run in {path}, "
                         f"the first {missing[0]}")
    return [times[name] for name in names]


def _configuration(store: Store, wanted: str, path: str) -> str:
    """The configuration label `wanted` names: a label, or a solver run under exactly one label."""
    configurations = store.configurations()
    if any(label_ == wanted for label_, _, _ in configurations):
        return wanted
    by_solver = [label_ for label_, solver, _ in configurations if solver == wanted]
    if len(by_solver) == 1:
        return by_solver[0]
    known = ", ".join(label_ for label_, _, _ in configurations) or "none"
    if by_solver:
        raise UsageError(f"{path}: solver {wanted} ran as {', '.join(by_solver)}; name one of these labels")
    raise UsageError(f"{path} has no configuration {quote(wanted)}; it has: {known}")
