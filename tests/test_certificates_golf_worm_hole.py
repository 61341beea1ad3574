"""Certificates of a loss for Golf (every variant) and Worm Hole: real certificates of real losses
are certified through `solve --certificate` and `patience check`; tampered ones are refused with the
position or the fault named; on small deals the checker accepts exactly the losses a brute force
written here (on the cards themselves, not the certificate's numbers) finds, with its most cards,
and refuses the best forgery of every win. The file is read and written as docs/certificates.md
describes it (tests/test_certificates.py's reader)."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from patience.cards import Card
from patience.certificates import dead_positions, encode
from patience.checker import CERTIFIED, Broken, check
from patience.cli import main
from patience.deal import Deal
from patience.games import AnyDeal, game_of
from patience.golf.deal import GolfDeal
from patience.golf.deals import random_deal as random_golf_deal
from patience.golf.pysol import golf_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.deals import numbered_deal
from patience.worm_hole.deals import random_deal as random_worm_hole_deal
from tests.test_certificates import read, write

VARIANTS = {"golf": {}, "golf_queens_on_kings": {"queens_on_kings": True}, "golf_wrap_ranks": {"wrap_ranks": True}}


def deal_file(folder: Path, deal: AnyDeal, name: str = "deal") -> Path:
    path = folder / f"{name}.txt"
    path.write_text(game_of(deal).write_deal(deal, "yaml"))
    return path


def verdict(deal_path: Path, certificate: Path, capsys) -> tuple[int, str]:
    code = main(["check", str(deal_path), str(certificate)])
    out, err = capsys.readouterr()
    return code, (out + err).strip()


# --- a brute force on the cards ------------------------------------------------------------------------

def golf_goes_on(deal: GolfDeal, base: Card, card: Card) -> bool:
    """The rules as docs/golf.md gives them: one rank up or down; nothing on a king but with
    queens_on_kings (a queen); with wrap_ranks an ace on a king and a king on an ace too."""
    king = deal.ranks - 1
    if base.rank == king and not deal.queens_on_kings:
        return False
    if abs(base.rank - card.rank) == 1:
        return True
    return deal.wrap_ranks and {base.rank, card.rank} == {0, king}


def brute_force(deal: GolfDeal | WormHoleDeal) -> tuple[set[tuple[int, ...]], bool, int]:
    """Every state the plays reach, as the certificate's numbers; whether one is won; the most pile
    cards a play puts on the foundation. A state is the cards left in each pile, the stock or cells
    and the foundation's card."""
    piles = tuple(tuple(pile) for pile in deal.piles)
    if isinstance(deal, GolfDeal):
        start: tuple = (piles, 0, deal.foundation)

        def following(state):
            left, dealt, base = state
            for index, pile in enumerate(left):
                if pile and golf_goes_on(deal, base, pile[0]):
                    yield (left[:index] + (pile[1:],) + left[index + 1:], dealt, pile[0])
            if dealt < len(deal.stock):
                yield (left, dealt + 1, deal.stock[dealt])

        def numbers(state):
            left, dealt, base = state
            return (base.rank, dealt, *(len(pile) - len(rest) for pile, rest in zip(piles, left, strict=True)))

        def won(state):
            return not any(state[0])
    else:
        start = (piles, deal.foundation, ())

        def on_foundation(base, card):
            return base is None or (base.rank - card.rank) % deal.ranks in (1, deal.ranks - 1) and deal.ranks > 1

        def following(state):
            left, base, cells = state
            for index, pile in enumerate(left):
                if pile:
                    rest = left[:index] + (pile[1:],) + left[index + 1:]
                    if on_foundation(base, pile[0]):
                        yield (rest, pile[0], cells)
                    if len(cells) < deal.cells:
                        yield (rest, base, tuple(sorted((*cells, pile[0]))))
            for card in cells:
                if on_foundation(base, card):
                    yield (left, card, tuple(other for other in cells if other != card))

        def numbers(state):
            left, base, cells = state
            held = sorted(card.rank + 1 for card in cells)
            return (0 if base is None else base.rank + 1,
                    *(len(pile) - len(rest) for pile, rest in zip(piles, left, strict=True)),
                    *[0] * (deal.cells - len(cells)), *held)

        def won(state):
            return not any(state[0]) and not state[2]
    seen, waiting = {start}, [start]
    while waiting:
        for after in following(waiting.pop()):
            if after not in seen:
                seen.add(after)
                waiting.append(after)
    most = max(sum(len(pile) - len(rest) for pile, rest in zip(piles, state[0], strict=True))
               - (len(state[2]) if isinstance(deal, WormHoleDeal) else 0) for state in seen)
    return {numbers(state) for state in seen}, any(map(won, seen)), most


def small_deals():
    """Tiny Golf deals of every variant and tiny Worm Hole deals of 0 to 2 cells, won and lost."""
    for seed in range(36):
        rng = random.Random(seed)
        ranks, suits = rng.choice([(4, 2), (5, 2), (6, 2), (13, 1)])
        piles, height = rng.randint(1, 3), rng.randint(1, 2)  # at most a few hundred positions
        stock = rng.randint(0, min(4, ranks * suits - 1 - piles * height))
        yield random_golf_deal(seed, ranks, suits, piles, height, stock, **rng.choice(list(VARIANTS.values())))
        yield random_worm_hole_deal(rng.choice([7, 8, 9]), 1, rng.randint(2, 3), seed, rng.random() < 0.3,
                                    rng.randint(0, 2))


def test_the_checker_accepts_exactly_the_losses_of_a_brute_force(tmp_path):
    outcomes = set()
    for number, deal in enumerate(small_deals()):
        path, certificate = deal_file(tmp_path, deal, f"d{number}"), tmp_path / f"d{number}.cert"
        reached, won, most = brute_force(deal)
        found = dead_positions(deal)
        assert found.won == won, deal
        if not won:
            certificate.write_bytes(found.file(deal))
            header, positions = read(certificate)
            assert set(positions) == reached  # the pass lists every position reached
            assert check(path, certificate) == [CERTIFIED, f"certified: no play plays more than {most} of the "
                                                           f"{len(deal.cards)} cards"]
            if isinstance(deal, WormHoleDeal) and deal.cells == 0:  # Black Hole: its bound may cut a dropped one
                continue
            others = [position for position in positions if position != start_of(deal)]
            if others:  # any position but the start left out breaks it (none is cut)
                dropped = random.Random(number).choice(others)
                write(certificate, header, [position for position in positions if position != dropped])
            else:
                write(certificate, header, [])
        else:  # the best forgery: every position reached but the won ones
            rules_won = [position for position in reached if is_won(deal, position)]
            certificate.write_bytes(encode(deal, reached - set(rules_won)))
        with pytest.raises(Broken):
            check(path, certificate)
        outcomes.add((type(deal).__name__, won))
    assert outcomes == {(name, won) for name in ("GolfDeal", "WormHoleDeal") for won in (False, True)}


def is_won(deal: GolfDeal | WormHoleDeal, position: tuple[int, ...]) -> bool:
    heights = tuple(len(pile) for pile in deal.piles)
    if isinstance(deal, GolfDeal):
        return position[2:] == heights
    return position[1:1 + len(heights)] == heights and not any(position[1 + len(heights):])


# --- real certificates, and tampered ones ------------------------------------------------------------

def lost_golf() -> GolfDeal:
    """A lost Golf deal of 13 ranks: 4 piles of 3 and a stock of 6 (272 positions)."""
    return random_golf_deal(2, 13, 4, 4, 3, 6)


def lost_worm_hole() -> WormHoleDeal:
    """PySolFC's deal 105 with one cell, the first lost one: four cards can be played (45 positions)."""
    return numbered_deal("worm_hole", 105)


@pytest.mark.slow  # the certificate pass runs in a child process: a second or more of Python's start
@pytest.mark.parametrize("deal", [lost_golf(), lost_golf().with_variant(queens_on_kings=True), lost_worm_hole()],
                         ids=["golf", "golf_queens_on_kings", "worm_hole"])
def test_a_loss_gets_a_certificate_that_the_checker_certifies(tmp_path, capsys, deal):
    path, certificate = deal_file(tmp_path, deal), tmp_path / "loss.cert"
    assert main(["solve", str(path), "--solver", "native", "--certificate", str(certificate)]) == 1
    out = capsys.readouterr().out
    assert "status: unsolvable" in out and f"certificate: {certificate}" in out
    header, positions = read(certificate)
    assert header["game"] == game_of(deal).variant(deal) and header["positions"] == len(positions) > 1
    code, message = verdict(path, certificate, capsys)
    assert code == 0 and message.splitlines()[0] == CERTIFIED


@pytest.fixture(params=["golf", "worm_hole"])
def real(request, tmp_path):
    """A real certificate of a real loss: its deal, the deal's file, the header and the positions."""
    deal = lost_golf() if request.param == "golf" else lost_worm_hole()
    path, certificate = deal_file(tmp_path, deal), tmp_path / "real.cert"
    certificate.write_bytes(dead_positions(deal).file(deal))
    header, positions = read(certificate)
    return deal, path, header, positions


def start_of(deal: GolfDeal | WormHoleDeal) -> tuple[int, ...]:
    if isinstance(deal, GolfDeal):
        return (deal.foundation.rank, 0, *[0] * len(deal.piles))
    return (0 if deal.foundation is None else deal.foundation.rank + 1, *[0] * (len(deal.piles) + deal.cells))


def test_a_dropped_position_is_named(tmp_path, capsys, real):
    deal, path, header, positions = real
    dropped = random.Random(1).choice([position for position in positions if position != start_of(deal)])
    write(tmp_path / "t.cert", header, [position for position in positions if position != dropped])
    code, message = verdict(path, tmp_path / "t.cert", capsys)
    shown = (f"[foundation {Card(dropped[0], 0).spoken()[:-1]}; dealt {dropped[1]} of the stock; "
             f"taken {' '.join(map(str, dropped[2:]))}]" if isinstance(deal, GolfDeal) else "which is not listed")
    assert code == 1 and message.startswith("not certified: position ") and "which is not listed" in message
    assert shown in message


def test_the_start_left_out_is_named(tmp_path, capsys, real):
    deal, path, header, positions = real
    write(tmp_path / "t.cert", header, [position for position in positions if position != start_of(deal)])
    code, message = verdict(path, tmp_path / "t.cert", capsys)
    where = (f"[foundation {Card(deal.foundation.rank, 0).spoken()[:-1]}; dealt 0 of the stock; taken 0 0 0 0]"
             if isinstance(deal, GolfDeal) else "; cell empty]")
    assert code == 1 and message.startswith("not certified: the start position [") and where in message
    assert message.endswith("is not listed")


def test_a_won_position_slipped_in_is_named(tmp_path, capsys, real):
    deal, path, header, positions = real
    heights = [len(pile) for pile in deal.piles]
    won = (5, 3, *heights) if isinstance(deal, GolfDeal) else (5, *heights, 0)
    write(tmp_path / "t.cert", header, [*positions, won])
    code, message = verdict(path, tmp_path / "t.cert", capsys)
    assert code == 1 and message.startswith("not certified: position ") and message.endswith("is won")


def test_a_parked_card_is_a_won_position_no_more(tmp_path, capsys):
    """Worm Hole: every pile empty but a card in the cell is not won (the card must go too)."""
    deal = lost_worm_hole()
    path, certificate = deal_file(tmp_path, deal), tmp_path / "t.cert"
    certificate.write_bytes(dead_positions(deal).file(deal))
    header, positions = read(certificate)
    write(certificate, header, [*positions, (5, *[len(pile) for pile in deal.piles], 9)])
    assert verdict(path, certificate, capsys)[0] == 0  # listed, not won, no move (9 is no neighbour of 5)


def test_the_deal_swapped_for_a_winnable_one_is_refused(tmp_path, capsys, real):
    deal, path, header, positions = real
    certificate = tmp_path / "t.cert"
    write(certificate, header, positions)
    other = random_golf_deal(49, 13, 4, 4, 3, 6) if isinstance(deal, GolfDeal) else numbered_deal("worm_hole", 1)
    assert solve(other, "native", Limits(timeout=60), {}).status is Status.SOLVED  # the same game and shape
    code, message = verdict(deal_file(tmp_path, other, "won"), certificate, capsys)
    assert (code, message) == (2, f"error: {certificate}:1: a certificate of another deal (its content hash is "
                                  "not this deal's)")


def test_a_truncated_file_is_refused(tmp_path, capsys, real):
    deal, path, header, positions = real
    certificate = tmp_path / "t.cert"
    write(certificate, header, positions)
    data = certificate.read_bytes()
    certificate.write_bytes(data[:len(data) // 2])
    code, message = verdict(path, certificate, capsys)
    assert (code, message) == (2, f"error: {certificate}: cut short or damaged: not a whole gzip file")
    body = gzip.decompress(data)
    certificate.write_bytes(gzip.compress(body[:-1]))  # a whole gzip, a byte short of its last position
    code, message = verdict(path, certificate, capsys)
    assert code == 2 and f"{len(positions)} positions announced, {len(positions) - 1} found" in message


def test_a_certificate_of_another_game_is_refused(tmp_path, capsys):
    """Worm Hole's certificate against Black Hole's deal of the same cards, Golf's against its cards
    under another variant's rules, and each against the other game's deal."""
    worm, golf = lost_worm_hole(), golf_deal(1)  # PySolFC's Golf deal 1 is lost in every variant
    worm_cert, golf_cert = tmp_path / "w.cert", tmp_path / "g.cert"
    worm_cert.write_bytes(encode(worm, [start_of(worm)]))
    golf_cert.write_bytes(encode(golf, [start_of(golf)]))
    pairs = [(worm.black_hole, worm_cert, "of game 'worm_hole', not of this deal's black_hole"),
             (golf.with_variant(queens_on_kings=True), golf_cert, "of game 'golf', not of this deal's "
                                                                  "golf_queens_on_kings"),
             (golf, worm_cert, "of game 'worm_hole', not of this deal's golf"),
             (worm, golf_cert, "of game 'golf', not of this deal's worm_hole")]
    for number, (deal, certificate, said) in enumerate(pairs):
        code, message = verdict(deal_file(tmp_path, deal, f"d{number}"), certificate, capsys)
        assert code == 2 and said in message, message


def test_the_cells_are_part_of_the_position(tmp_path, capsys):
    """A Worm Hole certificate with its cell numbers cut off is refused as bad input; one read with two
    cells where the deal has one too."""
    deal = lost_worm_hole()
    path, certificate = deal_file(tmp_path, deal), tmp_path / "t.cert"
    certificate.write_bytes(dead_positions(deal).file(deal))
    header, positions = read(certificate)
    write(certificate, {**header, "numbers": header["numbers"] - 1}, [position[:-1] for position in positions])
    code, message = verdict(path, certificate, capsys)
    assert code == 2 and f"positions of {header['numbers'] - 1} numbers, not the deal's {header['numbers']}" in message


def test_a_golf_certificate_checked_with_the_stock_moved_on_is_broken(tmp_path, capsys):
    """The stock's position is part of the state: the same positions, each dealt one card later, do not
    hold the start (and a position listed with the stock ahead is no other one)."""
    deal = lost_golf()
    path, certificate = deal_file(tmp_path, deal), tmp_path / "t.cert"
    certificate.write_bytes(dead_positions(deal).file(deal))
    header, positions = read(certificate)
    write(certificate, header, [(position[0], position[1] + 1, *position[2:]) for position in positions])
    code, message = verdict(path, certificate, capsys)
    assert code == 1 and "the start position" in message


# --- PySolFC's deals (slow: a Golf loss lists some hundred thousand positions) -------------------------

@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_pysolfc_golf_losses_of_every_variant_are_certified(tmp_path, capsys, variant):
    """PySolFC's first lost Golf deal of each variant: solve writes the certificate, the check passes
    with the most cards the native search's max-cards mode finds (every position is listed: exact)."""
    seed = next(seed for seed in range(1, 100) if main(["solve", str(deal_file(
        tmp_path, golf_deal(seed, **VARIANTS[variant]), f"s{seed}")), "--solver", "native"]) == 1)
    capsys.readouterr()
    deal = golf_deal(seed, **VARIANTS[variant])
    path, certificate = tmp_path / f"s{seed}.txt", tmp_path / "loss.cert"
    assert main(["solve", str(path), "--solver", "native", "--set", "max-cards=on", "--timeout", "900",
                 "--certificate", str(certificate)]) == 1  # a pass of a million positions, on a loaded machine
    out = capsys.readouterr().out
    most = int(next(line for line in out.splitlines() if line.startswith("max_cards:")).split()[1])
    assert f"certificate: {certificate}" in out and read(certificate)[0]["game"] == variant
    code, message = verdict(path, certificate, capsys)
    assert code == 0 and message.splitlines() == [CERTIFIED, f"certified: no play plays more than {most} of "
                                                             f"the {len(deal.cards)} cards"]


def test_a_black_hole_deal_with_no_cell_is_certified_as_worm_hole_too(tmp_path):
    """Worm Hole with no cell is Black Hole (the checker then cuts by Black Hole's bound as well)."""
    deal = WormHoleDeal(Deal(((Card(4, 0), Card(1, 0)), (Card(2, 0),)), Card(0, 1), 7), 0)
    path, certificate = deal_file(tmp_path, deal), tmp_path / "t.cert"
    certificate.write_bytes(dead_positions(deal).file(deal))
    assert check(path, certificate)[0] == CERTIFIED
