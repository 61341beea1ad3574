"""A MIP start for the paper's formulations (MIP-1..MIP-4): the values a greedy play gives.

Branch and bound finds its first solution late on these models: the LP relaxation spreads every
card over every move. A start names one play to try first. The play here is greedy: at each move,
the playable card that leaves the most cards playable next (ties: the first pile). It usually
gets stuck before the end, so the start is partial (the first moves only) and the solver
completes it or drops it. It is a hint, never an answer: whatever the solver returns is decoded
and replayed like any other solution.
"""

from __future__ import annotations

from patience.cards import Card
from patience.deal import Deal
from patience.generators.lp.black_hole import card_numbers

START_FILE = "start.txt"


def greedy_play(deal: Deal) -> list[Card]:
    """Play while any card is playable, each time the one that leaves the most cards playable."""
    piles = [list(pile) for pile in deal.piles]
    top = deal.foundation
    play: list[Card] = []

    def playable(after: Card | None) -> list[int]:
        return [index for index, pile in enumerate(piles) if pile and (after is None or deal.adjacent(after, pile[0]))]

    while candidates := playable(top):
        def options_after(index: int) -> int:
            card = piles[index].pop(0)
            count = len(playable(card))
            piles[index].insert(0, card)
            return count

        best = max(candidates, key=lambda index: (options_after(index), -index))
        top = piles[best].pop(0)
        play.append(top)
    return play


def start_values(deal: Deal, model: str) -> dict[str, int]:
    """The variables a greedy play fixes. MIP-1..4: a_i_k = 1 (card i is move k), and x_i = k in
    MIP-1/MIP-2; the successor model: the arcs s_i_j along the play and the move numbers p_j."""
    numbers = {card: index for index, card in enumerate(card_numbers(deal), 1)}
    play = [numbers[card] for card in greedy_play(deal)]
    values = {}
    for move, card in enumerate(play, 1):
        if model == "succ":
            values[f"s_{play[move - 2] if move > 1 else 0}_{card}"] = 1
            values[f"p_{card}"] = move
        else:
            values[f"a_{card}_{move}"] = 1
            if model in ("mip1", "mip2"):
                values[f"x_{card}"] = move
    if model == "succ" and play and len(play) == len(numbers):
        values[f"s_{play[-1]}_e"] = 1
    return values


def start_text(deal: Deal, model: str) -> str:
    """The start file: `name value` a line."""
    return "".join(f"{name} {value}\n" for name, value in start_values(deal, model).items())


def read_start(text: str) -> dict[str, float]:
    """The start file back (it is always ours, written in the same run)."""
    return {name: float(value) for name, value in (line.split() for line in text.splitlines() if line.strip())}
