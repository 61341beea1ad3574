"""The documentation site builds in strict mode (docs/build.sh: MkDocs, Material, mkdocstrings,
mkdocs-jupyter), so a broken link, a page missing from the nav's files, an API reference that does not
resolve or a failing cell of the tour notebook fails. build.sh takes MkDocs from the environment the
tests run in (as from any environment with `pip install ".[docs]"` active), not from a `.venv` path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "docs" / "build.sh"


def build(site: Path, run_notebook: bool) -> subprocess.CompletedProcess[str]:
    """docs/build.sh with this test's environment active (its bin first on PATH, as `activate` does)."""
    environment = {**os.environ, "VIRTUAL_ENV": sys.prefix,
                   "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
                   "PATIENCE_DOCS_RUN_NOTEBOOK": "true" if run_notebook else "false"}
    return subprocess.run(["bash", str(BUILD), "--site-dir", str(site)], capture_output=True, text=True,
                          timeout=900, env=environment)


def test_the_docs_site_builds_strictly_with_every_page_and_the_api_reference(tmp_path):
    site = tmp_path / "site"
    done = build(site, run_notebook=False)  # the notebook run is the slow test's
    assert done.returncode == 0, done.stdout + done.stderr
    built = {path.stem for path in site.glob("*.html")}
    assert {path.stem for path in (ROOT / "docs").glob("*.md")} <= built
    assert 'id="patience"' in (site / "api.html").read_text(encoding="utf-8")  # mkdocstrings rendered `::: patience`
    tour = (site / "tour.html").read_text(encoding="utf-8")
    assert "A tour of patience-models" in tour and "patience.deal" in tour  # the notebook is a page of the site
    assert 'href="tour.html"' in (site / "index.html").read_text(encoding="utf-8")  # in the nav


@pytest.mark.slow
def test_the_site_shows_the_tour_notebook_run(tmp_path):
    """The site's tour page holds the cells' outputs: the validator's replay and the two plots."""
    site = tmp_path / "site"
    before = sorted(path.name for path in (ROOT / "docs").iterdir())
    done = build(site, run_notebook=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    tour = (site / "tour.html").read_text(encoding="utf-8")
    assert "invalid: move 5:" in tour  # the tampered answer, stopped at its first illegal move
    assert tour.count("data:image/png;base64,") >= 2  # the comparison's plot and the survey's histogram
    assert sorted(path.name for path in (ROOT / "docs").iterdir()) == before  # the run leaves nothing in docs/


def test_without_mkdocs_the_build_says_how_to_get_it(tmp_path):
    """Outside the checkout's .venv and any environment holding MkDocs: one line and exit 2."""
    if shutil.which("mkdocs", path="/usr/bin:/bin"):
        pytest.skip("this machine has a MkDocs of its own")
    (tmp_path / "docs").mkdir()
    shutil.copy(BUILD, tmp_path / "docs" / "build.sh")
    environment = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"} | {"PATH": "/usr/bin:/bin"}
    done = subprocess.run(["bash", str(tmp_path / "docs" / "build.sh")], capture_output=True, text=True, timeout=60,
                          env=environment)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and 'pip install ".[docs]"' in done.stderr
