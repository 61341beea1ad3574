"""The replay page's game descriptions and the `show` command, without a browser: the page must say
what the validators say, name cards as the deal does, and refuse bad input like every command."""

from __future__ import annotations

import json
import re

import pytest

from patience.cards import Card
from patience.cli import main
from patience.deal import Deal
from patience.games.faces import EXTRA_COLOURS
from patience.generators.deals import random_deal
from patience.lbs.deal import load_deal
from patience.pages import replay
from tests.helpers import COURSE, INSTANCES

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
PAPER_SOLUTION = INSTANCES / "black_hole" / "paper-example.solution"
LBS_DEAL = COURSE / "SolvableInstances" / "LBS10_12.param"


def embedded(page: str) -> dict:
    """The game description a page carries."""
    return json.loads(re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S).group(1))


def show(tmp_path, capsys, *arguments: str) -> tuple[int, dict | None, str, str]:
    page = tmp_path / "page.html"
    code = main(["show", *arguments, "-o", str(page)])
    captured = capsys.readouterr()
    game = embedded(page.read_text()) if page.exists() else None
    return code, game, captured.out, captured.err


def validate(capsys, *arguments: str) -> str:
    main(list(arguments))
    return capsys.readouterr().out.strip()


def test_paper_example_page_replays_the_published_solution(tmp_path, capsys, paper_deal):
    code, game, out, _ = show(tmp_path, capsys, str(PAPER), str(PAPER_SOLUTION))
    assert code == 0 and out.strip().endswith("valid: 51 moves")
    assert game["game"] == "black_hole" and len(game["piles"]) == 17
    assert [card["name"] for card in game["cards"]] == [paper_deal.name(card) for card in paper_deal.all_cards]
    assert game["cards"][game["foundation"]]["name"] == "AS"
    answer = game["answer"]
    assert answer["verdict"] == "valid: 51 moves" and answer["fault"] is None
    assert [game["cards"][card]["name"] for card in answer["moves"]][:3] == ["2C", "3S", "4D"]
    assert {card["colour"] for card in game["cards"] if card["suit"] in ("\u2665", "\u2666")} == {"red"}


@pytest.mark.parametrize("swap, move", [(("6S 7S", "7S 6S"), 5), (("QD KD", "QD QD"), 18)])
def test_invalid_answer_stops_at_the_move_validate_names(tmp_path, capsys, swap, move):
    bad = tmp_path / "bad.txt"
    bad.write_text(PAPER_SOLUTION.read_text().replace(*swap))
    said = validate(capsys, "validate", str(PAPER), str(bad))
    code, game, out, _ = show(tmp_path, capsys, str(PAPER), str(bad))
    fault = game["answer"]["fault"]
    assert code == 0 and said.startswith("invalid: ") and out.strip().endswith(said)
    assert fault["text"] == said and fault["move"] == move and f"move {move}:" in said
    assert len(game["answer"]["moves"]) == move - 1
    assert game["cards"][fault["card"]]["name"] == fault["name"]


def test_short_answer_is_legal_but_leaves_cards(tmp_path, capsys):
    short = tmp_path / "short.txt"
    short.write_text(" ".join(PAPER_SOLUTION.read_text().splitlines()[1].split()[:10]))
    _, game, _, _ = show(tmp_path, capsys, str(PAPER), str(short))
    assert game["answer"]["fault"] == {"text": "invalid: 42 cards left", "move": None, "name": None, "card": None}
    assert len(game["answer"]["moves"]) == 9


def test_generalised_cards_are_named_as_the_deal_names_them():
    deal = random_deal(7, 6, 3, 2)
    game = replay.game_page("generalised", deal, None)
    assert [card["name"] for card in game["cards"]] == [deal.name(card) for card in deal.all_cards]
    assert game["values"] == [card.rank for card in deal.all_cards] and game["ranks"] == 7
    faces = {card: face for card, face in zip(deal.all_cards, game["cards"], strict=True)}
    assert faces[Card(3, 1)]["suit"] == "\u2665" and faces[Card(3, 1)]["rank"] == "r3"
    assert faces[Card(2, 5)]["suit"] == "s5" and faces[Card(2, 5)]["colour"] in EXTRA_COLOURS


def test_all_in_a_row_has_no_foundation_card():
    deal = Deal(((Card(0, 0), Card(1, 0)), (Card(2, 1),)), None)
    game = replay.game_page("generalised", deal, [Card(0, 0), Card(1, 0), Card(2, 1)])
    assert game["foundation"] is None and game["answer"]["verdict"] == "valid: 3 moves"


def test_lbs_page_replays_a_savile_row_solution(tmp_path, capsys):
    solution = LBS_DEAL.with_name(LBS_DEAL.name + ".solution")
    code, game, out, _ = show(tmp_path, capsys, str(LBS_DEAL), str(solution))
    deal = load_deal(str(LBS_DEAL))
    assert code == 0 and game["game"] == "lbs" and game["answer"]["verdict"] == "valid: 9 moves"
    assert [card["name"] for card in game["cards"]] == [deal.card_name(card) for card in deal.cards]
    assert game["values"] == [deal.value(card) for card in deal.cards] and game["steps"] == [1, 3]


def test_lbs_invalid_moves_name_the_fault_as_lbs_validate_does(tmp_path, capsys):
    moves = tmp_path / "moves.txt"
    moves.write_text("3 2\n5 4\n4 2\n")
    said = validate(capsys, "lbs", "validate", str(LBS_DEAL), str(moves))
    _, game, _, _ = show(tmp_path, capsys, str(LBS_DEAL), str(moves))
    fault = game["answer"]["fault"]
    assert said.startswith("invalid: move ") and fault["text"] == said
    assert fault["move"] == int(said.split()[2]) and (fault["from"], fault["to"]) == (4, 2)


def test_solver_option_shows_the_solvers_answer(tmp_path, capsys):
    code, game, out, _ = show(tmp_path, capsys, str(PAPER), "--solver", "native")
    assert code == 0 and game["answer"]["verdict"] == "valid: 51 moves"
    assert "native's answer" in game["answer"]["source"]
    code, game, _, _ = show(tmp_path, capsys, str(LBS_DEAL), "--solver", "native")
    assert code == 0 and game["answer"]["verdict"] == "valid: 9 moves"


def test_without_an_answer_the_page_is_for_play(tmp_path, capsys):
    code, game, out, _ = show(tmp_path, capsys, str(PAPER))
    assert code == 0 and game["answer"] is None and "play by hand" in out


@pytest.mark.parametrize("arguments, message", [
    (("ANSWER_NOT_CARDS",), ":1: unknown card 'hello'"),
    (("ANSWER", "--solver", "native"), "not both"),
    (("--solver", "no-such-solver"), "no-such-solver"),
])
def test_bad_input_is_one_line_and_no_page(tmp_path, capsys, arguments, message):
    answer = tmp_path / "answer.txt"
    answer.write_text("hello 2C\n")
    arguments = tuple(str(answer) if item.startswith("ANSWER") else item for item in arguments)
    code, game, out, err = show(tmp_path, capsys, str(PAPER), *arguments)
    assert code == 2 and game is None and out == ""
    assert err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_card_names_cannot_break_out_of_the_page(tmp_path):
    game = replay.game_page("generalised", Deal(((Card(1, 0),),), Card(0, 0)), None)
    game["title"] = "</script><b>"
    page = replay.render(game, "<i>deal</i>")
    assert "</script><b>" not in page and "<i>deal</i>" not in page and embedded(page)["title"] == "</script><b>"


def test_report_html_links_every_deal_to_a_replay_of_its_stored_sequence(tmp_path, capsys):
    from patience.campaign.store import Store
    from patience.cards import parse_card
    from patience.runs.specs import resolve
    from patience.validator import replay as validate_sequence

    db, spec = tmp_path / "runs.sqlite", "black_hole:1-3+random:6,3,3:1-2"
    assert main(["compare", "--deals", spec, "--solvers", "native", "--timeout", "10", "--jobs", "1",
                 "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["report", str(db), "--html", str(tmp_path / "html")]) == 0
    page = tmp_path / "html" / "index.html"
    assert capsys.readouterr().out.strip().endswith(f"page: {page} (5 replay pages)")
    index = page.read_text()
    store = Store(db, create=False)
    runs = store.runs()
    store.close()
    deals = {item.name: item.deal for item in resolve(spec)}
    assert index.count('class="point"') == 2 * len(runs) == 10  # every run decided: a cactus and an effort point
    for run in runs:
        href = f'deals/{run.deal.replace(":", "_").replace(",", "_")}.html'
        assert f'<a href="{href}">{run.deal}</a>' in index
        game = embedded((tmp_path / "html" / href).read_text())
        if run.status == "solved":
            stored = [parse_card(name) for name in run.sequence.split()]
            assert game["answer"]["verdict"] == validate_sequence(deals[run.deal], stored).describe()
        else:
            assert game["answer"] is None


def test_replay_page_names_are_files_and_never_clash():
    from patience.pages.report import page_names

    names = page_names(["black_hole:17", "random:6,3,3:2", "a/b.txt", "a_b.txt", "a:b.txt"])
    assert names == {"black_hole:17": "black_hole_17.html", "random:6,3,3:2": "random_6_3_3_2.html",
                     "a/b.txt": "a_b.txt.html", "a_b.txt": "a_b.txt-2.html", "a:b.txt": "a_b.txt-3.html"}


@pytest.fixture(scope="module")
def binary_star_answer(tmp_path_factory):
    """PySolFC's Binary Star deal 1 as board text and the native solver's answer to it, as files."""
    from patience.binary_star import forms
    from patience.binary_star.rules import play_names
    from patience.runners.solve import solve
    from patience.runs.process import Limits
    from tests.helpers import pysolfc_deal

    folder = tmp_path_factory.mktemp("binary-star")
    deal = pysolfc_deal(1)
    (folder / "deal.txt").write_text(forms.write_board(deal))
    result = solve(deal, "native", Limits(timeout=60), {})
    assert result.sequence is not None
    (folder / "answer.txt").write_text(" ".join(play_names(deal, result.sequence)) + "\n")
    return deal, folder / "deal.txt", folder / "answer.txt"


def test_binary_star_page_replays_a_native_answer(tmp_path, capsys, binary_star_answer):
    from patience.binary_star.rules import read_plays

    deal, deal_file, answer_file = binary_star_answer
    said = validate(capsys, "validate", str(deal_file), str(answer_file))
    code, game, out, _ = show(tmp_path, capsys, str(deal_file), str(answer_file))
    assert code == 0 and said == "valid: 102 moves" and out.strip().endswith(said)
    assert game["game"] == "binary_star" and game["title"] == "Binary Star" and len(game["piles"]) == 17
    names = [card["name"] for card in game["cards"]]
    assert names == [deal.name(card) for card in deal.cards + deal.foundations]
    assert [names[card] for card in game["foundations"]] == ["AS", "KH"]
    assert game["answer"]["verdict"] == said and game["answer"]["fault"] is None
    plays = read_plays(answer_file.read_text(), "answer")
    pile_of = {card: index for index, pile in enumerate(game["piles"]) for card in pile}
    assert [(names[card], foundation, pile_of[card]) for card, foundation in game["answer"]["moves"]] == \
        [(deal.name(play.card), play.foundation, play.pile) for play in plays]
    assert len({card for card, _ in game["answer"]["moves"]}) == 102  # every position played once


@pytest.mark.parametrize("index, foundation, pile, words", [
    (0, "other", None, "does not follow"),  # at the start no card follows both A and K: move 1 is illegal
    (6, None, "99", "there is no pile 99"),
    (10, "5", None, "there is no foundation 5"),
])
def test_binary_star_invalid_answer_stops_where_validate_says(tmp_path, capsys, binary_star_answer,
                                                              index, foundation, pile, words):
    deal, deal_file, answer_file = binary_star_answer
    plays = answer_file.read_text().split()
    card, named_foundation, named_pile = re.match(r"(\w+)>(\d+)@(\d+)$", plays[index]).groups()
    foundation = str(3 - int(named_foundation)) if foundation == "other" else foundation or named_foundation
    plays[index] = f"{card}>{foundation}@{pile or named_pile}"
    bad = tmp_path / "bad.txt"
    bad.write_text(" ".join(plays))
    said = validate(capsys, "validate", str(deal_file), str(bad))
    code, game, out, _ = show(tmp_path, capsys, str(deal_file), str(bad))
    fault = game["answer"]["fault"]
    assert code == 0 and said.startswith(f"invalid: move {index + 1}: ") and words in said
    assert out.strip().endswith(said) and fault["text"] == said and fault["move"] == index + 1
    assert fault["name"] == plays[index] and len(game["answer"]["moves"]) == index
    marked = (fault["card"] is not None, fault["foundation"] is not None)
    assert marked == {"does not follow": (True, True), "there is no pile 99": (False, True),
                      "there is no foundation 5": (True, False)}[words]
    if fault["card"] is not None:
        assert game["cards"][fault["card"]]["name"] == card


def test_generalised_binary_star_has_every_foundation_and_a_short_answer_leaves_cards():
    from patience.binary_star.deal import BinaryStarDeal, Play

    piles = ((Card(1, 0), Card(2, 0)), (Card(5, 1),), (Card(3, 0), Card(1, 1)))
    deal = BinaryStarDeal(piles, (Card(0, 0), Card(6, 1), Card(4, 2)), ranks=7)
    plays = [Play(Card(1, 0), 0, 0), Play(Card(5, 1), 2), Play(Card(2, 0), 0)]
    game = replay.game_page("binary_star_generalised", deal, plays)
    assert game["game"] == "binary_star_generalised" and game["ranks"] == 7
    assert [game["cards"][card]["name"] for card in game["foundations"]] == ["r0s0", "r6s1", "r4s2"]
    assert game["piles"] == [[0, 1], [2], [3, 4]] and game["answer"]["moves"] == [[0, 0], [2, 2], [1, 0]]
    assert game["answer"]["fault"] == {"text": "invalid: 2 cards left", "move": None, "name": None, "card": None,
                                       "foundation": None}


def test_report_html_replays_binary_star_deals(tmp_path, capsys):
    db = tmp_path / "runs.sqlite"
    assert main(["compare", "--deals", "binary_star:1", "--solvers", "native", "--timeout", "60", "--jobs", "1",
                 "--db", str(db)]) == 0
    assert main(["report", str(db), "--html", str(tmp_path / "html")]) == 0
    assert capsys.readouterr().out.strip().endswith("(1 replay pages)")
    game = embedded((tmp_path / "html" / "deals" / "binary_star_1.html").read_text())
    assert game["game"] == "binary_star" and game["answer"]["verdict"] == "valid: 102 moves"
    assert "native" in game["answer"]["source"] and len(game["answer"]["moves"]) == 102
