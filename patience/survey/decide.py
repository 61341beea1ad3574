"""Deciding a batch of numbered deals (or seeded random generalised deals of one shape) with the
native search, in max-cards or decision mode, in a worker.

`decide_batch` is the one place that calls the search per deal; a batch entry point of the engine
can replace its loop without touching the rest of the survey. Black Hole and All in a Row are
searched in max-cards mode (from the back too, in turns, when the first search leaves a deal open:
decide_numbered); Binary Star in decision mode (its balance test works only there),
and a lost deal again in max-cards mode, which gives the same row: a win plays every card. In
decision mode a deal is searched once, and a lost or undecided deal's cards are the longest play the
search met, a lower bound. A Binary Star deal the first search leaves open is searched a second
time, with noise in the restarts' move order (Rules.noise) and the same limits: the first search's
verdicts and node counts stay as they were, and deal 732673, open after 2.5 billion nodes of the
first kind, is won in 1.3M nodes of the second."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from patience.binary_star import rules as binary_star_rules
from patience.binary_star.deal import BinaryStarDeal
from patience.cards import STANDARD_RANKS, Card
from patience.certificates import certificate_pass, kept_pass
from patience.deal import Deal
from patience.errors import UsageError
from patience.games import AnyDeal, deal_as, game_of, hook
from patience.generators.deals import ACE_OF_SPADES_NUMBER, numbered_piles, random_deal
from patience.names import ALL_IN_A_ROW, BLACK_HOLE, GENERALISED
from patience.native import engine
from patience.native.board import Board
from patience.native.rules import Rules
from patience.result import Status
from patience.runners.native import binary_star_plays
from patience.runs.specs import numbered_deal
from patience.survey.store import MAX_CARDS, UNDECIDED, Certificate, Row
from patience.validator import replay, replay_numbers

RULES = Rules()  # every pruning on, as the native solver's defaults
NOISY = replace(RULES, noise=True)  # Binary Star's second search, of a deal the first leaves open
Shape = tuple[int, int, int]  # ranks, suits, pile height of a random generalised deal
Kept = tuple[str, int, bytes]  # a search's failure cache as a certificate: direction, width, records
FOUNDATION_NUMBER = {BLACK_HOLE: ACE_OF_SPADES_NUMBER, ALL_IN_A_ROW: None}  # the games decide_numbered takes
FIRST_SLICE = 5_000  # decide_in_turns: Black Hole's front alone for this many nodes
ALONE = {BLACK_HOLE: FIRST_SLICE, ALL_IN_A_ROW: 0}  # decide_in_turns: the front's nodes before the back joins
BACK_SHARE = {BLACK_HOLE: 3, ALL_IN_A_ROW: 0}  # decide_in_turns: the back's turns while this x its nodes <= the front's


@dataclass(frozen=True)
class Batch:
    """Deals `seeds` of `game` under `numbering` (of `shape`, for generalised deals), each search
    limited to `seconds` (and `nodes`), in `mode`."""

    game: str
    numbering: str | None
    seeds: tuple[int, ...]
    seconds: float
    nodes: int | None = None
    mode: str = MAX_CARDS
    shape: Shape | None = None
    certify: bool = False  # each loss gets a certificate (certify_batch)

    def deal(self, seed: int) -> AnyDeal:
        if self.game == GENERALISED:
            assert self.shape is not None
            return random_deal(*self.shape, seed)
        assert self.numbering is not None, "a numbered game's batch names its numbering"
        return numbered_deal(self.game, seed, self.numbering)  # by a game's own hook (Golf's), else PySolFC's


class UntrustedPlay(RuntimeError):
    """The search reported a play that the validator rejects: the survey must stop, not store it."""


def decide(deal: Deal, seconds: float | None, max_cards: bool = True,
           nodes: int | None = None) -> tuple[Status, int, int, tuple[Card, ...]]:
    """(verdict, most cards removable, nodes, the play found) of one deal. The play the search
    reports (a win, or in max-cards mode the longest play) is replayed first: the survey trusts the
    search no more than any solver. A search cut short reports no play, only its longest length;
    outside max-cards mode a lost deal has no play either."""
    outcome, _ = engine.run(deal, None, RULES, max_cards, nodes, seconds)
    play = outcome.sequence or ()
    checked = replay(deal, list(play), complete=outcome.status is Status.SOLVED)
    if not checked.valid or (outcome.sequence is not None and max_cards and len(play) != outcome.max_cards):
        raise UntrustedPlay(f"the search's play of {len(play)} cards (claimed {outcome.max_cards}) "
                            f"does not replay: {checked.fault}")
    return verdict(outcome.status), outcome.max_cards, outcome.nodes, play


def decide_numbered(game: str, seed: int, numbering: str, seconds: float | None, max_cards: bool = True,
                    nodes: int | None = None, kept: list[Kept] | None = None) -> tuple[Status, int, int]:
    """`decide` of deal `seed` of Black Hole or All in a Row (FOUNDATION_NUMBER), with no card
    object, Deal or Board: dealt as card numbers (`numbered_piles`), searched from their ranks, and
    every play a search reports replayed on the dealt piles (`replay_numbers`). Needs the compiled
    search. In max-cards mode `decide_in_turns` (the front and the back in turn); in decision mode
    `decide`'s one search from the front: the same row. With `kept`, the failure cache of a search
    that proves the deal lost is appended to it (a certificate's direction, width and records)."""
    if max_cards:
        return decide_in_turns(game, seed, numbering, seconds, nodes, kept)
    piles = numbered_piles(game, seed, numbering)
    cards = [card for pile in piles for card in pile]
    foundation = FOUNDATION_NUMBER[game]
    found: list[tuple[int, bytes]] | None = None if kept is None else []
    status, order, spent, longest = engine.search_ranks(
        [card % STANDARD_RANKS for card in cards], [len(pile) for pile in piles], STANDARD_RANKS,
        (-1 if foundation is None else foundation % STANDARD_RANKS,), RULES, False, nodes, seconds, kept=found)
    if kept is not None and found:
        kept.append(("forward", *found[0]))
    _trust(piles, foundation, [] if order is None else [cards[index] for index in order], status is Status.SOLVED, None)
    return verdict(status), longest, spent


def decide_in_turns(game: str, seed: int, numbering: str, seconds: float | None,
                    nodes: int | None = None, kept: list[Kept] | None = None) -> tuple[Status, int, int]:
    """`decide_numbered` in max-cards mode by one call of the compiled search (engine.survey_ranks):
    the front alone for its first ALONE[game] nodes, then the back in turn with it, each going on where
    its last round stopped, instead of searches started again with budgets 4 times the last.
    The back joins All in a Row's deals at once (its deals lost at 51 of 52 are the heavy ones, and the
    back decides many of them soon), Black Hole's after FIRST_SLICE nodes (95% of its deals are decided
    sooner) and then with a quarter of the nodes (BACK_SHARE: its turns only while 3 times its nodes are
    at most the front's; docs/survey.md, "Throughput"). A win (the front's, or the back's reversed) is
    replayed, and so is the front's longest play. The same verdict and most cards (both searches are
    exact); nodes are both searches'. `kept`: as decide_numbered's (the failure cache of a search that
    proved the deal lost)."""
    piles = numbered_piles(game, seed, numbering)
    cards = [card for pile in piles for card in pile]
    foundation = FOUNDATION_NUMBER[game]
    turned_cards = [card for pile in piles for card in reversed(pile)]
    status, which, longest, back_win, spent, claimed = engine.survey_ranks(
        [card % STANDARD_RANKS for card in cards], [len(pile) for pile in piles],
        [card % STANDARD_RANKS for card in turned_cards], STANDARD_RANKS,
        -1 if foundation is None else foundation % STANDARD_RANKS, RULES, nodes, seconds, ALONE[game], kept,
        BACK_SHARE[game])
    if back_win is not None:
        _trust(piles, foundation, [turned_cards[index] for index in reversed(back_win)], True, len(cards))
        return Status.SOLVED, len(cards), spent
    _trust(piles, foundation, [cards[index] for index in longest], status is Status.SOLVED, claimed)
    return verdict(status), claimed, spent


def _trust(piles: list[list[int]], foundation: int | None, play: list[int], complete: bool,
           longest: int | None) -> None:
    """Replay a search's play on the dealt piles (a win: every card; else as far as it goes, and as
    long as the search claims, when it claims a length); UntrustedPlay if it does not replay."""
    checked = replay_numbers(piles, foundation, STANDARD_RANKS, play, complete)
    if not checked.valid or (longest is not None and len(play) != longest):
        raise UntrustedPlay(f"the search's play of {len(play)} cards (claimed {longest}) "
                            f"does not replay: {checked.fault}")


def decide_binary_star(deal: BinaryStarDeal, seconds: float | None, nodes: int | None = None,
                       max_cards: bool = True) -> tuple[Status, int, int]:
    """(verdict, most pile cards playable, nodes of both searches) of a Binary Star deal. A win is
    replayed; a lost deal's longest play is replayed as far as it goes (a search cut short in
    max-cards mode leaves the longest play it met: a lower bound, the loss stays proved). Outside
    max-cards mode a lost deal is not searched again: its cards are the longest play met. A deal the
    first search leaves open is searched again with noise (NOISY), under the same limits; the nodes
    are those of every search."""
    board = Board.of_piles(deal.piles, deal.foundations, deal.ranks)
    outcome, _ = engine.run_board(board, None, RULES, False, nodes, seconds)
    spent = 0
    if not outcome.status.decided:
        first = outcome
        outcome, _ = engine.run_board(board, None, NOISY, False, nodes, seconds)
        spent = first.nodes
        if not outcome.status.decided:
            return UNDECIDED, max(first.max_cards, outcome.max_cards), spent + outcome.nodes
    spent += outcome.nodes
    if outcome.status is Status.SOLVED:
        checked = binary_star_rules.replay(deal, binary_star_plays(outcome))
        if not checked.valid:
            raise UntrustedPlay(f"the search's win does not replay: {checked.fault}")
        return Status.SOLVED, len(deal.cards), spent
    if not max_cards:
        return Status.UNSOLVABLE, outcome.max_cards, spent
    longest, _ = engine.run_board(board, None, RULES, True, nodes, seconds)
    plays = binary_star_plays(longest)
    checked = binary_star_rules.replay(deal, plays, complete=False)
    if not checked.valid or (plays and len(plays) != longest.max_cards):
        raise UntrustedPlay(f"the search's play of {len(plays)} cards (claimed {longest.max_cards}) "
                            f"does not replay: {checked.fault}")
    return Status.UNSOLVABLE, longest.max_cards, spent + longest.nodes


def verdict(status: Status) -> Status:
    """The survey's verdict of a search's status: its own, or UNDECIDED when a budget stopped it."""
    return status if status.decided else UNDECIDED


def decide_batch(batch: Batch) -> list[Row]:
    """Every deal of the batch, in order."""
    return [decide_row(batch, seed) for seed in batch.seeds]


def decide_row(batch: Batch, seed: int, kept: list[Kept] | None = None) -> Row:
    """The row of deal `seed` (`kept`: as decide_numbered's, when it decides the deal)."""
    started = time.perf_counter()
    try:
        verdict, cards, nodes = decide_seed(batch, seed, kept)
    except UntrustedPlay as error:
        raise UntrustedPlay(f"{batch.game} deal {seed}: {error}") from None
    return Row(seed, verdict, cards, nodes, time.perf_counter() - started)


@dataclass(frozen=True)
class Certified:
    """A batch's rows and the certificates of its losses (a loss whose pass reached the survey's time
    limit has none: it stays an uncertified loss)."""

    rows: list[Row]
    certificates: list[Certificate]


def certify_batch(batch: Batch) -> Certified:
    """`decide_batch` with a certificate of each loss: the failure cache of the search that proved it
    (the smallest, when two did), or where none was kept (a game decide_numbered does not take, a
    cache that forgot states) the certificate pass (patience.certificates.certificate_pass: for generalised
    deals the compiled search again, keeping its cache; else the walk) in this worker, limited as
    each search is (batch.seconds). A pass that finds a win contradicts the search: the survey stops
    (UntrustedPlay) and stores nothing of the batch."""
    rows, certificates = [], []
    for seed in batch.seeds:
        kept: list[Kept] = []
        row = decide_row(batch, seed, kept)
        rows.append(row)
        if row.verdict is not Status.UNSOLVABLE:
            continue
        started = time.perf_counter()
        deal = batch.deal(row.seed)
        if kept:
            direction, width, records = min(kept, key=lambda cache: len(cache[2]))
            found = kept_pass(deal_as(Deal, deal), direction, width, records)
        else:
            found = certificate_pass(deal, batch.seconds, max_cards=batch.mode == MAX_CARDS)
        if found.won:
            raise UntrustedPlay(f"{batch.game} deal {row.seed}: the search says lost, the certificate pass found a win")
        if found.limited_by is None:
            data = found.file(deal)
            certificates.append(Certificate(row.seed, found.count, time.perf_counter() - started, data))
    return Certified(rows, certificates)


def decide_seed(batch: Batch, seed: int, kept: list[Kept] | None = None) -> tuple[Status, int, int]:
    """(verdict, most cards, nodes) of one deal of the batch: a numbered Black Hole or All in a Row
    deal through `decide_numbered` when the search is compiled (with `kept`), else through its Deal."""
    max_cards = batch.mode == MAX_CARDS
    if batch.game in FOUNDATION_NUMBER and batch.numbering is not None and engine.compiled():
        return decide_numbered(batch.game, seed, batch.numbering, batch.seconds, max_cards, batch.nodes, kept)
    deal = batch.deal(seed)
    game = game_of(deal)
    if game.survey_search is None:
        raise UsageError(f"the survey does not search {game.name} deals")
    search: SurveySearch = hook(game.survey_search)
    return search(deal, batch.seconds, batch.nodes, max_cards)


# a game's `survey_search`: (deal, seconds, nodes, max_cards) -> (verdict, most cards, nodes)
SurveySearch = Callable[[Any, float | None, int | None, bool], tuple[Status, int, int]]


def decide_black_hole(deal: Deal, seconds: float | None, nodes: int | None = None,
                      max_cards: bool = True) -> tuple[Status, int, int]:
    """The Black Hole family's `survey_search`: `decide`, without the play."""
    verdict, cards, spent, _ = decide(deal, seconds, max_cards, nodes)
    return verdict, cards, spent


def batches(game: str, numbering: str | None, seeds: Sequence[int], size: int, seconds: float,
            nodes: int | None = None, mode: str = MAX_CARDS, shape: Shape | None = None,
            certify: bool = False) -> list[Batch]:
    return [Batch(game, numbering, tuple(seeds[start:start + size]), seconds, nodes, mode, shape, certify)
            for start in range(0, len(seeds), size)]
