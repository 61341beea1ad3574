"""Golf: the deal, the rules and replay of each variant, the answer readers, the deal forms, and the
native search against exhaustive play on small generalised deals."""

from __future__ import annotations

import itertools
import time

import pytest

from patience.cards import Card, parse_card
from patience.cli import main
from patience.errors import InputError
from patience.golf import forms, rules
from patience.golf.deal import GolfDeal
from patience.golf.deals import random_deal
from patience.golf.search import _Tables, fed, follow_chains, matching, search
from patience.names import GOLF, GOLF_GENERALISED, GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS
from patience.result import Status

# PySolFC's Golf deal 2, as black-hole-solve's t/data/2.golf.board.txt writes it
BOARD_2 = """\
Talon: 3S TS 9H 2H 3H AD 7H 3D 5H 8D KH 7D AS 5S TH JH
Foundations: 2S
QD 5C 2D 4S 6S
QC 4D 9C 5D 4H
KC JD TD QH AC
3C JS JC 7S 8H
4C 6H 8C 9D AH
2C QS 6C KS 9S
KD 6D 8S 7C TC
"""
# the first moves of black-hole-solve's answer to it (t/data/texts/texts/2.golf.sol.txt)
FISH_2 = """\
Solved!
Move a card from stack 4 to the foundations

Info: Card moved is AH


====================

Deal talon

Info: Card moved is 3S


====================

Move a card from stack 1 to the foundations

Info: Card moved is 4H
"""
VARIANTS = ({}, {"queens_on_kings": True}, {"wrap_ranks": True})


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(word) for word in text.split())


def tiny(queens_on_kings: bool = False, wrap_ranks: bool = False) -> GolfDeal:
    """Two piles (tops QH and AD), a stock of 2S then 3S, the foundation KC."""
    return GolfDeal((cards("QH 2H"), cards("AD JD")), cards("2S 3S"), parse_card("KC"), 13,
                    queens_on_kings, wrap_ranks)


def board_2() -> GolfDeal:
    return forms.read(BOARD_2, "2.golf.board.txt")


def test_board_2_reads_as_pysolfc_deals_it():
    deal = board_2()
    assert deal.game == GOLF and deal.standard_shape
    assert deal.foundation == Card(1, 0) and deal.stock[0] == Card(2, 0) and len(deal.stock) == 16
    assert deal.piles[0] == cards("6S 4S 2D 5C QD")  # top card first
    assert len(set(deal.all_cards)) == 52


def test_variants_name_the_game():
    deal = board_2()
    assert deal.with_variant(queens_on_kings=True).game == GOLF_QUEENS_ON_KINGS
    assert deal.with_variant(wrap_ranks=True).game == GOLF_WRAP_RANKS
    assert deal.with_variant(wrap_ranks=True).queens_on_kings  # wrapping puts a queen on a king too
    assert random_deal(1, ranks=5, suits=2, piles=2, height=2, stock=3).game == GOLF_GENERALISED


@pytest.mark.parametrize(("variant", "on_king", "on_ace"), [
    ({}, set(), {1}), ({"queens_on_kings": True}, {11}, {1}), ({"wrap_ranks": True}, {11, 0}, {1, 12})])
def test_rank_rule_of_each_variant(variant, on_king, on_ace):
    deal = tiny(**variant)
    assert {rank for rank in range(13) if deal.rank_follows(12, rank)} == on_king
    assert {rank for rank in range(13) if deal.rank_follows(0, rank)} == on_ace
    assert deal.rank_follows(11, 12)  # a king goes on a queen in every variant


def test_the_stock_is_dealt_in_order_on_any_card():
    deal = tiny()  # nothing goes on KC: only the stock moves
    assert tuple(rules.legal_moves(deal, [0, 0], 0, deal.foundation)) == cards("2S")
    moves = (rules.DEAL, parse_card("AD"), rules.DEAL)  # 3S goes on AD: a deal takes any rank
    assert rules.replay(deal, moves, complete=False).valid
    assert rules.resolved(deal, moves) == cards("2S AD 3S")


@pytest.mark.parametrize(("moves", "fault"), [
    (["QH"], "move 1: QH cannot go on KC: nothing goes on a king"),
    (["3S"], "move 1: 3S is not the stock's next card (2S is)"),
    (["2S", "2H"], "move 2: 2H is under QH"),
    (["2S", "AD", "AD"], "move 3: AD is already on the foundation"),
    (["2S", "2S"], "move 2: 2S was already dealt from the stock"),
    (["2S", "7C"], "move 2: 7C is not in the deal"),
    (["2S", "AD", "JD"], "move 3: JD does not follow AD"),
    (["deal", "deal", "deal"], "move 3: the stock is empty"),
    (["2S", "AD"], "3 cards left in the piles"),
])
def test_replay_refuses_illegal_moves(moves, fault):
    deal = tiny()
    played = tuple(rules.DEAL if move == "deal" else parse_card(move) for move in moves)
    replay = rules.replay(deal, played)
    assert not replay.valid and replay.fault == fault


def test_a_queen_on_a_king_only_where_the_variant_allows_it():
    assert not rules.replay(tiny(), cards("QH"), complete=False).valid
    assert rules.replay(tiny(queens_on_kings=True), cards("QH"), complete=False).valid
    assert not rules.replay(tiny(queens_on_kings=True), cards("AD"), complete=False).valid
    assert rules.replay(tiny(wrap_ranks=True), cards("AD"), complete=False).valid  # K and A touch


def test_a_win_may_leave_stock_cards():
    deal = GolfDeal((cards("2H 4H"), cards("3D")), cards("9S 5S"), parse_card("AC"))
    moves = cards("2H 3D 4H")
    assert rules.replay(deal, moves).valid  # 9S and 5S stay in the stock
    assert rules.replay(deal, (deal.foundation, *moves)).valid  # a leading start card is skipped


def test_answers_read_cards_deals_and_fish():
    deal = board_2()
    read = rules.read_moves("AH deal\n4H  # comment\ntalon", "a", deal)
    assert read == (Card(0, 1), rules.DEAL, Card(3, 1), rules.DEAL)
    fish = rules.read_moves(FISH_2, "fish", deal)
    assert fish == (Card(0, 1), rules.DEAL, Card(3, 1))
    assert rules.resolved(deal, fish) == cards("AH 3S 4H")
    assert rules.replay(deal, fish, complete=False).valid
    assert rules.move_names(deal, fish) == ["2S", "AH", "3S", "4H"]
    assert rules.read_moves(" ".join(rules.move_names(deal, fish)), "names", deal)[1:] == rules.resolved(deal, fish)


@pytest.mark.parametrize(("text", "line", "message"), [
    (FISH_2.replace("is 3S", "is 4S"), 11, "the card moved is 4S, but the move before it puts 3S on the foundation"),
    (FISH_2.replace("stack 4", "stack 9"), 2, "stack 9 has no card to move"),
    ("Unsolved!\n", 1, "the answer says 'Unsolved!'"),
    ("AH XX\n", 1, "unknown card 'XX'"),
    ("# nothing\n", 1, "no moves in the answer"),
])
def test_bad_answers_are_one_line(text, line, message):
    with pytest.raises(InputError) as error:
        rules.read_moves(text, "answer.txt", board_2())
    assert error.value.line == line and message in error.value.message


@pytest.mark.parametrize("variant", VARIANTS)
def test_forms_round_trip(variant):
    deal = board_2().with_variant(**variant)
    board = forms.write(deal, "board")
    assert forms.read(board, "b") == deal and forms.detect(board)
    assert forms.read(forms.write(deal, "yaml"), "y") == deal
    if not variant:
        assert board == BOARD_2  # byte for byte as black-hole-solve's file
    else:
        assert board.startswith(BOARD_2) and board.count("\n") == BOARD_2.count("\n") + 1


def test_board_reads_the_talon_after_the_foundations():
    lines = BOARD_2.splitlines(keepends=True)
    swapped = lines[1] + lines[0] + "".join(lines[2:])
    assert forms.detect(swapped) and forms.read(swapped, "s") == board_2()


def test_generalised_deals_round_trip_as_yaml():
    deal = random_deal(7, ranks=20, suits=3, piles=4, height=3, stock=5, wrap_ranks=True)
    text = forms.write(deal, "yaml")
    assert forms.detect(text) and forms.read(text, "g.yaml") == deal
    with pytest.raises(ValueError, match="13-rank"):
        forms.write(deal, "board")


def test_detection_leaves_black_hole_boards_alone():
    assert not forms.detect("Foundations: AS\nKD 9S 3C\n")
    assert not forms.detect("ranks: 13\nfoundation: AS\npiles:\n  - [KD]\n")


@pytest.mark.parametrize(("text", "line", "message"), [
    ("Talon: 3S\nAH 2D\n", 2, "expected a 'Foundations:' line"),
    ("Talon: 3S\nFoundations: 3S\nAH\n", 2, "card 3S appears twice (first on line 1)"),
    ("Talon: 3S\nFoundations: -\nAH\n", 2, "expected one start card"),
    ("Talon: 3S XX\nFoundations: 2S\nAH\n", 1, "unknown card 'XX'"),
    ("Talon: 3S\nFoundations: 2S\nAH\nr14s2\n", 4, "card r14s2 has no rank in 0..12"),
    ("Talon:" + " AS" * 10_001 + "\nFoundations: 2S\nAH\n", 1, "cards: 10,001 is more than the cap of 10,000"),
    ("Talon: 3S\nFoundations: 2S\n", 2, "no piles"),
    ("Talon: 3S\nFoundations: 2S\nAH\nVariant: wrap\n", 4, "unknown variant 'wrap'"),
    ("Talon: 3S\nFoundations: 2S\nAH\nVariant: wrap-ranks\n4D\n", 5, "the 'Variant:' line must be the last"),
    ("foundation: 2S\nstock: [3S]\npiles:\n  - [AH, 3S]\n", 4, "card 3S appears twice (first on line 2)"),
    ("foundation: 2S\nstock: [3S]\nwrap_ranks: 1\npiles:\n  - [AH]\n", 3, "'wrap_ranks' must be true or false"),
    ("foundation: 2S\nstock: [3S]\nwrap: true\npiles:\n  - [AH]\n", 3, "unknown key 'wrap'"),
    ("stock: [3S]\npiles:\n  - [AH]\n", 1, "needs a 'foundation'"),
])
def test_malformed_deals_are_one_line(text, line, message):
    with pytest.raises(InputError) as error:
        forms.read(text, "deal.txt")
    assert error.value.line == line and message in error.value.message
    assert "\n" not in str(error.value)


def brute_force(deal: GolfDeal) -> tuple[bool, int]:
    """(won, most pile cards played) by trying every play, without memo or order."""
    def best(taken: tuple[int, ...], dealt: int, base: Card) -> tuple[bool, int]:
        played = sum(taken)
        if played == len(deal.cards):
            return True, played
        outcome = (False, played)
        for card in rules.legal_moves(deal, taken, dealt, base):
            where = deal.position.get(card)
            after = (taken, dealt + 1) if where is None else (
                taken[:where[0]] + (taken[where[0]] + 1,) + taken[where[0] + 1:], dealt)
            outcome = max(outcome, best(*after, card))
        return outcome
    return best((0,) * len(deal.piles), 0, deal.foundation)


SMALL = [(seed, shape, variant) for seed, shape, variant in itertools.product(
    range(12), [(4, 2, 3, 2, 1), (5, 2, 2, 3, 2), (3, 3, 3, 2, 2), (7, 1, 2, 2, 2), (6, 2, 3, 3, 2)], VARIANTS)]


@pytest.mark.parametrize(("seed", "shape", "variant"), SMALL)
def test_search_agrees_with_every_play(seed, shape, variant):
    ranks, suits, piles, height, stock = shape
    deal = random_deal(seed, ranks, suits, piles, height, stock, **variant)
    won, most = brute_force(deal)
    outcome = search(deal, max_cards=True)
    assert (outcome.status is Status.SOLVED) == won and outcome.max_cards == most
    assert rules.replay(deal, outcome.sequence or (), complete=won).valid
    for prune in (True, False):  # the pruning of stranded cards changes no verdict
        assert search(deal, prune=prune).status is (Status.SOLVED if won else Status.UNSOLVABLE)
    if not won:
        assert sum(card in deal.position for card in outcome.sequence or ()) == most


def every_position(deal: GolfDeal) -> dict[tuple[tuple[int, ...], int, Card], bool]:
    """Every position (cards taken from each pile, cards dealt, the foundation's card) that a play of
    `deal` reaches, and whether a win lies beyond it."""
    seen: dict[tuple[tuple[int, ...], int, Card], bool] = {}

    def winnable(taken: tuple[int, ...], dealt: int, base: Card) -> bool:
        if (taken, dealt, base) in seen:
            return seen[taken, dealt, base]
        won = sum(taken) == len(deal.cards)
        for card in rules.legal_moves(deal, taken, dealt, base):
            where = deal.position.get(card)
            after = (taken, dealt + 1) if where is None else (
                taken[:where[0]] + (taken[where[0]] + 1,) + taken[where[0] + 1:], dealt)
            won = winnable(*after, card) or won
        seen[taken, dealt, base] = won
        return won

    winnable((0,) * len(deal.piles), 0, deal.foundation)
    return seen


def test_the_counting_cut_leaves_no_position_that_holds_a_win():
    """`fed` cuts a position when its pile cards cannot each have a card to follow; checked on every
    position every play reaches, against whether a win lies beyond it."""
    cut = 0
    for seed, shape, variant in SMALL[::2]:
        ranks, suits, piles, height, stock = shape
        deal = random_deal(seed, ranks, suits, piles, height, stock, **variant)
        chains = _Tables.of(deal).chains
        seen = every_position(deal)
        for (taken, dealt, base), won in seen.items():
            left = [card for pile, depth in zip(deal.piles, taken, strict=True) for card in pile[depth:]]
            cards, starters = [0] * deal.ranks, [0] * deal.ranks
            for card in left:
                cards[card.rank] += 1
            for card in (*deal.stock[dealt:], base):
                starters[card.rank] += 1
            if fed(chains, cards, starters) < len(left):
                cut += 1
                assert not won, (seed, shape, variant, taken, dealt, base)
    assert cut > 100  # the cut is tried, not vacuous


def test_the_matching_bound_is_the_largest_matching_off_full_cycles():
    """`matching` bounds the largest matching of the follow graph from above, and is that matching
    unless a cycle has cards at every vertex; checked against every matching of small graphs."""
    rng = __import__("random").Random(5)
    for ranks, variant in itertools.product((2, 3, 4), VARIANTS):
        deal = random_deal(0, ranks, 2, 1, 1, 0, **variant)
        onto = _Tables.of(deal).onto
        chains = follow_chains(onto)
        edges = [(2 * base, 2 * rank + 1) for base, row in enumerate(onto) for rank in row]
        for _ in range(12):
            capacity = [rng.randrange(3) for _ in range(2 * ranks)]
            largest = 0
            for counts in itertools.product(*(range(min(capacity[a], capacity[b]) + 1) for a, b in edges)):
                used = [0] * (2 * ranks)
                for (a, b), count in zip(edges, counts, strict=True):
                    used[a] += count
                    used[b] += count
                if all(held <= most for held, most in zip(used, capacity, strict=True)):
                    largest = max(largest, sum(counts))
            bound = matching(chains, capacity)
            assert bound >= largest
            if not any(closed and all(capacity[vertex] for vertex in chain) for chain, closed in chains):
                assert bound == largest, (ranks, variant, capacity)


def test_search_wins_board_2_and_honours_its_node_limit():
    deal = board_2()
    outcome = search(deal)
    assert outcome.status is Status.SOLVED and rules.replay(deal, outcome.sequence).valid
    limited = search(deal, nodes=50)
    assert limited.status is Status.UNKNOWN and limited.limit == "node limit reached" and limited.nodes <= 50


def test_search_engines_agree_move_for_move():
    compiled = pytest.importorskip("patience.golf._golf")
    assert compiled is not None
    for seed, variant in itertools.product(range(20), VARIANTS):
        deal = random_deal(seed, 9, 4, 5, 4, 10, **variant)
        python, c = search(deal, engine="python"), search(deal, engine="c")
        assert (python.status, python.sequence, python.nodes, python.max_cards) == (
            c.status, c.sequence, c.nodes, c.max_cards)


def test_commands_solve_validate_and_convert_golf(tmp_path, capsys):
    deal_file = tmp_path / "906.txt"
    deal_file.write_text(forms.write(board_2().with_variant(wrap_ranks=True), "board"))
    assert main(["solve", str(deal_file), "--solver", "native"]) == 0
    out = capsys.readouterr().out
    assert "golf_wrap_ranks" in out and "status: solved" in out
    answer = tmp_path / "answer.txt"
    answer.write_text(next(line for line in out.splitlines() if line.startswith("sequence:")).removeprefix("sequence:"))
    assert main(["validate", str(deal_file), str(answer)]) == 0
    assert main(["convert", str(deal_file), "--to", "yaml"]) == 0
    yaml_text = capsys.readouterr().out.split("valid: ")[-1]
    assert "wrap_ranks: true" in yaml_text and forms.read(yaml_text[yaml_text.index("#"):], "y").wrap_ranks


def test_a_lost_deal_is_exit_1_and_a_bad_board_one_line_exit_2(tmp_path, capsys):
    lost = tmp_path / "lost.txt"
    lost.write_text(forms.write(tiny(), "board"))
    assert main(["solve", str(lost), "--solver", "native"]) == 1
    assert "status: unsolvable" in capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text("Talon: 3S\nFoundations: 3S\nAH\n")
    assert main(["validate", str(bad), str(lost)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad.txt:2" in err and "appears twice" in err


def test_golf_files_are_not_read_as_black_hole_and_back():
    from patience.games import parse_game_deal

    game, deal = parse_game_deal(BOARD_2, "b.txt")
    assert game.name == GOLF and deal == board_2()
    lines = BOARD_2.splitlines(keepends=True)
    assert parse_game_deal(lines[1] + lines[0] + "".join(lines[2:]), "s.txt")[0].name == GOLF
    assert parse_game_deal("Foundations: AS\nKD 9S 3C\n", "bh.txt")[0].name != GOLF


def test_the_hunt_poses_growing_deals_of_the_variant_and_shrinks_them():
    import random

    from patience.games import get_game
    from patience.golf.deals import posed_deal

    rng = random.Random(3)
    posed = [posed_deal(GOLF_QUEENS_ON_KINGS, index, rng.randrange(2 ** 32), rng, False) for index in range(60)]
    assert all(deal.queens_on_kings and not deal.wrap_ranks for deal in posed)
    assert posed[0].ranks == 3 and posed[-1].ranks == 10
    fixed = posed_deal(GOLF_WRAP_RANKS, 0, 5, rng, True)
    assert fixed.game == GOLF_WRAP_RANKS and fixed == random_deal(5, wrap_ranks=True)
    game = get_game(GOLF)
    deal = posed[30]
    for smaller in game.smaller(deal, False):
        assert len(smaller.all_cards) == len(deal.all_cards) - 1 or (
            sorted(smaller.all_cards) == sorted(deal.all_cards) and smaller != deal)
    assert all(len(smaller.piles) == len(deal.piles) and smaller.stock == deal.stock
               for smaller in game.smaller(deal, True))


def test_a_deal_too_big_for_the_compiled_positions_runs_in_python():
    from patience.golf.search import fits_compiled

    deal = random_deal(4, ranks=20, suits=4, piles=70, height=1, stock=9)  # 2**70 pile states alone
    assert not fits_compiled(deal) and fits_compiled(board_2())
    outcome = search(deal, nodes=2000)
    assert outcome.engine == "python" and outcome.nodes <= 2000
    with pytest.raises(ValueError, match="do not fit"):
        search(deal, engine="c")


def test_patience_deal_deals_generalised_golf(capsys):
    assert main(["deal", "--game", "golf_generalised", "--ranks", "5", "--suits", "2", "--pile-height", "2",
                 "--seed", "3"]) == 0
    deal = forms.read(capsys.readouterr().out, "dealt.yaml")
    assert deal.game == GOLF_GENERALISED and deal.ranks == 5 and len(deal.piles) == 4 and len(deal.stock) == 1
    assert main(["deal", "--game", "golf_generalised", "--ranks", "1", "--suits", "1", "--pile-height", "2"]) == 2
    assert "no pile of 2" in capsys.readouterr().err


def test_a_deck_past_the_cap_is_refused_before_a_card_is_made(capsys):
    """10,000 ranks of 10,000 suits: one line at once (the deck of 10**8 cards was made first, 2 GB and
    minutes); a deal drawn from a big deck takes only its own cards, the same ones as before."""
    started = time.process_time()
    assert main(["deal", "--game", "golf_generalised", "--ranks", "10000", "--suits", "10000"]) == 2
    assert capsys.readouterr().err == "error: cards: 100,000,000 is more than the cap of 10,000\n"
    assert time.process_time() - started < 5
    drawn = random_deal(7, 10000, 10000, 2, 3, 4)
    assert len(drawn.cards) == 6 and len(drawn.stock) == 4 and time.process_time() - started < 5
    assert random_deal(7, 13, 4, 3, 2, 5) == GolfDeal(  # as the deck's sample dealt it
        tuple(tuple(parse_card(name) for name in pile.split()) for pile in ("9D 7S", "JH QD", "9C 7D")),
        tuple(parse_card(name) for name in ["TS", "KH", "3C", "4S", "5S"]), parse_card("8H"))


@pytest.mark.parametrize("named", [GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS])
def test_a_board_that_names_no_variant_is_read_as_the_named_game(named, tmp_path):
    """black-hole-solve's boards carry no variant: `--game` gives it; a board whose Variant line says
    another is refused, naming the game it is."""
    from patience.games import parse_game_deal
    from patience.golf.pysol import numbered_deal

    plain = forms.write_board(numbered_deal(GOLF, 11))
    assert not forms.says_variant(plain)
    game, deal = parse_game_deal(plain, "fish.txt", named)
    assert game.variant(deal) == named
    assert parse_game_deal(plain, "fish.txt")[1] == numbered_deal(GOLF, 11)  # unnamed: the default rules
    marked = forms.write_board(numbered_deal(named, 11))
    assert forms.says_variant(marked)
    with pytest.raises(InputError, match=f"this deal is {named}, not golf"):
        parse_game_deal(marked, "ours.txt", GOLF)
