"""One vocabulary, to the edges: every `--help` speaks the names of patience/names.py (each game an
option takes is named in its help, and no game is named any other way), the helps say what the
commands do (every exit status, every default), and nothing shipped cites a document that is not
in the repository."""

from __future__ import annotations

import argparse
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from patience import names
from patience.cli import OneLineParser, build_parser, main
from patience.commands import gen
from patience.exit_codes import ExitCode
from patience.generators import MODEL_LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
# What a user gets: the package's folders, its data, the deals and the documents (tests/ is not shipped).
SHIPPED = ("patience", "generators", "templates", "models", "runners", "instances", "docs", "benchmarks")
SHIPPED_FILES = ("README.md", "pyproject.toml", "setup.py", "setup.sh", "mkdocs.yml")
_WORD = re.compile(r"[A-Za-z]+(?:[-_][A-Za-z]+)*")


def parsers() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser of `patience` and of plain `gen`, named by its command line."""
    plain_gen = OneLineParser(prog="gen")
    gen.add_formats(plain_gen)
    pending = [("patience", build_parser()), ("gen", plain_gen)]
    while pending:
        name, parser = pending.pop()
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending += [(f"{name} {sub}", child) for sub, child in action.choices.items()]


def game_words(text: str) -> list[tuple[str, str]]:
    """Each word of `text` that names a game, with the game's canonical name."""
    found = []
    for word in _WORD.findall(re.sub(r"\bLBS<", "<", text)):  # LBS<n>_<k> names an instance, not the game
        try:
            found.append((word, names.game_name(word)))
        except Exception:  # not a game's name
            continue
    return found


def help_text(parser: argparse.ArgumentParser) -> str:
    """The help as argparse prints it, with its line breaks (and the hyphens they split) undone."""
    return re.sub(r"\s+", " ", parser.format_help())


ALL_PARSERS = dict(parsers())


def test_the_tree_holds_every_command_and_every_model_language():
    assert {"patience solve", "patience grade", "patience survey", "patience solvers"} <= set(ALL_PARSERS)
    assert {f"gen {language}" for language in MODEL_LANGUAGES} <= set(ALL_PARSERS)
    assert {f"patience gen {language}" for language in MODEL_LANGUAGES} <= set(ALL_PARSERS)


@pytest.mark.parametrize("command", sorted(ALL_PARSERS))
def test_every_game_a_help_names_is_named_as_patience_names_names_it(command):
    for word, canonical in game_words(help_text(ALL_PARSERS[command])):
        assert word == canonical or names.OTHER_NAMES.get(word.lower()) == canonical, (
            f"`{command} --help` says {word!r} where patience.names says {canonical!r}")


@pytest.mark.parametrize("command", sorted(ALL_PARSERS))
def test_every_game_an_option_takes_is_named_in_its_help(command):
    for action in ALL_PARSERS[command]._actions:
        known = getattr(action.type, "known", None)
        if known is None:
            continue
        named = {canonical for _, canonical in game_words(action.help or "")}
        assert set(known) <= named, f"`{command} {action.option_strings[0]}` takes {known}; its help names {named}"


@pytest.mark.parametrize("language", sorted(MODEL_LANGUAGES))
def test_gen_names_exactly_the_games_each_language_models(language):
    playable = {game for family in MODEL_LANGUAGES[language] for game in names.FAMILIES[family]}
    description = re.sub(r"\s+", " ", ALL_PARSERS[f"gen {language}"].description or "")
    assert {canonical for _, canonical in game_words(description)} == playable, description
    assert set(next(action for action in ALL_PARSERS[f"gen {language}"]._actions
                        if action.dest == "game").type.known) == {
        game for game in names.GAMES if game in playable}


def test_solve_help_gives_every_exit_status():
    text = help_text(ALL_PARSERS["patience solve"])
    for code in ExitCode:
        assert re.search(rf"\b{int(code)} ", text), f"`solve --help` leaves out exit status {int(code)}"


@pytest.mark.parametrize("command", sorted(ALL_PARSERS))
def test_every_option_with_a_default_says_it(command):
    for action in ALL_PARSERS[command]._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction, argparse._StoreConstAction)):
            continue
        if action.default not in (None, False, [], argparse.SUPPRESS) and action.help != argparse.SUPPRESS:
            assert "default" in (action.help or ""), f"`{command} {action.option_strings}` hides its default"


def test_grade_help_speaks_of_both_model_languages_it_grades():
    text = help_text(ALL_PARSERS["patience grade"])
    assert "Essence Prime" in text and "MiniZinc" in text and ".mzn" in text and ".eprime" in text


def test_the_package_description_names_every_game_and_model_language():
    description = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    languages = {"pddl": "PDDL", "eprime": "Essence Prime", "xcsp3": "XCSP3", "cnf": "CNF", "successor": "CNF",
                 "lp": "LP", "cpsat": "CP-SAT", "mzn": "MiniZinc", "asp": "ASP"}
    assert set(languages) == set(MODEL_LANGUAGES)  # a new language is described before this passes
    for title in (*languages.values(), "Black Hole", "All in a Row", "generalised", "Binary Star",
                  "Late Binding Solitaire"):
        assert title in description, title


def test_the_generalised_game_takes_a_deal_of_black_holes_shape(tmp_path, capsys):
    deal = tmp_path / "deal.yaml"
    assert main(["deal", "--game", "generalised", "--ranks", "13", "--suits", "4", "--pile-height", "3"]) == 0
    deal.write_text(capsys.readouterr().out)
    assert main(["solve", str(deal), "--game", "generalised"]) in (ExitCode.SOLVED, ExitCode.UNSOLVABLE)
    captured = capsys.readouterr()
    assert "status: " in captured.out and captured.err == ""
    answer = tmp_path / "answer.txt"
    answer.write_text("AS\n")
    assert main(["validate", str(deal), str(answer), "--game", "generalised", "--partial"]) == ExitCode.SOLVED
    capsys.readouterr()
    assert main(["solve", str(deal), "--game", "all_in_a_row"]) == ExitCode.BAD_INPUT
    assert "this deal is black_hole, not all_in_a_row" in capsys.readouterr().err
    assert names.is_deal_of(names.BINARY_STAR, names.BINARY_STAR_GENERALISED)
    assert not names.is_deal_of(names.GENERALISED, names.BLACK_HOLE)


def shipped_files() -> Iterator[Path]:
    for name in SHIPPED_FILES:
        yield ROOT / name
    for folder in SHIPPED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".so", ".png", ".xz", ".gz"):
                yield path


def test_nothing_shipped_cites_a_document_outside_the_repository(capsys):
    citing = [str(path.relative_to(ROOT)) for path in shipped_files()
              if re.search(r"\bbrief\b", path.read_text(encoding="utf-8", errors="replace"), re.IGNORECASE)]
    assert citing == [], f"these cite a brief the repository does not hold: {citing}"
    assert main(["gen", "pddl", "--domain"]) == 0  # the domain every PDDL model is written with
    domain = capsys.readouterr().out
    assert "Gent et al." in domain and "brief" not in domain.lower()
