"""The LP generator: sizes family by family against the paper, look-ahead sets, the file's shape,
and that both solvers read exactly the rows and columns the generator says it wrote."""

from __future__ import annotations

import subprocess
import sys

import pytest

from patience.cards import Card
from patience.deal import Deal
from patience.generators.analysis.black_hole import reachable
from patience.generators.deals import random_deal
from patience.generators.lp.black_hole import MODELS, card_numbers, look_ahead_sets, lp_model
from tests.helpers import INSTANCES

PAPER_VARIABLES = {"mip1": 2908, "mip2": 2652, "mip3": 2601, "mip4": 2601}
PAPER_CONSTRAINTS = {"mip1": 1071, "mip2": 6269, "mip3": 8683, "mip4": 8734}


def look_ahead_rows(n: int = 51, ranks: int = 13) -> int:
    """Rows of (18) for a standard deal, counted from the formula, not from the generator."""
    horizon = ranks - 2
    foundation_rows = min(horizon, n)
    later = sum(min(j + 1, ranks) * min(horizon, n - j) for j in range(1, n + 1))
    return foundation_rows + later


def expected_rows(model: str) -> dict[str, int]:
    """The families of the paper's MIP formulations for 17 piles of 3, as docs/mip.md counts them."""
    piles, n = 17, 51
    rows = {"1": 2 * piles, "2": piles, "3": n, "4": n, "5": n, "6": n, "8": n, "10-17": 8 * n,
            "18": look_ahead_rows(), "19-21": piles * ((n - 1 + 1) + (n - 1 + 1) + (n - 2 + 1))}
    families = {"mip1": ("1", "2", "3", "4", "5", "6", "8", "10-17"),
                "mip2": ("1", "2", "3", "4", "5", "18"),
                "mip3": ("4", "5", "18", "19-21"),
                "mip4": ("1", "2", "4", "5", "18", "19-21")}[model]
    return {family: rows[family] for family in families}


@pytest.fixture(scope="module")
def paper_models():
    from patience.formats import read_deal

    deal = read_deal(INSTANCES / "black_hole" / "paper-example.txt")
    return {model: lp_model(deal, model, "paper") for model in MODELS}


@pytest.mark.parametrize("model", MODELS)
def test_variables_match_the_paper(paper_models, model):
    assert paper_models[model].columns == PAPER_VARIABLES[model]


@pytest.mark.parametrize("model", MODELS)
def test_rows_by_family_are_the_documented_ones(paper_models, model):
    built = paper_models[model]
    assert built.rows == expected_rows(model)
    # the gap to the paper's figure, explained in docs/mip.md family by family
    gap = {"mip1": 357, "mip2": 345, "mip3": 277, "mip4": 277}[model]
    assert PAPER_CONSTRAINTS[model] - built.constraints == gap


def test_look_ahead_sets_come_from_the_ace():
    deal = random_deal(13, 4, 3, 1)
    sets = look_ahead_sets(deal, 51)
    assert sets[0] == {1, 12}  # S_1 = {2, K}
    assert sets[1] == {0, 2, 11}  # S_2 = {A, 3, Q}
    assert all(len(s) == j + 1 for j, s in enumerate(sets[:12], 1))
    assert all(s == set(range(13)) for s in sets[11:])


def test_look_ahead_on_an_even_cycle_keeps_parity():
    assert reachable(0, 3, 6) == {1, 3, 5}
    assert reachable(2, 1, 5) == {1, 3}
    assert reachable(0, 1, 1) == frozenset()


def test_all_in_a_row_has_free_first_card():
    deal = random_deal(13, 4, 4, 3, empty_foundation=True)
    assert all(s == set(range(13)) for s in look_ahead_sets(deal, 52))
    mip1 = lp_model(deal, "mip1", "none")
    assert "y_0" not in mip1.text and mip1.variables["y"] == 52 and mip1.variables["b"] == 4 * 51


def test_card_numbers_go_layer_by_layer_like_the_paper():
    deal = Deal(((Card(1, 0), Card(2, 0), Card(3, 0)), (Card(4, 0),), (Card(5, 0), Card(6, 0))), Card(0, 0), 7)
    assert [c.rank for c in card_numbers(deal)] == [1, 4, 5, 2, 6, 3]


def test_header_maps_card_numbers_to_names(paper_models):
    text = paper_models["mip3"].text
    assert "\\ card 1 4D" in text and "\\ card 18 9S" in text and "\\ card 35 8S" in text
    assert "\\ foundation: AS" in text


def test_objective_none_has_no_weights(paper_models):
    deal = random_deal(5, 4, 3, 0)
    plain = lp_model(deal, "mip3", "none").text
    objective = plain[plain.index("Minimize"):plain.index("Subject To")]
    assert "100" not in objective
    assert "+ 200 a_" in paper_models["mip3"].text.split("Subject To")[0]


@pytest.mark.parametrize("model", MODELS)
def test_highs_reads_every_row_and_column(tmp_path, model):
    deal = random_deal(6, 3, 4, 5)
    built = lp_model(deal, model, "paper")
    path = tmp_path / "m.lp"
    path.write_text(built.text)
    script = ("import highspy,sys; h=highspy.Highs(); h.setOptionValue('output_flag', False); "
              "h.readModel(sys.argv[1]); print(h.getNumRow(), h.getNumCol())")
    out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    last_line = out.stdout.splitlines()[-1]  # HiGHS 1.16 prints its banner before output_flag can be set
    assert last_line.split() == [str(built.constraints), str(built.columns)]
