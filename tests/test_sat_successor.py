"""The successor CNF (`gen successor`, `--solver sat-successor`): its models are exactly the wins,
it agrees with the native search on hundreds of random generalised deals, won and lost, every model
it gives replays, the DIMACS file is read by a real solver, and the route keeps its limits."""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Callable

import pytest
from pysat.solvers import Solver as PySatSolver

from patience.cards import Card
from patience.cli import main
from patience.deal import Deal
from patience.formats import write_deal
from patience.generators.cnf.black_hole import formula as paper_formula
from patience.generators.deals import random_deal
from patience.generators.successor.black_hole import formula, lazy_formula, successors
from patience.native.engine import run
from patience.native.rules import Rules
from patience.result import Status
from patience.runners.dimacs_output import SATISFIABLE, UNSATISFIABLE, read_competition
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import every_model, needs_solver, sweep_seeds
from tests.test_sat import TINY, winning_sequences

SWITCHES = [(True, True), (False, True), (True, False), (False, False)]  # parity, windows


def place_models(deal: Deal, parity: bool, windows: bool) -> set[tuple]:
    """Every play the formula allows, by blocking each model's place bits in turn."""
    encoding = formula(deal, parity, windows)
    bits = {bit for places in encoding.places.values() for bit in places if not isinstance(bit, bool)}
    return every_model(encoding.cnf.clauses, bits, encoding.decode)


EVEN = [random_deal(4, 2, 2, seed) for seed in range(1, 6)] + [random_deal(4, 2, 3, seed, True) for seed in range(1, 4)]


@pytest.mark.parametrize("deal", TINY + EVEN, ids=lambda deal: f"{deal.ranks}r{len(deal.cards)}cards")
@pytest.mark.parametrize(("parity", "windows"), SWITCHES)
def test_models_are_exactly_the_winning_sequences(deal, parity, windows):
    assert place_models(deal, parity, windows) == winning_sequences(deal)


def native_verdict(deal: Deal) -> bool | None:
    outcome, _ = run(deal, None, Rules(), False, 1_000_000, None)
    return {Status.SOLVED: True, Status.UNSOLVABLE: False}.get(outcome.status)


def random_shape(rng: random.Random, most_cards: int) -> tuple[int, int, int, bool]:
    """Ranks, suits, pile height and an empty foundation, for a deal of 13 to `most_cards` cards."""
    while True:
        ranks, suits = rng.choice((3, 4, 5, 6, 7, 8, 10, 13, 26)), rng.randint(1, 8)
        if 13 <= ranks * suits <= most_cards:
            return ranks, suits, rng.randint(1, 5), rng.random() < 0.15


Decision = tuple[bool | None, tuple | None]  # won, lost or open; the play of a win


def agreement(seed: int, deals: int, most_cards: int,
              decide: Callable[[Deal, random.Random], Decision]) -> dict[bool, int]:
    """A SAT route against the native search on random deals; every play it gives replayed. Returns
    the verdicts both gave (a deal the route leaves open is not counted)."""
    rng = random.Random(seed)
    agreed = {True: 0, False: 0}
    for _ in range(deals):
        ranks, suits, height, empty = random_shape(rng, most_cards)
        deal = random_deal(ranks, suits, height, rng.randint(1, 10**6), empty)
        verdict, play = decide(deal, rng)
        if verdict is None:
            continue
        if verdict:
            assert play is not None and replay(deal, play).valid, (deal, play)
        native = native_verdict(deal)
        if native is not None:
            assert verdict == native, (ranks, suits, height, empty, deal)
            agreed[verdict] += 1
    return agreed


def cross_check(seed: int, deals: int, most_cards: int, conflicts: int) -> dict[bool, int]:
    """The successor CNF, its switches drawn at random, in PySAT's CaDiCaL within a conflict budget."""
    def decide(deal: Deal, rng: random.Random) -> Decision:
        encoding = formula(deal, *rng.choice(SWITCHES))
        with PySatSolver(name="cadical195", bootstrap_with=encoding.cnf.clauses) as solver:
            solver.conf_budget(conflicts)
            verdict = solver.solve_limited()
            model = solver.get_model() if verdict else None
        return verdict, None if model is None else encoding.decode({literal for literal in model if literal > 0})

    return agreement(seed, deals, most_cards, decide)


@pytest.mark.parametrize("seed", range(41, 45))
def test_agrees_with_the_native_search_on_random_deals_of_13_to_30_cards(seed):
    agreed = cross_check(seed, deals=50, most_cards=30, conflicts=10_000)
    assert agreed[True] >= 5 and agreed[False] >= 5 and sum(agreed.values()) >= 30, agreed


@pytest.mark.slow
@pytest.mark.parametrize("seed", sweep_seeds(full=4, ci=2))  # 60 deals a seed, about 80 s
def test_agrees_with_the_native_search_on_random_deals_of_13_to_104_cards(seed):
    agreed = cross_check(seed=seed - 1, deals=60, most_cards=104, conflicts=30_000)
    assert agreed[True] >= 5 and agreed[False] >= 3 and sum(agreed.values()) >= 25, agreed


def test_only_cards_one_rank_apart_and_no_card_over_a_gap_in_its_pile_follow():
    deal = random_deal(13, 8, 5, seed=3)
    position = deal.position
    for before, afters in successors(deal).items():
        for after in afters:
            if before == "start":
                assert deal.foundation is not None and deal.adjacent(deal.foundation, after)
                continue
            assert deal.adjacent(before, after)
            pile, depth = position[before]
            assert position[after][0] != pile or position[after][1] == depth + 1


def test_far_smaller_than_the_papers_cnf():
    deal = random_deal(26, 4, 4, seed=2)  # 103 cards
    ours, papers = formula(deal).cnf, paper_formula(deal).cnf
    assert ours.nv * 10 < papers.nv and len(ours.clauses) * 5 < len(papers.clauses)


def test_the_route_solves_and_replays_and_refutes(tmp_path, capsys):
    won, lost = random_deal(13, 2, 3, seed=2), random_deal(26, 2, 3, seed=1)
    limits = Limits(timeout=60, cpu=30)
    result = solve(won, "sat-successor", limits, {"parity": "off"})
    assert result.status is Status.SOLVED and replay(won, result.sequence).valid
    assert result.stats["variables"] > 0 and result.stats["clauses"] > 0
    assert solve(lost, "sat-successor", limits).status is Status.UNSOLVABLE
    assert native_verdict(lost) is False


def test_the_cpu_limit_ends_the_solver(tmp_path, capsys):
    deal = tmp_path / "deal.txt"
    assert main(["deal", "--ranks", "13", "--suits", "8", "--pile-height", "6", "--seed", "398056"]) == 0
    deal.write_text(capsys.readouterr().out)
    assert main(["solve", str(deal), "--solver", "sat-successor", "--cpu", "1", "--timeout", "60"]) == 3
    assert "status: timeout" in capsys.readouterr().out


@needs_solver("cadical")
@pytest.mark.parametrize(("seed", "expected"), [(2, SATISFIABLE), (1, UNSATISFIABLE)])
def test_gen_successor_is_dimacs_a_real_solver_reads(seed, expected, tmp_path, capsys):
    ranks = 13 if expected == SATISFIABLE else 26
    deal_file = tmp_path / "deal.txt"
    assert main(["deal", "--ranks", str(ranks), "--suits", "2", "--pile-height", "3", "--seed", str(seed)]) == 0
    deal_file.write_text(capsys.readouterr().out)
    assert main(["gen", "successor", str(deal_file), "-o", str(tmp_path / "model")]) == 0
    cnf = tmp_path / "model" / "deal.cnf"
    text = cnf.read_text()
    assert text.startswith("c patience-models successor cnf") and "\np cnf " in text
    done = subprocess.run([shutil.which("cadical") or "cadical", "-q", str(cnf)], capture_output=True, text=True,
                          timeout=60, check=False)
    verdict = read_competition(done.stdout, "cadical output")
    assert verdict.status == expected
    if expected == SATISFIABLE:
        deal = random_deal(ranks, 2, 3, seed)
        assert replay(deal, formula(deal).decode(verdict.true_variables)).valid
    answer = tmp_path / "cadical.out"
    answer.write_text(done.stdout)
    capsys.readouterr()
    assert main(["decode", "model", str(cnf), str(answer)]) == (0 if expected == SATISFIABLE else 1)
    printed = capsys.readouterr().out
    assert ("valid: 25 moves" in printed) if expected == SATISFIABLE else ("s UNSATISFIABLE" in printed)


def test_decode_reads_a_successor_model_back_and_refuses_a_broken_place_map(tmp_path, capsys):
    """`decode model` takes the successor CNF's header (its `c place` lines) as it takes the
    paper's; a place map that misses a card or runs past its bits is bad input, not a verdict."""
    deal = random_deal(7, 2, 2, 1)
    encoding = formula(deal)
    with PySatSolver(name="cadical195", bootstrap_with=encoding.cnf.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    answer = tmp_path / "model.out"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    deal_file = tmp_path / "deal.txt"
    deal_file.write_text(write_deal(deal, "yaml"))
    assert main(["gen", "successor", str(deal_file), "-o", str(tmp_path / "model")]) == 0
    cnf = tmp_path / "model" / "deal.cnf"
    capsys.readouterr()
    assert main(["decode", "model", str(cnf), str(answer)]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[1] == "valid: 13 moves"
    lines = cnf.read_text().splitlines()
    place = next(number for number, line in enumerate(lines) if line.startswith("c place "))
    for name, broken in [("missing", lines[:place] + lines[place + 1:]),
                         ("long", lines[:place] + [" ".join(lines[place].split()[:3] + ["F"] * 33)]
                          + lines[place + 1:])]:
        bad = tmp_path / f"{name}.cnf"
        bad.write_text("\n".join(broken) + "\n")
        assert main(["decode", "model", str(bad), str(answer)]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"error: {bad}") and ("place map" in error if name == "missing" else
                                                       f"{bad}:{place + 1}: bad header line" in error)


def lazy_cross_check(seed: int, deals: int, most_cards: int, cpu: float) -> dict[bool, int]:
    """sat-lazy (the successor variables alone, cycles and pile order cut as models come) through
    `solve`, which replays every win before it says solved."""
    def decide(deal: Deal, _: random.Random) -> Decision:
        result = solve(deal, "sat-lazy", Limits(timeout=60, cpu=cpu))
        verdict = {Status.SOLVED: True, Status.UNSOLVABLE: False}.get(result.status)
        return verdict, None if result.sequence is None else tuple(result.sequence)

    return agreement(seed, deals, most_cards, decide)


@pytest.mark.parametrize("seed", range(51, 53))
def test_the_lazy_route_agrees_with_the_native_search_on_random_deals_of_13_to_30_cards(seed):
    agreed = lazy_cross_check(seed, deals=25, most_cards=30, cpu=1)
    assert agreed[True] >= 3 and agreed[False] >= 3 and sum(agreed.values()) >= 15, agreed


@pytest.mark.slow
@pytest.mark.parametrize("seed", sweep_seeds(full=4, ci=2))  # 50 deals at up to 3 s of CPU each a seed
def test_the_lazy_route_agrees_with_the_native_search_on_random_deals_of_13_to_104_cards(seed):
    agreed = lazy_cross_check(60 + seed, deals=50, most_cards=104, cpu=3)
    assert agreed[True] >= 5 and agreed[False] >= 3 and sum(agreed.values()) >= 25, agreed


@pytest.mark.parametrize("deal", TINY + EVEN, ids=lambda deal: f"{deal.ranks}r{len(deal.cards)}cards")
def test_the_lazy_route_wins_exactly_the_won_tiny_deals(deal):
    result = solve(deal, "sat-lazy", Limits(timeout=30))
    assert result.status is (Status.SOLVED if winning_sequences(deal) else Status.UNSOLVABLE)


def test_cycles_no_card_can_enter_from_outside_are_cut_until_refuted():
    # no card of rank 2 or 5 to lead into the 3s and 4s, which can only follow one another
    deal = Deal(((Card(1, 0),), (Card(3, 0),), (Card(4, 0),), (Card(3, 1),), (Card(4, 1),)), Card(0, 0), ranks=6)
    encoding = lazy_formula(deal)
    with PySatSolver(name="cadical195", bootstrap_with=encoding.cnf.clauses) as solver:
        while solver.solve():
            cuts = encoding.refine({literal for literal in solver.get_model() if literal > 0})
            assert cuts, "a model that stands must be a win, and this deal has none"
            solver.append_formula(cuts)
    assert native_verdict(deal) is False
    assert solve(deal, "sat-lazy", Limits(timeout=30)).status is Status.UNSOLVABLE


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
