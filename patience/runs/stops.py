"""A long run (a campaign, a survey) stopped by Ctrl-C, SIGTERM or SIGHUP keeps what finished; this
says how much, and the exact command that resumes it, so that a stop costs the reader nothing to plan.

`keeping` turns the stop into `Interrupted` (Ctrl-C, still a KeyboardInterrupt) or `Ended` (SIGTERM
and SIGHUP, still a SystemExit with status 128 + the signal) carrying the counts; the command prints
`said(...)` and ends with `stop.status`.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from patience.arguments import RecordingParser
from patience.exit_codes import ExitCode


@dataclass(frozen=True)
class Kept:
    """What a stopped run left in its store: items stored (in all, of those wanted) and new in this run."""

    stored: int
    wanted: int
    new: int


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped the run; the items that finished, `new` of them in this run, are stored."""

    status = ExitCode.INTERRUPTED

    def __init__(self, new: int, kept: Kept | None = None) -> None:
        super().__init__(new)
        self.new = new
        self.kept = kept or Kept(new, new, new)


class Ended(SystemExit):
    """SIGTERM or SIGHUP stopped the run (SystemExit with 128 + the signal's number), its finished items stored."""

    def __init__(self, status: int, kept: Kept) -> None:
        super().__init__(status)
        self.status = status
        self.new = kept.new
        self.kept = kept


STOPPED = (Interrupted, Ended)
_SIGNALLED = {128 + number: number.name for number in (signal.SIGTERM, signal.SIGHUP)}


@contextlib.contextmanager
def keeping(counts: Callable[[], Kept]) -> Iterator[None]:
    """Within the block a stop of this process raises Interrupted or Ended with `counts()` as it stands."""
    try:
        yield
    except STOPPED:
        raise
    except KeyboardInterrupt:
        kept = counts()
        raise Interrupted(kept.new, kept) from None
    except SystemExit as stop:
        if stop.code not in _SIGNALLED:
            raise
        raise Ended(int(stop.code), counts()) from None


def said(stop: Interrupted | Ended, what: str, where: str, command: str) -> str:
    """The one line a stopped run ends with: `interrupted: 37 of 200 runs stored in c.db (12 new); to
    resume, run: patience compare ...` (`stopped by SIGTERM: ...` for a signal)."""
    kept = stop.kept
    how = "interrupted" if isinstance(stop, Interrupted) else f"stopped by {_SIGNALLED.get(stop.status, 'a signal')}"
    return (f"{how}: {kept.stored:,} of {kept.wanted:,} {what} stored in {where} ({kept.new:,} new); "
            f"to resume, run: {command}")


def tell(line: str) -> None:
    """Print the line on stderr; after SIGHUP the terminal may be gone, and that is no reason to fail."""
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def command_line(parser: RecordingParser, args: argparse.Namespace, leave_out: Iterable[str] = ()) -> str:
    """The command that `args` were parsed from, as a shell reads it: `parser.prog`, then each
    positional and each option whose value is not its default (`leave_out`: options not to repeat)."""
    left = set(leave_out)
    words = parser.prog.split()
    for added in parser.added:
        action = added.action
        value = getattr(args, action.dest, action.default)
        if action.dest in left or added.kind in ("help", "version"):
            continue
        if not action.option_strings:
            if value is not None:
                words.append(str(value))
            continue
        if value == action.default or value is argparse.SUPPRESS:
            continue
        flag = max(action.option_strings, key=len)
        if added.kind in ("store_true", "store_false"):
            words.append(flag)
        elif added.kind == "store_const":
            if value == action.const:
                words.append(flag)
        elif added.kind == "append":
            for item in value[len(action.default or []):]:
                words += [flag, str(item)]
        else:
            words += [flag, str(value)]
    return shlex.join(words)
