"""The Python API: deal, model, solve, validate, compare and survey from a notebook or a script.

Each function calls the library functions the matching command calls (`patience deal`, `gen`,
`solve`, `validate`, `compare`, `survey`, `solvers`), so a deal, a model or a verdict is the same
whichever way it was asked for. Bad input raises `InputError` (naming the file and line), a bad
choice `UsageError`; both are the toolkit's own exceptions. Heavy modules (solvers, pandas) are
imported only when a function needs them.

Example:
    >>> import patience
    >>> deal = patience.deal("black_hole", 5)
    >>> result = patience.solve(deal, "native")
    >>> print(result.status, result.moves[0], patience.validate(deal, result.moves).describe())
    solved AS valid: 51 moves
    >>> patience.solve(deal, "oracle")
    Traceback (most recent call last):
    patience.errors.UsageError: unknown solver 'oracle'; known: ...
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from patience.api_results import Model, Result, SurveySummary
from patience.errors import InputError, UsageError
from patience.result import Status
from patience.validator import Replay

if TYPE_CHECKING:
    import pandas

    from patience.deal import Deal
    from patience.games import AnyDeal, Game

__all__ = ["InputError", "Model", "Replay", "Result", "Status", "SurveySummary", "UsageError", "compare", "coursework",
           "deal",
           "generate", "parse_deal", "random_deal", "read_deal", "solve", "solvers", "survey", "validate",
           "write_deal"]


def deal(game: str, number: int, *, numbering: str | None = None, cards: int = 10) -> AnyDeal:
    """Deal game number `number` of a numbered game, exactly as PySolFC deals it.

    Args:
        game: `black_hole`, `all_in_a_row` or `binary_star` (hyphens accepted); or `lbs` for a
            seeded random Late Binding Solitaire row.
        number: the game number (PySolFC's), or the seed of an LBS row.
        numbering: `pysolfc` (the default), `pysol` or `ms`: how a number becomes a shuffle.
        cards: LBS only: cards in the row.

    Returns:
        The deal, the same as `patience deal --game GAME --seed NUMBER` prints.

    Raises:
        UsageError: an unknown game or numbering, or a number out of range.
    """
    from patience.generators.deals import deal_file
    from patience.names import LBS, NUMBERED_GAMES, game_name, numbering_name

    name = game_name(game, (*NUMBERED_GAMES, LBS))
    file_name, text = deal_file(name, _whole(number, "number"),
                                None if numbering is None else numbering_name(numbering), cards=_whole(cards, "cards"))
    return parse_deal(text, name, file_name)


def random_deal(ranks: int = 13, suits: int = 4, pile_height: int = 3, seed: int = 1, *,
                empty_foundation: bool = False) -> Deal:
    """A reproducible random generalised Black Hole deal.

    Args:
        ranks: ranks on the cycle (13 in a standard deck).
        suits: cards of each rank.
        pile_height: cards per pile (the last pile may be shorter).
        seed: the shuffle's seed.
        empty_foundation: start with an empty foundation (All in a Row style) instead of the
            rank-0 card of suit 0.

    Returns:
        The deal `patience deal --ranks R --suits S --pile-height H --seed N` prints.

    Raises:
        UsageError: a size that is not positive or beyond the caps.
    """
    from patience.generators.deals import deal_file
    from patience.names import GENERALISED

    name, text = deal_file(GENERALISED, _whole(seed, "seed"), ranks=_whole(ranks, "ranks"),
                           suits=_whole(suits, "suits"), pile_height=_whole(pile_height, "pile_height"),
                           empty_foundation=bool(empty_foundation))
    return cast("Deal", parse_deal(text, source=name))


def read_deal(path: str | os.PathLike[str], game: str | None = None) -> AnyDeal:
    """Read a deal file of any game, in any form (board text, YAML, CSPLib `.param`, `.dzn`, JSON).

    Args:
        path: the file.
        game: the game it must be (default: found from the file's content).

    Raises:
        InputError: the file is missing, unreadable or not a deal (naming the line).
        UsageError: an unknown game name.
    """
    from patience.games import read_game_deal

    return read_game_deal(os.fspath(path), game)[1]


def parse_deal(text: str, game: str | None = None, source: str = "<text>") -> AnyDeal:
    """A deal written in `text`, in any form `read_deal` reads.

    Args:
        text: the deal's text.
        game: the game it must be (default: found from the text).
        source: the name errors give it (an LBS deal takes its name from it, without the suffix).

    Raises:
        InputError: the text is not a deal (naming `source` and the line).
    """
    from patience.games import parse_game_deal

    return parse_game_deal(text, source, game)[1]


def write_deal(deal: AnyDeal | str | os.PathLike[str], form: str) -> str:
    """The deal as text in `form` (`board`, `yaml`, `param`, `dzn`, `json`; what its game writes), as
    `patience convert --to FORM` prints it.

    Raises:
        UsageError: a form the deal's game does not write, or that cannot hold this deal.
    """
    from patience.games import write_game_deal

    return write_game_deal(_deal(deal), form)


def generate(deal: AnyDeal | str | os.PathLike[str], language: str, **options: object) -> Model:
    """The deal's model in a solver language, as `gen LANGUAGE DEAL -o FOLDER` writes it.

    Args:
        deal: a deal, or the path of a deal file.
        language: `pddl`, `eprime`, `xcsp3`, `cnf`, `lp`, `cpsat`, `mzn` or `asp`.
        **options: the generator's options (see `gen LANGUAGE --help`), underscores for hyphens:
            `generate(deal, "pddl", encoding="compact")`; booleans for on/off.

    Raises:
        UsageError: an unknown language, a game it has no model of, an unknown option or value.
    """
    from patience.generators import build
    from patience.options import option_texts

    deal = _deal(deal)
    files = build(language, _game(deal).variant(deal), deal, option_texts(options))
    return Model(language, dict(files.files), files.primary, files)


def solve(deal: AnyDeal | str | os.PathLike[str], solver: str = "native", *, timeout: float = 60.0,
          cpu: float | None = None, memory: int | None = None, **options: object) -> Result:
    """Decide a deal with a solver; a claimed win counts only once the validator has replayed it.

    Args:
        deal: a deal, or the path of a deal file.
        solver: a name from `solvers()` that plays the deal's game (`native`, `sat`, `cpsat`, ...).
        timeout: wall-clock limit in seconds.
        cpu: CPU-time limit in seconds (default: the timeout).
        memory: memory limit in MiB.
        **options: the solver's options (`patience solvers` lists them), underscores for hyphens.

    Returns:
        The judged result; a solver that is not installed gives status `error` saying how to get it.

    Raises:
        UsageError: an unknown solver or option, a game the solver does not play, a bad limit.
    """
    from patience.options import option_texts
    from patience.runners.solve import solve as solve_deal
    from patience.runs.process import Limits

    deal = _deal(deal)
    try:
        limits = Limits(timeout=timeout, cpu=cpu, memory_mb=memory)
    except (TypeError, ValueError) as error:
        raise UsageError(f"bad limit: {error}") from None
    return Result.judged(deal, solve_deal(deal, solver, limits, option_texts(options)))


def validate(deal: AnyDeal | str | os.PathLike[str], moves: Sequence[object] | str | os.PathLike[str], *,
             partial: bool = False) -> Replay:
    """Replay moves on a deal: the one authority on a win.

    Args:
        deal: a deal, or the path of a deal file.
        moves: move names (`["AS", "2H", ...]`, a `Result`'s `moves`), the game's move objects, the text
            of an answer in any form `patience validate` reads (a solver's output too), or the `Path`
            of such a file.
        partial: accept a legal sequence that does not win.

    Returns:
        A `Replay`: `.valid`, `.moves` (legal moves made) and `.fault` (the first illegal move, or
        what is left), as `patience validate` says it.

    Raises:
        InputError: an answer that cannot be read (naming the line).
    """
    from patience.reading import read_text

    deal = _deal(deal)
    game = _game(deal)
    if isinstance(moves, os.PathLike):
        read = game.read_answer(read_text(os.fspath(moves)), os.fspath(moves), deal)
    elif isinstance(moves, str):
        read = game.read_answer(moves, "<moves>", deal)
    else:
        names = _move_names(game, deal, moves)
        read = game.read_answer("\n".join(names), "<moves>", deal) if names else ()
    return game.replay(deal, read, complete=not partial)


def compare(deals: str | Iterable[str | os.PathLike[str]], solvers: str | Iterable[str], *, timeout: float = 60.0,
            cpu: float | None = None, memory: int | None = None, jobs: int = 1,
            store: str | os.PathLike[str] | None = None, seed: int = 0, retry_errors: bool = False,
            progress: bool = False) -> pandas.DataFrame:
    """Run solvers on many deals, as `patience compare` does, and return one row a run.

    Args:
        deals: deal specs (`black_hole:1-20`, `random:13,4,3:1-10`, a folder or a file), joined.
        solvers: solver names, or labelled configurations `"LABEL=SOLVER OPTION=VALUE ..."`.
        timeout: wall-clock limit per run in seconds; cpu: CPU limit (default the timeout);
            memory: MiB per run.
        jobs: worker processes (1: runs in this process, one after the other). Workers are started
            afresh and import the calling script: call it under `if __name__ == "__main__":` there.
        store: a SQLite store to keep and resume (default: a temporary one, removed afterwards).
        seed: the seed of the order in which runs are made.
        retry_errors: run again the runs a given store holds as errors.
        progress: draw the progress bar on standard error.

    Returns:
        A pandas DataFrame, one row per deal and configuration, in the order asked: `deal`,
        `configuration`, `solver`, `status`, `sequence`, `wall`, `cpu`, `nodes`, `version`, ...
        `.attrs["contradictions"]` lists deals solved by one configuration and called unsolvable by
        another (a warning is issued too).

    Raises:
        UsageError: a bad spec, solver, option or limit; a store made with other limits.
        InputError: a store that is not a campaign store, or damaged.
    """
    import pandas

    from patience.campaign import config
    from patience.campaign.run import campaign
    from patience.campaign.store import Store
    from patience.runs import specs
    from patience.runs.pool import runner
    from patience.runs.process import Limits

    spec = "+".join(os.fspath(item) for item in ([deals] if isinstance(deals, str) else deals))
    if not spec.strip():
        raise UsageError("no deals to compare: give deal specs such as black_hole:1-20")
    named = specs.resolve(spec)
    configurations = [configuration for entry in ([solvers] if isinstance(solvers, str) else solvers)
                      for configuration in ([config.from_config_argument(entry)] if "=" in entry
                                            else config.from_solver_list(entry))]
    if not configurations:
        raise UsageError("no solvers to compare")
    try:
        limits = Limits(timeout=timeout, cpu=cpu, memory_mb=memory)
    except (TypeError, ValueError) as error:
        raise UsageError(f"bad limit: {error}") from None
    run_tasks = runner(_whole(jobs, "jobs"))  # one job: in this process, no worker to start
    with tempfile.TemporaryDirectory(prefix="patience-compare-") as scratch:
        path = Path(scratch) / "campaign.sqlite" if store is None else Path(store)
        with Store(path) as opened:
            sitting = campaign(named, configurations, limits, opened, run_tasks, progress, seed, retry_errors)
            stored = opened.runs()
    order = {(item.name, item.content, configuration.label): index for index, (item, configuration)
             in enumerate((item, configuration) for item in named for configuration in configurations)}
    rows = sorted((row for row in stored if (row.source, row.content, row.configuration) in order),
                  key=lambda row: order[row.source, row.content, row.configuration])
    frame = pandas.DataFrame([vars(row) for row in rows])
    frame.attrs["contradictions"] = list(sitting.contradictions)
    if sitting.contradictions:
        warnings.warn(f"{len(sitting.contradictions)} deals have contradicting verdicts: "
                      f"{', '.join(str(item['deal']) for item in sitting.contradictions[:5])}", stacklevel=2)
    return frame


def coursework(game: str, out: str | os.PathLike[str] = "exercise", answers: str | os.PathLike[str] = "answers", *,
               language: str = "mzn", count: int = 10, hardness: str = "spread", unsolvable: int | None = None,
               seed: int = 0, pool: int = 100, deals: str | None = None, sheet: str = "md", timeout: float = 60.0,
               label_timeout: float = 60.0, jobs: int = 1, force: bool = False) -> list[dict[str, object]]:
    """Write an exercise as `patience coursework` does: the instances and the sheet into `out`, the
    reference answers into `answers`, both whole or not at all.

    Args:
        game: the exercise's game (any game; hyphens accepted).
        language: the students' model language, which sets the instances' format: mzn, eprime, asp.
        count: instances; hardness: easiest, hardest, sample or spread (by native nodes);
            unsolvable: exactly this many unsolvable instances (None: whatever the choice gives).
        seed: draws the pool's game numbers and the sample; pool: deals labelled to choose from;
            deals: a deal spec to choose from instead.
        sheet: md or html; timeout: seconds per instance the sheet promises; label_timeout: the
            native search's limit per pool deal; jobs: worker processes labelling the pool.
        force: replace non-empty folders.

    Returns:
        One dict per instance, from the easiest: `instance`, `source` (the pool's name of the deal),
        `status` (solved or unsolvable), `nodes` and `moves` (the validated win's move names, or None).

    Raises:
        UsageError: a bad choice, too few deals of the asked kind in the pool, a folder refused.
    """
    from patience.grading import coursework as exercises
    from patience.names import game_name

    if language not in exercises.LANGUAGES or hardness not in exercises.HARDNESS or sheet not in exercises.SHEETS:
        raise UsageError(f"language is one of {', '.join(exercises.LANGUAGES)}, hardness one of "
                         f"{', '.join(exercises.HARDNESS)}, sheet one of {', '.join(exercises.SHEETS)}")
    exactly = None if unsolvable is None else _whole(unsolvable, "unsolvable")
    exercise = exercises.Exercise(game_name(game), language, _whole(count, "count"), hardness, exactly,
                                  _whole(seed, "seed"), _whole(pool, "pool"), deals, sheet=sheet,
                                  timeout=float(timeout), label_timeout=float(label_timeout), jobs=_whole(jobs, "jobs"))
    chosen = exercises.write_exercise(exercise, Path(out), Path(answers), force)
    return [{"instance": item.name, "source": item.source, "status": item.status.value, "nodes": item.nodes,
             "moves": None if item.moves is None else list(item.moves)} for item in chosen]


def survey(game: str | None = None, seeds: str = "1-1000", *, shape: str | Sequence[int] | None = None,
           mode: str = "max-cards", timeout: float = 60.0, nodes: int | None = None, numbering: str | None = None,
           batch: int | None = None, jobs: int = 1, store: str | os.PathLike[str] | None = None,
           progress: bool = False) -> SurveySummary:
    """Decide every deal of a numbered range with the native search, as `patience survey` does.

    Args:
        game: `black_hole` (the default), `all_in_a_row`, `binary_star`, or `generalised` (the
            default with `shape`).
        seeds: deal numbers, ranges and lists: `"1-1000"`, `"1-100,500"`.
        shape: for `generalised`: random deals of (ranks, suits, pile height), e.g. `(13, 4, 3)`.
        mode: `max-cards` (the most cards removable too) or `decision` (won or lost only, faster).
        timeout: search limit per deal in seconds; nodes: node limit per deal as well.
        numbering: `pysolfc` (default), `pysol` or `ms`.
        batch: deals per task (default 2000).
        jobs: worker processes (1: in this process); as for `compare`, a script calls it under
            `if __name__ == "__main__":` when it asks for more.
        store: a SQLite store to keep and resume (default: a temporary one, removed afterwards).
        progress: draw the progress bar on standard error.

    Raises:
        UsageError: a bad game, shape, seeds, mode or limit; a store made with other settings.
    """
    from patience.names import DEFAULT_NUMBERING, game_name, numbering_name
    from patience.runs.pool import runner
    from patience.survey.report import wilson
    from patience.survey.run import SURVEYED_GAMES, check_counts, game_and_shape, read_survey, run_survey, survey_seeds
    from patience.survey.store import MODES

    if mode not in MODES:
        raise UsageError(f"unknown survey mode {mode!r}; known: {', '.join(MODES)}")
    if not isinstance(shape, str | None):
        shape = ",".join(str(_whole(number, "shape")) for number in shape)
    if not (isinstance(timeout, int | float) and timeout > 0):
        raise UsageError(f"timeout must be more than 0 seconds, not {timeout!r}")
    check_counts(batch, nodes)
    surveyed, checked_shape = game_and_shape(None if game is None else game_name(game, SURVEYED_GAMES), shape)
    numbers = survey_seeds(seeds)
    run_batches = runner(_whole(jobs, "jobs"), None)
    with tempfile.TemporaryDirectory(prefix="patience-survey-") as scratch:
        path = Path(scratch) / "survey.sqlite" if store is None else Path(store)
        run_survey(path, surveyed, numbering_name(numbering or DEFAULT_NUMBERING), checked_shape, numbers, mode,
                   float(timeout), nodes, batch or 2000, run_batches, progress)
        settings, summary, rows = read_survey(path)
    return SurveySummary(summary.game, summary.deals, summary.won, summary.lost,
                         wilson(summary.won, summary.decided), dict(summary.histogram), summary.undecided, settings,
                         summary, tuple(rows))


def solvers() -> pandas.DataFrame:
    """Every solver, as `patience solvers` lists them: one row a solver with `name`, `paradigm` (planning,
    cp, sat, ...), `language` (the model it reads), `games`, `installed`, `version`, `get` (how to get it
    when missing), `description` and `options`."""
    import pandas

    from patience.runners.registry import all_solvers

    rows = []
    for solver in all_solvers():
        installed = solver.available()
        rows.append({"name": solver.name, "paradigm": solver.paradigm,
                     "language": getattr(solver, "language", ""), "games": ", ".join(solver.games),
                     "installed": installed, "version": (solver.version() or "") if installed else "",
                     "get": "" if installed else solver.install_hint(), "description": solver.description,
                     "options": ", ".join(option.name for option in solver.options)})
    return pandas.DataFrame(rows)


def _deal(deal: object) -> AnyDeal:
    """A deal given as itself or as the path of its file."""
    if isinstance(deal, str | os.PathLike):
        return read_deal(deal)
    _game(deal)
    return deal  # type: ignore[return-value]


def _game(deal: object) -> Game[Any]:
    """The game of a deal object; a usage error for anything else."""
    from patience.games import game_of

    try:
        return game_of(deal)
    except TypeError:
        raise UsageError(f"not a deal: {type(deal).__name__} (make one with patience.deal, random_deal or "
                         "read_deal)") from None


def _move_names(game: Game[Any], deal: AnyDeal, moves: Iterable[object]) -> list[str]:
    """Moves given as names or as the game's move objects, as names."""
    moves = list(moves)
    if all(isinstance(move, str) for move in moves):
        return [str(move) for move in moves]
    try:
        return game.move_names(deal, moves)
    except (AttributeError, TypeError, ValueError, KeyError, IndexError):
        raise UsageError("moves must be names (strings) or the game's moves, not "
                         f"{', '.join(sorted({type(move).__name__ for move in moves}))}") from None


def _whole(value: object, what: str) -> int:
    """`value` if it is a whole number (not a bool), else a usage error naming `what`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{what} must be a whole number, not {value!r}")
    return value

