"""The example files that ship with the package, so that the README's tour and the docs run from any
folder after any install: `patience examples` copies them out (the checkout's instances/ and
tests/transcripts/lbs link here)."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

# Each example folder and what it holds (README.md here says it in full).
EXAMPLES = {
    "black_hole": "the example deal of Gent et al. (2007) and its published solution",
    "lbs-coursework": "a Late Binding Solitaire coursework's 43 instances, with Savile Row's output where solved",
    "lbs-grader": "two wrong Late Binding Solitaire models and the files Savile Row wrote for them (grade --results)",
}


def example_files() -> dict[str, bytes]:
    """Every example file by its path in the examples folder (`black_hole/paper-example.txt`), README.md too."""
    root = resources.files(__name__)
    files = {"README.md": root.joinpath("README.md").read_bytes()}
    for folder in EXAMPLES:
        files.update(_tree(root.joinpath(folder), folder))
    return files


def _tree(folder: Traversable, prefix: str) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        name = f"{prefix}/{entry.name}"
        if entry.is_dir():
            found.update(_tree(entry, name))
        elif entry.is_file() and not entry.name.startswith("."):
            found[name] = entry.read_bytes()
    return found
