"""Hunting for the deal a student's model gets wrong, and shrinking it to one a person can check.

The hunt poses seeded random deals (growing in size where the model takes sizes as data, else of
the model's fixed shape), runs the model and the native search on each, and stops at the first
disagreement: a solution that does not replay, "no solution" where the search wins, or an error.
The shrinker then tries smaller deals, as Hypothesis shrinks a failing example: fewer piles, fewer
cards, fewer ranks, then a simpler order, keeping any candidate on which the model still goes wrong
(an illegal play or a lost win; an error only where the deal found was an error too: a model that
cannot read a smaller deal's data has not shown its fault there). A model of fixed shape cannot lose
cards: its shrink only reorders the deal's cards toward sorted, swapping cards of different ranks
(the rules see ranks alone), and a model found to fail on any smaller shape is treated as fixed from
then on; no deal is run twice.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, cast

from patience.binary_star.deal import BinaryStarDeal
from patience.cards import STANDARD_RANKS, Card
from patience.deal import Deal
from patience.errors import UsageError, printable
from patience.games import AnyDeal, game_of, games_with, get_game, hook
from patience.generators.deals import pysol_deal, random_deal
from patience.grading.student import NativeTruth, StudentModel, grade_result
from patience.grading.table import CORRECT, ERROR, WRONG, Graded
from patience.lbs import deal as lbs_deal
from patience.names import ALL_IN_A_ROW, BINARY_STAR
from patience.outputs import write_files
from patience.pages.replay import game_page, render
from patience.result import Status
from patience.runs.pool import in_order
from patience.runs.progress import Progress

OUTCOMES = {CORRECT: "agree", WRONG: "wrong"}  # a posed deal's row, as the progress line counts it
HUNT_SHOWN = ("agree", "wrong", "undecided")
SHRINK_SHOWN = ("smaller", "agree", "other fault", "undecided")  # a candidate: kept, or why not
# the model runs the shrinker may make, then it keeps the smallest deal found: a count, not a clock, so that
# the same hunt shrinks to the same deal on any machine under any load
SHRINK_RUNS = 200


@dataclass(frozen=True)
class Counterexample:
    deal: AnyDeal
    row: Graded  # the model's wrong answer on it
    posed: int  # deals posed before it was found


def fixed_shape(student: StudentModel) -> bool:
    """Whether the model plays the standard deal only: its mapping says `shape: fixed`, or it reads
    the one 17 x 3 layout of the public Black Hole model."""
    return student.mapping.fixed_shape or student.options.get("formulation") == "benchmark"


def posed_deals(game: str, fixed: bool, seed: int) -> Iterator[AnyDeal]:
    """Endless seeded deals of `game`: the standard shape when `fixed`, else sizes growing from tiny
    (the game's `posed_deals` hook makes each: deal `index` from its own seed, and the hunt's rng
    for any other choice)."""
    played = get_game(game)
    if played.posed_deals is None:
        raise UsageError(f"--hunt poses deals of {', '.join(games_with('posed_deals'))}; not {game}")
    posed: PosedDeal = hook(played.posed_deals)
    rng = random.Random(seed)
    for index in range(10 ** 9):
        yield posed(game, index, rng.randrange(2 ** 32), rng, fixed)


PosedDeal = Callable[[str, int, int, random.Random, bool], AnyDeal]  # a game's `posed_deals` hook


def posed_black_hole(game: str, index: int, seed: int, rng: random.Random, fixed: bool) -> Deal:
    """The Black Hole family's: the game's own shape when `fixed`, else ranks, suits and heights growing."""
    if fixed:
        return random_deal(STANDARD_RANKS, 4, 3 if game != ALL_IN_A_ROW else 4, seed,
                           empty_foundation=game == ALL_IN_A_ROW)
    ranks = min(3 + index // 8, STANDARD_RANKS)
    return random_deal(ranks, rng.randint(1, 4), rng.randint(1, 3), seed, empty_foundation=game == ALL_IN_A_ROW)


def posed_binary_star(game: str, index: int, seed: int, rng: random.Random, fixed: bool) -> BinaryStarDeal:
    """Binary Star's: PySolFC's deals when `fixed`, else two small decks growing."""
    if fixed:
        return cast(BinaryStarDeal, pysol_deal(BINARY_STAR, 1 + seed))
    return random_binary_star(min(3 + index // 8, STANDARD_RANKS), rng.randint(1, 2), rng.randint(1, 3), seed)


def posed_lbs(game: str, index: int, seed: int, rng: random.Random, fixed: bool) -> lbs_deal.LBSDeal:
    """LBS's: rows of 3 cards and up, to 20."""
    return lbs_deal.random_deal(min(3 + index // 4, 20), seed)


def random_binary_star(ranks: int, suits: int, pile_height: int, seed: int) -> BinaryStarDeal:
    """Two decks of `ranks` x `suits` cards: the lowest card of suit 0 and the highest of the last
    suit on the two foundations (A♠ and K♥ in the standard game), the rest shuffled into piles."""
    cards = [Card(rank, suit) for _ in range(2) for suit in range(suits) for rank in range(ranks)]
    starts = (Card(0, 0), Card(ranks - 1, suits - 1))
    for start in starts:
        cards.remove(start)
    random.Random(seed).shuffle(cards)
    piles = tuple(tuple(cards[start:start + pile_height]) for start in range(0, len(cards), pile_height))
    return BinaryStarDeal(piles, starts, ranks)


class Hunt:
    """The model against the native search, deal after deal."""

    def __init__(self, student: StudentModel, native: NativeTruth, timeout: float) -> None:
        self.student, self.native, self.timeout = student, native, timeout
        self.undecided = 0  # deals posed that neither side decided in time: agreement, but not evidence
        self.shrink_runs = 0  # the model runs the last shrink made
        self.fixed = fixed_shape(student)  # the last shrink took the model to be of fixed shape

    def search(self, game: str, count: int, seed: int, jobs: int = 1,
               progress: Progress | None = None) -> Counterexample | None:
        """The first of `count` posed deals the model gets wrong, `jobs` deals run at once: the first
        wrong one in the hunt's order, so that any `jobs` finds the same deal. The deals before it run
        to their end; those after it, still running, are stopped at once (so is every run at a stop)."""
        deals = itertools.islice(posed_deals(game, fixed_shape(self.student), seed), count)
        with contextlib.closing(in_order(self.row, deals, jobs, last=lambda row: row.grade == WRONG)) as rows:
            for posed, (deal, row) in enumerate(rows, 1):
                self.undecided += row.grade not in (WRONG, CORRECT)
                if progress is not None:
                    progress.update(OUTCOMES.get(row.grade, "undecided"))
                if row.grade == WRONG:
                    return Counterexample(deal, row, posed)
        return None

    def row(self, deal: AnyDeal) -> Graded:
        return grade_result(game_of(deal).label(deal) or "deal", deal,
                            self.student.run(deal, self.timeout), self.native)

    def shrink(self, found: Counterexample, runs: int = SHRINK_RUNS,
               progress: Progress | None = None) -> Counterexample:
        """The smallest deal the passes reach on which the model is still wrong, not merely failing to
        run (greedy, first fit), in at most `runs` runs of the model (`self.shrink_runs` says how many it made;
        `self.fixed` whether it took the model to be of fixed shape)."""
        best, self.shrink_runs, self.fixed = found, 0, fixed_shape(self.student)
        tried = {found.deal}
        improved = True
        while improved:
            improved = False
            for candidate in smaller(best.deal, self.fixed):
                if candidate in tried:  # its row is known: the model was not wrong on it the same way
                    continue
                if self.shrink_runs >= runs:
                    return best
                tried.add(candidate)
                self.shrink_runs += 1
                row = self.row(candidate)
                outcome = _shrink_outcome(row, found.row)
                self.undecided += outcome == "undecided"
                if progress is not None:
                    progress.update(outcome)
                if outcome == "smaller":
                    best, improved = Counterexample(candidate, row, found.posed), True
                    break
                if outcome == "other fault" and row.verdict == ERROR and shape(candidate) != shape(best.deal):
                    self.fixed = True  # it cannot run a smaller shape: reorder the cards only, from now on
                    improved = True
                    break
        return best


def _shrink_outcome(row: Graded, wrong: Graded) -> str:
    """How a shrink candidate's row counts: `smaller` (kept: an illegal play or a lost win, or an error
    where the deal found was one), `other fault` (an error where the deal found was answered: data the
    model cannot read, say), `agree` or `undecided`."""
    if row.grade == WRONG:
        return "other fault" if row.verdict == ERROR != wrong.verdict else "smaller"
    return "agree" if row.grade == CORRECT else "undecided"


def shape(deal: AnyDeal) -> tuple[object, ...]:
    """What a model of fixed shape fixes: the ranks, and the piles' heights (an LBS row's length)."""
    sizes = game_of(deal).sizes(deal)
    return sizes.ranks, sizes.heights


def smaller(deal: AnyDeal, fixed: bool) -> Iterator[AnyDeal]:
    """Candidate deals one step simpler than `deal`, the biggest steps first: its game's shrinker."""
    return game_of(deal).smaller(deal, fixed)


def write_counterexample(hunt: Hunt, found: Counterexample, folder: Path, game: str) -> tuple[Path, Path]:
    """The deal in the model's data format, and the replay page of the right answer (the native
    search's win; the deal to play by hand if the search proves it unsolvable)."""
    model = hunt.student.solver.build(found.deal, hunt.student.options)
    data = Path(model.primary)
    target, page = folder / f"counterexample{data.suffix}", folder / "counterexample.html"
    truth = hunt.native(found.deal)
    moves = truth.sequence if truth.status is Status.SOLVED else None
    verdict = "the native search wins it" if moves is not None else f"native: {truth.status.value}"
    write_files(folder, {target.name: model.files[model.primary],
                         page.name: render(game_page(game, found.deal, moves, str(target)), "Counterexample",
                                           [f"{printable(hunt.student.path.name)}: {found.row.verdict}, "
                                            f"{found.row.note}",
                                            verdict])})
    return target, page


def hunt_model(student: StudentModel, native: NativeTruth, game: str, count: int, seed: int, timeout: float,
               folder: Path, report: Callable[[str], None], jobs: int = 1, progress: bool = False,
               shrink_runs: int = SHRINK_RUNS, stream: TextIO | None = None) -> int:
    """Run the hunt; 0 when all `count` deals agree, 1 with `counterexample: FILE` and the reason.
    With `progress`, a line on `stream` (stderr) counts the deals posed, and then the shrink's runs:
    redrawn on a terminal, elsewhere (a log) a plain line every tenth of the way and every minute
    (a hunt of 200 hard deals takes half an hour), and a line when the shrink starts."""
    hunt = Hunt(student, native, timeout)
    with Progress(count, Counter(), stream, enabled=progress, shown=HUNT_SHOWN, title="hunt", verb="posed") as line:
        found = hunt.search(game, count, seed, jobs, line)
    if found is None:
        report(f"all {count} deals agree (seed {seed}; {hunt.undecided} not decided within the time limit)")
        return 0
    cards = len(found.deal.cards)
    if progress and shrink_runs:
        out = stream or sys.stderr
        out.write(f"deal {found.posed} of the hunt is wrong ({cards} cards): shrinking it, at most {shrink_runs} "
                  "runs\n")
        out.flush()
    with Progress(shrink_runs, Counter(), stream, enabled=progress and shrink_runs > 0, shown=SHRINK_SHOWN,
                  title="shrink", verb="runs") as line:
        small = hunt.shrink(found, shrink_runs, line)
    target, page = write_counterexample(hunt, small, folder, game)
    report(f"counterexample: {printable(str(target))}")
    shrunk = (f"its {cards} cards reordered in {hunt.shrink_runs} runs (a model of fixed shape keeps its cards)"
              if hunt.fixed and shape(small.deal) == shape(found.deal)
              else f"shrunk to {len(small.deal.cards)} cards in {hunt.shrink_runs} runs")
    report(f"deal {found.posed} of the hunt, {shrunk}: the model's answer is {small.row.verdict}, {small.row.note} "
           f"(replay of the right answer: {printable(str(page))})")
    return 1
