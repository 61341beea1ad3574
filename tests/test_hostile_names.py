"""Names are data, never syntax: a deal whose file name holds a line break, `p cnf 1 2`, `:- ...`,
`(define`, `*/`, control characters or Unicode line separators is written into every model of every
language and game with no line and no token more than the same deal under a plain name, and real
solvers give it the verdict the native search gives (issue 39, item 1)."""

from __future__ import annotations

import csv
import json
import random
import re
from pathlib import Path

import pytest

from patience import syntax
from patience.binary_star.deal import BinaryStarDeal
from patience.binary_star.forms import write_yaml
from patience.cards import Card
from patience.cli import main
from patience.formats import yaml_form
from patience.games import get_game, read_game_deal
from patience.generators import MODEL_LANGUAGES, generator
from patience.generators.deals import random_deal
from patience.golf.deals import random_deal as random_golf_deal
from patience.lbs.deal import random_deal as random_lbs_deal
from patience.lbs.deal import write_param
from patience.lbs.solver import solve as native_lbs
from patience.worm_hole.deals import random_deal as random_worm_hole_deal
from tests.helpers import needs_solver

# Each would change a model read by a line-oriented tool if it were copied raw into a comment or a name.
INJECTED = "x\np cnf 1 2\n1 0\n-1 0\n:- cards(X).\n:- pile(1,3).\n(:goal (and))"
HOSTILE = ["a\nb", "a\rb", "a)b", "a%b", "x\np cnf 1 2\n1 0\n-1 0", "x\n:- pile(1,3).", "(define", "*/ x /*",
           "a\x01b\x1bc\x7fd", "a\u2028b\u2029c", "a\x85b", "a--b-", "*%", "\\*", "\u200e\ufeff", " ", "..",
           INJECTED]
FILE_NAMES = [name for name in HOSTILE if "/" not in name]  # `*/` only as a folder's name (a family's header)
PROBLEM_LINE = r"\(define \(problem [a-z][a-z0-9-]*\) \(:domain [a-z-]+\)"  # a slug where the name was
COMMENT_MARKS = {language: syntax.SYNTAXES[language].comment_mark for language in MODEL_LANGUAGES}
COMMENT_MARKS["eprime"] = "$"  # Essence Prime files of a model: .eprime and .param


def deal_files(folder: Path, stem: str) -> dict[str, Path]:
    """A small deal of each game family, in a file named `stem` + the form's suffix."""
    rng = random.Random(3)
    cards = [Card(rank, 0) for _ in range(2) for rank in range(7)]
    rng.shuffle(cards)
    binary_star = BinaryStarDeal(tuple(tuple(cards[i:i + 3]) for i in range(2, len(cards), 3)),
                                 (cards[0], cards[1]), 7)
    texts = {"black_hole": (".yaml", yaml_form.write(random_deal(4, 2, 2, 1))),
             "binary_star": (".yaml", write_yaml(binary_star)),
             "lbs": (".param", write_param(random_lbs_deal(6, 1))),
             "golf": (".yaml", get_game("golf").write_deal(random_golf_deal(3, 5, 2, 3, 2, 2), "yaml")),
             "worm_hole": (".yaml", get_game("worm_hole").write_deal(random_worm_hole_deal(4, 2, 2, 1), "yaml"))}
    paths = {}
    for family, (suffix, text) in texts.items():
        (folder / family).mkdir(exist_ok=True)
        path = folder / family / (stem + suffix)
        path.write_text(text)
        paths[family] = path
    return paths


def model(language: str, path: Path) -> dict[str, str]:
    game, deal = read_game_deal(path)
    return dict(generator(language, game.name).build(deal).files)


def assert_only_comments_differ(language: str, plain: dict[str, str], hostile: dict[str, str]) -> None:
    """Line for line the same model, but for comment lines (which hold the name) and one name token."""
    assert len(plain) == len(hostile)
    for plain_text, (name, text) in zip(plain.values(), hostile.items(), strict=True):
        assert name.isprintable() and "/" not in name and not name.startswith("."), name
        plain_lines, lines = plain_text.splitlines(), text.splitlines()  # splitlines: every line break there is
        assert len(lines) == len(plain_lines), (language, name)
        for before, after in zip(plain_lines, lines, strict=True):
            if before == after:
                continue
            assert after.isprintable(), (language, after)
            if after.startswith(COMMENT_MARKS[language]) or after.startswith("<!--"):
                continue
            # the PDDL problem name: one token where the plain deal had its own
            assert language == "pddl" and re.fullmatch(PROBLEM_LINE, after), after


@pytest.mark.parametrize("language", sorted(set(MODEL_LANGUAGES) - {"xcsp3"}))
def test_a_hostile_name_adds_no_line_to_any_model(tmp_path, language):
    plain = deal_files(tmp_path, "deal")
    for number, name in enumerate(FILE_NAMES):
        folder = tmp_path / str(number)
        folder.mkdir()
        hostile = deal_files(folder, name)
        for family in MODEL_LANGUAGES[language]:
            assert_only_comments_differ(language, model(language, plain[family]), model(language, hostile[family]))


def test_no_name_reaches_the_xcsp3_compiler(tmp_path, monkeypatch):
    """pycsp3 compiles in a child process from the data it is given alone: no name is among it."""
    import importlib

    given = []
    hostile = deal_files(tmp_path, INJECTED)
    for family, module_name in MODEL_LANGUAGES["xcsp3"].items():
        module = importlib.import_module(module_name)
        monkeypatch.setattr(module, "compile_in_fresh_process", lambda _, data, __: given.append(data) or "<instance/>")
        model("xcsp3", hostile[family])
    assert len(given) == len(MODEL_LANGUAGES["xcsp3"])
    assert not any(word in str(data) for data in given for word in ("p cnf", "pile(", "goal"))


@pytest.mark.slow
def test_a_hostile_name_adds_no_line_to_the_xcsp3_instances(tmp_path):
    """The instances compiled (a few seconds each): one name holding every attack."""
    plain, hostile = deal_files(tmp_path, "deal"), deal_files(tmp_path, INJECTED)
    for family in MODEL_LANGUAGES["xcsp3"]:
        assert_only_comments_differ("xcsp3", model("xcsp3", plain[family]), model("xcsp3", hostile[family]))


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("language", sorted(syntax.SYNTAXES))
def test_comments_are_one_printable_line_and_identifiers_are_slugs(language, name):
    written = syntax.comment(language, name)
    assert written.isprintable() and written.startswith(syntax.SYNTAXES[language].comment_mark)
    assert len(written.splitlines()) == 1
    if language == "xcsp3":
        assert "--" not in written.removeprefix("<!--").removesuffix("-->")
    slug = syntax.identifier(language, name)
    assert slug and slug.isascii() and slug.isprintable() and not set(slug) & set(" ()%;:*/\\\n\r$#<>\"'")
    assert slug[0].isalpha() or language == "file"


def test_plain_names_keep_their_spelling():
    """The coursework's instance names read as before: LBS10_1.param, problem lbs10-1."""
    assert syntax.identifier("file", "LBS10_1") == "LBS10_1"
    assert syntax.identifier("pddl", "LBS10_1") == "lbs10-1"
    assert syntax.comment("cnf", "LBS deal LBS10_1 cards 1 2") == "c LBS deal LBS10_1 cards 1 2"


def lbs_deals() -> dict[str, object]:
    """A won and a lost deal of six cards, by the native search."""
    found: dict[str, object] = {}
    for seed in range(1, 200):
        deal = random_lbs_deal(6, seed)
        found.setdefault("won" if native_lbs(deal).moves is not None else "lost", deal)
        if len(found) == 2:
            return found
    raise AssertionError("no won and lost six-card deals among 200 seeds")


@pytest.mark.parametrize("solver", [pytest.param(name, marks=needs_solver(name))
                                    for name in ("minisat", "cadical", "sat", "clingo", "minizinc")])
def test_real_solvers_give_a_hostile_named_deal_the_native_verdict(tmp_path, capsys, solver):
    for verdict, deal in lbs_deals().items():
        path = tmp_path / verdict / f"{INJECTED}.param"
        path.parent.mkdir()
        path.write_text(write_param(deal))
        status = main(["solve", str(path), "--solver", solver, "--timeout", "60"])
        out = capsys.readouterr().out
        assert status == (0 if verdict == "won" else 1), (solver, verdict, out)
        assert out.startswith("deal: ") and out.splitlines()[1].startswith("solver: ")  # the name on one line


def test_a_family_of_hostile_named_lbs_deals_has_the_plain_header_lines(tmp_path):
    from patience.families.conventions import unpack

    deals = tmp_path / "deals\n*" / " (define"  # the deal's name, its path, holds `*/ (define`
    deals.mkdir(parents=True)
    deal = deals / f"{INJECTED}.param"
    deal.write_text(write_param(lbs_deals()["won"]))
    output = tmp_path / "family"
    assert main(["gen", "cnf", "--deals", str(deals), "-o", str(output), "--quiet"]) == 0
    text = unpack(next(output.glob("*.cnf.xz")))
    header = text[:text.index("\np cnf ")].splitlines()
    assert all(line.startswith("c ") and line.isprintable() for line in header)
    assert "c expected: SAT (native search: solved)" in header
    assert text.count("\np cnf ") == 1
    with open(output / "index.csv", newline="") as stream:  # the indexes hold the name, quoted as data
        rows = list(csv.DictReader(stream))
    index = json.loads((output / "index.json").read_text())
    assert [row["name"] for row in rows] == [item["name"] for item in index["instances"]] == [str(deal)]



@pytest.mark.parametrize("name", HOSTILE)
def test_a_table_cell_holding_a_deal_name_is_one_line(name):
    """Text and markdown tables (`report`) list deals in their disagreements and errors."""
    from patience.campaign.tables import cell

    assert len(cell(name).splitlines()) <= 1 and cell(name).isprintable()
