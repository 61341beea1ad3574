"""Planners end to end: FF, Fast Downward and pyperplan run for real (FF where installed), plans
read back from real transcripts, `patience validate` on plan files, errors and limits."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile

import pytest

from patience.errors import InputError, UsageError
from patience.formats import read_deal
from patience.generators.deals import pysol_deal, random_deal
from patience.generators.pddl.black_hole import model
from patience.result import Status
from patience.runners.pddl_plan import plan_cards, read_ff, read_plan_file
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import INSTANCES, TRANSCRIPTS, needs_solver

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
_FF_STEP_LINE = re.compile(r"^\s*(step)?\s+\d+: ")
FF = TRANSCRIPTS / "ff"
FD = TRANSCRIPTS / "fast_downward"
SMALL = FF / "small-deal.yaml"  # 9 cards, winnable
DEAD = FF / "dead-deal.yaml"  # unwinnable, but only search shows it
STUCK = FF / "stuck-deal.yaml"  # no first move: FF simplifies the goal to FALSE


def patience(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "patience", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("transcript", "deal_file"), [
    ("paper-example.stdout", PAPER), ("small-deal.stdout", SMALL), ("small-deal-compact.stdout", SMALL)])
def test_ff_plans_decode_into_winning_sequences(transcript, deal_file):
    verdict = read_ff((FF / transcript).read_text())
    deal = read_deal(deal_file)
    assert verdict.status is Status.SOLVED and verdict.nodes is not None
    assert replay(deal, plan_cards(deal, verdict.plan)).valid


@pytest.mark.parametrize(("transcript", "message"), [
    ("dead-deal.stdout", "best-first search space empty"), ("stuck-deal.stdout", "simplified to FALSE")])
def test_ff_proofs_of_unsolvability_are_read(transcript, message):
    verdict = read_ff((FF / transcript).read_text())
    assert (verdict.status, verdict.plan) == (Status.UNSOLVABLE, None) and message in verdict.message


def test_ff_output_cut_before_a_verdict_is_unknown():
    text = (FF / "paper-example.stdout").read_text()
    assert read_ff(text.split("Enforced Hill-climbing failed")[0]).status is Status.UNKNOWN


def test_ff_garbled_plan_step_names_its_line():
    text = (FF / "small-deal.stdout").read_text().replace("        3:", "        3 ", 1)
    with pytest.raises(InputError) as error:
        read_ff(text, "ff.out")
    assert error.value.source == "ff.out" and text.splitlines()[error.value.line - 1].startswith("        3 ")


@pytest.mark.parametrize(("plan", "deal_file"), [
    (FD / "paper-example.sas_plan", PAPER), (FD / "small-deal-compact.sas_plan", SMALL),
    (TRANSCRIPTS / "pyperplan" / "small-deal.soln", SMALL), (FF / "paper-example.stdout", PAPER)])
def test_validate_accepts_plan_files_directly(plan, deal_file):
    run = patience("validate", str(deal_file), str(plan))
    moves = len(read_deal(deal_file).cards)
    assert (run.returncode, run.stdout) == (0, f"valid: {moves} moves\n")


def test_validate_accepts_ff_steps_copied_out_of_its_output(tmp_path):
    steps = [line for line in (FF / "paper-example.stdout").read_text().splitlines() if _FF_STEP_LINE.match(line)]
    plan = tmp_path / "ff-steps.txt"
    plan.write_text("\n".join(steps) + "\n")
    assert patience("validate", str(PAPER), str(plan)).stdout == "valid: 51 moves\n"
    plan.write_text("\n".join([steps[0], *steps[2:]]) + "\n")  # step 1 left out
    run = patience("validate", str(PAPER), str(plan))
    assert run.returncode == 1 and run.stdout.startswith("invalid: move 2: 4D does not follow 2C")
    plan.write_text(steps[0] + "\n        1: PLAY-UP-TOP THREE\n")
    run = patience("validate", str(PAPER), str(plan))
    assert (run.returncode, run.stderr) == (2, f"error: {plan}:2: no (rank suit) of this deal in 'three'\n")


def test_validate_reports_an_illegal_plan_by_its_move(tmp_path):
    lines = (FD / "paper-example.sas_plan").read_text().splitlines()
    swapped = tmp_path / "sas_plan"
    swapped.write_text("\n".join([lines[1], lines[0], *lines[2:]]) + "\n")
    run = patience("validate", str(PAPER), str(swapped))
    assert run.returncode == 1 and run.stdout.startswith("invalid: move 1: 3D does not follow AS")


@pytest.mark.parametrize(("text", "line", "words"), [
    ("(play-up-top two clubs ace)\n(play-up-top three hearts\n", 2, "not a plan step"),
    ("(play-up-top two clubs ace)\n(play-up-top three greens two)\n", 2, "no (rank suit)"),
    ("(play-up-top two clubs ace)\n(play card-zz start card-as)\n", 2, "no card object"),
    ("; cost = 1\n(play-up-top two clubs ace)\n(jump two clubs)\n", 3, "unknown operator"),
])
def test_bad_plan_files_are_input_errors_with_file_and_line(tmp_path, text, line, words):
    plan = tmp_path / "sas_plan"
    plan.write_text(text)
    if text.startswith(";"):
        with pytest.raises(InputError) as error:
            plan_cards(read_deal(PAPER), read_plan_file(text, str(plan)), str(plan))
        assert (error.value.line, words in error.value.message) == (line, True)
        return
    run = patience("validate", str(PAPER), str(plan))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.startswith(f"error: {plan}:{line}: ") and words in run.stderr and "Traceback" not in run.stderr


def test_validate_refuses_an_ff_transcript_without_a_plan():
    run = patience("validate", str(DEAD), str(FF / "dead-deal.stdout"))
    assert run.returncode == 2 and "unsolvable" in run.stderr and run.stdout == ""


@pytest.mark.parametrize("solver", ["fd-ff", "fd-lama"])
@pytest.mark.parametrize("encoding", ["paper", "compact"])
def test_fast_downward_wins_the_paper_deal(paper_deal, solver, encoding):
    result = solve(paper_deal, solver, Limits(timeout=60), {"encoding": encoding})
    assert result.status is Status.SOLVED, result.message
    assert replay(paper_deal, result.sequence).valid and len(result.sequence) == 51
    assert result.nodes and result.stats["encoding"] == encoding


@pytest.mark.parametrize(("solver", "options"), [
    ("fd-ff", {}), ("fd-lama", {}), ("pyperplan", {}), ("pyperplan", {"search": "astar", "heuristic": "lmcut"}),
    ("fd-ff", {"encoding": "compact"})])
def test_planners_prove_small_dead_deals_unsolvable_and_win_small_deals(solver, options):
    for dead in (DEAD, STUCK):
        result = solve(read_deal(dead), solver, Limits(timeout=60), options)
        assert result.status is Status.UNSOLVABLE, (dead.name, result.message)
    small = read_deal(SMALL)
    result = solve(small, solver, Limits(timeout=60), options)
    assert result.status is Status.SOLVED and replay(small, result.sequence).valid


@pytest.mark.parametrize(("solver", "options"), [("fd-ff", {"search": "ehc"}), ("pyperplan", {"search": "ehs"})])
def test_incomplete_searches_never_claim_unsolvable(solver, options):
    result = solve(read_deal(DEAD), solver, Limits(timeout=60), options)
    assert result.status is Status.UNKNOWN, result.message


def test_all_in_a_row_first_move_is_free():
    deal = read_deal(INSTANCES / "pysol" / "all_in_a_row" / "all_in_a_row-3.txt")
    assert deal.foundation is None
    for encoding in ("paper", "compact"):
        result = solve(deal, "fd-lama", Limits(timeout=60), {"encoding": encoding})
        assert result.status is Status.SOLVED, result.message
        assert replay(deal, result.sequence).valid and len(result.sequence) == 52


def test_a_run_killed_at_the_limit_is_a_timeout_and_leaves_nothing(paper_deal, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = solve(paper_deal, "fd-ff", Limits(timeout=0.3), {"encoding": "paper"})
    assert result.status is Status.TIMEOUT and result.wall < 3
    assert list(tmp_path.iterdir()) == []


def test_solved_runs_leave_no_files(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    for solver in ("fd-lama", "pyperplan"):
        assert solve(read_deal(SMALL), solver, Limits(timeout=60)).status is Status.SOLVED
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("option", "words"), [
    ("encoding=tiny", "encoding must be one of"), ("colour=red", "has no option 'colour'"),
    ("search=dfs", "search must be one of")])
def test_bad_solver_options_are_usage_errors(option, words):
    run = patience("solve", str(SMALL), "--solver", "fd-ff", "--set", option)
    assert (run.returncode, run.stdout) == (2, "") and words in run.stderr


def test_pyperplan_refuses_the_compact_encoding_it_cannot_read():
    run = patience("solve", str(SMALL), "--solver", "pyperplan", "--set", "encoding=compact")
    assert run.returncode == 2 and "option encoding must be one of paper" in run.stderr


def test_solve_command_reports_a_validated_plan():
    run = patience("solve", str(PAPER), "--solver", "fd-lama", "--timeout", "60")
    assert run.returncode == 0 and "status: solved" in run.stdout and "validated: 51 moves" in run.stdout


def test_gen_prints_problem_and_domain_and_writes_both(tmp_path):
    problem = patience("gen", "pddl", str(PAPER))
    assert problem.returncode == 0 and problem.stdout == model(read_deal(PAPER)).problem
    domain = patience("gen", "pddl", "--domain", "--encoding", "compact")
    assert domain.stdout == model(read_deal(PAPER), "compact").domain
    written = patience("gen", "pddl", str(PAPER), "-o", str(tmp_path))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["domain.pddl", "problem.pddl"]
    assert written.returncode == 0 and (tmp_path / "problem.pddl").read_text() == problem.stdout


def test_gen_errors_are_one_line_and_exit_2(tmp_path):
    missing = patience("gen", "pddl", str(tmp_path / "nope.txt"))
    assert (missing.returncode, missing.stdout) == (2, "") and missing.stderr.startswith("error: ")
    bad = tmp_path / "bad.txt"
    bad.write_text("Foundations: AS\n8S 9S ZZ\n")
    run = patience("gen", "pddl", str(bad))
    assert (run.returncode, run.stdout) == (2, "") and run.stderr.startswith(f"error: {bad}:")
    assert patience("gen", "pddl").returncode == 2


@needs_solver("ff")
@pytest.mark.parametrize("encoding", ["paper", "compact"])
def test_ff_runs_for_real(encoding):
    for dead in (DEAD, STUCK):
        assert solve(read_deal(dead), "ff", Limits(timeout=30), {"encoding": encoding}).status is Status.UNSOLVABLE
    small = read_deal(SMALL)
    result = solve(small, "ff", Limits(timeout=30), {"encoding": encoding})
    assert result.status is Status.SOLVED and replay(small, result.sequence).valid


@needs_solver("ff")
def test_ff_wins_the_paper_deal(paper_deal):
    result = solve(paper_deal, "ff", Limits(timeout=60))
    assert result.status is Status.SOLVED and len(result.sequence) == 51


def test_ff_missing_says_where_to_get_it(monkeypatch):
    monkeypatch.setenv("FF_PATH", "/nonexistent/ff")
    solver = get_solver("ff")
    assert not solver.available() and "FF-v2.3" in solver.install_hint()
    assert solve(read_deal(SMALL), "ff", Limits(timeout=5)).status is Status.ERROR


def test_ff_refuses_deals_longer_than_its_plan_limit():
    deal = random_deal(1001, 2, 40, seed=1)
    assert len(deal.cards) == 2001
    answer = get_solver("ff").solve(deal, Limits(timeout=5), {})
    assert answer.status is Status.ERROR and "2000 steps" in answer.message


def _native_registered() -> bool:
    try:
        return get_solver("native").available()
    except UsageError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not _native_registered(), reason="no native solver registered")
@pytest.mark.parametrize("solver", ["fd-ff", "fd-lama", pytest.param("ff", marks=needs_solver("ff"))])
def test_planners_agree_with_the_native_solver_on_pysol_deals(solver):
    decided = 0
    for seed in range(1, 21):
        deal = pysol_deal("black_hole", seed)
        native = solve(deal, "native", Limits(timeout=60))
        planned = solve(deal, solver, Limits(timeout=60))
        assert planned.status is not Status.ERROR, planned.message
        if native.decided and planned.decided:
            assert planned.status is native.status, seed
            decided += 1
    assert decided >= 15


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
