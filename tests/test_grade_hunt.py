"""The hunt's machinery without a real model: the shrinker's budget is a count of model runs, not a
clock (the same counterexample on a loaded machine as on an idle one), and a hunt of several deals at
once stops the deals after the first wrong one, and every deal at Ctrl-C or SIGTERM, at once (their
processes killed), while the deals before it run to their end (the same counterexample as one job)."""

from __future__ import annotations

import contextlib
import itertools
import shlex
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest

from patience.cli import main
from patience.generators.deals import random_deal
from patience.generators.mzn import black_hole
from patience.grading.hunt import Counterexample, Hunt, posed_deals
from patience.grading.student import GameMapping
from patience.grading.table import CORRECT, WRONG, Graded
from patience.result import Answer, Result, Status, judge
from patience.runs.pool import in_order
from patience.runs.process import Limits, Stopped, descendants, run_process, stopping
from tests.helpers import needs_solver


def fake_hunt(row) -> Hunt:
    """A hunt of a generalised Black Hole model whose row on a deal is `row(deal)`."""
    student = SimpleNamespace(mapping=GameMapping("generalised"), options={})
    hunt = Hunt(student, lambda deal: SimpleNamespace(status=Status.UNSOLVABLE, nodes=1), 5.0)  # type: ignore[arg-type]
    hunt.row = row  # type: ignore[method-assign]
    return hunt


def graded(wrong: bool) -> Graded:
    return Graded("deal", 0, "solved", WRONG if wrong else CORRECT)


def has_a_heart(deal) -> bool:
    """The fault the fake model has: wrong on every deal holding a card of suit 1."""
    return any(card.suit == 1 for card in deal.cards)


def test_the_shrinker_counts_model_runs_so_a_loaded_machine_shrinks_to_the_same_deal(monkeypatch):
    found = Counterexample(random_deal(5, 2, 2, 4), graded(True), 1)
    assert has_a_heart(found.deal) and len(found.deal.cards) > 2
    idle = fake_hunt(lambda deal: graded(has_a_heart(deal)))
    smallest = idle.shrink(found)
    clock = [time.monotonic()]

    def loaded(deal) -> Graded:  # every run of the model takes 1000 s of wall time
        clock[0] += 1000.0
        return graded(has_a_heart(deal))
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    busy = fake_hunt(loaded)
    assert busy.shrink(found) == smallest and busy.shrink_runs == idle.shrink_runs
    assert len(smallest.deal.cards) == 1 and has_a_heart(smallest.deal)
    assert idle.shrink(found, runs=3) == busy.shrink(found, runs=3) != smallest and idle.shrink_runs == 3
    assert idle.shrink(found, runs=0) == found and idle.shrink_runs == 0


def test_shrink_takes_a_count_of_runs_on_the_command_line(tmp_path, capsys):
    model = tmp_path / "m.mzn"
    model.write_text("solve satisfy;\n")
    for argv, message in ((["--game", "black-hole", "--hunt", "5", "--shrink", "-1"], "--shrink takes a whole number"),
                          (["--game", "black-hole", "--instances", str(tmp_path), "--shrink", "5"], "give --hunt N")):
        assert main(["grade", str(model), *argv]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and message in captured.err and captured.err.count("\n") == 1


def sleeper(seconds: float, marker: str) -> list[str]:
    """A process that sleeps, its command line carrying `marker` (to find it if it were left running)."""
    return [sys.executable, "-c", f"import time; time.sleep({seconds})  # {marker}"]


def running(marker: str) -> list[int]:
    """Live processes whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes() \
                    and (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX":
                found.append(int(entry.name))
    return found


def gone(marker: str, seconds: float = 5.0) -> bool:
    """Whether no process holding `marker` is left within `seconds` (a killed process takes a moment)."""
    deadline = time.monotonic() + seconds
    while running(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_stopped_run_kills_its_process_group_and_raises(tmp_path):
    marker = uuid.uuid4().hex
    event, outcome = threading.Event(), []

    def run() -> None:
        with stopping(event):
            try:
                run_process(["sh", "-c", shlex.join(sleeper(60, marker)) + "; true"], Limits(timeout=120))  # a group
            except Stopped:
                outcome.append("stopped")
            with contextlib.suppress(Stopped):  # once stopped, no run starts
                run_process(["true"], Limits(timeout=5))
                outcome.append("started")
    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 30
    while not running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running(marker)
    started = time.monotonic()
    event.set()
    thread.join(30)
    assert not thread.is_alive() and time.monotonic() - started < 10
    assert outcome == ["stopped"] and gone(marker)


class Scripted:
    """A student's model whose answer on the hunt's deal number i is script[i]: ("wrong", seconds),
    ("agree", seconds) or ("hang", seconds); each runs a real process that long. Records what ended how."""

    def __init__(self, deals: list, script: dict[int, tuple[str, float]], marker: str) -> None:
        self.place = {deal: index for index, deal in enumerate(deals)}
        assert len(self.place) == len(deals)
        self.script, self.marker = script, marker
        self.mapping, self.options = GameMapping("generalised"), {}
        self.ended: dict[int, str] = {}
        self.lock = threading.Lock()

    def run(self, deal, timeout: float) -> Result:
        place = self.place[deal]
        kind, seconds = self.script.get(place, ("hang", 60.0))
        try:
            run_process(sleeper(seconds, self.marker), Limits(timeout=120))
        except Stopped:
            with self.lock:
                self.ended[place] = "stopped"
            raise
        with self.lock:
            self.ended[place] = "ran"
        answer = Answer(Status.ERROR, message="broken") if kind == "wrong" else Answer(Status.UNSOLVABLE)
        return judge(deal, "student", answer)


def scripted_hunt(script: dict[int, tuple[str, float]], count: int = 8) -> tuple[Hunt, Scripted, str]:
    marker = uuid.uuid4().hex
    deals = list(itertools.islice(posed_deals("generalised", False, 0), count))
    student = Scripted(deals, script, marker)
    hunt = Hunt(student, lambda deal: SimpleNamespace(status=Status.UNSOLVABLE, nodes=1), 5.0)  # type: ignore[arg-type]
    return hunt, student, marker


def test_a_hunt_of_several_jobs_stops_the_deals_after_the_first_wrong_one_at_once():
    script = {0: ("agree", 1.0), 1: ("wrong", 0.0), 2: ("wrong", 0.0)}  # 3 and after hang for a minute
    found = []
    for jobs in (1, 4):
        hunt, student, marker = scripted_hunt(script)
        started = time.monotonic()
        result = hunt.search("generalised", 8, 0, jobs)
        assert time.monotonic() - started < 20  # not the minute the deals after it would take
        assert gone(marker)
        assert student.ended[0] == "ran"  # the deal before the wrong one ran to its end
        assert all(student.ended.get(place, "stopped") == "stopped" for place in range(3, 8))
        found.append((result.deal, result.posed, result.row.note))
    assert found[0] == found[1] and found[0][1] == 2


def test_a_later_wrong_deal_waits_for_an_earlier_one_still_running():
    hunt, student, marker = scripted_hunt({0: ("wrong", 1.5), 1: ("wrong", 0.0), 2: ("agree", 0.0)})
    result = hunt.search("generalised", 8, 0, 3)
    assert result.posed == 1 and student.ended[0] == "ran" and gone(marker)


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit])
def test_a_stop_during_a_hunt_of_several_jobs_ends_every_run_at_once(stop):
    hunt, student, marker = scripted_hunt({0: ("agree", 0.2)})

    class Interrupting:
        def update(self, outcome: str) -> None:  # Ctrl-C (or SIGTERM) arrives as the first deal is counted
            raise stop()
    started = time.monotonic()
    with pytest.raises(stop):
        hunt.search("generalised", 8, 0, 3, Interrupting())  # type: ignore[arg-type]
    assert time.monotonic() - started < 20 and gone(marker)
    assert student.ended[0] == "ran" and student.ended[1] == student.ended[2] == "stopped"


@pytest.mark.parametrize("jobs", [1, 2, 5])
def test_in_order_yields_in_the_works_order_up_to_the_first_last_result(jobs):
    def slow_square(number: int) -> int:
        time.sleep(0.01 * (number % 3))
        return number * number
    with contextlib.closing(in_order(slow_square, range(20), jobs, last=lambda square: square > 50)) as results:
        assert list(results) == [(number, number * number) for number in range(9)]  # 8 * 8 > 50: the last
    with contextlib.closing(in_order(slow_square, iter(range(6)), jobs)) as results:
        assert [square for _, square in results] == [0, 1, 4, 9, 16, 25]


LOOP = ("\nfunction int: f(int: k) = if k <= 0 then 1 else f(k - 1) + f(k - 1) endif;\n"
        "constraint x[0] = f(80) mod 2;\n")  # MiniZinc evaluates 2^80 calls: it never ends by itself


def alive(pids) -> list[int]:
    """Those of `pids` still running (not gone, not a zombie)."""
    found = []
    for pid in pids:
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX":
                found.append(pid)
    return found


@needs_solver("minizinc")
def test_sigterm_to_a_hunt_of_two_jobs_ends_both_solvers_at_once(tmp_path):
    model = tmp_path / "loop.mzn"
    model.write_text(black_hole.model_text() + LOOP)
    command = [sys.executable, "-m", "patience", "grade", str(model), "--game", "black_hole", "--hunt", "10",
               "--jobs", "2", "--timeout", "120", "--out", str(tmp_path / "found")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as hunt:
        deadline, solvers = time.monotonic() + 60, {}
        while len(set(solvers.values())) < 2 and time.monotonic() < deadline:  # two solvers' process groups
            solvers = descendants([hunt.pid])
            time.sleep(0.1)
        assert len(set(solvers.values())) == 2, solvers
        started = time.monotonic()
        hunt.send_signal(signal.SIGTERM)
        out, err = hunt.communicate(timeout=30)
    assert time.monotonic() - started < 15 and hunt.returncode == 128 + signal.SIGTERM
    assert "Traceback" not in err and out == ""
    deadline = time.monotonic() + 5
    while alive(solvers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive(solvers) == []
