"""Types of the compiled Black Hole search (_search.c); patience.native.engine calls it."""

from collections.abc import Sequence

# one board: each card's rank, each pile's size, the number of ranks, each foundation's top rank
_Board = tuple[Sequence[int], Sequence[int], int, Sequence[int]]

def search(ranks: Sequence[int], pile_sizes: Sequence[int], rank_count: int, foundation_tops: Sequence[int],
           cache: bool, symmetry: bool, wolter: bool, reach: bool, restarts: bool, noise: bool, wide: bool,
           max_cards: bool,
           node_limit: int, seconds: float, cpu_seconds: float, cache_bytes: int, end: int = -1, /
           ) -> tuple[str, list[int] | None, list[int] | None, int, int, int]:
    """(status, cards in play order or None, their foundations or None, nodes, longest play, cached states);
    `seconds` of wall clock and `cpu_seconds` of the thread's CPU (0: none), whichever ends first: status
    `limit` (node limit or wall clock) or `cpu`; `end`: the rank the last card must be next to (-1: any).
    In max-cards mode the cards are the longest play met, also when the search is cut short."""

def search_kept(ranks: Sequence[int], pile_sizes: Sequence[int], rank_count: int, foundation_tops: Sequence[int],
                cache: bool, symmetry: bool, wolter: bool, reach: bool, restarts: bool, noise: bool, wide: bool,
                max_cards: bool, node_limit: int, seconds: float, cpu_seconds: float, cache_bytes: int, end: int = -1, /
                ) -> tuple[str, list[int] | None, list[int] | None, int, int, int, int, bytes | None]:
    """search's answer, then (one foundation) the width and records of a loss certificate's body
    (docs/certificates.md): the failure cache of a lost deal, sorted; None when the deal is not lost or
    the cache had to forget states."""

def both(ranks: Sequence[int], pile_sizes: Sequence[int], back_ranks: Sequence[int], back_pile_sizes: Sequence[int],
         rank_count: int, foundation_tops: Sequence[int], back_tops: Sequence[int], end: int, cache: bool,
         symmetry: bool, wolter: bool, reach: bool, restarts: bool, noise: bool, wide: bool, node_limit: int,
         seconds: float, cpu_seconds: float, cache_bytes: int, /
         ) -> tuple[str, int, list[int] | None, list[int] | None, int, int]:
    """The search from the front and from the back, a round of each in turn: (status, 0 front or 1 back,
    that search's cards in play order or None, their foundations or None, the front's nodes, the back's)."""

def batch(deals: Sequence[_Board], cache: bool, symmetry: bool, wolter: bool, reach: bool, restarts: bool,
          noise: bool, wide: bool, max_cards: bool, node_limit: int, seconds: float, cpu_seconds: float,
          cache_bytes: int, /
          ) -> list[tuple[str, int, int, float]]:
    """Per board: (status, most cards played, nodes, CPU seconds)."""

def survey(ranks: Sequence[int], pile_sizes: Sequence[int], back_ranks: Sequence[int], rank_count: int, top: int,
           end: int, cache: bool, symmetry: bool, wolter: bool, reach: bool, restarts: bool, noise: bool, wide: bool,
           node_limit: int, seconds: float, cpu_seconds: float, cache_bytes: int, alone: int, share: int = 0, /
           ) -> tuple[str, int, list[int], list[int] | None, int, int, int]:
    """A deal of one foundation (`top`: its rank, -1 empty) in max-cards mode from the front, alone for its
    first `alone` nodes, then in turn with the back (`back_ranks`: the same piles' cards in turned order;
    decision mode, `end` its end rank), a round of each (with `share` > 0, the back's turns only while `share`
    times its nodes are at most the front's): (status, 0 the front or 1 the back, the front's
    longest play (its win, if it won), the back's win or None, the front's nodes, the back's, the longest
    play's length)."""

def survey_kept(ranks: Sequence[int], pile_sizes: Sequence[int], back_ranks: Sequence[int], rank_count: int, top: int,
                end: int, cache: bool, symmetry: bool, wolter: bool, reach: bool, restarts: bool, noise: bool,
                wide: bool, node_limit: int, seconds: float, cpu_seconds: float, cache_bytes: int, alone: int,
                share: int = 0, /
                ) -> tuple[str, int, list[int], list[int] | None, int, int, int, int, int, bytes | None]:
    """survey's answer, then of a lost deal the failure cache of a search that proved it lost (0 the front, 1 the
    back, -1 none), the width and the records of a loss certificate's body (docs/certificates.md), or None."""

def closure(boards: Sequence[tuple[Sequence[int], Sequence[int], int, int]], rank_count: int, cut: bool, first: int,
            growth: int, most: int, seconds: float, cpu_seconds: float, /) -> tuple[str, int, int, int, bytes]:
    """Every position a board's plays reach, each board (its cards' ranks, its piles' sizes, the foundation's
    rank or -1, the end rank or -1: won when every pile is empty and the last card is next to it) walked in
    turns of `first`, then `growth` times more positions each, each walk going on where it stopped, until
    one ends: (status, that board, positions, width, records). Status `lost` with the positions as a
    certificate's body (docs/certificates.md: the foundation's rank + 1, the cards taken from each pile,
    each number big-endian in `width` bytes, sorted); `cut` leaves out the positions the live-card bound
    proves lost; else `won`, `positions` (every board past `most` positions; 0: no limit), `limit`
    (`seconds` of wall clock) or `cpu`, with no records."""

def learning(on: bool, /) -> tuple[int, int, int]:
    """Whether the searches set up from now on learn (failures kept by the arc of ranks their refutation kept
    to, docs/hardness.md; off by default), and (learned failures added, learned cuts, failures of the whole
    state) counted since the last call."""
