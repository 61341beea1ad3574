"""Mark a class of student models at once: a class folder of N models (copies of the toolkit's
MiniZinc and ASP models of generalised Black Hole, some deliberately broken, some crashing, one
looping, one printing garbage, one reading a file outside its folder, one folder holding two
models) marked by one `patience grade --class` command on a few small deals; prints the command,
its wall time and the rows written (docs/commands.md gives the figures of a class of 30).

    nice .venv/bin/python benchmarks/class_of_models.py --models 30 --out /tmp/class30
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PILE_ORDER = "constraint forall(c in PILECARD where above[c] != 0)(y[above[c]] < y[c]);"
ASP_ORDER = ":- play(C, T), above(C, D), not played(D, T - 1).\n"
LOOP = ("\nfunction int: f(int: k) = if k <= 0 then 1 else f(k - 1) + f(k - 1) endif;\n"
        "constraint x[0] = f(80) mod 2;\n")  # 2^80 calls: MiniZinc never ends by itself

GRADES = ("correct", "WRONG", "-")
MORE_BROKEN = ("no-pile-order", "asp-no-pile-order", "crashing", "syntax-error")


def kinds() -> dict[str, tuple[str, str, str]]:
    """kind -> (file name in the student's folder, its text, the grade each row should get)."""
    from patience.generators.mzn import black_hole

    mzn, asp = black_hole.model_text(), (ROOT / "models" / "asp-black-hole.lp").read_text()
    assert PILE_ORDER in mzn and ASP_ORDER in asp and "#show play/2." in asp
    return {
        "correct-mzn": ("model.mzn", mzn, "correct"),
        "correct-asp": ("model.lp", asp, "correct"),
        "no-pile-order": ("model.mzn", mzn.replace(PILE_ORDER, ""), "mixed"),
        "syntax-error": ("model.mzn", mzn.replace("satisfy;", "satisfy"), "WRONG"),
        "looping": ("model.mzn", mzn + LOOP, "-"),
        "garbage": ("model.mzn", garbage(mzn), "mixed"),  # right on the unsolvable trap: nothing to show
        "outside-include": ("model.mzn", 'include "/etc/hostname";\n' + mzn, "WRONG"),
        "crashing": ("model.mzn", mzn + '\nconstraint assert(false, "the student gave up");\n', "WRONG"),
        "asp-no-pile-order": ("model.lp", asp.replace(ASP_ORDER, "").replace(":- play(C, T), depth(C, K), T <= K.\n",
                                                                             ""), "mixed"),
        "two-models": ("model.mzn", mzn, "WRONG"),  # and a second model beside it
    }


def garbage(mzn: str) -> str:
    """The model with its play order `x` shown as numbers no deal has (its own order renamed x0)."""
    import re

    renamed = re.sub(r"\bx\b", "x0", mzn)
    return renamed + "\narray[CARD] of var int: x = array1d(CARD, [x0[i] * 7919 + 1000003 | i in CARD]);\n"


def make_class(folder: Path, models: int) -> dict[str, str]:
    """The class folder: student NN-KIND/ for NN in 1..models, the kinds in turn (the first ten are one
    of each); student -> the grade every row of theirs should get (`mixed`: some rows wrong)."""
    made = {}
    table = kinds()
    names = list(table)
    for number in range(1, models + 1):
        if number <= len(names):
            kind = names[number - 1]
        elif number % 5 == 0:  # more broken ones among the copies
            kind = MORE_BROKEN[number // 5 % len(MORE_BROKEN)]
        else:
            kind = ("correct-mzn", "correct-asp")[number % 2]
        student = f"s{number:02d}-{kind}"
        file_name, text, grade = table[kind]
        (folder / student).mkdir(parents=True)
        (folder / student / file_name).write_text(text)
        if kind == "two-models":
            (folder / student / "other.mzn").write_text(text)
        made[student] = grade
    return made


def make_instances(folder: Path, count: int) -> None:
    """Small generalised deals every model decides in a moment, one a trap for the broken ones."""
    from patience.cards import Card
    from patience.deal import Deal
    from patience.formats import write_deal
    from patience.generators.deals import random_deal

    folder.mkdir(parents=True)
    for seed in range(count - 1):
        (folder / f"g{seed}.yaml").write_text(write_deal(random_deal(5, 2, 2, seed), "yaml"))
    trap = Deal(((Card(2, 1), Card(3, 0)),), Card(0, 0), 4)  # unsolvable: the wrap card lies under the other
    (folder / "trap.yaml").write_text(write_deal(trap, "yaml"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=30)
    parser.add_argument("--instances", type=int, default=5)
    parser.add_argument("--timeout", default="5")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--out", type=Path, required=True, help="a new folder: class/, instances/, marks/")
    args = parser.parse_args()
    make_class(args.out / "class", args.models)
    make_instances(args.out / "instances", args.instances)
    command = [str(Path(sys.executable).parent / "patience"), "grade", "--class", str(args.out / "class"),
               "--instances", str(args.out / "instances"), "--game", "generalised", "--timeout", args.timeout,
               "--jobs", args.jobs, "--out", str(args.out / "marks")]
    print("$", shlex.join(command))
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - started
    print(done.stdout, end="")
    print(done.stderr, end="", file=sys.stderr)
    marks = json.loads((args.out / "marks" / "marks.json").read_text()) if done.returncode == 0 else []
    students = {mark["student"] for mark in marks}
    counts = ", ".join(f"{grade} {sum(mark['grade'] == grade for mark in marks)}" for grade in GRADES)
    print(f"exit {done.returncode}; {seconds:.1f} s; {len(marks)} rows for {len(students)} students x "
          f"{args.instances} instances; grades: {counts}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
