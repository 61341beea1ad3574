"""The progress line of every long run (campaigns, surveys, families, the hunt) on stderr: how many of
how many are done, a count per outcome, the time spent and an estimate of the time left.

Each label stands after its number (`8/8 done, 6 solved, 2 unsolvable, 0 timeout`), and the line
fits LINE_WIDTH columns, or COLUMNS where that is set narrower: the bar shrinks first, then goes.

On a terminal the line is redrawn in place. Anywhere else (a log file, a CI job, a scheduler) it is
a plain line, written every tenth of the way and at least every LOG_EVERY_SECONDS even when nothing
finishes (`with Progress(...)` keeps that clock going between updates), so that the log of an
hours-long run shows how far it got.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Mapping
from types import TracebackType
from typing import Self, TextIO

from patience.result import Status

SHOWN = (Status.SOLVED, Status.UNSOLVABLE, Status.TIMEOUT)  # a campaign's; others pass their own
OPTIONAL = (Status.ERROR,)  # counted by name only once there is one
LOG_EVERY_SECONDS = 60.0  # off a terminal: the longest gap between two lines
LINE_WIDTH = 80  # the widest progress line, whatever the terminal
_BAR_WIDTH = 24
_SMALLEST_BAR = 6  # narrower than this (with its brackets) and the line goes without a bar


def line_width(stream: TextIO | None = None) -> int:
    """The columns a progress line may use: LINE_WIDTH, or COLUMNS when set narrower, or the
    terminal's own width when narrower still."""
    width = LINE_WIDTH
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        width = min(width, int(columns))
    elif stream is not None and stream.isatty():
        with contextlib.suppress(OSError, ValueError):  # not a real terminal after all
            width = min(width, os.get_terminal_size(stream.fileno()).columns or width)
    return max(width, 1)


def _joined(counted: str, timing: str) -> str:
    return f"{counted} | {timing}" if timing else counted


def duration(seconds: float) -> str:
    """A span as a reader plans with it: `42s`, `3m05s`, `2h07m`."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    """Counts of `total` items by outcome, drawn as one line (see the module's docstring). `done` holds
    the items finished before this run (a resumed store's); only those finished since time the rest."""

    def __init__(self, total: int, done: Mapping[Status, int] | Mapping[str, int], stream: TextIO | None = None,
                 enabled: bool = True, shown: tuple[str, ...] | None = None, title: str = "",
                 words: Mapping[str, str] | None = None, verb: str = "done") -> None:
        self.total, self.enabled = total, enabled
        self.verb = verb  # what the first count says of its items: `3/200 done` (a hunt's: `posed`)
        self.counts: Counter[str] = Counter(done)  # by Status (a str), or a word of the caller's own
        self.shown = shown or SHOWN  # the outcomes always counted by name
        self.words = dict(words or {})  # how an outcome is named on the line, when not by itself
        self.title = title
        self.resumed = sum(done.values())
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.started = time.monotonic()
        self.last_tenth, self.last_logged, self.logged_done = -1, self.started, -1
        self._lock = threading.Lock()
        self._ticking: threading.Event | None = None

    @property
    def done(self) -> int:
        return sum(dict(self.counts).values())  # a copy: the clock's thread reads while the run counts

    def left(self) -> float | None:
        """Seconds still to go at the pace of the items finished in this run; None until one has."""
        fresh = self.done - self.resumed
        if fresh <= 0 or self.done >= self.total:
            return None if self.done < self.total else 0.0
        return (time.monotonic() - self.started) / fresh * (self.total - self.done)

    def _name(self, outcome: str) -> str:
        return self.words.get(outcome, str(outcome))

    def counted(self) -> str:
        """`8/8 done, 6 solved, 2 unsolvable, 0 timeout` (and `1 error`, `2 other` once there are; a
        `verb` of the caller's own in place of `done`)."""
        done = self.done
        parts = [f"{done}/{self.total} {self.verb}"]
        parts += [f"{self.counts[outcome]} {self._name(outcome)}" for outcome in self.shown]
        parts += [f"{self.counts[outcome]} {self._name(outcome)}" for outcome in OPTIONAL
                  if outcome not in self.shown and self.counts[outcome]]
        other = done - sum(self.counts[outcome] for outcome in (*self.shown, *OPTIONAL)
                           if outcome in self.counts)
        if other:
            parts.append(f"{other} other")
        return ", ".join(parts)

    def timing(self, elapsed: bool = True) -> str:
        """`1m02s elapsed, 3m10s left` (no estimate before the first item of this run ends); without
        `elapsed`, the time left alone."""
        parts = [f"{duration(time.monotonic() - self.started)} elapsed"] if elapsed else []
        left = self.left()
        if self.done < self.total and left is not None:
            parts.append(f"{duration(left)} left")
        return ", ".join(parts)

    def line(self, width: int | None = None, bar: bool = True) -> str:
        """The whole line within `width` columns (line_width() by default). What gives way, in turn:
        the bar's length, the bar, the time elapsed, the title, the counts by outcome; last, the line
        is cut."""
        width = line_width(self.stream) if width is None else width
        title = f"{self.title} " if self.title else ""
        counted = self.counted()
        full, short = self.timing(), self.timing(elapsed=False)
        room = width - len(title) - len(counted) - len(" | ") - len(full) - len("[] ")
        if bar and room >= _SMALLEST_BAR - 2:
            size = min(_BAR_WIDTH, room)
            filled = size * self.done // self.total if self.total else size
            return f"{title}[{'#' * filled}{'.' * (size - filled)}] {_joined(counted, full)}"
        least = _joined(f"{self.done}/{self.total} {self.verb}", short)
        for candidate in (title + _joined(counted, full), title + _joined(counted, short), _joined(counted, short),
                          least):
            if len(candidate) <= width:
                return candidate
        return candidate[:max(width - 3, 0)] + "..."

    def update(self, status: Status | str) -> None:
        """Count one outcome: a run's Status, or a word of the caller's own (`written`)."""
        self.counts[status] += 1
        self.show()

    def show(self, force: bool = False) -> None:
        """Draw the line: on a terminal each time; elsewhere at each tenth of the way, at least every
        LOG_EVERY_SECONDS, and whenever `force`d."""
        if not self.enabled:
            return
        with self._lock:
            if self.tty:
                self.stream.write("\r" + self.line() + "\x1b[K")
            else:
                tenth, clock = 10 * self.done // max(self.total, 1), time.monotonic()
                if not force and tenth == self.last_tenth and clock - self.last_logged < LOG_EVERY_SECONDS:
                    return
                self.last_tenth, self.last_logged, self.logged_done = tenth, clock, self.done
                self.stream.write(self.line(bar=False) + "\n")
            self.stream.flush()

    def finish(self) -> None:
        """End the line: a terminal's moves on; a log gets the last count if it does not have it yet."""
        self._stop_ticking()
        if not self.enabled:
            return
        if self.tty:
            with self._lock:
                self.stream.write("\n")
                self.stream.flush()
        elif self.done != self.logged_done:
            self.show(force=True)

    def __enter__(self) -> Self:
        """Draw the first line and, off a terminal, keep writing one every LOG_EVERY_SECONDS until the
        block ends, however long an item takes."""
        self.show()
        if self.enabled and not self.tty:
            self._ticking = threading.Event()
            threading.Thread(target=self._tick, args=(self._ticking,), daemon=True, name="progress").start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.finish()

    def _tick(self, stop: threading.Event) -> None:
        while not stop.wait(min(1.0, LOG_EVERY_SECONDS / 2)):
            if time.monotonic() - self.last_logged >= LOG_EVERY_SECONDS:
                with contextlib.suppress(RuntimeError):  # a count added under it: the next tick draws it
                    self.show(force=True)

    def _stop_ticking(self) -> None:
        if self._ticking is not None:
            self._ticking.set()
            self._ticking = None
