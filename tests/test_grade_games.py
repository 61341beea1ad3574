"""`patience grade` on models of any game: the public minizinc-benchmarks Black Hole model graded
correct unchanged with the shipped mapping, broken variants caught, hunts that find and shrink the
deal a broken model gets wrong (and pass an unbroken one), bad command lines refused."""

from __future__ import annotations

import itertools
import json
import re
import threading
from pathlib import Path

import pytest

from patience.cards import Card
from patience.cli import main
from patience.deal import Deal
from patience.formats import write_deal
from patience.generators.deals import random_deal
from patience.generators.mzn import binary_star, black_hole, lbs
from patience.grading.classroom import student_models
from patience.grading.hunt import posed_deals, smaller
from patience.grading.student import GameMapping, NativeTruth, StudentModel, grade_instances, renamed
from patience.reading import read_text
from tests.helpers import ROOT, benchmark_script, needs_solver

PUBLIC = ROOT / "models" / "minizinc-benchmarks-black-hole.mzn"
PILE_ORDER = "constraint forall(c in PILECARD where above[c] != 0)(y[above[c]] < y[c]);"
needs_minizinc = needs_solver("minizinc")


def without_wrap(text: str) -> str:
    """The public model with the king-ace pairs taken out of its neighbours table (1 = A♠, 13 ranks)."""
    def wraps(line: str) -> bool:
        pair = re.fullmatch(r"\s*(\d+),\s*(\d+),?\s*", line)
        return pair is not None and abs((int(pair.group(1)) - 1) % 13 - (int(pair.group(2)) - 1) % 13) == 12
    lines = [line for line in text.split("\n") if not wraps(line)]
    assert len(lines) == len(text.split("\n")) - 32  # 4 suits x 4 suits x (A->K, K->A)
    return "\n".join(lines).replace("1..416", "1..384")


def grade(capsys, model: Path, *argv: str) -> tuple[int, list[str], str]:
    status = main(["grade", str(model), *argv])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


@pytest.fixture
def standard_deal(tmp_path) -> Path:
    """One standard Black Hole deal the public model solves in about a second."""
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / "seed3.txt").write_text(write_deal(random_deal(13, 4, 3, 3), "board"))
    return folder


@needs_minizinc
def test_the_public_model_grades_correct_unchanged_with_the_shipped_mapping(tmp_path, capsys, standard_deal):
    status, lines, err = grade(capsys, PUBLIC, "--mapping", "minizinc-benchmarks", "--instances", str(standard_deal))
    assert (status, err) == (0, "")
    assert lines[1].split()[:4] == ["seed3", "51", "solved", "correct"] and "valid: 51 moves" in lines[1]
    broken = tmp_path / "nowrap.mzn"
    broken.write_text(without_wrap(read_text(PUBLIC)))
    status, lines, _ = grade(capsys, broken, "--mapping", "minizinc-benchmarks", "--instances", str(standard_deal))
    assert status == 1 and lines[1].split()[2:5] == ["no", "solution", "WRONG"] and "lost solutions" in lines[1]


@needs_minizinc
def test_a_deal_the_model_cannot_read_is_the_teachers_error_not_the_students(tmp_path, capsys, standard_deal):
    (standard_deal / "small.yaml").write_text(write_deal(random_deal(5, 2, 2, 0), "yaml"))
    status, lines, err = grade(capsys, PUBLIC, "--mapping", "minizinc-benchmarks", "--instances", str(standard_deal))
    assert (status, lines) == (2, []) and err.startswith(f"error: {standard_deal / 'small.yaml'}: ")
    assert "the model's data cannot h" in err


@needs_minizinc
def test_a_mapping_names_the_play_order_variable(tmp_path, capsys):
    folder = tmp_path / "instances"
    folder.mkdir()
    for seed in range(2):
        (folder / f"g{seed}.yaml").write_text(write_deal(random_deal(5, 2, 2, seed), "yaml"))
    model = tmp_path / "renamed.mzn"
    model.write_text(re.sub(r"\bx\b", "order", black_hole.model_text()))
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text("game: generalised\nvariables:\n  x: order\n")
    status, lines, _ = grade(capsys, model, "--mapping", str(mapping), "--instances", str(folder))
    assert status == 0 and lines[-1].endswith("2 correct, 0 wrong, 0 not graded")
    status, lines, _ = grade(capsys, model, "--game", "generalised", "--instances", str(folder))
    assert status == 1 and all(line.split()[2:4] == ["error", "WRONG"] and "no array of integers x" in line
                               for line in lines[1:3])


@needs_minizinc
def test_instances_graded_at_once_run_together_and_keep_their_order(tmp_path, monkeypatch):
    folder = tmp_path / "instances"
    folder.mkdir()
    for seed in range(3):  # small deals, some that a model without pile order gets wrong
        (folder / f"g{seed}.yaml").write_text(write_deal(random_deal(4, 2, 3, seed), "yaml"))
    model = tmp_path / "student.mzn"
    model.write_text(black_hole.model_text().replace(PILE_ORDER, ""))
    mapping, native = GameMapping("generalised"), NativeTruth(60)
    one_at_a_time = grade_instances(StudentModel(model, mapping), folder, native, 30)
    student = StudentModel(model, mapping)
    meeting, run = threading.Barrier(3, timeout=120), student.run

    def run_together(deal, timeout):
        meeting.wait()  # no run goes on until all three have started: one at a time would break the barrier
        return run(deal, timeout)

    monkeypatch.setattr(student, "run", run_together)
    at_once = grade_instances(student, folder, native, 30, jobs=3)
    assert [(row.instance, row.verdict, row.grade) for row in at_once] == \
        [(row.instance, row.verdict, row.grade) for row in one_at_a_time]
    assert [row.instance for row in at_once] == ["g0", "g1", "g2"]


@needs_minizinc
def test_a_hunt_catches_a_missing_pile_order_and_shrinks_the_deal(tmp_path, capsys):
    model = tmp_path / "student.mzn"
    model.write_text(black_hole.model_text().replace(PILE_ORDER, ""))
    assert black_hole.model_text() != model.read_text()
    status, lines, err = grade(capsys, model, "--game", "black-hole", "--hunt", "30", "--seed", "0",
                               "--out", str(tmp_path / "found"), "--timeout", "20")
    assert status == 1 and all(line.startswith(("hunt ", "deal ", "shrink ")) for line in err.splitlines())
    assert lines[0] == f"counterexample: {tmp_path / 'found' / 'counterexample.dzn'}"
    assert "illegal: move" in lines[1] and " is under " in lines[1]
    cards = int(re.search(r"shrunk to (\d+) cards", lines[1]).group(1))
    assert cards <= 3
    data = (tmp_path / "found" / "counterexample.dzn").read_text()
    assert f"n = {cards + 1};" in data  # the project model's data: the deal's cards and the start card
    assert "<html" in (tmp_path / "found" / "counterexample.html").read_text().lower()


@pytest.mark.slow
@needs_minizinc
def test_a_hunt_running_deals_at_once_finds_and_shrinks_the_same_deal(tmp_path, capsys):
    model = tmp_path / "student.mzn"
    model.write_text(black_hole.model_text().replace(PILE_ORDER, ""))
    found = []
    for jobs in ("1", "3"):
        status, lines, _ = grade(capsys, model, "--game", "black-hole", "--hunt", "30", "--seed", "0", "--jobs", jobs,
                                 "--out", str(tmp_path / jobs), "--timeout", "20")
        found.append((status, lines[1].replace(str(tmp_path / jobs), "OUT"),
                      (tmp_path / jobs / "counterexample.dzn").read_text()))
    assert found[0] == found[1] and found[0][0] == 1


@needs_minizinc
def test_the_unbroken_model_passes_a_short_hunt(tmp_path, capsys):
    model = tmp_path / "student.mzn"
    model.write_text(black_hole.model_text())
    status, lines, _ = grade(capsys, model, "--game", "black-hole", "--hunt", "10", "--seed", "1",
                             "--out", str(tmp_path / "found"))
    assert status == 0 and lines[0].startswith("all 10 deals agree (seed 1; ")
    assert not (tmp_path / "found").exists()


@needs_solver("clingo")
def test_an_asp_model_is_graded_and_hunted_too(tmp_path, capsys):
    text = read_text(ROOT / "models" / "asp-black-hole.lp")
    order = ":- play(C, T), above(C, D), not played(D, T - 1).\n"
    assert order in text
    model = tmp_path / "student.lp"
    model.write_text(text.replace(order, "").replace(":- play(C, T), depth(C, K), T <= K.\n", ""))
    status, lines, _ = grade(capsys, model, "--game", "generalised", "--hunt", "10", "--seed", "2",
                             "--out", str(tmp_path))
    assert status == 1 and "illegal: move" in lines[1]
    assert (tmp_path / "counterexample.lp").is_file()


def test_same_seed_same_deals_and_sizes_grow():
    first = list(itertools.islice(posed_deals("black_hole", False, 7), 40))
    assert first == list(itertools.islice(posed_deals("black_hole", False, 7), 40))
    assert first != list(itertools.islice(posed_deals("black_hole", False, 8), 40))
    assert len(first[0].cards) < len(first[-1].cards) or first[0].ranks < first[-1].ranks
    fixed = list(itertools.islice(posed_deals("black_hole", True, 7), 3))
    assert all(deal.game == "black_hole" for deal in fixed)


def test_the_shrinker_only_offers_smaller_or_simpler_deals():
    deal = random_deal(5, 2, 2, 4)
    candidates = list(smaller(deal, fixed=False))
    assert candidates and all(len(c.cards) < len(deal.cards) or c.ranks < deal.ranks or
                              sorted(c.cards) == sorted(deal.cards) and c.cards != deal.cards for c in candidates)
    standard = random_deal(13, 4, 3, 1)
    assert all(c.game == "black_hole" and sorted(c.cards) == sorted(standard.cards)
               for c in smaller(standard, fixed=True))
    star = next(itertools.islice(posed_deals("binary_star", False, 3), 30, None))  # two copies of each card
    reordered = list(smaller(star, fixed=True))
    assert reordered and all(sorted(c.cards) == sorted(star.cards) != list(c.cards) for c in reordered)


@pytest.mark.parametrize("argv, message", [
    (["--game", "black-hole", "--hunt", "many"], "--hunt takes a whole number"),
    (["--game", "black-hole", "--hunt", "0"], "--hunt takes a whole number"),
    (["--hunt", "5"], "--hunt needs the model's game"),
    (["--game", "chess", "--hunt", "5"], "chess"),
    (["--game", "black-hole", "--hunt", "5", "--seed", "-1"], "--seed takes a whole number"),
    (["--game", "black-hole"], "give MODEL --instances DIR, or MODEL --hunt N"),
])
def test_bad_command_lines_are_one_line(tmp_path, capsys, argv, message):
    model = tmp_path / "m.mzn"
    model.write_text("solve satisfy;\n")
    status, lines, err = grade(capsys, model, *argv)
    assert (status, lines) == (2, []) and err.startswith("error: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize("text, message", [
    ("game: chess\n", "chess"), ("game: black_hole\nextra: 1\n", "`game:`, `options:`, `variables:` and `shape:` only"),
    ("game: black_hole\nshape: round\n", "`shape:` is `data`"),
    ("game: black_hole\nvariables: [x]\n", "`variables:` must map names"),
])
def test_bad_game_mappings_are_one_line(tmp_path, capsys, text, message):
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text(text)
    status, lines, err = grade(capsys, tmp_path / "m.mzn", "--mapping", str(mapping), "--instances", str(tmp_path))
    assert (status, lines) == (2, []) and err.startswith(f"error: {mapping}:1: ") and message in err


@needs_minizinc
def test_a_backend_that_is_a_file_is_refused(tmp_path, capsys, standard_deal):
    msc = tmp_path / "evil.msc"
    msc.write_text("{}")
    status, lines, err = grade(capsys, PUBLIC, "--mapping", "minizinc-benchmarks", "--instances", str(standard_deal),
                               "--backend", str(msc))
    assert (status, lines) == (2, []) and "backend" in err and err.count("\n") == 1


@pytest.mark.slow
@needs_minizinc
def test_a_hunt_catches_the_public_model_without_its_king_ace_wrap(tmp_path, capsys):
    model = tmp_path / "nowrap.mzn"
    model.write_text(without_wrap(read_text(PUBLIC)))
    status, lines, _ = grade(capsys, model, "--mapping", "minizinc-benchmarks", "--hunt", "200", "--seed", "5",
                             "--out", str(tmp_path), "--timeout", "10", "--shrink", "10")  # 51 cards: a few orders
    assert status == 1 and lines[0] == f"counterexample: {tmp_path / 'counterexample.dzn'}"
    assert "lost solutions: native wins with" in lines[1]
    assert "layout" in (tmp_path / "counterexample.dzn").read_text()


LOOP = ("\nfunction int: f(int: k) = if k <= 0 then 1 else f(k - 1) + f(k - 1) endif;\n"
        "constraint x[0] = f(80) mod 2;\n")  # MiniZinc evaluates 2^80 calls: it never ends by itself


@needs_minizinc
def test_a_class_is_marked_at_once_and_each_broken_model_costs_only_its_rows(tmp_path, capsys):
    instances = tmp_path / "instances"
    instances.mkdir()
    (instances / "g0.yaml").write_text(write_deal(random_deal(5, 2, 2, 0), "yaml"))
    trap = Deal(((Card(2, 1), Card(3, 0)),), Card(0, 0), 4)  # unsolvable: the wrap card lies under the other
    (instances / "trap.yaml").write_text(write_deal(trap, "yaml"))
    klass = tmp_path / "class"
    (klass / "dana").mkdir(parents=True)
    (klass / "eve").mkdir()
    (klass / "alice.mzn").write_text(black_hole.model_text())
    (klass / "bob.mzn").write_text(black_hole.model_text().replace(PILE_ORDER, ""))
    (klass / "carol.mzn").write_text("\x00 not a model \xff\n")
    (klass / "dana" / "model.lp").write_text(read_text(ROOT / "models" / "asp-black-hole.lp"))
    (klass / "eve" / "a.mzn").write_text(black_hole.model_text())
    (klass / "eve" / "b.mzn").write_text(black_hole.model_text())
    (klass / "frank.mzn").write_text(black_hole.model_text() + LOOP)
    out = tmp_path / "marks"
    status = main(["grade", "--class", str(klass), "--instances", str(instances), "--game", "generalised",
                   "--timeout", "3", "--out", str(out)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert lines[:6] == ["alice: 2/2 correct, 0 wrong, 0 not graded", "bob: 1/2 correct, 1 wrong, 0 not graded",
                         "carol: 0/2 correct, 2 wrong, 0 not graded", "dana: 2/2 correct, 0 wrong, 0 not graded",
                         "eve: 0/2 correct, 2 wrong, 0 not graded", "frank: 0/2 correct, 0 wrong, 2 not graded"]
    marks = json.loads((out / "marks.json").read_text())
    assert len(marks) == 12 and len((out / "marks.csv").read_text().splitlines()) == 13
    bob = {mark["instance"]: mark for mark in marks if mark["student"] == "bob"}
    assert bob["trap"]["verdict"] == "solved" and "illegal" in bob["trap"]["note"]
    assert "2 model files" in next(mark["note"] for mark in marks if mark["student"] == "eve")
    results = json.loads((out / "gradescope" / "bob" / "results.json").read_text())
    assert (results["score"], results["max_score"]) == (1, 2)
    assert [test["status"] for test in results["tests"]] == ["passed", "failed"]
    page = (out / "marks.html").read_text()
    assert page.count("<tr><th>") == 1 + 6 and "2 model files" in page and "\x00" not in page


def broken_model(folder, text: str, old: str, new: str):
    """A student's model: the toolkit's own with one line broken (checked to be there)."""
    assert old in text
    model = folder / "student.mzn"
    model.write_text(text.replace(old, new))
    return model


def hunt_catches(capsys, folder, model, game: str, deals: int, reason: str) -> None:
    """A hunt of at most `deals` finds the broken model's fault and shrinks it to 4 cards at most."""
    status, lines, _ = grade(capsys, model, "--game", game, "--hunt", str(deals), "--out", str(folder))
    assert status == 1 and reason in lines[1]
    assert int(re.search(r"shrunk to (\d+) cards", lines[1]).group(1)) <= 4


@pytest.mark.slow
@needs_minizinc
def test_a_hunt_catches_a_binary_star_model_without_pile_order(tmp_path, capsys):
    model = broken_model(tmp_path, binary_star.model_text(),
                         "constraint forall(p in POSITION where above[p] != -1)(y[above[p]] < y[p]);", "")
    hunt_catches(capsys, tmp_path, model, "binary-star", 40, "is not on top of pile")


def test_binary_star_hunts_pose_two_deck_deals_with_two_foundations():
    deals = list(itertools.islice(posed_deals("binary_star", False, 3), 20))
    assert all(len(deal.foundations) == 2 for deal in deals)
    assert all(len(deal.cards) + 2 == 2 * deal.ranks * len({card.suit for card in (*deal.cards, *deal.foundations)})
               for deal in deals)


@pytest.mark.slow
@needs_minizinc
def test_a_hunt_catches_an_off_by_one_in_lbs_moves(tmp_path, capsys):
    model = broken_model(tmp_path, lbs.model_text(), "actionTo[t] = actionFrom[t] - 3)",
                         "actionTo[t] = actionFrom[t] - 2)")
    hunt_catches(capsys, tmp_path, model, "lbs", 200, "a pile moves 1 or 3 places left")
    assert (tmp_path / "counterexample.dzn").read_text().startswith("cards = [")


@needs_solver("clingo")
def test_an_asp_mapping_names_the_play_atoms(tmp_path, capsys):
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / "g0.yaml").write_text(write_deal(random_deal(5, 2, 2, 0), "yaml"))
    model = tmp_path / "student.lp"
    model.write_text(re.sub(r"\bplay\b", "place", read_text(ROOT / "models" / "asp-black-hole.lp")))
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text("game: generalised\nvariables: {play: place}\n")
    status, lines, _ = grade(capsys, model, "--mapping", str(mapping), "--instances", str(folder))
    assert status == 0 and lines[1].split()[2:4] == ["solved", "correct"]
    status, lines, _ = grade(capsys, model, "--game", "generalised", "--instances", str(folder))
    assert status == 1 and "does not show" in lines[1]


def test_savile_row_lettings_are_renamed_by_whole_name_only():
    text = "language ESSENCE' 1.0\nletting order be [0, 2]\nletting orderly be 3\n"
    assert renamed(text, {"x": "order"}).splitlines()[1:] == ["letting x be [0, 2]", "letting orderly be 3"]


@pytest.mark.slow
@needs_minizinc
@needs_solver("clingo")
def test_a_class_of_every_kind_of_model_is_marked_by_one_command(tmp_path):
    """benchmarks/class_of_models.py's class, one model of each kind (its 30-model run: docs/commands.md):
    a row for every model and instance, each kind graded as it should be."""
    with benchmark_script("class_of_models") as builder:
        expected = builder.make_class(tmp_path / "class", 10)
        builder.make_instances(tmp_path / "instances", 3)
    assert main(["grade", "--class", str(tmp_path / "class"), "--instances", str(tmp_path / "instances"),
                 "--game", "generalised", "--timeout", "30", "--out", str(tmp_path / "marks")]) == 0
    marks = json.loads((tmp_path / "marks" / "marks.json").read_text())
    assert len(marks) == 10 * 3
    for student, grade in expected.items():
        grades = [mark["grade"] for mark in marks if mark["student"] == student]
        assert len(grades) == 3
        assert "WRONG" in grades if grade == "mixed" else set(grades) == {grade}, (student, grades)


def test_students_of_one_name_are_told_apart_and_a_helper_is_no_second_model(tmp_path):
    klass = tmp_path / "class"
    (klass / "ann" / "lib").mkdir(parents=True)
    (klass / "ann" / "model.mzn").write_text('include "lib/order.mzn";\n')
    (klass / "ann" / "lib" / "order.mzn").write_text("% the pile order\n")
    (klass / "ann.mzn").write_text("solve satisfy;\n")
    (klass / "ann.lp").write_text("p.\n")
    (klass / "bob.lp").write_text("p.\n")
    found = {student: (model and model.relative_to(klass).as_posix(), why)
             for student, model, why in student_models(klass)}
    assert found == {"ann": ("ann/model.mzn", ""), "ann.lp": ("ann.lp", ""), "ann.mzn": ("ann.mzn", ""),
                     "bob": ("bob.lp", "")}
