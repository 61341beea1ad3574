"""The constraint models without a solver: Essence Prime parameters against the model's givens,
the card numbering, XCSP3 instances (two deals built in one process), and the output readers on
real Savile Row, ACE and Choco transcripts."""

from __future__ import annotations

import re

import pytest

from patience.answers import read_answer
from patience.cards import Card
from patience.cli import main
from patience.deal import Deal
from patience.errors import InputError
from patience.formats import read_deal
from patience.generators.analysis.black_hole import Numbering, symmetry_pairs
from patience.generators.deals import pysol_deal, random_deal
from patience.generators.eprime.black_hole import model_text, parameters
from patience.generators.eprime.solution import read_info, read_lettings, read_solution
from patience.generators.xcsp3.black_hole import instance
from patience.generators.xcsp3.solution import read_output, sequence
from patience.result import Status
from patience.validator import replay
from tests.helpers import INSTANCES, ROOT, TRANSCRIPTS

GIVEN = re.compile(r"^given\s+(\w+)\s*:", re.MULTILINE)
ALL_IN_A_ROW = INSTANCES / "pysol" / "all_in_a_row" / "all_in_a_row-1.txt"
DEALS = {
    "paper": lambda: read_deal(INSTANCES / "black_hole" / "paper-example.txt"),
    "all-in-a-row": lambda: read_deal(ALL_IN_A_ROW),
    "generalised": lambda: Deal(((Card(3, 0), Card(1, 1), Card(2, 0)), (Card(1, 0),), (Card(4, 2), Card(2, 1))),
                                Card(0, 0), 5),
}


def letting_values(text: str) -> dict[str, str]:
    return dict(re.findall(r"^letting\s+(\w+)\s+be\s+(.*)$", text, re.MULTILINE))


def numbers(matrix: str) -> list[int]:
    body = matrix.strip()[1:-1].split(";")[0]
    return [int(value) for value in re.findall(r"-?\d+", body)]


@pytest.mark.parametrize("kind", DEALS)
def test_param_letting_every_given_with_the_right_shapes(kind):
    deal = DEALS[kind]()
    param = parameters(deal)
    lettings = letting_values(param)
    assert set(lettings) == set(GIVEN.findall(model_text()))
    n = int(lettings["n"])
    assert n == len(deal.cards) + 1
    for name in ("rank", "above", "below"):
        assert lettings[name].endswith(f"; int(0..{n - 1})]")
        values = numbers(lettings[name])
        assert len(values) == n and all(0 <= value < max(n, deal.ranks) for value in values)
    pairs = re.findall(r"\[(\d+), (\d+)\]", lettings["follows"])
    assert len(pairs) == int(lettings["pairs"]) > 0
    assert lettings["symmetryBreaking"] in ("true", "false")


@pytest.mark.parametrize("kind", DEALS)
def test_numbering_reads_the_deal_back(kind):
    deal = DEALS[kind]()
    numbering = Numbering(deal)
    assert numbering.cards[0] == deal.foundation
    depths = [deal.position[card][1] for card in numbering.cards[1:]]
    assert depths == sorted(depths)  # top cards first: ascending values are the paper's value order
    for number in range(1, numbering.size):
        card = numbering.cards[number]
        assert numbering.cards[numbering.above(number)] == deal.above(card) or deal.above(card) is None
        below = numbering.below(number)
        assert (below == 0) == (deal.below(card) is None)
        if below:
            assert numbering.above(below) == number
    for first, second in numbering.follows:
        start = numbering.cards[first]
        assert start is None or deal.adjacent(start, numbering.cards[second])


def test_empty_foundation_start_card_may_be_followed_by_any_card():
    numbering = Numbering(read_deal(ALL_IN_A_ROW))
    assert numbering.cards[0] is None
    assert {second for first, second in numbering.follows if first == 0} == set(range(1, 53))


def test_symmetry_switch_and_pairs():
    deal = DEALS["paper"]()
    assert "letting symmetryBreaking be false" in parameters(deal, symmetry_breaking=False)
    numbering = Numbering(deal)
    pairs = symmetry_pairs(numbering)
    assert len(pairs) == 13 * 6 - 3  # C(4,2) per rank, minus the three pairs with the ace of spades
    assert all(a < b and numbering.rank(a) == numbering.rank(b) for a, b, _, _ in pairs)


@pytest.mark.slow
def test_two_xcsp3_instances_in_one_process_are_independent():
    small = random_deal(4, 2, 2, 7)
    paper = DEALS["paper"]()
    first, second, again = instance(small), instance(paper, symmetry_breaking=False), instance(small)
    assert first == again
    assert '<array id="x" size="[8]"> 0..7 </array>' in first
    assert '<array id="x" size="[52]"> 0..51 </array>' in second
    assert "imp(" not in second and "imp(" in instance(paper)
    assert first.count("<args> x[") == 7 and second.count("<args> x[") == 51


def test_gen_commands_print_model_files(capsys, tmp_path):
    paper = str(INSTANCES / "black_hole" / "paper-example.txt")
    assert main(["gen", "eprime", paper]) == 0
    assert "letting n be 52" in capsys.readouterr().out
    assert main(["gen", "eprime", "--model"]) == 0
    assert capsys.readouterr().out == model_text()
    assert main(["gen", "xcsp3", paper, "--symmetry-breaking", "off", "-o", str(tmp_path)]) == 0
    assert (tmp_path / "deal.xml").read_text().startswith("<instance")


def test_gen_rejects_a_bad_deal(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("Foundations: AS\n8S 9S XX\n")
    assert main(["gen", "eprime", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ")


def test_savilerow_solution_transcripts_decode_and_replay():
    deal = DEALS["paper"]()
    for backend in ("minion", "sat"):
        text = (TRANSCRIPTS / "savilerow" / f"paper-example-{backend}.solution").read_text()
        cards = read_solution(text, "x.solution", Numbering(deal))
        assert replay(deal, cards).valid
        assert read_answer(text, "x.solution", deal) == cards
    info = read_info((TRANSCRIPTS / "savilerow" / "paper-example-minion.info").read_text(), "x.info")
    assert info["SolverSatisfiable"] == 1 and info["SolverNodes"] > 0 and info["SavileRowTotalTime"] > 0
    unsolvable = read_info((TRANSCRIPTS / "savilerow" / "pysol-1-minion.info").read_text(), "x.info")
    assert unsolvable["SolverSatisfiable"] == 0 and unsolvable["SolverTimeOut"] == 0


@pytest.mark.parametrize("text, line", [
    ("letting x be [0, 1, 2\n", 1),
    ("$ Minion SolverNodes: 3\nletting x bee [0]\n", 2),
    ("letting x be [0, 2, 1, 3; int(0..2)]\n", 1),
])
def test_malformed_solution_files_name_the_line(text, line):
    with pytest.raises(InputError) as raised:
        read_lettings(text, "bad.solution")
    assert raised.value.line == line


def test_solution_that_is_no_permutation_is_rejected():
    deal = DEALS["generalised"]()
    with pytest.raises(InputError, match="not a sequence"):
        read_solution("letting x be [0, 1, 1, 2, 3, 4; int(0..5)]\n", "bad.solution", Numbering(deal))


def test_info_garbage_is_an_input_error():
    with pytest.raises(InputError) as raised:
        read_info("SolverNodes:12\nSolverNodes is twelve\n", "bad.info")
    assert raised.value.line == 2


@pytest.mark.parametrize("solver", ["ace", "choco"])
def test_xcsp_transcripts_decode_and_replay(solver):
    deal = DEALS["paper"]()
    numbering = Numbering(deal)
    text = (TRANSCRIPTS / solver / "paper-example.stdout").read_text()
    output = read_output(text, "out", {"x": numbering.size, "y": numbering.size})
    assert output.status is Status.SOLVED
    assert replay(deal, sequence(output, "out", numbering)).valid
    assert replay(deal, read_answer(text, "out", deal)).valid
    dead = (TRANSCRIPTS / solver / "pysol-1.stdout").read_text()
    assert read_output(dead, "out", {"x": 52, "y": 52}).status is Status.UNSOLVABLE
    assert pysol_deal("black_hole", 1) is not None


def test_xcsp_output_compression_ranges_and_errors():
    output = read_output("s SATISFIABLE\nv <instantiation> <list> x[0..2] y[] </list>\n"
                         "v <values> 0 2 1 3*2 </values> </instantiation>\n", "out", {"y": 2})
    assert output.values == {"x[0]": 0, "x[1]": 2, "x[2]": 1, "y[0]": 3, "y[1]": 3}
    anything = read_output("s SATISFIABLE\nv <instantiation> <list> x[0..1] m[] </list> <values> 0 1 * </values>"
                           " </instantiation>\n", "out", {"m": 1})
    assert anything.values == {"x[0]": 0, "x[1]": 1}  # `*`: any value, so none is recorded
    with pytest.raises(InputError, match="3 variables but 2 values"):
        read_output("v <instantiation> <list> x[0..2] </list> <values> 0 1 </values>\n", "out", {})
    with pytest.raises(InputError, match="unknown verdict"):
        read_output("s MAYBE\n", "out", {})


def test_validate_command_reads_a_savilerow_solution(capsys):
    paper = str(INSTANCES / "black_hole" / "paper-example.txt")
    solution = str(TRANSCRIPTS / "savilerow" / "paper-example-minion.solution")
    assert main(["validate", paper, solution]) == 0
    assert "valid" in capsys.readouterr().out


def test_model_file_is_packaged():
    assert (ROOT / "models" / "blackhole.eprime").read_text() == model_text()
