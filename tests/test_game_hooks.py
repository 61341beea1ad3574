"""Every game is reached through its registry line and its `Game`'s hooks: the three games of the
toolkit's first families answer each hook the generic layers call (sizes, labels, shrinking, page data,
sheets, the above-core hooks by name), and those layers keep no branch on a deal's type."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from patience.checker import rules_of
from patience.core import GameDeal, Replay
from patience.games import FAMILY_CLASSES, Game, game_of, games_with, get_game, hook
from patience.generators.deals import pysol_deal, random_deal
from patience.lbs.deal import random_deal as random_row
from patience.names import ALL_IN_A_ROW, BINARY_STAR, BLACK_HOLE, GENERALISED, LBS

ROOT = Path(__file__).resolve().parent.parent
DEALS = {BLACK_HOLE: pysol_deal(BLACK_HOLE, 5), GENERALISED: random_deal(7, 3, 3, 2),
         BINARY_STAR: pysol_deal(BINARY_STAR, 2), LBS: random_row(9, 4)}
# the generic modules that once asked a deal's type or kept a table per game
GENERIC = ["runners/native.py", "runners/plain.py", "runners/sat_embedded.py", "patience/grading/hunt.py",
           "patience/grading/coursework.py", "patience/survey/decide.py", "patience/runs/specs.py",
           "patience/pages/notebook.py", "patience/pages/replay.py", "generators/__init__.py",
           "patience/games/__init__.py", "patience/core.py", "patience/certificates.py"]


def test_the_registry_holds_one_line_a_family_and_every_deal_type_is_a_game_deal():
    for family in FAMILY_CLASSES:
        game = get_game(family)
        assert isinstance(game, Game) and issubclass(game.deal_type, GameDeal), family
    for deal in DEALS.values():
        assert isinstance(deal, GameDeal) and game_of(deal).deal_type is type(deal)


@pytest.mark.parametrize("game", sorted(DEALS))
def test_each_game_answers_the_hooks_the_generic_layers_call(game):
    deal = DEALS[game]
    played = game_of(deal)
    sizes = played.sizes(deal)
    assert sizes.cards == len(deal.cards) == sum(sizes.heights) and sizes.ranks == deal.ranks
    assert sizes.foundations == {LBS: 0, BINARY_STAR: 2}.get(game, 1)
    page = played.page(deal, None)
    assert page["answer"] is None and page["game"] == played.variant(deal)
    assert played.sheet is not None and set(played.sheet.numbers) == {"mzn", "eprime", "asp"}
    assert played.label(deal) == (deal.name if game == LBS else "")
    assert played.named(deal, "x") == (deal if game != LBS else type(deal)(deal.cards, deal.ranks, deal.suits, "x"))
    smaller = list(played.smaller(deal, fixed=False))
    assert smaller and all(len(candidate.cards) <= len(deal.cards) for candidate in smaller)
    assert all(sorted(card.rank for card in candidate.cards) == sorted(card.rank for card in deal.cards)
               for candidate in played.smaller(deal, fixed=True)) if game != LBS else True
    for name in ("native_search", "posed_deals", "certificate_walk") + (("survey_search",) if game != LBS else ()):
        assert callable(hook(getattr(played, name))), name
    numbers, least = played.certificate_numbers(deal)  # a loss certificate's positions, as the checker reads them
    assert numbers == rules_of(deal, 1, False).numbers and (least > 0) is (game == LBS)  # LBS: its pad above


def test_the_hooks_by_name_say_which_games_each_layer_plays():
    assert {BLACK_HOLE, ALL_IN_A_ROW, GENERALISED, BINARY_STAR, LBS} <= set(games_with("native_search"))
    assert LBS not in games_with("survey_search") and BINARY_STAR in games_with("survey_search")


def test_the_hunt_poses_the_same_deals_through_the_hooks():
    """The hunt draws each deal's seed and the game's hook makes the deal from it and the hunt's rng,
    in the order the hunt drew them before the hooks: the same seed poses the same deals."""
    from patience.grading.hunt import posed_deals

    rng, expected = random.Random(7), []
    for index in range(12):
        seed = rng.randrange(2 ** 32)
        ranks = min(3 + index // 8, 13)
        expected.append(random_deal(ranks, rng.randint(1, 4), rng.randint(1, 3), seed))
    assert _take(posed_deals(GENERALISED, False, 7), 12) == expected
    rng = random.Random(7)
    assert next(posed_deals(LBS, False, 7)) == random_row(3, rng.randrange(2 ** 32))


def _take(deals, count):
    return [next(deals) for _ in range(count)]


def test_a_game_without_a_page_or_search_is_refused_by_name():
    class Bare(Game[GameDeal]):
        name = "bare"

    from patience.errors import UsageError

    with pytest.raises(UsageError, match="no replay page for bare"):
        Bare().page(DEALS[LBS], None)
    assert Bare.native_search is None and Bare.sheet is None and list(Bare().smaller(DEALS[LBS], False)) == []
    assert Bare().canonical(DEALS[LBS], [(2, 1)]) == ((2, 1),) and Bare().page_script() == ""


@pytest.mark.parametrize("path", GENERIC)
def test_no_generic_module_asks_a_deal_its_type(path):
    """No isinstance on a deal type, and no import of one, in the modules the games plug into (a
    runner of one family narrows with `deal_as`)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
            kind = ast.unparse(node.args[1])
            assert not kind.endswith("Deal") and "Deal |" not in kind, f"{path}:{node.lineno}: isinstance(..., {kind})"


def test_replay_is_one_type_under_both_names():
    from patience import validator

    assert validator.Replay is Replay


@pytest.mark.parametrize("game", games_with("numbered_deal"))
def test_a_game_that_numbers_its_own_deals_is_a_deal_spec(game):
    """`GAME:1-2` (campaigns, compare, coursework) deals through the game's `numbered_deal` hook, and a
    store's name of one such deal makes it again."""
    from patience.errors import UsageError
    from patience.runs import specs

    deal = hook(get_game(game).numbered_deal)
    try:
        dealt = [deal(game, seed, "pysolfc") for seed in (1, 2)]
    except UsageError as refused:  # a game of the family it deals no numbers of: so is the spec refused
        with pytest.raises(UsageError, match=str(refused)):
            specs.resolve(f"{game}:1-2")
        return
    named = specs.resolve(f"{game}:1-2")
    assert [item.name for item in named] == [f"{game}:1", f"{game}:2"] and [item.deal for item in named] == dealt
    assert specs.stored_deal(f"{game}:2", named[1].content) == named[1]
