"""Golf's and Worm Hole's answers as the solvers write them, read back by `patience validate` and
`patience decode model`.

Real transcripts (tests/transcripts/golf and worm_hole, README.md there) of pyperplan, CBC, HiGHS,
MiniZinc (its models' own output and JSON), clingo (text and JSON), ACE and CaDiCaL on one small
deal of each game, each decoded by the deal's own model and replayed: the Golf deal's wins deal
from the stock, every Worm Hole win parks three cards; `patience solve`'s own output is an answer of
either game too. A changed answer is refused by the replay
(exit 1, the first illegal move), and a file that holds no answer in one line (exit 2). The slow
test runs the solvers by hand as a user would, on a deal of each Golf variant and two Worm Hole
deals: `gen`, the solver's own command line, `validate` (and `decode model` for the CNF).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from patience.cli import main
from patience.errors import InputError
from patience.games import read_game_deal
from patience.golf.rules import DEAL
from tests.helpers import TRANSCRIPTS

GOLF, WORM_HOLE = TRANSCRIPTS / "golf", TRANSCRIPTS / "worm_hole"
# ACE's: slow, as the XCSP3 model that decodes it is compiled by pycsp3 in a fresh process
ANSWERS = ("pyperplan.soln", "cbc.sol", "highs.sol", "minizinc.out", "minizinc.json", "clingo.out", "clingo.json",
           pytest.param("ace.stdout", marks=pytest.mark.slow))


def validated(capsys, deal: Path, answer: Path | str, *flags: str) -> tuple[int, str, str]:
    status = main(["validate", str(deal), str(answer), *flags])
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(err: str, *words: str) -> bool:
    lines = err.splitlines()
    return len(lines) == 1 and lines[0].startswith("error: ") and all(word in lines[0] for word in words)


@pytest.mark.parametrize("answer", ANSWERS)
def test_golf_solvers_answers_are_decoded_by_the_model_and_replayed(capsys, answer):
    status, out, err = validated(capsys, GOLF / "deal.yaml", GOLF / answer)
    assert (status, out, err) == (0, "valid: 11 moves\n", "")
    game, deal = read_game_deal(GOLF / "deal.yaml")
    moves = game.read_answer((GOLF / answer).read_text(), answer, deal)
    assert any(move in deal.stock_index for move in moves)  # the win deals from the stock
    assert DEAL not in moves and moves[-1] not in deal.stock_index  # cards, up to the last pile card


@pytest.mark.parametrize("answer", ANSWERS)
def test_worm_hole_solvers_answers_park_and_are_replayed(capsys, answer):
    status, out, err = validated(capsys, WORM_HOLE / "deal.yaml", WORM_HOLE / answer)
    assert (status, out, err) == (0, "valid: 9 moves\n", "")
    game, deal = read_game_deal(WORM_HOLE / "deal.yaml")
    moves = game.read_answer((WORM_HOLE / answer).read_text(), answer, deal)
    assert [move.card for move in moves if move.park] == [deal.piles[pile][0] for pile in range(3)]


@pytest.mark.parametrize("folder", [GOLF, WORM_HOLE], ids=["golf", "worm_hole"])
def test_a_sat_solvers_model_is_decoded_through_the_cnf_header(capsys, folder):
    assert main(["decode", "model", str(folder / "deal.cnf"), str(folder / "cadical.out")]) == 0
    out = capsys.readouterr().out.splitlines()
    game, deal = read_game_deal(folder / "deal.yaml")
    assert out[1] == f"valid: {11 if folder == GOLF else 9} moves"
    assert game.replay(deal, game.read_answer(out[0], "decoded", deal))  # the printed moves read back
    status, _, err = validated(capsys, folder / "deal.yaml", folder / "cadical.out")
    assert status == 2 and one_line_error(err, "patience decode model CNF OUTPUT")


def test_decode_model_refuses_a_tampered_header(tmp_path, capsys):
    cnf = (GOLF / "deal.cnf").read_text()
    (tmp_path / "stock.cnf").write_text(cnf.replace("c stock ", "c stock XX ", 1))
    (tmp_path / "flags.cnf").write_text(cnf.replace("queens-on-kings 0", "queens-on-kings 2", 1))
    for name, words in (("stock.cnf", ("stock.cnf:5", "XX")), ("flags.cnf", ("flags.cnf:3", "queens-on-kings"))):
        assert main(["decode", "model", str(tmp_path / name), str(GOLF / "cadical.out")]) == 2
        assert one_line_error(capsys.readouterr().err, *words)


def test_changed_answers_are_refused_by_the_replay(tmp_path, capsys):
    plan = (GOLF / "pyperplan.soln").read_text().splitlines()
    (tmp_path / "swapped.soln").write_text("\n".join([plan[1], plan[0], *plan[2:]]) + "\n")
    assert validated(capsys, GOLF / "deal.yaml", tmp_path / "swapped.soln")[:2] == \
        (1, "invalid: move 1: r2s1 does not follow r2s0\n")
    parked = (WORM_HOLE / "pyperplan.soln").read_text().splitlines()
    (tmp_path / "unparked.soln").write_text("\n".join(line for line in parked if "park " not in line) + "\n")
    assert validated(capsys, WORM_HOLE / "deal.yaml", tmp_path / "unparked.soln")[:2] == \
        (1, "invalid: move 1: 2S is under 3S\n")
    short = (WORM_HOLE / "minizinc.out").read_text().replace("g = [0, 1, 3, 5,", "g = [0, 0, 3, 5,")
    (tmp_path / "short.out").write_text(short)  # 3♠ parked in no gap: 2♠ is under it
    assert validated(capsys, WORM_HOLE / "deal.yaml", tmp_path / "short.out")[:2] == \
        (1, "invalid: move 1: 2S is under 3S\n")


@pytest.mark.parametrize(("name", "text", "words"), [
    ("operator.soln", "(fly card-r3s0 base1)\n", ("operator.soln:1", "not a Golf move", "fly")),
    ("card.soln", "(play card-zz base1 card-r2s0 rank2 rank3)\n", ("card.soln:1", "no card of this deal")),
    ("unsat.out", "c ACE\ns UNSATISFIABLE\n", ("unsat.out:2", "says UNSATISFIABLE")),
    ("unsat.mzn", "=====UNSATISFIABLE=====\n", ("unsat.mzn", "says UNSATISFIABLE")),
    ("infeasible.sol", "Infeasible - objective value 0.00000000\n", ("infeasible.sol:1", "says unsolvable")),
    ("unsat.clingo", "clingo version 5.8.3\nSolving...\nUNSATISFIABLE\n", ("unsat.clingo:3", "says UNSATISFIABLE")),
    ("broken.json", '{\n  "Solver": "clingo version 5.8.3",\n  "Call": [\n', ("broken.json", "not clingo's JSON")),
    ("line.mzn", "x = [0, 1, 2]\n----------\n", ("line.mzn:1", "not a line of MiniZinc's output")),
    ("short.mzn", "x = [0, 1, 2];\n----------\n", ("short.mzn", "x is not a sequence")),
    ("sat.out", "s SATISFIABLE\nv 1 -2 0\n", ("sat.out", "patience decode model")),
])
def test_a_file_that_holds_no_answer_is_refused_in_one_line(tmp_path, capsys, name, text, words):
    (tmp_path / name).write_text(text)
    status, out, err = validated(capsys, GOLF / "deal.yaml", tmp_path / name)
    assert (status, out) == (2, "") and one_line_error(err, *words), err


@pytest.mark.parametrize("folder", [GOLF, WORM_HOLE], ids=["golf", "worm_hole"])
def test_patience_solves_own_output_is_an_answer(tmp_path, capsys, folder):
    assert main(["solve", str(folder / "deal.yaml"), "--solver", "native"]) == 0
    (tmp_path / "solve.out").write_text(capsys.readouterr().out)
    assert validated(capsys, folder / "deal.yaml", tmp_path / "solve.out")[:2] == \
        (0, f"valid: {11 if folder == GOLF else 9} moves\n")
    lost = ("foundation: r2s0\nranks: 6\nstock: [r5s0]\npiles:\n  - [r0s0]\n"  # the stock's king ends it
            if folder == GOLF else "cells: 1\nfoundation: AS\npiles:\n  - [3S, 4S, 2S]\n")
    (tmp_path / "lost.yaml").write_text(lost)
    assert main(["solve", str(tmp_path / "lost.yaml"), "--solver", "native"]) == 1
    (tmp_path / "lost.out").write_text(capsys.readouterr().out)
    status, _, err = validated(capsys, tmp_path / "lost.yaml", tmp_path / "lost.out")
    assert status == 2 and one_line_error(err, "lost.out:3", "status unsolvable")


def test_another_games_solution_is_refused(tmp_path, capsys):
    """An LBS model's Savile Row solution (its move lettings) is no Golf answer, nor a card list."""
    (tmp_path / "deal.solution").write_text("letting actionFrom be [2, 3]\n")
    status, _, err = validated(capsys, GOLF / "deal.yaml", tmp_path / "deal.solution")
    assert status == 2 and one_line_error(err, "deal.solution:1")


# Whatever the text, Golf's and Worm Hole's answer readers return moves or refuse (InputError), and the
# moves replay or not: never another exception (the solver formats' tokens reach every reader)
_TOKENS = ("----------", "==========", "=====UNSATISFIABLE=====", "=====UNKNOWN=====", "x = [0, 1, 2];", "g = [0, 1];",
           "x = [", "];", "{", "}", '"x" : [0, 2, 1],', "clingo version 5.8.3", "pyclingo version 5.8.3", "Answer: 1",
           "play(1,1)", "play(2,2)", "park(1,1)", "park(9,1)", "SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND",
           '"Result": "SATISFIABLE"', '"Call": [{"Witnesses": [{"Value": ["play(1,1)"]}]}]', "(play card-r3s0",
           "card-3s", "card-2s", "base1", "(deal", "(park", "(play-parked", ")", "; cost = 1", "step 0:", "ff: parsing",
           "found legal plan", "Optimal - objective value 0", "Infeasible - objective value 0", "Model status",
           "Optimal", "Feasible", "# Columns 2", "a_1_1 1", "a_2_2 1", "p_1_1 1", "s SATISFIABLE", "s UNSATISFIABLE",
           "v 1 -2 0", "deal", "talon", "cell", "3S", "2S", "r1s0", "r3s0", "9" * 30, "9" * 5000, "\x00", "\r",
           "\ufeff")


@pytest.mark.slow
@pytest.mark.parametrize("folder", [GOLF, WORM_HOLE], ids=["golf", "worm_hole"])
def test_hostile_answers_are_read_or_refused_in_one_line(folder):
    hypothesis = pytest.importorskip("hypothesis")
    strategies = hypothesis.strategies
    game, deal = read_game_deal(folder / "deal.yaml")
    token = strategies.one_of(strategies.sampled_from(_TOKENS), strategies.text(max_size=5))
    lines = strategies.lists(strategies.lists(token, max_size=4).map(" ".join), max_size=10).map("\n".join)

    @hypothesis.settings(max_examples=300, deadline=None, derandomize=True, database=None,
                         suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(text=lines)
    def reads_or_refuses(text):
        try:
            moves = game.read_answer(text, "fuzz", deal)
        except InputError as error:
            assert "\n" not in str(error)
            return
        game.replay(deal, moves, complete=False)

    reads_or_refuses()


# The solvers by hand, as a user runs them on the files `gen` wrote (each skipped where it is missing)

def _ace() -> list[str] | None:
    jars = sorted(Path(sys.prefix).glob("lib/python3*/site-packages/pycsp3/solvers/ace/ACE*.jar"))
    return ["java", "-jar", str(jars[-1])] if jars and shutil.which("java") else None


def _module(name: str) -> list[str] | None:
    found = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True).returncode == 0
    return [sys.executable, "-m", name] if found else None


def _program(name: str) -> list[str] | None:
    path = shutil.which(name) or (str(Path(sys.executable).parent / name)
                                  if (Path(sys.executable).parent / name).exists() else None)
    return [path] if path else None


# language -> (the solver's command, as a function of the model folder) writing the answer file
def _by_hand(language: str, folder: Path) -> tuple[list[str] | None, Path]:
    if language == "pddl":
        tool = _program("pyperplan")
        return (tool and [*tool, "domain.pddl", "problem.pddl"]), folder / "problem.pddl.soln"
    if language == "lp-cbc":
        tool = _program("cbc")
        return (tool and [*tool, "deal.lp", "solve", "solu", "cbc.sol"]), folder / "cbc.sol"
    if language == "lp-highs":
        tool = _module("highspy") and [sys.executable, "-m", "patience.runners.highs"]
        return (tool and [*tool, "deal.lp", "highs.sol"]), folder / "highs.sol"
    if language == "mzn":
        tool = _program("minizinc")
        return (tool and [*tool, "--output-to-file", "out.txt", "model.mzn", "deal.dzn"]), folder / "out.txt"
    if language == "asp":
        tool = _module("clingo")
        programs = sorted(path.name for path in folder.glob("*.lp") if "search" not in path.name)
        return (tool and [*tool, *programs, "--outf=2"]), folder / "stdout"
    if language == "xcsp3":
        tool = _ace()
        return (tool and [*tool, "deal.xml"]), folder / "stdout"
    tool = _program("cadical")
    return (tool and [*tool, "-q", "deal.cnf"]), folder / "stdout"


def _golf_variant(source: Path, target: Path, flag: str) -> Path:
    text = source.read_text()
    target.write_text(text.replace(f"{flag}: false", f"{flag}: true") if flag else text)
    return target


@pytest.mark.slow
@pytest.mark.parametrize("language", ["pddl", "lp-cbc", "lp-highs", "mzn", "asp", "xcsp3", "cnf"])
def test_every_solver_by_hand_gen_solve_validate(tmp_path, capsys, language):
    deals = [_golf_variant(GOLF / "deal.yaml", tmp_path / f"golf-{flag or 'plain'}.yaml", flag)
             for flag in ("", "queens_on_kings", "wrap_ranks")]
    assert main(["deal", "--game", "worm_hole_generalised", "--ranks", "5", "--suits", "3", "--pile-height", "2",
                 "--seed", "4"]) == 0
    (tmp_path / "worm.yaml").write_text(capsys.readouterr().out)
    deals += [WORM_HOLE / "deal.yaml", tmp_path / "worm.yaml"]
    ran = 0
    for deal in deals:
        folder = tmp_path / f"{deal.stem}-{language}"
        assert main(["gen", language.split("-")[0], str(deal), "-o", str(folder)]) == 0
        command, answer = _by_hand(language, folder)
        if command is None:
            pytest.skip(f"no solver for {language} installed")
        run = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
        if answer.name == "stdout":
            answer.write_text(run.stdout)
        capsys.readouterr()
        if language == "cnf":
            assert main(["decode", "model", str(folder / "deal.cnf"), str(answer)]) == 0, capsys.readouterr()
        else:
            status, out, err = validated(capsys, deal, answer)
            assert status == 0 and out.startswith("valid: "), (deal, err)
        ran += 1
    assert ran == len(deals)
