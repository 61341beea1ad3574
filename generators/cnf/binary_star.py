"""Binary Star as DIMACS CNF: a time-indexed encoding, built with PySAT.

A win plays every pile card, n of them, so it has exactly n steps. Step t (1..n) takes the top
card of one pile and puts it on one foundation; two decks repeat cards, so the model names piles,
never cards. Variables, each made by an IDPool from a meaningful key:

- ("take", t, i): step t takes the top card of pile i (exactly one pile per step);
- ("on", t, g): step t plays onto foundation g (exactly one foundation per step);
- ("gone", t, i, k): after step t at least k cards of pile i are gone (a ladder in k and in t; it
  grows by one exactly when pile i is taken, and a step may take only from a pile not yet empty).
  The card step t takes from pile i is the one at depth k where gone(t-1, i, k) and not
  gone(t-1, i, k+1): pile order needs no other constraint;
- ("rank", t, r): the card of step t has rank r (forced by take and gone, at most one per step);
- ("top", t, g, r): after step t foundation g is topped by rank r. Step 0 is the start cards.
  Only foundation g changes at a step on g, to the rank played; a card played on g must be
  rank-adjacent (cyclic) to g's top after step t-1.

Constants simplify clauses away: gone(t, i, k) is false for k > t and true once the cards left
in pile i no longer fit in the steps left; top(t, g, r) is false for a rank g cannot reach in t
plays. Symmetry breaking (option, sound): when two foundations show the same rank, what is left
of the game does not care which of them gets the next card, so the next card may go on the
lower-numbered one only. (Any win becomes one that keeps the rule by swapping the two
foundations' names from the first step that breaks it on, repeatedly, earliest step first.)

The header holds the deal and maps every take and on variable to its step, pile or foundation.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.card import CardEnc
from pysat.formula import CNF

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.errors import InputError
from patience.generators.analysis.binary_star import neighbours, reachable_tops
from patience.generators.cnf.common import (
    CARDINALITY_OPTION,
    DEFAULT_CARDINALITY,
    ClauseBuilder,
    Literal,
    cardinality_encoding,
    cnf_files,
    dimacs_text,
    negate,
)
from patience.generators.files import ModelFiles, no_fixed_files
from patience.options import Switch

HEADER_TAG = "c patience-models binary-star cnf"
TITLE = "DIMACS CNF (time-indexed: a pile and a foundation per step)"
OPTIONS = (
    Switch("symmetry-breaking", "on", "of two foundations showing the same rank, play on the lower-numbered; "
                                      "never play on a lower-numbered foundation right after a higher one from "
                                      "another pile"),
    CARDINALITY_OPTION,
)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files

@dataclass(frozen=True)
class BinaryStarEncoding:
    """One deal's formula and the variables that say what each step does."""

    deal: BinaryStarDeal
    cnf: CNF
    takes: dict[int, tuple[int, int]]  # variable -> (step, pile)
    ons: dict[int, tuple[int, int]]  # variable -> (step, foundation)
    symmetry_breaking: bool
    cardinality: str

    def decode(self, true_variables: set[int], source: str = "SAT model") -> tuple[Play, ...]:
        """The plays of a model: per step the pile taken and the foundation; the card is the pile's
        next one, as the model's gone ladder counts."""
        piles = _per_step(self.takes, true_variables, "piles", source)
        foundations = _per_step(self.ons, true_variables, "foundations", source)
        taken = [0] * len(self.deal.piles)
        plays = []
        for step in range(1, len(self.deal.cards) + 1):
            if step not in piles or step not in foundations:
                break
            pile = piles[step]
            if taken[pile] == len(self.deal.piles[pile]):
                raise InputError(source, None, f"step {step} takes from pile {pile + 1}, already empty")
            plays.append(Play(self.deal.piles[pile][taken[pile]], foundations[step], pile))
            taken[pile] += 1
        return tuple(plays)


def _per_step(variables: dict[int, tuple[int, int]], true_variables: set[int], what: str,
              source: str) -> dict[int, int]:
    """step -> the one pile (or foundation) whose variable is true at that step."""
    chosen: dict[int, int] = {}
    for variable in sorted(true_variables & variables.keys()):
        step, value = variables[variable]
        if chosen.setdefault(step, value) != value:
            raise InputError(source, None, f"step {step} has two {what}")
    return chosen


class _Builder(ClauseBuilder):
    """The pool of one deal's take, on, rank, top and gone variables."""

    def __init__(self, deal: BinaryStarDeal, cardinality: int) -> None:
        super().__init__()
        self.deal, self.cardinality = deal, cardinality
        self.n = len(deal.cards)
        self.steps = range(1, self.n + 1)
        self.heights = [len(pile) for pile in deal.piles]
        self.reach = [[reachable_tops(card.rank, t, deal.ranks) for t in range(self.n + 1)]
                      for card in deal.foundations]
        for t in self.steps:
            for i in range(len(deal.piles)):
                self.pool.id(("take", t, i))
            for g in range(len(deal.foundations)):
                self.pool.id(("on", t, g))
            for r in range(deal.ranks):
                self.pool.id(("rank", t, r))
            for g, reach in enumerate(self.reach):
                for r in sorted(reach[t]):
                    self.pool.id(("top", t, g, r))
        for t in range(1, self.n):
            for i, height in enumerate(self.heights):
                for k in range(1, height + 1):
                    if self._gone_constant(t, i, k) is None:
                        self.pool.id(("gone", t, i, k))

    def _gone_constant(self, t: int, i: int, k: int) -> bool | None:
        """gone(t, i, k) when the step count alone decides it, else None."""
        if k <= 0:
            return True
        if k > t or k > self.heights[i]:
            return False
        if self.heights[i] - k + 1 > self.n - t:  # the cards from depth k-1 on no longer fit
            return True
        return None

    def gone(self, t: int, i: int, k: int) -> Literal:
        constant = self._gone_constant(t, i, k)
        return self.var("gone", t, i, k) if constant is None else constant

    def top(self, t: int, g: int, r: int) -> Literal:
        if t == 0:
            return self.deal.foundations[g].rank == r
        return self.var("top", t, g, r) if r in self.reach[g][t] else False

    def at_most_one(self, literals: list[int]) -> None:
        self.cnf.extend(CardEnc.atmost(literals, 1, vpool=self.pool, encoding=self.cardinality).clauses)


def encode(deal: BinaryStarDeal, symmetry_breaking: bool = True,
           cardinality: str = DEFAULT_CARDINALITY) -> BinaryStarEncoding:
    """The CNF of `deal`; satisfiable iff the deal can be won."""
    build = _Builder(deal, cardinality_encoding(cardinality))
    foundations, ranks = range(len(deal.foundations)), range(deal.ranks)
    for t in build.steps:
        build.exactly_one([build.var("take", t, i) for i in range(len(deal.piles))], build.cardinality)
        build.exactly_one([build.var("on", t, g) for g in foundations], build.cardinality)
        build.at_most_one([build.var("rank", t, r) for r in ranks])
        _piles(build, t)
        for g in foundations:
            _foundation(build, t, g)
        if symmetry_breaking:
            _break_symmetry(build, t)
    takes = {build.var("take", t, i): (t, i) for t in build.steps for i in range(len(deal.piles))}
    ons = {build.var("on", t, g): (t, g) for t in build.steps for g in foundations}
    build.cnf.nv = build.pool.top
    return BinaryStarEncoding(deal, build.cnf, takes, ons, symmetry_breaking, cardinality)


def _piles(build: _Builder, t: int) -> None:
    """Step t's take: the gone ladder moves by one on the pile taken, and the card's rank."""
    for i, pile in enumerate(build.deal.piles):
        take = build.var("take", t, i)
        build.add([-take, negate(build.gone(t - 1, i, len(pile)))])
        for k in range(1, len(pile) + 1):
            now, before, one_less = build.gone(t, i, k), build.gone(t - 1, i, k), build.gone(t - 1, i, k - 1)
            build.add([negate(before), now])
            build.add([-take, negate(one_less), now])
            build.add([negate(now), before, take])
            build.add([negate(now), before, one_less])
            if k < len(pile):
                build.add([negate(build.gone(t, i, k + 1)), now])
        for depth, card in enumerate(pile):
            build.add([-take, negate(build.gone(t - 1, i, depth)), build.gone(t - 1, i, depth + 1),
                       build.var("rank", t, card.rank)])


def _foundation(build: _Builder, t: int, g: int) -> None:
    """A card on foundation g follows its top; g then shows the card's rank, else keeps its own."""
    on, ranks = build.var("on", t, g), build.deal.ranks
    for r in range(ranks):
        rank = build.var("rank", t, r)
        build.add([-rank, -on, *(build.top(t - 1, g, below) for below in neighbours(r, ranks))])
        now, before = build.top(t, g, r), build.top(t - 1, g, r)
        build.add([-on, -rank, now])
        build.add([-on, rank, negate(now)])
        build.add([on, negate(before), now])
        build.add([on, before, negate(now)])


def _break_symmetry(build: _Builder, t: int) -> None:
    """Step t may not put its card on foundation h when a lower-numbered g shows the same rank, nor
    play on a lower-numbered g right after a play on h from another pile (the two commute)."""
    deal = build.deal
    for h in range(len(deal.foundations)):
        for g in range(h):
            for r in range(deal.ranks):
                build.add([negate(build.top(t - 1, g, r)), negate(build.top(t - 1, h, r)), -build.var("on", t, h)])
            if t < build.n:
                for i in range(len(deal.piles)):
                    build.add([-build.var("on", t, h), -build.var("on", t + 1, g), -build.var("take", t, i),
                               build.var("take", t + 1, i)])


def header(encoding: BinaryStarEncoding) -> list[str]:
    """Comment lines: what the formula is, its size, the deal (piles top card first), the map."""
    deal, cnf = encoding.deal, encoding.cnf
    lines = [f"{HEADER_TAG}: {deal.game} deal, {len(deal.cards)} steps, symmetry breaking "
             f"{'on' if encoding.symmetry_breaking else 'off'}, cardinality {encoding.cardinality}",
             f"c size {cnf.nv} variables {len(cnf.clauses)} clauses",
             f"c ranks {deal.ranks}",
             "c foundations " + " ".join(deal.name(card) for card in deal.foundations)]
    lines += ["c pile " + " ".join(deal.name(card) for card in pile) for pile in deal.piles]
    lines += [f"c take {variable} step {t} pile {i + 1}" for variable, (t, i) in encoding.takes.items()]
    lines += [f"c on {variable} step {t} foundation {g + 1}" for variable, (t, g) in encoding.ons.items()]
    return lines


def dimacs(encoding: BinaryStarEncoding) -> str:
    return dimacs_text(header(encoding), encoding.cnf)


def formula(deal: BinaryStarDeal, symmetry_breaking: bool = True,
            cardinality: str = DEFAULT_CARDINALITY) -> BinaryStarEncoding:
    """The clauses and their decode map, for solvers that take the formula in memory."""
    return encode(deal, symmetry_breaking, cardinality)


def build(deal: BinaryStarDeal, symmetry_breaking: bool = True, cardinality: str = DEFAULT_CARDINALITY) -> ModelFiles:
    """deal.cnf; the decode map reads a model's true take and on variables back into plays."""
    encoding = encode(deal, symmetry_breaking, cardinality)
    return cnf_files(dimacs(encoding), encoding.cnf, encoding.decode)
