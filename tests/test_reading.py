"""The one road from a file to text (patience.reading): standard input as `-`, the UTF-8 byte order
mark in every form, YAML without aliases, caps, and error lines cut short."""

from __future__ import annotations

import subprocess
import sys

import pytest

from patience import caps
from patience.cli import main
from patience.errors import InputError
from patience.formats import read_deal
from patience.reading import first_line, load_yaml, read_text
from tests.helpers import INSTANCES, ROOT

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
ANSWER = INSTANCES / "black_hole" / "paper-example.solution"
BOM = "\ufeff"


def patience(*arguments: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "patience", *arguments], input=stdin, capture_output=True,
                          timeout=60, cwd=ROOT)


def test_a_deal_from_standard_input():
    done = patience("validate", "-", str(ANSWER), stdin=PAPER.read_bytes())
    assert (done.returncode, done.stdout, done.stderr) == (0, b"valid: 51 moves\n", b"")


def test_an_answer_from_standard_input():
    done = patience("validate", str(PAPER), "-", stdin=ANSWER.read_bytes())
    assert (done.returncode, done.stdout, done.stderr) == (0, b"valid: 51 moves\n", b"")


def test_solve_reads_standard_input_and_its_output_validates_from_it():
    solved = patience("solve", "-", stdin=PAPER.read_bytes())
    assert solved.returncode == 0 and b"status: solved" in solved.stdout
    done = patience("validate", str(PAPER), "-", stdin=solved.stdout)
    assert (done.returncode, done.stderr) == (0, b"")


def test_standard_input_is_read_once():
    done = patience("validate", "-", "-", stdin=PAPER.read_bytes())
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr == b"error: -: standard input was already read (only one input can be -)\n"


def test_standard_input_beyond_the_cap_is_refused():
    done = patience("solve", "-", stdin=b"\n" * (caps.MAX_FILE_BYTES + 1))
    assert done.returncode == 2 and done.stderr.decode().startswith("error: -: larger than 16.0 MiB")


@pytest.mark.parametrize("form", ["board", "yaml", "param", "dzn", "json"])
def test_a_byte_order_mark_is_accepted_in_every_deal_form(tmp_path, capsys, form):
    assert main(["convert", str(PAPER), "--to", form]) == 0
    deal = tmp_path / f"deal.{form}"
    deal.write_text(BOM + capsys.readouterr().out, encoding="utf-8")
    assert read_deal(deal) == read_deal(PAPER)
    assert main(["validate", str(deal), str(ANSWER)]) == 0


@pytest.mark.parametrize("answer", ["cards", "solve transcript", "black-hole-solve"])
def test_a_byte_order_mark_is_accepted_in_answers(tmp_path, capsys, answer):
    cards = ANSWER.read_text().splitlines()[1].split()
    text = {"cards": ANSWER.read_text(),
            "solve transcript": f"deal: x\nstatus: solved\nsequence: {' '.join(cards)}\n",
            "black-hole-solve": "Solved!\n" + "".join(f"Info: Card moved is {card}\n" for card in cards[1:])}[answer]
    path = tmp_path / "answer.txt"
    path.write_text(BOM + text, encoding="utf-8")
    assert main(["validate", str(PAPER), str(path)]) == 0
    assert capsys.readouterr().out == "valid: 51 moves\n"


def test_a_byte_order_mark_is_accepted_in_a_cnf(tmp_path, capsys):
    formula = tmp_path / "formula.cnf"
    formula.write_text(BOM + "p cnf 2 1\n1 -2 0\n", encoding="utf-8")
    assert main(["reduce", str(formula)]) == 0
    assert "ranks:" in capsys.readouterr().out


def test_yaml_aliases_are_refused_at_their_line():
    with pytest.raises(InputError) as caught:
        load_yaml("a: 1\nb: &x [1, 2]\nc: *x\n", "f.yaml")
    assert (caught.value.line, caught.value.message) == (2, "YAML aliases (*name) are not accepted")


def test_a_long_token_is_quoted_short(tmp_path):
    deal = tmp_path / "deal.txt"
    deal.write_text("Foundations: AS\n" + "Q" * 100_000 + "\n")
    with pytest.raises(InputError) as caught:
        read_deal(deal)
    assert caught.value.line == 2 and len(str(caught.value)) < len(str(deal)) + 120


def test_a_line_beyond_the_cap_is_refused(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("AS\n" + "x" * (caps.MAX_LINE_CHARS + 1) + "\n")
    with pytest.raises(InputError) as caught:
        read_text(answer)
    assert caught.value.line == 2 and "line longer than" in caught.value.message


def test_control_characters_in_a_file_name_stay_on_one_line(capsys):
    assert main(["solve", "no\nsuch\x1b[31m"]) == 2
    assert capsys.readouterr().err == "error: no\\nsuch\\x1b[31m: no such file\n"


def test_first_line_skips_blank_and_comment_lines():
    assert first_line("\n \n; a plan\n  (play-up x)\n", skip=";") == "(play-up x)"
    assert first_line(" \n\t\n") == ""
