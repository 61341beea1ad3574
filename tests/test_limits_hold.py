"""A limit holds from the moment a solve starts, whatever the deal's size (README "Limits"): what the
solve spends in this process before its solver starts (reading, the model's encoding) comes off the
limits, `enforced` ends this process's own work a margin after them, and the Python search of a
deal too large for the compiled one runs in a child the runner core kills at the limit, in every
direction. Each case here measures the wall clock of a whole solve against limit + margin."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patience.generators.deals import deal_file, random_deal
from patience.names import GENERALISED
from patience.native import engine
from patience.native.board import Board
from patience.result import Status
from patience.runners import python_search
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import (
    CPU_REACHED,
    MARGIN_SECONDS,
    TIME_REACHED,
    LimitReached,
    Limits,
    enforced,
    run_process,
)

SLACK = 3.0  # a shared machine's scheduling on top of the documented margin (load 11 on 2 cores: 2.5 s)
LARGE = (100, 100, 5, 1)  # 10,000 cards: past the compiled search's 8,192, open for minutes
SLOW_ENCODING = (52, 4, 3, 2)  # 207 cards: the paper's CNF takes seconds to build, CaDiCaL more to answer


# A solver that spends well past a limit of 0.5 s and 1 s of margin, inside a grace of 2 s, and answers.
BUSY_CHILD = "import time\nend = time.process_time() + 2.0\nwhile time.process_time() < end:\n    pass\n"


def _busy(seconds: float) -> None:
    """Spend `seconds` of CPU in this thread (an encoding that outgrows its limit)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_limits_count_from_their_start():
    limits = Limits(timeout=10.0, cpu=10.0).counting()
    _busy(0.2)
    left = limits.left()
    assert left.timeout is not None and left.timeout <= 9.8
    assert left.cpu is not None and left.cpu <= 9.8
    assert left.since is None and limits.reached() == ""
    assert limits.counting() is limits  # a limit keeps its first start
    assert limits.with_grace(1.0).since == limits.since
    spent = Limits(timeout=0.1).counting()
    time.sleep(0.15)
    assert spent.reached() == TIME_REACHED and spent.left().timeout == pytest.approx(0.01)
    cpu_spent = Limits(timeout=60.0, cpu=0.05).counting()
    _busy(0.1)
    assert cpu_spent.reached() == CPU_REACHED
    assert Limits(timeout=1.0).left() == Limits(timeout=1.0)  # limits that do not count are as given


@pytest.mark.parametrize(("limits", "message"), [(Limits(timeout=0.5), TIME_REACHED),
                                                 (Limits(timeout=60.0, cpu=0.5), CPU_REACHED)])
def test_work_in_this_process_ends_a_margin_after_the_limit(limits, message):
    started, cpu_started = time.monotonic(), time.thread_time()
    with pytest.raises(LimitReached) as reached, enforced(limits.counting()):
        if message == TIME_REACHED:
            time.sleep(20.0)  # waiting counts on the wall clock
        else:
            _busy(20.0)
    assert reached.value.message == message
    spent = time.monotonic() - started if message == TIME_REACHED else time.thread_time() - cpu_started
    assert spent < 0.5 + MARGIN_SECONDS + SLACK
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0) and signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL and signal.getsignal(signal.SIGPROF) is signal.SIG_DFL


def test_a_limit_reached_while_a_child_runs_leaves_no_timer_behind():
    """The CPU timer is paused while the runner core watches a child; the wall clock's stop then must
    not let the pause arm it again (its signal, restored to the default, would end this process)."""
    started = time.monotonic()
    with pytest.raises(LimitReached), enforced(Limits(timeout=0.3, cpu=30.0).counting()):
        run_process(["sleep", "20"], Limits(timeout=30.0))
    assert time.monotonic() - started < 0.3 + MARGIN_SECONDS + SLACK
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0) and signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_child_that_answers_in_its_grace_leaves_a_margin_to_read_its_answer():
    """A solver given a grace past the CPU limit (it stops itself at the limit, and the kill comes later)
    that answers in the grace: this process still has MARGIN_SECONDS of CPU to read the answer, where
    the paused timer, armed again with what the child left of the limit (nothing), would end it at once."""
    limits = Limits(timeout=60.0, cpu=0.5).counting()
    with enforced(limits):
        run = run_process([sys.executable, "-c", BUSY_CHILD], limits.left().with_grace(2.0))
        _busy(MARGIN_SECONDS / 4)  # reading the answer
    assert run.returncode == 0 and run.cpu >= 1.5 + MARGIN_SECONDS / 2, run
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_slow_encoding_counts_against_the_limit():
    """The paper's CNF of 207 cards takes seconds to build; the limit covers it and CaDiCaL together
    (before, CaDiCaL got the whole limit after the encoding: 5 s returned after 7-10 s)."""
    deal = random_deal(*SLOW_ENCODING)
    started = time.monotonic()
    result = solve(deal, "sat", Limits(timeout=3.0))
    wall = time.monotonic() - started
    assert result.status is Status.TIMEOUT, result.message
    assert wall < 3.0 + MARGIN_SECONDS + SLACK


@pytest.mark.parametrize("solver", ["sat", "cpsat"])
def test_an_encoding_that_outgrows_the_limit_is_stopped(solver, monkeypatch):
    """However long the model takes to write (here: forever), the solve ends a margin after its limit,
    a timeout, for a solver encoding in memory (sat) and one writing files for a process (cpsat)."""
    runner = type(get_solver(solver))
    monkeypatch.setattr(runner, "encode" if solver == "sat" else "build", lambda self, deal, options: time.sleep(60))
    started = time.monotonic()
    result = solve(random_deal(13, 4, 3, 1), solver, Limits(timeout=1.0))
    assert result.status is Status.TIMEOUT and result.message == TIME_REACHED
    assert time.monotonic() - started < 1.0 + MARGIN_SECONDS + SLACK


@pytest.fixture(scope="module")
def large_deal():
    deal = random_deal(*LARGE)
    assert not engine.fits(Board.of(deal))  # the Python search, not the compiled one
    return deal


@pytest.mark.parametrize(("solver", "direction"), [
    ("native", "auto"),  # both ways, the default; the others in the slow set (each spends its limit's CPU)
    pytest.param("native", "backward", marks=pytest.mark.slow),
    pytest.param("native", "forward", marks=pytest.mark.slow),
    pytest.param("portfolio", "auto", marks=pytest.mark.slow)])
def test_a_deal_too_large_for_the_compiled_search_keeps_the_limit(large_deal, solver, direction):
    """The Python search from the front, the back or both runs in a child killed at the limit and its
    grace, so it holds however seldom a search of 10,000 cards looks at its clock (before, `both` and
    `backward` ran in this process and were still running after 45 s)."""
    started = time.monotonic()
    result = solve(large_deal, solver, Limits(timeout=2.0), {"direction": direction})
    wall = time.monotonic() - started
    assert result.status is Status.TIMEOUT and result.stats["engine"] == "python"
    assert "patience.runners.python_search" in result.command  # in a child the runner core kills
    assert wall < 2.0 + python_search.GRACE_SECONDS + SLACK


@pytest.mark.slow
def test_a_cpu_limit_holds_on_a_deal_too_large_for_the_compiled_search(large_deal):
    result = solve(large_deal, "native", Limits(timeout=120.0, cpu=2.0))
    assert result.status is Status.TIMEOUT
    assert result.cpu < 2.0 + python_search.GRACE_SECONDS + SLACK


def test_the_command_keeps_its_limit_from_its_start(tmp_path: Path):
    """`patience solve` of a 10,000-card deal with --timeout 2: the whole command, reading the deal
    and Python's own start included, ends within the limit, the search's kill grace and the margin."""
    ranks, suits, height, seed = LARGE
    deal = tmp_path / "large.yaml"
    deal.write_text(deal_file(GENERALISED, seed, ranks=ranks, suits=suits, pile_height=height)[1])
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "patience", "solve", str(deal), "--timeout", "2"],
                          capture_output=True, text=True, timeout=60)
    wall = time.monotonic() - started
    assert done.returncode == 3 and "status: timeout" in done.stdout, done.stderr
    assert wall < 2.0 + python_search.GRACE_SECONDS + MARGIN_SECONDS + SLACK
