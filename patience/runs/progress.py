"""The campaign's progress bar on stderr: counts per outcome, rate and ETA.

On a terminal it redraws one line; otherwise (logs, CI) it prints a line every tenth of the way,
and at least once a minute, so that the log of an hours-long survey shows it is alive.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Mapping
from typing import TextIO

from patience.result import Status

SHOWN = (Status.SOLVED, Status.UNSOLVABLE, Status.TIMEOUT, Status.ERROR)  # a campaign's; others pass their own
LOG_EVERY_SECONDS = 60.0  # off a terminal: the longest gap between two lines


class Progress:
    def __init__(self, total: int, done: Mapping[Status, int] | Mapping[str, int], stream: TextIO | None = None,
                 enabled: bool = True, shown: tuple[str, ...] | None = None, title: str = "") -> None:
        self.total, self.enabled = total, enabled
        self.counts: Counter[str] = Counter(done)  # by Status (a str), or a word of the caller's own
        self.shown = shown or SHOWN  # the outcomes counted by name
        self.title = f"{title} " if title else ""
        self.resumed = sum(done.values())
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.started = time.monotonic()
        self.last_tenth, self.last_logged = -1, self.started

    def line(self) -> str:
        done = sum(self.counts.values())
        fresh = done - self.resumed
        elapsed = time.monotonic() - self.started
        width = 24
        filled = width * done // self.total if self.total else width
        counts = " ".join(f"{name} {self.counts[name]}" for name in self.shown)
        other = done - sum(self.counts[name] for name in self.shown)
        if other:
            counts += f" other {other}"
        eta = "--"
        if fresh and done < self.total:
            eta = _duration(elapsed / fresh * (self.total - done))
        elif done >= self.total:
            eta = "done"
        bar = f"[{'#' * filled}{'.' * (width - filled)}]"
        return f"{self.title}{bar} {done}/{self.total} {counts} | {_duration(elapsed)} ETA {eta}"

    def update(self, status: Status | str) -> None:
        """Count one outcome: a run's Status, or a word of the caller's own (`written`)."""
        self.counts[status] += 1
        self.show()

    def show(self) -> None:
        if not self.enabled:
            return
        if self.tty:
            self.stream.write("\r" + self.line() + "\x1b[K")
        else:
            tenth, clock = 10 * sum(self.counts.values()) // max(self.total, 1), time.monotonic()
            if tenth == self.last_tenth and clock - self.last_logged < LOG_EVERY_SECONDS:
                return
            self.last_tenth, self.last_logged = tenth, clock
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
