"""Running a survey: check what is asked (game, shape, seeds), plan the batches of deals that have no
row yet, run them, store each batch as it arrives, and keep the progress bar going; and read a store
back as its summary. `patience survey` and `patience.survey` both come this way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from patience.errors import InputError, UsageError, quote
from patience.games import games_with
from patience.names import BLACK_HOLE, GENERALISED, NUMBERED_GAMES, SPECIAL_CASES
from patience.numeric import whole_or_none
from patience.runs import cluster as clusters
from patience.runs.pool import Runner
from patience.runs.progress import Progress
from patience.runs.specs import parse_seeds
from patience.runs.stops import Kept, keeping
from patience.survey import report
from patience.survey.decide import Certified, Shape, batches, certify_batch, decide_batch
from patience.survey.store import MAX_CARDS, UNDECIDED, VERDICTS, Row, SurveyStore, survey_settings

LAST_STORABLE_SEED = 2 ** 63 - 1  # SQLite integers
# the numbered games, those a game deals by its `numbered_deal` hook and searches by its `survey_search`
# (Golf's three variants) among them, and random generalised Black Hole deals
SURVEYED_GAMES = (*NUMBERED_GAMES, *(game for game in games_with("numbered_deal") if game in games_with("survey_search")
                                    and game not in (*NUMBERED_GAMES, *SPECIAL_CASES)), GENERALISED)
WORDS: dict[str, str] = {UNDECIDED: "undecided"}  # a survey's verdicts as its progress line names them


def survey_seeds(text: str) -> list[int]:
    """The deal numbers `text` names (`1-1000,2000`); a usage error for a number no store can hold."""
    seeds = parse_seeds(text, text)
    if min(seeds) < 1 or max(seeds) > LAST_STORABLE_SEED:
        raise UsageError(f"--seeds {text}: deals are numbered from 1 to {LAST_STORABLE_SEED} here")
    return seeds


def game_and_shape(game: str | None, shape: str | None) -> tuple[str, Shape | None]:
    """The game surveyed (a canonical name, or None for the default) and, for random generalised
    deals, their checked shape (`shape`: `RANKS,SUITS,HEIGHT`); checked before any store is touched."""
    from patience.generators.deals import random_deal
    from patience.native import engine

    game = game or (GENERALISED if shape else BLACK_HOLE)
    if game != GENERALISED:
        if shape:
            raise UsageError(f"--shape is for --game {GENERALISED}, not {game}")
        return game, None
    if not shape:
        raise UsageError(f"--game {GENERALISED} needs --shape RANKS,SUITS,HEIGHT (say 13,4,3)")
    numbers = [whole_or_none(number) for number in shape.split(",")]
    ranks, suits, height = (numbers + [None] * 3)[:3]
    if len(numbers) != 3 or ranks is None or suits is None or height is None:
        raise UsageError(f"--shape {quote(shape)}: expected RANKS,SUITS,HEIGHT, three whole numbers")
    try:
        random_deal(ranks, suits, height, 0)  # the shape's checks and caps
    except ValueError as error:
        raise UsageError(f"--shape {quote(shape)}: {error}") from None
    if ranks * suits > engine.COMPILED_MAX_CARDS:
        raise UsageError(f"--shape {quote(shape)}: {ranks * suits:,} cards; the compiled search takes at most "
                         f"{engine.COMPILED_MAX_CARDS:,}")
    return game, (ranks, suits, height)


def check_counts(batch: int | None, nodes: int | None) -> None:
    """A usage error for a batch size or a node limit below 1 (None: the default)."""
    if batch is not None and batch < 1:
        raise UsageError(f"--batch must be at least 1, not {batch}")
    if nodes is not None and nodes < 1:
        raise UsageError(f"--nodes must be at least 1, not {nodes}")


def run_survey(path: str | Path, game: str, numbering: str | None, shape: Shape | None, seeds: Sequence[int],
               mode: str, seconds: float, nodes: int | None, batch_size: int, *, jobs: int = 1,
               scheduler: str | None = None, cluster: clusters.Cluster | None = None, logs: bool = True,
               show_progress: bool = True, certify: bool = False) -> tuple[int, int]:
    """The survey `patience survey` and `patience.survey` run: its workers (`jobs` local ones, one in
    this process, or on `scheduler` or `cluster`, as patience.runs.cluster.runner says; `logs`: a
    cluster's jobs write their logs beside `path`, which the nodes must see), then the store at `path`
    opened (or made), held to the survey's settings, and every seed without a row decided (`certify`:
    with a certificate of each loss); returns (deals stored before, deals stored now)."""
    run = clusters.runner(jobs, scheduler, cluster, seconds=seconds, store=path if logs else None)
    with SurveyStore(path) as store:
        store.fix_settings(survey_settings(game, None if shape else numbering, shape, mode, seconds, nodes, certify))
        return survey(store, game, None if shape else numbering, seeds, batch_size, seconds, run, show_progress,
                      nodes, mode, shape, certify)


def read_survey(path: str | Path) -> tuple[dict[str, object], report.Summary, list[Row]]:
    """A survey store's settings, summary and rows; an input error for a store with no decided deal or
    of a game this patience does not know."""
    with SurveyStore(path, create=False) as store:
        settings, rows, certified = store.settings(), store.rows(), store.certified()
    if not rows:
        raise InputError(str(path), None, "holds no decided deals yet")
    try:
        cards = report.tableau_cards(settings)
    except KeyError:
        raise InputError(str(path), None, f"a survey of no game this patience knows ({settings.get('game')})") from None
    summary = report.summarise(str(settings["game"]), rows, cards)
    return settings, replace(summary, certified=certified), rows


def survey(store: SurveyStore, game: str, numbering: str | None, seeds: Sequence[int], batch_size: int,
           seconds: float, run: Runner, show_progress: bool = True, nodes: int | None = None,
           mode: str = MAX_CARDS, shape: Shape | None = None, certify: bool = False) -> tuple[int, int]:
    """Decide every seed without a row (`certify`: and certify each loss, stored with its row);
    returns (deals stored before, deals stored now). A stop raises Interrupted or Ended saying what
    is stored (patience.runs.stops)."""
    wanted = set(seeds)
    stored = store.stored_seeds(min(wanted), max(wanted)) & wanted
    done = Counter(store.verdict_counts(wanted))
    todo = [seed for seed in seeds if seed not in stored]
    progress = Progress(len(wanted), done, enabled=show_progress, shown=VERDICTS, title="survey", words=WORDS)
    new = 0

    def keep(decided: list[Row] | Certified) -> None:
        nonlocal new
        rows, certificates = (decided.rows, decided.certificates) if isinstance(decided, Certified) else (decided, [])
        new += store.add_batch(rows, certificates)
        for row in rows:
            progress.counts[row.verdict] += 1
        progress.show()

    work = batches(game, numbering, todo, batch_size, seconds, nodes, mode, shape, certify)
    with keeping(lambda: Kept(len(stored) + new, len(wanted), new)), progress:
        run(certify_batch if certify else decide_batch, work, keep)
    return len(stored), new
