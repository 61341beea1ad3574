"""docs/golf.md's win rates against the verdict files they were counted from, and those files against
the search of today: every million is whole (seeds 1..1,000,000 in order, each decided), its count
of wins is the table's, and deals spread over the range are decided the same way by the compiled
search with its cuts, by the same search without them, and (in the slow set) by the Python search."""

from __future__ import annotations

import functools
import lzma
import re
from pathlib import Path

import pytest

from patience.golf.pysol import VARIANTS, numbered_deal
from patience.golf.search import compiled, search
from patience.result import Status

DOCS = Path(__file__).resolve().parent.parent / "docs"
DEALS = 1_000_000
SPREAD = 25_013  # every this many seeds from 1: 40 deals over the million
STATUSES = {"solved": Status.SOLVED, "unsolvable": Status.UNSOLVABLE}


@functools.cache
def verdicts(game: str) -> tuple[str, ...]:
    """The file's verdicts by seed (index 0: seed 1), after checking that it holds seeds 1..1,000,000
    in order, each decided."""
    text = lzma.decompress((DOCS / "golf" / f"{game}-1m.csv.xz").read_bytes()).decode("ascii")
    header, _, body = text.partition("\n")
    assert header == "seed,verdict"
    assert re.sub(",[a-z]+", "", body) == "\n".join(map(str, range(1, DEALS + 1))) + "\n"
    assert sum(body.count(f",{word}\n") for word in STATUSES) == DEALS  # none left open
    return tuple(line.partition(",")[2] for line in body.splitlines())


def table_row(game: str) -> list[str]:
    text = (DOCS / "golf.md").read_text(encoding="utf-8")
    section = text[text.index("### Win rates"):]
    row = re.search(rf"^\| {game} \| (.*) \|$", section, re.MULTILINE)
    assert row is not None, f"docs/golf.md's win rates have no row for {game}"
    return [cell.strip() for cell in row.group(1).split("|")]


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_the_win_rates_are_the_counts_of_their_verdict_files(game: str) -> None:
    won = verdicts(game).count("solved")
    deals, stated_won, rate, undecided = table_row(game)[:4]
    assert (deals, stated_won, undecided) == (f"{DEALS:,}", f"{won:,}", "0")
    assert rate.startswith(f"{100 * won / DEALS:.2f}%")


@pytest.mark.skipif(compiled() is None, reason="the compiled Golf search is not built")
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_the_verdict_files_are_the_searchs_verdicts(game: str) -> None:
    words = verdicts(game)
    for seed in range(1, DEALS + 1, SPREAD):
        assert search(numbered_deal(game, seed), engine="c").status is STATUSES[words[seed - 1]], (game, seed)
    for seed in range(1, DEALS + 1, SPREAD * 4):  # without its cuts: ten times the nodes
        assert search(numbered_deal(game, seed), engine="c", prune=False).status is STATUSES[words[seed - 1]]


@pytest.mark.slow  # a second of CPU a deal
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_the_python_search_gives_the_verdict_files_verdicts(game: str) -> None:
    words = verdicts(game)
    for seed in range(1, DEALS + 1, SPREAD * 8):
        assert search(numbered_deal(game, seed), engine="python").status is STATUSES[words[seed - 1]], (game, seed)
