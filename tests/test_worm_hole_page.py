"""Worm Hole's replay page in a real browser (headless Chromium): its own layout (patience/worm_hole/page.js)
draws the cells beside the foundation, agrees with the validator on every move of a win, and plays by
hand: a card picked, then put onto the foundation or into the cell."""

from __future__ import annotations

import pytest

from patience.cli import main
from patience.pages import browser as chromium
from patience.worm_hole import forms, rules
from patience.worm_hole.deals import numbered_deal
from patience.worm_hole.search import search
from tests.test_pages_browser import browser, errors, open_page, text  # noqa: F401 (the module's browser)
from tests.test_worm_hole import small

pytestmark = [pytest.mark.skipif(chromium.missing() is not None, reason=str(chromium.missing())),
              pytest.mark.xdist_group("browser")]


def cards_shown(browser, selector):  # noqa: F811 (the fixture)
    return [element.get_attribute("data-card") for element in browser.find_elements("css selector", selector)]


def test_the_page_replays_a_native_win_with_parks(browser, tmp_path):  # noqa: F811
    deal = numbered_deal("worm_hole", 2)
    win = search(deal).moves
    assert win is not None and any(move.park for move in win)
    (tmp_path / "deal.txt").write_text(forms.write(deal, "board"))
    (tmp_path / "win.txt").write_text("\n".join(rules.move_names(deal, win)))
    page = tmp_path / "wh.html"
    assert main(["show", str(tmp_path / "deal.txt"), str(tmp_path / "win.txt"), "-o", str(page)]) == 0
    open_page(browser, page)
    assert not errors(browser)  # the page's rules accept every move and see the win
    assert "Won" in text(browser, "#status") or "51" in text(browser, "#foundation-area")


def test_by_hand_a_card_is_parked_then_played(browser, tmp_path):  # noqa: F811
    (tmp_path / "deal.txt").write_text(forms.write(small(), "board"))
    page = tmp_path / "play.html"
    assert main(["show", str(tmp_path / "deal.txt"), "-o", str(page)]) == 0
    open_page(browser, page)
    browser.find_element("css selector", '#piles .card[data-card="3S"]').click()
    browser.find_element("css selector", "#foundation-area .cells .slot").click()
    assert cards_shown(browser, "#foundation-area .cells .card") == ["3S"]
    for card in ("2S", "3S", "4H", "5D"):
        browser.find_element("css selector", f'.card[data-card="{card}"]').click()
        browser.find_element("id", "foundation").click()
    assert "Won" in text(browser, "#status")
    assert not errors(browser)
