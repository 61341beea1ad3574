"""Binary Star's CP models: ACE (and Savile Row where installed) agree with native and an
exhaustive search on small deals, wins replayed; a real Savile Row solution decodes to a win."""

from __future__ import annotations

from collections import Counter

import pytest

from patience.binary_star.forms import read_yaml
from patience.binary_star.rules import replay
from patience.cli import main
from patience.generators.eprime import binary_star as binary_star_eprime
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import TRANSCRIPTS, needs_solver
from tests.test_binary_star import exhaustive, small_deal

LIMITS = Limits(timeout=60)
SMALL = TRANSCRIPTS / "savilerow" / "binary-star-small.yaml"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ace", pytest.param("savilerow-minion", marks=needs_solver("savilerow-minion"))])
def test_cp_solvers_agree_with_native_and_the_exhaustive_search(name):
    verdicts = Counter()
    for seed in range(8):
        deal = small_deal(seed)
        truth = exhaustive(deal)
        result = solve(deal, name, LIMITS)
        assert result.status is (Status.SOLVED if truth else Status.UNSOLVABLE), (seed, result.message)
        assert result.status is solve(deal, "native", LIMITS).status, seed
        if truth:
            assert replay(deal, result.sequence).valid
        verdicts[truth] += 1
    assert verdicts[True] >= 2 and verdicts[False] >= 2


def test_a_real_savile_row_solution_decodes_to_a_win():
    """Savile Row 1.6.5 -O0 -sat with MiniSat on `gen eprime` of the deal (transcript)."""
    deal = read_yaml(SMALL.read_text(), str(SMALL))
    model = binary_star_eprime.build(deal)
    text = SMALL.with_name("binary-star-small-sat.solution").read_text()
    plays = model.decode(text, "binary-star-small-sat.solution")
    assert replay(deal, plays).valid and len(plays) == len(deal.cards)
    broken = text.replace("letting f be [1, 1, 0", "letting f be [0, 0, 0")
    assert not replay(deal, model.decode(broken, "broken")).valid


@pytest.mark.parametrize("language", ["xcsp3", "eprime"])
def test_gen_writes_the_cp_models_of_a_pysolfc_deal(tmp_path, capsys, language):
    deal = tmp_path / "deal.txt"
    assert main(["deal", "--game", "binary_star", "--seed", "4"]) == 0
    deal.write_text(capsys.readouterr().out)
    assert main(["gen", language, str(deal)]) == 0
    text = capsys.readouterr().out
    assert ("<instance" in text) if language == "xcsp3" else text.startswith("language ESSENCE' 1.0")
