"""The progress bar off a terminal (a log): a line every tenth of the way, and one at least every
LOG_EVERY_SECONDS, so that an hours-long run's log shows it is alive; nothing more."""

from __future__ import annotations

import io
from collections import Counter

from patience.runs import progress
from patience.runs.progress import Progress


def test_a_log_gets_a_line_a_tenth_and_one_a_minute(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    log = io.StringIO()
    bar = Progress(1000, Counter(), stream=log)
    for _ in range(50):  # 5% of the way, within a minute: the first line only
        bar.update("solved")
        clock[0] += 1
    assert len(log.getvalue().splitlines()) == 1
    clock[0] += progress.LOG_EVERY_SECONDS
    bar.update("unsolvable")  # still under a tenth, but a minute on
    lines = log.getvalue().splitlines()
    assert len(lines) == 2 and lines[-1].startswith("[#") and " 51/1000 solved 50 unsolvable 1 " in lines[-1]
    for _ in range(49):  # to 100: a tenth
        bar.update("solved")
    assert len(log.getvalue().splitlines()) == 3 and "\r" not in log.getvalue()
