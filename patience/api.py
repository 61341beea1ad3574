"""The Python API: deals, models, solving, validating, pages, campaigns, surveys and teaching from a
notebook or a script.

Each function calls the library functions the matching command calls (`patience deal`, `gen`,
`solve`, `validate`, `show`, `compare`, `report`, `survey`, `coursework`, `grade`, `solvers`), so a
deal, a model or a verdict is the same whichever way it was asked for, and its arguments are named as
the command's options are (`seed=`, `timeout=`, `jobs=`). Every argument is checked before anything
runs (patience/api_checks.py): a wrong type or value raises `UsageError` naming the argument, bad
input `InputError` naming the file and line; both are the toolkit's own exceptions. Heavy modules
(solvers, pandas) are imported only when a function needs them.

Example:
    >>> import patience
    >>> deal = patience.deal("black_hole", seed=5)
    >>> result = patience.solve(deal, "native")
    >>> if result:  # true exactly when solved (and replayed by the validator)
    ...     print(result.status, result.moves[0], patience.validate(deal, result.moves).describe())
    solved AS valid: 51 moves
    >>> patience.solve(deal, "oracle")
    Traceback (most recent call last):
    patience.errors.UsageError: unknown solver 'oracle'; known: ...
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from patience import api_checks as checks
from patience.api_results import Certificate, Checked, Model, Page, Report, SurveySummary
from patience.api_runs import compare, family, report, survey
from patience.api_teaching import Grading, coursework, grade
from patience.errors import InputError, UsageError
from patience.result import Result, Status
from patience.validator import Replay

if TYPE_CHECKING:
    import pandas

    from patience.deal import Deal
    from patience.games import AnyDeal, Game, Move

__all__ = ["Certificate", "Checked", "Grading", "InputError", "Model", "Page", "Replay", "Report", "Result", "Status",
           "SurveySummary", "UsageError", "certify", "check", "compare", "coursework", "deal", "family", "generate",
           "grade", "parse_deal", "random_deal", "read_deal", "report", "show", "solve", "solvers", "survey",
           "validate", "write_deal"]

# A solver's name where its model language is meant: `generate(deal, "minizinc")` is the model
# `--solver minizinc` runs (the language is `mzn`, as `gen mzn`).
LANGUAGE_ALIASES = {"minizinc": "mzn"}


def deal(game: str, seed: int, *, numbering: str | None = None, cards: int = 10) -> AnyDeal:
    """Deal game number `seed` of a numbered game, exactly as PySolFC deals it (`patience deal --game
    GAME --seed SEED`).

    Args:
        game: `black_hole`, `all_in_a_row`, `binary_star`, or a Golf variant (`golf`,
            `golf_queens_on_kings`, `golf_wrap_ranks`; hyphens accepted); or `lbs` for a seeded random
            Late Binding Solitaire row.
        seed: the game number (PySolFC's), or the seed of an LBS row.
        numbering: `pysolfc` (the default), `pysol` or `ms`: how a number becomes a shuffle.
        cards: LBS only: cards in the row.

    Returns:
        The deal; `str(deal)` is the text `patience deal` prints.

    Raises:
        UsageError: an unknown game or numbering, or a number out of range.
    """
    from patience.generators.deals import deal_file, hooked_games
    from patience.names import LBS, NUMBERED_GAMES, game_name, numbering_name

    name = game_name(checks.text(game, "game"), (*NUMBERED_GAMES, *hooked_games(), LBS))
    number = checks.whole(seed, "seed")
    numbered = checks.text(numbering, "numbering", optional=True)
    file_name, text = deal_file(name, number, None if numbered is None else numbering_name(numbered),
                                cards=checks.whole(cards, "cards"))
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
        The deal `patience deal --ranks R --suits S --pile-height H --seed N` prints (`str(deal)`).

    Raises:
        UsageError: a size that is not positive or beyond the caps.
    """
    from patience.generators.deals import deal_file
    from patience.names import GENERALISED

    name, text = deal_file(GENERALISED, checks.whole(seed, "seed"), ranks=checks.whole(ranks, "ranks"),
                           suits=checks.whole(suits, "suits"), pile_height=checks.whole(pile_height, "pile_height"),
                           empty_foundation=checks.flag(empty_foundation, "empty_foundation"))
    return parse_deal(text, source=name)  # type: ignore[return-value]  # a generalised deal is a Deal


def read_deal(path: str | os.PathLike[str], game: str | None = None) -> AnyDeal:
    """Read a deal file of any game, in any form (board text, YAML, CSPLib `.param`, `.dzn`, JSON).

    Args:
        path: the file.
        game: the game it must be (default: found from the file's content).

    Raises:
        InputError: the file is missing, unreadable or not a deal (naming the line).
        UsageError: an unknown game name; a path that is not a path.
    """
    from patience.games import read_game_deal

    return read_game_deal(checks.path(path, "path"), checks.text(game, "game", optional=True))[1]


def parse_deal(text: str, game: str | None = None, source: str = "<text>") -> AnyDeal:
    """A deal written in `text`, in any form `read_deal` reads.

    Args:
        text: the deal's text (a str; decode bytes first).
        game: the game it must be (default: found from the text).
        source: the name errors give it (an LBS deal takes its name from it, without the suffix).

    Raises:
        InputError: the text is not a deal (naming `source` and the line).
    """
    from patience.games import parse_game_deal

    return parse_game_deal(checks.text(text, "text"), checks.text(source, "source"),
                           checks.text(game, "game", optional=True))[1]


def write_deal(deal: AnyDeal | str | os.PathLike[str], form: str) -> str:
    """The deal as text in `form` (`board`, `yaml`, `param`, `dzn`, `json`; what its game writes), as
    `patience convert --to FORM` prints it.

    Raises:
        UsageError: a form the deal's game does not write, or that cannot hold this deal.
    """
    from patience.games import write_game_deal

    return write_game_deal(checks.deal_or_path(deal), checks.text(form, "form"))


def generate(deal: AnyDeal | str | os.PathLike[str], language: str, **options: object) -> Model:
    """The deal's model in a solver language, as `gen LANGUAGE DEAL -o FOLDER` writes it.

    Args:
        deal: a deal, or the path of a deal file.
        language: `pddl`, `eprime`, `xcsp3`, `cnf`, `lp`, `cpsat`, `mzn` (or `minizinc`, the solver
            that reads it) or `asp`.
        **options: the generator's options (see `gen LANGUAGE --help`), underscores for hyphens:
            `generate(deal, "pddl", encoding="compact")`; booleans for on/off.

    Raises:
        UsageError: an unknown language, a game it has no model of, an unknown option or value.
    """
    from patience.generators import build
    from patience.options import option_texts

    deal = checks.deal_or_path(deal)
    named = checks.text(language, "language")
    named = LANGUAGE_ALIASES.get(named, named)
    files = build(named, checks.game_of_deal(deal).variant(deal), deal,
                  option_texts(checks.keywords(options, f"gen {named}")))
    return Model(named, dict(files.files), files.primary, files)


def solve(deal: AnyDeal | str | os.PathLike[str], solver: str = "native", *, timeout: float = 60.0,
          cpu: float | None = None, memory: int | None = None, **options: object) -> Result:
    """Decide a deal with a solver; a claimed win counts only once the validator has replayed it.

    Args:
        deal: a deal, or the path of a deal file.
        solver: a name from `solvers()` that plays the deal's game (`native`, `sat`, `cpsat`, ...).
        timeout: wall-clock limit in seconds, above 0 and at most 1,000,000 (as `--timeout`).
        cpu: CPU-time limit in seconds (default: the timeout).
        memory: memory limit in MiB, a whole number (as `--memory`).
        **options: the solver's options (`patience solvers` lists them), underscores for hyphens.

    Returns:
        The judged result: true (`if result:`) exactly when solved; `.solved`, `.unsolvable`,
        `.decided`. A solver that is not installed gives status `error` saying how to get it.

    Raises:
        UsageError: an unknown solver or option, a game the solver does not play, a bad limit.
    """
    from patience.options import option_texts
    from patience.runners.solve import solve as solve_deal

    limits = checks.limits(timeout, cpu, memory).counting()  # from the call: reading a deal file counts too
    deal = checks.deal_or_path(deal)
    named = checks.text(solver, "solver")
    return solve_deal(deal, named, limits, option_texts(checks.keywords(options, named)))


def certify(deal: AnyDeal | str | os.PathLike[str], certificate: str | os.PathLike[str], solver: str = "native", *,
            timeout: float = 60.0, cpu: float | None = None, memory: int | None = None,
            **options: object) -> Certificate:
    """Decide a deal as `solve` does and, when it is lost, write a certificate of the loss that `check`
    (and `patience check`) verifies without trusting any search: `patience solve --certificate`.

    Args:
        deal: a deal, or the path of a deal file.
        certificate: the file to write (whole, or not at all).
        solver: as `solve`'s; a CNF route that logs proofs (`sat`, `cadical`, ...) gives a SAT proof,
            any other the game's own certificate (of the most cards, with `max_cards="on"`).
        timeout: as `solve`'s; the limits hold for the solver and the certificate together.
        cpu: as `solve`'s.
        memory: as `solve`'s.
        **options: as `solve`'s.

    Returns:
        A `Certificate`, true exactly when one was written: `.result` (the judged `Result`),
        `.positions`, `.size`, or `.reason` why none was.

    Raises:
        UsageError: as `solve`; InputError: a certificate path that cannot be written, or is the deal's.
    """
    from pathlib import Path

    from patience.certificates import Written
    from patience.games import game_of
    from patience.options import option_texts
    from patience.outputs import check_apart, output_file
    from patience.runners.solve import checked_solver
    from patience.runners.solve import solve as solve_deal
    from patience.sat_proof import keep_certificate

    limits = checks.limits(timeout, cpu, memory).counting()
    target = output_file(Path(checks.path(certificate, "certificate")))
    if isinstance(deal, str | os.PathLike):
        check_apart(target, [checks.path(deal, "deal")])
    deal = checks.deal_or_path(deal)
    named = checks.text(solver, "solver")
    texts = option_texts(checks.keywords(options, named))
    result = solve_deal(deal, named, limits, texts)
    if result.status is not Status.UNSOLVABLE:
        return Certificate(result, target, Written(reason=f"the status is {result.status.value}, not unsolvable"))
    _, typed = checked_solver(named, game_of(deal).variant(deal), texts)
    written, kind = keep_certificate(deal, named, typed, target, limits)
    return Certificate(result, target, written, kind)


def check(deal: AnyDeal | str | os.PathLike[str] | None = None, certificate: str | os.PathLike[str] | None = None, *,
          store: str | os.PathLike[str] | None = None, resume: str | os.PathLike[str] | None = None,
          progress: bool = False) -> Checked:
    """Check a certificate of a loss against the deal, knowing only the game's rules (or, of a SAT
    proof, the deal's CNF): `patience check DEAL CERTIFICATE`; or every certificate a certified
    survey or campaign keeps: `patience check --db STORE`.

    Args:
        deal: a deal, or the path of a deal file.
        certificate: the certificate's file (`certify`, `patience solve --certificate`).
        store: instead of a deal and a certificate, a store of `survey(..., certify=True)` or
            `compare(..., certify=True)`.
        resume: with `store`, a file that keeps the certificates passed, so that a check stopped
            part way goes on where it was (`--resume`).
        progress: with `store`, a progress line on standard error.

    Returns:
        A `Checked`, true exactly when the certificate (every one of the store) proves its deal lost:
        `.lines` as `patience check` prints them, `.fault` the first position or step that breaks it
        (of a store: the first certificate not certified).

    Raises:
        InputError: a deal, certificate or store that cannot be read, or a certificate of another deal or game.
        UsageError: both a store and a deal, or neither.
    """
    import tempfile
    from pathlib import Path

    from patience.checker import Broken
    from patience.commands.check import check_store, scratch_deal_file
    from patience.drat import ProofError
    from patience.sat_proof import check_certificate

    if store is not None:
        if deal is not None or certificate is not None:
            raise UsageError("check takes a deal and a certificate, or store=, not both")
        from patience.outputs import check_apart, output_file

        database = Path(checks.path(store, "store"))
        kept = None if resume is None else output_file(Path(checks.path(resume, "resume")))
        if kept is not None:
            check_apart(kept, [database])
        lines, certified = check_store(database, checks.flag(progress, "progress"), kept)
        return Checked(certified, tuple(lines), None if certified else lines[0])
    if deal is None or certificate is None:
        raise UsageError("check needs a deal and a certificate (or store=)")
    named = Path(checks.path(certificate, "certificate"))
    with tempfile.TemporaryDirectory(prefix="patience-check-") as scratch:
        if isinstance(deal, str | os.PathLike):
            deal_path = Path(checks.path(deal, "deal"))
        else:
            deal_path = scratch_deal_file(Path(scratch), checks.deal_or_path(deal))
        try:
            return Checked(True, tuple(check_certificate(deal_path, named)))
        except (Broken, ProofError) as broken:
            return Checked(False, (f"not certified: {broken}",), str(broken))


def validate(deal: AnyDeal | str | os.PathLike[str], moves: Iterable[object] | str | os.PathLike[str], *,
             partial: bool = False) -> Replay:
    """Replay moves on a deal: the one authority on a win.

    Args:
        deal: a deal, or the path of a deal file.
        moves: move names (`["AS", "2H", ...]`, a `Result` or its `moves`), the game's move objects, the text
            of an answer in any form `patience validate` reads (a solver's output too), or the `Path`
            of such a file.
        partial: accept a legal sequence that does not win.

    Returns:
        A `Replay`, true (`if replay:`) exactly when valid: `.valid`, `.moves` (legal moves made) and
        `.fault` (the first illegal move, or what is left), as `patience validate` says it.

    Raises:
        InputError: an answer that cannot be read (naming the line).
        UsageError: moves that are neither names, moves, text nor a path.
    """
    deal = checks.deal_or_path(deal)
    game = checks.game_of_deal(deal)
    return game.replay(deal, read_moves(game, deal, moves), complete=not checks.flag(partial, "partial"))


def show(deal: AnyDeal | str | os.PathLike[str], moves: Iterable[object] | str | os.PathLike[str] | None = None, *,
         solver: str | None = None, timeout: float = 60.0, **options: object) -> Page:
    """The deal's page, as `patience show DEAL [ANSWER] -o page.html` writes it: the cards to step
    through an answer's moves (stopping at the first illegal one with the validator's words), or to
    play by hand.

    Args:
        deal: a deal, or the path of a deal file.
        moves: an answer, in any form `validate` takes; or None.
        solver: solve the deal first and show this solver's answer (instead of `moves`).
        timeout: the solver's time limit in seconds.
        **options: the solver's options.

    Returns:
        A `Page`: `.html` (one self-contained file), `.verdict`, `.result` (the solver's, or None),
        `.write(path)`; a notebook draws it.

    Raises:
        UsageError: both `moves` and `solver`; a bad solver, option or limit.
    """
    from patience.commands.show import shown
    from patience.options import option_texts

    deal = checks.deal_or_path(deal)
    game = checks.game_of_deal(deal)
    if moves is not None and solver is not None:
        raise UsageError("give moves or solver, not both")
    read = None if moves is None else read_moves(game, deal, moves)
    limits = checks.limits(timeout, None, None)
    named = checks.text(solver, "solver", optional=True)
    given = option_texts(checks.keywords(options, named or "show"))
    if given and named is None:
        raise UsageError(f"solver options ({', '.join(given)}) need a solver")
    heading = game.label(deal) or game.describe(deal)
    from patience.pages.notebook import frame_height

    page = shown(game, deal, heading, read, "the moves given" if read is not None else "", named, limits, given)
    stepped = read if page.result is None else page.result.sequence
    return Page(page.page, page.verdict, page.result, frame_height(deal, stepped))


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


def read_moves(game: Game[Any], deal: AnyDeal, moves: object) -> Sequence[Move]:
    """Moves as `validate` and `show` take them (names, the game's moves, an answer's text or its
    file), read into the game's moves; nothing replayed yet."""
    from patience.reading import read_text

    if isinstance(moves, Result):  # a result's own moves (none unless solved)
        moves = moves.sequence or ()
    if isinstance(moves, os.PathLike):
        named = checks.path(moves, "moves")
        return game.read_answer(read_text(named), named, deal)
    if isinstance(moves, str):
        return game.read_answer(moves, "<moves>", deal)
    if not isinstance(moves, Iterable) or isinstance(moves, bytes | bytearray | dict):
        raise UsageError("moves must be move names, the game's moves, an answer's text or a pathlib.Path, "
                         f"not {type(moves).__name__}")
    names = _move_names(game, deal, moves)
    return game.read_answer("\n".join(names), "<moves>", deal) if names else ()


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
