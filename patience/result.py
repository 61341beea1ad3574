"""What a solver claims (Answer) and what the project reports after validation (Result).

A runner returns an Answer. Only `judge` turns it into a Result, and a result is SOLVED only when
its move sequence replays under the game's rules: nothing else can make a deal count as solved. The
same path serves every game, and the one Result goes from the runner to the user: `patience solve`
prints it, `patience.solve` returns it, and a campaign's store keeps its record (`Result.to_record`,
with the campaign's keys: patience.campaign.record).

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
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypedDict

from patience.columns import counted
from patience.core import drawn
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
class Result:
    """One solver run on one deal, judged by the validator: nothing is solved unless its moves replay.

    Attributes:
        deal: the deal solved.
        solver: the solver's name.
        status: `solved`, `unsolvable`, `timeout`, `memout`, `error` or `unknown` (a `Status`, a str).
        sequence: the winning moves as the game's move objects; None unless solved.
        wall: wall-clock seconds.
        cpu: CPU seconds.
        nodes: the search's nodes, for solvers that count them.
        version: the engine or version that ran.
        command: the command line that ran the solver, where one ran.
        message: why, for an error.
        stats: the solver's and the model's figures (variables, clauses, ...).
        moves: the winning moves by name (Black Hole: the start card first); None unless solved.
    """

    deal: AnyDeal = field(repr=False)
    solver: str
    status: Status
    sequence: tuple[Move, ...] | None = field(repr=False)
    wall: float
    cpu: float
    nodes: int | None = None
    version: str | None = None
    command: str = ""
    message: str = ""
    stats: Mapping[str, float | int | str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        _check_status(self.status)
        if (self.status is Status.SOLVED) != (self.sequence is not None):
            raise ValueError("a result carries a move sequence exactly when it is solved")
        # A solver's message often quotes its own output: one line, clipped, as `solve` prints it.
        object.__setattr__(self, "message", one_line(self.message))

    @cached_property
    def moves(self) -> tuple[str, ...] | None:
        """The winning moves by name (Black Hole: the start card first); None unless solved."""
        from patience.games import game_of

        return None if self.sequence is None else tuple(game_of(self.deal).move_names(self.deal, self.sequence))

    @property
    def validated(self) -> bool:
        """Whether the moves were replayed and win: true exactly when the status is `solved`."""
        return self.sequence is not None

    @property
    def solved(self) -> bool:
        """Won, and the validator replayed the win."""
        return self.status is Status.SOLVED

    @property
    def unsolvable(self) -> bool:
        """Proved to have no winning play."""
        return self.status is Status.UNSOLVABLE

    @property
    def decided(self) -> bool:
        """A verdict either way (solved or unsolvable), not a limit reached or an error."""
        return self.status.decided

    def __bool__(self) -> bool:
        """True exactly when solved (as CPMpy's and PySAT's `solve()`): `if patience.solve(deal):` asks
        whether the deal was won. An unsolvable deal, a timeout and an error are all false; ask
        `.decided` or `.unsolvable` to tell them apart."""
        return self.solved

    def to_record(self) -> Record:
        """The result as plain data (JSON, SQLite): what `patience solve --json` prints and a campaign's
        store keeps; moves by name (Black Hole: start card included)."""
        return {
            "solver": self.solver,
            "status": self.status.value,
            "sequence": None if self.moves is None else list(self.moves),
            "wall": round(self.wall, 6),
            "cpu": round(self.cpu, 6),
            "nodes": self.nodes,
            "version": self.version,
            "command": self.command,
            "message": self.message,
            "stats": dict(self.stats),
        }

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data (JSON-ready) as the Python API gives it: the game, the moves, the times."""
        from patience.games import game_of

        return {"game": game_of(self.deal).variant(self.deal), "solver": self.solver, "status": self.status.value,
                "moves": None if self.moves is None else list(self.moves), "wall": self.wall, "cpu": self.cpu,
                "nodes": self.nodes, "version": self.version, "message": self.message, "stats": dict(self.stats)}

    def __repr__(self) -> str:
        moves = "" if self.sequence is None else f", {counted(len(self.sequence), 'move')}"
        nodes = "" if self.nodes is None else f", {self.nodes:,} nodes"
        return (f"<Result {self.solver}: {self.status.value}{moves}, wall {self.wall:.3g} s, cpu {self.cpu:.3g} s"
                f"{nodes}{f': {self.message}' if self.message else ''}>")

    def _repr_html_(self) -> str | None:
        """Drawn by the page layer (patience.pages.notebook installs it): the facts and the replay."""
        return drawn(self, Result)


def _check_status(status: object) -> None:
    """A status in memory is a Status, never its name: a runner that passes a string is a bug."""
    if not isinstance(status, Status):
        raise TypeError(f"a status is a patience.result.Status, not {status!r}")


def judge(deal: AnyDeal, solver: str, answer: Answer, version: str | None = None) -> Result:
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
    return Result(deal, solver, status, sequence, answer.wall, answer.cpu, answer.nodes, version, answer.command,
                  message, dict(answer.stats))


class Record(TypedDict):
    """A result as `Result.to_record` writes it."""

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
