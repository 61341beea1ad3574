"""Marking a class at once: every student's model (a file, or a subfolder holding one model) graded
on the same deals, in parallel, each run in its own scratch folder under the runner's limits. A
model that crashes, loops or prints garbage costs its own rows; nothing a student hands in stops
the class. Written: one row per student and instance (CSV and JSON) and Gradescope's
`results.json` per student (the autograder format: score, max_score, one test per instance), and
a summary page (`marks.html`)."""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import os
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from patience.errors import InputError, UsageError, printable
from patience.grading.student import (
    SOLVERS,
    GameMapping,
    NativeTruth,
    StudentModel,
    clipped,
    grade_result,
    includes,
    read_deals,
)
from patience.grading.table import CORRECT, ERROR, UNGRADED, WRONG, Graded
from patience.outputs import check_folder, write_files
from patience.pages.replay import environment
from patience.reading import read_text
from patience.runs.pool import in_order

FIELDS = ("student", "instance", "cards", "verdict", "grade", "nodes", "seconds", "note")


@dataclass(frozen=True)
class Mark:
    """One student's row for one instance."""

    student: str
    instance: str
    cards: int
    verdict: str
    grade: str
    nodes: int | None
    seconds: float | None
    note: str


def student_models(folder: Path) -> list[tuple[str, Path | None, str]]:
    """(student, model or None, why none) for every model file or subfolder directly under `folder`."""
    if not folder.is_dir():
        raise InputError(str(folder), None, "not a folder (the class: one model file or subfolder per student)")
    found: list[tuple[str, Path | None, str]] = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_file() and entry.suffix in SOLVERS:
            found.append((entry.stem, entry, ""))
        elif entry.is_dir():
            files = sorted(path for path in entry.rglob("*") if path.suffix in SOLVERS and path.is_file())
            models = [path for path in files if path not in included(files)]  # a helper is no model
            why = "" if len(models) == 1 else f"{len(models)} model files ({', '.join(SOLVERS)}) in the folder"
            found.append((entry.name, models[0] if len(models) == 1 else None, why))
    if not found:
        raise InputError(str(folder), None, f"no student models ({' '.join(SOLVERS)} files or subfolders)")
    named = Counter(student for student, _, _ in found)  # ann.mzn beside ann.lp or ann/: each named in full
    return [(model.name if named[student] > 1 and model is not None and model.parent == folder else student, model, why)
            for student, model, why in found]


def included(files: list[Path]) -> set[Path]:
    """The files among `files` that one of them includes (a student's helper files, beside the model)."""
    found: set[Path] = set()
    for path in files:
        try:
            text = read_text(path)
        except InputError:  # a file that cannot be read includes nothing; as a model it is graded wrong
            continue
        found.update(Path(os.path.normpath(path.parent / name)) for _, name in includes(text, path.suffix)
                     if name is not None)
    return found


def mark_student(student: str, model: Path | None, why: str, deals: list[tuple[str, Any]], mapping: GameMapping,
                 backend: str | None, native: NativeTruth, timeout: float, own_folder: bool = True,
                 home: Path | None = None) -> list[Mark]:
    """Every instance's row for one student; a model that cannot be run at all is an error on each.
    `own_folder`: the model lies in the student's own subfolder (not beside the others' models);
    `home`: the folder the model may not leave (a link out of it is refused)."""
    try:
        if model is None:
            raise UsageError(why)
        runner = StudentModel(model, mapping, backend, own_folder, home)
        rows = [grade_result(name, deal, runner.run(deal, timeout), native) for name, deal in deals]
    except (InputError, UsageError, OSError) as error:
        note = clipped(str(error))
        rows = [Graded(name, len(getattr(deal, "cards", ())), ERROR, WRONG, note) for name, deal in deals]
    return [Mark(student, row.instance, row.cards, row.verdict, row.grade, row.nodes,
                 None if row.solve_time is None else round(row.solve_time, 3), row.note) for row in rows]


def gradescope(marks: list[Mark]) -> dict[str, object]:
    """Gradescope's results.json: one test per instance, a point for each correct answer."""
    tests = [{"name": mark.instance, "score": int(mark.grade == CORRECT), "max_score": 1,
              "status": "passed" if mark.grade == CORRECT else "failed",
              "output": f"{mark.verdict}, {mark.grade}: {mark.note}"} for mark in marks]
    return {"score": sum(int(mark.grade == CORRECT) for mark in marks), "max_score": len(tests), "tests": tests}


def mark_class(folder: Path, instances: Path, mapping: GameMapping, backend: str | None, native: NativeTruth,
               timeout: float, jobs: int, out: Path) -> list[Mark]:
    """Mark every student, write the CSV, JSON and Gradescope files into `out`; the rows, students in order."""
    students = printable_names(student_models(folder))
    deals = [(printable(path.stem), deal) for path, deal in read_deals(instances, mapping.game)]  # read before any run
    check_folder(out)  # checked before any model runs; written whole at the end
    for _, deal in deals:  # the ground truth once, before the students run in parallel
        native(deal)

    def mark_one(entry: tuple[str, Path | None, str]) -> list[Mark]:
        student, model, why = entry
        own = model is not None and model.parent != folder
        home = Path(os.path.realpath(folder))  # a student's subfolder, or the class's for a file beside the others'
        if model is not None and own:
            home /= model.relative_to(folder).parts[0]
        return mark_student(student, model, why, deals, mapping, backend, native, timeout, own, home)

    with contextlib.closing(in_order(mark_one, students, jobs)) as marked:  # a stop ends every model's run at once
        per_student = [rows for _, rows in marked]
    marks = [mark for rows in per_student for mark in rows]
    table = io.StringIO()
    writer = csv.DictWriter(table, FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(asdict(mark) for mark in marks)
    files = {"marks.csv": table.getvalue(),
             "marks.json": json.dumps([asdict(mark) for mark in marks], indent=1) + "\n",
             "marks.html": summary_page(printable(folder.name), [name for name, _ in deals], students, per_student)}
    for (student, _, _), rows in zip(students, per_student, strict=True):
        files[f"gradescope/{folder_name(student)}/results.json"] = json.dumps(gradescope(rows), indent=1) + "\n"
    write_files(out, files)  # every mark or none
    return marks


def printable_names(students: list[tuple[str, Path | None, str]]) -> list[tuple[str, Path | None, str]]:
    """The students under names that print as one line in every file and summary (a folder's name from
    a zip may hold a newline, an escape sequence or a byte no encoding reads); two names that print
    the same are told apart by their place, so that no student's marks land in another's."""
    shown = [printable(student) for student, _, _ in students]
    count = Counter(shown)
    return [(name if count[name] == 1 else f"{name} ({place})", model, why)
            for place, (name, (_, model, why)) in enumerate(zip(shown, students, strict=True), 1)]


NAME_BYTES = 255  # the longest file name most file systems take


def folder_name(student: str) -> str:
    """A student's printable name as the name of their Gradescope folder: a name that grew past what a
    file system takes (each byte of a Latin-1 name is four characters escaped) keeps its start and a
    hash of the whole, so that it is written, and told apart from the others."""
    if len(student.encode()) <= NAME_BYTES:
        return student
    digest = hashlib.sha256(student.encode()).hexdigest()[:12]
    return student.encode()[:NAME_BYTES - 13].decode(errors="ignore") + "-" + digest


def summary_page(title: str, instances: list[str], students: list[tuple[str, Path | None, str]],
                 per_student: list[list[Mark]]) -> str:
    """The class at a glance: a row per student, a column per instance (names are escaped text)."""
    rows = [{"name": student, "score": sum(mark.grade == CORRECT for mark in marks), "marks": marks}
            for (student, _, _), marks in zip(students, per_student, strict=True)]
    return environment().get_template("class_marks.html.j2").render(title=title, instances=instances, students=rows)


def summary_lines(marks: list[Mark]) -> list[str]:
    """One line per student: correct, wrong and ungraded counts."""
    students = dict.fromkeys(mark.student for mark in marks)
    lines = []
    for student in students:
        own = [mark for mark in marks if mark.student == student]
        count = {grade: sum(mark.grade == grade for mark in own) for grade in (CORRECT, WRONG, UNGRADED)}
        lines.append(f"{student}: {count[CORRECT]}/{len(own)} correct, {count[WRONG]} wrong, "
                     f"{count[UNGRADED]} not graded")
    return lines
