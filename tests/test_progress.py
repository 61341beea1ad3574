"""The progress line of long runs: each label after its number, an estimate of the time left, never
wider than 80 columns (or COLUMNS, set narrower); off a terminal (a log) a plain line every tenth of
the way and at least every LOG_EVERY_SECONDS, even while nothing finishes."""

from __future__ import annotations

import io
import re
import time
from collections import Counter

import pytest

from patience.cli import main
from patience.runs import progress
from patience.runs.progress import Progress

# `8/8 done, 6 solved, 2 unsolvable, 0 timeout | 3s elapsed` and its `, 1m05s left`
LINE = re.compile(r"(\w+ )?(\[[#.]+\] )?\d+/\d+ done(, \d+ [a-z ]+)* \| "
                  r"(\d+[hms0-9]* elapsed|\d+[hms0-9]* elapsed, \d+[hms0-9]* left|\d+[hms0-9]* left)")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    return now


def test_each_label_follows_its_number_and_the_time_left_is_estimated(clock, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    bar = Progress(8, Counter({"solved": 2}), stream=io.StringIO(), title="compare")
    assert bar.line().endswith("] 2/8 done, 2 solved, 0 unsolvable, 0 timeout | 0s elapsed")
    assert bar.line().startswith("compare [") and "left" not in bar.line()  # none of this run's yet: no pace
    for status in ("solved", "unsolvable", "timeout"):
        clock[0] += 10
        bar.update(status)
    line = bar.line()
    assert "5/8 done, 3 solved, 1 unsolvable, 1 timeout | 30s elapsed, 30s left" in line, line
    clock[0] += 10
    bar.update("error")  # an error is named once there is one
    line = bar.line()  # 84 columns with the time elapsed: that gives way
    assert line == "compare 6/8 done, 3 solved, 1 unsolvable, 1 timeout, 1 error | 20s left", line
    bar.counts.update({"solved": 2})
    assert bar.line().endswith("8/8 done, 5 solved, 1 unsolvable, 1 timeout, 1 error | 40s elapsed")


@pytest.mark.parametrize("columns", [None, "100", "60", "30"])
def test_a_line_fits_80_columns_or_a_narrower_columns(clock, monkeypatch, columns):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    width = min(80, int(columns or 80))
    bar = Progress(1_000_000, Counter({"solved": 100_000}), stream=Terminal(), title="compare")
    clock[0] += 4000
    bar.counts.update({"solved": 123_456, "unsolvable": 65_432, "timeout": 9_999, "error": 12})
    line = bar.line()
    assert len(line) <= width, line
    if width >= 40:
        assert re.search(r"\d+h\d\dm left$", line), line  # the time left gives way last
    bar.show()
    drawn = bar.stream.getvalue()
    assert drawn.startswith("\r") and drawn.endswith("\x1b[K")
    small = Progress(10, Counter(), stream=Terminal())
    clock[0] += 5
    small.update("solved")
    assert len(small.line()) <= width and (small.line().startswith("[#") or width < 80)


def test_a_log_gets_a_plain_line_a_tenth_and_one_a_minute(clock):
    log = io.StringIO()
    bar = Progress(1000, Counter(), stream=log, title="survey")
    for _ in range(50):  # 5% of the way, within a minute: the first line only
        bar.update("solved")
        clock[0] += 1
    assert len(log.getvalue().splitlines()) == 1
    clock[0] += progress.LOG_EVERY_SECONDS
    bar.update("unsolvable")  # still under a tenth, but a minute on
    lines = log.getvalue().splitlines()
    assert len(lines) == 2 and lines[-1].startswith("survey 51/1000 done, 50 solved, 1 unsolvable, 0 timeout | ")
    for _ in range(49):  # to 100: a tenth
        bar.update("solved")
    assert len(log.getvalue().splitlines()) == 3 and "\r" not in log.getvalue() and "[" not in log.getvalue()
    bar.update("solved")
    bar.finish()  # the last count, which the log did not have yet
    assert log.getvalue().splitlines()[-1].startswith("survey 101/1000 done")
    assert all(LINE.fullmatch(line) and len(line) <= 80 for line in log.getvalue().splitlines())


def test_a_log_hears_from_a_run_whose_items_take_long(monkeypatch):
    """`with Progress(...)` writes a line each LOG_EVERY_SECONDS while no item finishes."""
    monkeypatch.setattr(progress, "LOG_EVERY_SECONDS", 0.1)
    log = io.StringIO()
    with Progress(3, Counter(), stream=log, title="hunt", shown=("agree",), verb="posed"):
        time.sleep(0.6)
    lines = log.getvalue().splitlines()
    assert len(lines) >= 3 and all(line.startswith("hunt 0/3 posed, 0 agree | ") for line in lines), lines
    written = len(lines)
    time.sleep(0.3)
    assert len(log.getvalue().splitlines()) == written  # the clock stops with the block


def test_compare_and_survey_write_plain_lines_to_a_log(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["compare", "--deals", "black_hole:1-4", "--solvers", "native", "--db", str(tmp_path / "c.db")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("compare 0/4 done, 0 solved, 0 unsolvable, 0 timeout | ")
    assert re.fullmatch(r"compare 4/4 done, \d solved, \d unsolvable, 0 timeout \| \d+s elapsed", err[-1]), err
    assert all(LINE.fullmatch(line) for line in err), err
    assert main(["survey", "--seeds", "1-20", "--batch", "10", "--db", str(tmp_path / "s.db")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert re.fullmatch(r"survey 20/20 done, \d+ solved, \d+ unsolvable, 0 undecided \| \d+s elapsed", err[-1]), err
    assert all(LINE.fullmatch(line) for line in err), err
