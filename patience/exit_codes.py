"""Every exit status of the `patience` and `gen` commands, named once (as Fast Downward's
driver/returncodes.py does), and the one map from a run's status to its exit status."""

from __future__ import annotations

from enum import IntEnum

from patience.result import Status


class ExitCode(IntEnum):
    SOLVED = 0  # also: a command that did its job (valid answer, file written)
    UNSOLVABLE = 1  # proven unsolvable; for `validate`, an answer that does not win
    BAD_INPUT = 2  # malformed input or a usage error: one line on stderr, nothing on stdout
    UNDECIDED = 3  # timeout, memout or unknown
    SOLVER_ERROR = 4  # the solver failed, printed unreadable output, or its answer was rejected
    OUTPUT_FAILED = 74  # standard output could not be written (a full disk, /dev/full): EX_IOERR of sysexits.h
    INTERNAL_ERROR = 70  # a bug: an unexpected exception (EX_SOFTWARE of BSD sysexits.h), never read as a verdict
    INTERRUPTED = 130  # Ctrl-C (SIGTERM and SIGHUP give 143 and 129)


INVALID_ANSWER = ExitCode.UNSOLVABLE  # `validate`, `lbs validate`: the answer given does not win
GRADED_WRONG = ExitCode.UNSOLVABLE  # `grade`: some instance was graded wrong
# A solver's answer that does not win (`solve`, `decode model`) is a SOLVER_ERROR: the user's input was fine.

STATUS_EXIT = {
    Status.SOLVED: ExitCode.SOLVED,
    Status.UNSOLVABLE: ExitCode.UNSOLVABLE,
    Status.TIMEOUT: ExitCode.UNDECIDED,
    Status.MEMOUT: ExitCode.UNDECIDED,
    Status.UNKNOWN: ExitCode.UNDECIDED,
    Status.ERROR: ExitCode.SOLVER_ERROR,
}
