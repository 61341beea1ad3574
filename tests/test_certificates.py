"""Certificates of a loss (patience.certificates, `solve --certificate`, `patience check`): real
certificates of real losses of every game are certified; tampered ones are refused with the position
or the fault named; on small deals the checker accepts exactly the losses a brute force written here
finds, and refuses the best forgery of every win. The certificate file is read and written here by
the test's own reading of docs/certificates.md, so the format is held to its page."""

from __future__ import annotations

import ast
import gzip
import itertools
import json
import random
import time
from pathlib import Path

import pytest

from patience import certificates, checker, plain_search
from patience.binary_star.deal import BinaryStarDeal
from patience.cards import Card, ranks_adjacent
from patience.certificates import dead_positions, encode
from patience.checker import CERTIFIED, Broken, check
from patience.cli import main
from patience.deal import Deal
from patience.games import AnyDeal, deal_content, game_of
from patience.generators.deals import pysol_deal, random_deal
from patience.lbs.deal import LBSDeal
from patience.lbs.deal import random_deal as random_lbs_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits

ROOT = Path(__file__).resolve().parent.parent


def deal_file(folder: Path, deal: AnyDeal, name: str = "deal") -> Path:
    game = game_of(deal)
    path = folder / f"{name}.{'param' if isinstance(deal, LBSDeal) else 'txt'}"
    path.write_text(game.write_deal(deal, game.forms[0] if isinstance(deal, LBSDeal) else "yaml"))
    return path


def read(path: Path) -> tuple[dict, list[tuple[int, ...]]]:
    """A certificate as docs/certificates.md writes it: a gzip of a JSON line and the positions."""
    data = gzip.decompress(path.read_bytes())
    line, body = data.split(b"\n", 1)
    header = json.loads(line)
    width, size = header["width"], header["numbers"] * header["width"]
    positions = [tuple(int.from_bytes(body[at + index:at + index + width], "big") for index in range(0, size, width))
                 for at in range(0, len(body), size)]
    return header, positions


def write(path: Path, header: dict, positions: list[tuple[int, ...]]) -> None:
    width = header["width"]
    body = sorted(b"".join(number.to_bytes(width, "big") for number in position) for position in positions)
    header = {**header, "positions": len(body)}
    path.write_bytes(gzip.compress(json.dumps(header).encode() + b"\n" + b"".join(body)))


def verdict(deal_path: Path, certificate: Path, capsys) -> tuple[int, str]:
    code = main(["check", str(deal_path), str(certificate)])
    out, err = capsys.readouterr()
    return code, (out + err).strip()


# --- real certificates of real searches ---------------------------------------------------------------

def lost_binary_star() -> BinaryStarDeal:
    """A small Binary Star deal none of whose plays wins: a 4 on a pile under which nothing follows."""
    piles = ((Card(4, 0), Card(1, 0)), (Card(2, 0), Card(3, 0)), (Card(6, 0),))
    return BinaryStarDeal(piles, (Card(0, 0), Card(9, 0)), 10)


@pytest.mark.parametrize(("deal", "solver"), [
    (pysol_deal("black_hole", 1), "plain"),
    (pysol_deal("black_hole", 1), "native"),
    (pysol_deal("all_in_a_row", 1), "plain"),
    (random_deal(5, 2, 3, 1), "plain"),
    (lost_binary_star(), "native"),
    (random_lbs_deal(14, 0), "native"),
], ids=["black_hole-plain", "black_hole-native", "all_in_a_row", "generalised", "binary_star", "lbs"])
def test_a_loss_gets_a_certificate_that_the_checker_certifies(tmp_path, capsys, deal, solver):
    path, certificate = deal_file(tmp_path, deal), tmp_path / "loss.cert"
    assert main(["solve", str(path), "--solver", solver, "--certificate", str(certificate)]) == 1
    out = capsys.readouterr().out
    assert "status: unsolvable" in out and f"certificate: {certificate}" in out
    header, positions = read(certificate)
    assert header["game"] == game_of(deal).variant(deal) and header["positions"] == len(positions) > 0
    code, message = verdict(path, certificate, capsys)
    assert code == 0 and message.splitlines()[0] == CERTIFIED


@pytest.mark.parametrize("deal", [pysol_deal("black_hole", 1), pysol_deal("all_in_a_row", 1), lost_binary_star()],
                         ids=["black_hole", "all_in_a_row", "binary_star"])
def test_the_certified_most_cards_are_the_native_searchs_longest_play(tmp_path, capsys, deal):
    path, certificate = deal_file(tmp_path, deal), tmp_path / "loss.cert"
    found = dead_positions(deal, cut=False)  # every position reached: the most cards of any, exactly
    assert found.direction == "forward"  # the deal's own positions: its plays
    certificate.write_bytes(found.file(deal))
    longest = solve(deal, "native", Limits(timeout=60), {"max-cards": "on"})
    assert longest.status is Status.UNSOLVABLE  # its longest play replayed
    assert check(path, certificate)[1] == (f"certified: no play plays more than {longest.stats['max_cards']} "
                                           f"of the {len(deal.cards)} cards")


def test_a_loss_proved_from_the_back_gets_a_certificate_of_the_piles_turned_over(tmp_path, capsys):
    """Black Hole deal 400: the piles turned over reach 1,122 positions, the deal's own millions."""
    path, certificate = deal_file(tmp_path, pysol_deal("black_hole", 400)), tmp_path / "loss.cert"
    assert main(["solve", str(path), "--certificate", str(certificate)]) == 1
    assert "certificate: " in capsys.readouterr().out
    header, positions = read(certificate)
    assert header["direction"] == "backward" and len(positions) < 2_000
    assert verdict(path, certificate, capsys) == (0, CERTIFIED)  # no most cards: these are not the deal's plays
    write(certificate, {**header, "direction": "forward"}, positions)  # read as the deal's own positions
    code, message = verdict(path, certificate, capsys)
    assert code == 1 and "the start position [foundation A; taken 0" in message


def test_a_pass_stopped_at_its_limit_leaves_no_file(tmp_path):
    """Black Hole deal 1,510: its search keeps 375,611 states in a tenth of a second; the pass, at a
    hundredth, stops (or its child is stopped) and writes nothing."""
    certificate = tmp_path / "loss.cert"
    written = certificates.certify(pysol_deal("black_hole", 1510), certificate, Limits(timeout=0.01))
    assert written.reason == "the certificate pass reached the time limit"
    assert list(tmp_path.iterdir()) == []  # nothing half written


def test_solve_keeps_the_searchs_own_cache_as_the_certificate(tmp_path, capsys):
    """The certificate of a native loss is the failure cache of the search that proved it (its
    `cached_states`), not every position the plays reach (the walk's, more): and a position it needs,
    left out, is named."""
    deal = pysol_deal("black_hole", 93)
    path, certificate = deal_file(tmp_path, deal), tmp_path / "loss.cert"
    assert main(["solve", str(path), "--json", "--certificate", str(certificate)]) == 1
    record = json.loads(capsys.readouterr().out)
    header, positions = read(certificate)
    assert header["positions"] == record["stats"]["cached_states"] < dead_positions(deal).count
    assert check(path, certificate)[0] == CERTIFIED
    rules, listed = checker.BlackHole(deal, False), set(positions)
    needed = [after for _, after in rules.moves(rules.start) if after in listed and rules.cut(after) is None
              and not rules.twin(rules.start, after)]
    write(certificate, header, [position for position in positions if position != needed[0]])
    with pytest.raises(Broken, match=r"position \d+ \[foundation A; taken 0 .*which is not listed"):
        check(path, certificate)


def test_a_max_cards_certificate_bounds_every_play_by_the_longest(tmp_path, capsys):
    """Black Hole deal 77: with max-cards on, the certificate is the max-cards search's cache, and the
    checker's most cards is the solver's longest play, which replays: "at most 16" with a play of 16.
    The decision search's certificate bounds the plays less tightly (its cuts ask only for a loss)."""
    deal = pysol_deal("black_hole", 77)
    path, certificate, decided = deal_file(tmp_path, deal), tmp_path / "most.cert", tmp_path / "loss.cert"
    assert main(["solve", str(path), "--set", "max-cards=on", "--json", "--certificate", str(certificate)]) == 1
    stats = json.loads(capsys.readouterr().out)["stats"]
    game = game_of(deal)
    play = game.canonical(deal, game.read_answer(stats["longest_play"], "longest play", deal))
    assert len(play) == stats["max_cards"] and game.replay(deal, list(play), complete=False).valid
    most = f"certified: no play plays more than {stats['max_cards']} of the {len(deal.cards)} cards"
    assert check(path, certificate) == [CERTIFIED, most]
    decided.write_bytes(certificates.certificate_pass(deal).file(deal))
    assert check(path, decided)[0] == CERTIFIED and check(path, decided)[1] != most


def test_a_win_gets_no_certificate(tmp_path, capsys):
    path, certificate = deal_file(tmp_path, pysol_deal("black_hole", 2)), tmp_path / "win.cert"
    assert main(["solve", str(path), "--solver", "plain", "--certificate", str(certificate), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["certificate"] == "none (the status is solved, not unsolvable)"
    assert not certificate.exists()


# --- tampered certificates ----------------------------------------------------------------------------

@pytest.fixture
def lost(tmp_path):
    """All in a Row deal 18 (69 positions, 27 the bound does not cut), its file and its certificate,
    read: every position listed is one the bound does not cut, so none can be left out."""
    deal = pysol_deal("all_in_a_row", 18)
    path, certificate = deal_file(tmp_path, deal), tmp_path / "real.cert"
    certificate.write_bytes(dead_positions(deal).file(deal))
    header, positions = read(certificate)
    return deal, path, header, positions, checker.BlackHole(deal, header["direction"] == "backward")


def test_a_dropped_position_is_named(tmp_path, capsys, lost):
    deal, path, header, positions, rules = lost
    start = rules.start
    dropped = random.Random(1).choice([position for position in positions if position != start])
    write(tmp_path / "t.cert", header, [position for position in positions if position != dropped])
    code, message = verdict(path, tmp_path / "t.cert", capsys)
    assert code == 1 and f"leads to {rules.show(dropped)}, which is not listed" in message


def test_the_start_left_out_is_named(tmp_path, capsys, lost):
    deal, path, header, positions, rules = lost
    write(tmp_path / "t.cert", header, [position for position in positions if position != rules.start])
    assert verdict(path, tmp_path / "t.cert", capsys) == (
        1, f"not certified: the start position {rules.show(rules.start)} is not listed")


def test_a_won_position_slipped_in_is_named(tmp_path, capsys, lost):
    deal, path, header, positions, rules = lost
    won = (5, *(len(pile) for pile in deal.piles))
    write(tmp_path / "t.cert", header, [*positions, won])
    code, message = verdict(path, tmp_path / "t.cert", capsys)
    assert code == 1 and f"{rules.show(won)} is won" in message


def test_a_winnable_deal_is_refused_by_its_hash_and_by_the_rules(tmp_path, capsys, lost):
    deal, path, header, positions, rules = lost
    winnable = pysol_deal("all_in_a_row", 3)
    assert dead_positions(winnable).won
    other = deal_file(tmp_path, winnable, "winnable")
    write(tmp_path / "t.cert", header, positions)
    code, message = verdict(other, tmp_path / "t.cert", capsys)
    assert code == 2 and "another deal" in message
    forged = {**header, "deal": deal_content(game_of(winnable), winnable)}  # the hash made to fit
    write(tmp_path / "forged.cert", forged, positions)
    code, message = verdict(other, tmp_path / "forged.cert", capsys)
    assert code == 1 and message.startswith("not certified: ") and "[foundation" in message


def test_a_truncated_file_is_bad_input(tmp_path, capsys, lost):
    deal, path, header, positions, rules = lost
    data = (tmp_path / "real.cert").read_bytes()
    for cut in (len(data) - 9, len(data) // 2, 10):
        (tmp_path / "t.cert").write_bytes(data[:cut])
        code, message = verdict(path, tmp_path / "t.cert", capsys)
        assert code == 2 and message.startswith("error: ") and "\n" not in message
    short = gzip.decompress(data)[:-3]  # a whole gzip file holding less than the header announces
    (tmp_path / "t.cert").write_bytes(gzip.compress(short))
    assert verdict(path, tmp_path / "t.cert", capsys)[0] == 2


def test_a_certificate_of_another_game_is_bad_input(tmp_path, capsys, lost):
    deal, path, header, positions, rules = lost
    lbs = random_lbs_deal(14, 0)
    (tmp_path / "lbs.cert").write_bytes(encode(lbs, dead_positions(lbs).positions))
    code, message = verdict(path, tmp_path / "lbs.cert", capsys)
    assert code == 2 and "a certificate of game 'lbs', not of this deal's all_in_a_row" in message


@pytest.mark.parametrize("damage", ["unsorted", "twice", "not gzip", "no header", "other format"])
def test_a_malformed_file_is_bad_input(tmp_path, capsys, lost, damage):
    deal, path, header, positions, rules = lost
    body = sorted(bytes(position) for position in positions)
    if damage == "unsorted":
        body[3], body[4] = body[4], body[3]
    if damage == "twice":
        body[4] = body[3]
    line = json.dumps({**header, "format": "other"} if damage == "other format" else header).encode()
    data = gzip.compress(line + b"\n" + b"".join(body))
    (tmp_path / "t.cert").write_bytes({"not gzip": b"positions: 1 2 3\n", "no header": gzip.compress(b"\x00" * 40)}
                                      .get(damage, data))
    code, message = verdict(path, tmp_path / "t.cert", capsys)
    assert code == 2 and message.startswith("error: ") and "\n" not in message


def test_an_lbs_position_of_numbers_no_card_has_is_judged_not_an_internal_error(tmp_path, capsys):
    """A row of 250s (no card of a standard deck's): its moves are named (v3s19) and lead off the list."""
    deal = random_lbs_deal(14, 0)
    walk = dead_positions(deal)
    assert not walk.won
    path, certificate = deal_file(tmp_path, deal), tmp_path / "odd.cert"
    certificate.write_bytes(walk.file(deal))
    header, positions = read(certificate)
    write(certificate, header, [*positions, (250,) * header["numbers"]])
    code, message = verdict(path, certificate, capsys)
    assert code == 1 and message.startswith("not certified: position ")
    assert "v3s19 (position 2) onto position 1" in message


# --- the checker against a brute force on small deals -------------------------------------------------

def brute_force(deal: AnyDeal, backward: bool = False) -> tuple[set[tuple[int, ...]], bool]:
    """Every position the plays reach (as the certificate writes them) and whether one is won; with
    `backward`, of the Black Hole family's piles turned over, from an empty foundation to a last card
    next to the deal's foundation card."""
    if isinstance(deal, LBSDeal):
        def following(row):
            for source, step in itertools.product(range(1, len(row)), (1, 3)):
                target = source - step
                if target >= 0 and (row[source] % deal.ranks == row[target] % deal.ranks
                                    or row[source] // deal.ranks == row[target] // deal.ranks):
                    yield row[:target] + (row[source],) + row[target + 1:source] + row[source + 1:]
        start, won = deal.cards, lambda row: len(row) == 1
    else:
        count = len(deal.foundations) if isinstance(deal, BinaryStarDeal) else 1
        heights = tuple(len(pile) for pile in deal.piles)
        tops = (tuple(card.rank for card in deal.foundations) if isinstance(deal, BinaryStarDeal)
                else (0 if deal.foundation is None or backward else deal.foundation.rank + 1,))
        end = deal.foundation.rank if backward and isinstance(deal, Deal) and deal.foundation else None
        piles = [tuple(reversed(pile)) if backward else pile for pile in deal.piles]

        def following(position):
            for (index, pile), foundation in itertools.product(enumerate(piles), range(count)):
                taken, on = position[count + index], position[foundation]
                if taken < len(pile) and (ranks_adjacent(on, pile[taken].rank, deal.ranks) if count > 1 or
                                          isinstance(deal, BinaryStarDeal) else
                                          on == 0 or ranks_adjacent(on - 1, pile[taken].rank, deal.ranks)):
                    after = list(position)
                    after[foundation] = pile[taken].rank + (0 if isinstance(deal, BinaryStarDeal) else 1)
                    after[count + index] += 1
                    yield tuple(after)
        start = (*tops, *(0,) * len(heights))

        def won(position):
            return position[count:] == heights and (end is None or ranks_adjacent(position[0] - 1, end, deal.ranks))
    seen, waiting = {start}, [start]
    while waiting:
        for after in following(waiting.pop()):
            if after not in seen:
                seen.add(after)
                waiting.append(after)
    return seen, any(map(won, seen))


def small_deals():
    for seed in range(24):
        yield random_deal(4 + seed % 4, 1 + seed % 3, 2 + seed % 2, seed, empty_foundation=seed % 3 == 0)
    for seed in range(24):
        cards = [Card(rank, suit) for suit in range(2) for rank in range(5)] * 2
        random.Random(seed).shuffle(cards)
        piles = tuple(tuple(cards[at:at + 3]) for at in range(2, 14, 3))
        yield BinaryStarDeal(piles, (cards[0], cards[1]), 5 + seed % 3)
    for seed in range(24):
        yield random_lbs_deal(6 + seed % 6, seed)


def test_the_checker_accepts_exactly_the_losses_of_a_brute_force(tmp_path, monkeypatch):
    monkeypatch.setattr(plain_search, "FIRST_TURN", 1)  # turns of a node or two: the back decides some
    monkeypatch.setattr(certificates, "FIRST_TURN", 1)  # the compiled walk's turns too
    outcomes = set()
    for number, deal in enumerate(small_deals()):
        path, certificate = deal_file(tmp_path, deal, f"d{number}"), tmp_path / f"d{number}.cert"
        reached, won = brute_force(deal)
        found = dead_positions(deal, cut=False)
        assert found.won == won, deal
        if not won and found.direction == "backward":
            reached, won = brute_force(deal, backward=True)
            assert not won
        if not won:
            padded = reached
            if isinstance(deal, LBSDeal):  # rows padded to the deal's length
                pad = (1 << 8 * read_width(deal)) - 1
                padded = {row + (pad,) * (len(deal.cards) - len(row)) for row in reached}
            certificate.write_bytes(found.file(deal))
            assert set(read(certificate)[1]) == padded  # the pass lists every position reached
            verdicts = check(path, certificate)
            assert verdicts[0] == CERTIFIED
            if found.direction == "forward":  # the most cards (LBS: moves) any play reaches
                most = max(len(deal.cards) - len(row) if isinstance(deal, LBSDeal) else sum(row[-len(deal.piles):])
                           for row in reached)
                assert f" more than {most} of " in verdicts[1]
            cut = dead_positions(deal)  # the positions the bound does not cut: fewer, each one needed
            certificate.write_bytes(cut.file(deal))
            header, positions = read(certificate)
            assert cut.direction != found.direction or set(positions) <= padded
            assert check(path, certificate)[0] == CERTIFIED
            dropped = random.Random(number).choice(positions)  # any one left out breaks it
            write(certificate, header, [position for position in positions if position != dropped])
        else:  # the best forgery: every position reached but the won ones
            rows = [row for row in reached if len(row) > 1] if isinstance(deal, LBSDeal) else None
            certificate.write_bytes(encode(deal, rows if rows is not None else
                                           [position for position in reached if not _won(deal, position)]))
        with pytest.raises(Broken):
            check(path, certificate)
        outcomes.add((type(deal).__name__, won, found.direction))
    assert {(name, won) for name, won, _ in outcomes} == set(itertools.product(
        ("Deal", "BinaryStarDeal", "LBSDeal"), (False, True)))  # each game both won and lost
    assert {("Deal", False, "forward"), ("Deal", False, "backward")} <= outcomes


def read_width(deal: LBSDeal) -> int:
    return max(1, ((deal.ranks * deal.suits).bit_length() + 7) // 8)


def _won(deal: Deal | BinaryStarDeal, position: tuple[int, ...]) -> bool:
    return position[-len(deal.piles):] == tuple(len(pile) for pile in deal.piles)


# --- the checker itself ---------------------------------------------------------------------------------

def test_the_check_takes_time_linear_in_the_certificate(tmp_path):
    """Ten times the positions take at most 30 times as long (CPU, best of three, a floor under the
    small one's): a quadratic checker would take a hundred. The positions are of a one-pile deal of
    1,000 ranks (two bytes a number), each with a foundation rank next to no top card: no move."""
    deal = Deal((tuple(Card(2 * depth, 0) for depth in range(50)),), Card(500, 1), 1000)
    path = deal_file(tmp_path, deal)
    dead = [(rank + 1, taken) for taken in range(50) for rank in range(1000)
            if not ranks_adjacent(rank, 2 * taken, 1000) and (rank + 1, taken) != (501, 0)]

    def seconds(count: int) -> float:
        certificate = tmp_path / f"{count}.cert"
        certificate.write_bytes(encode(deal, [(501, 0), *dead[:count - 1]]))
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            assert check(path, certificate)[0] == CERTIFIED
            best = min(best, time.process_time() - started)
        return max(best, 0.01)

    assert seconds(40_000) <= 30 * seconds(4_000)


def test_the_checker_is_short_and_imports_no_search():
    source = Path(checker.__file__).read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 300
    imported = {node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not {name for name in imported if name and name.startswith(
        ("patience.native", "patience.plain_search", "patience.lbs.solver", "patience.certificates",
         "patience.runners", "patience.generators"))}
    contracts = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'source_modules = ["patience.checker"]' in contracts


def test_the_compiled_walk_stops_at_its_cap_of_positions(monkeypatch):
    """Past MOST_POSITIONS on both sides the pass gives up (its hash sets would outgrow the memory)
    and says so; under it the same deal is certified."""
    deal = pysol_deal("all_in_a_row", 13)  # 7,532 positions from the back, more from the front
    monkeypatch.setattr(certificates, "MOST_POSITIONS", 5_000)
    assert dead_positions(deal).limited_by == "positions"
    monkeypatch.setattr(certificates, "MOST_POSITIONS", 10_000)
    found = dead_positions(deal)
    assert found.limited_by is None and found.count == 7_532 and found.direction == "backward"
