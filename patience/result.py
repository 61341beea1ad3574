"""What a solver claims (Answer) and what the project reports after validation (SolverResult).

A runner returns an Answer. Only `judge` turns it into a SolverResult, and a result is SOLVED
only when its move sequence replays under the game's rules: nothing else can make a deal count
as solved. The same path serves every game.

`Status` is the one status vocabulary, carried in memory from the solvers, the native search, the
survey, the families' labels and the campaign; only the stores convert it (the survey keeps
integers, the campaign the status names). When a run ends without a verdict, one rule names why:

- the clock (a wall-clock or CPU time limit, the solver's own or the kill at it): `timeout`;
- memory (the kill at the memory limit, or a solver that says it ran out): `memout`;
- any other budget (nodes, conflicts, restarts) or a solver that gives up without saying why: `unknown`.

So CP-SAT's UNKNOWN after its time limit is a timeout, the native search's node limit is unknown,
and a survey's undecided deal (its store keeps one mark for a node or a time budget) is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, TypedDict

from patience.errors import one_line

if TYPE_CHECKING:
    from patience.games import AnyDeal, Move


class Status(StrEnum):
    """What became of one run; the module's docstring gives the rule for a limit reached."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"  # the clock
    MEMOUT = "memout"  # memory
    ERROR = "error"
    UNKNOWN = "unknown"  # any other budget, or no verdict and no reason

    @property
    def decided(self) -> bool:
        """A verdict: solved, or proved unsolvable."""
        return self in DECIDED


DECIDED = (Status.SOLVED, Status.UNSOLVABLE)
LIMITED = (Status.TIMEOUT, Status.MEMOUT, Status.UNKNOWN)  # a limit reached, by the rule above


@dataclass(frozen=True)
class Answer:
    """A solver's raw claim, decoded into the game's moves but not yet trusted."""

    status: Status
    sequence: tuple[Move, ...] | None = None
    wall: float = 0.0
    cpu: float = 0.0
    nodes: int | None = None
    stats: Mapping[str, float | int | str] = field(default_factory=dict)
    command: str = ""
    message: str = ""

    def __post_init__(self) -> None:
        _check_status(self.status)


@dataclass(frozen=True)
class SolverResult:
    """The validated outcome of one solver run on one deal."""

    solver: str
    status: Status
    sequence: tuple[Move, ...] | None
    wall: float
    cpu: float
    nodes: int | None = None
    version: str | None = None
    command: str = ""
    message: str = ""
    stats: Mapping[str, float | int | str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_status(self.status)
        if (self.status is Status.SOLVED) != (self.sequence is not None):
            raise ValueError("a result carries a move sequence exactly when it is solved")
        # A solver's message often quotes its own output: one line, clipped, as `solve` prints it.
        object.__setattr__(self, "message", one_line(self.message))

    @property
    def decided(self) -> bool:
        return self.status.decided


def _check_status(status: object) -> None:
    """A status in memory is a Status, never its name: a runner that passes a string is a bug."""
    if not isinstance(status, Status):
        raise TypeError(f"a status is a patience.result.Status, not {status!r}")


def judge(deal: AnyDeal, solver: str, answer: Answer, version: str | None = None) -> SolverResult:
    """Validate a solver's answer under the deal's game: a sequence must replay, a win claim needs one."""
    from patience.games import game_of

    game = game_of(deal)
    status, sequence, message = answer.status, None, answer.message
    if answer.sequence is not None:
        outcome = game.replay(deal, answer.sequence)
        if not outcome.valid:
            status, message = Status.ERROR, f"solver answer rejected by the validator: {outcome.fault}"
        elif answer.status not in (Status.SOLVED, Status.UNKNOWN):
            status, message = Status.ERROR, f"solver said {answer.status.value} but gave a winning sequence"
        else:
            status, sequence = Status.SOLVED, game.canonical(deal, answer.sequence)
    elif answer.status is Status.SOLVED:
        status, message = Status.ERROR, "solver claimed a win without a move sequence"
    return SolverResult(solver, status, sequence, answer.wall, answer.cpu, answer.nodes, version,
                        answer.command, message, dict(answer.stats))


class Record(TypedDict):
    """A result as `to_record` writes it."""

    solver: str
    status: str
    sequence: list[str] | None
    wall: float
    cpu: float
    nodes: int | None
    version: str | None
    command: str
    message: str
    stats: dict[str, float | int | str]


def to_record(deal: AnyDeal, result: SolverResult) -> Record:
    """A result as plain data (JSON, SQLite): moves by name (Black Hole: start card included)."""
    from patience.games import game_of

    sequence = None if result.sequence is None else game_of(deal).move_names(deal, result.sequence)
    return {
        "solver": result.solver,
        "status": result.status.value,
        "sequence": sequence,
        "wall": round(result.wall, 6),
        "cpu": round(result.cpu, 6),
        "nodes": result.nodes,
        "version": result.version,
        "command": result.command,
        "message": result.message,
        "stats": dict(result.stats),
    }
