"""Property-based fuzzing of every reader and of the commands' argument parsing (issue 28, item 5).

Whatever the text, a reader returns or raises InputError (UsageError where a choice is refused),
never anything else; whatever the arguments, `patience.cli.main` ends with a status in 0-4 and at
most one line on stderr, never a traceback. Inputs are random text and, more useful, sequences of
the tokens the formats are made of, so that the examples reach deep into each reader. The profile
is derandomized and keeps no database, so CI runs the same examples every time, within a minute.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience import reading
from patience.answers import read_answer
from patience.binary_star import forms as binary_star_forms
from patience.campaign.config import read_experiment
from patience.cli import main
from patience.errors import InputError, UsageError
from patience.formats import board, numbered, parse_deal, read_deal, yaml_form
from patience.games import get_game, parse_game_deal
from patience.generators.cnf.black_hole import read_header
from patience.generators.eprime import solution as savilerow_output
from patience.generators.lp import solution as lp_solution
from patience.generators.reduction import formula_from_meta, read_formula
from patience.generators.successor import black_hole as successor_cnf
from patience.generators.xcsp3 import solution as xcsp_output
from patience.lbs import solution as lbs_solution
from patience.lbs.deal import read_param as read_lbs_param
from patience.reading import decode
from patience.runners import dimacs_output, pddl_plan
from tests.helpers import INSTANCES

settings.register_profile("readers", max_examples=120, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FUZZ = settings.get_profile("readers")
PAPER = INSTANCES / "black_hole" / "paper-example.txt"
LBS_DEAL = INSTANCES / "lbs-coursework" / "SolvableInstances" / "LBS5_0.param"

# The words the formats are made of: deal forms, answers, solver outputs, YAML and its aliases,
# numbers at and beyond every cap, and characters readers trip on (BOM, NUL, CR, other digits).
TOKENS = (
    "Foundations:", "AS", "KH", "2C", "TD", "10d", "r3s1", "r20s0", "r99999999999s0", "-", "ranks:", "foundation:",
    "foundations:", "piles:", "game: binary_star", "meta:", "  - ", "[", "]", "{", "}", ",", ":", "&a", "*a",
    "!!python/none", "letting", "initialStacks", "be", "cards", "layout = array2d(1..17, 1..3, [", "array2d", "layout",
    "\"m\":", "\"piles\":",
    "s SATISFIABLE", "s UNSATISFIABLE", "s UNKNOWN", "v", "0", "1", "-1", "52", "13", "1000000000", "9" * 30,
    "<instantiation>", "</instantiation>", "<list>", "</list>", "<values>", "</values>", "x[]", "x[0..3]", "3x4", "*",
    "p cnf", "c", "c pile", "c ranks", "c var 1 card AS pos 1", "c patience", "SAT", "UNSAT", "INDET",
    "Solved!", "Unsolved!", "Info: Card moved is", "deal:", "status: solved", "status:", "sequence:",
    "ff: found legal plan as follows", "step", "0:", "PLAY-UP-TOP", "(play-up-top two clubs ace)", ";",
    "Optimal - objective value 0", "Model status", "Optimal", "# Columns", "Feasible", "a_1_1", "inf", "nan",
    "OR-Tools model_builder SCIP OPTIMAL", "actionFrom", "actionTo", "[1, 2]", ";int(0..1)", "$", "language ESSENCE'",
    "5H>2@7", "->", "#", "\ufeff", "\x00", "\r", "\t", "\u00b2", "\u0663", "é",
)
SEPARATORS = (" ", "\n", "", ", ", "\n  - ")


# numbers as readers meet them: small, signed, beyond every cap, too long for int(), other digits
NUMBERS = ("0", "1", "2", "-1", "+1", "07", "1e3", "1.5", "9" * 30, "9" * 5000, "\u00b2", "\u0663", "\uff11")
TOKEN = st.one_of(st.sampled_from(TOKENS), st.sampled_from(NUMBERS), st.text(max_size=6),
                  st.integers(-3, 60).map(str), st.integers().map(str))


@st.composite
def hostile_text(draw: st.DrawFn) -> str:
    """Random text; lines of a few format tokens; or format tokens and bits of random text joined
    by separators."""
    mode = draw(st.integers(0, 4))
    if mode == 0:
        return draw(st.text(max_size=200))
    if mode <= 2:
        return "\n".join(draw(st.lists(st.lists(TOKEN, max_size=4).map(" ".join), max_size=12)))
    parts = []
    for piece in draw(st.lists(TOKEN, max_size=40)):
        parts += [piece, draw(st.sampled_from(SEPARATORS))]
    return "".join(parts)


def refuses_cleanly(reader: Callable[[], object]) -> None:
    """The reader returns or refuses with InputError/UsageError; anything else fails the test."""
    with contextlib.suppress(InputError, UsageError):
        reader()


@pytest.fixture(scope="module")
def paper_deal():
    return read_deal(PAPER)


@pytest.fixture(scope="module")
def games():
    deals = {name: parse_game_deal(Path(path).read_text(), str(path))[1]
             for name, path in (("black_hole", PAPER), ("lbs", LBS_DEAL))}
    binary_star = binary_star_forms.read(
        "Foundations: AS KH\n" + "\n".join(f"{rank}S {rank}D" for rank in "23456789") + "\n", "deal")
    deals["binary_star"] = binary_star
    return deals


TEXT_READERS = {
    "any deal": lambda text: parse_game_deal(text, "fuzz"),
    "black hole deal": lambda text: parse_deal(text, "fuzz"),
    "board": lambda text: board.read(text, "fuzz"),
    "yaml deal": lambda text: yaml_form.read(text, "fuzz"),
    "param": lambda text: numbered.read_param(text, "fuzz"),
    "dzn": lambda text: numbered.read_dzn(text, "fuzz"),
    "json deal": lambda text: numbered.read_json(text, "fuzz"),
    "binary star deal": lambda text: binary_star_forms.read(text, "fuzz"),
    "lbs deal": lambda text: read_lbs_param(text, "fuzz"),
    "dimacs competition": lambda text: dimacs_output.read_competition(text, "fuzz"),
    "minisat result": lambda text: dimacs_output.read_minisat_result(text, "fuzz", text),
    "xcsp3 output": lambda text: xcsp_output.read_output(text, "fuzz", {"x": 52, "y": 52}),
    "savile row lettings": lambda text: savilerow_output.read_lettings(text, "fuzz"),
    "savile row info": lambda text: savilerow_output.read_info(text, "fuzz"),
    "lbs solution": lambda text: lbs_solution.read_moves(text, "fuzz"),
    "cbc solution": lambda text: lp_solution.read_cbc(text, "fuzz"),
    "highs solution": lambda text: lp_solution.read_highs(text, "fuzz"),
    "ortools solution": lambda text: lp_solution.read_ortools(text, "fuzz"),
    "ff output": lambda text: pddl_plan.read_ff(text, "fuzz"),
    "plan file": lambda text: pddl_plan.read_plan_file(text, "fuzz"),
    "dimacs cnf": lambda text: read_formula(text, "fuzz"),
    "gen cnf header": lambda text: read_header(text, "fuzz"),
    "gen successor header": lambda text: successor_cnf.read_header(text, "fuzz"),
    "reduced deal meta": lambda text: formula_from_meta(text, "fuzz"),
}


@pytest.mark.parametrize("name", sorted(TEXT_READERS))
@FUZZ
@given(text=hostile_text())
def test_a_reader_returns_or_refuses(name, text):
    refuses_cleanly(lambda: TEXT_READERS[name](text))


@pytest.mark.parametrize("game", ["black_hole", "binary_star", "lbs"])
@FUZZ
@given(text=hostile_text())
def test_every_answer_format_returns_or_refuses(games, game, text):
    refuses_cleanly(lambda: get_game(game).read_answer(text, "fuzz", games[game]))


@FUZZ
@given(text=hostile_text())
def test_the_black_hole_answer_readers_replay_or_refuse(paper_deal, text):
    """An answer that reads is then replayed: that must not raise either."""
    with contextlib.suppress(InputError):
        get_game("black_hole").replay(paper_deal, read_answer(text, "fuzz", paper_deal), complete=False)


@FUZZ
@given(data=st.binary(max_size=300) | hostile_text().map(lambda text: text.encode("utf-8", "surrogatepass")))
def test_bytes_decode_or_refuse(data):
    refuses_cleanly(lambda: decode(data, "fuzz"))


@FUZZ
@given(text=hostile_text(), kind=st.sampled_from(["experiment", "mapping"]))
def test_yaml_files_read_or_refuse(text, kind):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "file.yaml")
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        reader = read_experiment if kind == "experiment" else lbs_solution.read_mapping
        refuses_cleanly(lambda: reader(path))


# Arguments: the commands that read files, their options, the files they read (hostile and good),
# and values at and beyond every cap. Options that write files (-o, --dir, --html) are left out.
COMMANDS = ("deal", "convert", "validate", "solve", "gen cnf", "gen pddl", "gen eprime", "gen lp", "gen bogus",
            "reduce", "decode model", "decode assignment", "lbs solve", "lbs validate", "show", "solvers")
WORDS = (
    "--game", "black-hole", "binary-star", "lbs", "black_hole", "binary_star", "all_in_a_row", "--to", "board", "yaml",
    "json", "param", "dzn", "--seed", "--ranks", "--suits", "--pile-height", "--cards", "--count", "--numbering",
    "pysol", "ms", "--solver", "native", "nosuch", "--timeout", "--cpu", "--memory", "--set", "search=paper", "x=y",
    "--partial", "--json", "--empty-foundation", "pddl", "cnf", "eprime", "lp", "model", "assignment", "solve",
    "validate", "--mapping", "--via-formula", "--help", "-h", "-", "0", "1", "3", "-1", "0.5", "nan", "inf",
    "1000000000", "9" * 40, "", "\x00", "\u00b2",
)


@pytest.fixture(scope="module")
def argument_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("arguments")
    texts = {"deal.txt": PAPER.read_text(),
             "answer.txt": (INSTANCES / "black_hole" / "paper-example.solution").read_text(),
             "lbs.param": LBS_DEAL.read_text(), "laughs.yaml": "a: &a [1, 1]\nb: &b [*a, *a]\npiles: [*b, *b]\n",
             "blank.txt": "\n" * 1000, "bom.txt": "\ufeff" + PAPER.read_text(), "bad.cnf": "p cnf 1000000000 1\n1 0\n"}
    for name, text in texts.items():
        (folder / name).write_text(text)
    hostile = ["a\x00b", "no\nsuch", "", "-", "/dev/zero", "x" * 5000, str(folder), str(folder / "missing")]
    return hostile + [str(folder / name) for name in texts]


@settings(FUZZ, max_examples=200)
@given(data=st.data())
def test_the_command_line_exits_0_to_4_with_at_most_one_error_line(argument_files, data):
    files = st.sampled_from(argument_files)
    words = st.one_of(st.sampled_from(WORDS), files, st.text(max_size=8))
    arguments = [*data.draw(st.sampled_from(COMMANDS)).split(), *data.draw(st.lists(files, max_size=2)),
                 *data.draw(st.lists(words, max_size=5))]
    out, err = io.StringIO(), io.StringIO()
    with open(os.devnull, "rb") as nothing, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            _stdin(nothing):
        try:
            code = main(arguments)
        except SystemExit as exit:  # argparse: --help (0) or a usage error (2)
            code = exit.code
    assert code in (0, 1, 2, 3, 4), (arguments, code, err.getvalue())
    assert len(err.getvalue().splitlines()) <= 1, (arguments, err.getvalue())
    assert "Traceback" not in err.getvalue()


@contextlib.contextmanager
def _stdin(stream):
    """Standard input from `stream` (text wrapper over its bytes), and `-` readable again afterwards."""
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(stream)
    try:
        yield
    finally:
        sys.stdin = saved
        reading._stdin_read = False


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
