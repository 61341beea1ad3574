"""Hostile input for the readers (issue 28): every case of tests/corpus/readers, as a command run in a
child process under a 500 MB address-space limit, must end in one line `error: ...` and exit 2 (or
succeed, for large but valid input) within 2 s of the command's own CPU time (its children's
included; other processes' load, such as a second pytest-xdist worker, does not count) and with
nothing on stdout for an error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from patience.binary_star import forms as binary_star_forms
from tests.helpers import INSTANCES, ROOT, pysolfc_deal

CORPUS = Path(__file__).resolve().parent / "corpus" / "readers"
PAPER = INSTANCES / "black_hole" / "paper-example.txt"
PAPER_ANSWER = INSTANCES / "black_hole" / "paper-example.solution"
LBS_DEAL = INSTANCES / "lbs-coursework" / "SolvableInstances" / "LBS5_0.param"
MEMORY_BYTES = 500 * 1024 * 1024
SECONDS = 2.0
# Imports (the command's module) happen before the clock starts: the budget is the command's own CPU time.
_RUNNER = """
import json, os, resource, sys
def cpu_seconds():
    # this process's CPU time and that of the children it waited for: a loaded machine slows the wall
    # clock, not this
    used = os.times()
    return used.user + used.system + used.children_user + used.children_system
def peak_kb():
    # VmHWM is this program's own peak; getrusage's ru_maxrss also keeps the peak of the process that
    # started it (Linux carries it across exec), so a test run that grew large would count here
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
from patience.cli import build_parser, main, named_command
build_parser(named_command(sys.argv[2:]))
start = cpu_seconds()
try:
    code = main(sys.argv[2:])
except SystemExit as exit:
    code = exit.code
with open(sys.argv[1], "w") as out:
    json.dump({{"seconds": cpu_seconds() - start,
               "max_rss_kb": peak_kb()}}, out)
sys.exit(code)
"""


def run_bounded(arguments: list[str], folder: Path, stdin: Path | None = None) -> tuple[int, str, str, dict]:
    """Run `patience ARGUMENTS` under the memory limit: (exit, stdout, stderr, timing)."""
    timing = folder / "timing.json"
    timing.unlink(missing_ok=True)
    with open(stdin or os.devnull, "rb") as given:
        done = subprocess.run([sys.executable, "-c", _RUNNER.format(memory=MEMORY_BYTES), str(timing), *arguments],
                              stdin=given, capture_output=True, text=True, timeout=120, cwd=folder,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    measured = json.loads(timing.read_text()) if timing.exists() else {}
    return done.returncode, done.stdout, done.stderr, measured


def assert_refused(code: int, out: str, err: str, measured: dict) -> None:
    assert code == 2, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err[:500]
    assert len(lines[0]) < 500
    assert measured["seconds"] < SECONDS, measured


def _recipes() -> list[dict]:
    return yaml.safe_load((CORPUS / "recipes.yaml").read_text())


def _build(recipe: dict) -> str:
    texts = {"{deal}": PAPER.read_text(), "{answer}": PAPER_ANSWER.read_text()}
    return "".join(texts.get(text, text) * times for text, times in recipe["parts"])


@pytest.mark.parametrize("recipe", _recipes(), ids=lambda recipe: recipe["name"])
def test_a_recipe_of_the_corpus(recipe, tmp_path):
    hostile = tmp_path / "input"
    hostile.write_text(_build(recipe))
    assert hostile.stat().st_size <= 10 * 1024 * 1024
    places = {"{input}": str(hostile), "{deal}": str(PAPER), "{answer}": str(PAPER_ANSWER)}
    code, out, err, measured = run_bounded([places.get(word, word) for word in recipe["command"]], tmp_path)
    if recipe["exit"] == 2:
        assert_refused(code, out, err, measured)
    else:
        assert (code, err) == (recipe["exit"], "")
        assert measured["seconds"] < SECONDS, measured


# file in the corpus -> the command that reads it ({input}: the file)
COMMITTED = {
    "billion-laughs-deal.yaml": ["solve", "{input}"],
    "billion-laughs-experiment.yaml": ["compare", "--experiment", "{input}", "--db", "store.sqlite"],
    "recursive-alias.yaml": ["solve", "{input}"],
    "ranks-overflow.yaml": ["solve", "{input}", "--solver", "native"],
    "ranks-billion.yaml": ["solve", "{input}", "--solver", "native", "--timeout", "2", "--memory", "500"],
    "cnf-billion-variables.cnf": ["reduce", "{input}"],
    "xcsp-billion-cells.txt": ["validate", str(PAPER), "{input}"],
    "json-long-number.json": ["solve", "{input}"],
    "card-long-suit.txt": ["solve", "{input}"],
    "lbs-pairs-superscript.txt": ["lbs", "validate", str(LBS_DEAL), "{input}"],
    "binary-star-long-pile.txt": ["validate", "{bs_deal}", "{input}"],
}


def test_every_committed_file_has_a_command():
    assert {path.name for path in CORPUS.iterdir() if path.name != "recipes.yaml"} == set(COMMITTED)


@pytest.mark.parametrize("name", sorted(COMMITTED))
def test_a_committed_file_of_the_corpus(name, tmp_path):
    bs_deal = tmp_path / "binary_star.txt"  # the deal `patience deal --game binary_star --seed 5` prints
    bs_deal.write_text(binary_star_forms.write_board(pysolfc_deal(5)))
    places = {"{input}": str(CORPUS / name), "{bs_deal}": str(bs_deal)}
    assert_refused(*run_bounded([places.get(word, word) for word in COMMITTED[name]], tmp_path))
    assert not (tmp_path / "store.sqlite").exists()


@pytest.mark.parametrize("arguments", [
    ["deal", "--ranks", "1000000000"],
    ["deal", "--game", "lbs", "--cards", "1000000000", "--ranks", "100000", "--suits", "100000"],
    ["compare", "--deals", "random:1000000000,4,3:1", "--solvers", "native", "--db", "store.sqlite"],
    ["solve", "/dev/zero"],
    ["validate", str(PAPER), "/dev/zero"],
    ["solve", "."],
    ["validate", str(PAPER), "-", "--game", "black_hole"],  # standard input is /dev/zero below
], ids=" ".join)
def test_hostile_arguments(arguments, tmp_path):
    assert_refused(*run_bounded(arguments, tmp_path, stdin=Path("/dev/zero")))
    assert not (tmp_path / "store.sqlite").exists()


def test_a_fifo_is_refused_without_being_opened(tmp_path):
    fifo = tmp_path / "deal.fifo"
    os.mkfifo(fifo)
    assert_refused(*run_bounded(["solve", str(fifo)], tmp_path))


def test_a_file_over_the_size_cap_is_refused_before_it_is_read(tmp_path):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as sparse:  # 100 MB of holes: no disk used
        sparse.write(PAPER.read_bytes())
        sparse.truncate(100 * 1024 * 1024)
    code, out, err, measured = run_bounded(["validate", str(PAPER), str(huge)], tmp_path)
    assert_refused(code, out, err, measured)
    assert "larger than" in err and measured["max_rss_kb"] < 200 * 1024


def test_the_largest_deal_the_caps_allow_reads_in_time(tmp_path):
    """10,000 one-card piles: the YAML form the card line look-up made quadratic."""
    code, out, err, _ = run_bounded(["deal", "--ranks", "2500", "--suits", "4", "--pile-height", "1"], tmp_path)
    assert code == 0, err
    deal = tmp_path / "deal.yaml"
    deal.write_text(out)
    code, out, err, measured = run_bounded(["convert", str(deal), "--to", "yaml"], tmp_path)
    assert (code, err) == (0, "") and out.count("\n  - [") == 9999
    assert measured["seconds"] < SECONDS, measured
