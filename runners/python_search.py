"""The Python searches (the Black Hole family's reference search from the front, the back or both, the
LBS search, the plain search) as a child process under the runner core, like every other solver: the
same wall-clock, CPU and memory limits, its process group killed at the limit, and nothing of it left
in this process (a search that outgrows memory or looks at its clock too seldom, as on a board of
thousands of cards, cannot take the command with it).

The parent sends the task pickled (it is this program's own data, in its private folder) on standard
input; the child prints the result as JSON, read back with every field checked. The search stops
itself at the wall-clock or the CPU limit, whichever comes first (the CPU counted from the child's
start, as the runner core counts it); the hard kill comes a grace period later.
"""

from __future__ import annotations

import base64
import json
import pickle
import sys
import time
from typing import Any

from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.lbs.deal import LBSDeal
from patience.lbs.solver import Search
from patience.native.board import Board
from patience.native.reference import Outcome
from patience.native.rules import Rules
from patience.plain_search import DIRECTIONS, LIMITS, PlainResult
from patience.result import Status
from patience.runs.process import Limits, ProcessRun, caller_environment, end_with_caller, python_command, run_process

GRACE_SECONDS = 0.5  # the search checks its clock every few thousand nodes; the kill comes this much later
_SOURCE = "Python search output"
_SEARCH_STATUSES = (Status.SOLVED, Status.UNSOLVABLE, Status.TIMEOUT, Status.UNKNOWN)  # what the search says


def run_board(board: Board, rules: Rules, max_cards: bool, node_limit: int | None, limits: Limits) -> ProcessRun:
    """The reference search on `board` in a child process, stopping itself at the wall-clock or the
    CPU limit of `limits`; `read_outcome` reads what it found."""
    return _run(("board", board, rules, max_cards, node_limit), limits)


def run_both(deal: Deal, rules: Rules, node_limit: int | None, limits: Limits) -> ProcessRun:
    """The reference's searches from the front and from the back in turn (engine.run_both) on `deal`
    in a child process, stopping themselves as `run_board`'s; `read_both` reads what they found."""
    return _run(("both", deal, rules, node_limit), limits)


def run_lbs(deal: LBSDeal, node_limit: int | None, limits: Limits, max_cards: bool = False) -> ProcessRun:
    """The LBS search on `deal` in a child process (with `max_cards`, also a lost deal's longest play),
    stopping itself as `run_board`'s; `read_search` reads its verdict."""
    return _run(("lbs", deal, node_limit, max_cards), limits)


def run_plain(deal: Deal, node_limit: int | None, limits: Limits) -> ProcessRun:
    """The plain search (patience.plain_search) on `deal` in a child process, stopping itself as
    `run_board`'s; `read_plain` reads what it found."""
    return _run(("plain", deal, node_limit), limits)


def read_outcome(run: ProcessRun) -> Outcome:
    """The outcome a `run_board` child printed (it was not killed); InputError if unreadable."""
    return _outcome(_result(run))


def read_both(run: ProcessRun) -> tuple[Outcome, str, dict[str, int]]:
    """What a `run_both` child printed (it was not killed): the outcome (a win read forwards), the
    direction that ended (`forward` or `backward`) and the nodes of each; InputError if unreadable."""
    result = _result(run)
    route = result.get("route")
    if route not in ("forward", "backward"):
        raise InputError(_SOURCE, None, "unknown direction")
    spent = {name: _field(result, name, int) for name in ("forward_nodes", "backward_nodes")}
    return _outcome(result), route, spent


def read_search(run: ProcessRun) -> Search:
    """The verdict a `run_lbs` child printed (it was not killed); InputError if unreadable."""
    return _search(_result(run))


def _run(task: tuple[Any, ...], limits: Limits) -> ProcessRun:
    """The child runs `task` under what is left of `limits`; its wall clock ends at a deadline set
    here, so that the child's start (its imports, the task's unpickling) comes off it too."""
    limits = limits.left()
    hard = limits.with_grace(GRACE_SECONDS)
    deadline = None if limits.timeout is None else time.monotonic() + limits.timeout  # one clock for all processes
    payload = base64.b64encode(pickle.dumps((*task, deadline, limits.cpu_limit))).decode("ascii")
    return run_process(python_command("-m", "patience.runners.python_search"), hard, env=caller_environment(),
                       stdin_text=payload)


def _result(run: ProcessRun) -> dict[str, Any]:
    lines = run.stdout.splitlines()
    if run.returncode != 0 or not lines:
        detail = (run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[-1]
        raise InputError(_SOURCE, None, f"the search failed: {detail[:200]}")
    try:
        result = json.loads(lines[-1])
    except ValueError:
        raise InputError(_SOURCE, None, "not JSON") from None
    if not isinstance(result, dict):
        raise InputError(_SOURCE, None, "not a JSON object")
    return result


def _field(result: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = result.get(name)
    if isinstance(value, bool) != (kind is bool) or not isinstance(value, kind):
        raise InputError(_SOURCE, None, f"{name} is missing or of the wrong type")
    return value


def _numbers(value: Any, width: int, name: str) -> list[tuple[int, ...]]:
    """A list of `width`-number lists (a card's rank and suit, an LBS move's two piles)."""
    if not isinstance(value, list) or not all(isinstance(item, list) and len(item) == width
                                              and all(type(number) is int for number in item) for item in value):
        raise InputError(_SOURCE, None, f"{name} is not a list of {width}-number lists")
    return [tuple(item) for item in value]


def _optional_ints(result: dict[str, Any], name: str) -> tuple[int, ...] | None:
    value = result.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or not all(type(number) is int for number in value):
        raise InputError(_SOURCE, None, f"{name} is not a list of numbers")
    return tuple(value)


def _outcome(result: dict[str, Any]) -> Outcome:
    word = _field(result, "status", str)
    if word not in _SEARCH_STATUSES:
        raise InputError(_SOURCE, None, f"unknown status {quote(word)}")
    status = Status(word)
    sequence = result.get("sequence")
    cards = None if sequence is None else tuple(Card(rank, suit) for rank, suit in _numbers(sequence, 2, "sequence"))
    return Outcome(status, cards, _field(result, "nodes", int), _field(result, "max_cards", int),
                   _field(result, "cached", int), _optional_ints(result, "foundations"),
                   _optional_ints(result, "piles"), _field(result, "cpu_limited", bool))


def read_plain(run: ProcessRun) -> PlainResult:
    """The result a `run_plain` child printed (it was not killed); InputError if unreadable."""
    result = _result(run)
    sequence = result.get("won")
    won = None if sequence is None else tuple(Card(rank, suit) for rank, suit in _numbers(sequence, 2, "won"))
    direction, limited_by = result.get("direction"), result.get("limited_by")
    if direction not in (None, *DIRECTIONS) or limited_by not in (None, *LIMITS):
        raise InputError(_SOURCE, None, "unknown direction or limit")
    return PlainResult(won, _field(result, "lost", bool), _field(result, "nodes", int), direction, limited_by)


def _search(result: dict[str, Any]) -> Search:
    moves, longest = result.get("moves"), result.get("longest")
    pairs = None if moves is None else tuple((origin, target) for origin, target in _numbers(moves, 2, "moves"))
    play = None if longest is None else tuple((origin, target) for origin, target in _numbers(longest, 2, "longest"))
    return Search(pairs, _field(result, "complete", bool),
                  _field(result, "nodes", int), float(_field(result, "seconds", (int, float))),
                  _field(result, "cpu_limited", bool), play)


def main() -> int:
    """The child: run the pickled task from standard input, print its result as one JSON line."""
    end_with_caller()
    task = pickle.loads(base64.b64decode(sys.stdin.read()))
    *task, deadline, cpu_limit = task
    seconds = None if deadline is None else max(deadline - time.monotonic(), 1e-6)
    cpu_seconds = _cpu_left(cpu_limit)
    result: dict[str, object]
    if task[0] == "board":
        from patience.native import reference

        _, board, rules, max_cards, node_limit = task
        result = _outcome_fields(reference.search(board, rules, max_cards, node_limit, seconds, cpu_seconds))
    elif task[0] == "both":
        from patience.native import engine

        _, deal, rules, node_limit = task
        outcome, route, _, spent = engine.run_both(deal, "python", rules, node_limit, seconds, None, cpu_seconds)
        result = {**_outcome_fields(outcome), "route": route, **spent}
    elif task[0] == "plain":
        from patience import plain_search

        _, deal, node_limit = task
        plain = plain_search.search(deal, node_limit, seconds, cpu_seconds)
        result = {"won": None if plain.won is None else [[card.rank, card.suit] for card in plain.won],
                  "lost": plain.lost, "nodes": plain.nodes, "direction": plain.direction,
                  "limited_by": plain.limited_by}
    else:
        from patience.lbs import solver

        _, deal, node_limit, max_cards = task
        found = (solver.most_moves if max_cards else solver.solve)(deal, seconds, node_limit, cpu_seconds)
        result = {"moves": None if found.moves is None else [list(move) for move in found.moves],
                  "complete": found.complete, "nodes": found.nodes, "seconds": found.seconds,
                  "cpu_limited": found.cpu_limited,
                  "longest": None if found.longest is None else [list(move) for move in found.longest]}
    print(json.dumps(result))
    return 0


def _outcome_fields(outcome: Outcome) -> dict[str, object]:
    """A reference search's outcome as the JSON fields `_outcome` reads back."""
    played = outcome.sequence
    return {"status": outcome.status.value, "nodes": outcome.nodes, "max_cards": outcome.max_cards,
            "cached": outcome.cached,
            "sequence": None if played is None else [[card.rank, card.suit] for card in played],
            "foundations": outcome.foundations, "piles": outcome.piles, "cpu_limited": outcome.cpu_limited}


def _cpu_left(cpu_limit: float | None) -> float | None:
    """The CPU the search may still spend: the runner core counts this process's CPU from its start
    (the imports included), so the search's budget is what is left of the limit, at least a moment
    (the search then stops at its first look at the clock)."""
    return None if cpu_limit is None else max(cpu_limit - time.process_time(), 1e-6)


if __name__ == "__main__":
    sys.exit(main())
