"""A student's model that would read a file outside its folder (MiniZinc's `include` of an absolute or
`..` path, clingo's `#include` of one or a `#script`) is refused before it runs: one line and exit 2
for one model, its own rows in a class. Before, MiniZinc read `include "/abs/teacher.mzn";` and the
model that was nothing but that line graded correct."""

from __future__ import annotations

import json

import pytest

from patience.cli import main
from patience.formats import write_deal
from patience.generators.deals import random_deal
from patience.grading.student import outside_reads


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
