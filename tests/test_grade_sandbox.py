"""A student's model reads nothing but its own files (issue 57 item 2): each trick that hid an include of
the teacher's model from the scanner (after a `%` in a string, in a `/* */` within a string, after `%`
and a carriage return, through a helper file, in a class folder, a clingo `#script` behind a string) or
a model that is a link to it fails to reach it, in a single grade, a class and a hunt. The bypasses are
real: with the sandbox and the scanner both switched off, each one is graded correct; with the scanner
off and the sandbox on (bubblewrap, where it runs), none is."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from patience.cli import main
from patience.commands import grade, solvers  # noqa: F401  (imported before a test patches the names it takes from student)
from patience.formats import write_deal
from patience.generators.deals import random_deal
from patience.generators.mzn import black_hole, lbs
from patience.grading import sandbox, student
from patience.reading import read_text
from patience.runs.process import Limits, descendants, run_process
from tests.helpers import COURSE, ROOT, needs_solver

needs_bubblewrap = pytest.mark.skipif(sandbox.bubblewrap() is None, reason="bubblewrap cannot run here")
PLAY = "# in the sandbox"


def bypasses(teacher_mzn, teacher_lp):
    """name -> (suffix, model text, helper files): each would read the teacher's model."""
    script = ('p("%").\n#script (python)\nimport clingo\ndef main(prg):\n'
              f'    prg.load("{teacher_lp}")\n    prg.ground([("base", [])])\n    prg.solve()\n#end.\n')
    return {
        "percent-in-a-string": (".mzn", f'string: s = "%"; include "{teacher_mzn}";\n', {}),
        "comment-in-a-string": (".mzn", f'string: s = "/*"; include "{teacher_mzn}"; string: t = "*/";\n', {}),
        "percent-then-cr": (".mzn", f'% a note\rinclude "{teacher_mzn}";\n', {}),
        "through-a-helper": (".mzn", 'include "helper.mzn";\n',
                             {"helper.mzn": f'string: s = "%"; include "{teacher_mzn}";\n'}),
        "asp-percent-in-a-string": (".lp", f'p("%"). #include "{teacher_lp}".\n', {}),
        "script-behind-a-string": (".lp", script, {}),
    }


@pytest.fixture
def setting(tmp_path):
    """The teacher's models (correct, outside every student's folder) and a small deal."""
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    (teacher / "model.mzn").write_text(black_hole.model_text())
    (teacher / "model.lp").write_text(read_text(ROOT / "models" / "asp-black-hole.lp"))
    deals = tmp_path / "deals"
    deals.mkdir()
    (deals / "g0.yaml").write_text(write_deal(random_deal(5, 2, 2, 0), "yaml"))
    return tmp_path, bypasses(teacher / "model.mzn", teacher / "model.lp")


def scanner_off(monkeypatch):
    """The include scanner sees nothing: only the operating system stands in the way."""
    monkeypatch.setattr(student, "includes", lambda text, suffix: iter(()))


def write_student(folder, suffix, text, helpers):
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in helpers.items():
        (folder / name).write_text(body)
    (folder / f"model{suffix}").write_text(text)
    return folder / f"model{suffix}"


def graded(tmp_path, capsys, model, *extra):
    status = main(["grade", str(model), "--game", "generalised", "--instances", str(tmp_path / "deals"),
                   "--timeout", "30", *extra])
    return status, capsys.readouterr()


def helpers_read(monkeypatch, folder):
    """With the scanner off, the helpers a model includes are copied by name (as the scanner would)."""
    names = {path.name: read_text(path) for path in folder.iterdir() if path.name != "model.mzn"}
    monkeypatch.setattr(student, "helper_files", lambda model, text, own_folder=True: names)


@needs_solver("minizinc")
@needs_solver("clingo")
@pytest.mark.parametrize("name", ["percent-in-a-string", "comment-in-a-string", "through-a-helper",
                                  "asp-percent-in-a-string"])
def test_unprotected_each_bypass_reaches_the_teachers_model(setting, capsys, monkeypatch, name):
    """The control: no scanner, no sandbox (the run as it was before), and the trick is marked correct.
    (Not the `#script`: the clingo wheel's `python -m clingo` has no Python scripting, so here it fails anyway.)"""
    tmp_path, tricks = setting
    suffix, text, helpers = tricks[name]
    model = write_student(tmp_path / "student", suffix, text, helpers)
    scanner_off(monkeypatch)
    helpers_read(monkeypatch, model.parent)
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: None)
    status, captured = graded(tmp_path, capsys, model)
    assert (status, captured.out.splitlines()[-1][-32:]) == (0, "1 correct, 0 wrong, 0 not graded")


@needs_bubblewrap
@needs_solver("minizinc")
@needs_solver("clingo")
@pytest.mark.parametrize("name", sorted(bypasses("T", "T")))
def test_in_the_sandbox_no_bypass_reaches_the_teachers_model(setting, capsys, monkeypatch, name):
    tmp_path, tricks = setting
    suffix, text, helpers = tricks[name]
    model = write_student(tmp_path / "student", suffix, text, helpers)
    scanner_off(monkeypatch)
    helpers_read(monkeypatch, model.parent)
    status, captured = graded(tmp_path, capsys, model)
    rows = captured.out.splitlines()[1:-1]
    assert status == 1 and len(rows) == 1 and all(" error " in row and "WRONG" in row for row in rows)


@needs_solver("minizinc")
@needs_solver("clingo")
@pytest.mark.parametrize("name", sorted(bypasses("T", "T")))
def test_with_the_scanner_each_bypass_is_refused_before_it_runs(setting, capsys, name):
    tmp_path, tricks = setting
    suffix, text, helpers = tricks[name]
    model = write_student(tmp_path / "student", suffix, text, helpers)
    status, captured = graded(tmp_path, capsys, model)
    assert (status, captured.out, captured.err.count("\n")) == (2, "", 1) and "refused, not run" in captured.err


@needs_solver("minizinc")
def test_a_model_that_is_a_link_to_the_teachers_is_refused(setting, capsys):
    tmp_path, _ = setting
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "model.mzn").symlink_to(tmp_path / "teacher" / "model.mzn")
    for extra in ([], ["--hunt", "2"]):
        status, captured = graded(tmp_path, capsys, folder / "model.mzn", *extra) if not extra else (
            main(["grade", str(folder / "model.mzn"), "--game", "generalised", *extra]), capsys.readouterr())
        assert (status, captured.out, captured.err.count("\n")) == (2, "", 1)
        assert "a link outside the student's folder, refused, not run" in captured.err
    status = main(["grade", str(folder / "model.mzn"), "--instances", str(tmp_path / "deals")])  # the LBS road
    assert status == 2 and "outside the student's folder" in capsys.readouterr().err


@needs_bubblewrap
@needs_solver("minizinc")
def test_in_a_class_no_student_reaches_the_teachers_model(setting, capsys, monkeypatch):
    tmp_path, tricks = setting
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "bob.mzn").write_text(tricks["percent-in-a-string"][1])  # a file in the class folder
    write_student(klass / "dan", *tricks["through-a-helper"])  # a folder of one's own, with a helper
    (klass / "eve.mzn").symlink_to(tmp_path / "teacher" / "model.mzn")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "model.mzn").write_text(black_hole.model_text())
    (klass / "fay").symlink_to(tmp_path / "elsewhere")  # a student folder that is a link out
    scanner_off(monkeypatch)
    helpers_read(monkeypatch, klass / "dan")
    out = tmp_path / "marks"
    assert main(["grade", "--class", str(klass), "--instances", str(tmp_path / "deals"), "--game", "generalised",
                 "--out", str(out), "--timeout", "30"]) == 0
    marks = json.loads((out / "marks.json").read_text())
    grades = {(mark["student"], mark["grade"]) for mark in marks}
    assert grades == {(name, "WRONG") for name in ("bob", "dan", "eve", "fay")}
    assert all(mark["verdict"] == "error" for mark in marks)
    assert all("outside the student's folder" in mark["note"] for mark in marks if mark["student"] in ("eve", "fay"))


@needs_bubblewrap
@needs_solver("minizinc")
def test_a_hunt_of_a_bypass_finds_it_wrong(setting, capsys, monkeypatch):
    tmp_path, tricks = setting
    model = write_student(tmp_path / "student", *tricks["percent-in-a-string"])
    scanner_off(monkeypatch)
    status = main(["grade", str(model), "--game", "generalised", "--hunt", "2", "--shrink", "0",
                   "--out", str(tmp_path / "found")])
    assert status == 1 and "counterexample:" in capsys.readouterr().out


@needs_bubblewrap
def test_the_sandbox_shows_the_system_and_the_scratch_folder_only(tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "mine.txt").write_text("mine\n")
    hidden = [ROOT / "models" / "asp-black-hole.lp", ROOT / "README.md", tmp_path / "secret"]
    (tmp_path / "secret").write_text("the teacher's\n")
    home = os.path.expanduser("~")
    names = " ".join(f"'{path}'" for path in (*hidden, home))  # in the script: the command names no such file
    command = ["/bin/sh", "-c", f"cat mine.txt && for f in {names}; do test -e \"$f\" && echo \"SEEN $f\"; done; "
               "ls /work /root 2>/dev/null | head -1; true"]
    run = run_process(sandbox.confined(command, scratch), Limits(timeout=20), cwd=scratch)
    assert (run.returncode, run.stdout) == (0, "mine\n")
    assert "bubblewrap" in sandbox.protection()


def test_the_guard_ends_every_process_of_a_run_whose_grader_is_killed(tmp_path):
    """Where no sandbox runs: kill -9 of the grader leaves nothing of the solver's running, not even a
    process that left its session (setsid)."""
    code = ("import sys; from patience.grading import sandbox; from patience.runs.process import Limits, run_process; "
            "run_process(sandbox.guarded(['sh', '-c', 'setsid sleep 300 & sleep 300 & wait']), Limits(timeout=300))")
    grader = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    try:
        below = wait_for_sleepers(grader.pid)
    finally:
        grader.kill()
        grader.wait()
    assert below and gone(below)


def wait_for_sleepers(pid, count=2, seconds=20.0):
    """The processes below `pid` once `count` of them are `sleep`s."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        below = descendants([pid])
        if sum(command(child).startswith("sleep") for child in below) >= count:
            return below
        time.sleep(0.1)
    return {}


def command(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in "ZX"
    except OSError:
        return False


def gone(pids, seconds=10.0):
    """Whether all of `pids` have ended within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(map(alive, pids)):
            return True
        time.sleep(0.1)
    return False


HARD = ("array[1..13] of var 1..12: hole;\n"  # pigeonhole: Gecode searches for minutes
        "constraint forall(i, j in 1..13 where i < j)(hole[i] != hole[j]);\n")


@pytest.mark.slow
@needs_solver("minizinc")
def test_kill_9_of_a_class_leaves_no_minizinc_running(tmp_path):
    deals = tmp_path / "deals"
    deals.mkdir()
    (deals / "g0.yaml").write_text(write_deal(random_deal(5, 2, 2, 0), "yaml"))
    klass = tmp_path / "class"
    klass.mkdir()
    for name in ("ann", "bob"):
        (klass / f"{name}.mzn").write_text(black_hole.model_text() + HARD)
    grader = subprocess.Popen([sys.executable, "-m", "patience", "grade", "--class", str(klass), "--instances",
                               str(deals), "--game", "generalised", "--out", str(tmp_path / "marks"),
                               "--timeout", "120"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        below: dict[int, int] = {}
        while time.monotonic() < deadline and sum("fzn-gecode" in command(pid) for pid in below) < 2:
            time.sleep(0.2)
            below = descendants([grader.pid])
        assert sum("fzn-gecode" in command(pid) for pid in below) == 2
    finally:
        os.kill(grader.pid, signal.SIGKILL)
        grader.wait()
    assert gone(below)


@needs_solver("clingo")
@pytest.mark.parametrize(("text", "why"), [
    ("p( :- q.\n", "syntax error"),
    ("p(X) :- q.\n", "unsafe variables"),
    ('#include "rules.lp".\n', "could not be opened"),
])
def test_an_asp_model_that_does_not_compile_is_an_error_row_saying_so(setting, capsys, text, why):
    tmp_path, _ = setting
    model = write_student(tmp_path / "student", ".lp", text, {})
    status, captured = graded(tmp_path, capsys, model)
    row = captured.out.splitlines()[1]
    assert status == 1 and row.split()[2:4] == ["error", "WRONG"]
    assert "the program does not compile:" in row and why in row


@needs_solver("clingo")
@pytest.mark.parametrize("game", [["--game", "lbs"], []])
def test_the_toolkits_asp_model_of_lbs_is_graded_by_clingo(tmp_path, capsys, game):
    """The sheet of an ASP exercise of LBS says `patience grade model.lp --game lbs --instances deals/`."""
    (tmp_path / "deals").mkdir()
    shutil.copy(COURSE / "SolvableInstances" / "LBS5_0.param", tmp_path / "deals")
    shutil.copy(ROOT / "models" / "asp-lbs.lp", tmp_path / "model.lp")
    status = main(["grade", str(tmp_path / "model.lp"), *game, "--instances", str(tmp_path / "deals"),
                   "--timeout", "30"])
    assert (status, capsys.readouterr().out.splitlines()[-1][-32:]) == (0, "1 correct, 0 wrong, 0 not graded")


@needs_solver("clingo")
@pytest.mark.parametrize("where", ["out", "here"])
def test_a_hunt_never_writes_its_counterexample_over_the_model(tmp_path, capsys, monkeypatch, where):
    folder = tmp_path / "student"
    model = write_student(folder, ".lp", read_text(ROOT / "models" / "asp-black-hole.lp"), {})
    model = model.rename(folder / "counterexample.lp")
    before = model.read_text()
    extra = ["--out", str(folder)] if where == "out" else []
    monkeypatch.chdir(folder)
    status = main(["grade", str(model), "--game", "generalised", "--hunt", "5", *extra])
    captured = capsys.readouterr()
    assert (status, captured.out, captured.err.count("\n")) == (2, "", 1)
    assert "over the input" in captured.err and model.read_text() == before


@pytest.mark.parametrize("where", ["in-the-class", "a-student", "the-instances", "in-the-instances"])
def test_a_class_never_writes_its_marks_into_the_class_or_the_instances(setting, capsys, where):
    tmp_path, _ = setting
    klass = tmp_path / "class"
    (klass / "ann").mkdir(parents=True)
    (klass / "ann" / "model.mzn").write_text(black_hole.model_text())
    out = {"in-the-class": klass / "marks", "a-student": klass / "ann", "the-instances": tmp_path / "deals",
           "in-the-instances": tmp_path / "deals" / "marks"}[where]
    status = main(["grade", "--class", str(klass), "--instances", str(tmp_path / "deals"), "--game", "generalised",
                   "--out", str(out)])
    captured = capsys.readouterr()
    assert (status, captured.out, captured.err.count("\n")) == (2, "", 1)
    assert "write the marks elsewhere" in captured.err
    assert not (out / "marks.csv").exists()


def test_patience_solvers_says_which_protection_grading_has(monkeypatch):
    for lines in (solvers.table_lines([], 100), solvers.verbose_lines([], 100)):  # the listing, without its solvers
        said = " ".join(" ".join(lines).split())
        assert f"students' models (patience grade) run in {sandbox.protection()}" in said
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: None)  # what --verbose and the table say without one
    said = " ".join(" ".join(solvers.grading_lines(100)).split())
    assert "run in a scratch copy" in said and "no sandbox (bubblewrap" in said


@needs_bubblewrap
@needs_solver("minizinc")
def test_the_lbs_minizinc_road_is_sandboxed_too(tmp_path, capsys, monkeypatch):
    (tmp_path / "teacher.mzn").write_text(lbs.model_text())
    (tmp_path / "instances").mkdir()
    shutil.copy(COURSE / "SolvableInstances" / "LBS5_0.param", tmp_path / "instances")
    model = write_student(tmp_path / "student", ".mzn", f'string: s = "%"; include "{tmp_path / "teacher.mzn"}";\n',
                          {})
    scanner_off(monkeypatch)
    status = main(["grade", str(model), "--instances", str(tmp_path / "instances")])
    row = capsys.readouterr().out.splitlines()[1]
    assert status == 1 and row.split()[2:4] == ["error", "WRONG"]
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: None)  # the control: unprotected, it is correct
    assert main(["grade", str(model), "--instances", str(tmp_path / "instances")]) == 0
    assert "1 correct, 0 wrong" in capsys.readouterr().out
