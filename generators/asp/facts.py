"""What the ASP generators share: facts as text, the fixed programs in models/, and the reading of
clingo's answer (the atoms of one answer set) back into tuples of numbers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources

from patience.cards import ranks_adjacent
from patience.errors import InputError, quote
from patience.generators.files import ModelFiles
from patience.options import Option

FACTS_FILE = "deal.lp"
SYMMETRY_FILE = "asp-symmetry.lp"
SEARCH_PREFIX = "asp-search-"  # a program of #heuristic directives, for --heuristic=Domain
SEARCH = Option("search", "paper", "paper: clingo's domain heuristic decides the steps in order, the smallest card "
                                   "(position) first; free: clingo's own search", ("paper", "free"))
_ATOM = re.compile(r"([a-z_]\w*)\(((?:-?[0-9]{1,9},)*-?[0-9]{1,9})\)")


def facts(name: str, rows: Iterable[Sequence[int]]) -> str:
    """One fact per row, on one line each: `name(a, b).`"""
    return "".join(f"{name}({', '.join(str(value) for value in row)}).\n" for row in rows)


def next_ranks(ranks: int) -> str:
    """next_rank(R1, R2) for every pair of ranks one apart on the rank cycle."""
    return facts("next_rank", ((first, second) for first in range(ranks) for second in range(ranks)
                               if ranks_adjacent(first, second, ranks)))


def pile_facts(numbers: range, rank: Callable[[int], int], above: Callable[[int], int | None], ranks: int,
               symmetry_breaking: bool) -> str:
    """The facts every game's program reads: each card number, its rank, the card above it (none for
    a top card), the rank cycle, and whether the symmetry-breaking rules are on."""
    covered = [(number, above(number)) for number in numbers]
    return (facts("card", ((number,) for number in numbers))
            + facts("rank", ((number, rank(number)) for number in numbers))
            + facts("above", ((number, over) for number, over in covered if over is not None))
            + next_ranks(ranks) + ("symmetry_breaking.\n" if symmetry_breaking else ""))


def deal_model(program_file: str, search: str, deal_facts: str, symmetry_breaking: bool,
               decode: Callable[[Sequence[object], str], tuple[object, ...]],
               sizes: Mapping[str, int | str] | None = None) -> ModelFiles:
    """A game's fixed programs and one deal's facts, with the decode map that reads its answer sets."""
    return ModelFiles({**programs(program_file, search), FACTS_FILE: deal_facts}, FACTS_FILE, decode,
                      {**(sizes or {}), "symmetry-breaking": "on" if symmetry_breaking else "off", "search": search})


def program(name: str) -> str:
    """A fixed program of models/."""
    return resources.files("patience.models").joinpath(name).read_text()


def programs(program_file: str, search: str) -> dict[str, str]:
    """The fixed programs of a game whose search follows the constraint models' (Black Hole, Binary
    Star): the rules (`program_file`, asp-GAME.lp), the symmetry breaking (switched on by a fact) and,
    for search=paper, the heuristic (asp-search-GAME.lp)."""
    heuristic = program_file.replace("asp-", SEARCH_PREFIX, 1)
    names = [program_file, SYMMETRY_FILE] + ([heuristic] if search == "paper" else [])
    return {name: program(name) for name in names}


def atoms(shown: Sequence[object], name: str, arity: int, source: str) -> list[tuple[int, ...]]:
    """The arguments of every shown atom `name(...)` of `arity` numbers; InputError for anything
    else in the answer set (the programs show nothing else)."""
    found = []
    for atom in shown:
        match = _ATOM.fullmatch(atom) if isinstance(atom, str) else None
        if match is None or match.group(1) != name or match.group(2).count(",") != arity - 1:
            raise InputError(source, None, f"an atom the program does not show: {quote(str(atom))}")
        found.append(tuple(int(value) for value in match.group(2).split(",")))
    return found


def steps(found: list[tuple[int, ...]], count: int, source: str) -> list[tuple[int, ...]]:
    """The atoms ordered by their last argument, a step 1..count, after checking there is exactly
    one atom a step."""
    by_step = sorted(found, key=lambda atom: atom[-1])
    if [atom[-1] for atom in by_step] != list(range(1, count + 1)):
        raise InputError(source, None, f"the answer set does not hold one move for each step 1..{count}")
    return by_step
