"""Deals as mixed integer programs: the paper's MIP-1..MIP-4 (Gent et al.) in CPLEX LP.

Cards are numbered 1..n layer by layer as in the paper (the top card of every pile, then the
second card of every pile, ...), moves 1..n. The binary `a_<card>_<move>` says that card is
played at that move; the comment header maps card numbers to card names, and `card_numbers`
gives the same map to the solution readers. Generalised: any rank cycle R (differences +-1 and
+-(R-1)), piles of any height (precedence between every card and the two below it), an empty
foundation (All in a Row: move 1 is free), look-ahead sets S_j computed from R.

The file is written directly, row by row, not through a Jinja2 template: the look-ahead family
(18) alone has thousands of rows for a 52-card deal, and a template loop over tens of thousands
of terms is much slower than joining strings here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from patience.cards import Card
from patience.deal import Deal
from patience.errors import UsageError, quote
from patience.generators.analysis.black_hole import reachable
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.lp.common import expression, row_text, wrapped
from patience.options import Option

MODELS = ("mip1", "mip2", "mip3", "mip4")  # the paper's formulations
FORMULATIONS = (*MODELS, "succ")  # and the successor model of `successor.py`
OBJECTIVES = ("paper", "none")
BREADTH_WEIGHT = 100  # the paper's "A large": top cards weigh A times more than second cards
FAMILIES = {
    "mip1": ("1", "2", "3", "4", "5", "6", "8", "10-17"),
    "mip2": ("1", "2", "3", "4", "5", "18"),
    "mip3": ("4", "5", "18", "19-21"),
    "mip4": ("1", "2", "4", "5", "18", "19-21"),
}
TITLE = "mixed integer program in CPLEX LP format (CBC, HiGHS)"
OPTIONS = (
    Option("model", "mip3", "mip1: move numbers and values (1)-(17); mip2: look-ahead (18) with move numbers; "
                            "mip3: look-ahead and prefix-sum precedence (18)-(21); mip4: both precedences; "
                            "succ: successor arcs and move numbers", FORMULATIONS),
    Option("objective", "paper", "paper: the artificial breadth-first objective; none: pure feasibility",
           OBJECTIVES),
)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


def check_model(model: str) -> str:
    if model not in MODELS:
        raise UsageError(f"unknown MIP model {quote(model)}; known: {', '.join(MODELS)}")
    return model


def check_objective(objective: str) -> str:
    if objective not in OBJECTIVES:
        raise UsageError(f"unknown objective {quote(objective)}; known: {', '.join(OBJECTIVES)}")
    return objective


def card_numbers(deal: Deal) -> tuple[Card, ...]:
    """The paper's card numbering: layer by layer (all top cards first); index 0 is card 1."""
    height = max(len(pile) for pile in deal.piles)
    return tuple(pile[depth] for depth in range(height) for pile in deal.piles if depth < len(pile))


def look_ahead_sets(deal: Deal, moves: int) -> list[frozenset[int]]:
    """S_j for j = 1..moves (index j-1): the ranks a card played at move j can have."""
    if deal.foundation is None:
        return [frozenset(range(deal.ranks))] * moves
    return [reachable(deal.foundation.rank, j, deal.ranks) for j in range(1, moves + 1)]


@dataclass
class _Rows:
    """Rows of the model by family, and the variables of each kind."""

    rows: dict[str, list[str]] = field(default_factory=dict)

    def add(self, family: str, terms: Iterable[tuple[int, str]], sense: str, rhs: int) -> None:
        self.rows.setdefault(family, []).append(row_text(terms, sense, rhs))

    def counts(self) -> dict[str, int]:
        return {family: len(rows) for family, rows in self.rows.items()}


@dataclass(frozen=True)
class LpModel:
    """One MIP of one deal: the LP text and its size, family by family."""

    text: str
    rows: dict[str, int]
    variables: dict[str, int]

    @property
    def constraints(self) -> int:
        return sum(self.rows.values())

    @property
    def columns(self) -> int:
        return sum(self.variables.values())


class _Builder:
    """Writes the families of (1)-(21) for one deal."""

    def __init__(self, deal: Deal, model: str) -> None:
        self.deal, self.model = deal, model
        self.cards = card_numbers(deal)
        self.n = len(self.cards)
        self.number = {card: index for index, card in enumerate(self.cards, 1)}
        self.out = _Rows()
        self.explicit_x = model in ("mip1", "mip2")

    @cached_property
    def pairs(self) -> list[tuple[int, int, int]]:
        """(upper card, lower card, distance 1 or 2) in every pile."""
        found = []
        for pile in self.deal.piles:
            for depth, card in enumerate(pile):
                for distance in (1, 2):
                    if depth + distance < len(pile):
                        found.append((self.number[card], self.number[pile[depth + distance]], distance))
        return found

    def a(self, card: int, move: int) -> str:
        return f"a_{card}_{move}"

    def x(self, card: int) -> list[tuple[int, str]]:
        """The move number of a card: the variable x_i, or sum_k k a_i_k where x is not a variable."""
        if self.explicit_x:
            return [(1, f"x_{card}")]
        return [(move, self.a(card, move)) for move in range(1, self.n + 1)]

    def precedence(self) -> None:
        """(1) a card is played after the card on it; (2) two after the card two above it."""
        for upper, lower, distance in self.pairs:
            terms = self.x(upper) + [(-c, name) for c, name in self.x(lower)]
            self.out.add(str(distance), terms, "<=", -distance)

    def move_numbers(self) -> None:
        """(3) x_i = sum_k k a_i_k."""
        for card in range(1, self.n + 1):
            terms = [(1, f"x_{card}")] + [(-move, self.a(card, move)) for move in range(1, self.n + 1)]
            self.out.add("3", terms, "=", 0)

    def assignment(self) -> None:
        """(4) every card is played once; (5) every move plays one card."""
        moves = range(1, self.n + 1)
        for card in moves:
            self.out.add("4", [(1, self.a(card, move)) for move in moves], "=", 1)
        for move in moves:
            self.out.add("5", [(1, self.a(card, move)) for card in moves], "=", 1)

    def values(self) -> None:
        """(6) y_k is the value of the card at move k; (8) one kind of step; (10)-(17) the steps."""
        top = self.deal.ranks - 1
        for move in range(1, self.n + 1):
            terms = [(1, f"y_{move}")] + [(-(card.rank + 1), self.a(i, move)) for i, card in enumerate(self.cards, 1)]
            self.out.add("6", terms, "=", 0)
        for k in self.steps():
            b = [f"b_{k}_{kind}" for kind in range(1, 5)]
            now, after = f"y_{k}", f"y_{k + 1}"
            self.out.add("8", [(1, name) for name in b], "=", 1)
            self.out.add("10-17", [(1, after), (-1, now), (top - 1, b[0])], "<=", top)
            self.out.add("10-17", [(1, after), (-1, now), (-(top + 1), b[0])], ">=", -top)
            self.out.add("10-17", [(1, now), (-1, after), (top - 1, b[1])], "<=", top)
            self.out.add("10-17", [(1, now), (-1, after), (-(top + 1), b[1])], ">=", -top)
            self.out.add("10-17", [(top, b[2]), (-1, after)], "<=", -1)
            self.out.add("10-17", [(-top, b[2]), (-1, now)], ">=", -top - 1)
            self.out.add("10-17", [(top, b[3]), (-1, now)], "<=", -1)
            self.out.add("10-17", [(-top, b[3]), (-1, after)], ">=", -top - 1)

    def steps(self) -> range:
        """Moves k with a step k -> k+1 (from the foundation, move 0, when there is one)."""
        return range(0 if self.deal.foundation is not None else 1, self.n)

    def look_ahead(self) -> None:
        """(18) a card of rank i at move j rules out, at move j+m, ranks not reachable from i in m.

        The foundation card counts as the card of move 0 (a constant 1, so its rows have
        right-hand side 0): they keep move m to S_m, which the rows of later moves need."""
        by_rank: dict[int, list[int]] = {}
        for index, card in enumerate(self.cards, 1):
            by_rank.setdefault(card.rank, []).append(index)
        horizon = max(self.deal.ranks - 2, 1)  # on an odd cycle every rank is reachable in R-1 steps
        if self.deal.foundation is not None:
            for m in range(1, min(horizon, self.n) + 1):
                allowed = reachable(self.deal.foundation.rank, m, self.deal.ranks)
                ruled_out = [i for r, cards in by_rank.items() if r not in allowed for i in cards]
                if ruled_out:
                    self.out.add("18", [(1, self.a(i, m)) for i in ruled_out], "<=", 0)
        for j, options in enumerate(look_ahead_sets(self.deal, self.n), 1):
            for rank in sorted(options & by_rank.keys()):
                for m in range(1, min(horizon, self.n - j) + 1):
                    allowed = reachable(rank, m, self.deal.ranks)
                    ruled_out = [i for r, cards in by_rank.items() if r not in allowed for i in cards]
                    if ruled_out:
                        terms = [(1, self.a(i, j)) for i in by_rank[rank]] + [(1, self.a(i, j + m)) for i in ruled_out]
                        self.out.add("18", terms, "<=", 1)

    def prefix_precedence(self) -> None:
        """(19)-(21) a card can be played at move j+d only if the card d above it went by move j.

        j starts at 0, not at the paper's 1 or 2: without the rows j < depth + 1 nothing stops a
        lower card being played at one of the first moves, and MIP-3 (which has no (1), (2)) then
        accepts deals that have no solution."""
        for upper, lower, distance in self.pairs:
            for j in range(0, self.n - distance + 1):
                terms = [(1, self.a(upper, k)) for k in range(1, j + 1)] + [(-1, self.a(lower, j + distance))]
                self.out.add("19-21", terms, ">=", 0)

    def objective(self) -> list[tuple[int, str]]:
        """The paper's artificial breadth-first objective over the top two layers of cards."""
        piles = len(self.deal.piles)
        terms: list[tuple[int, str]] = []
        for index in range(1, min(2 * piles, self.n) + 1):
            weight = BREADTH_WEIGHT * index if index <= piles else index
            terms += [(weight * c, name) for c, name in self.x(index)]
        return terms

    def build(self, objective: str) -> LpModel:
        families = FAMILIES[self.model]
        if "1" in families:
            self.precedence()
        if "3" in families:
            self.move_numbers()
        self.assignment()
        if "6" in families:
            self.values()
        if "18" in families:
            self.look_ahead()
        if "19-21" in families:
            self.prefix_precedence()
        return LpModel(self.text(objective), self.out.counts(), self.variables())

    def variables(self) -> dict[str, int]:
        counts = {"a": self.n * self.n}
        if self.explicit_x:
            counts["x"] = self.n
        if self.model == "mip1":
            counts["y"] = self.n + (self.deal.foundation is not None)
            counts["b"] = 4 * len(self.steps())
        return counts

    def header(self) -> list[str]:
        deal = self.deal
        lines = [f"\\ {self.model.upper()} of Gent et al. (2007) for a {deal.game} deal: {self.n} cards, "
                 f"{deal.ranks} ranks, {len(deal.piles)} piles",
                 "\\ a_<card>_<move> = 1: card number <card> is played at move <move>",
                 f"\\ foundation: {deal.name(deal.foundation) if deal.foundation else '- (move 1 is free)'}"]
        lines += [f"\\ card {i} {deal.name(card)}" for i, card in enumerate(self.cards, 1)]
        return lines

    def text(self, objective: str) -> str:
        lines = self.header() + ["Minimize"]
        goal = self.objective() if objective == "paper" else []
        lines += list(wrapped("obj: " + expression(goal)))
        lines.append("Subject To")
        for family, rows in self.out.rows.items():
            for number, row in enumerate(rows, 1):
                lines += list(wrapped(f"c{family.replace('-', '_')}_{number}: {row}"))
        lines.append("Bounds")
        moves = range(1, self.n + 1)
        if self.explicit_x:
            lines += [f" 1 <= x_{card} <= {self.n}" for card in moves]
        if self.model == "mip1":
            if self.deal.foundation is not None:
                lines.append(f" y_0 = {self.deal.foundation.rank + 1}")
            lines += [f" 1 <= y_{move} <= {self.deal.ranks}" for move in moves]
        lines.append("Binaries")
        lines += [" " + " ".join(self.a(card, move) for move in moves) for card in moves]
        if self.model == "mip1":
            lines += [" " + " ".join(f"b_{k}_{kind}" for kind in range(1, 5)) for k in self.steps()]
        generals = [f"x_{card}" for card in moves] if self.explicit_x else []
        if self.model == "mip1":
            generals += [f"y_{move}" for move in self.steps()] + [f"y_{self.n}"]
        if generals:
            lines.append("Generals")
            lines += [" " + " ".join(generals[start:start + 20]) for start in range(0, len(generals), 20)]
        lines.append("End")
        return "\n".join(lines) + "\n"


def lp_model(deal: Deal, model: str = "mip3", objective: str = "paper") -> LpModel:
    """The LP file of `deal` under one of the four formulations, with its size by family."""
    return _Builder(deal, check_model(model)).build(check_objective(objective))


def build(deal: Deal, model: str = "mip3", objective: str = "paper") -> ModelFiles:
    """MODEL.lp; the decode map reads a solution's variable values back into cards."""
    from patience.generators.lp.solution import cards_played

    if model == "succ":
        from patience.generators.lp import successor as lp_successor

        return lp_successor.build(deal, check_objective(objective))
    lp = lp_model(deal, model, objective)
    return ModelFiles({f"{model}.lp": lp.text}, f"{model}.lp",
                      lambda values, source: cards_played(deal, values, source),
                      {"model": model, "objective": objective, "rows": lp.constraints, "columns": lp.columns})
