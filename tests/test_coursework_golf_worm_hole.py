"""`patience coursework` and `patience grade` for Golf and Worm Hole, as a teacher and a student run
them: the exercise's instances are the deals in the language's data, the reference answers replay,
the sheet says what the data's numbers mean (the stock's place in the order, the cells' gaps); the
toolkit's own model, handed in as a student's, is graded correct on every instance, and a model
without the rank rule or the stock's order (Golf) or the cells' count (Worm Hole) is graded wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from patience.cli import main
from patience.games import get_game, read_game_deal
from patience.runners.registry import get_solver

SOLVERS = {"mzn": "minizinc", "asp": "clingo"}
SUFFIX = {"mzn": ".dzn", "asp": ".lp"}


def coursework(capsys, tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    status = main(["coursework", *argv, "--out", str(tmp_path / "exercise"), "--answers", str(tmp_path / "answers")])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(("game", "language", "words"), [
    ("golf", "mzn", ("stock", "in the order they are dealt", "`follows`", "negative")),
    ("golf_wrap_ranks", "asp", ("stock(C)", "dealt_after(C, D)", "golf_wrap_ranks: ranks wrap")),
    ("worm_hole", "mzn", ("cells", "g[c] the gap card c is parked in", "array[CARD] of var 0..n-1: g;")),
    ("worm_hole", "asp", ("cells(K)", "park(C, T)", "free cells")),
])
def test_the_instances_are_the_deals_and_the_answers_replay(tmp_path, capsys, game, language, words):
    status, out, err = coursework(capsys, tmp_path, "--game", game, "--language", language, "--count", "3",
                                  "--pool", "4", "--seed", "3")
    assert (status, err) == (0, "") and f"3 {language} instances of {game}" in out
    exercise, answers = tmp_path / "exercise", tmp_path / "answers"
    rows = json.loads((answers / "answers.json").read_text())["instances"]
    solver = get_solver(SOLVERS[language])
    rules = get_game(game)
    for row in rows:
        _, deal = read_game_deal(next((exercise / "deals").glob(f"{row['instance']}.*")), game)
        built = solver.build(deal, {option.name: option.default for option in solver.options})
        assert (exercise / "instances" / f"{row['instance']}{SUFFIX[language]}").read_text() == \
            built.files[built.primary]
        solution = answers / f"{row['instance']}.solution"
        assert (row["status"] == "solved") == solution.exists()
        if solution.exists():
            assert rules.replay(deal, rules.read_answer(solution.read_text(), str(solution), deal))
    sheet = (exercise / "sheet.md").read_text()
    assert all(word in sheet for word in words), [word for word in words if word not in sheet]
    assert f"patience grade model{'.mzn' if language == 'mzn' else '.lp'} --game {game} --instances deals/" in sheet


def test_an_essence_prime_exercise_says_what_the_stocks_ranks_are(tmp_path, capsys):
    status, out, err = coursework(capsys, tmp_path, "--game", "golf", "--language", "eprime", "--count", "1",
                                  "--pool", "1")
    sheet = (tmp_path / "exercise/sheet.md").read_text()
    assert (status, err) == (0, "") and "A stock card's `rank` is 13 or more" in sheet and "given follows" in sheet


# A student's side: the exercise from a pool of small deals, the model handed in, `patience grade`

def _write_pool(capsys, folder: Path, game: str) -> Path:
    """Small deals of `game`, won and lost: Golf's with piles of one card (won) and of two (lost),
    Worm Hole's random ones (won) and one that one cell cannot win."""
    folder.mkdir()
    heights = (1, 2) if game == "golf_generalised" else (2,)
    ranks, suits = (6, 2) if game == "golf_generalised" else (5, 3)
    for seed in (1, 2, 3):
        for height in heights:
            assert main(["deal", "--game", game, "--ranks", str(ranks), "--suits", str(suits), "--pile-height",
                         str(height), "--seed", str(seed)]) == 0
            (folder / f"{seed}-{height}.yaml").write_text(capsys.readouterr().out)
    if game == "worm_hole_generalised":  # 3♠ on 4♠ on 2♠ (top first) with one cell: lost
        (folder / "lost.yaml").write_text("cells: 1\nfoundation: AS\npiles:\n  - [3S, 4S, 2S]\n")
    return folder


BROKEN = {  # (language, game) -> the line of the toolkit's model a broken model leaves out
    ("mzn", "golf_generalised"): "constraint forall(i in 0..n-2)(table([x[i], x[i + 1]], follows));",
    ("asp", "golf_generalised"): ":- play(C, T), dealt_after(C, D), not played(D, T - 1).",
    ("mzn", "worm_hole_generalised"): "constraint cumulative([s[c] | c in PILECARD], held, [1 | c in PILECARD], "
                                      "cells);",
    ("asp", "worm_hole_generalised"): ":- cells(K), step(T), #count { C : in_cell(C, T) } > K.",
}


@pytest.mark.slow
@pytest.mark.parametrize(("language", "game"), list(BROKEN))
def test_a_student_hands_in_the_toolkits_model_and_a_broken_one(tmp_path, capsys, language, game):
    pool = _write_pool(capsys, tmp_path / "pool", game)
    status, _, err = coursework(capsys, tmp_path, "--game", game, "--language", language, "--deals", str(pool),
                                "--count", "4", "--unsolvable", "1")
    assert (status, err) == (0, "")
    exercise = tmp_path / "exercise"
    family = "golf" if game.startswith("golf") else "worm_hole"
    model = f"model{'.mzn' if language == 'mzn' else '.lp'}"
    assert main(["gen", language, "--game", family, "--model" if language == "mzn" else "--program"]) == 0
    text = capsys.readouterr().out
    for student, model_text in (("alice", text), ("bob", text.replace(BROKEN[language, game], ""))):
        assert model_text != text or student == "alice"
        (exercise / student).mkdir()
        (exercise / student / model).write_text(model_text)
    argv = ["--game", game, "--instances", str(exercise / "deals"), "--timeout", "60"]
    assert main(["grade", str(exercise / "alice" / model), *argv]) == 0
    out = capsys.readouterr().out
    assert "4 correct, 0 wrong" in out and "3 solved, 1 no solution" in out, out
    assert main(["grade", str(exercise / "bob" / model), *argv]) == 1
    out = capsys.readouterr().out
    assert "WRONG" in out and re.search(r"correct, [1-4] wrong", out), out



@pytest.mark.parametrize(("game", "shape"), [("golf_generalised", (6, 2, 1)), ("worm_hole_generalised", (5, 3, 2))])
def test_a_generalised_games_shape_is_a_deal_spec(game, shape):
    """`GAME:R,S,H:SEEDS` (compare, gen --deals, coursework) deals as `patience deal --game GAME --ranks R
    --suits S --pile-height H --seed N` does, counts before it deals, and a store's name makes it again."""
    from patience.errors import UsageError
    from patience.games import hook
    from patience.runs import specs

    ranks, suits, height = shape
    text = f"{game}:{ranks},{suits},{height}"
    named = specs.resolve(f"{text}:1-3")
    dealt = [hook(get_game(game).random_deal)(game, seed, ranks, suits, height) for seed in (1, 2, 3)]
    assert [item.name for item in named] == [f"{text}:{seed}" for seed in (1, 2, 3)]
    assert [item.deal for item in named] == dealt and len({item.content for item in named}) == 3
    assert specs.stored_deal(f"{text}:2", named[1].content) == named[1]
    assert specs.spec_size(f"{text}:1-3+{text}:5") == 4
    with pytest.raises(UsageError, match=f"expected {game}:RANKS,SUITS,HEIGHT:SEEDS"):
        specs.resolve(f"{game}:{ranks},{suits}:1-3")
    with pytest.raises(UsageError, match="at most 1,000,000"):
        specs.resolve(f"{text}:1-2000000")


@pytest.mark.parametrize("game", ["golf_generalised", "worm_hole_generalised"])
def test_a_generalised_games_pool_is_seeded_deals_of_its_shape(tmp_path, capsys, game):
    status, out, err = coursework(capsys, tmp_path, "--game", game, "--shape", "6,2,2", "--pool", "5", "--count", "2")
    assert (status, err) == (0, "") and f"2 mzn instances of {game}" in out
    rows = json.loads((tmp_path / "answers" / "answers.json").read_text())["instances"]
    cards = {"golf_generalised": 10, "worm_hole_generalised": 11}[game]  # 5 piles of 2 and a stock; 11 in piles
    assert all(re.fullmatch(f"{game}:6,2,2:[0-9]+", row["source"]) and row["cards"] == cards for row in rows)
    status, _, err = coursework(capsys, tmp_path / "again", "--game", "golf", "--shape", "6,2,2")
    assert status == 2 and "--shape sets the pool of --game generalised, golf_generalised" in err
