"""One vocabulary: every command, registry, page builder, runner and store speaks the names of
patience.names; other spellings are aliases normalised on input, or refused naming the right ones."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from patience import names
from patience.cli import main
from patience.games import FAMILY_CLASSES, get_game, read_game_deal
from patience.generators import MODEL_LANGUAGES
from patience.runners.registry import all_solvers
from patience.runs.specs import resolve
from patience.survey.store import SurveyStore

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
LBS = INSTANCES / "lbs-coursework" / "SolvableInstances" / "LBS5_0.param"


@pytest.fixture()
def deals(tmp_path, capsys) -> dict[str, Path]:
    """A deal file of each game that `patience deal` makes, named by its canonical game."""
    files = {}
    for game in (names.BLACK_HOLE, names.ALL_IN_A_ROW, names.BINARY_STAR):
        assert main(["deal", "--game", game, "--seed", "5"]) == 0
        files[game] = tmp_path / f"{game}.txt"
        files[game].write_text(capsys.readouterr().out)
    assert main(["deal", "--game", "generalised", "--ranks", "5", "--suits", "2", "--seed", "1"]) == 0
    files[names.GENERALISED] = tmp_path / "generalised.yaml"
    files[names.GENERALISED].write_text(capsys.readouterr().out)
    files[names.LBS] = LBS
    return files


def test_every_registry_is_keyed_by_the_families_and_every_game_is_one_of_them(deals):
    assert set(FAMILY_CLASSES) == set(names.FAMILIES)
    assert all(set(games) <= set(names.FAMILIES) for games in MODEL_LANGUAGES.values())
    assert all(module == f"patience.generators.{language}.{family}"  # one home per language, games named alike
               for language, games in MODEL_LANGUAGES.items() for family, module in games.items())
    for solver in all_solvers():
        assert set(solver.games) <= set(names.GAMES), solver.name
        assert solver.paradigm in names.PARADIGMS, solver.name
    for game, path in deals.items():
        family, deal = read_game_deal(path)
        assert family.variant(deal) == game and family.name == names.family_of(game)
        assert get_game(game) is family


@pytest.mark.parametrize("spelling", ["black_hole", "black-hole", "Black-Hole", " black_hole "])
def test_aliases_are_normalised(spelling):
    assert names.game_name(spelling) == names.BLACK_HOLE
    assert names.game_name("binary-star") == names.BINARY_STAR
    assert names.game_name("all-in-a-row") == names.ALL_IN_A_ROW


@pytest.mark.parametrize("command", ["solve", "validate", "show", "convert", "gen"])
def test_every_deal_command_takes_each_game_under_either_spelling_and_checks_it(command, deals, tmp_path, capsys):
    no_moves = tmp_path / "no-moves.txt"
    no_moves.write_text("\n")

    def argv(path: Path, game: str) -> list[str]:
        return {"solve": ["solve", str(path)], "validate": ["validate", str(path), str(no_moves), "--partial"],
                "show": ["show", str(path), "-o", str(tmp_path / "page.html")],
                "convert": ["convert", str(path), "--to", "yaml"], "gen": ["gen", "pddl", str(path)]}[command] + \
            ["--game", game]

    for game, path in deals.items():
        if command == "convert" and game == names.LBS:
            continue
        for spelling in (game, game.replace("_", "-")):
            code = main(argv(path, spelling))
            captured = capsys.readouterr()
            # validate reads the deal, then finds the (empty) answer file: past the game's check
            read = code in (0, 1) or (command == "validate" and captured.err.endswith("no-moves.txt:1: empty file\n"))
            assert read and "this deal is" not in captured.err, (command, spelling, captured.err)
    assert main(argv(deals[names.BLACK_HOLE], "all_in_a_row")) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"error: {deals[names.BLACK_HOLE]}: this deal is black_hole, not all_in_a_row "
                            "(give --game black_hole, or leave --game out)\n")
    assert main(argv(deals[names.ALL_IN_A_ROW], "black-hole")) == 2
    assert "this deal is all_in_a_row, not black_hole" in capsys.readouterr().err


def test_an_unknown_game_is_refused_naming_the_known_ones(deals, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", str(deals[names.BLACK_HOLE]), "--game", "blackhole"])
    assert exit_.value.code == 2
    assert f"unknown game 'blackhole'; known: {', '.join(names.GAMES)}" in capsys.readouterr().err


def test_a_game_a_command_does_not_play_is_refused_naming_those_it_does(capsys):
    for argv, games in ((["survey", "--game", "lbs", "--db", "x.db"],
                         {"black_hole", "all_in_a_row", "binary_star", "generalised", "golf"}),
                        (["deal", "--game", "binary-star-generalised"],
                         {"black_hole", "all_in_a_row", "binary_star", "generalised", "lbs", "golf"})):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        error = capsys.readouterr().err
        assert "is not one of the games here: " in error and error.count("\n") == 1
        listed = set(error.split("is not one of the games here: ", 1)[1].strip().split(", "))
        assert games <= listed <= set(names.GAMES) and names.game_name(argv[2]) not in listed


def test_patience_solvers_lists_only_canonical_game_names(capsys):
    assert main(["solvers", "--json"]) == 0
    solvers = json.loads(capsys.readouterr().out)
    assert {game for solver in solvers for game in solver["games"]} <= set(names.GAMES)
    assert {solver["paradigm"] for solver in solvers} <= set(names.PARADIGMS)
    assert main(["solvers", "--verbose"]) == 0
    plays = [line.split("plays: ", 1)[1] for line in capsys.readouterr().out.splitlines() if "plays: " in line]
    assert len(plays) == len(solvers)
    assert main(["solvers"]) == 0
    table = capsys.readouterr().out
    assert f"every game: {', '.join(names.GAMES)}" in " ".join(table.split())


def test_deal_specs_store_the_canonical_name_whatever_the_spelling():
    assert [deal.name for deal in resolve("black-hole:1-2+all-in-a-row:3+binary-star:4")] == \
        ["black_hole:1", "black_hole:2", "all_in_a_row:3", "binary_star:4"]


def test_a_survey_store_written_with_an_old_spelling_still_reports(tmp_path, capsys):
    db = tmp_path / "old.db"
    assert main(["survey", "--game", "black-hole", "--seeds", "1-3", "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert SurveyStore(db).settings()["game"] == "black_hole"  # stored under its canonical name
    connection = sqlite3.connect(db)
    with connection:
        connection.execute("UPDATE settings SET value = ? WHERE key = 'game'", (json.dumps("black-hole"),))
    connection.close()
    assert main(["survey", "report", "--db", str(db)]) == 0
    assert capsys.readouterr().out.startswith("survey: black_hole, 3 deals")


def test_no_module_spells_a_game_with_hyphens():
    """Hyphenated game names live only in patience.names' alias rule (black-hole-solve is a program)."""
    hyphenated = re.compile(r"""["'](black-hole|binary-star|all-in-a-row)["']""")
    found = [f"{path.relative_to(ROOT)}:{number}"
             for folder in ("patience", "generators", "runners", "benchmarks")
             for path in sorted((ROOT / folder).rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1) if hyphenated.search(line)]
    assert found == []
