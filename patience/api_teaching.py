"""The Python API for teaching: write an exercise (`coursework`) and grade a student's model on its
instances or hunt for the deal it gets wrong (`grade`), each on the road of its command: the
command's own functions read the choices (patience/commands/coursework.py, grade.py)."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from patience import api_checks as check
from patience.errors import UsageError

if TYPE_CHECKING:
    import pandas

    from patience.grading.table import Graded as Row


@dataclass(frozen=True)
class Grading:
    """A student's model graded, as `patience grade` prints it (`str(graded)`): one row an instance,
    or a hunt's outcome.

    Attributes:
        rows: one row an instance (`instance`, `cards`, `verdict`, `grade`, `note`, ...); none for a hunt.
        lines: what a hunt printed (`all N deals agree ...`, or the counterexample and why).
        counterexample: the hunt's counterexample file (in the model's data format), or None.
    """

    rows: tuple[Row, ...] = field(repr=False)
    columns: tuple[str, str, str] = field(repr=False)
    lines: tuple[str, ...] = ()
    counterexample: Path | None = None

    @property
    def wrong(self) -> bool:
        """Whether any answer was wrong (a hunt: whether it found a counterexample)."""
        from patience.grading.table import WRONG

        return self.counterexample is not None or any(row.grade == WRONG for row in self.rows)

    @property
    def correct(self) -> bool:
        """Whether every instance was answered and graded correct (a hunt: every deal agreed)."""
        from patience.grading.table import CORRECT

        return not self.wrong and all(row.grade == CORRECT for row in self.rows)

    @property
    def frame(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame."""
        import pandas

        return pandas.DataFrame([vars(row) for row in self.rows])

    def to_dict(self) -> dict[str, Any]:
        """The grading as plain data (JSON-ready)."""
        return {"wrong": self.wrong, "correct": self.correct, "rows": [dict(vars(row)) for row in self.rows],
                "lines": list(self.lines),
                "counterexample": None if self.counterexample is None else str(self.counterexample)}

    def __bool__(self) -> bool:
        raise TypeError("a grading is neither true nor false (a timeout is neither right nor wrong): "
                        "ask graded.correct or graded.wrong")

    def __str__(self) -> str:
        from patience.grading.table import table

        return "\n".join(self.lines) + "\n" if not self.rows else table(list(self.rows), self.columns)

    def _repr_html_(self) -> str:
        import html

        return self.frame.to_html() if self.rows else f"<pre>{html.escape(str(self))}</pre>"


def coursework(game: str, out: str | os.PathLike[str] = "exercise", answers: str | os.PathLike[str] = "answers", *,
               language: str = "mzn", count: int = 10, hardness: str = "spread", unsolvable: int | None = None,
               seed: int = 0, pool: int = 100, deals: str | None = None, cards: int = 20,
               shape: str | None = None, mapping: str | os.PathLike[str] | None = None, sheet: str = "md",
               timeout: float = 60.0, label_timeout: float = 60.0, jobs: int = 1,
               force: bool = False) -> list[dict[str, object]]:
    """Write an exercise as `patience coursework` does: the instances and the sheet into `out`, the
    reference answers into `answers`, both whole or not at all.

    Args:
        game: the exercise's game (any game; hyphens accepted).
        language: the students' model language, which sets the instances' format: mzn, eprime, asp.
        count: instances; hardness: easiest, hardest, sample or spread (by native nodes);
            unsolvable: exactly this many unsolvable instances (None: whatever the choice gives).
        seed: draws the pool's game numbers and the sample; pool: deals labelled to choose from
            (at most 10,000); deals: a deal spec to choose from instead.
        cards: an LBS pool's cards in a row; shape: a generalised pool's `RANKS,SUITS,HEIGHT`.
        mapping: a game mapping file (the students' variable names and data).
        sheet: md or html; timeout: seconds per instance the sheet promises; label_timeout: the
            native search's limit per pool deal; jobs: worker processes labelling the pool (as for
            `compare`, a script asking for more than one calls it under `if __name__ == "__main__":`).
        force: replace non-empty folders.

    Returns:
        One dict per instance, from the easiest: `instance`, `source` (the pool's name of the deal),
        `status` (solved or unsolvable), `nodes` and `moves` (the validated win's move names, or None).

    Raises:
        UsageError: a bad choice, too few deals of the asked kind in the pool, a folder refused.
    """
    from patience.commands import coursework as command
    from patience.commands.gen_family import input_paths
    from patience.grading import coursework as exercises
    from patience.names import GAMES, game_name

    spec = check.text(deals, "deals", optional=True)
    args = argparse.Namespace(
        game=game_name(check.text(game, "game"), GAMES), language=check.choice(language, "language",
                                                                                 exercises.LANGUAGES),
        count=check.whole(count, "count", 1, command.MAX_COUNT), hardness=check.choice(hardness, "hardness",
                                                                                      exercises.HARDNESS),
        unsolvable=check.whole(unsolvable, "unsolvable", 0, command.MAX_COUNT, optional=True),
        seed=check.whole(seed, "seed"), pool=check.whole(pool, "pool", 1, command.MAX_POOL), deals=spec,
        cards=check.whole(cards, "cards", 1, command.LBS_DECK), shape=check.text(shape, "shape", optional=True),
        mapping=None if mapping is None else Path(check.path(mapping, "mapping")),
        sheet=check.choice(sheet, "sheet", exercises.SHEETS), timeout=check.seconds(timeout, "timeout"),
        label_timeout=check.seconds(label_timeout, "label_timeout"), jobs=check.jobs(jobs))
    exercise = command.exercise_of(args)
    chosen = exercises.write_exercise(exercise, Path(check.path(out, "out")), Path(check.path(answers, "answers")),
                                      check.flag(force, "force"), input_paths(spec, None) if spec else [])
    return [{"instance": item.name, "source": item.source, "status": item.status.value, "nodes": item.nodes,
             "moves": None if item.moves is None else list(item.moves)} for item in chosen]


def grade(model: str | os.PathLike[str], instances: str | os.PathLike[str] | None = None, *,
          game: str | None = None, mapping: str | os.PathLike[str] | None = None, hunt: int | None = None,
          seed: int = 0, shrink: int | None = None, out: str | os.PathLike[str] | None = None,
          timeout: float = 60.0, native_timeout: float = 120.0, jobs: int = 1,
          backend: str | None = None) -> Grading:
    """Grade a student's model, as `patience grade MODEL --instances DIR` does: run it on every deal
    under `instances`, replay every answer, check every "no solution" with the native search. Or, with
    `hunt`, as `patience grade MODEL --hunt N` does: pose N seeded random deals, stop at the first the
    model gets wrong, shrink it and write it into `out` as `counterexample.*` with a replay page of
    the right answer.

    Args:
        model: the student's model (.mzn, .eprime or .lp).
        instances: the folder of deals to run it on (not with `hunt`).
        game: the game the model plays (default: lbs, or the mapping's game); a hunt needs it.
        mapping: a game mapping file, or a shipped one's name (`minizinc-benchmarks`).
        hunt: deals to pose; seed: the hunt's seed; shrink: the most runs the shrinker makes.
        out: the hunt's folder (default: the current one).
        timeout: seconds per instance; native_timeout: seconds the native search may take to check
            one "no solution"; jobs: deals run at once; backend: MiniZinc's solver for a .mzn model.

    Returns:
        A `Grading`: `.correct`, `.wrong`, `.rows` (or a hunt's `.lines` and `.counterexample`),
        `.frame` (a DataFrame), `str(graded)` the command's table; `bool()` refuses (ask `.correct`).

    Raises:
        UsageError: a bad choice or limit; InputError: a missing model, folder or deal.
    """
    from patience.commands import grade as command

    student = Path(check.path(model, "model"))
    hunted = check.whole(hunt, "hunt", 1, command.MAX_HUNT, optional=True)
    if hunted is None and (shrink is not None or out is not None):
        raise UsageError("shrink and out are for a hunt: give hunt=N too")
    if (hunted is None) == (instances is None):
        raise UsageError("give instances (a folder of deals) or hunt=N, one of them")
    if hunted is not None and game is None and mapping is None:
        raise UsageError("a hunt needs the model's game: give game= or a mapping that names it")
    folder = None if out is None else Path(check.path(out, "out"))
    args = argparse.Namespace(
        model=student, instances=None if instances is None else
        Path(check.path(instances, "instances")), results=None,
        mapping=None if mapping is None else Path(check.path(mapping, "mapping")),
        game=check.text(game, "game", optional=True), hunt=None if hunted is None else str(hunted),
        seed=str(check.whole(seed, "seed")), shrink=None if shrink is None else str(check.whole(
            shrink, "shrink", 0, command.MAX_HUNT)), klass=None, jobs=check.jobs(jobs), out=folder,
        timeout=check.seconds(timeout, "timeout"), native_timeout=check.seconds(native_timeout, "native_timeout"),
        level=2, backend=check.text(backend, "backend", optional=True))
    if hunted is not None:
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            status = command.run(args)  # the command itself: its checks, its hunt, its lines
        lines = tuple(said.getvalue().splitlines())
        found = None
        if status:
            found = next((path for path in sorted((folder or Path(".")).glob("counterexample.*"))
                          if path.suffix != ".html"), None)
        return Grading((), ("", "", ""), lines, found)
    rows, columns = command.graded(args, command.game_mapping(args))
    return Grading(tuple(rows), columns)
