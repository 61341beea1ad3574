"""From stored runs to the comparison's numbers: the paper's Table 4 per configuration, pairwise
correlation of per-deal times, pairwise win rates with Wilson 95% intervals, and disagreements.

Times are those of decided runs (solved, or proved unsolvable); a run that hit a limit counts in
the timeout row, an error in its own row. Contradicting verdicts are listed, never averaged away.
The numbers that compare configurations are taken on the deals all of them finished (`complete`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from patience.campaign.record import RunRecord
from patience.result import DECIDED, LIMITED, Status

BUCKETS = ((0.0, 0.1, "< 0.1 s"), (0.1, 1.0, "0.1-1 s"), (1.0, 10.0, "1-10 s"), (10.0, 100.0, "10-100 s"),
           (100.0, 1000.0, "100-1000 s"), (1000.0, math.inf, ">= 1000 s"))
Z95 = 1.959963984540054


class Settings(TypedDict, total=False):
    """A campaign's limits as its store holds them: only those that were set (a number) or asked unset (None)."""

    timeout: float | None
    cpu: float | None
    memory: float | None


def limit(settings: Settings, clock: str) -> float | None:
    """The limit that stopped runs on this clock: the CPU limit (the timeout when none was set) or the timeout."""
    value = settings.get("cpu") if clock == "cpu" else None
    value = value if value is not None else settings.get("timeout")
    return float(value) if value is not None else None


LIMIT_UNITS = {"timeout": "s", "cpu": "s", "memory": "MiB"}


def limits_set(settings: Mapping[str, object]) -> str:
    """The limits the campaign was run with, only those that were set: `timeout 10 s, memory 2048 MiB`."""
    shown = [f"{key} {value:g} {LIMIT_UNITS.get(key, '')}".rstrip() if isinstance(value, int | float)
             else f"{key} {value}" for key, value in settings.items() if value is not None]
    return ", ".join(shown) or "none"


def limit_used(settings: Settings, clock: str) -> str:
    """The limit the tables cut the `clock` times at, and where it comes from: a CPU limit only when one was set."""
    stop = limit(settings, clock)
    if stop is None:
        return "no limit"
    if clock == "cpu" and settings.get("cpu") is not None:
        return f"limit {stop:g} cpu s"
    return f"limit: the {stop:g} s timeout"


@dataclass(frozen=True)
class Run:
    """The part of a stored run the numbers need."""

    status: Status
    seconds: float

    @property
    def decided(self) -> bool:
        return self.status.decided


Grid = Mapping[str, Mapping[str, Run]]  # deal -> configuration -> run


def grid(rows: Sequence[RunRecord], clock: str = "cpu", stop: float | None = None) -> dict[str, dict[str, Run]]:
    """Stored rows as deal -> configuration -> Run, timed by `clock` (cpu or wall). A verdict
    reached after the limit `stop` counts as a timeout: solvers that stop themselves get a few
    seconds of grace before the kill, and what they decide then is not decided within the limit."""
    table: dict[str, dict[str, Run]] = {}
    for row in rows:
        seconds = float(getattr(row, clock))
        status = Status(row.status)
        if stop is not None and status.decided and seconds > stop:
            status = Status.TIMEOUT
        table.setdefault(str(row.deal), {})[str(row.configuration)] = Run(status, seconds)
    return table


def complete(runs: Grid, labels: Sequence[str]) -> dict[str, Mapping[str, Run]]:
    """The deals every configuration has finished (a run stored, whatever its status): the only ones
    on which configurations are compared, so that a campaign stopped part way compares like with like
    (a configuration that has not run a deal yet neither wins nor loses it)."""
    return {deal: by_label for deal, by_label in runs.items() if all(label in by_label for label in labels)}


def table4(runs: Grid, labels: Sequence[str]) -> dict[str, dict[str, object]]:
    """Per configuration: runs in each time bucket, limits hit, errors, time statistics of decided runs,
    and the share of deals (decided by anyone) on which it was fastest (ties count for each)."""
    fastest = dict.fromkeys(labels, 0)
    contested = 0
    for by_label in runs.values():
        decided = {label: run.seconds for label, run in by_label.items() if run.decided and label in fastest}
        if decided:
            contested += 1
            best = min(decided.values())
            for label, seconds in decided.items():
                fastest[label] += seconds == best
    table = {}
    for label in labels:
        mine = [by_label[label] for by_label in runs.values() if label in by_label]
        times = sorted(run.seconds for run in mine if run.decided)
        column: dict[str, object] = {"runs": len(mine),
                                     "solved": sum(run.status is Status.SOLVED for run in mine),
                                     "unsolvable": sum(run.status is Status.UNSOLVABLE for run in mine)}
        for low, high, name in BUCKETS:
            column[name] = sum(low <= seconds < high for seconds in times)
        column["timeout"] = sum(run.status in LIMITED for run in mine)
        column["error"] = sum(run.status is Status.ERROR for run in mine)
        column["max"] = max(times) if times else None
        column["median"] = statistics.median(times) if times else None
        column["mean"] = statistics.fmean(times) if times else None
        column["std"] = statistics.stdev(times) if len(times) > 1 else None
        column["fastest %"] = 100.0 * fastest[label] / contested if contested else None
        table[label] = column
    return table


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    if len(xs) < 3:
        return None
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mean_x) ** 2 for x in xs)
    syy = sum((y - mean_y) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / math.sqrt(sxx * syy)


def correlations(runs: Grid, labels: Sequence[str]) -> list[dict[str, object]]:
    """For each pair: Pearson r of per-deal times (as the paper) and of their logarithms, on the
    deals both decided."""
    rows = []
    for index, first in enumerate(labels):
        for second in labels[index + 1:]:
            pairs = [(by_label[first].seconds, by_label[second].seconds) for by_label in runs.values()
                     if first in by_label and second in by_label
                     and by_label[first].decided and by_label[second].decided]
            xs, ys = [pair[0] for pair in pairs], [pair[1] for pair in pairs]
            logs = [(math.log10(max(x, 1e-4)), math.log10(max(y, 1e-4))) for x, y in pairs]
            rows.append({"first": first, "second": second, "deals": len(pairs), "r": pearson(xs, ys),
                         "r log": pearson([pair[0] for pair in logs], [pair[1] for pair in logs])})
    return rows


def wilson(wins: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval of a proportion (sound near 0 and 1, unlike the normal approximation)."""
    if trials == 0:
        return None
    share = wins / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, round(centre - spread, 12)), min(1.0, round(centre + spread, 12))


def beats(mine: Run, theirs: Run) -> bool:
    """A run beats another when it decided the deal and the other did not, or did so sooner."""
    return mine.decided and (not theirs.decided or mine.seconds < theirs.seconds)


def win_rates(runs: Grid, labels: Sequence[str]) -> list[dict[str, object]]:
    """For each ordered pair: on deals both ran where one of the two won (ties and double failures left out),
    the share won by the first, with its Wilson 95% interval."""
    rows = []
    for first in labels:
        for second in labels:
            if first == second:
                continue
            both = [by_label for by_label in runs.values() if first in by_label and second in by_label]
            wins = sum(beats(by_label[first], by_label[second]) for by_label in both)
            losses = sum(beats(by_label[second], by_label[first]) for by_label in both)
            interval = wilson(wins, wins + losses)
            rows.append({"first": first, "second": second, "wins": wins, "losses": losses,
                         "win rate": wins / (wins + losses) if wins + losses else None,
                         "ci low": interval[0] if interval else None, "ci high": interval[1] if interval else None})
    return rows


Disagreement = TypedDict("Disagreement", {"deal": str, "solved by": list[str], "unsolvable by": list[str]})


def disagreements(rows: Sequence[RunRecord]) -> list[Disagreement]:
    """Deals that one configuration solved (validated sequence) and another called unsolvable:
    the unsolvable claim is wrong, and every such deal is listed."""
    verdicts: dict[str, dict[Status, list[str]]] = {}
    for row in rows:
        if row.status in DECIDED:
            by_status = verdicts.setdefault(str(row.deal), {})
            by_status.setdefault(row.status, []).append(str(row.configuration))
    return [{"deal": deal, "solved by": sorted(by_status[Status.SOLVED]),
             "unsolvable by": sorted(by_status[Status.UNSOLVABLE])}
            for deal, by_status in sorted(verdicts.items()) if len(by_status) == 2]


def errors(rows: Sequence[RunRecord]) -> list[dict[str, object]]:
    """Runs that ended in an error (runner failures, answers the validator rejected)."""
    return [{"deal": row.deal, "configuration": row.configuration, "message": row.message}
            for row in rows if row.status == Status.ERROR]
