"""Long runs a researcher can plan (issue 56 item 6): a stopped campaign says what it kept and the exact
command that resumes it, and that command does; a report on an unfinished store says so on its first
line and compares only the deals every configuration ran; reports fit 100 columns with one number
format (patience/columns.py, shared with the grade table)."""

from __future__ import annotations

import json
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patience.cli import build_parser, main
from patience.columns import TABLE_WIDTH, aligned, number
from patience.runs.stops import command_line
from tests.helpers import stored_rows

PATIENCE = [sys.executable, "-m", "patience"]


@pytest.mark.parametrize("words", [
    ["compare", "--deals", "black_hole:1-20", "--solvers", "native", "--config", "slow=native cache=off",
     "--config", "b=native symmetry=off", "--timeout", "7.5", "--jobs", "2", "--db", "my runs/c.db", "--quiet"],
    ["survey", "--game", "all-in-a-row", "--seeds", "1-100,200", "--mode", "decision", "--nodes", "5000",
     "--db", "s.db"],
])
def test_the_resume_command_is_the_command_given(words):
    """Parsed again, the command line rebuilt from the parsed arguments gives the same arguments."""
    args = build_parser().parse_args(words)
    again = shlex.split(command_line(args.parser, args))
    assert again[0] == "patience"
    parsed = build_parser().parse_args(again[1:])
    assert {**vars(parsed), "parser": None} == {**vars(args), "parser": None}
    assert "--retry-errors" not in command_line(args.parser, args, leave_out=("retry_errors",))


def test_a_campaign_stopped_by_sigterm_says_what_it_kept_and_its_command_resumes_it(tmp_path):
    # 800 runs of a few milliseconds: the stop lands mid-campaign (it takes a few dozen runs to act)
    db = tmp_path / "c.db"
    command = [*PATIENCE, "compare", "--deals", "black_hole:1-400", "--solvers", "native", "--config",
               "again=native restarts=on", "--db", str(db), "--quiet"]
    started = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while stored_rows(db, "runs") < 20:
        assert time.monotonic() < deadline and started.poll() is None, "the campaign did not get going"
        time.sleep(0.02)
    started.send_signal(signal.SIGTERM)
    out, err = started.communicate(timeout=30)
    kept = stored_rows(db, "runs")
    assert started.returncode == 143 and out == "" and kept < 800
    line = err.strip()
    assert line.startswith(f"stopped by SIGTERM: {kept:,} of 800 runs stored in {db} ({kept:,} new); "
                           "to resume, run: patience compare "), err
    resume = shlex.split(line.split("to resume, run: ", 1)[1])
    assert resume == ["patience", *command[3:]]  # the very command, options in the parser's order
    done = subprocess.run([*PATIENCE, *resume[1:]], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{db}: 800 of 800 runs stored ({800 - kept} new), 0 contradicting verdicts\n"


def _campaign(tmp_path: Path) -> Path:
    db = tmp_path / "c.db"
    assert main(["compare", "--deals", "black_hole:1-7", "--config", "a=native", "--config", "b=native cache=off",
                 "--db", str(db), "--quiet"]) == 0
    return db


def _edit(db: Path, *statements: str) -> None:
    connection = sqlite3.connect(db)
    with connection:
        for statement in statements:
            connection.execute(statement)
    connection.close()


def test_a_report_on_an_unfinished_campaign_says_so_and_compares_only_the_deals_all_ran(tmp_path, capsys):
    """`a` is the faster on each of the two deals it ran; `b` ran all seven. Counting the five deals
    only `b` ran gave `a` 2 of 7 = 28.6% fastest; on the deals both ran it is 100%."""
    db = _campaign(tmp_path)
    _edit(db, "UPDATE runs SET cpu = 0.001 WHERE configuration = 'a'",
          "UPDATE runs SET cpu = 0.002 WHERE configuration = 'b'",
          "DELETE FROM runs WHERE configuration = 'a' AND deal NOT IN ('black_hole:1', 'black_hole:2')")
    capsys.readouterr()
    assert main(["report", str(db)]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0] == "unfinished campaign: 9 of 14 runs; compared on the 2 deals every configuration ran"
    assert lines[1].startswith("9 runs on 7 deals; ")
    assert "Table 4: cpu seconds of decided runs on 2 of 7 deals (limit: the 60 s timeout)" in lines
    fastest = next(line for line in lines if line.startswith("fastest %"))
    assert fastest.split() == ["fastest", "%", "100", "0"]
    runs = next(line for line in lines if line.startswith("runs "))
    assert runs.split() == ["runs", "2", "2"]
    assert main(["report", str(db), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["runs"], data["planned_runs"], data["deals"], data["compared_deals"]) == (9, 14, 7, 2)
    assert data["table4"]["a"]["fastest %"] == 100.0 and data["table4"]["b"]["fastest %"] == 0.0
    assert [row["deals"] for row in data["correlations"]] == [2]
    assert {(row["first"], row["wins"], row["losses"]) for row in data["win_rates"]} == {("a", 2, 0), ("b", 0, 2)}
    # the same command again finishes it: the report is whole once more
    assert main(["compare", "--deals", "black_hole:1-7", "--config", "a=native", "--config", "b=native cache=off",
                 "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("14 runs on 7 deals; ")
    assert any(line.startswith("Table 4: cpu seconds of decided runs on 7 deals (") for line in lines)


def test_a_report_fits_100_columns_with_one_number_format(tmp_path, capsys):
    db = _campaign(tmp_path)
    long_name = "a-configuration-label-that-goes-on"
    _edit(db, "UPDATE runs SET status = 'error', message = '" + "the solver said: " + "x" * 300
          + "' WHERE deal = 'black_hole:3'",
          "UPDATE runs SET cpu = 0.0000869",  # every run: the measured times would decide the last column
          f"UPDATE configurations SET label = '{long_name}' WHERE label = 'b'",
          f"UPDATE runs SET configuration = '{long_name}' WHERE configuration = 'b'")
    capsys.readouterr()
    assert main(["report", str(db)]) == 0
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines()) <= TABLE_WIDTH, text
    assert not re.search(r"\d[eE][-+]?\d", text), text  # no exponent
    numbers = re.sub(r"(100-1000|>= 1000) s", "", text)  # Table 4's buckets of times are named, not counted
    assert not re.search(r"(?<![\d,.:])\d{4,}(?![\d,])", numbers), text  # thousands always separated
    assert re.search(r" 0\.0000\d+\n", text) and "the solver said: xxx" in text


def test_one_number_format():
    assert [number(value) for value in (8.69e-05, 0.733, 0.5, 12.25, 456.7, 2131.0, 2933208, 0, None, 100.0)] == [
        "0.0000869", "0.733", "0.5", "12.2", "457", "2,131", "2,933,208", "0", "-", "100"]


def test_a_table_too_wide_is_narrowed_then_shown_in_parts():
    text = [["deal", "configuration", "message"], ["black_hole:1", "native", "why " * 60]]
    lines = aligned(text, [False, False, False])
    assert max(map(len, lines)) == TABLE_WIDTH and lines[1].startswith("black_hole:1  native         why why")
    assert lines[1].endswith("...")
    numbers = [["", *(f"configuration-{index}" for index in range(12))], ["median", *("0.000123",) * 12]]
    lines = aligned(numbers, [False, *(True,) * 12])
    assert max(map(len, lines)) <= TABLE_WIDTH and lines.count("") >= 2
    parts = "\n".join(lines).split("\n\n")
    assert all(part.splitlines()[1].startswith("median ") for part in parts)
    assert sum(part.splitlines()[0].count("configuration-") for part in parts) == 12
