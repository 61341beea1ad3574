"""Binary Star's CNF and MIP: the formula's models are exactly the winning plays (minus those the
symmetry breaking drops, never all of a deal's), real SAT and MIP solvers agree with the native
search and an exhaustive one, every win is replayed, the files are accepted by the real tools."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from patience.binary_star.deal import BinaryStarDeal
from patience.binary_star.forms import write_board, write_yaml
from patience.binary_star.rules import replay
from patience.cards import Card
from patience.cli import main
from patience.errors import InputError
from patience.generators.cnf import binary_star as binary_star_cnf
from patience.generators.lp import binary_star as binary_star_lp
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import every_model, needs_solver, pysolfc_deal
from tests.test_binary_star import exhaustive, small_deal

LIMITS = Limits(timeout=60)


def tiny_deal(seed: int) -> BinaryStarDeal:
    """Two decks of 6 or 7 ranks of one suit, two cards on the foundations, piles of 4: few enough
    winning plays to list them all (0 to a few hundred)."""
    rng = random.Random(seed)
    ranks = rng.choice((6, 7))
    cards = [Card(rank, 0) for _ in range(2) for rank in range(ranks)]
    rng.shuffle(cards)
    foundations = (cards.pop(), cards.pop())
    return BinaryStarDeal(tuple(tuple(cards[i:i + 4]) for i in range(0, len(cards), 4)), foundations, ranks)


def winning_plays(deal: BinaryStarDeal) -> set[tuple[tuple[int, int], ...]]:
    """Every win as its (pile, foundation) per step, by depth-first search over all plays."""
    wins: set[tuple[tuple[int, int], ...]] = set()

    def extend(taken: list[int], tops: list[Card], steps: tuple[tuple[int, int], ...]) -> None:
        if len(steps) == len(deal.cards):
            wins.add(steps)
            return
        for pile, cards in enumerate(deal.piles):
            if taken[pile] == len(cards):
                continue
            for foundation, top in enumerate(tops):
                if deal.follows(top, cards[taken[pile]]):
                    taken[pile] += 1
                    extend(taken, tops[:foundation] + [cards[taken[pile] - 1]] + tops[foundation + 1:],
                           (*steps, (pile, foundation)))
                    taken[pile] -= 1

    extend([0] * len(deal.piles), list(deal.foundations), ())
    return wins


def keeps_the_rules(deal: BinaryStarDeal, steps: tuple[tuple[int, int], ...]) -> bool:
    """The two symmetry-breaking rules, checked on a play: no card on the higher of two foundations
    showing the same rank; no play on foundation 1 right after one on foundation 2 from another pile."""
    tops = list(deal.foundations)
    for step, (pile, foundation) in enumerate(steps):
        if foundation == 1 and tops[0].rank == tops[1].rank:
            return False
        if step and steps[step - 1][1] == 1 and foundation == 0 and steps[step - 1][0] != pile:
            return False
        tops[foundation] = deal.piles[pile][sum(1 for earlier, _ in steps[:step] if earlier == pile)]
    return True


def model_plays(encoding: binary_star_cnf.BinaryStarEncoding) -> set[tuple[tuple[int, int], ...]]:
    """Every model of the formula, projected on what each step does (pile, foundation)."""
    def steps(true: set[int]) -> tuple[tuple[int, int], ...]:
        return tuple((play.pile, play.foundation) for play in encoding.decode(true))

    return every_model(encoding.cnf.clauses, [*encoding.takes, *encoding.ons], steps)


def test_the_formulas_models_are_exactly_the_winning_plays():
    counted = Counter()
    for seed in range(12):
        deal = tiny_deal(seed)
        wins = winning_plays(deal)
        assert model_plays(binary_star_cnf.encode(deal, symmetry_breaking=False)) == wins, seed
        kept = {steps for steps in wins if keeps_the_rules(deal, steps)}
        assert model_plays(binary_star_cnf.encode(deal, symmetry_breaking=True)) == kept, seed
        assert bool(kept) == bool(wins), seed  # the rules never drop every win
        counted[bool(wins)] += 1
        counted["dropped"] += len(wins) - len(kept)
    assert counted[True] >= 3 and counted[False] >= 3 and counted["dropped"] > 0


@pytest.mark.parametrize("name", ["sat", pytest.param("cadical", marks=needs_solver("cadical")),
                                  pytest.param("minisat", marks=needs_solver("minisat"))])
def test_sat_solvers_agree_with_native_and_the_exhaustive_search(name):
    verdicts = Counter()
    for seed in range(16):
        deal = small_deal(seed)
        truth = exhaustive(deal)
        result = solve(deal, name, LIMITS)
        assert result.status is solve(deal, "native", LIMITS).status, seed
        assert result.status is (Status.SOLVED if truth else Status.UNSOLVABLE), seed
        if truth:  # judged: a win is a status only after the replay accepted it
            assert replay(deal, result.sequence).valid and all(play.pile is not None for play in result.sequence)
        verdicts[truth] += 1
    assert verdicts[True] >= 4 and verdicts[False] >= 4


@pytest.mark.parametrize("name", [pytest.param("highs", marks=needs_solver("highs")),
                                  pytest.param("scip", marks=needs_solver("scip"))])
@pytest.mark.slow
def test_mip_solvers_agree_with_native_and_the_exhaustive_search(name):
    verdicts = Counter()
    for seed in range(8):
        deal = small_deal(seed)
        truth = exhaustive(deal)
        result = solve(deal, name, LIMITS)
        assert result.status is solve(deal, "native", LIMITS).status, seed
        assert result.status is (Status.SOLVED if truth else Status.UNSOLVABLE), seed
        verdicts[truth] += 1
    assert verdicts[True] >= 2 and verdicts[False] >= 2


def test_gen_writes_both_models_of_a_yaml_deal_and_solve_replays_the_answer(tmp_path, capsys):
    deal_file = tmp_path / "deal.yaml"
    deal_file.write_text(write_yaml(small_deal(0)))
    assert main(["gen", "cnf", str(deal_file)]) == 0
    cnf_text = capsys.readouterr().out
    assert cnf_text.startswith(binary_star_cnf.HEADER_TAG) and "\np cnf " in cnf_text
    assert main(["gen", "lp", str(deal_file)]) == 0
    assert "\nSubject To\n" in capsys.readouterr().out
    assert main(["solve", str(deal_file), "--solver", "sat"]) == 0
    assert "validated: 18 moves" in capsys.readouterr().out


def test_black_hole_options_are_refused_on_binary_star_deals(tmp_path, capsys):
    deal_file = tmp_path / "deal.yaml"
    deal_file.write_text(write_yaml(small_deal(0)))
    assert main(["solve", str(deal_file), "--solver", "highs", "--set", "model=mip1"]) == 2
    assert "drop --set model=mip1" in capsys.readouterr().err
    assert main(["gen", "lp", str(deal_file), "--objective", "paper"]) == 2
    assert main(["gen", "lp", str(deal_file), "--model", "mip2"]) == 2


def test_a_model_naming_two_piles_for_one_step_is_a_one_line_error():
    encoding = binary_star_cnf.encode(small_deal(1))
    first_step = [variable for variable, (step, _) in encoding.takes.items() if step == 1]
    with pytest.raises(InputError, match="step 1 has two piles"):
        encoding.decode(set(first_step[:2]))
    with pytest.raises(InputError, match="the solution plays nothing at step 1"):
        binary_star_lp.plays_of(small_deal(1), {"a_1_1_2": 1.0, "w_2_1_3": 1.0}, "solution")


@needs_solver("highs")
def test_highs_reads_the_lp_of_a_pysolfc_deal_at_the_stated_size(tmp_path):
    import highspy

    text, size = binary_star_lp.lp_model(pysolfc_deal(1))
    (tmp_path / "deal.lp").write_text(text)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(tmp_path / "deal.lp")) == highspy.HighsStatus.kOk
    assert (highs.getNumRow(), highs.getNumCol()) == (size["rows"], size["columns"])

def test_a_lost_pysolfc_deal_is_proved_lost_through_the_cnf_as_native_proves_it():
    lost = pysolfc_deal(4)  # proved in about 0.1 s of CPU
    assert solve(lost, "sat", LIMITS).status is Status.UNSOLVABLE is solve(lost, "native", LIMITS).status


@pytest.mark.slow
def test_a_pysolfc_deal_is_won_through_the_cnf_with_embedded_cadical(tmp_path, capsys):
    # deal 6: about 12 s of CPU, the fastest win of the CNF among deals 1..6 (40 s and more of wall
    # clock on the loaded test machine, hence slow)
    (tmp_path / "deal.txt").write_text(write_board(pysolfc_deal(6)))
    assert main(["solve", str(tmp_path / "deal.txt"), "--solver", "sat", "--timeout", "300"]) == 0
    assert "validated: 102 moves" in capsys.readouterr().out
