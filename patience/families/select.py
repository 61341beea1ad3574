"""Which deals of a family are written: `--status` keeps the deals of one native verdict,
`--select hardest:N | easiest:N | sample:N` then picks by the measure (or by a seeded draw).
The chosen deals keep the spec's order."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from patience.errors import UsageError, quote
from patience.families.labels import Label
from patience.result import Status

# `--status`: a verdict's Status name, or any; `solvable` is the older spelling of solved
STATUSES = {Status.SOLVED.value: Status.SOLVED, Status.UNSOLVABLE.value: Status.UNSOLVABLE, "any": None,
            "solvable": Status.SOLVED}
WAYS = ("hardest", "easiest", "sample")
_COUNT = re.compile(r"[0-9]{1,9}")


@dataclass(frozen=True)
class Selection:
    way: str  # hardest, easiest, sample
    count: int


def parse_selection(text: str) -> Selection:
    """`hardest:20` -> Selection("hardest", 20); a usage error otherwise."""
    way, colon, count = text.partition(":")
    if way not in WAYS or not colon or not _COUNT.fullmatch(count) or int(count) < 1:
        shown = text if len(text) <= 40 else text[:40] + "..."  # an error stays one short line
        raise UsageError(f"--select {quote(shown)}: expected hardest:N, easiest:N or sample:N with N at least 1")
    return Selection(way, int(count))


def choose(labels: Sequence[Label], measure: Sequence[float], selection: Selection | None, status: str,
           seed: int) -> list[int]:
    """The positions of the chosen deals, in order. Hardest first breaks ties by position."""
    kept = STATUSES[status]
    candidates = [index for index, item in enumerate(labels) if kept is None or item.status is kept]
    if selection is None or selection.count >= len(candidates):
        return candidates
    if selection.way == "sample":
        chosen = random.Random(seed).sample(candidates, selection.count)
    else:
        sign = -1 if selection.way == "hardest" else 1
        chosen = sorted(candidates, key=lambda index: (sign * measure[index], index))[:selection.count]
    return sorted(chosen)
