"""The tour notebook (docs/tour.ipynb) runs from top to bottom in a fresh kernel, so that it cannot rot,
and is kept in the repository without outputs."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import ROOT

TOUR = ROOT / "docs" / "tour.ipynb"


def test_the_tour_is_kept_without_outputs():
    cells = json.loads(TOUR.read_text())["cells"]
    code = [cell for cell in cells if cell["cell_type"] == "code"]
    assert len(code) >= 10
    assert all(cell["outputs"] == [] and cell["execution_count"] is None for cell in code)


@pytest.mark.slow
def test_the_tour_runs_from_top_to_bottom(tmp_path):
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(TOUR, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()  # a failing cell raises
    shown = "\n".join(str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
                      for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs)
    assert "Replay(moves=51, fault=None)" in shown  # the native search's answer replays
    assert "(False, 'invalid: move 5:" in shown  # the tampered one stops at its first illegal move
    assert "<Result native: solved, 51 moves" in shown and re.search(r"won \d+ of 1000, interval 0\.", shown)
    images = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
              if "image/png" in output.get("data", {})]
    assert len(images) == 2  # the comparison's plot and the survey's histogram
    assert list(tmp_path.iterdir()) == []  # the tour's stores are temporary
