"""Certificates of version 3 (docs/certificates.md, "Where a certificate comes from"): the native
search's own failure cache (`engine.search_ranks(kept=...)`, what `survey --certify` stores) is a
certificate the checker certifies, on small deals exactly when a brute force written here finds the
deal lost, from the front (max-cards and decision mode) and from the back; the moves it leaves out are
twins the checker accepts only beside a covered move to the same foundation, and a general card's
move is never excused."""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest

from patience.cards import ranks_adjacent
from patience.certificates import kept_pass
from patience.checker import CERTIFIED, BlackHole, Broken, check
from patience.deal import Deal
from patience.games import game_of
from patience.generators.deals import pysol_deal, random_deal
from patience.native import engine
from patience.native.rules import Rules

pytestmark = pytest.mark.skipif(not engine.compiled(), reason="the compiled search keeps its cache")


def kept(deal: Deal, max_cards: bool, backward: bool = False) -> tuple[str, list]:
    """The search's verdict word and what it kept: [(width, records)] when it proved the deal lost."""
    piles = [pile[::-1] for pile in deal.piles] if backward else list(deal.piles)
    top = -1 if deal.foundation is None else deal.foundation.rank
    found: list[tuple[int, bytes]] = []
    status, _, _, _ = engine.search_ranks([card.rank for pile in piles for card in pile], [len(pile) for pile in piles],
                                          deal.ranks, (-1 if backward else top,), Rules(), max_cards and not backward,
                                          None, 30.0, top if backward else -1, kept=found)
    return status.value, found


def certificate_file(tmp_path: Path, deal: Deal, found: list, direction: str = "forward") -> tuple[Path, Path]:
    path, certificate = tmp_path / "deal.txt", tmp_path / "deal.cert"
    path.write_text(game_of(deal).write_deal(deal, "yaml"))
    width, records = found[0]
    certificate.write_bytes(kept_pass(deal, direction, width, records).file(deal))
    return path, certificate


def brute_force_won(deal: Deal, backward: bool = False) -> bool:
    """Whether some play wins (`backward`: of the piles turned over, ending next to the foundation card)."""
    piles = [tuple(reversed(pile)) if backward else pile for pile in deal.piles]
    first = -1 if backward or deal.foundation is None else deal.foundation.rank
    end = deal.foundation.rank if backward and deal.foundation is not None else None
    seen, waiting = set(), [(first, (0,) * len(piles))]
    while waiting:
        on, taken = waiting.pop()
        if all(gone == len(pile) for gone, pile in zip(taken, piles, strict=True)) and (
                end is None or ranks_adjacent(on, end, deal.ranks)):
            return True
        for index, pile in enumerate(piles):
            if taken[index] < len(pile) and (on < 0 or ranks_adjacent(on, pile[taken[index]].rank, deal.ranks)):
                after = (pile[taken[index]].rank, (*taken[:index], taken[index] + 1, *taken[index + 1:]))
                if after not in seen:
                    seen.add(after)
                    waiting.append(after)
    return False


def small_deals():
    for seed in range(40):
        yield random_deal(4 + seed % 5, 1 + seed % 3, 2 + seed % 3, seed, empty_foundation=seed % 4 == 0)


def test_the_searchs_cache_is_certified_exactly_when_a_brute_force_finds_the_deal_lost(tmp_path):
    outcomes = set()
    for deal in small_deals():
        won = brute_force_won(deal)
        for max_cards in (False, True):
            status, found = kept(deal, max_cards)
            assert status == ("solved" if won else "unsolvable") and bool(found) is not won, deal
            if found:
                path, certificate = certificate_file(tmp_path, deal, found)
                assert check(path, certificate)[0] == CERTIFIED
        if deal.foundation is not None:  # from the back: the piles turned over, ending next to the foundation card
            status, found = kept(deal, False, backward=True)
            assert (status == "unsolvable") is not brute_force_won(deal, backward=True)
            if found:
                path, certificate = certificate_file(tmp_path, deal, found, "backward")
                assert check(path, certificate) == [CERTIFIED]
                outcomes.add("backward")
        outcomes.add(won)
    assert outcomes == {True, False, "backward"}


def records(certificate: Path) -> tuple[dict, list[tuple[int, ...]]]:
    line, body = gzip.decompress(certificate.read_bytes()).split(b"\n", 1)
    header = json.loads(line)
    size = header["numbers"]  # Black Hole's numbers fit a byte each
    assert header["width"] == 1 and header["version"] == 3
    return header, [tuple(body[at:at + size]) for at in range(0, len(body), size)]


def rewrite(certificate: Path, header: dict, positions: list[tuple[int, ...]]) -> None:
    body = b"".join(sorted(bytes(position) for position in positions))
    certificate.write_bytes(gzip.compress(json.dumps({**header, "positions": len(positions)}).encode() + b"\n" + body))


def test_a_twin_is_excused_only_beside_a_covered_move_to_its_foundation(tmp_path):
    """A real loss whose certificate leaves twins out: dropping the position a twin's covered sibling
    leads to, or the position a general card's move leads to beside a covered sibling, is refused."""
    twins = generals = 0
    for seed in (29, 93):  # PySolFC Black Hole losses of 11 and 61 positions, the second with a twin left out
        deal = pysol_deal("black_hole", seed)
        status, found = kept(deal, True)
        assert status == "unsolvable"
        path, certificate = certificate_file(tmp_path, deal, found)
        assert check(path, certificate)[0] == CERTIFIED
        header, positions = records(certificate)
        rules, listed = BlackHole(deal, False), set(positions)
        for position in positions:
            moves = [after for _, after in rules.moves(position)]
            for after, other in itertools.permutations(moves, 2):
                covered = [move for move in moves if move[0] == after[0] and (move in listed or rules.cut(move))]
                if other not in listed or rules.cut(other) is not None or rules.cut(after) is not None:
                    continue
                if after not in listed and covered == [other]:  # left out: a twin beside `other`, the one covered
                    assert rules.twin(position, after)
                    twins, dropped = twins + 1, other
                elif after in listed and not rules.twin(position, after) and other in covered:
                    generals, dropped = generals + 1, after  # a general card's: `other` does not excuse it
                else:
                    continue
                rewrite(certificate, header, [kept for kept in positions if kept != dropped])
                with pytest.raises(Broken, match="which is not listed"):
                    check(path, certificate)
    assert twins and generals


def test_the_kept_cache_is_searched_without_learning(tmp_path):
    """The experimental learning search's cuts are no rule of the checker: a search that keeps its
    cache leaves them off, so its cache is a certificate with learning switched on."""
    from patience.native import _search

    _search.learning(True)
    try:
        for seed in (93, 265):  # (1,510 lists 375,611 positions: ten seconds of checking)
            status, found = kept(pysol_deal("black_hole", seed), False)
            assert status == "unsolvable"
            assert check(*certificate_file(tmp_path, pysol_deal("black_hole", seed), found))[0] == CERTIFIED
    finally:
        _search.learning(False)
