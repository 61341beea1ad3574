"""The pages in a real browser: headless Chromium (Debian's) driven by Selenium, one browser for the module.
Each test opens a page from file://, clicks and types as a person would, and reads the browser's log."""

from __future__ import annotations

from dataclasses import replace

import pytest

from patience.campaign import tables
from patience.campaign.store import Store
from patience.cli import main
from patience.pages import browser as chromium
from tests.helpers import COURSE, INSTANCES

# One worker runs the module (pytest-xdist): one browser and one set of pages, not one per worker.
pytestmark = [pytest.mark.skipif(chromium.missing() is not None, reason=str(chromium.missing())),
              pytest.mark.xdist_group("browser")]

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
PAPER_SOLUTION = INSTANCES / "black_hole" / "paper-example.solution"
LBS_DEAL = COURSE / "SolvableInstances" / "LBS10_12.param"


@pytest.fixture(scope="module")
def browser():
    with chromium.chromium() as session:
        yield session


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Pages made by the command line once for the module: name -> path."""
    folder = tmp_path_factory.mktemp("pages")
    bad = folder / "bad.solution"
    bad.write_text(PAPER_SOLUTION.read_text().replace("6S 7S", "7S 6S"))
    bad_lbs = folder / "bad-lbs.txt"
    bad_lbs.write_text("3 2\n5 4\n4 2\n")
    from patience.formats import write_deal
    from patience.generators.deals import pysol_deal, random_deal

    (folder / "general.yaml").write_text(write_deal(random_deal(7, 6, 4, 1), "yaml"))
    star, star_bad = binary_star_files(folder)
    (folder / "row.txt").write_text(write_deal(pysol_deal("all_in_a_row", 1), "board"))
    made = {"general": [str(folder / "general.yaml"), "--solver", "native"], "row": [str(folder / "row.txt")],
            "paper": [str(PAPER), str(PAPER_SOLUTION)], "play": [str(PAPER)], "bad": [str(PAPER), str(bad)],
            "lbs": [str(LBS_DEAL), str(LBS_DEAL) + ".solution"], "lbs-play": [str(LBS_DEAL)],
            "lbs-bad": [str(LBS_DEAL), str(bad_lbs)], "star": [str(star), "--solver", "native"],
            "star-play": [str(star)], "star-bad": [str(star), str(star_bad)]}
    for name, arguments in made.items():
        assert main(["show", *arguments, "-o", str(folder / f"{name}.html")]) == 0
    return {name: folder / f"{name}.html" for name in made}


def binary_star_files(folder):
    """PySolFC's Binary Star deal 1 and the native answer with one play, from move 6 on, sent to the
    other foundation where it does not follow: (deal file, answer file)."""
    from patience.binary_star import forms
    from patience.binary_star.rules import play_names
    from patience.binary_star.rules import replay as replay_plays
    from patience.runners.solve import solve
    from patience.runs.process import Limits
    from tests.helpers import pysolfc_deal

    deal = pysolfc_deal(1)
    (folder / "star.txt").write_text(forms.write_board(deal))
    result = solve(deal, "native", Limits(timeout=60), {})
    for index in range(5, len(result.sequence)):
        plays = list(result.sequence)
        plays[index] = replace(plays[index], foundation=1 - plays[index].foundation)
        if replay_plays(deal, plays).moves == index:
            (folder / "star-bad.txt").write_text(" ".join(play_names(deal, plays)))
            break
    return folder / "star.txt", folder / "star-bad.txt"


def open_page(browser, path):
    browser.get_log("browser")  # each page starts with an empty log; what it logs while loading stays
    browser.get(path.resolve().as_uri())


def errors(browser) -> list[dict]:
    """What the page wrote to the console at error level (script errors, failed loads)."""
    return [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def text(browser, selector: str) -> str:
    return browser.find_element("css selector", selector).text


def key(browser, name: str) -> None:
    key_into(browser.find_element("css selector", "body"), name)


def key_into(element, name: str) -> None:
    from selenium.webdriver.common.keys import Keys

    element.send_keys(getattr(Keys, name))


def piles(browser) -> list:
    return browser.find_elements("css selector", ".pile")


def foundation(browser) -> str:
    return browser.find_element("id", "foundation").get_attribute("data-card") or ""


def test_paper_example_steps_to_a_win(browser, pages):
    open_page(browser, pages["paper"])
    assert text(browser, "#verdict") == "valid: 51 moves"
    assert foundation(browser) == "AS" and text(browser, "#counter") == "0 / 51"
    assert [card.get_attribute("data-card") for card in browser.find_elements("css selector", ".card.legal")] == ["2C"]
    forward = browser.find_element("id", "forward")
    for _ in range(51):
        forward.click()
    assert text(browser, "#status") == "Won: all 51 cards played."
    assert foundation(browser) == "4C" and text(browser, "#counter") == "51 / 51"
    assert not forward.is_enabled() and not browser.find_elements("css selector", ".pile .card:not(.slot)")
    key(browser, "HOME")
    assert text(browser, "#counter") == "0 / 51" and foundation(browser) == "AS"
    key(browser, "ARROW_RIGHT")
    key(browser, "ARROW_RIGHT")
    assert foundation(browser) == "3S"
    key(browser, "ARROW_LEFT")
    assert foundation(browser) == "2C"
    browser.find_element("css selector", '#moves li[data-move="20"]').click()
    assert text(browser, "#counter") == "20 / 51" and foundation(browser) == "2S"
    browser.execute_script("const s = document.getElementById('slider'); s.value = 8;"
                           "s.dispatchEvent(new Event('input'));")
    assert foundation(browser) == "9S" and text(browser, "#status").startswith("Move 8: 9S.")
    key(browser, "END")
    assert text(browser, "#status").startswith("Won")
    assert errors(browser) == []


def test_play_and_pause_run_the_answer(browser, pages):
    import time

    open_page(browser, pages["paper"])
    browser.find_element("id", "speed").send_keys("fast")
    key(browser, "SPACE")
    assert text(browser, "#play") == "Pause"
    deadline = time.monotonic() + 10
    while text(browser, "#counter").startswith("0 ") and time.monotonic() < deadline:
        time.sleep(0.1)  # a busy machine may delay the first tick; waiting for it keeps the test steady
    key(browser, "SPACE")
    played = int(text(browser, "#counter").split(" / ")[0])
    time.sleep(0.5)
    assert text(browser, "#play") == "Play" and 0 < played == int(text(browser, "#counter").split(" / ")[0])
    assert errors(browser) == []


def test_illegal_clicks_move_nothing_and_play_ends_won_or_stuck(browser, pages):
    open_page(browser, pages["play"])
    piles_before = browser.find_element("id", "piles").get_attribute("innerHTML")
    from selenium.webdriver.common.action_chains import ActionChains

    for card in ("3S", "9S"):  # 3S is a top card that does not follow AS; 9S lies under 4D: click its visible edge
        element = browser.find_element("css selector", f'.card[data-card="{card}"]')
        ActionChains(browser).move_to_element_with_offset(element, 0, 8 - element.size["height"] // 2).click().perform()
        assert foundation(browser) == "AS" and text(browser, "#counter") == "0 / 0"
        assert "nothing moves" in text(browser, "#status")
    assert text(browser, "#status") == "9S is under 4D: nothing moves."
    assert browser.find_element("id", "piles").get_attribute("innerHTML") == piles_before
    first = browser.find_elements("css selector", ".card.legal")[0]
    name = first.get_attribute("data-card")
    key_into(first, "ENTER")  # a card reached with Tab plays with Enter
    assert foundation(browser) == name and text(browser, "#counter") == "1 / 1 (your play)"
    while legal := browser.find_elements("css selector", ".card.legal"):
        legal[-1].click()
    played = int(text(browser, "#counter").split(" / ")[0])
    left = len(browser.find_elements("css selector", ".pile .card:not(.slot)"))
    assert played + left == 51 and played > 0
    assert text(browser, "#status") == ("Won: all 51 cards played." if left == 0
                                        else f"Stuck: no legal play; {left} card{'s' if left > 1 else ''} left.")
    browser.find_element("id", "undo").click()
    assert text(browser, "#counter") == f"{played - 1} / {played - 1} (your play)"
    browser.find_element("id", "restart").click()
    assert foundation(browser) == "AS"
    assert browser.find_element("id", "piles").get_attribute("innerHTML") == piles_before
    assert errors(browser) == []


def test_generalised_deal_replays_and_all_in_a_row_starts_anywhere(browser, pages):
    open_page(browser, pages["general"])
    assert text(browser, "#verdict") == "valid: 41 moves" and foundation(browser) == "r0s0"
    assert len(browser.find_elements("css selector", ".pile .card")) == 41
    key(browser, "END")
    assert text(browser, "#status") == "Won: all 41 cards played."
    open_page(browser, pages["row"])
    assert browser.find_element("id", "foundation").text == "any card"
    legal = browser.find_elements("css selector", ".card.legal")
    assert len(legal) == 13 == len(piles(browser))
    name = legal[5].get_attribute("data-card")
    legal[5].click()
    assert foundation(browser) == name and text(browser, "#counter") == "1 / 1 (your play)"
    assert errors(browser) == []


def test_invalid_answer_stops_at_the_named_move(browser, pages):
    open_page(browser, pages["bad"])
    assert text(browser, "#verdict") == "invalid: move 5: 7S does not follow 5S"
    assert not browser.find_element("id", "fault").is_displayed()
    key(browser, "END")
    assert text(browser, "#fault") == "invalid: move 5: 7S does not follow 5S"
    assert foundation(browser) == "5S" and text(browser, "#counter") == "4 / 4"
    assert "illegal" in browser.find_element("css selector", '.card[data-card="7S"]').get_attribute("class")
    illegal = browser.find_element("css selector", "#moves li.illegal-move")
    assert illegal.get_attribute("data-move") == "5" and "7S" in illegal.text
    assert text(browser, "#status") == "Stopped after 4 legal moves: move 5 (7S) is illegal."
    assert errors(browser) == []


def test_lbs_page_replays_and_plays(browser, pages):
    open_page(browser, pages["lbs"])
    key(browser, "END")
    assert text(browser, "#status") == "Won: one pile left." and len(piles(browser)) == 1
    open_page(browser, pages["lbs-play"])
    assert len(piles(browser)) == 10
    stuck = [pile for pile in piles(browser)
             if "legal" not in pile.find_element("css selector", ".card").get_attribute("class")]
    stuck[0].find_element("css selector", ".card").click()
    assert len(piles(browser)) == 10 and "no legal move: nothing moves" in text(browser, "#status")
    browser.find_element("css selector", '.pile[data-pile="3"] .card').click()  # 9H onto 9D at 2
    assert "selected" in browser.find_element("css selector", '.pile[data-pile="3"] .card').get_attribute("class")
    browser.find_element("css selector", '.pile[data-pile="2"] .card.target').click()
    assert len(piles(browser)) == 9
    assert browser.find_element("css selector", '.pile[data-pile="2"] .card').get_attribute("data-card") == "9H"
    assert text(browser, "#status").startswith("Move 1: 3\u21922, 9H onto 9D.")
    assert errors(browser) == []


def test_lbs_invalid_moves_show_the_fault(browser, pages):
    open_page(browser, pages["lbs-bad"])
    key(browser, "END")
    fault = text(browser, "#fault")
    assert fault.startswith("invalid: move 3 (4->2): ") and fault == text(browser, "#verdict")
    assert errors(browser) == []


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A small real campaign and its report page: native decides every deal, pyperplan in 1 s not most
    of the 51-card deals (so the effort plot has its crosses for undecided runs too)."""
    folder = tmp_path_factory.mktemp("report")
    db = folder / "runs.sqlite"
    assert main(["compare", "--deals", "black_hole:1-6+all_in_a_row:1-2+random:6,3,3:1-2", "--solvers",
                 "native,pyperplan", "--timeout", "1", "--jobs", "2", "--db", str(db)]) == 0
    assert main(["report", str(db), "--html", str(folder / "html")]) == 0
    return db, folder / "html"


def test_report_page_has_every_row_plot_and_replay(browser, report):
    db, folder = report
    store = Store(db, create=False)
    _, built = tables.build(store, "cpu")
    runs = store.runs()
    store.close()
    open_page(browser, folder / "index.html")
    for table in built:
        shown = browser.find_elements("css selector", f"#table-{table.name} tbody tr")
        assert len(shown) == len(table.rows), table.name
    deals = sorted({run.deal for run in runs})
    links = browser.find_elements("css selector", "#table-deals tbody td a")
    assert sorted(link.text for link in links) == deals
    decided = [run for run in runs if run.status in ("solved", "unsolvable")]
    assert len(browser.find_elements("css selector", "#plot-cactus .point")) == len(decided)
    assert len(browser.find_elements("css selector", "#plot-effort .point")) == len(runs)
    undecided = browser.find_elements("css selector", "#plot-effort g[id^='undecided-'] .point")
    assert len(undecided) == len(runs) - len(decided) > 0
    from selenium.webdriver.common.action_chains import ActionChains

    for point in browser.find_elements("css selector", '.point[data-deal="black_hole:2"]'):
        ActionChains(browser).move_to_element(point).perform()  # the mouse on it, nothing in between
        assert text(browser, "#tip") == point.get_attribute("data-tip")
        assert text(browser, "#tip").startswith("black_hole:2: ")
    head = browser.find_element("css selector", "#table-deals th:nth-child(3)")
    head.click()
    head.click()  # descending: the slowest native run first
    times = [float(cell.get_attribute("data-key")) for cell in
             browser.find_elements("css selector", "#table-deals tbody td:nth-child(3)")]
    assert times == sorted(times, reverse=True)
    assert errors(browser) == []
    browser.find_element("css selector", '#plot-effort .point[data-deal="black_hole:2"]').click()  # its replay
    key(browser, "END")
    assert text(browser, "#status") == "Won: all 51 cards played."
    assert errors(browser) == []
    browser.find_element("css selector", "a.back").click()
    assert browser.find_elements("css selector", "#table-deals")


def test_page_rules_check_the_validators_moves(browser, pages, tmp_path):
    """The page replays the embedded answer with its own rules and logs an error where they disagree,
    so every test above that sees no console error has also seen the two rule books agree."""
    import json
    import re

    page = pages["paper"].read_text()
    data = re.search(r'(?<=id="game-data">)(.*?)(?=</script>)', page, re.S)
    game = json.loads(data.group(1))
    moves = game["answer"]["moves"]
    moves[3], moves[4] = moves[4], moves[3]  # 4D then 6S: not one rank apart
    tampered = tmp_path / "tampered.html"
    tampered.write_text(page[:data.start()] + json.dumps(game) + page[data.end():])
    open_page(browser, tampered)
    logged = [entry["message"] for entry in errors(browser)]
    assert len(logged) == 2 and "rules reject move 4 (6S)" in logged[0] and "move 6 (7S)" in logged[1]


def tops(browser) -> list[str]:
    """The foundations' top cards, foundation 1 first."""
    return [card.get_attribute("data-card") for card in browser.find_elements("css selector", ".foundation .top")]


def test_binary_star_replays_to_a_win_and_shows_an_invalid_answer(browser, pages):
    open_page(browser, pages["star"])
    assert text(browser, "#verdict") == "valid: 102 moves" and tops(browser) == ["AS", "KH"]
    assert text(browser, "#counter") == "0 / 102"
    browser.find_element("id", "forward").click()
    first = text(browser, "#moves li.current")
    card, foundation = first.split(">")[0], int(first.split(">")[1].split("@")[0])
    assert tops(browser)[foundation - 1] == card and text(browser, "#status").startswith(f"Move 1: {card} from pile ")
    key(browser, "END")
    assert text(browser, "#status") == "Won: all 102 cards played."
    assert not browser.find_elements("css selector", ".pile .card:not(.slot)")
    open_page(browser, pages["star-bad"])
    verdict = text(browser, "#verdict")
    move = int(verdict.split()[2].rstrip(":"))
    assert verdict.startswith("invalid: move ") and " does not follow " in verdict
    key(browser, "END")
    assert text(browser, "#fault") == verdict and text(browser, "#counter") == f"{move - 1} / {move - 1}"
    illegal = browser.find_element("css selector", "#moves li.illegal-move")
    assert illegal.get_attribute("data-move") == str(move)
    name = illegal.text.split()[0]
    assert text(browser, "#status") == f"Stopped after {move - 1} legal moves: move {move} ({name}) is illegal."
    marked = browser.find_element("css selector", ".pile .card.illegal")
    assert marked.get_attribute("data-card") == name.split(">")[0]
    assert browser.find_element("css selector", ".foundation .top.illegal").get_attribute("id") == \
        f"foundation-{name.split('>')[1].split('@')[0]}"
    assert errors(browser) == []


def test_binary_star_hand_play_picks_a_card_then_its_foundation(browser, pages):
    open_page(browser, pages["star-play"])
    piles_before = browser.find_element("id", "piles").get_attribute("innerHTML")
    stuck = next(pile for pile in range(1, 18) if pile not in legal_piles(browser))
    top_card(browser, stuck).click()  # a top card that follows neither A nor K
    assert text(browser, "#status").endswith("follows no foundation's top card (AS, KH): nothing moves.")
    browser.find_element("id", "foundation-1").click()  # a foundation with no card picked
    assert text(browser, "#status") == "Pick a highlighted card first: nothing moves."
    assert browser.find_element("id", "piles").get_attribute("innerHTML") == piles_before
    assert tops(browser) == ["AS", "KH"] and text(browser, "#counter") == "0 / 0"
    # play the first legal card onto its foundation until a card may go onto both
    for played in range(1, 30):
        both = [pile for pile in legal_piles(browser) if len(pick(browser, pile)) == 2]
        if both:
            break
        pile = legal_piles(browser)[0]
        name = top_card(browser, pile).get_attribute("data-card")
        target = pick(browser, pile)[0]
        browser.find_element("id", f"foundation-{3 - target}").click()  # the other foundation does not take it
        assert text(browser, "#status") == (f"{name} does not follow {tops(browser)[2 - target]} on foundation "
                                            f"{3 - target}: nothing moves.")
        assert text(browser, "#counter").startswith(f"{played - 1} / ")
        pick(browser, pile)  # picked again, it goes where it may
        browser.find_element("id", f"foundation-{target}").click()
        assert tops(browser)[target - 1] == name and text(browser, "#counter") == f"{played} / {played} (your play)"
    assert both
    name = top_card(browser, both[0]).get_attribute("data-card")
    assert pick(browser, both[0]) == [1, 2]
    browser.find_element("id", "foundation-2").click()
    assert tops(browser)[1] == name and text(browser, "#counter") == f"{played} / {played} (your play)"
    browser.find_element("id", "undo").click()
    assert tops(browser)[1] != name and text(browser, "#counter") == f"{played - 1} / {played - 1} (your play)"
    browser.find_element("id", "restart").click()
    assert tops(browser) == ["AS", "KH"]
    assert browser.find_element("id", "piles").get_attribute("innerHTML") == piles_before
    assert errors(browser) == []


def top_card(browser, pile: int):
    return browser.find_element("css selector", f'.pile[data-pile="{pile}"] .card:last-child')


def legal_piles(browser) -> list[int]:
    """The piles whose top card has a legal play."""
    return [int(card.find_element("xpath", "..").get_attribute("data-pile"))
            for card in browser.find_elements("css selector", ".pile .card.legal")]


def pick(browser, pile: int) -> list[int]:
    """Click the top card of `pile` to pick it (clicking a picked card drops it, so it is dropped first);
    the foundations it may go onto, as the page highlights them."""
    if "selected" in top_card(browser, pile).get_attribute("class"):
        top_card(browser, pile).click()
    top_card(browser, pile).click()
    assert text(browser, "#status").endswith("picked: click a highlighted foundation to put it on.")
    return [int(top.get_attribute("id").split("-")[1])
            for top in browser.find_elements("css selector", ".foundation .top.target")]


def test_binary_star_page_rules_check_the_validators_plays(browser, pages, tmp_path):
    import json
    import re

    page = pages["star"].read_text()
    data = re.search(r'(?<=id="game-data">)(.*?)(?=</script>)', page, re.S)
    game = json.loads(data.group(1))
    game["answer"]["moves"][0][1] = 1 - game["answer"]["moves"][0][1]  # move 1 onto the other foundation
    tampered = tmp_path / "tampered.html"
    tampered.write_text(page[:data.start()] + json.dumps(game) + page[data.end():])
    open_page(browser, tampered)
    logged = [entry["message"] for entry in errors(browser)]
    assert logged and "rules reject move 1 (" in logged[0]


def test_a_game_draws_a_layout_of_its_own_through_its_page_script(browser, tmp_path, monkeypatch):
    """A game whose page data names a layout of its own gives the script that draws it
    (`Game.page_script`): the page runs it first, plays by its rules and draws with it."""
    from patience.games import get_game
    from patience.pages import replay

    script = ("window.patienceLayouts = {tagged: (kit) => Object.assign({}, kit.layouts.blackHole(kit), {"
              "draw(state, legal) { kit.layouts.blackHole(kit).draw(state, legal); "
              "document.body.dataset.drawn = `tagged ${legal.length}`; }})};")
    monkeypatch.setattr(type(get_game("black_hole")), "page_script", lambda self: script)
    deal = patience_deal(PAPER)
    game = replay.game_page("black_hole", deal, None) | {"layout": "tagged"}
    page = tmp_path / "tagged.html"
    page.write_text(replay.render(game, "tagged"), encoding="utf-8")
    open_page(browser, page)
    assert not errors(browser)
    tops = sum(1 for pile in deal.piles if deal.adjacent(deal.foundation, pile[0]))
    assert browser.find_element("css selector", "body").get_attribute("data-drawn") == f"tagged {tops}"
    assert len(browser.find_elements("css selector", "#piles .card.legal")) == tops


def patience_deal(path):
    from patience.games import read_game_deal

    return read_game_deal(path)[1]
