"""`patience grade`: grade a student's model (LBS in Essence Prime or MiniZinc, or any game through a
game mapping), a folder of its Savile Row results, or hunt for the deal the model gets wrong."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from patience.arguments import Subcommands
from patience.errors import UsageError
from patience.exit_codes import GRADED_WRONG, ExitCode
from patience.grading import student as games
from patience.grading.classroom import mark_class, summary_lines
from patience.grading.hunt import SHRINK_RUNS, hunt_model
from patience.grading.lbs_minizinc import COLUMNS, grade_minizinc
from patience.grading.lbs_savilerow import NativeVerdicts, grade_model, grade_results
from patience.grading.table import SAVILE_ROW_COLUMNS, WRONG, Graded, table
from patience.lbs.solution import read_mapping
from patience.limits import jobs, seconds
from patience.names import LBS, family_of, game_name
from patience.outputs import check_folder
from patience.reading import small_int
from patience.runners.minizinc import DEFAULT_BACKEND

MAX_HUNT = 100_000  # deals one hunt may pose


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "grade", help="grade a student's model of any game (or a folder of Savile Row results); hunt for a "
                      "deal it gets wrong",
        description="Run MODEL on every deal under --instances: a MiniZinc .mzn model through MiniZinc "
                    "(--backend), an Essence Prime .eprime model through Savile Row + Minion, or an ASP .lp "
                    "program through clingo; or read the "
                    ".info/.solution files already under --results; replay every solution, check every "
                    "'no solution' with the native solver, print a table. Exit 1 if any answer is wrong. "
                    "An lbs model needs no --game; a model of another game names it with --game or in "
                    "its --mapping (`--mapping minizinc-benchmarks`: the public Black Hole model). "
                    "--hunt N poses N seeded random deals instead and stops at the first the model gets "
                    "wrong, shrinks it, writes it in the model's data format with a replay page of the "
                    "right answer and prints `counterexample: FILE` (exit 1); exit 0 if all N agree. Each model "
                    "runs from a scratch copy of its own files, in a sandbox that reads nothing else where "
                    "bubblewrap runs here (`patience solvers` says which).")
    parser.add_argument("model", nargs="?", type=Path, help="the student's model")
    parser.add_argument("--instances", type=Path, help="folder of instances (deals) to run the model on")
    parser.add_argument("--results", type=Path, help="folder of .param files with Savile Row's .info/.solution")
    parser.add_argument("--mapping", type=Path,
                        help="YAML: lbs `from: VAR`, `to: VAR`, `first_position: 1`; any game: `game: NAME`, "
                             "`options: {formulation: benchmark}`, `variables: {x: VAR}` (x: the play order)")
    parser.add_argument("--game", help="the game the model plays (default: lbs, or the mapping's game)")
    parser.add_argument("--hunt", metavar="N", help="pose N random deals and stop at the first wrong answer")
    parser.add_argument("--seed", default="0", help="the hunt's seed: same seed, same deals (default 0)")
    parser.add_argument("--shrink", metavar="RUNS", default=None,
                        help=f"the most runs of the model the hunt's shrinker makes (default {SHRINK_RUNS}; a "
                             "count, not a clock: the same counterexample on any machine; 0 keeps the deal found)")
    parser.add_argument("--class", dest="klass", type=Path, metavar="FOLDER",
                        help="mark a class: one model file or subfolder per student, each graded on --instances; "
                             "writes marks.csv, marks.json, marks.html and gradescope/STUDENT/results.json into --out")
    parser.add_argument("--jobs", type=jobs, default=None,
                        help="students marked at once with --class (default 2), or deals run at once with --hunt or "
                             "--instances (default 1; the same rows and the same counterexample for any number)")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the hunt's counterexample (default: the current folder) or the class's "
                             "marks (default: marks)")
    parser.add_argument("--timeout", type=seconds, default=60.0, help="seconds per instance (default 60)")
    parser.add_argument("--native-timeout", type=seconds, default=120.0,
                        help="seconds the native solver may take to check one 'no solution' (default 120)")
    levels = parser.add_mutually_exclusive_group()
    for level in (0, 1, 2, 3):
        levels.add_argument(f"-O{level}", dest="level", action="store_const", const=level,
                            help=f"Savile Row -O{level}" + (" (default)" if level == 2 else ""))
    parser.add_argument("--backend", default=None,
                        help=f"the solver behind MiniZinc, for a .mzn model (default {DEFAULT_BACKEND})")
    parser.set_defaults(handler=run, level=2)


def game_mapping(args: argparse.Namespace) -> games.GameMapping | None:
    """The game mapping the command line names (None: the LBS coursework grader)."""
    mapping = None
    if args.mapping is not None:
        data, source = games.mapping_data(args.mapping)
        if games.is_game_mapping(data):
            mapping = games.read_game_mapping(data, source)
    if args.game is not None:
        named = game_name(args.game)
        if mapping is not None and mapping.game is not None and family_of(mapping.game) != family_of(named):
            raise UsageError(f"--game {named} but the mapping is for {mapping.game}")
        if mapping is not None:
            mapping = replace(mapping, game=mapping.game or named)
        elif family_of(named) != LBS or args.hunt is not None or _asp(args):
            mapping = games.GameMapping(named)
    if mapping is None and args.hunt is not None:
        raise UsageError("--hunt needs the model's game: give --game or a --mapping that names it")
    if mapping is None and (args.klass is not None or _asp(args)):  # an ASP model of LBS: clingo, as any game's
        mapping = games.GameMapping(LBS)
    return mapping


def _asp(args: argparse.Namespace) -> bool:
    """An ASP model, which the Savile Row and MiniZinc graders of LBS cannot run: clingo runs it."""
    return args.model is not None and args.model.suffix == ".lp"


def check_hunt_out(out: Path, student: games.StudentModel, mapping: Path | None) -> None:
    """The hunt writes `counterexample.*` into `out` (its data and a page): never over an input, such as a
    model or helper named `counterexample.lp` in that folder. Checked before the hunt, with `out`."""
    check_folder(out)
    inputs = [student.path, *(student.path.parent / name for name in student.solver.beside),
              *([mapping] if mapping is not None and mapping.is_file() else [])]
    for given in inputs:
        if given.name.startswith("counterexample.") and (out / given.name).resolve() == given.resolve():
            raise UsageError(f"--out {out}: the hunt writes counterexample.* there, over the input {given}: "
                             "give another --out or rename the file")


def check_class_out(out: Path, klass: Path, instances: Path) -> None:
    """The marks go neither into the class's folder (a student's) nor into the instances (read as deals)."""
    check_folder(out)
    target = out.resolve()
    for folder, what in ((klass, "the class's folder"), (instances, "the instances' folder")):
        source = folder.resolve()
        if target == source or source in target.parents:
            raise UsageError(f"--out {out} lies in {what} {folder}: write the marks elsewhere")


def _count(text: str, option: str, low: int) -> int:
    value = small_int(text)
    if value is None or value < low or option in ("--hunt", "--shrink") and value > MAX_HUNT:
        raise UsageError(f"{option} takes a whole number from {low}, not {text[:60]!r}")
    return value


def run(args: argparse.Namespace) -> int:
    if args.shrink is not None and args.hunt is None:
        raise UsageError("--shrink RUNS bounds the shrinker of a --hunt: give --hunt N too")
    mapping = game_mapping(args)
    if mapping is not None:
        return run_game(args, mapping)
    return _printed(*graded(args, None))


def graded(args: argparse.Namespace, mapping: games.GameMapping | None) -> tuple[list[Graded], tuple[str, str, str]]:
    """The rows (and their three figures' columns) of a model graded on --instances, or of Savile Row's
    --results: `patience grade` prints them, `patience.grade` returns them."""
    if mapping is not None:
        if args.model is None or args.results is not None:
            raise UsageError("give MODEL with --instances DIR or --hunt N (--results is for LBS Savile Row files)")
        if args.instances is None:
            raise UsageError("give MODEL --instances DIR, or MODEL --hunt N")
        student = games.StudentModel(args.model, mapping, args.backend)
        native_truth = games.NativeTruth(args.native_timeout)
        return (games.grade_instances(student, args.instances, native_truth, args.timeout, min(args.jobs or 1, 64)),
                games.COLUMNS)
    lbs_mapping = read_mapping(args.mapping) if args.mapping else None
    native = NativeVerdicts(args.native_timeout)
    columns = SAVILE_ROW_COLUMNS
    if args.results is not None:
        if args.model is not None or args.instances is not None:
            raise UsageError("--results grades existing files: give no MODEL and no --instances")
        rows = grade_results(args.results, lbs_mapping, native)
    elif args.model is not None and args.instances is not None and args.model.suffix == ".mzn":
        rows = grade_minizinc(args.model, args.instances, lbs_mapping, native, args.timeout,
                              args.backend or DEFAULT_BACKEND)
        columns = COLUMNS
    elif args.model is not None and args.instances is not None:
        rows = grade_model(args.model, args.instances, lbs_mapping, native, args.timeout, args.level)
    else:
        raise UsageError("give MODEL --instances DIR, or --results DIR")
    return rows, columns


def _printed(rows: list[Graded], columns: tuple[str, str, str]) -> int:
    """The table printed; exit 1 if any answer is wrong."""
    print(table(rows, columns), end="")
    return GRADED_WRONG if any(row.grade == WRONG for row in rows) else ExitCode.SOLVED


def run_game(args: argparse.Namespace, mapping: games.GameMapping) -> int:
    """A model of any game: graded on --instances, or hunted; or a class of them marked."""
    if args.klass is not None:
        return run_class(args, mapping)
    if args.model is None or args.results is not None:
        raise UsageError("give MODEL with --instances DIR or --hunt N (--results is for LBS Savile Row files)")
    native = games.NativeTruth(args.native_timeout)
    if args.hunt is not None:
        if args.instances is not None:
            raise UsageError("give --instances DIR or --hunt N, not both")
        count, seed = _count(args.hunt, "--hunt", 1), _count(args.seed, "--seed", 0)
        shrink = _count(str(SHRINK_RUNS) if args.shrink is None else args.shrink, "--shrink", 0)
        student = games.StudentModel(args.model, mapping, args.backend)
        check_hunt_out(args.out or Path("."), student, args.mapping)
        return hunt_model(student, native, mapping.game or LBS, count, seed, args.timeout, args.out or Path("."),
                          print, min(args.jobs or 1, 64), progress=True, shrink_runs=shrink, stream=sys.stderr)
    return _printed(*graded(args, mapping))


def run_class(args: argparse.Namespace, mapping: games.GameMapping) -> int:
    """Every student's model on --instances; one summary line per student. Exit 0 once all are marked
    (the marks are the result: a wrong student is no failure of the command)."""
    if args.model is not None or args.results is not None or args.hunt is not None or args.instances is None:
        raise UsageError("give --class FOLDER --instances DIR (no MODEL, --results or --hunt)")
    out = args.out or Path("marks")
    check_class_out(out, args.klass, args.instances)
    marks = mark_class(args.klass, args.instances, mapping, args.backend, games.NativeTruth(args.native_timeout),
                       args.timeout, min(args.jobs or 2, 64), out)
    for line in summary_lines(marks):
        print(line)
    print(f"marks: {out / 'marks.csv'}")
    return ExitCode.SOLVED
