"""Golf's replay page in a real browser (headless Chromium): its own layout (patience/golf/page.js) draws
the stock beside the foundation, agrees with the validator on every play of an answer, and plays by hand
by the variant's rule."""

from __future__ import annotations

import pytest

from patience.cli import main
from patience.golf import forms, rules
from patience.golf.search import search
from patience.pages import browser as chromium
from tests.test_golf import BOARD_2, board_2
from tests.test_pages_browser import browser, errors, open_page, text  # noqa: F401 (the module's browser)

pytestmark = [pytest.mark.skipif(chromium.missing() is not None, reason=str(chromium.missing())),
              pytest.mark.xdist_group("browser")]


def cards_shown(browser, selector):  # noqa: F811 (the fixture)
    return [element.get_attribute("data-card") for element in browser.find_elements("css selector", selector)]


@pytest.mark.parametrize("variant", [{}, {"queens_on_kings": True}, {"wrap_ranks": True}])
def test_the_page_replays_the_native_win_of_each_variant(browser, tmp_path, variant):  # noqa: F811
    deal = board_2().with_variant(**variant)
    win = search(deal).sequence
    assert win is not None
    (tmp_path / "deal.txt").write_text(forms.write(deal, "board"))
    (tmp_path / "win.txt").write_text(" ".join(rules.move_names(deal, win)))
    page = tmp_path / "golf.html"
    assert main(["show", str(tmp_path / "deal.txt"), str(tmp_path / "win.txt"), "-o", str(page)]) == 0
    open_page(browser, page)
    assert not errors(browser)  # the page's rules accept every move and see the win
    assert cards_shown(browser, "#foundation-area .stock-card") == ["3S"]
    assert "16 left" in text(browser, "#foundation-area .stock")


def test_by_hand_the_stock_deals_and_a_covered_card_is_refused(browser, tmp_path):  # noqa: F811
    (tmp_path / "deal.txt").write_text(BOARD_2)
    page = tmp_path / "play.html"
    assert main(["show", str(tmp_path / "deal.txt"), "-o", str(page)]) == 0
    open_page(browser, page)
    assert sorted(cards_shown(browser, "#piles .card.legal")) == ["AC", "AH"]  # on 2S: the aces, not 3S
    browser.find_element("css selector", "#foundation-area .stock-card").click()
    assert cards_shown(browser, "#foundation") == ["3S"]
    assert cards_shown(browser, "#foundation-area .stock-card") == ["TS"]
    covered = browser.find_element("css selector", '#piles .card[data-card="QD"]')  # under four cards
    browser.execute_script("arguments[0].click()", covered)
    assert "QD is under" in text(browser, "#status")
    assert not errors(browser)
