"""What a solver claims (Answer) and what the project reports after validation (SolverResult).

A runner returns an Answer. Only `judge` turns it into a SolverResult, and a result is SOLVED
only when its card sequence replays: nothing else can make a deal count as solved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from patience.cards import Card
from patience.deal import Deal
from patience.validator import replay, without_start_card


class Status(StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    ERROR = "error"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Answer:
    """A solver's raw claim, decoded into cards but not yet trusted."""

    status: Status
    sequence: tuple[Card, ...] | None = None
    wall: float = 0.0
    cpu: float = 0.0
    nodes: int | None = None
    stats: Mapping[str, float | int | str] = field(default_factory=dict)
    command: str = ""
    message: str = ""


@dataclass(frozen=True)
class SolverResult:
    """The validated outcome of one solver run on one deal."""

    solver: str
    status: Status
    sequence: tuple[Card, ...] | None
    wall: float
    cpu: float
    nodes: int | None = None
    version: str | None = None
    command: str = ""
    message: str = ""
    stats: Mapping[str, float | int | str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.status is Status.SOLVED) != (self.sequence is not None):
            raise ValueError("a result carries a card sequence exactly when it is solved")

    @property
    def decided(self) -> bool:
        return self.status in (Status.SOLVED, Status.UNSOLVABLE)


def judge(deal: Deal, solver: str, answer: Answer, version: str | None = None) -> SolverResult:
    """Validate a solver's answer: a sequence must replay, a win claim needs a sequence."""
    status, sequence, message = answer.status, None, answer.message
    if answer.sequence is not None:
        outcome = replay(deal, answer.sequence)
        if not outcome.valid:
            status, message = Status.ERROR, f"solver answer rejected by the validator: {outcome.fault}"
        elif answer.status not in (Status.SOLVED, Status.UNKNOWN):
            status, message = Status.ERROR, f"solver said {answer.status.value} but gave a winning sequence"
        else:
            status, sequence = Status.SOLVED, without_start_card(deal, answer.sequence)
    elif answer.status is Status.SOLVED:
        status, message = Status.ERROR, "solver claimed a win without a card sequence"
    return SolverResult(solver, status, sequence, answer.wall, answer.cpu, answer.nodes, version,
                        answer.command, message, dict(answer.stats))


def to_record(deal: Deal, result: SolverResult) -> dict[str, object]:
    """A result as plain data (JSON, SQLite): cards by name, start card included."""
    sequence = None
    if result.sequence is not None:
        start = [deal.name(deal.foundation)] if deal.foundation is not None else []
        sequence = start + [deal.name(card) for card in result.sequence]
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
