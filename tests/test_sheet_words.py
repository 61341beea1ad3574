"""The exercise sheet: every name written into it is escaped for the format it lands in (a mapping
file's name cannot end a Markdown code block or carry raw HTML), and its data format declares every
name it uses (the set CARD, n, ...) and says what the numbers mean, 0 above all."""

from __future__ import annotations

import html
import re
import shlex
from pathlib import Path

import pytest

from patience.cli import main
from patience.errors import printable
from patience.grading.coursework import markdown_name

HOSTILE = "m```\n<img src=x onerror=alert(1)>\n~~~~ | `x` *y* [z](w)\r.yaml"  # ends fences, raw HTML, a cell
KEYWORDS = {"array", "of", "int", "set", "bool", "float", "var", "given", "letting", "be", "domain", "matrix",
            "indexed", "by", "length"}


def coursework(tmp_path: Path, *argv: str) -> Path:
    out = tmp_path / "out"
    assert main(["coursework", "--count", "1", "--pool", "2", "--out", str(out), "--answers", str(tmp_path / "ans"),
                 *argv]) == 0
    return out


def hostile_mapping(tmp_path: Path) -> Path:
    mapping = tmp_path / HOSTILE
    mapping.write_text("game: black_hole\nvariables: {x: order}\n")
    return mapping


def test_a_markdown_name_is_one_code_span_nothing_in_it_ends():
    assert markdown_name("instances/a-01.dzn") == "`instances/a-01.dzn`"
    assert markdown_name("a``b") == "```a``b```" and markdown_name("`x") == "`` `x ``"
    assert "\n" not in markdown_name(HOSTILE) and "\\|" in markdown_name(HOSTILE)


def test_a_mapping_files_name_stays_inside_the_markdown_sheets_command(tmp_path, capsys):
    markdown_it = pytest.importorskip("markdown_it")
    out = coursework(tmp_path, "--game", "black_hole", "--mapping", str(hostile_mapping(tmp_path)))
    capsys.readouterr()
    text = (out / "sheet.md").read_text()
    rendered = markdown_it.MarkdownIt("commonmark").enable("table").render(text)
    assert "<img" not in rendered and "&lt;img src=x onerror=alert(1)&gt;" in rendered
    blocks = re.findall(r"<pre><code>(.*?)</code></pre>", rendered, flags=re.DOTALL)
    assert len(blocks) == 4  # the data's declarations, an instance, the answer's variables, the command
    command = html.unescape(blocks[-1]).strip()
    assert "\n" not in command and shlex.split(command)[-1] == printable(HOSTILE)
    assert rendered.count("<h2>") == 5  # nothing the name holds became a heading or ended a block early


def test_a_mapping_files_name_is_text_in_the_html_sheet(tmp_path, capsys):
    out = coursework(tmp_path, "--game", "black_hole", "--sheet", "html", "--mapping", str(hostile_mapping(tmp_path)))
    capsys.readouterr()
    page = (out / "sheet.html").read_text()
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    command = html.unescape(re.findall(r"<pre><code>(.*?)</code></pre>", page, flags=re.DOTALL)[-1])
    assert "\n" not in command and shlex.split(command)[-1] == printable(HOSTILE)
    assert "0 in <code>above</code> or <code>below</code> means no card" in page  # its own code spans as code


def declared_and_used(block: str, language: str) -> tuple[set[str], set[str]]:
    """The names a data format's lines declare or define, and the names their types and sizes use."""
    declared, used = set(), set()
    for line in block.splitlines():
        code = line.split("%")[0].split("$")[0]
        if language == "mzn":
            head, _, rest = code.partition(":")
            name, _, value = rest.partition("=")
            declared.add(name.strip(" ;"))
            words = re.findall(r"\b[A-Za-z_]\w*\b", head + value)
        else:
            match = re.match(r"\s*(given|letting)\s+(\w+)\s*(?::|be)(.*)", code)
            assert match, line
            declared.add(match.group(2))
            words = re.findall(r"\b[A-Za-z_]\w*\b", match.group(3))
        used.update(word for word in words if word not in KEYWORDS)
    return declared, used


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row", "binary_star", "lbs"])
@pytest.mark.parametrize("language", ["mzn", "eprime", "asp"])
def test_the_data_format_declares_every_name_it_uses_and_says_what_the_numbers_mean(tmp_path, capsys, game,
                                                                                     language):
    text = (coursework(tmp_path, "--game", game, "--language", language) / "sheet.md").read_text()
    capsys.readouterr()
    section = text.split("## The data format")[1].split("## What to hand in")[0]
    block, after = section.split("```")[1].strip("\n"), section.split("```")[2]
    meaning = after.strip().split("\n\n")[0]
    if language != "asp":
        declared, used = declared_and_used(block, language)
        explained = set(re.findall(r"\b(\w+) is the number of", meaning))
        assert used <= declared | explained, (used - declared - explained)
    if game == "binary_star":
        assert "-1 in `above` or `below` means no position" in meaning or language == "asp"
        assert "0 is a card like any other" in meaning or language == "asp"
    elif game == "lbs":
        assert "0 is the A♥, a card like any other" in meaning
    elif language != "asp":
        assert "0 in `above` or `below` means no card" in meaning and "Card 0 is the start card" in meaning
    else:
        assert "There is no card 0" in meaning
    if game != "lbs" or language == "asp":  # the comment names the cards: how to read those names
        assert "AS is A♠ and TH is 10♥" in meaning


def test_the_public_models_layout_is_explained_in_its_own_numbers(tmp_path, capsys):
    text = (coursework(tmp_path, "--game", "black_hole", "--mapping", "minizinc-benchmarks") / "sheet.md").read_text()
    capsys.readouterr()
    assert "1 is the A♠" in text and "A card is a number c from 1 to 52" in text
