"""`gen successor` is an encoding of `gen cnf`: `gen cnf --encoding successor` writes what the old
name writes, byte for byte, and every CNF route takes the encoding as an option."""

from __future__ import annotations

import pytest

from patience.cli import main
from patience.formats import write_deal
from patience.generators.cnf.successor import formula
from patience.generators.deals import random_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay


def gen(capsys, *arguments: str) -> str:
    assert main(["gen", *arguments]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("flags", [[], ["--parity", "off"], ["--windows", "off"]])
def test_gen_successor_is_the_successor_encoding_of_gen_cnf(tmp_path, capsys, flags):
    """`gen cnf --encoding successor` writes the formula `gen successor` (its old name) writes, byte for
    byte, with the same options; the paper's encoding stays the default."""
    deal = tmp_path / "deal.yaml"
    deal.write_text(write_deal(random_deal(10, 2, 3, seed=4), "yaml"))  # an even rank count: parity applies
    old = gen(capsys, "successor", str(deal), *flags)
    assert old == gen(capsys, "cnf", str(deal), "--encoding", "successor", *flags)
    assert (old == gen(capsys, "successor", str(deal))) == (not flags)  # each option changes the formula
    paper = gen(capsys, "cnf", str(deal))
    assert paper.startswith("c patience-models cnf") and old.startswith("c patience-models successor cnf")


def test_a_sat_solver_solves_the_successor_encoding_by_its_option():
    won = random_deal(13, 2, 3, seed=2)
    result = solve(won, "sat", Limits(timeout=60, cpu=30), {"encoding": "successor"})
    assert result.status is Status.SOLVED and replay(won, result.sequence).valid
    assert result.stats["variables"] == formula(won).cnf.nv  # the successor formula's, not the paper's
