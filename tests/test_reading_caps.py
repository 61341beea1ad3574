"""Caps hold while a file is read, and on the total a command names (issue 39, items 11 and 12).

A reader stops at its cap with one line naming the file, the line and the cap, having kept no
more than the cap's worth: the memory a read takes is measured with tracemalloc on inputs forty
times the cap, where reading everything first took hundreds of megabytes. Deal specs, `--seeds`
and `survey shuffles` are sized before anything is built, so a billion deals cost nothing.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable

import pytest

from patience.answers import read_answer
from patience.binary_star import forms as binary_star_forms
from patience.caps import MAX_CARDS, MAX_DEALS, MAX_FOUNDATIONS, MAX_MOVES, MAX_VALUES
from patience.cli import main
from patience.errors import InputError, UsageError
from patience.formats import read_deal
from patience.games import late_binding, parse_game_deal
from patience.generators.reduction import read_formula
from patience.lbs import deal as lbs_deal
from patience.lbs import solution as lbs_solution
from patience.reading import lines
from patience.runners import dimacs_output, pddl_plan
from patience.runs import specs
from tests.helpers import COURSE, INSTANCES, exit_status

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
DEAL = read_deal(PAPER)
LBS_DEAL = COURSE / "SolvableInstances" / "LBS10_12.param"
TIMES = 40  # inputs this many times the cap
# What a reader may keep while it refuses an input of TIMES x the cap: the cap's worth of items,
# far below the input's own worth (reading it whole took 20 to 60 times this)
PEAK_BYTES = 12 * 1024 * 1024

STEP, FF_STEP = "(play-up-top two clubs ace)\n", "step    0: PLAY-UP-TOP TWO CLUBS ACE\n"
# name -> (reader of a text, the text (made when the test runs), the cap, the line at which it
# must be refused, a word of the message)
CAPPED: dict[str, tuple[Callable[[str], object], Callable[[], str], int, int | None, str]] = {
    "plan file": (lambda text: pddl_plan.read_plan_file(text, "t"), lambda: STEP * TIMES * MAX_MOVES,
                  MAX_MOVES, MAX_MOVES + 1, "plan steps"),
    "plan file answer": (lambda text: read_answer(text, "t", DEAL), lambda: STEP * TIMES * MAX_MOVES,
                         MAX_MOVES, MAX_MOVES + 1, "plan steps"),
    "ff output": (lambda text: pddl_plan.read_ff(text, "t"),
                  lambda: "ff: found legal plan as follows\n" + FF_STEP * TIMES * MAX_MOVES,
                  MAX_MOVES, MAX_MOVES + 2, "plan steps"),
    "ff steps answer": (lambda text: read_answer(text, "t", DEAL), lambda: FF_STEP * TIMES * MAX_MOVES,
                        MAX_MOVES, MAX_MOVES + 1, "plan steps"),
    "cards on many lines": (lambda text: read_answer(text, "t", DEAL), lambda: "AS\n" * TIMES * MAX_MOVES,
                            MAX_MOVES, MAX_MOVES + 1, "moves"),
    "cards on one line": (lambda text: read_answer(text, "t", DEAL), lambda: "AS " * TIMES * MAX_MOVES,
                          MAX_MOVES, 1, "moves"),
    "black-hole-solve": (lambda text: read_answer(text, "t", DEAL),
                         lambda: "Solved!\n" + "Info: Card moved is AS\n" * TIMES * MAX_MOVES,
                         MAX_MOVES, MAX_MOVES + 2, "moves"),
    "lbs pairs": (lambda text: late_binding.read_pairs(text, "t"), lambda: "2 1\n" * TIMES * MAX_MOVES,
                  MAX_MOVES, MAX_MOVES + 1, "moves"),
    "lbs letting a line a value": (lambda text: lbs_solution.read_moves(text, "t"),
                                   lambda: "letting actionFrom be [\n" + "2,\n" * TIMES * MAX_MOVES + "2]\n",
                                   MAX_MOVES, MAX_MOVES + 1, "actionFrom"),
    "lbs letting on one line": (lambda text: lbs_solution.read_moves(text, "t"),
                                lambda: "letting actionFrom be [" + "2, " * TIMES * MAX_MOVES + "2]\n",
                                MAX_MOVES, 1, "actionFrom"),
    "lbs mapped letting": (lambda text: lbs_solution.read_moves(text, "t", lbs_solution.Mapping("f", "t")),
                           lambda: "letting f be [\n" + "2,\n" * TIMES * MAX_MOVES + "2]\n",
                           MAX_MOVES, MAX_MOVES + 1, "'f'"),
    "v literals": (lambda text: dimacs_output.read_competition(text, "t", 1000),
                   lambda: "s SATISFIABLE\n" + "v 1 2 3 4 5\n" * TIMES * 200 + "v 0\n", 1000, 202, "literals"),
    "v literals of no formula": (lambda text: dimacs_output.read_competition(text, "t"),
                                 lambda: "s SATISFIABLE\n" + ("v " + "1 " * 1000 + "\n") * (4 * MAX_VALUES // 1000),
                                 MAX_VALUES, MAX_VALUES // 1000 + 2, "literals"),
    "minisat literals": (lambda text: dimacs_output.read_minisat_result(text, "t", variables=1000),
                         lambda: "SAT\n" + "1 " * TIMES * 1000 + "0\n", 1000, 2, "literals"),
    "json deal": (lambda text: parse_game_deal(text, "t"),
                  lambda: '{"m": 13, "piles": [' + "[1,2,3]," * (TIMES * MAX_CARDS // 3) + "[1]]}", MAX_CARDS, None,
                  "cards"),
    "lbs param": (lambda text: parse_game_deal(text, "t"),
                  lambda: "letting cards be [" + "1," * TIMES * MAX_CARDS + "1]\n", MAX_CARDS, 1, "cards"),
    "lbs dzn": (lambda text: lbs_deal.read_dzn(text, "t"), lambda: "cards = [" + "1," * TIMES * MAX_CARDS + "1];\n",
                MAX_CARDS, 1, "cards"),
    "binary star board": (lambda text: binary_star_forms.read(text, "t"),
                          lambda: "Foundations: AS KS\n" + "2C 3D 4H 5S\n" * (TIMES * MAX_CARDS // 4), MAX_CARDS,
                          MAX_CARDS // 4 + 1, "cards"),
    "binary star foundations": (lambda text: binary_star_forms.read(text, "t"),
                                lambda: "Foundations: " + "AS " * TIMES * MAX_FOUNDATIONS + "\n2C\n", MAX_FOUNDATIONS,
                                1, "foundations"),
    "cnf formula": (lambda text: read_formula(text, "t"), lambda: "p cnf 3 10\n" + "1 -2 3 0\n" * TIMES * MAX_CARDS,
                    10, 12, "clauses"),
}


@pytest.mark.parametrize("name", sorted(CAPPED))
def test_a_reader_stops_at_its_cap_while_it_reads(name):
    reader, make, cap, line, word = CAPPED[name]
    text = make()
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as refused:
            reader(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(refused.value)
    assert refused.value.line == line, message
    assert f"cap of {cap:,}" in message and word in message, message
    assert peak < PEAK_BYTES, f"{name}: {peak / 2 ** 20:.1f} MiB kept for a {len(text) / 2 ** 20:.1f} MiB input"


def test_a_literal_beyond_the_formula_is_refused_at_its_line():
    text = "s SATISFIABLE\nv 1 2\nv 3 1001 4\n" + "v 5\n" * 100_000 + "v 0\n"
    with pytest.raises(InputError) as refused:
        dimacs_output.read_competition(text, "t", 1000)
    assert refused.value.line == 3 and "1001" in str(refused.value)


def test_readers_under_their_caps_still_read_everything():
    assert len(pddl_plan.read_plan_file(STEP * MAX_MOVES, "t")) == MAX_MOVES
    assert len(late_binding.read_pairs("2 1\n" * MAX_MOVES, "t")) == MAX_MOVES
    moves = lbs_solution.read_moves("letting actionFrom be [\n" + "2,\n" * (MAX_MOVES - 1) + "2]\n"
                                    "letting actionTo be [" + ", ".join(["1"] * MAX_MOVES) + "]\n", "t")
    assert len(moves) == MAX_MOVES
    verdict = dimacs_output.read_competition("s SATISFIABLE\nv 1 -2\nv 3 0\n", "t", 3)
    assert verdict.literals == (1, -2, 3)
    assert dimacs_output.read_minisat_result("SAT\n1 -2 3 0\n", "t", variables=3).literals == (1, -2, 3)


@pytest.mark.parametrize("text", ["", "a", "a\n", "a\r\nb\rc\n\nd", "\u2028x\x85y\x0c", "\n\n", "a\r", "\r\n\r\n"])
def test_lines_are_the_lines_splitlines_gives(text):
    assert list(lines(text)) == text.splitlines()


def test_validate_refuses_a_long_plan_in_one_line(tmp_path, capsys):
    plan = tmp_path / "plan.txt"
    plan.write_text(STEP * 3 * MAX_MOVES)
    assert main(["validate", str(PAPER), str(plan)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"error: {plan}:{MAX_MOVES + 1}: plan steps") and f"{MAX_MOVES:,}" in captured.err


def test_lbs_validate_refuses_a_long_solution_in_one_line(tmp_path, capsys):
    solution = tmp_path / "long.solution"
    solution.write_text("letting actionFrom be [\n" + "2,\n" * 3 * MAX_MOVES + "2]\nletting actionTo be [1]\n")
    assert main(["lbs", "validate", str(LBS_DEAL), str(solution)]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith(f"error: {solution}:{MAX_MOVES + 1}: ")


# Item 11: the total of a spec, sized without building it.

def test_count_seeds_counts_overlapping_ranges_once():
    assert specs.count_seeds([(1, 5), (3, 9), (20, 20), (9, 9), (0, 0)]) == 11
    assert specs.count_seeds([(5, 10 ** 17)]) == 10 ** 17 - 4


def test_spec_size_counts_folders_ranges_and_files_without_reading_them(tmp_path):
    for name in ("a.txt", "b.txt", ".hidden"):
        (tmp_path / name).write_text("not a deal at all")  # counted, never read
    spec = f"black_hole:1-5+black_hole:3-7,9+{tmp_path}+{tmp_path / 'a.txt'}+random:13,4,3:1-10+all_in_a_row:4"
    assert specs.spec_size(spec) == 8 + 2 + 1 + 10 + 1


@pytest.mark.parametrize("spec", [
    "+".join(f"black_hole:{k * MAX_DEALS + 1}-{k * MAX_DEALS + MAX_DEALS - 1}" for k in range(30)),
    "black_hole:1-999999+all_in_a_row:1-999999+binary_star:1-5",
    "random:13,4,3:1-600000+random:13,4,2:1-600000",
    "black_hole:0-99999999999999999",
])
def test_a_spec_past_the_total_cap_is_refused_before_any_deal_is_built(spec, monkeypatch):
    def no_deal(*args):
        raise AssertionError("a deal was built")

    monkeypatch.setattr(specs, "pysol_deal", no_deal)
    monkeypatch.setattr(specs, "random_deal", no_deal)
    started = time.process_time()
    with pytest.raises(UsageError, match=f"at most {MAX_DEALS:,} in all"):
        specs.resolve(spec)
    assert time.process_time() - started < 1


def test_survey_seeds_past_the_total_cap_exit_2_without_a_store(tmp_path, capsys):
    seeds = ",".join(f"{k * MAX_DEALS + 1}-{k * MAX_DEALS + MAX_DEALS - 1}" for k in range(30))
    assert main(["survey", "--seeds", seeds, "--db", str(tmp_path / "s.db")]) == 2
    assert f"at most {MAX_DEALS:,} in all" in capsys.readouterr().err
    assert not (tmp_path / "s.db").exists()


def test_compare_refuses_an_experiment_of_too_many_deals(tmp_path, capsys):
    experiment = tmp_path / "e.yaml"
    experiment.write_text("deals: black_hole:1-999999+black_hole@ms:1-999999\ntimeout: 10\n"
                          "configurations:\n  native: {solver: native}\n")
    assert main(["compare", "--experiment", str(experiment), "--db", str(tmp_path / "c.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1,999,998 deals" in err
    assert not (tmp_path / "c.db").exists()


@pytest.mark.parametrize("arguments, message", [
    (["--games", "1000000000000"], f"--games: must be from 1 to {MAX_DEALS:,}"),
    (["--games", str(MAX_DEALS), "--batch", "1"], "chains of games"),
])
def test_survey_shuffles_sizes_its_games_first(tmp_path, capsys, arguments, message):
    code = exit_status(["survey", "shuffles", *arguments, "--db", str(tmp_path / "sh.db")])
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "sh.db").exists()


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
