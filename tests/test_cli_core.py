"""The CLI as a user meets it: deal, convert, validate, solvers, and one-line errors with exit 2."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from patience.formats import parse_deal, read_deal
from patience.generators.deals import LAST_SEED
from tests.helpers import INSTANCES

PAPER = str(INSTANCES / "black_hole" / "paper-example.txt")
SOLUTION = str(INSTANCES / "black_hole" / "paper-example.solution")


def patience(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "patience", *args], capture_output=True, text=True, timeout=120)


def test_validate_accepts_the_published_solution():
    run = patience("validate", PAPER, SOLUTION)
    assert (run.returncode, run.stdout) == (0, "valid: 51 moves\n")


def test_validate_rejects_a_one_card_corruption_with_its_move(tmp_path):
    corrupted = tmp_path / "bad.txt"
    corrupted.write_text(Path(SOLUTION).read_text().replace(" 9C TS ", " TS 9C "))
    run = patience("validate", PAPER, str(corrupted))
    assert (run.returncode, run.stdout) == (1, "invalid: move 10: TS does not follow 8S\n")


def test_deal_count_writes_consecutive_seeds(tmp_path):
    run = patience("deal", "--game", "all_in_a_row", "--seed", "3", "--count", "2", "--dir", str(tmp_path))
    assert run.returncode == 0
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == ["all_in_a_row-3.txt", "all_in_a_row-4.txt"]
    assert read_deal(tmp_path / "all_in_a_row-4.txt").foundation is None
    assert patience("deal", "--game", "all_in_a_row", "--seed", "4").stdout == (tmp_path / written[1]).read_text()


def test_random_generalised_deal_is_yaml_and_reproducible():
    first = patience("deal", "--ranks", "6", "--suits", "3", "--pile-height", "2", "--seed", "9")
    again = patience("deal", "--ranks", "6", "--suits", "3", "--pile-height", "2", "--seed", "9")
    assert first.returncode == 0 and first.stdout == again.stdout and "piles:" in first.stdout


@pytest.mark.parametrize("form", ["board", "yaml", "param", "dzn", "json"])
def test_convert_round_trips_through_every_form(tmp_path, form):
    converted = tmp_path / f"deal.{form}"
    converted.write_text(patience("convert", PAPER, "--to", form).stdout)
    back = patience("convert", str(converted), "--to", "board")
    assert back.stdout == Path(PAPER).read_text()


def test_solvers_lists_what_is_known():
    run = patience("solvers")
    assert run.returncode == 0 and "Traceback" not in run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split() == ["solver", "paradigm", "installed", "plays"]
    rows = [line for line in lines[1:] if line and not line.startswith(" ")]
    solver_rows = rows[:rows.index(next(row for row in rows if row.startswith("sat:ARGUMENT")))]
    assert {"native", "sat", "ace", "highs", "fd-ff"} <= {row.split()[0] for row in solver_rows}
    # every unindented line up to the notes is a solver row (no banner a solver library prints when asked)
    assert all(re.match(r"\S+ +(planning|cp|sat|mip|asp|native) +\S", row) for row in solver_rows), rows
    assert max(len(line) for line in lines) <= 100


@pytest.mark.parametrize(
    ("deal_text", "expected"),
    [
        ("Foundations: AS\n8S 9S QQ\n", ":2: unknown card 'QQ'"),
        ("Foundations: AS\n8S 9S 4D\n4D 2C 3C\n", ":3: card 4D appears twice (first on line 2)"),
        ("", ":1: empty file"),
        ("ranks: x\npiles: []\n", ":1: 'ranks' must be a positive integer"),
    ],
)
def test_bad_deal_gives_one_error_line_and_exit_2(tmp_path, deal_text, expected):
    path = tmp_path / "deal.txt"
    path.write_text(deal_text)
    run = patience("validate", str(path), SOLUTION)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"error: {path}{expected}\n"


def test_bad_answer_and_missing_files_give_exit_2(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("AS 2C\n3S ZZ\n")
    run = patience("validate", PAPER, str(answer))
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"error: {answer}:2: unknown card 'ZZ'\n")
    missing = patience("convert", str(tmp_path / "nope.txt"), "--to", "yaml")
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == f"error: {tmp_path / 'nope.txt'}: no such file\n"


@pytest.mark.parametrize(("numbering", "seed"), [
    ("pysolfc", "0"), ("pysolfc", "-1"), ("pysolfc", str(LAST_SEED["pysolfc"] + 1)), ("pysol", str(2 ** 64)),
    ("ms", "0"),
])
def test_a_seed_outside_its_numberings_range_is_refused(numbering, seed):
    run = patience("deal", "--game", "black_hole", "--seed", seed, "--numbering", numbering)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"error: {numbering} deals are numbered 1 to {LAST_SEED[numbering]}, not {seed}\n"


def test_the_last_pysol_seed_is_dealt():
    run = patience("deal", "--game", "all_in_a_row", "--seed", str(2 ** 64 - 1))
    assert run.returncode == 0 and len(parse_deal(run.stdout, "stdout").cards) == 52


def test_unsolved_transcript_is_not_a_sequence(tmp_path):
    answer = tmp_path / "bhs.out"
    answer.write_text("Unsolved!\n")
    run = patience("validate", PAPER, str(answer))
    assert run.returncode == 2 and "no card sequence" in run.stderr


def test_convert_refuses_a_form_that_cannot_hold_the_deal(tmp_path):
    deal = tmp_path / "g.yaml"
    deal.write_text(patience("deal", "--ranks", "5", "--suits", "2", "--seed", "1").stdout)
    run = patience("convert", str(deal), "--to", "board")
    assert run.returncode == 2 and run.stdout == "" and run.stderr.startswith(f"error: {deal}: board text")


@pytest.mark.parametrize(("arguments", "option"), [
    (["solve", PAPER, "--timeout", "0"], "--timeout"),
    (["solve", PAPER, "--cpu", "-1"], "--cpu"),
    (["solve", PAPER, "--timeout", "nan"], "--timeout"),
    (["solve", PAPER, "--memory", "0"], "--memory"),
    (["compare", "--deals", "black_hole:1", "--solvers", "native", "--timeout", "-5", "--db", "never.sqlite"],
     "--timeout"),
    (["lbs", "solve", PAPER, "--timeout", "0"], "--timeout"),
    (["grade", "model.eprime", "--instances", ".", "--native-timeout", "-1"], "--native-timeout"),
    (["decode", "assignment", PAPER, "--solver", "native", "--timeout", "0"], "--timeout"),
])
def test_a_limit_that_could_never_run_is_refused(arguments, option, tmp_path):
    done = subprocess.run([sys.executable, "-m", "patience", *arguments], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert f"error: argument {option}: must be" in done.stderr.splitlines()[-1]
    assert not (tmp_path / "never.sqlite").exists()
