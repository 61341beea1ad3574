"""The built artefacts work outside the checkout: the wheel and the sdist are built, each is installed
(not editable) into a fresh virtual environment, and every command is run on every game from a folder
outside the checkout, so nothing can come from the source tree. An editable install finds every
module and data file on disk; only this test sees what a user of the wheel gets.

Marked `packaging` (about three minutes: two environments get their dependencies installed); the
default run skips it and `.ci/run` runs it as its own step: `pytest -m packaging`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.helpers import ROOT

# One worker runs the module (pytest-xdist): the artefacts are built and installed once, not once per worker.
pytestmark = [pytest.mark.packaging, pytest.mark.xdist_group("packaging")]

# The folders that install as the import package and where they land in it (the design's layout).
INSTALLED_FOLDERS = {"patience": "patience", "generators": "patience/generators", "runners": "patience/runners",
                     "templates": "patience/templates", "models": "patience/models"}
NOT_INSTALLED_AS_IS = {".pyc", ".so", ".c", ".h"}  # compiled files, and the C sources the wheel holds compiled
NOT_SHIPPED = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", "*.so",
                                     ".pytest_cache", ".ruff_cache", "results*.sqlite")

# A small Binary Star deal (two decks of ten ranks of one suit), so that every solver decides it quickly.
SMALL_BINARY_STAR = """\
game: binary_star
ranks: 10
foundations: [r3s0, r1s0]
piles:
  - [r0s0, r9s0, r7s0, r4s0]
  - [r0s0, r8s0, r1s0, r2s0]
  - [r3s0, r9s0, r5s0, r7s0]
  - [r4s0, r2s0, r6s0, r5s0]
  - [r6s0, r8s0]
"""

# One winnable deal per game, made by `patience deal` (or written, for Binary Star), and the forms each
# game is written in and the model formats it has.
DEAL_COMMANDS = {
    "black_hole.txt": ["deal", "--game", "black_hole", "--seed", "3"],
    "all_in_a_row.txt": ["deal", "--game", "all_in_a_row", "--seed", "3"],
    "generalised.yaml": ["deal", "--ranks", "5", "--suits", "2", "--pile-height", "3", "--seed", "5"],
    "lbs.param": ["deal", "--game", "lbs", "--cards", "8", "--seed", "2"],
}
DEALS = [*DEAL_COMMANDS, "binary_star.yaml"]
FORMS = {"black_hole.txt": ["board", "yaml", "param", "dzn", "json"],
         "all_in_a_row.txt": ["board", "yaml", "dzn", "json"],
         "generalised.yaml": ["yaml", "json"],
         "binary_star.yaml": ["yaml"],
         "lbs.param": ["param"]}
BLACK_HOLE_FAMILY = ["black_hole.txt", "all_in_a_row.txt", "generalised.yaml"]
MODEL_FORMATS = {"pddl": DEALS, "eprime": DEALS, "xcsp3": DEALS, "cnf": DEALS,
                 "lp": [*BLACK_HOLE_FAMILY, "binary_star.yaml"], "cpsat": BLACK_HOLE_FAMILY}
SOLVERS = {"native": DEALS, "sat": DEALS, "fd-ff": DEALS, "ace": DEALS, "cpsat": BLACK_HOLE_FAMILY}
SURVEY_GAMES = ["black_hole", "all_in_a_row", "binary_star"]
# a line of the replay page's style and script: the installed templates are inlined into each page
PAGE_PARTS = [next(line for line in (ROOT / "templates" / name).read_text().splitlines() if len(line) > 20)
              for name in ("replay.css", "replay.js")]


def shipped_files() -> set[str]:
    """The files an installed `patience` must hold, from the checkout's folders (code and data alike)."""
    expected = set()
    for folder, installed in INSTALLED_FOLDERS.items():
        for path in (ROOT / folder).rglob("*"):
            inside = path.relative_to(ROOT / folder)
            if (path.is_file() and path.suffix not in NOT_INSTALLED_AS_IS and "__pycache__" not in inside.parts
                    and (folder != "patience" or inside.parts[0] not in INSTALLED_FOLDERS)):
                expected.add(f"{installed}/{inside.as_posix()}")
    return expected


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory) -> dict[str, Path]:
    """The sdist, and the wheel built from it (as `python -m build` does), from a copy of the checkout."""
    source = tmp_path_factory.mktemp("source") / "patience-models"
    shutil.copytree(ROOT, source, ignore=NOT_SHIPPED)
    dist = source / "dist"
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)], check=True,
                   capture_output=True, text=True)
    return {"sdist": next(dist.glob("*.tar.gz")), "wheel": next(dist.glob("*.whl"))}


def test_wheel_holds_every_module_and_data_file_and_the_compiled_search(artefacts):
    names = set(zipfile.ZipFile(artefacts["wheel"]).namelist())
    installed = {name for name in names if name.startswith("patience/") and not name.endswith(".so")}
    assert installed == shipped_files()
    assert "patience/py.typed" in installed  # the API's types reach its users
    for search in ("native/_search", "golf/_golf", "worm_hole/_worm_hole"):  # each game's compiled search
        assert any(name.startswith(f"patience/{search}") and name.endswith(".so") for name in names), search
    # W002 (duplicate files) is by design: a grader's transcript folder holds the course instances it was run on
    checked = subprocess.run([str(Path(sys.executable).parent / "check-wheel-contents"), "--ignore", "W002",
                              str(artefacts["wheel"])], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.fixture(scope="module", params=["wheel", "sdist"])
def installed(request, artefacts, tmp_path_factory) -> Installed:
    """A fresh virtual environment with one artefact installed (not editable), and a folder outside the
    checkout holding one deal of every game."""
    home = tmp_path_factory.mktemp(request.param)
    environment = home / "venv"
    venv.create(environment, with_pip=True)
    subprocess.run([str(environment / "bin" / "python"), "-m", "pip", "install", "-q", "--no-compile",
                    str(artefacts[request.param])], check=True, capture_output=True, text=True)
    work = home / "work"
    work.mkdir()
    site = Installed(environment, work)
    for name, command in DEAL_COMMANDS.items():
        (work / name).write_text(site.run(*command).stdout)
    (work / "binary_star.yaml").write_text(SMALL_BINARY_STAR)
    return site


class Installed:
    """Runs the installed commands in the work folder, with nothing of the checkout on any path."""

    def __init__(self, environment: Path, work: Path) -> None:
        self.bin = environment / "bin"
        self.work = work
        paths = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not Path(p).is_relative_to(ROOT)]
        self.env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
        self.env["PATH"] = os.pathsep.join([str(self.bin), *paths])

    def run(self, program: str, *arguments: str, status: int = 0, command: str = "patience"
            ) -> subprocess.CompletedProcess[str]:
        """Run `patience PROGRAM ARGUMENTS` (or `gen`) and check its exit status."""
        done = subprocess.run([str(self.bin / command), program, *arguments], cwd=self.work, env=self.env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == status, f"{command} {program} {arguments}: {done.returncode}\n{done.stderr}"
        return done

    def answer(self, deal: str) -> Path:
        """The native solver's validated answer to `deal`, written as an answer file of its game."""
        record = json.loads(self.run("solve", deal, "--solver", "native", "--json").stdout)
        moves = record["sequence"]
        if deal.endswith(".param"):  # LBS: one FROM TO pair a line
            moves = [move.replace("->", " ") for move in moves]
        path = self.work / f"{deal}.answer"
        path.write_text("\n".join(moves) + "\n")
        return path


def test_the_package_is_imported_from_the_environment_with_its_compiled_search(installed):
    python = str(installed.bin / "python")
    done = subprocess.run([python, "-c", "import patience, patience.native._search; print(patience.__file__)"],
                          cwd=installed.work, env=installed.env, capture_output=True, text=True, check=True)
    assert Path(done.stdout.strip()).is_relative_to(installed.bin.parent)
    native = next(solver for solver in json.loads(installed.run("solvers", "--json").stdout)
                  if solver["name"] == "native")
    assert native["installed"] and native["version"] == "c"  # the compiled search, built into the wheel
    assert installed.run("--help", command="gen").stdout.startswith("usage: gen ")


@pytest.mark.parametrize("deal", DEALS)
def test_convert_round_trips_every_form(installed, deal):
    first = installed.run("convert", deal, "--to", FORMS[deal][0]).stdout
    for form in FORMS[deal]:
        written = installed.work / f"{deal}.as.{form}"
        written.write_text(installed.run("convert", deal, "--to", form).stdout)
        assert installed.run("convert", written.name, "--to", FORMS[deal][0]).stdout == first


@pytest.mark.parametrize("model_format", MODEL_FORMATS)
def test_gen_writes_every_format(installed, model_format):
    for deal in MODEL_FORMATS[model_format]:
        folder = installed.work / f"{model_format}-{deal}"
        installed.run(model_format, deal, "-o", str(folder), command="gen")
        files = list(folder.iterdir())
        assert files and all(path.stat().st_size > 0 for path in files)
        if deal == MODEL_FORMATS[model_format][0]:  # printed, the model is one of the files written
            printed = installed.run("gen", model_format, deal).stdout  # `patience gen`, the other road
            assert printed and printed in {path.read_text() for path in files}


@pytest.mark.parametrize("solver", SOLVERS)
def test_solve_decides_every_game(installed, solver):
    for deal in SOLVERS[solver]:
        output = installed.run("solve", deal, "--solver", solver, "--timeout", "120").stdout
        assert "status: solved" in output and "validated:" in output


def test_solve_proves_a_deal_unsolvable(installed):
    (installed.work / "unsolvable.txt").write_text(installed.run("deal", "--game", "black_hole", "--seed", "1").stdout)
    assert "status: unsolvable" in installed.run("solve", "unsolvable.txt", status=1).stdout


@pytest.mark.parametrize("deal", DEALS)
def test_validate_and_show_every_game(installed, deal):
    answer = installed.answer(deal)
    if deal.endswith(".param"):
        assert installed.run("lbs", "validate", deal, answer.name).stdout.startswith("valid")
    else:
        assert installed.run("validate", deal, answer.name).stdout.startswith("valid:")
    for page, arguments in ((f"{deal}.replay.html", [answer.name]), (f"{deal}.solved.html", ["--solver", "native"]),
                            (f"{deal}.play.html", [])):
        installed.run("show", deal, *arguments, "-o", page)
        html = (installed.work / page).read_text()
        assert html.startswith("<!DOCTYPE html>") and all(inlined in html for inlined in PAGE_PARTS)


def test_compare_and_report_as_a_page(installed):
    deals = installed.work / "deals"
    deals.mkdir()
    for deal in DEALS:
        shutil.copy(installed.work / deal, deals / deal)
    installed.run("compare", "--deals", "deals", "--solvers", "native,sat", "--timeout", "60", "--db", "runs.sqlite",
                  "--quiet")
    installed.run("report", "runs.sqlite", "--html", "report")
    assert (installed.work / "report" / "index.html").read_text().startswith("<!DOCTYPE html>")
    assert len(list((installed.work / "report" / "deals").glob("*.html"))) == len(DEALS)
    assert "Table 4" in installed.run("report", "runs.sqlite").stdout


@pytest.mark.parametrize("game", SURVEY_GAMES)
def test_survey_and_its_report(installed, game):
    installed.run("survey", "--game", game, "--seeds", "1-40", "--db", f"{game}.db")
    report = installed.run("survey", "report", "--db", f"{game}.db", "--plot", f"{game}.png").stdout
    assert "40 deals" in report and (installed.work / f"{game}.png").stat().st_size > 0


# The Python API as a notebook or a script uses it, from the installed package: every game's deal read
# from the work folder, solved and replayed, a model written, a comparison and a survey in temporary stores.
API_SCRIPT = """
import patience
from pathlib import Path
for name in {deals!r}:
    deal = patience.read_deal(name)
    result = patience.solve(deal, "native", timeout=60)
    assert result.validated and patience.validate(deal, result.moves).valid, (name, result)
    assert "<iframe srcdoc=" in result._repr_html_()
written = patience.generate(patience.read_deal("black_hole.txt"), "pddl").write("api-model")
table = patience.compare(["black_hole:1-3"], ["native"], timeout=60)
summary = patience.survey("black_hole", "1-20")
print(len(written), len(table), summary.deals, Path("api-model/domain.pddl").is_file())
"""


def test_the_python_api_works_from_the_installed_package(installed):
    done = subprocess.run([str(installed.bin / "python"), "-c", API_SCRIPT.format(deals=DEALS)], cwd=installed.work,
                          env=installed.env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "3", "20", "True"]


def test_the_readme_runs_from_the_installed_wheel_in_an_empty_folder(installed, tmp_path):
    """The README's runnable blocks (its Python and its tour) with nothing but the installed package: the
    deals from `patience deal`, the example files from `patience examples` (no checkout, no `.venv`)."""
    from tests.test_examples import blocks, commands, expected_exit

    if not installed.work.parent.name.startswith("wheel"):
        pytest.skip("the wheel's run stands for both artefacts (they hold the same files)")
    folder = tmp_path / "tour"
    folder.mkdir()
    for block in blocks(ROOT / "README.md"):
        if block.not_run:
            continue
        runs = ([([str(installed.bin / "python"), "-c", block.text], 0)] if block.language == "python" else
                [(["bash", "-c", f"set -o pipefail; {line}"], expected_exit(line)) for line in commands(block.text)
                 if not line.startswith(". .venv/")])  # the checkout's activate line: here the environment is on PATH
        for argv, status in runs:
            done = subprocess.run(argv, cwd=folder, env=installed.env, capture_output=True, text=True, timeout=600,
                                  stdin=subprocess.DEVNULL)
            assert done.returncode == status, f"{block.where()}: {argv[-1]}\n{done.stdout[-1500:]}{done.stderr[-1500:]}"
