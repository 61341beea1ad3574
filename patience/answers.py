"""Reading answer files into card sequences, whatever solver wrote them.

Each answer format is an AnswerReader (name, detect, read) — one small function each. Solver
families register theirs by listing a module in READER_MODULES; the module exposes a list
`ANSWER_READERS`. The plain card list is tried last.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from patience.caps import MAX_MOVES, QUOTE_CHARS
from patience.cards import Card, parse_card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.reading import at_most, first_line, numbered_lines


@dataclass(frozen=True)
class AnswerReader:
    name: str
    detect: Callable[[str], bool]
    read: Callable[[str, str, Deal], tuple[Card, ...]]  # (text, source, deal) -> cards


# Modules that define ANSWER_READERS for their solvers' native outputs.
READER_MODULES: tuple[str, ...] = (
    "patience.runners.pddl_plan",
    "patience.generators.lp.solution",
    "patience.generators.eprime.solution",
    "patience.generators.xcsp3.solution",
)

_BHS_MOVE = re.compile(r"^Info: Card moved is (\S+)\s*$")
_CARD = re.compile(r"[^\s,\[\]]+")  # what lies between separators (white space, commas, brackets)


def read_plain(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    """Cards separated by spaces, commas or new lines; brackets, `#` comments and blank lines allowed."""
    cards: list[Card] = []
    for number, line in numbered_lines(text):
        for token in _CARD.finditer(line.split("#", 1)[0]):  # one by one: no list of a long line's words
            try:
                cards.append(parse_card(token.group()))
            except ValueError as error:
                raise InputError(source, number, str(error)) from None
            at_most(len(cards), MAX_MOVES, "moves", source, number)
    if not cards:
        raise InputError(source, 1, "no cards in the answer")
    return tuple(cards)


BLACK_HOLE_SOLVE_VERDICTS = ("Solved!", "Unsolved!", "Intractable!")


def black_hole_solve_verdict(text: str) -> str:
    """The first line of black-hole-solve's output: one of BLACK_HOLE_SOLVE_VERDICTS if it is one."""
    return first_line(text)


def detect_black_hole_solve(text: str) -> bool:
    return black_hole_solve_verdict(text) in BLACK_HOLE_SOLVE_VERDICTS


def read_black_hole_solve(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    """black-hole-solve's transcript: `Solved!`, then `Info: Card moved is XY` per move."""
    verdict = black_hole_solve_verdict(text)
    if verdict != "Solved!":
        raise InputError(source, 1, f"the answer says {quote(verdict)}: there is no card sequence to replay")
    cards = []
    for number, line in numbered_lines(text):
        match = _BHS_MOVE.match(line.strip())
        if match:
            try:
                cards.append(parse_card(match.group(1)))
            except ValueError as error:
                raise InputError(source, number, str(error)) from None
            at_most(len(cards), MAX_MOVES, "moves", source, number)
    return tuple(cards)


def is_solve_transcript(text: str) -> bool:
    """`patience solve`'s own output: `deal: ...` first, a `status: ...` line after it; or its
    `--json` output, an object with the keys `deal`, `solver` and `status`."""
    if first_line(text).startswith("{"):
        return solve_json(text) is not None
    return first_line(text).startswith("deal: ") and "\nstatus: " in text


def solve_json(text: str) -> dict[str, object] | None:
    """`patience solve --json`'s result object, or None for any other text (a solver's JSON)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and all(key in value for key in _SOLVE_JSON_KEYS) else None


_SOLVE_JSON_KEYS = ("deal", "solver", "status")


def _json_sequence(text: str, source: str, result: dict[str, object]) -> str:
    """The moves of `solve --json`'s result, one a line where its file has them one a line (as
    `--json` writes it), so that an error names the move's own line; else all on the key's line."""
    key_lines = {key: number for number, line in numbered_lines(text) for key in ("status", "sequence")
                 if line.lstrip().startswith(f'"{key}"')}
    status, moves = result["status"], result.get("sequence")
    if status != "solved":
        raise InputError(source, key_lines.get("status", 1),
                         f"the answer says status {quote(str(status)[:QUOTE_CHARS])}: there is no sequence to replay")
    line = key_lines.get("sequence", 1)
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise InputError(source, line, "status solved but `sequence` is not a list of moves")
    if line + len(moves) <= text.count("\n") + 1:
        return "\n" * line + "\n".join(moves)
    return "\n" * (line - 1) + " ".join(moves)


def solve_moves(text: str, source: str) -> str | None:
    """The moves of `patience solve`'s output (its `sequence:` line, or its `--json` result's
    `sequence`) as text, each at its own line number so that an error still names the right line;
    None for any other text; InputError when the status was not solved. Each game's answer reader
    reads its moves from this first."""
    if first_line(text).startswith("{"):
        result = solve_json(text)
        return None if result is None else _json_sequence(text, source, result)
    return _transcript_sequence(text, source) if is_solve_transcript(text) else None


def _transcript_sequence(text: str, source: str) -> str:
    number, status = next((number, line.removeprefix("status: ").strip())
                          for number, line in numbered_lines(text) if line.startswith("status: "))
    if status != "solved":
        raise InputError(source, number,
                         f"the answer says status {status[:QUOTE_CHARS]}: there is no sequence to replay")
    for number, line in numbered_lines(text):
        if line.startswith("sequence: "):
            return "\n" * (number - 1) + line.removeprefix("sequence: ")
    raise InputError(source, number, "status solved but no `sequence:` line")


PLAIN = AnswerReader("cards", lambda text: True, read_plain)
SOLVE_TRANSCRIPT = AnswerReader("patience solve", is_solve_transcript,
                                lambda text, source, deal: read_plain(solve_moves(text, source) or "", source, deal))
BLACK_HOLE_SOLVE = AnswerReader("black-hole-solve", detect_black_hole_solve, read_black_hole_solve)


def answer_readers() -> list[AnswerReader]:
    readers = [SOLVE_TRANSCRIPT, BLACK_HOLE_SOLVE]
    for module_name in READER_MODULES:
        readers.extend(importlib.import_module(module_name).ANSWER_READERS)
    return readers + [PLAIN]


def read_answer(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    """Decode an answer file in whichever known format it is written."""
    if not text or text.isspace():  # not text.strip(): that copies a long answer whole
        raise InputError(source, 1, "empty answer")
    reader = next(reader for reader in answer_readers() if reader.detect(text))  # PLAIN takes anything
    return reader.read(text, source, deal)
