"""Binary Star as a mixed integer program in CPLEX LP: time-indexed, like the CNF of
`cnf/binary_star.py`, with positions instead of piles (a MIP reads which card was played from a
position variable directly, where the CNF counts cards gone from a pile).

A win plays every pile card, n of them, in n steps. Positions are `p<pile>_<depth>` (1-based,
depth 1 on top): two decks repeat cards, positions do not. Variables:

- binary `a_<pile>_<depth>_<step>`: the step that plays the position, only for steps the pile
  order leaves possible (a card under d others cannot go before step d+1, nor a card above e
  others after step n-e); one position per step, one step per position;
- continuous `d_<pile>_<depth>_<step>` in [0, 1]: the position is played by that step (a running
  sum of its `a`); pile order: a position is played only at a step after the one above it went;
- binary `w_<step>_<foundation>_<rank>`: the step puts a card of that rank on that foundation;
  per step and rank they add up to the positions of that rank played;
- binary `h_<step>_<foundation>_<rank>`: the foundation's top rank after the step (one per step
  and foundation; step 0 is the start cards). A card needs a top one rank apart (cyclic); the
  foundation played on shows the card's rank afterwards, the others keep theirs.

Symmetry breaking (always on, sound for the reason the CNF's is): the next card goes on the
lower-numbered of two foundations showing the same rank, and a play on a lower-numbered
foundation never directly follows one on a higher-numbered foundation from another pile.
No objective: any feasible point is a win.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.errors import InputError, UsageError
from patience.generators.analysis.binary_star import neighbours, reachable_tops
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.lp.common import row_text, wrapped
from patience.names import BINARY_STAR
from patience.options import Option

LP_FILE = "deal.lp"
TITLE = "mixed integer program in CPLEX LP format (CBC, HiGHS)"
OPTIONS = (Option("objective", "none", "Binary Star's model is pure feasibility", ("none",)),)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files
_PLAYED = re.compile(r"(a|w)_([0-9]{1,9})_([0-9]{1,9})_([0-9]{1,9})")  # a_pile_depth_step, w_step_foundation_rank


class _Model:
    """The rows and columns of one deal's MIP."""

    def __init__(self, deal: BinaryStarDeal) -> None:
        self.deal = deal
        self.n = len(deal.cards)
        self.positions = [(i, d) for i, pile in enumerate(deal.piles) for d in range(len(pile))]
        self.rows: dict[str, list[str]] = {}
        self.binaries: list[str] = []
        self.continuous: list[str] = []

    def window(self, i: int, d: int) -> range:
        """The steps at which position (i, d) can be played at all."""
        return range(d + 1, self.n - (len(self.deal.piles[i]) - 1 - d) + 1)

    def add(self, family: str, terms: list[tuple[int, str]], sense: str, rhs: int) -> None:
        self.rows.setdefault(family, []).append(row_text(terms, sense, rhs))

    @staticmethod
    def a(i: int, d: int, t: int) -> str:
        return f"a_{i + 1}_{d + 1}_{t}"

    @staticmethod
    def done(i: int, d: int, t: int) -> str:
        return f"d_{i + 1}_{d + 1}_{t}"

    def top(self, t: int, g: int, r: int) -> str | bool:
        """h_t_g_r, or a constant where the start card or reachability decides it."""
        start = self.deal.foundations[g].rank
        if t == 0:
            return r == start
        return f"h_{t}_{g + 1}_{r}" if r in reachable_tops(start, t, self.deal.ranks) else False

    def build(self) -> None:
        deal, n = self.deal, self.n
        foundations, ranks = range(len(deal.foundations)), range(deal.ranks)
        by_step: dict[int, list[tuple[int, int]]] = {t: [] for t in range(1, n + 1)}
        for i, d in self.positions:
            steps = self.window(i, d)
            self.add("position", [(1, self.a(i, d, t)) for t in steps], "=", 1)
            self.binaries += [self.a(i, d, t) for t in steps]
            for t in steps:
                by_step[t].append((i, d))
            self.order(i, d)
        for t in range(1, n + 1):
            self.add("step", [(1, self.a(i, d, t)) for i, d in by_step[t]], "=", 1)
            for r in ranks:
                played = [(1, self.a(i, d, t)) for i, d in by_step[t] if deal.piles[i][d].rank == r]
                self.add("rank", [(1, f"w_{t}_{g + 1}_{r}") for g in foundations] + [(-1, name) for _, name in played],
                         "=", 0)
            for g in foundations:
                self.foundation(t, g)
            self.symmetry(t)

    def order(self, i: int, d: int) -> None:
        """d: running sum of a; a position is played only after the one above it went."""
        steps = self.window(i, d)
        for t in steps[:-1]:
            before = [(-1, self.done(i, d, t - 1))] if t > steps[0] else []
            self.add("done", [(1, self.done(i, d, t)), (-1, self.a(i, d, t)), *before], "=", 0)
            self.continuous.append(self.done(i, d, t))
        if d > 0:
            above = self.window(i, d - 1)
            for t in steps:
                if t - 1 < above[-1]:  # by the end of its window the card above is surely gone
                    self.add("order", [(1, self.a(i, d, t)), (-1, self.done(i, d - 1, t - 1))], "<=", 0)

    def foundation(self, t: int, g: int) -> None:
        """Adjacency to g's top before the step, and g's top after it."""
        deal = self.deal
        played_on_g = [(1, f"w_{t}_{g + 1}_{r}") for r in range(deal.ranks)]
        tops = [self.top(t, g, r) for r in range(deal.ranks)]
        self.add("top", [(1, name) for name in tops if isinstance(name, str)], "=", 1)
        self.binaries += [name for name in tops if isinstance(name, str)]
        self.binaries += [name for _, name in played_on_g]
        for r in range(deal.ranks):
            w = f"w_{t}_{g + 1}_{r}"
            below = [self.top(t - 1, g, s) for s in neighbours(r, deal.ranks)]
            if True not in below:  # else the start card next to r is certainly there
                self.add("adjacent", [(1, w), *((-1, name) for name in below if isinstance(name, str))], "<=", 0)
            now, before = tops[r], self.top(t - 1, g, r)
            if not isinstance(now, str):  # False: r cannot show (never True, as t >= 1)
                self.add("shows", [(1, w)], "=", 0)
                continue
            self.add("shows", [(1, now), (-1, w)], ">=", 0)
            if before is True:
                self.add("keeps", [(1, now), *played_on_g], ">=", 1)
            elif isinstance(before, str):
                self.add("keeps", [(1, now), (-1, before), *played_on_g], ">=", 0)

    def symmetry(self, t: int) -> None:
        """The CNF's two rules: equal tops send the card to the lower foundation; a play on a lower
        foundation does not directly follow one on a higher foundation from another pile."""
        deal = self.deal
        for h in range(len(deal.foundations)):
            on_h = [(1, f"w_{t}_{h + 1}_{r}") for r in range(deal.ranks)]
            for g in range(h):
                for r in range(deal.ranks):
                    pair = [self.top(t - 1, g, r), self.top(t - 1, h, r)]
                    if False in pair:
                        continue
                    constants = pair.count(True)
                    self.add("symmetry", [*on_h, *((1, name) for name in pair if isinstance(name, str))], "<=",
                             2 - constants)
                if t < self.n:
                    on_g_next = [(1, f"w_{t + 1}_{g + 1}_{r}") for r in range(deal.ranks)]
                    for i, pile in enumerate(deal.piles):
                        took = [(1, self.a(i, d, t)) for d in range(len(pile)) if t in self.window(i, d)]
                        takes_next = [(-1, self.a(i, d, t + 1)) for d in range(len(pile)) if t + 1 in self.window(i, d)]
                        if took:
                            self.add("commute", [*on_h, *on_g_next, *took, *takes_next], "<=", 2)

    def text(self) -> str:
        deal = self.deal
        lines = [f"\\ Binary Star MIP (time-indexed) of a {deal.game} deal: {self.n} steps, {deal.ranks} ranks, "
                 f"{len(deal.piles)} piles, {len(deal.foundations)} foundations",
                 "\\ a_<pile>_<depth>_<step> = 1: the card at that position (depth 1 on top) is played at that step;"
                 " w_<step>_<foundation>_<rank> = 1: onto that foundation",
                 "\\ foundations " + " ".join(deal.name(card) for card in deal.foundations)]
        lines += [f"\\ pile {i} " + " ".join(deal.name(card) for card in pile) for i, pile in enumerate(deal.piles, 1)]
        lines += ["Minimize", " obj: 0 " + self.binaries[0], "Subject To"]
        for family, rows in self.rows.items():
            for number, row in enumerate(rows, 1):
                lines += list(wrapped(f"{family}_{number}: {row}"))
        lines.append("Bounds")
        lines += [f" 0 <= {name} <= 1" for name in self.continuous]
        lines.append("Binaries")
        lines += [" " + " ".join(self.binaries[start:start + 20]) for start in range(0, len(self.binaries), 20)]
        lines.append("End")
        return "\n".join(lines) + "\n"

    @property
    def constraints(self) -> int:
        return sum(len(rows) for rows in self.rows.values())


def lp_model(deal: BinaryStarDeal) -> tuple[str, dict[str, int]]:
    """The LP text and its size."""
    model = _Model(deal)
    model.build()
    return model.text(), {"rows": model.constraints, "binaries": len(model.binaries),
                          "continuous": len(model.continuous), "columns": len(model.binaries) + len(model.continuous)}


def plays_of(deal: BinaryStarDeal, values: Mapping[str, float], source: str) -> tuple[Play, ...]:
    """The plays of a solution: per step the position with a = 1 and the foundation with some w = 1."""
    positions: dict[int, tuple[int, int]] = {}
    foundations: dict[int, int] = {}
    for name, value in values.items():
        match = _PLAYED.fullmatch(name)
        if match is None or value < 0.5:
            continue
        if match.group(1) == "a":
            step, position = int(match.group(4)), (int(match.group(2)) - 1, int(match.group(3)) - 1)
            clash = positions.setdefault(step, position) != position
        else:
            step, foundation = int(match.group(2)), int(match.group(3)) - 1
            clash = foundations.setdefault(step, foundation) != foundation
        if clash:
            raise InputError(source, None, f"{name}: step {step} plays two cards or on two foundations")
    plays = []
    for step in range(1, len(deal.cards) + 1):
        if step not in positions or step not in foundations:
            raise InputError(source, None, f"the solution plays nothing at step {step}")
        pile, depth = positions[step]
        if not (0 <= pile < len(deal.piles) and 0 <= depth < len(deal.piles[pile])):
            raise InputError(source, None, f"the deal has no position p{pile + 1}_{depth + 1}")
        plays.append(Play(deal.piles[pile][depth], foundations[step], pile))
    return tuple(plays)


def build(deal: BinaryStarDeal, objective: str = "none") -> ModelFiles:
    """deal.lp; the decode map reads a solution's a and w values back into plays."""
    if objective != "none":
        raise UsageError("Binary Star's MIP has no objective: use objective=none")
    text, size = lp_model(deal)
    return ModelFiles({LP_FILE: text}, LP_FILE, lambda values, source: plays_of(deal, values, source),
                      {"model": BINARY_STAR, **size})
