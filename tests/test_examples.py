"""Every example in the README and the docs runs as written: each ```sh block's commands and each
```python block, a page's blocks in order in one fresh, empty folder outside the checkout, with the
tests' environment first on PATH, as after `. .venv/bin/activate` (the folder's one entry, `.venv`,
links that environment for the README's activate line). Nothing of the checkout is reachable: deals
come from `patience deal`, other files from `patience examples` (the installed package's). A command
exits 0 unless its comment says otherwise (`# ... exit 1`).

A block too slow to run here (the reproduction of a measurement) or one that needs a solver outside
PyPI and Debian is marked by the line `<!-- not-run: REASON -->` just before it; its `patience` and
`gen` commands are still parsed, so an option renamed or removed fails here, and the test prints
each such block with its reason. The docs site itself is built in strict mode by docs/build.sh.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from patience import cli
from patience.cli import build_parser
from patience.commands import gen

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
# A path into the checkout a runnable example must not name: it runs in an empty folder, as a user's does.
_CHECKOUT_PATH = re.compile(r"(?<![\w/.-])(?:instances|tests|docs|benchmarks|patience|models|templates)/")
_FENCE = re.compile(r"^```(\w*)\s*$")
_NOT_RUN = re.compile(r"^<!--\s*not-run:\s*(.+?)\s*-->\s*$")
_EXPECTED_EXIT = re.compile(r"#.*\bexit (\d+)\b")
_TIMEOUT = 900  # seconds for one command; a hang fails the test instead of holding the run


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, its text, where it starts, and why it is not run."""

    page: Path
    line: int
    language: str
    text: str
    not_run: str | None

    def where(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The page's fenced blocks of shell and Python, in order."""
    found, lines = [], page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if fence is None:
            index += 1
            continue
        start, body = index, []
        index += 1
        while index < len(lines) and not lines[index].startswith("```"):
            body.append(lines[index])
            index += 1
        index += 1
        marker = _NOT_RUN.match(lines[start - 1]) if start > 0 else None
        if fence.group(1) in ("sh", "python"):
            found.append(Block(page, start + 1, fence.group(1), "\n".join(body), marker and marker.group(1)))
    return found


def commands(text: str) -> list[str]:
    """The shell block's commands, one a line, continuation lines joined; in a transcript (lines of
    `$ COMMAND` among the output they printed) only the `$` lines."""
    lines = re.sub(r"\\\n\s*", " ", text).splitlines()
    if any(line.startswith("$ ") for line in lines):
        return [line[2:] for line in lines if line.startswith("$ ")]
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def expected_exit(command: str) -> int:
    match = _EXPECTED_EXIT.search(command)
    return int(match.group(1)) if match else 0


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def folder_for(tmp_path: Path) -> Path:
    (tmp_path / ".venv").symlink_to(VENV_BIN.parent)
    return tmp_path


def checkout_paths(block: Block) -> list[str]:
    """The commands (or the Python block) of a runnable block that name a path into the checkout."""
    texts = [block.text] if block.language == "python" else commands(block.text)
    return [text for text in texts if _CHECKOUT_PATH.search(text.split(" #")[0])]


def environment() -> dict[str, str]:
    return {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def run_block(block: Block, folder: Path) -> None:
    """Run each command (or the Python block) in `folder`; fail naming the page, line and output."""
    if block.language == "python":
        runs = [([sys.executable, "-c", block.text], 0, block.text)]
    else:
        runs = [(["bash", "-c", f"set -o pipefail; {command}"], expected_exit(command), command)
                for command in commands(block.text)]
    for argv, expected, shown in runs:
        done = subprocess.run(argv, cwd=folder, env=environment(), capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=_TIMEOUT)
        assert done.returncode == expected, (f"{block.where()}: `{shown}` exited {done.returncode}, not {expected}\n"
                                             f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


def parse_only(block: Block) -> list[str]:
    """Parse the not-run block's `patience` and `gen` commands without running them; the others' names."""
    unchecked = []
    for command in commands(block.text):
        for part in re.split(r"\s*(?:;|&&|\|)\s*", command.split(" #")[0]):
            words = shlex.split(part.replace(">", " > "))
            words = words[:words.index(">")] if ">" in words else words
            while words and words[0] in ("nice", "-n") or (words and words[0].isdigit()):
                words = words[1:]
            program = Path(words[0]).name if words else ""
            if program == "patience":
                try:
                    with contextlib.redirect_stderr(io.StringIO()):
                        build_parser().parse_args(words[1:])
                except SystemExit as error:
                    pytest.fail(f"{block.where()}: `{part}` is refused by patience's parser (exit {error.code})")
            elif program == "gen":
                _parse_gen(block, part, words[1:])
            elif words:
                unchecked.append(program)
    return unchecked


def _parse_gen(block: Block, part: str, words: list[str]) -> None:
    parser = cli.OneLineParser(prog="gen")
    gen.add_formats(parser)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            parser.parse_args(words)
    except SystemExit as error:
        pytest.fail(f"{block.where()}: `{part}` is refused by gen's parser (exit {error.code})")


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", [ROOT / "README.md"], ids=page_id)
def test_the_readme_runs_as_written(page, tmp_path, capsys):
    check_page(page, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("page", sorted((ROOT / "docs").glob("*.md")), ids=page_id)
def test_every_docs_page_runs_as_written(page, tmp_path, capsys):
    check_page(page, tmp_path, capsys)


def check_page(page: Path, tmp_path: Path, capsys) -> None:
    folder = folder_for(tmp_path)
    skipped = []
    for block in blocks(page):
        if block.not_run:
            unchecked = parse_only(block)
            skipped.append(f"{block.where()}: not run ({block.not_run})"
                           + (f"; not parsed: {', '.join(sorted(set(unchecked)))}" if unchecked else ""))
        else:
            run_block(block, folder)
    with capsys.disabled():
        for line in skipped:
            print(f"\n{line}", end="")


@pytest.mark.parametrize("page", pages(), ids=page_id)
def test_no_runnable_example_reads_the_checkout(page):
    """The README's and the docs' examples run from an empty folder (the tests run them there too)."""
    named = [f"{block.where()}: {text}" for block in blocks(page) if not block.not_run
             for text in checkout_paths(block)]
    assert named == []


def test_the_not_run_marker_is_seen_and_a_failing_command_is_caught(tmp_path):
    """The conventions themselves: a marked block is not run, an unmarked one is, exits are held."""
    page = tmp_path / "page.md"
    page.write_text("<!-- not-run: too slow -->\n```sh\npatience solve x.txt --solver native\n```\n\n"
                    "```sh\ntrue\nfalse  # exit 1\n```\n```python\nprint(1)\n```\n", encoding="utf-8")
    assert commands("$ patience deal\nFoundations: AS\n$ true") == ["patience deal", "true"]
    found = blocks(page)
    assert [(block.language, block.not_run) for block in found] == [("sh", "too slow"), ("sh", None), ("python", None)]
    assert commands(found[1].text) == ["true", "false  # exit 1"]
    assert [expected_exit(command) for command in commands(found[1].text)] == [0, 1]
    bad = Block(page, 1, "sh", "patience solve x.txt --no-such-option", "slow")
    with pytest.raises(pytest.fail.Exception, match="refused by patience's parser"):
        parse_only(bad)
    with pytest.raises(AssertionError, match="exited 1, not 0"):
        run_block(Block(page, 1, "sh", "false", None), tmp_path)
    reads = Block(page, 1, "sh", "patience solve instances/a.txt\npatience solve examples/a.txt  # not tests/x", None)
    assert checkout_paths(reads) == ["patience solve instances/a.txt"]

