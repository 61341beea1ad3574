"""A student's model of any game, run as the toolkit runs its own model of that language.

The mapping file says which game the model plays, which data the model reads (the generator's
options: the public minizinc-benchmarks Black Hole model reads the standard `layout`, the project's
formulation reads sizes and tables) and which of the model's variables hold what the toolkit's
decoder reads (`x`, the play order, for the Black Hole family). Everything else is the toolkit's
own pipeline: the generator writes the data files, the solver runner runs and reads the output,
the game's validator replays the answer, and the native search checks every "no solution".
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from patience import caps
from patience.columns import counted
from patience.errors import InputError, UsageError, quote
from patience.games import AnyDeal, game_of, get_game, read_game_deal
from patience.generators.files import ModelFiles
from patience.grading.sandbox import confined
from patience.grading.table import (
    CORRECT,
    ERROR,
    NO_SOLUTION,
    SOLVED,
    TIMEOUT,
    UNGRADED,
    WRONG,
    Graded,
    Stats,
    students_words,
)
from patience.names import game_name
from patience.options import check_options
from patience.reading import load_yaml, read_text
from patience.result import Answer, Result, Status, judge
from patience.runners.base import ProcessSolver
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.pool import in_order
from patience.runs.process import Limits, raise_if_stopped

SOLVERS = {".mzn": "minizinc", ".eprime": "savilerow-minion", ".lp": "clingo"}  # a model's language by suffix
COLUMNS = ("nodes", "seconds", "cpu")
SHIPPED = {  # mappings shipped with the toolkit, by name (`--mapping minizinc-benchmarks`)
    "minizinc-benchmarks": "minizinc-benchmarks-black-hole.yaml",
}
DEAL_SUFFIXES = (".txt", ".dzn", ".param", ".yaml", ".yml", ".json")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")


@dataclass(frozen=True)
class GameMapping:
    """What the model plays and reads: `game`, the generator's `options`, and `variables` (the
    toolkit's name of each variable it decodes -> the model's name for it)."""

    game: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    variables: Mapping[str, str] = field(default_factory=dict)
    fixed_shape: bool = False  # `shape: fixed`: the model plays the game's standard deal only (a hunt keeps it)


def is_game_mapping(data: object) -> bool:
    """A mapping of this kind names a game or variables; the LBS mapping has `from` and `to`."""
    return isinstance(data, dict) and ("game" in data or "variables" in data)


def mapping_data(path: Path) -> tuple[object, str]:
    """The YAML of a mapping file, or of a shipped mapping named by its short name."""
    if not path.exists() and str(path) in SHIPPED:
        shipped = resources.files("patience.models").joinpath(SHIPPED[str(path)])
        return load_yaml(shipped.read_text(), str(path)), str(path)
    return load_yaml(read_text(path), str(path)), str(path)


def read_game_mapping(data: object, source: str) -> GameMapping:
    """`game: NAME`, `options: {name: value}` and `variables: {toolkit name: model name}`."""
    if not isinstance(data, dict) or set(data) - {"game", "options", "variables", "shape"}:
        raise InputError(source, 1, "a game mapping holds `game:`, `options:`, `variables:` and `shape:` only")
    if data.get("shape", "data") not in ("data", "fixed"):
        raise InputError(source, 1, "`shape:` is `data` (sizes come with each deal) or `fixed` (the standard deal)")
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise InputError(source, 1, "`game:` must name a game")
    tables = []
    for key in ("options", "variables"):
        table = data.get(key) or {}
        if not isinstance(table, dict) or not all(isinstance(name, str) and isinstance(value, str | int)
                                                  and not isinstance(value, bool) for name, value in table.items()):
            raise InputError(source, 1, f"`{key}:` must map names to names or numbers")
        tables.append({name: str(value) for name, value in table.items()})
    if not all(_NAME.fullmatch(name) for pair in tables[1].items() for name in pair):
        raise InputError(source, 1, "`variables:` maps names of variables (letters, digits and _) to names")
    try:
        game = None if game is None else game_name(game)
    except UsageError as error:
        raise InputError(source, 1, str(error)) from None
    return GameMapping(game, tables[0], tables[1], data.get("shape") == "fixed")


def renamed(values: object, variables: Mapping[str, str]) -> object:
    """A solution's variables under the toolkit's names: MiniZinc's JSON object, Savile Row's
    `letting NAME be` lines, clingo's atoms `name(...)`."""
    if not variables:
        return values
    if isinstance(values, dict):
        return {**values, **{ours: values.get(theirs) for ours, theirs in variables.items()}}
    if isinstance(values, str):
        for ours, theirs in variables.items():
            values = re.sub(rf"^(\s*letting\s+){re.escape(theirs)}(?=\s)", rf"\g<1>{ours}", values, flags=re.MULTILINE)
        return values
    if isinstance(values, list):
        prefixes = {f"{theirs}(": f"{ours}(" for ours, theirs in variables.items()}
        return [next((prefixes[prefix] + atom[len(prefix):] for prefix in prefixes
                      if isinstance(atom, str) and atom.startswith(prefix)), atom) for atom in values]
    return values


def student_files(model: ModelFiles, text: str, suffix: str, variables: Mapping[str, str]) -> ModelFiles:
    """The toolkit's files of a deal with its model replaced by the student's, and a decode that
    reads the student's variable names."""
    own = [name for name in model.files if name.endswith(suffix) and name != model.primary]
    if not own:
        raise UsageError(f"the toolkit's model of this game has no {suffix} file to put a student's in")
    files = {name: body for name, body in model.files.items() if name not in own[1:]}  # its extra programs go
    decode = model.decode
    return replace(model, files={**files, own[0]: text},
                   decode=lambda values, source, *rest: decode(renamed(values, variables), source, *rest))


# Where a model names another file: MiniZinc's `include "F";`, clingo's `#include "F".` or `<F>`; and
# clingo's `#script`, whose Python or Lua may read anything. Comments are taken out first.
_INCLUDES = {".mzn": re.compile(r'\binclude\s*"([^"\n]*)"'),
             ".lp": re.compile(r'#include\s*(?:"([^"\n]*)"|<([^>\n]*)>)|#script\b')}
# A string is matched first, so that a `%` or `/*` inside one starts no comment (a line ends at \r too).
_STRING = r'"(?:[^"\\\n]|\\.)*"'
_COMMENTS = {".mzn": re.compile(rf"{_STRING}|/\*.*?(?:\*/|\Z)|%[^\n\r]*", re.DOTALL),
             ".lp": re.compile(rf"{_STRING}|%\*.*?(?:\*%|\Z)|%[^\n\r]*", re.DOTALL)}


def _uncommented(match: re.Match[str]) -> str:
    """A string as it is; a comment as the line ends it held."""
    text = match.group()
    return text if text.startswith('"') else "\n" * text.count("\n")


def includes(text: str, suffix: str) -> Iterator[tuple[int, str | None]]:
    """(line, name) for every file the model's text names (None: a clingo `#script`), comments taken out.
    Only an early, clear refusal: what a model can read is what its sandbox holds (`patience.grading.sandbox`)."""
    if suffix not in _INCLUDES:
        return
    bare = _COMMENTS[suffix].sub(_uncommented, text)
    for match in _INCLUDES[suffix].finditer(bare):
        yield (bare.count("\n", 0, match.start()) + 1,
               next((group for group in match.groups() if group is not None), None))


def outside_reads(text: str, suffix: str) -> tuple[int, str] | None:
    """(line, why) for the first place where a model would read a file outside its folder (an
    absolute path, a `..`, a clingo script); None when it reads none. The model is then not run."""
    for line, name in includes(text, suffix):
        if name is None:
            return line, "runs a #script (it could read any file): refused, not run"
        if Path(name).is_absolute() or ".." in Path(name).parts or name.startswith("~"):
            return line, f"includes {name!r}, outside its folder: refused, not run"
    return None


MAX_HELPERS = 64  # files of its own folder one model may include
MAX_HELPER_BYTES = caps.MAX_FILE_BYTES  # all of them together


def own_file(path: Path, home: Path | None = None) -> None:
    """InputError unless `path` (a model) really lies in the student's folder `home` (its own folder by
    default): a link that leads out, to the teacher's model say, is refused before it is read."""
    # the student's folder itself is not followed: a class's `eve/` that is a link leads out as well
    folder = os.path.realpath(path.parent) if home is None else os.path.join(os.path.realpath(home.parent), home.name)
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        raise InputError(str(path), None, "not a file name") from None
    if os.path.commonpath((folder, real)) != folder:
        raise InputError(str(path), None, f"is a link outside the student's folder, refused, not run: to {quote(real)}")


def helper_files(model: Path, text: str, own_folder: bool = True) -> dict[str, str]:
    """The files of the model's own folder that it includes (and that those include, and so on), by
    their path in the folder: written beside the model where it runs, so that a student's model may
    keep part of itself in `helper.mzn` or `rules.lp`. A name that is no file there is left to the
    solver (a library file, or its own error). InputError (the file, the line, why) for an include
    that reaches outside the folder (an absolute or `..` path, a `#script`, a link that leads out),
    a helper that is no text file, or too many or too large ones; and, without `own_folder` (a class's
    student who handed in one file, beside the others'), for any file of the folder at all."""
    folder = os.path.realpath(model.parent)
    found: dict[str, str] = {}
    todo: list[tuple[str, str, str]] = [("", text, str(model))]  # (its folder in the model's, text, source)
    while todo:
        where, body, source = todo.pop()
        outside = outside_reads(body, model.suffix)
        if outside is not None:
            raise InputError(source, *outside)
        for line, name in includes(body, model.suffix):
            assert name is not None  # a #script is an outside read
            beside = posixpath.normpath(posixpath.join(where, name))  # no `..` in it: a place in the folder
            # MiniZinc looks beside the including file; clingo there and in the folder it runs in
            for relative in dict.fromkeys((beside, posixpath.normpath(name)) if model.suffix == ".lp" else (beside,)):
                helper = _helper(model.parent, folder, relative, source, line)
                if helper is None or relative in found:
                    continue
                if not own_folder:
                    raise InputError(source, line, f"includes {quote(relative)}, a file beside it in the class's "
                                                   "folder, not in a folder of its own: refused, not run")
                if len(found) == MAX_HELPERS:
                    raise InputError(str(model), None, f"includes more than {MAX_HELPERS} files of its folder")
                found[relative] = _helper_text(helper)
                if sum(map(len, found.values())) > MAX_HELPER_BYTES:
                    raise InputError(str(model), None, f"includes more than {MAX_HELPER_BYTES // 2 ** 20} MiB "
                                                       "of files of its folder")
                todo.append((posixpath.dirname(relative), found[relative], str(helper)))
    return found


def _helper_text(path: Path) -> str:
    """A helper's text: an empty one too (MiniZinc and clingo take it), which `read_text` refuses."""
    if path.stat().st_size <= 4096 and not path.read_bytes().strip():
        return ""
    return read_text(path)


def _helper(base: Path, folder: str, relative: str, source: str, line: int) -> Path | None:
    """The file `relative` names in the model's folder, None if there is none; InputError if it is a
    link that leads outside the folder."""
    if "\0" in relative:
        raise InputError(source, line, f"includes {quote(relative)}: not a file name")
    path = base / relative
    try:
        if not path.is_file():
            return None
        real = os.path.realpath(path)
    except (OSError, ValueError):  # a name too long for the system: no file of the folder
        return None
    if os.path.commonpath((folder, real)) != folder:
        raise InputError(source, line, f"includes {quote(relative)}, a link to a file outside its folder: "
                                       "refused, not run")
    return path


def student_solver(model: Path, text: str, mapping: GameMapping, helpers: Mapping[str, str]) -> ProcessSolver:
    """The runner of the model's language, building the student's model instead of the toolkit's, with
    the `helpers` it includes written beside it."""
    if model.suffix not in SOLVERS:
        raise UsageError(f"{model}: a model is one of {', '.join(SOLVERS)} (MiniZinc, Essence Prime, ASP)")
    base = type(get_solver(SOLVERS[model.suffix]))

    class Student(base):  # type: ignore[valid-type, misc]
        def build(self, deal: AnyDeal, options: Mapping[str, Any]) -> ModelFiles:
            files = student_files(super().build(deal, options), text, model.suffix, mapping.variables)
            clash = next((name for name in files.files if name in helpers), None)
            if clash is not None:
                raise InputError(str(model), None, f"includes {quote(clash)} of its folder, the name of a file "
                                                   "the grader writes (the model or the deal's data): rename it")
            return files

        def environment(self, options: Mapping[str, Any]) -> Mapping[str, str] | None:
            # `python -m clingo` never imports from its folder, where the student's files are
            return {**(super().environment(options) or {}), "PYTHONSAFEPATH": "1"}

        def confine(self, command: list[str], folder: Path) -> list[str]:
            return confined(command, folder)

    Student.name = f"{base.name} (student)"
    Student.beside = dict(helpers)
    return Student()


class NativeTruth:
    """The native search's verdict per deal, computed once each (the teacher's ground truth)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._known: dict[object, Result] = {}

    def __call__(self, deal: AnyDeal) -> Result:
        raise_if_stopped()  # a stopped thread starts no search (the compiled one runs in the thread, unstoppable)
        if deal not in self._known:
            self._known[deal] = solve(deal, "native", Limits(timeout=self.timeout))
        return self._known[deal]


@dataclass
class StudentModel:
    """A student's model ready to run on deals of its game."""

    path: Path
    mapping: GameMapping
    backend: str | None = None
    own_folder: bool = True  # the folder it lies in is the student's own (its includes are copied from there)
    home: Path | None = None  # the student's folder, which the model must not leave (default: the model's)

    def __post_init__(self) -> None:
        if not self.path.is_file():
            raise InputError(str(self.path), None, "no such model file")
        own_file(self.path, self.home)
        text = read_text(self.path)
        self.solver = student_solver(self.path, text, self.mapping, helper_files(self.path, text, self.own_folder))
        if not self.solver.available():
            raise UsageError(f"{SOLVERS[self.path.suffix]} is needed: {self.solver.install_hint()}")
        given = dict(self.mapping.options)
        if self.backend is not None and "backend" in {option.name for option in self.solver.options}:
            given["backend"] = self.backend  # checked against the configured backends: never a .msc file
        self.options = check_options(self.solver.options, given, str(self.path))

    def run(self, deal: AnyDeal, timeout: float) -> Result:
        """The model's answer on `deal`, validated by the game's replay (never trusted)."""
        try:
            answer = self.solver.solve(deal, Limits(timeout=timeout), self.options)
        except (InputError, UsageError) as error:  # e.g. the data the model reads cannot hold this deal
            answer = Answer(Status.ERROR, message=str(error))
        return judge(deal, self.solver.name, answer)


def cards_of(deal: AnyDeal) -> int:
    return len(getattr(deal, "cards", ()))


def grade_result(name: str, deal: AnyDeal, result: Result, native: NativeTruth) -> Graded:
    """One row: a win must replay, a "no solution" must be the native search's verdict too."""
    n, stats = cards_of(deal), Stats(nodes=result.nodes, solve_time=result.wall, savilerow_time=result.cpu)
    if result.status is Status.SOLVED:
        return Graded(name, n, SOLVED, CORRECT, f"valid: {counted(len(result.sequence or ()), 'move')}", **stats)
    if result.status is Status.ERROR and result.message.startswith("solver answer rejected"):
        return Graded(name, n, SOLVED, WRONG, students_words(deal, "illegal: " + result.message.split(": ", 1)[-1]),
                      **stats)
    if result.status is Status.UNSOLVABLE:
        truth = native(deal)
        if truth.status is Status.UNSOLVABLE:
            return Graded(name, n, NO_SOLUTION, CORRECT, f"native agrees ({truth.nodes} nodes)", **stats)
        if truth.status is Status.SOLVED:
            moves = " ".join(map(str, game_of(deal).move_names(deal, truth.sequence or ())))
            note = students_words(deal, f"lost solutions: native wins with {moves}")
            return Graded(name, n, NO_SOLUTION, WRONG, note, **stats)
        return Graded(name, n, NO_SOLUTION, UNGRADED, "native search ran out of time", **stats)
    if result.status in (Status.TIMEOUT, Status.MEMOUT, Status.UNKNOWN):
        return Graded(name, n, TIMEOUT, UNGRADED, f"not graded (native: {native(deal).status.value})", **stats)
    return Graded(name, n, ERROR, WRONG, clipped(result.message), **stats)


def clipped(message: str, limit: int = 200) -> str:
    """A solver's message cut for one cell of the table."""
    line = " ".join(message.split())
    return line if len(line) <= limit else line[:limit] + "..."


def deal_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise InputError(str(folder), None, "not a folder")
    found = sorted(path for path in folder.rglob("*") if path.suffix in DEAL_SUFFIXES and path.is_file()
                   and not path.name.startswith("."))
    if not found:
        raise InputError(str(folder), None, f"no deal files ({' '.join(DEAL_SUFFIXES)}) in the folder")
    return found


def read_deals(folder: Path, game: str | None) -> list[tuple[Path, AnyDeal]]:
    """Every deal under `folder` (in any form the toolkit reads), all read, and checked to be deals of
    `game`, before any model runs."""
    deals = []
    for path in deal_files(folder):
        try:
            deal = read_game_deal(path, None)[1]
        except InputError:
            deals_beside = path.parent.parent / "deals"
            if path.parent.name != "instances" or not deals_beside.is_dir():
                raise
            raise InputError(str(path), None, f"not a deal but a model's data? --instances takes the deals, which "
                                              f"a coursework writes into {deals_beside}") from None
        if game is not None and get_game(game) is not game_of(deal):
            variant = game_of(deal).variant(deal)
            raise InputError(str(path), None, f"this deal is {variant}, not a {game} deal (give --game {variant})")
        deals.append((path, deal))
    return deals


def grade_instances(student: StudentModel, folder: Path, native: NativeTruth, timeout: float,
                    jobs: int = 1) -> list[Graded]:
    """Grade the model on every deal under `folder` (deals in any form the toolkit reads), `jobs` deals
    at once; the rows come in the deals' order whatever the number."""
    deals = read_deals(folder, student.mapping.game)
    for path, deal in deals:
        try:  # a deal the model's data cannot hold is the teacher's slip, not the student's error
            student.solver.build(deal, student.options)
        except (UsageError, ValueError) as error:
            raise InputError(str(path), None, f"the model's data cannot hold this deal: {error}") from None

    def grade(entry: tuple[Path, AnyDeal]) -> Graded:
        path, deal = entry
        return grade_result(path.stem, deal, student.run(deal, timeout), native)

    with contextlib.closing(in_order(grade, deals, jobs)) as graded:  # a stop ends every run at once
        return [row for _, row in graded]
