"""A student's model that would read a file outside its folder (MiniZinc's `include` of an absolute or
`..` path, clingo's `#include` of one or a `#script`) is refused before it runs: one line and exit 2
for one model, its own rows in a class. Before, MiniZinc read `include "/abs/teacher.mzn";` and the
model that was nothing but that line graded correct."""

from __future__ import annotations

import json
import shutil

import pytest

from patience.cards import Card
from patience.cli import main
from patience.deal import Deal
from patience.formats import write_deal
from patience.generators.deals import random_deal
from patience.generators.mzn import black_hole, lbs
from patience.grading.student import outside_reads
from patience.reading import read_text
from tests.helpers import COURSE, ROOT, needs_solver


@pytest.mark.parametrize(("text", "suffix", "found"), [
    ('include "/home/teacher/reference.mzn";\n', ".mzn", (1, "'/home/teacher/reference.mzn'")),
    ('int: n;\ninclude   "../reference.mzn";\n', ".mzn", (2, "'../reference.mzn'")),
    ('include "lib/../../x.mzn";\n', ".mzn", (1, "'lib/../../x.mzn'")),
    ('include "~/x.mzn";\n', ".mzn", (1, "'~/x.mzn'")),
    ('% a note\n#include "/tmp/facts.lp".\n', ".lp", (2, "'/tmp/facts.lp'")),
    ("#include <../x.lp>.\n", ".lp", (1, "'../x.lp'")),
    ('#script (python)\nimport os\n#end.\n', ".lp", (1, "#script")),
])
def test_a_file_named_outside_the_folder_is_found_with_its_line(text, suffix, found):
    line, why = outside_reads(text, suffix)
    assert (line, found[1] in why) == (found[0], True) and "refused" in why


@pytest.mark.parametrize(("text", "suffix"), [
    ('include "globals.mzn";\ninclude "alldifferent.mzn";\n', ".mzn"),  # the library's own files
    ('% include "/etc/passwd";\n/* include "../x.mzn"; */\nint: n;\n', ".mzn"),  # comments only
    ("#include <incmode>.\n", ".lp"),
    ('%* #include "/x.lp". *%\np.\n', ".lp"),
    ("given n : int\n", ".eprime"),
])
def test_library_includes_and_comments_are_no_outside_reads(text, suffix):
    assert outside_reads(text, suffix) is None


def test_one_model_that_includes_an_outside_file_is_one_line_and_exit_2(tmp_path, capsys):
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / "g0.yaml").write_text(write_deal(random_deal(5, 2, 2, 0), "yaml"))
    reference = tmp_path / "reference.mzn"
    reference.write_text("% the teacher's model\n")
    model = tmp_path / "student" / "model.mzn"
    model.parent.mkdir()
    model.write_text(f'include "{reference}";\n')
    status = main(["grade", str(model), "--game", "generalised", "--instances", str(folder)])
    captured = capsys.readouterr()
    assert (status, captured.out) == (2, "") and captured.err.count("\n") == 1
    assert f"model.mzn:1: includes '{reference}', outside its folder" in captured.err
    model.write_text('include "../reference.mzn";\n')  # the LBS grader's road too
    status = main(["grade", str(model), "--instances", str(folder)])
    assert status == 2 and "outside its folder" in capsys.readouterr().err


def test_in_a_class_an_outside_read_costs_only_that_students_rows(tmp_path, capsys):
    instances = tmp_path / "instances"
    instances.mkdir()
    for seed in (0, 1):
        (instances / f"g{seed}.yaml").write_text(write_deal(random_deal(5, 2, 2, seed), "yaml"))
    klass = tmp_path / "class"
    (klass / "carol").mkdir(parents=True)
    (klass / "ann.mzn").write_text('include "/etc/hostname";\n')
    (klass / "bob.lp").write_text('#script (python)\ndef main(prg): open("/etc/passwd")\n#end.\n')
    (klass / "carol" / "model.lp").write_text('#include "../bob.lp".\n')
    out = tmp_path / "marks"
    status = main(["grade", "--class", str(klass), "--instances", str(instances), "--game", "generalised",
                   "--out", str(out)])
    assert status == 0
    marks = json.loads((out / "marks.json").read_text())
    assert [(mark["student"], mark["grade"]) for mark in marks] == [(name, "WRONG") for name in
                                                                    ("ann", "ann", "bob", "bob", "carol", "carol")]
    assert all("refused, not run" in mark["note"] for mark in marks)
    assert "#script" in marks[2]["note"] and "'../bob.lp'" in marks[4]["note"]


PILE_ORDER = "constraint forall(c in PILECARD where above[c] != 0)(y[above[c]] < y[c]);"


def small_deals(folder, seeds=(0, 1)):
    folder.mkdir()
    for seed in seeds:
        (folder / f"g{seed}.yaml").write_text(write_deal(random_deal(5, 2, 2, seed), "yaml"))
    return folder


def split_model(folder):
    """The toolkit's MiniZinc model with its pile order in lib/order.mzn, which includes lib/rest.mzn
    (MiniZinc looks for an include beside the file that names it)."""
    text = black_hole.model_text()
    assert PILE_ORDER in text
    (folder / "lib").mkdir(parents=True)
    (folder / "model.mzn").write_text(text.replace(PILE_ORDER, 'include "lib/order.mzn";'))
    (folder / "lib" / "order.mzn").write_text('include "rest.mzn";\n')
    (folder / "lib" / "rest.mzn").write_text(PILE_ORDER + "\n")
    return folder / "model.mzn"


@needs_solver("minizinc")
def test_a_model_that_includes_helper_files_of_its_own_folder_grades(tmp_path, capsys):
    deals = small_deals(tmp_path / "instances", (0,))
    trap = Deal(((Card(2, 1), Card(3, 0)),), Card(0, 0), 4)  # unsolvable: played without pile order, won
    (deals / "trap.yaml").write_text(write_deal(trap, "yaml"))
    model = split_model(tmp_path / "student")
    status = main(["grade", str(model), "--game", "generalised", "--instances", str(deals)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0 and lines[-1].endswith("2 correct, 0 wrong, 0 not graded")
    (tmp_path / "student" / "lib" / "rest.mzn").write_text("\n")  # the helper is what makes it right (empty: taken)
    status = main(["grade", str(model), "--game", "generalised", "--instances", str(deals), "--timeout", "20"])
    assert status == 1 and "illegal" in capsys.readouterr().out


@needs_solver("clingo")
def test_an_asp_model_that_includes_its_rules_grades(tmp_path, capsys):
    deals = small_deals(tmp_path / "instances")
    text = read_text(ROOT / "models" / "asp-black-hole.lp")
    order = ":- play(C, T), above(C, D), not played(D, T - 1).\n"
    assert order in text
    (tmp_path / "student").mkdir()
    (tmp_path / "student" / "model.lp").write_text(text.replace(order, '#include "order.lp".\n'))
    (tmp_path / "student" / "order.lp").write_text(order)
    status = main(["grade", str(tmp_path / "student" / "model.lp"), "--game", "generalised", "--instances", str(deals)])
    assert status == 0 and capsys.readouterr().out.splitlines()[-1].endswith("2 correct, 0 wrong, 0 not graded")


@needs_solver("minizinc")
def test_the_lbs_minizinc_road_copies_helper_files_too(tmp_path, capsys):
    text = lbs.model_text()
    line = next(line for line in text.splitlines() if line.startswith("constraint"))
    (tmp_path / "student").mkdir()
    (tmp_path / "student" / "lbs.mzn").write_text(text.replace(line, 'include "moves.mzn";', 1))
    (tmp_path / "student" / "moves.mzn").write_text(line + "\n")
    instances = tmp_path / "instances"
    instances.mkdir()
    shutil.copy(COURSE / "SolvableInstances" / "LBS5_0.param", instances)
    status = main(["grade", str(tmp_path / "student" / "lbs.mzn"), "--instances", str(instances)])
    assert status == 0 and "1 correct, 0 wrong" in capsys.readouterr().out


@pytest.mark.parametrize("case", ["link", "helper-outside", "script-in-helper", "nul"])
def test_a_helper_that_reaches_outside_is_refused_naming_its_line(tmp_path, capsys, case):
    deals = small_deals(tmp_path / "instances", (0,))
    folder = tmp_path / "student"
    folder.mkdir()
    (tmp_path / "secret.mzn").write_text("% the teacher's\n")
    model = folder / "model.mzn"
    model.write_text('int: n;\ninclude "helper.mzn";\n')
    helper = folder / "helper.mzn"
    if case == "link":
        helper.symlink_to(tmp_path / "secret.mzn")
        where, why = f"{model}:2: ", "'helper.mzn', a link to a file outside its folder"
    elif case == "helper-outside":
        helper.write_text(f'% mine\ninclude "{tmp_path / "secret.mzn"}";\n')
        where, why = f"{helper}:2: ", "outside its folder"
    elif case == "script-in-helper":
        model = folder / "model.lp"
        model.write_text('#include "helper.lp".\n')
        helper = folder / "helper.lp"
        helper.write_text('#script (python)\nimport os\n#end.\n')
        where, why = f"{helper}:1: ", "#script"
    else:
        model.write_text('include "a\x00b.mzn";\n')
        where, why = f"{model}:1: ", "not a file name"
    status = main(["grade", str(model), "--game", "generalised", "--instances", str(deals)])
    captured = capsys.readouterr()
    assert (status, captured.out) == (2, "") and captured.err.count("\n") == 1
    assert captured.err.startswith(f"error: {where}") and why in captured.err


@needs_solver("minizinc")
def test_in_a_class_only_a_student_with_a_folder_of_their_own_includes_its_files(tmp_path, capsys):
    deals = small_deals(tmp_path / "instances", (0,))
    klass = tmp_path / "class"
    split_model(klass / "ann")
    (klass / "bob.mzn").write_text(black_hole.model_text().replace(PILE_ORDER, 'include "carol.mzn";'))
    (klass / "carol.mzn").write_text(PILE_ORDER + "\n")  # another student's file beside bob's
    out = tmp_path / "marks"
    assert main(["grade", "--class", str(klass), "--instances", str(deals), "--game", "generalised",
                 "--out", str(out)]) == 0
    marks = {mark["student"]: mark for mark in json.loads((out / "marks.json").read_text())}
    assert marks["ann"]["grade"] == "correct"
    assert marks["bob"]["grade"] == "WRONG" and "not in a folder of its own" in marks["bob"]["note"]
