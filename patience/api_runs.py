"""The Python API's long runs: campaigns (`compare`, `report`), surveys (`survey`) and benchmark
families (`family`), each on the road of its command (patience/api.py says why)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from patience import api_checks as check
from patience.api_results import Report, SurveySummary
from patience.caps import MAX_DEALS
from patience.errors import UsageError

if TYPE_CHECKING:
    import pandas

    from patience.runs.specs import NamedDeal

_ONE_DEAL = "a deal spec (black_hole:1-20), a deal file or folder, a deal, or a list of them"


def compare(deals: Any, solvers: str | Iterable[str], *, game: str | None = None, timeout: float = 60.0,
            cpu: float | None = None, memory: int | None = None, jobs: int = 1,
            store: str | os.PathLike[str] | None = None, seed: int = 0, retry_errors: bool = False,
            progress: bool = False, certify: bool = False, scheduler: str | None = None,
            cluster: str | Mapping[str, object] | None = None) -> pandas.DataFrame:
    """Run solvers on many deals, as `patience compare` does, and return one row a run.

    Args:
        deals: deal specs (`"black_hole:1-20"`, `"random:13,4,3:1-10"`, a folder or a file), deals
            (`patience.deal("black_hole", seed=5)`), or a list of them; or, with `game`, deal numbers
            (`range(1, 21)`, a list of ints).
        solvers: solver names, or labelled configurations `"LABEL=SOLVER OPTION=VALUE ..."`.
        game: the game whose numbered deals `deals` numbers (as the spec `GAME:NUMBERS`).
        timeout: wall-clock limit per run in seconds; cpu: CPU limit (default the timeout);
            memory: MiB per run (as `--timeout`, `--cpu`, `--memory`).
        jobs: runs at once: worker processes, or workers on `cluster`. Local workers are started afresh
            and import the calling script: call it under `if __name__ == "__main__":` there.
        store: a SQLite store to keep and resume (default: a temporary one, removed afterwards).
        seed: the seed of the order in which runs are made.
        retry_errors: run again the runs a given store holds as errors.
        progress: draw the progress bar on standard error.
        certify: give each loss a run reports a certificate of the game's own, kept beside its row in
            the store, as an experiment file's `certify: true` does (docs/certificates.md); the frame's
            `.attrs["certified"]` is (certificates, losses). `patience check --db STORE` verifies them,
            each deal made again from its name: deals given by spec, file or number; a deal given as an
            object is stored by its content key only and cannot be checked there.
        scheduler: `"tcp://HOST:PORT"`: run on the workers of this Dask distributed scheduler, as
            `patience compare --scheduler` does (the store stays in this process).
        cluster: `"slurm"`, or a dict of the options of `--cluster slurm` (`partition`, `account`,
            `cores`, `memory`, `walltime`: `{"partition": "short", "cores": 4, "walltime": "2:00:00"}`):
            run on Slurm jobs, as `patience compare --cluster slurm` does (docs/campaign.md).

    Returns:
        A pandas DataFrame, one row per deal and configuration, in the order asked: `deal`,
        `configuration`, `solver`, `status`, `sequence`, `wall`, `cpu`, `nodes`, `version`, ...
        `.attrs["contradictions"]` lists deals solved by one configuration and called unsolvable by
        another (a warning is issued too); `.attrs["certified"]` is None unless `certify`. A deal
        given as an object is named `VARIANT#CONTENT` (its game and the first 12 digits of its
        content key).

    Raises:
        UsageError: a bad spec, deal, solver, option or limit; a store made with other limits.
        InputError: a store that is not a campaign store, or damaged.
    """
    import pandas

    from patience.campaign import config
    from patience.campaign.run import run_campaign
    from patience.runs import cluster as clusters

    named = named_deals(deals, check.text(game, "game", optional=True))
    configurations: list[config.Configuration] = []
    for entry in _texts(solvers, "solvers"):
        configurations += [config.from_config_argument(entry)] if "=" in entry else config.from_solver_list(entry)
    if not configurations:
        raise UsageError("solvers: no solvers to compare")
    configurations = config.gathered(configurations)
    limits = check.limits(timeout, cpu, memory)
    on = clusters.from_api(cluster)
    ordered, retried = check.whole(seed, "seed"), check.flag(retry_errors, "retry_errors")
    show_progress, certified = check.flag(progress, "progress"), check.flag(certify, "certify")
    address = check.text(scheduler, "scheduler", optional=True)
    with tempfile.TemporaryDirectory(prefix="patience-compare-") as scratch:
        path = Path(scratch) / "campaign.sqlite" if store is None else Path(check.path(store, "store"))
        # one local job: in this process, no worker to start; a temporary store: no logs
        sitting = run_campaign(named, configurations, limits, path, jobs=check.jobs(jobs), scheduler=address,
                               cluster=on, here=True, logs=store is not None, show_progress=show_progress,
                               seed=ordered, retry_errors=retried, certify=certified)
    order = {(item.name, item.content, configuration.label): index for index, (item, configuration)
             in enumerate((item, configuration) for item in named for configuration in configurations)}
    rows = sorted((row for row in sitting.runs if (row.source, row.content, row.configuration) in order),
                  key=lambda row: order[row.source, row.content, row.configuration])
    frame = pandas.DataFrame([vars(row) for row in rows])
    frame.attrs["contradictions"] = list(sitting.contradictions)
    frame.attrs["certified"] = sitting.certified
    if sitting.contradictions:
        warnings.warn(f"{len(sitting.contradictions)} deals have contradicting verdicts: "
                      f"{', '.join(str(item['deal']) for item in sitting.contradictions[:5])}", stacklevel=2)
    return frame


def report(store: str | os.PathLike[str], *, clock: str = "cpu", deals: Any = None) -> Report:
    """A campaign store's tables, as `patience report STORE` prints them: the paper's Table 4, the
    correlations of per-deal times, the win rates, the disagreements and the errors.

    Args:
        store: a store `compare` (or `patience compare --db`) wrote.
        clock: `cpu` (the paper's) or `wall`: which time the tables use.
        deals: only the runs on these deals (anything `compare` takes as `deals`).

    Returns:
        A `Report`: `.table4` and `.tables[NAME]` as pandas DataFrames, `str(report)` the text the
        command prints, `.to_dict()` its JSON.

    Raises:
        InputError: a file that is not a campaign store, or one with no runs yet.
    """
    import pandas

    from patience.campaign import tables
    from patience.commands.report import opened

    path = check.path(store, "store")
    used = check.choice(clock, "clock", ("cpu", "wall"))
    kept = None if deals is None else named_deals(deals, None)
    with opened(path, kept) as store_opened:  # as `patience report` opens it
        data, built = tables.build(store_opened, used)
    frames = {table.name: pandas.DataFrame(list(table.rows), columns=list(table.headers)) for table in built}
    if "table4" in frames:
        frames["table4"] = frames["table4"].rename(columns={"": "measure"}).set_index("measure")
    return Report(data, frames, tuple(built))


def survey(game: str | None = None, seeds: str | Iterable[int] = "1-1000", *,
           shape: str | Sequence[int] | None = None, mode: str = "max-cards", timeout: float = 60.0,
           nodes: int | None = None, numbering: str | None = None, batch: int | None = None, jobs: int = 1,
           store: str | os.PathLike[str] | None = None, progress: bool = False,
           certify: bool = False, scheduler: str | None = None,
           cluster: str | Mapping[str, object] | None = None) -> SurveySummary:
    """Decide every deal of a numbered range with the native search, as `patience survey` does.

    Args:
        game: `black_hole` (the default), `all_in_a_row`, `binary_star`, or `generalised` (the
            default with `shape`).
        seeds: deal numbers: a `range(1, 1001)`, a list of ints, or text as `--seeds` takes it
            (`"1-1000"`, `"1-100,500"`). A survey's store keeps deals by number: for deal objects,
            `compare(deals, "native")`.
        shape: for `generalised`: random deals of (ranks, suits, pile height), e.g. `(13, 4, 3)`.
        mode: `max-cards` (the most cards removable too) or `decision` (won or lost only, faster).
        timeout: search limit per deal in seconds; nodes: node limit per deal as well.
        numbering: `pysolfc` (default), `pysol` or `ms`.
        batch: deals per task (default 2000).
        jobs: worker processes (1: in this process); as for `compare`, a script calls it under
            `if __name__ == "__main__":` when it asks for more.
        store: a SQLite store to keep and resume (default: a temporary one, removed afterwards).
        progress: draw the progress bar on standard error.
        certify: keep a certificate of each loss in the store (`summary.summary.certified` counts
            them; `patience check --db STORE` verifies them), as `patience survey --certify` does.
        scheduler: `"tcp://HOST:PORT"`: run the batches on this Dask distributed scheduler's workers,
            as `patience survey --scheduler` does.
        cluster: run on Slurm jobs, as for `compare`; `jobs` batches at once.

    Returns:
        A `SurveySummary`: `str(summary)` is what `patience survey report` prints; `.to_dict()`.

    Raises:
        UsageError: a bad game, shape, seeds, mode or limit; a store made with other settings.
    """
    from patience.names import DEFAULT_NUMBERING, game_name, numbering_name
    from patience.runs import cluster as clusters
    from patience.survey.report import wilson
    from patience.survey.run import SURVEYED_GAMES, game_and_shape, read_survey, run_survey, survey_seeds
    from patience.survey.store import MODES

    chosen = check.choice(mode, "mode", MODES)
    if shape is not None and not isinstance(shape, str):
        shape = ",".join(str(check.whole(number, "shape", 1)) for number in _listed(shape, "shape", 3))
    seconds = check.seconds(timeout, "timeout")
    limit = check.nodes(nodes)
    size = check.whole(batch, "batch", 1, MAX_DEALS, optional=True)
    named = check.text(game, "game", optional=True)
    numbered = check.text(numbering, "numbering", optional=True)
    surveyed, checked_shape = game_and_shape(None if named is None else game_name(named, SURVEYED_GAMES), shape)
    numbers = survey_seeds(seeds) if isinstance(seeds, str) else _seeds(seeds)
    on = clusters.from_api(cluster)
    show_progress = check.flag(progress, "progress")
    certified = check.flag(certify, "certify")
    address = check.text(scheduler, "scheduler", optional=True)
    with tempfile.TemporaryDirectory(prefix="patience-survey-") as scratch:
        path = Path(scratch) / "survey.sqlite" if store is None else Path(check.path(store, "store"))
        run_survey(path, surveyed, numbering_name(numbered or DEFAULT_NUMBERING), checked_shape, numbers, chosen,
                   seconds, limit, size or 2000, jobs=check.jobs(jobs), scheduler=address, cluster=on,
                   logs=store is not None,
                   show_progress=show_progress, certify=certified)
        settings, summary, rows = read_survey(path)
    return SurveySummary(summary.game, summary.deals, summary.won, summary.lost,
                         wilson(summary.won, summary.decided), dict(summary.histogram), summary.undecided, settings,
                         summary, tuple(rows))


def family(language: str, deals: str, out: str | os.PathLike[str], *, status: str = "any",
           select: str | None = None, measure: str | None = None, seed: int = 0, label_timeout: float = 60.0,
           jobs: int = 1, force: bool = False, progress: bool = False, **options: object) -> pandas.DataFrame:
    """Write a benchmark family, as `gen LANGUAGE --deals SPEC -o OUT` does (docs/families.md): the
    native search labels every deal, `status` and `select` choose, and the chosen deals' models are
    written into `out` with `index.csv` and `index.json`, the folder whole or not at all.

    Args:
        language: the model language (`xcsp3`, `cnf`, `pddl`, ...; `minizinc` for `mzn`).
        deals: the deal spec (`"random:13,8,4:1-500"`, a folder).
        out: the family's folder.
        status: `any`, `solved` or `unsolvable`: keep only deals of this native verdict.
        select: `hardest:N`, `easiest:N` or `sample:N`.
        measure: `STORE:SOLVER`: rank by that configuration's time in a campaign store (default:
            the native search's nodes).
        seed: the seed of `sample:N`; label_timeout: the native search's limit per deal;
        jobs: worker processes (more than one: call it under `if __name__ == "__main__":`, as for
            `compare`); force: replace a non-empty `out`; progress: the progress bar.
        **options: the generator's options, as for `generate`.

    Returns:
        The family's index (`index.json`'s rows) as a pandas DataFrame; `.attrs["summary"]` is the
        line the command prints.

    Raises:
        UsageError: a bad spec, option, selection or folder.
    """
    import argparse

    import pandas

    from patience.api import LANGUAGE_ALIASES
    from patience.commands import gen_family
    from patience.families import select as selections
    from patience.options import option_texts

    named = check.text(language, "language")
    named = LANGUAGE_ALIASES.get(named, named)
    folder = Path(check.path(out, "out"))
    args = argparse.Namespace(
        format=named, deal=None, game=None, output_dir=folder, deals=check.text(deals, "deals"),
        status=check.choice(status, "status", tuple(selections.STATUSES)),
        select=check.text(select, "select", optional=True), measure=check.text(measure, "measure", optional=True),
        seed=check.whole(seed, "seed"), label_timeout=check.seconds(label_timeout, "label_timeout"),
        jobs=check.jobs(jobs), force=check.flag(force, "force"), quiet=not check.flag(progress, "progress"))
    given = {name: text for name, text in option_texts(check.keywords(options, f"gen {named}")).items()}
    if named not in _languages():
        raise UsageError(f"unknown model language {named!r}; known: {', '.join(_languages())}")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        gen_family.run(args, given)
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    frame = pandas.DataFrame(index["instances"] if isinstance(index, dict) else index)
    frame.attrs["summary"] = said.getvalue().strip()
    return frame


def named_deals(deals: Any, game: str | None) -> list[NamedDeal]:
    """The deals `compare` and `report` take, each with the name a store keeps: specs and paths as
    `--deals` reads them, deal objects by content, numbers as `GAME:NUMBER`; anything else refused."""
    from patience.games import deal_content
    from patience.runs import specs

    if isinstance(deals, str | os.PathLike) or check.is_deal(deals):
        deals = [deals]
    elif isinstance(deals, range) or (isinstance(deals, Iterable) and not isinstance(deals, bytes | dict)):
        deals = list(deals)
    else:
        raise UsageError(f"deals must be {_ONE_DEAL}, not {type(deals).__name__}")
    found: dict[str, NamedDeal] = {}
    for item in deals:
        if isinstance(item, int) and not isinstance(item, bool) and game is None:
            raise UsageError("deals: numbers need a game: give game='black_hole', or a spec such as black_hole:1-20")
        if isinstance(item, int) and not isinstance(item, bool):
            named = specs.resolve(f"{game}:{check.whole(item, 'deals', 1)}")
        elif isinstance(item, str | os.PathLike):
            spec = check.path(item, "deals").strip()
            named = specs.resolve(spec) if spec else []
        elif check.is_deal(item):
            kind = check.game_of_deal(item)
            named = [specs.NamedDeal(f"{kind.variant(item)}#{deal_content(kind, item)[:12]}", kind, item)]
        else:
            raise UsageError(f"deals must be {_ONE_DEAL}; one of them is a {type(item).__name__}")
        for entry in named:
            found.setdefault(entry.name, entry)
    if not found:
        raise UsageError("no deals: give deal specs such as black_hole:1-20, or deals")
    if len(found) > MAX_DEALS:
        raise UsageError(f"deals: {len(found):,} deals, more than the cap of {MAX_DEALS:,}")
    return list(found.values())


def _languages() -> tuple[str, ...]:
    from patience.generators import MODEL_LANGUAGES

    return tuple(MODEL_LANGUAGES)


def _texts(value: object, what: str) -> list[str]:
    """One text or an iterable of texts, as a list; a usage error naming `what` for anything else."""
    if isinstance(value, str):
        return [value]
    items = _listed(value, what)
    for item in items:
        check.text(item, f"each of {what}")
    return items  # type: ignore[return-value]


def _listed(value: object, what: str, length: int | None = None) -> list[object]:
    """An iterable (not text, bytes or a mapping) as a list, of `length` items when given."""
    if isinstance(value, str | bytes | dict) or not isinstance(value, Iterable):
        raise UsageError(f"{what} must be a list, not {type(value).__name__}")
    items = list(value)
    if length is not None and len(items) != length:
        raise UsageError(f"{what} must have {length} items, not {len(items)}")
    return items


def _seeds(seeds: object) -> list[int]:
    """Deal numbers given as a range or a list of ints (as `--seeds`: from 1, each once, in order)."""
    from patience.survey.run import LAST_STORABLE_SEED

    if isinstance(seeds, int):
        raise UsageError(f"seeds must be deal numbers: range(1, {seeds + 1}), a list of ints or text such as "
                         f"'1-{seeds}', not the int {seeds}")
    if isinstance(seeds, range) and len(seeds) > MAX_DEALS:
        raise UsageError(f"seeds: {len(seeds):,} deals, more than the cap of {MAX_DEALS:,}")
    if check.is_deal(seeds):
        seeds = [seeds]
    numbers = _listed(seeds, "seeds")
    if any(check.is_deal(number) for number in numbers):
        raise UsageError("seeds must be deal numbers: a survey decides a game's numbered deals (its store keeps "
                         "them by number); for deals as objects, patience.compare(deals, 'native')")
    if not numbers:
        raise UsageError("seeds names no deals")
    if len(numbers) > MAX_DEALS:
        raise UsageError(f"seeds: {len(numbers):,} deals, more than the cap of {MAX_DEALS:,}")
    return sorted({check.whole(number, "each of seeds", 1, LAST_STORABLE_SEED) for number in numbers})
