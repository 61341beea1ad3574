"""A hunt that talks and a shrinker that spends its runs where they can succeed: off a terminal the
hunt writes a plain progress line (posed k of N, agreed, wrong, undecided, elapsed, time left) each
tenth of the way and each minute even while a deal runs, a line when it starts to shrink, lines that
fit 80 columns with each label after its number; the shrinker keeps only deals the model answers
wrong (an error where it answered before shows no fault), never runs a deal twice, and a model of
fixed shape (declared, or found when it cannot read a smaller deal) only has its cards reordered,
never two of one rank swapped."""

from __future__ import annotations

import io
import re
import time
from collections import Counter
from types import SimpleNamespace

from patience.cli import main
from patience.generators.deals import random_deal
from patience.grading import hunt as hunting
from patience.grading.hunt import Counterexample, Hunt, hunt_model, shape
from patience.grading.student import GameMapping
from patience.grading.table import CORRECT, ERROR, NO_SOLUTION, SOLVED, WRONG, Graded
from patience.reading import read_text
from patience.result import Status
from patience.runs import progress as progress_module
from tests.helpers import ROOT, needs_solver


def fake_hunt(row, fixed: bool = False) -> tuple[Hunt, list]:
    """A hunt of a generalised Black Hole model whose row on a deal is `row(deal)`; the deals it ran."""
    student = SimpleNamespace(mapping=GameMapping("generalised", fixed_shape=fixed), options={})
    hunt = Hunt(student, lambda deal: SimpleNamespace(status=Status.UNSOLVABLE, nodes=1), 5.0)  # type: ignore[arg-type]
    ran: list = []

    def logged(deal) -> Graded:
        ran.append(deal)
        return row(deal)
    hunt.row = logged  # type: ignore[method-assign]
    return hunt, ran


def illegal(wrong: bool) -> Graded:
    return Graded("deal", 0, SOLVED, WRONG if wrong else CORRECT, "illegal: move 1" if wrong else "valid")


def has_a_heart_on_top(deal) -> bool:
    return any(pile[0].suit == 1 for pile in deal.piles)


def no_same_rank_swap(before, after) -> bool:
    """`after` is `before` with two cards of different ranks swapped."""
    moved = [(a, b) for a, b in zip(before.cards, after.cards, strict=True) if a != b]
    return len(moved) == 2 and moved[0][0].rank != moved[0][1].rank


def test_a_model_that_cannot_read_a_smaller_shape_only_has_its_cards_reordered():
    found = Counterexample(random_deal(5, 2, 2, 4), illegal(True), 1)
    assert has_a_heart_on_top(found.deal)
    original = shape(found.deal)

    def row(deal) -> Graded:  # a model written for one shape: any other is data it cannot read
        if shape(deal) != original:
            return Graded("deal", 0, ERROR, WRONG, "MiniZinc: array index out of range")
        return illegal(has_a_heart_on_top(deal))
    hunt, ran = fake_hunt(row)
    small = hunt.shrink(found)
    assert hunt.fixed and shape(small.deal) == original and small.row.verdict == SOLVED
    assert sum(shape(deal) != original for deal in ran) == 1  # one run found it out; no second
    assert len(ran) == len(set(ran)) == hunt.shrink_runs  # no deal run twice
    same_shape = [deal for deal in ran if shape(deal) == original]
    assert same_shape and all(sorted(deal.cards) == sorted(found.deal.cards) for deal in same_shape)


def test_a_declared_fixed_shape_never_loses_cards_nor_swaps_cards_of_one_rank():
    found = Counterexample(random_deal(5, 2, 2, 4), illegal(True), 1)
    hunt, ran = fake_hunt(lambda deal: illegal(has_a_heart_on_top(deal)), fixed=True)
    small = hunt.shrink(found)
    assert all(shape(deal) == shape(found.deal) for deal in ran) and ran
    kept = [found.deal]
    for deal in ran:  # every candidate is one swap of two ranks away from the deal kept at that time
        assert no_same_rank_swap(kept[-1], deal)
        if has_a_heart_on_top(deal):
            kept.append(deal)
    assert small.deal == kept[-1] and len(ran) == len(set(ran))


def test_a_deal_the_model_cannot_run_is_not_kept_but_another_wrong_answer_is():
    found = Counterexample(random_deal(4, 2, 2, 1), illegal(True), 1)
    broken = Graded("deal", 0, ERROR, WRONG, "MiniZinc: type error")
    hunt, ran = fake_hunt(lambda deal: broken)  # an error on every other deal: never its fault shown
    assert hunt.shrink(found) == found and ran and len(ran) == len(set(ran)) == hunt.shrink_runs
    lost = Graded("deal", 0, NO_SOLUTION, WRONG, "lost solutions: native wins with A♠ 2♠")
    hunt, ran = fake_hunt(lambda deal: lost)  # a lost win where the deal found had an illegal play: kept
    small = hunt.shrink(found)
    assert small.row == lost and len(small.deal.cards) == 1 and not hunt.fixed


def slow_agreeing(deal) -> Graded:
    time.sleep(0.3)
    return Graded("deal", 0, SOLVED, CORRECT, "valid: 3 moves")


def test_a_hunt_off_a_terminal_writes_a_line_each_minute_even_while_a_deal_runs(monkeypatch):
    monkeypatch.setattr(progress_module, "LOG_EVERY_SECONDS", 0.1)  # "a minute", shortened
    monkeypatch.setattr(Hunt, "row", lambda self, deal: slow_agreeing(deal))
    log, reported = io.StringIO(), []
    student = SimpleNamespace(mapping=GameMapping("generalised"), options={})
    status = hunt_model(student, None, "generalised", 3, 0, 5.0, None, reported.append,  # type: ignore[arg-type]
                        progress=True, stream=log)
    lines = log.getvalue().splitlines()
    assert status == 0 and reported[0].startswith("all 3 deals agree")
    assert len(lines) > 3 + 1  # more than a line per deal: the clock's lines between them
    assert lines[-1].startswith("hunt 3/3 posed, 3 agree, 0 wrong, 0 undecided")
    assert all(len(line) <= 80 and "\r" not in line and re.match(r"hunt \d+/3 posed, \d+ agree", line)
               for line in lines)
    assert any(" left" in line for line in lines) and all("elapsed" in line for line in lines)


def test_a_hunt_says_when_it_starts_to_shrink_and_counts_the_shrinks_runs(monkeypatch, tmp_path):
    def row(self, deal) -> Graded:
        return illegal(has_a_heart_on_top(deal))
    monkeypatch.setattr(Hunt, "row", row)
    monkeypatch.setattr(hunting, "write_counterexample",
                        lambda hunt, found, folder, game: (tmp_path / "counterexample.dzn", tmp_path / "c.html"))
    log, reported = io.StringIO(), []
    student = SimpleNamespace(mapping=GameMapping("generalised"), options={})
    assert hunt_model(student, None, "generalised", 50, 0, 5.0, tmp_path, reported.append,  # type: ignore[arg-type]
                      progress=True, stream=log, shrink_runs=7) == 1
    lines = log.getvalue().splitlines()
    start = next(index for index, line in enumerate(lines) if "shrinking it" in line)
    assert re.fullmatch(r"deal \d+ of the hunt is wrong \(\d+ cards\): shrinking it, at most 7 runs", lines[start])
    assert all(line.startswith("hunt ") for line in lines[:start])
    assert lines[start + 1:] and all(line.startswith("shrink ") for line in lines[start + 1:])
    assert re.search(r"\d+/7 runs, \d+ smaller, \d+ agree", lines[-1])
    assert all(len(line) <= 80 for line in lines)
    assert reported[0] == f"counterexample: {tmp_path / 'counterexample.dzn'}"
    assert re.match(r"deal \d+ of the hunt, shrunk to \d+ cards in \d+ runs", reported[1])


@needs_solver("clingo")
def test_a_real_hunt_talks_on_a_log_and_shrinks(tmp_path, capsys):
    """grade --hunt with its standard error a pipe (capsys): the hunt's lines, then the shrink's."""
    text = read_text(ROOT / "models" / "asp-black-hole.lp")
    order = ":- play(C, T), above(C, D), not played(D, T - 1).\n"
    model = tmp_path / "student.lp"
    model.write_text(text.replace(order, "").replace(":- play(C, T), depth(C, K), T <= K.\n", ""))
    status = main(["grade", str(model), "--game", "generalised", "--hunt", "10", "--seed", "2", "--out",
                   str(tmp_path)])
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert status == 1 and "illegal: move" in captured.out.splitlines()[1]
    assert err[0].startswith("hunt 0/10 posed, 0 agree, 0 wrong, 0 undecided")
    assert any(line.startswith("deal ") and "shrinking it, at most 200 runs" in line for line in err)
    assert err[-1].startswith("shrink ") and all(len(line) <= 80 for line in err)
    assert Counter(line.split()[0] for line in err)["hunt"] >= 2
