"""`gen FORMAT --deals SPEC -o DIR`: families labelled by the native search, each format's files read
back by its solver, the index, --select/--status/--measure, and atomic writing."""

from __future__ import annotations

import csv
import hashlib
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from patience.campaign.record import RunRecord
from patience.campaign.store import Store
from patience.cli import main
from patience.commands import gen_family
from patience.families.conventions import convention, unpack
from patience.generators import generator
from patience.generators.files import ModelFiles
from patience.options import check_options, option_keywords
from patience.result import Status, judge
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs import specs
from patience.runs.process import Limits, run_process
from tests.helpers import needs_solver

SMALL_BLACK_HOLE = "black_hole:1-5"  # deal 1 is unsolvable, 2-5 solvable
TINY_GENERALISED = "random:7,2,2:1-5"  # 13 cards in piles of 2, 3 solvable and 2 not: small for the LP solvers


def family(tmp_path: Path, language: str, spec: str, *flags: str, capsys=None) -> tuple[Path, dict]:
    output = tmp_path / language
    assert main(["gen", language, "--deals", spec, "-o", str(output), "--quiet", *flags]) == 0
    return output, json.loads((output / "index.json").read_text())


def instance_files(output: Path, about: dict, row: dict, model: ModelFiles) -> dict[str, str]:
    """The family's files of one deal under the names the generator gave them."""
    texts = {model.primary: unpack(output / row["files"][0])}
    for name in model.files:
        if name == model.primary:
            continue
        per_deal = [file for file in row["files"][1:] if file.endswith(f"-{name}")]
        texts[name] = (output / (per_deal[0] if per_deal else name)).read_text()
        if not per_deal:
            assert name in about["shared_files"]
    return texts


def solve_family_files(output: Path, about: dict, language: str, solver_name: str, seconds: float) -> list[Status]:
    """Run a solver on the family's own files (the generator's decode map reads its answer back),
    each answer judged by the validator; the statuses in the index's order."""
    statuses = []
    for row in about["instances"]:
        named = specs.resolve(row["name"])[0]
        module = generator(language, named.game.name)
        typed = check_options(module.OPTIONS, {}, "test")
        model = module.build(named.deal, **option_keywords(typed))
        from_family = replace(model, files=instance_files(output, about, row, model))
        solver = get_solver(solver_name)
        solver.build = lambda deal, options, model=from_family: model  # the family's files, not a fresh build
        options = check_options(solver.options, {}, solver_name)
        result = judge(named.deal, solver_name, solver.solve(named.deal, Limits(timeout=seconds), options))
        statuses.append(result.status)
    return statuses


def labels(about: dict) -> list[Status]:
    return [Status(row["status"]) for row in about["instances"]]


def test_labels_are_native_verdicts_and_the_index_checks_out(tmp_path):
    output, about = family(tmp_path, "cnf", SMALL_BLACK_HOLE)
    rows = about["instances"]
    assert [row["name"] for row in rows] == [f"black_hole:{seed}" for seed in range(1, 6)]
    for row, named in zip(rows, specs.resolve(SMALL_BLACK_HOLE), strict=True):
        native = solve(named.deal, "native", Limits(timeout=60), {"max-cards": "on"})
        assert row["status"] == native.status.value and row["nodes"] == native.nodes
        assert row["max_cards"] == (len(named.deal.cards) if native.status is Status.SOLVED
                                    else native.stats["max_cards"])
        data = (output / row["files"][0]).read_bytes()
        assert row["sha256"] == [hashlib.sha256(data).hexdigest()] and row["bytes"] == len(data)
        text = unpack(output / row["files"][0])
        header, problem = text.split("\np cnf ")
        variables, clauses = (int(word) for word in problem.split()[:2])
        assert (row["variables"], row["clauses"]) == (variables, clauses)
        expected = {"solved": "SAT", "unsolvable": "UNSAT"}[row["status"]]
        assert f"c deal: {row['name']}\n" in header and f"c expected: {expected} " in header
    assert [row["status"] for row in rows].count("unsolvable") == 1
    with open(output / "index.csv", newline="") as stream:
        table = list(csv.DictReader(stream))
    assert [(line["name"], line["status"], line["sha256"]) for line in table] == \
           [(row["name"], row["status"], row["sha256"][0]) for row in rows]
    assert sorted(path.name for path in output.iterdir()) == sorted(
        [row["files"][0] for row in rows] + ["index.csv", "index.json"])


@needs_solver("cadical")
def test_cnf_family_solved_by_cadical_agrees_with_the_labels(tmp_path):
    output, about = family(tmp_path, "cnf", TINY_GENERALISED)
    assert all(path.name.endswith(".cnf.xz") for path in output.glob("random-*"))
    assert solve_family_files(output, about, "cnf", "cadical", 60) == labels(about)
    for row in about["instances"]:  # CaDiCaL also reads the .cnf.xz files as they are
        run = run_process([get_solver("cadical").executable(), "-q", row["files"][0]], Limits(timeout=60), cwd=output)
        answer = {"solved": "s SATISFIABLE", "unsolvable": "s UNSATISFIABLE"}[row["status"]]
        assert run.stdout.splitlines()[0] == answer


@needs_solver("fd-ff")
def test_pddl_family_is_one_domain_and_numbered_problems_solved_by_fast_downward(tmp_path):
    output, about = family(tmp_path, "pddl", TINY_GENERALISED)
    assert sorted(path.name for path in output.glob("*.pddl")) == [
        "domain.pddl", "p001.pddl", "p002.pddl", "p003.pddl", "p004.pddl", "p005.pddl"]
    assert about["instances"][0]["actions"] == 12 and about["instances"][0]["objects"] == 7 + 2
    assert solve_family_files(output, about, "pddl", "fd-ff", 60) == labels(about)


@pytest.mark.slow
@needs_solver("ace")
def test_xcsp3_family_is_lzma_and_solved_by_ace(tmp_path):
    output, about = family(tmp_path, "xcsp3", TINY_GENERALISED)
    assert all(row["files"][0].endswith(".xml.lzma") for row in about["instances"])
    assert (output / about["instances"][0]["files"][0]).read_bytes()[:1] == b"\x5d"  # LZMA-alone properties
    assert solve_family_files(output, about, "xcsp3", "ace", 60) == labels(about)


@pytest.mark.slow
@pytest.mark.parametrize(("language", "solver_name"), [("cnf", "cadical"), ("pddl", "fd-ff"), ("xcsp3", "ace")])
def test_52_card_families_are_solved_as_labelled(tmp_path, language, solver_name):
    if not get_solver(solver_name).available():
        pytest.skip(f"{solver_name} not installed")
    output, about = family(tmp_path, language, SMALL_BLACK_HOLE)
    assert solve_family_files(output, about, language, solver_name, 120) == labels(about)


@pytest.mark.slow  # a family's every deal through HiGHS: half a minute of CPU
@needs_solver("highs")
def test_lp_family_of_tiny_generalised_deals_solved_by_highs(tmp_path):
    output, about = family(tmp_path, "lp", TINY_GENERALISED)
    assert all(row["files"][0].endswith(".lp.gz") and row["rows"] > 0 and row["columns"] > 0
               for row in about["instances"])
    assert solve_family_files(output, about, "lp", "highs", 60) == labels(about)
    assert set(labels(about)) == {Status.SOLVED, Status.UNSOLVABLE}  # both answers are exercised


@pytest.mark.slow
@needs_solver("cpsat")
def test_cpsat_family_solved_by_cpsat(tmp_path):
    output, about = family(tmp_path, "cpsat", TINY_GENERALISED)
    assert all(row["files"][0].endswith(".pbtxt.gz") and row["variables"] > 0 for row in about["instances"])
    assert solve_family_files(output, about, "cpsat", "cpsat", 60) == labels(about)


def test_eprime_family_writes_the_model_once_and_a_param_per_deal(tmp_path):
    output, about = family(tmp_path, "eprime", SMALL_BLACK_HOLE, "--symmetry-breaking", "off")
    names = sorted(path.name for path in output.iterdir())
    assert names == ["black_hole-1.param", "black_hole-2.param", "black_hole-3.param", "black_hole-4.param",
                     "black_hole-5.param", "blackhole.eprime", "index.csv", "index.json"]
    module = generator("eprime", "black_hole")
    assert (output / "blackhole.eprime").read_text() == module.model_text()
    first = specs.resolve("black_hole:1")[0].deal
    assert (output / "black_hole-1.param").read_text() == module.build(first, symmetry_breaking=False).files[
        "deal.param"]
    assert about["options"] == {"black_hole": {"symmetry-breaking": False}}


def test_a_file_the_deals_do_not_share_is_written_per_deal(tmp_path):
    # Black Hole and All in a Row have different PDDL domains (a free first move)
    output, about = family(tmp_path, "pddl", "black_hole:1+all_in_a_row:1")
    assert sorted(path.name for path in output.glob("*.pddl")) == [
        "p001-domain.pddl", "p001.pddl", "p002-domain.pddl", "p002.pddl"]
    assert about["shared_files"] == {}
    row = about["instances"][1]
    assert row["files"] == ["p002.pddl", "p002-domain.pddl"]
    assert row["sha256"][1] == hashlib.sha256((output / "p002-domain.pddl").read_bytes()).hexdigest()


def nodes_by_deal(spec: str) -> dict[str, tuple[str, int]]:
    return {named.name: (result.status.value, result.nodes) for named in specs.resolve(spec)
            for result in [solve(named.deal, "native", Limits(timeout=60), {"max-cards": "on"})]}


def test_select_hardest_and_easiest_by_native_nodes(tmp_path):
    spec = "black_hole:1-20"
    known = nodes_by_deal(spec)
    ranked = sorted(known, key=lambda name: (-known[name][1], int(name.split(":")[1])))
    _, about = family(tmp_path / "hard", "cnf", spec, "--select", "hardest:3")
    assert {row["name"] for row in about["instances"]} == set(ranked[:3])
    assert [row["name"] for row in about["instances"]] == [name for name in known if name in ranked[:3]]
    assert about["family_size"] == 20 and about["chosen"] == 3
    _, about = family(tmp_path / "easy", "cnf", spec, "--select", "easiest:2", "--status", "solvable")
    solvable = [name for name in ranked if known[name][0] == "solved"]
    assert {row["name"] for row in about["instances"]} == set(solvable[-2:])


def test_status_keeps_one_verdict_and_sample_follows_its_seed(tmp_path):
    spec = "black_hole:1-20"
    known = nodes_by_deal(spec)
    _, about = family(tmp_path / "lost", "lp", spec, "--status", "unsolvable")
    assert [row["name"] for row in about["instances"]] == [name for name in known if known[name][0] == "unsolvable"]
    picks = []
    for seed in ("1", "1", "2"):  # CNF: the sample is drawn before any model is written, in any format
        _, about = family(tmp_path / f"sample{len(picks)}", "cnf", spec, "--select", "sample:5", "--seed", seed)
        picks.append([row["name"] for row in about["instances"]])
    assert picks[0] == picks[1] != picks[2] and len(set(picks[0])) == 5


def campaign_store(path: Path, walls: dict[str, tuple[str, float]]) -> None:
    """A campaign store with one configuration `slow` of cadical and the given (status, wall) runs."""
    store = Store(path)
    from patience.campaign.config import from_config_argument
    store.fix_configurations([from_config_argument("slow=cadical")])
    for deal, (status, wall) in walls.items():
        named = specs.resolve(deal)
        store.add_deals(named)
        store.record(RunRecord(deal, "slow", "cadical", "{}", Status(status), None, wall, wall, None, None, "test",
                               "", "", "{}", content=named[0].content))
    store.close()


def test_select_hardest_by_a_campaign_stores_times(tmp_path):
    db = tmp_path / "campaign.sqlite"
    # times opposite to the native nodes' order, and one run that decided nothing
    known = nodes_by_deal("black_hole:1-8")
    by_nodes = sorted(known, key=lambda name: known[name][1])
    walls = {name: ("unsolvable" if known[name][0] == "unsolvable" else "solved", 100.0 - rank)
             for rank, name in enumerate(by_nodes)}
    walls[by_nodes[3]] = ("timeout", 1.0)
    campaign_store(db, walls)
    _, about = family(tmp_path / "by-store", "cnf", "black_hole:1-8", "--select", "hardest:3",
                      "--measure", f"{db}:slow")
    assert {row["name"] for row in about["instances"]} == {by_nodes[3], by_nodes[0], by_nodes[1]}
    assert {row["name"]: row["measure"] for row in about["instances"]}[by_nodes[3]] == "inf"
    _, about = family(tmp_path / "by-solver", "cnf", "black_hole:1-8", "--select", "easiest:1",
                      "--measure", f"{db}:cadical")  # the solver's one configuration
    assert [row["name"] for row in about["instances"]] == [by_nodes[-1]]


def test_select_from_a_real_campaign(tmp_path):
    db = tmp_path / "real.sqlite"
    assert main(["compare", "--deals", "black_hole:1-6", "--solvers", "native", "--db", str(db), "--quiet"]) == 0
    store = Store(db, create=False)
    walls = {run.deal: run.wall for run in store.runs()}
    store.close()
    _, about = family(tmp_path / "f", "pddl", "black_hole:1-6", "--select", "hardest:2", "--measure", f"{db}:native")
    assert {row["name"] for row in about["instances"]} == set(sorted(walls, key=walls.get)[-2:])


def refused(tmp_path, capsys, *arguments: str) -> str:
    """Exit 2 with one error line, nothing on stdout, and nothing written."""
    before = sorted(tmp_path.rglob("*"))
    try:
        code = main(["gen", *arguments, "--quiet"])
    except SystemExit as stop:  # a number out of its option's range is refused by argparse itself
        code = stop.code
    assert code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1
    assert sorted(tmp_path.rglob("*")) == before
    return err


def test_bad_requests_are_refused_before_anything_is_written(tmp_path, capsys):
    out = str(tmp_path / "out")
    db = tmp_path / "campaign.sqlite"
    campaign_store(db, {"black_hole:1": ("solved", 1.0)})
    (tmp_path / "not-a-store").write_text("hello\n")
    assert "neither" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole_1-5", "-o", out)
    assert "bad range" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:5-1", "-o", out)
    assert "cardinality" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1", "-o", out,
                                    "--cardinality", "nonsense")
    assert "option model" in refused(tmp_path, capsys, "lp", "--deals", "black_hole:1", "-o", out, "--model", "x")
    for bad in ("top:3", "hardest:0", "hardest", "sample:-1"):
        assert "hardest:N" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1", "-o", out, "--select", bad)
    assert "--select" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1", "-o", out,
                                 "--measure", f"{db}:slow")
    assert "no slow run" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1-2", "-o", out,
                                    "--select", "hardest:1", "--measure", f"{db}:slow")
    assert "no configuration" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1", "-o", out,
                                         "--select", "hardest:1", "--measure", f"{db}:nobody")
    assert "not-a-store" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1", "-o", out,
                                    "--select", "hardest:1", "--measure", f"{tmp_path / 'not-a-store'}:x")
    assert "-o DIR" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1")
    assert "--jobs" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1", "-o", out, "--jobs", "0")
    assert "prints one file" in refused(tmp_path, capsys, "pddl", "--deals", "black_hole:1", "-o", out, "--domain")
    assert "no deal" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:2", "-o", out, "--status", "unsolvable")
    (tmp_path / "file").write_text("x")
    assert "not a folder" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1", "-o", str(tmp_path / "file"))
    assert "cannot create the folder" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:1", "-o",
                                                 str(tmp_path / "file/x"))


def test_a_non_empty_folder_is_kept_unless_forced(tmp_path, capsys):
    output = tmp_path / "family"
    output.mkdir()
    (output / "mine.txt").write_text("keep me")
    assert "--force" in refused(tmp_path, capsys, "cnf", "--deals", "black_hole:2", "-o", str(output))
    assert (output / "mine.txt").read_text() == "keep me"
    assert main(["gen", "cnf", "--deals", "black_hole:2", "-o", str(output), "--force", "--quiet"]) == 0
    assert sorted(path.name for path in output.iterdir()) == ["black_hole-2.cnf.xz", "index.csv", "index.json"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["family"]  # no private folder left


def test_a_failure_while_writing_leaves_nothing(tmp_path, monkeypatch, capsys):
    from patience.families import write
    calls = []

    def failing(job):
        calls.append(job.number)
        if len(calls) == 3:
            raise OSError("disk full")
        return write_deal(job)

    write_deal = write.write_deal
    monkeypatch.setattr(gen_family, "write_deal", failing)
    assert main(["gen", "cnf", "--deals", "black_hole:1-5", "-o", str(tmp_path / "family"), "--quiet"]) == 2
    assert "disk full" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_workers_never_outnumber_deals(tmp_path, monkeypatch):
    from patience.runs import pool
    started = []
    real = pool.ProcessPoolExecutor

    def counting(max_workers, **keywords):
        started.append(max_workers)
        return real(max_workers=max_workers, **keywords)

    monkeypatch.setattr(pool, "ProcessPoolExecutor", counting)
    output, about = family(tmp_path, "cnf", "black_hole:2-3", "--jobs", "8")
    assert started == [2, 2] and len(about["instances"]) == 2
    family(tmp_path / "one", "cnf", "black_hole:2", "--jobs", "8")
    assert started == [2, 2]  # one deal: no pool at all


@pytest.mark.slow
def test_two_workers_write_the_same_family_as_one(tmp_path):
    _, one = family(tmp_path / "one", "xcsp3", "black_hole:1-6")
    _, two = family(tmp_path / "two", "xcsp3", "black_hole:1-6", "--jobs", "2")
    assert [row["sha256"] for row in one["instances"]] == [row["sha256"] for row in two["instances"]]
    assert [row["status"] for row in one["instances"]] == [row["status"] for row in two["instances"]]


def test_every_format_names_its_files_by_its_convention(tmp_path):
    for language in ("cnf", "xcsp3", "lp", "eprime", "cpsat", "pddl"):
        output, about = family(tmp_path, language, "random:4,3,2:1-2")
        rule = convention(language)
        assert all(row["files"][0].endswith(rule.suffix) for row in about["instances"])
        assert about["convention"] == rule.competition
        assert math.isfinite(about["instances"][0]["native_seconds"])


def test_sigterm_while_writing_leaves_no_folder_and_no_process(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.helpers import group_gone

    output = tmp_path / "family"
    process = subprocess.Popen([sys.executable, "-m", "patience", "gen", "cnf", "--deals", "black_hole:1-300",
                                "-o", str(output), "--quiet", "--jobs", "2"], start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(tmp_path.glob(".family.partial-*/*.cnf.xz")):
        time.sleep(0.05)
    assert list(tmp_path.glob(".family.partial-*/*.cnf.xz")), "the family never started writing"
    os.kill(process.pid, signal.SIGTERM)
    process.wait(timeout=30)
    assert process.returncode != 0
    assert group_gone(process.pid, 10)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # every LBS deal of a folder through Fast Downward: most of a minute of CPU
@needs_solver("fd-ff")
def test_lbs_family_from_a_folder_solved_by_fast_downward(tmp_path):
    from tests.helpers import COURSE
    folder = tmp_path / "deals"
    folder.mkdir()
    for kind, name in (("SolvableInstances", "LBS10_12.param"), ("UnsolvableInstances", None)):
        files = sorted((COURSE / kind).glob("*.param"))
        chosen = [path for path in files if path.name == name] if name else files[:1]
        for path in chosen:
            (folder / path.name).write_text(path.read_text())
    output, about = family(tmp_path, "pddl", str(folder))
    assert [row["game"] for row in about["instances"]] == ["lbs", "lbs"]
    assert set(labels(about)) == {Status.SOLVED, Status.UNSOLVABLE}
    for row in about["instances"]:  # the most moves: all of them (a card fewer than the row) on a win
        assert (row["max_cards"] == row["cards"] - 1) == (row["status"] == Status.SOLVED.value)
    assert solve_family_files(output, about, "pddl", "fd-ff", 60) == labels(about)


def test_binary_star_family_labels_and_shared_model(tmp_path):
    output, about = family(tmp_path, "eprime", "binary_star:1-2")
    assert "binary-star.eprime" in about["shared_files"]
    for row, named in zip(about["instances"], specs.resolve("binary_star:1-2"), strict=True):
        native = solve(named.deal, "native", Limits(timeout=60), {"max-cards": "on"})
        assert (row["game"], row["status"], row["nodes"]) == ("binary_star", native.status.value, native.nodes)


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
