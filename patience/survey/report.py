"""A survey summed up: win rate with its Wilson interval, the histogram of the most cards
removable per deal, the mean, the median and 99th-percentile nodes, the deals that stop at once
against the exact chance of that (numbered games), and the deals left undecided."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from patience.columns import number, wrapped
from patience.games import get_game, hook
from patience.names import ALL_IN_A_ROW, BINARY_STAR, BLACK_HOLE, DEFAULT_NUMBERING, GAME_TITLES, GAMES, GENERALISED
from patience.outputs import save_figure
from patience.result import Status
from patience.survey.chances import no_move_chance_binary_star, no_move_chance_black_hole, stuck_after_first_chance
from patience.survey.store import UNDECIDED, Row

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
TABLEAU_CARDS = {BLACK_HOLE: 51, ALL_IN_A_ROW: 52, BINARY_STAR: 102}
START_CARDS = {BLACK_HOLE: 1, ALL_IN_A_ROW: 0, BINARY_STAR: 2}  # on the foundations before the first move
# the most cards removable of a deal that stops at once: All in a Row's free first card
STOPPED_AT = {BLACK_HOLE: 0, ALL_IN_A_ROW: 1, BINARY_STAR: 0}


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a binomial proportion: unlike the normal approximation it stays
    inside [0, 1] and keeps its coverage near 0 and 1."""
    if trials == 0:
        return 0.0, 1.0
    rate = successes / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z / (1 + z * z / trials) * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def tableau_cards(settings: Mapping[str, object]) -> int:
    """Cards dealt to the piles: a random generalised deal of R x S cards starts one on the foundation."""
    shape = settings.get("shape")
    if settings.get("game") == GENERALISED and isinstance(shape, list):
        return shape[0] * shape[1] - 1
    return numbered_cards(str(settings.get("game")))


def numbered_cards(game: str) -> int:
    """The tableau's cards of a numbered game: this table's, or those its game's `sizes` counts in its
    deal 1 (a game that numbers its deals by its `numbered_deal` hook, as Golf does); KeyError if neither."""
    if game in TABLEAU_CARDS:
        return TABLEAU_CARDS[game]
    played = get_game(game) if game in GAMES else None
    if played is None or played.numbered_deal is None:
        raise KeyError(game)
    return played.sizes(hook(played.numbered_deal)(game, 1, DEFAULT_NUMBERING)).cards


def percentile(values: Sequence[int], share: float) -> int:
    """The nearest-rank percentile: the smallest value with at least `share` of `values` at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def stop_chance(game: str) -> float:
    """The exact chance that a random deal stops at once: no move at all in Black Hole and Binary
    Star, nothing after the free first card in All in a Row (where every deal has a first move)."""
    if game == BLACK_HOLE:
        return float(no_move_chance_black_hole())
    if game == BINARY_STAR:
        return float(no_move_chance_binary_star())
    return float(stuck_after_first_chance())


@dataclass(frozen=True)
class Summary:
    game: str
    deals: int
    won: int
    lost: int
    undecided: tuple[int, ...]  # seeds
    histogram: dict[int, int]  # most cards removable -> deals
    mean_cards: float
    seconds: float
    nodes: int
    median_nodes: int
    top_nodes: int  # the 99th percentile
    tableau: int  # cards dealt to the piles
    certified: int = 0  # losses with a stored certificate (survey --certify)

    @property
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def rate(self) -> float:
        return self.won / self.decided if self.decided else 0.0

    @property
    def no_move(self) -> int:
        """Deals where no card can be played (All in a Row: where only the free first card can)."""
        return self.histogram.get(STOPPED_AT.get(self.game, 0), 0)


def summarise(game: str, rows: Sequence[Row], cards: int | None = None) -> Summary:
    """`cards`: the tableau's cards (a numbered game's by default)."""
    verdicts = Counter(row.verdict for row in rows)
    histogram = Counter(row.cards for row in rows)
    cards = numbered_cards(game) if cards is None else cards
    nodes = [row.nodes for row in rows]
    return Summary(game, len(rows), verdicts[Status.SOLVED], verdicts[Status.UNSOLVABLE],
                   tuple(row.seed for row in rows if row.verdict == UNDECIDED),
                   {count: histogram.get(count, 0) for count in range(cards + 1)},
                   sum(row.cards for row in rows) / len(rows), sum(row.seconds for row in rows),
                   sum(nodes), percentile(nodes, 0.5), percentile(nodes, 0.99), cards)


def _dealt(settings: Mapping[str, object], shaped: str) -> str:
    """How a survey's deals were dealt: its random shape (by `shaped`), else its numbering."""
    shape, numbering = settings.get("shape"), settings.get("numbering")
    if isinstance(shape, list):
        return shaped.format(*shape)
    return f"{numbering} numbering" if numbering else "numbered deals"


def render(summary: Summary, settings: Mapping[str, object]) -> str:
    low, high = wilson(summary.won, summary.decided)
    kept = [f"{settings['timeout']} s" if settings.get("timeout") is not None else "",
            f"{settings['nodes']:,} nodes" if settings.get("nodes") else ""]
    limits = " and ".join(limit for limit in kept if limit)
    mode = settings.get("mode") or "max-cards"
    dealt = _dealt(settings, "random {} ranks x {} suits in piles of {}")
    removable = "mean cards removable" if mode == "max-cards" else "mean longest play met (a lower bound)"
    lines = [f"survey: {summary.game}, {summary.deals:,} deals ({dealt}, {mode} mode)",
             f"limits: {limits} per deal" if limits else "limits: none recorded",
             f"won: {summary.won:,} of {summary.decided:,} decided = {100 * summary.rate:.2f}% "
             f"(95% Wilson interval {100 * low:.2f}-{100 * high:.2f}%)",
             *([f"lost (certified): {summary.certified:,} of {summary.lost:,} lost "
                f"(a certificate each, checked by `patience check --db`)"] if settings.get("certify") else []),
             f"undecided: {len(summary.undecided):,} of {summary.deals:,} = "
             f"{100 * len(summary.undecided) / summary.deals:.2f}%"
             + (f" (seeds {', '.join(map(str, summary.undecided[:20]))}"
                f"{' ...' if len(summary.undecided) > 20 else ''})" if summary.undecided else ""),
             f"nodes per deal: median {summary.median_nodes:,}, 99th percentile {summary.top_nodes:,}"
             " (an undecided deal counts the nodes it searched)",
             f"{removable}: {summary.mean_cards:.2f} of {summary.tableau}"
             + (f" ({summary.mean_cards + START_CARDS[summary.game]:.2f} of "
                f"{TABLEAU_CARDS[summary.game] + START_CARDS[summary.game]} with the start cards, as Wolter counts)"
                if summary.game == BINARY_STAR else "")]
    lines += _stops(summary)
    lines.append(f"search: {summary.nodes:,} nodes, {number(summary.seconds)} s in all, "
                 f"{number(1000 * summary.seconds / summary.deals)} ms per deal")
    lines = [part for line in lines for part in wrapped(line)]  # within the reports' 100 columns
    lines += ["", f"| {'most cards removable' if mode == 'max-cards' else 'longest play met'} | deals | % |",
              "|---:|---:|---:|"]
    lines += [f"| {cards} | {count:,} | {100 * count / summary.deals:.3f} |"
              for cards, count in summary.histogram.items() if count]
    return "\n".join(lines) + "\n"


def _stops(summary: Summary) -> list[str]:
    """The deals that stop at once against their exact chance, for the numbered games."""
    if summary.game not in STOPPED_AT:
        return []
    lines = []
    chance = stop_chance(summary.game)
    expected = chance * summary.deals
    spread = math.sqrt(summary.deals * chance * (1 - chance))
    if summary.game in (BLACK_HOLE, BINARY_STAR):
        formula = "C(43,17)/C(51,17)" if summary.game == BLACK_HOLE else "C(72,17)/C(102,17)"
        lines.append(f"no playable card: {summary.no_move:,} deals, expected {number(expected)} "
                     f"(chance {formula} = {number(chance)}; binomial sd {number(spread)})")
    else:
        lines.append(f"no playable card: impossible (any top card may go first); only that first card playable: "
                     f"{summary.no_move:,} deals, expected {number(expected)} (exact chance {number(chance)}; "
                     f"sd {number(spread)})")
    return lines


def plot_histogram(summary: Summary, settings: Mapping[str, object], path: Path) -> None:
    """The histogram (`draw_histogram`) as a .png or .svg file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    draw_histogram(summary, settings, axes)
    figure.tight_layout()
    try:
        save_figure(figure, path, dpi=110)
    finally:
        plt.close(figure)


def draw_histogram(summary: Summary, settings: Mapping[str, object], axes) -> None:
    """Bars of the share of deals by the most cards removable, on a log scale so that the spike of
    won deals and the ripple of deals stuck early both show (on matplotlib `axes`)."""
    from matplotlib.ticker import MaxNLocator

    cards = list(summary.histogram)
    axes.bar(cards, [100 * summary.histogram[count] / summary.deals for count in cards], width=0.8)
    axes.set_yscale("log")
    axes.set_xlabel("most cards removable from the tableau")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel("% of deals")
    axes.set_xlim(-1, cards[-1] + 1)
    dealt = _dealt(settings, "{}x{}x{}")
    axes.set_title(f"{GAME_TITLES[summary.game]}: {summary.deals:,} deals ({dealt}), {100 * summary.rate:.2f}% won")
    axes.grid(axis="y", alpha=0.3)
