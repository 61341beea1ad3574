"""Numbers, writes and messages from outside (issue 39, items 5, 6, 7, 14): every number from an
option, a file or an experiment goes through one bounded parser (patience.numeric), so a huge or odd
one is one line and exit 2, never exit 70; a failed write of standard output is one line and exit 74;
names with Unicode digits sort, labels with `$` plot; error lines quote at most about 60 characters."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patience import numeric
from patience.caps import MAX_SECONDS, QUOTE_CHARS
from patience.cards import parse_card
from patience.cli import build_parser, main
from patience.errors import UsageError
from patience.exit_codes import ExitCode
from patience.runners.registry import SOLVERS
from tests.helpers import COURSE, INSTANCES, ROOT

PAPER = str(INSTANCES / "black_hole" / "paper-example.txt")
PAPER_ANSWER = str(INSTANCES / "black_hole" / "paper-example.solution")
LBS_DEAL = str(COURSE / "SolvableInstances" / "LBS10_12.param")
LBS_SOLUTION = str(COURSE / "SolvableInstances" / "LBS10_12.param.solution")
LONG = "X" * 5000
# Values no numeric option takes: huge, not finite, not ASCII, not a plain decimal, empty.
ODD_NUMBERS = ["9" * 5000, "1e300", "-1e300", "1e400", "nan", "inf", "-inf", "²", "٣", "１", "1_000", "0x10",
               "", "true", "1.0.0", "-" + "9" * 30]
ODD_OPTIONS = ["9" * 5000, "1e300", "-inf", "nan", "²", "1_000", ""]  # one of each kind, for every option
LINE_LIMIT = 200  # no error line quotes more than QUOTE_CHARS of its input; the rest is the message


@functools.cache
def parser():
    """`patience`'s parser, built once: building it imports every command."""
    return build_parser()


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    """`patience ARGUMENTS` in this process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    try:
        code = main([str(argument) for argument in arguments], parser())
    except SystemExit as stop:  # argparse's own exits (--help)
        code = stop.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_error(code: int, out: str, err: str, limit: int = LINE_LIMIT) -> str:
    """Exit 2, nothing on stdout, one short line `error: ...` on stderr, no traceback."""
    assert code == ExitCode.BAD_INPUT, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err[:600]
    assert len(lines[0]) < limit, lines[0]
    return lines[0]


# Every numeric option of the command line, with the rest of a command that would otherwise run.
NUMERIC_OPTIONS = [
    (["solve", PAPER], "--timeout"), (["solve", PAPER], "--cpu"), (["solve", PAPER], "--memory"),
    (["compare", "--deals", "black_hole:1", "--solvers", "native", "--db", "c.db"], "--timeout"),
    (["compare", "--deals", "black_hole:1", "--solvers", "native", "--db", "c.db"], "--cpu"),
    (["compare", "--deals", "black_hole:1", "--solvers", "native", "--db", "c.db"], "--memory"),
    (["compare", "--deals", "black_hole:1", "--solvers", "native", "--db", "c.db"], "--jobs"),
    (["compare", "--deals", "black_hole:1", "--solvers", "native", "--db", "c.db"], "--seed"),
    (["survey", "--seeds", "1", "--db", "s.db"], "--timeout"), (["survey", "--seeds", "1", "--db", "s.db"], "--nodes"),
    (["survey", "--seeds", "1", "--db", "s.db"], "--batch"), (["survey", "--seeds", "1", "--db", "s.db"], "--jobs"),
    (["survey", "shuffles", "--db", "s.db"], "--games"), (["survey", "shuffles", "--db", "s.db"], "--seed"),
    (["survey", "shuffles", "--db", "s.db"], "--reference"),
    (["deal"], "--seed"), (["deal", "--game", "lbs"], "--cards"), (["deal", "--dir", "d"], "--count"),
    (["deal"], "--ranks"), (["deal", "--ranks", "5"], "--suits"), (["deal", "--ranks", "5"], "--pile-height"),
    (["gen", "cnf", "--deals", "black_hole:1", "-o", "out"], "--jobs"),
    (["gen", "cnf", "--deals", "black_hole:1", "-o", "out", "--select", "sample:1"], "--seed"),
    (["gen", "cnf", "--deals", "black_hole:1", "-o", "out"], "--label-timeout"),
    (["grade", "model.eprime", "--instances", "."], "--timeout"),
    (["grade", "model.eprime", "--instances", "."], "--native-timeout"),
    (["grade", "m.mzn", "--game", "black_hole"], "--hunt"),
    (["grade", "m.mzn", "--game", "black_hole", "--hunt", "5"], "--shrink"),
    (["grade", "m.mzn", "--game", "black_hole", "--hunt", "5"], "--jobs"),
    (["grade", "--class", ".", "--instances", ".", "--game", "black_hole"], "--jobs"),
    (["grade", "model.eprime", "--instances", "."], "--jobs"),
    (["coursework", "--game", "lbs"], "--cards"), (["coursework", "--game", "lbs"], "--jobs"),
    (["coursework", "--game", "lbs"], "--count"), (["coursework", "--game", "lbs"], "--pool"),
    (["lbs", "solve", LBS_DEAL], "--timeout"), (["show", PAPER, "-o", "p.html"], "--timeout"),
    (["decode", "assignment", PAPER, "--solver", "native"], "--timeout"),
    (["solve", PAPER, "--solver", "native", "--set"], "nodes="),
    (["solve", PAPER, "--solver", "cpsat", "--set"], "workers="),
    (["solve", PAPER, "--solver", "pyperplan", "--set"], "hash-seed="),
]


@pytest.mark.parametrize(("command", "option"), NUMERIC_OPTIONS, ids=lambda item: " ".join(map(str, item))
                         if isinstance(item, list) else item)
def test_every_numeric_option_refuses_odd_numbers_in_one_line(command, option, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for value in ODD_OPTIONS:
        given = [*command, option + value] if option.endswith("=") else [*command, option, value]
        code, out, err = run(capsys, *given)
        assert_one_error(code, out, err)
    assert not any(tmp_path.iterdir())  # nothing was written, no store was made


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40) | st.from_regex(r"[-+]?[0-9]{1,40}(\.[0-9]{0,5})?(e[-+]?[0-9]{1,4})?", fullmatch=True))
def test_the_parser_gives_a_number_in_range_or_one_usage_error(text):
    for parse in (lambda: numeric.whole(text, "x", -5, 10 ** 9), lambda: numeric.real(text, "x", 0, MAX_SECONDS)):
        try:
            value = parse()
        except UsageError as error:
            assert len(str(error)) < LINE_LIMIT and "\n" not in str(error)
        else:
            assert value == value and -5 <= value <= max(10 ** 9, MAX_SECONDS)


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=12) | st.integers(-10, 20_000).map(str))
def test_an_option_from_hypothesis_is_a_deal_or_one_line(text):
    """`deal --ranks TEXT --suits 1 --pile-height 3`: a deal for 2..10,000 ranks, else one line and exit 2."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["deal", "--ranks", text, "--suits", "1", "--pile-height", "3"], parser())
        except SystemExit as stop:
            code = stop.code
    if code == 0:
        assert out.getvalue().startswith("# generalised deal") and err.getvalue() == ""
    else:
        assert code == 2 and out.getvalue() == "" and len(err.getvalue().splitlines()) == 1, err.getvalue()


def test_yaml_and_json_values_are_typed_strictly():
    for odd in (True, False, 1.0, float("inf"), float("nan"), 10 ** 4000, "two", None, [1]):
        with pytest.raises(UsageError):
            numeric.whole_value(odd, "m", 1, 10)
    for odd in (True, float("inf"), float("nan"), 10 ** 4000, -1, "1e400"):
        with pytest.raises(UsageError):
            numeric.real_value(odd, "timeout", 0, MAX_SECONDS, above_low=True)
    assert numeric.whole_value("4", "jobs", 1, 8) == 4 and numeric.real_value("1e3", "t", 0, 1e6) == 1000.0
    assert numeric.count_or_none("²") is None and numeric.count_or_none(float("nan")) is None
    assert numeric.count_or_none(1e400) is None and numeric.count_or_none("9" * 5000) is None
    assert numeric.count_or_none("120") == 120 and numeric.count_or_none(7.0) == 7


def hostile_files(tmp_path: Path) -> list[tuple[str, str, list[str]]]:
    """(name, content, command with {file}) for numbers in file fields."""
    formula = "p cnf 3 2\n1 -2 0\n2 3 0\n"
    return [
        ("big-card.txt", "Foundations: AS\nr999999999s999999999 9S\n", ["validate", "{file}", PAPER_ANSWER]),
        ("rank-outside.txt", "Foundations: AS\nr20s0 9S\n", ["validate", "{file}", PAPER_ANSWER]),
        ("foundations.txt", "Foundations: " + " ".join(["AS"] * 1001) + "\nTC AC KC\n",
         ["validate", "{file}", PAPER_ANSWER]),
        ("empty-rows.dzn", "layout = array2d(1..5, 1..0, []);\n", ["convert", "{file}", "--to", "yaml"]),
        ("huge-rows.dzn", "layout = array2d(1..999999999, 1..3, []);\n", ["convert", "{file}", "--to", "yaml"]),
        ("m-true.json", '{"m": true, "piles": [[1, 2], [3]]}', ["convert", "{file}", "--to", "yaml"]),
        ("m-float.json", '{"m": 13.0, "piles": [[1, 2], [3]]}', ["convert", "{file}", "--to", "yaml"]),
        ("m-huge.json", '{"m": 1e400, "piles": [[1, 2], [3]]}', ["convert", "{file}", "--to", "yaml"]),
        ("ranks-inf.yaml", "ranks: .inf\nfoundation: AS\npiles:\n- [2S]\n", ["convert", "{file}", "--to", "board"]),
        ("wide.cnf", "p cnf 5000 1\n1 0\n", ["reduce", "{file}"]),
        ("long-literal.cnf", f"p cnf 3 1\n1 {'9' * 5000} 0\n", ["reduce", "{file}"]),
        ("odd-literal.cnf", "p cnf 3 1\n1 ٣ 0\n", ["reduce", "{file}"]),
        ("formula.cnf", formula, ["reduce", "{file}"]),  # valid: the meta cases below build on it
        ("jobs-inf.yaml", "deals: black_hole:1\njobs: .inf\nconfigurations: [native]\n",
         ["compare", "--experiment", "{file}", "--db", "c.db"]),
        ("timeout-huge.yaml", "deals: black_hole:1\ntimeout: 1e300\nconfigurations: [native]\n",
         ["compare", "--experiment", "{file}", "--db", "c.db"]),
        ("memory-true.yaml", "deals: black_hole:1\nmemory: true\nconfigurations: [native]\n",
         ["compare", "--experiment", "{file}", "--db", "c.db"]),
        ("cpu-negative.yaml", "deals: black_hole:1\ncpu: -1\nconfigurations: [native]\n",
         ["compare", "--experiment", "{file}", "--db", "c.db"]),
        ("first-float.yaml", "from: actionFrom\nto: actionTo\nfirst_position: 1.0\n",
         ["lbs", "validate", LBS_DEAL, LBS_SOLUTION, "--mapping", "{file}"]),
        ("first-true.yaml", "from: actionFrom\nto: actionTo\nfirst_position: true\n",
         ["lbs", "validate", LBS_DEAL, LBS_SOLUTION, "--mapping", "{file}"]),
        ("huge-position.solution", f"letting actionFrom be [{'9' * 4000}, 2]\nletting actionTo be [1, 1]\n",
         ["lbs", "validate", LBS_DEAL, "{file}"]),
        ("bool-position.solution", "letting actionFrom be [true, 2]\nletting actionTo be [1, 1]\n",
         ["lbs", "validate", LBS_DEAL, "{file}"]),
        ("kelvin.txt", "Foundations: AS\n\u212aS 9S\n", ["validate", "{file}", PAPER_ANSWER]),
        ("fullwidth.txt", "Foundations: AS\n\uff2bS 9S\n", ["validate", "{file}", PAPER_ANSWER]),
        ("sharp-s.txt", "Foundations: AS\nß 9S\n", ["validate", "{file}", PAPER_ANSWER]),
        ("kelvin-answer.txt", "8S \u212aS\n", ["validate", PAPER, "{file}"]),
        ("long-token.txt", f"Foundations: AS\n8S {LONG}\n", ["validate", "{file}", PAPER_ANSWER]),
        ("long-answer.txt", f"Solved!\nInfo: Card moved is {LONG}\n", ["validate", PAPER, "{file}"]),
        ("long-plan.txt", f"step 0: PLAY-UP-TOP {LONG}\n", ["validate", PAPER, "{file}"]),
        ("long-status.txt", f"deal: x\nstatus: {LONG}\n", ["validate", PAPER, "{file}"]),
    ]


def test_numbers_and_names_in_files_are_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, content, command in hostile_files(tmp_path):
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        code, out, err = run(capsys, *[name if part == "{file}" else part for part in command])  # cwd: tmp_path
        if name == "formula.cnf":
            assert code == 0, err
            continue
        line = assert_one_error(code, out, err)
        assert name in line, line
        assert not (tmp_path / "c.db").exists()


def test_a_lookalike_letter_is_named_not_taken_for_the_card():
    for token, named in (("\u212aS", "KELVIN SIGN"), ("\uff2bS", "FULLWIDTH LATIN CAPITAL LETTER K"),
                         ("ßS", "LATIN SMALL LETTER SHARP S"), ("10\u017f", "LATIN SMALL LETTER LONG S")):
        with pytest.raises(ValueError, match=named):
            parse_card(token)
    assert parse_card("ks") == parse_card("KS")


def test_a_reduced_deals_meta_is_checked_as_numbers(tmp_path, capsys):
    formula = tmp_path / "f.cnf"
    formula.write_text("p cnf 3 2\n1 -2 0\n2 3 0\n")
    code, deal_text, err = run(capsys, "reduce", formula)
    assert code == 0, err
    for old, new in (("  - [2, 3]", "  - [2, 7]"), ("  variables: 3", "  variables: true"),
                     ("  - [2, 3]", "  - [2, 3.0]"), ("  - [2, 3]", "  - [2, 0]")):
        deal = tmp_path / "bad.yaml"
        deal.write_text(deal_text.replace(old, new))
        assert_one_error(*run(capsys, "decode", "assignment", deal, "--via-formula"))


def test_a_solver_answer_with_a_huge_variable_is_refused(tmp_path, capsys):
    code, cnf_text, err = run(capsys, "gen", "cnf", PAPER)
    assert code == 0, err
    cnf = tmp_path / "deal.cnf"
    cnf.write_text(cnf_text)
    answer = tmp_path / "answer.txt"
    for body in (f"s SATISFIABLE\nv 1 {'9' * 5000} 0\n", "s SATISFIABLE\nv 1 ٣ 0\n",
                 f"s SATISFIABLE\nc conflicts: {'9' * 5000}\nv 99999999999999999999 0\n"):
        answer.write_text(body)
        line = assert_one_error(*run(capsys, "decode", "model", cnf, answer))
        assert str(answer) in line


def test_a_scheduler_port_out_of_range_is_refused_before_dask(tmp_path, capsys):
    for port in ("99999999999999999999", "0", "65536"):
        line = assert_one_error(*run(capsys, "compare", "--deals", "black_hole:1", "--solvers", "native",
                                     "--db", tmp_path / "c.db", "--scheduler", f"tcp://127.0.0.1:{port}"))
        assert "port" in line
    assert not (tmp_path / "c.db").exists()


def test_long_quotes_are_clipped_in_every_kind_of_error(tmp_path, capsys):
    line = assert_one_error(*run(capsys, "validate", tmp_path / LONG[:300] / "x.txt", PAPER_ANSWER), limit=250)
    assert "XXX/x.txt: " in line and "..." in line  # a long name by its start and end
    for command in (["solve", PAPER, "--solver", LONG], ["solve", PAPER, "--set", LONG], ["deal", "--game", LONG],
                    ["convert", PAPER, "--to", LONG], ["gen", "cnf", PAPER, "--" + LONG],
                    ["compare", "--deals", "black_hole:" + LONG, "--solvers", "native", "--db", tmp_path / "c.db"],
                    ["survey", "--seeds", LONG, "--db", tmp_path / "s.db"],
                    ["survey", "--shape", LONG, "--db", tmp_path / "s.db"]):
        # `unknown solver` lists the known ones: the quote is clipped, the list is not
        line = assert_one_error(*run(capsys, *command), limit=200 + len(", ".join(SOLVERS)))
        assert "X" * (QUOTE_CHARS + 1) not in line


def test_natural_order_takes_unicode_digits_and_long_runs(tmp_path):
    from patience.pages.report import natural

    names = ["1²1.txt", "12.txt", "2.txt", "٣.txt", "9" * 5000 + ".txt", "10.txt", "0010.txt"]
    ordered = sorted(names, key=natural)
    positions = [ordered.index(name) for name in ("2.txt", "10.txt", "12.txt", "9" * 5000 + ".txt")]
    assert positions == sorted(positions)


def test_a_report_of_odd_names_and_labels_draws_them(tmp_path, capsys, monkeypatch):
    """A deal file named 1²1.txt and a label a$\\frac{$ (mathtext) and _x (a legend skips `_` labels)."""
    monkeypatch.chdir(tmp_path)
    deals = tmp_path / "deals"
    deals.mkdir()
    for name in ("1²1.txt", "12.txt"):
        (deals / name).write_text(Path(PAPER).read_text())
    code, out, err = run(capsys, "compare", "--deals", deals, "--config", "a$\\frac{$=native", "--config", "_x=native",
                         "--db", "c.db", "--quiet")
    assert code == 0, err
    code, out, err = run(capsys, "report", "c.db", "--html", "page")  # its plots are drawn as inline SVG
    assert code == 0, err
    page = (tmp_path / "page" / "index.html").read_text()
    assert "a$\\frac{$ (2)" in page and "_x (2)" in page and "1²1" in page


def _patience(*arguments: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "patience", *arguments], text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, **options)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_a_full_standard_output_is_one_line_and_exit_74():
    with open("/dev/full", "w") as full:
        done = _patience("deal", "--seed", "5", stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == ExitCode.OUTPUT_FAILED == 74
    assert done.stderr == "error: cannot write standard output: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("arguments", [["--help"], ["--version"], ["deal", "--help"], ["grade", "--help"]])
def test_help_and_version_to_a_full_standard_output_exit_74(arguments):
    with open("/dev/full", "w") as full:
        done = _patience(*arguments, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == ExitCode.OUTPUT_FAILED, done.stderr
    assert done.stderr == "error: cannot write standard output: No space left on device\n"


def test_help_and_version_still_print_and_exit_0(capsys):
    for arguments in (["--version"], ["coursework", "--help"]):
        code, out, err = run(capsys, *arguments)
        assert (code, err) == (0, "") and out.strip()


def test_coursework_rows_beyond_one_deck_are_one_line(tmp_path, capsys, monkeypatch):
    """An LBS exercise draws its rows from one deck of 52: 53 cards is a usage error, not a ValueError."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "coursework", "--game", "lbs", "--cards", "53")
    assert "--cards" in assert_one_error(code, out, err) and "52" in err
    code, out, err = run(capsys, "coursework", "--game", "generalised", "--shape", "")
    assert "--shape" in assert_one_error(code, out, err)
    assert not any(tmp_path.iterdir())


def test_a_closed_pipe_ends_quietly():
    """`patience deal ... | head -c 10`: 80 KB of deal against a reader that stops at once."""
    reader = subprocess.Popen([sys.executable, "-m", "patience", "deal", "--ranks", "5000", "--suits", "2"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert reader.stdout.read(10)
    reader.stdout.close()
    err = reader.stderr.read().decode()
    reader.stderr.close()
    assert reader.wait(timeout=60) == 0
    assert err == ""


def test_the_timeout_cap_is_documented():
    caps = (ROOT / "docs" / "deals.md").read_text()  # the README links the caps' page and names 74
    assert f"{MAX_SECONDS:,} s" in caps and "74" in (ROOT / "README.md").read_text()
