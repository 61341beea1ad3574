"""The documentation site builds in strict mode (docs/build.sh: MkDocs, Material, mkdocstrings), so a
broken link, a page missing from the nav's files or an API reference that does not resolve fails."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_docs_site_builds_strictly_with_every_page_and_the_api_reference(tmp_path):
    site = tmp_path / "site"
    done = subprocess.run(["bash", str(ROOT / "docs" / "build.sh"), "--site-dir", str(site)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    built = {path.stem for path in site.glob("*.html")}
    assert {path.stem for path in (ROOT / "docs").glob("*.md")} <= built
    assert 'id="patience"' in (site / "api.html").read_text(encoding="utf-8")  # mkdocstrings rendered `::: patience`
