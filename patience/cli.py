"""The `patience` command (and `gen`, its shortcut for `patience gen`).

Each subcommand lives in its own module under patience/commands with a `register(subparsers)`
function. Bad input ends in one line `error: FILE:LINE: what`, exit status 2, nothing on stdout;
an unexpected exception (a bug) in one line `internal error: ...`, exit status 70, so that a
crash is never read as a verdict (1 means unsolvable or invalid). `--debug` or PATIENCE_DEBUG=1
shows its traceback.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import importlib
import io
import os
import sys
import traceback
import warnings
from typing import NoReturn

from patience import __version__
from patience.arguments import RecordingParser
from patience.errors import InputError, UsageError, clip_words, escape_unencodable, one_line, shown_name
from patience.exit_codes import ExitCode
from patience.runs.process import stop_signals_unwind

COMMANDS = ("deal", "convert", "validate", "solvers", "solve", "gen", "compare", "report", "grade", "coursework",
            "reduce", "decode", "lbs", "show", "survey", "examples", "check")
DEBUG_VARIABLE = "PATIENCE_DEBUG"
ESCAPE_HANDLER = "patience-names"  # the codec error handler of standard output and error
_MESSAGE_LIMIT = 300  # characters of an exception's message kept on the one line


class OneLineParser(RecordingParser):
    """argparse with its usage errors as one line `error: ...` and exit status 2 (`-h` shows usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(ExitCode.BAD_INPUT, f"error: {one_line(clip_words(message))}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """`patience`'s parser with every command, or with `command` alone: then only its module is
    imported, and a command starts in about half the time (0.2 s of CPU, not 0.45)."""
    parser = OneLineParser(prog="patience", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"patience-models {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in (command,) if command in COMMANDS else COMMANDS:
        importlib.import_module(f"patience.commands.{name}").register(subparsers)
    _add_debug(parser)
    return parser


def named_command(arguments: list[str]) -> str | None:
    """The command the arguments name (their first word that is no option; `patience` has no option
    that takes a value), or None: no command, or a word that is none (help and usage errors need the
    parser with every command)."""
    word = next((argument for argument in arguments if not argument.startswith("-")), None)
    return word if word in COMMANDS else None


def _add_debug(parser: argparse.ArgumentParser) -> None:
    """`--debug` on every parser of the tree, so that it may stand before or after any subcommand."""
    parser.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help=f"show the traceback of an internal error (also: {DEBUG_VARIABLE}=1)")
    for subparser in parser.subcommands if isinstance(parser, RecordingParser) else ():
        _add_debug(subparser)


def _warning_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  line: str | None = None) -> str:
    """A warning as the command's other messages are: one line, no source file or code."""
    return f"warning: {one_line(str(message))}\n"


def main(argv: list[str] | None = None, parser: argparse.ArgumentParser | None = None) -> int:
    """Run one command; `parser` stands in for `patience`'s own (plain `gen` has one of its own)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = None
    warnings.formatwarning = _warning_line  # before the command's modules are imported: theirs are one line too
    _escape_unencodable_names()
    output = sys.stdout
    try:
        sys.stdout = output if output is None else _GuardedOutput(output)  # None: started with stdout closed
        try:
            args = _parsed(parser or build_parser(named_command(arguments)), arguments)
            with stop_signals_unwind():  # SIGTERM and SIGHUP end the command as Ctrl-C does: every `finally` runs
                code = args.handler(args)
            if sys.stdout is not None:
                sys.stdout.flush()  # a full disk shows here, not in Python's own flush at exit
            return code
        finally:
            sys.stdout = output
    except OutputFailed as error:
        _discard_output(output)
        print(f"error: cannot write standard output: {error}", file=sys.stderr)
        return ExitCode.OUTPUT_FAILED
    except (InputError, UsageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except KeyboardInterrupt:  # the runner core has already killed the solver's process group
        print("interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:  # `patience ... | head` closed the pipe early: the reader has what it wanted
        _discard_output(output)
        return ExitCode.SOLVED
    except MemoryError:  # solvers run in child processes: here only reading input allocates without bound
        _traceback_if_debugging(args, arguments)
        print("error: out of memory: the input is too large for the memory available", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except OSError as error:
        if error.filename is None:
            return _internal_error(error, args, arguments)
        _traceback_if_debugging(args, arguments)
        print(f"error: {one_line(shown_name(str(error.filename)) + ': ' + (error.strerror or str(error)))}",
              file=sys.stderr)
        return ExitCode.BAD_INPUT
    except Exception as error:  # the one place every unforeseen exception ends
        return _internal_error(error, args, arguments)


def _escape_unencodable_names() -> None:
    """Standard output and error print a file name's unreadable bytes (a Latin-1 name from a zip) as
    `\\xNN` instead of ending the command with a UnicodeEncodeError (errors.escape_unencodable)."""
    codecs.register_error(ESCAPE_HANDLER, escape_unencodable)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):  # not None (started closed), nor another stream put in its place
            with contextlib.suppress(ValueError, io.UnsupportedOperation):
                stream.reconfigure(errors=ESCAPE_HANDLER)


def _parsed(parser: argparse.ArgumentParser, arguments: list[str]) -> argparse.Namespace:
    """The parsed arguments; after `--help` or `--version` (argparse's exit 0) standard output is
    flushed first, so that a full disk ends in OutputFailed (status 74), not in a silent 0."""
    try:
        return parser.parse_args(arguments)
    except SystemExit as done:
        if done.code in (0, None) and sys.stdout is not None:
            sys.stdout.flush()
        raise


class OutputFailed(Exception):
    """Writing standard output failed (not a closed pipe): the message is the system's reason."""


class _GuardedOutput:
    """Standard output whose failed writes say so (OutputFailed), so that `> /dev/full` is told
    apart from any other OSError; everything else is the stream's own."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._guarded(self._stream.write, text)

    def flush(self) -> None:
        self._guarded(self._stream.flush)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)

    @staticmethod
    def _guarded(action, *arguments):
        try:
            return action(*arguments)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputFailed(error.strerror or str(error)) from None


def _discard_output(stream) -> None:
    """Point standard output at /dev/null, so that Python's flush at exit finds nowhere to fail (it
    would print `Exception ignored ...` and change the exit status)."""
    try:
        descriptor = os.open(os.devnull, os.O_WRONLY)
        os.dup2(descriptor, stream.fileno())
        os.close(descriptor)
    except (OSError, ValueError, AttributeError):  # not a real file (pytest's capture, a StringIO)
        pass


def _internal_error(error: BaseException, args: argparse.Namespace | None, arguments: list[str]) -> int:
    """One line (and the traceback when debugging) for a bug; its own exit status."""
    _traceback_if_debugging(args, arguments)
    message = " ".join(str(error).split())
    if len(message) > _MESSAGE_LIMIT:
        message = message[:_MESSAGE_LIMIT] + "..."
    hint = "" if debugging(args, arguments) else " (--debug shows the traceback)"
    print(f"internal error: {type(error).__name__}: {message}{hint}", file=sys.stderr)
    return ExitCode.INTERNAL_ERROR


def debugging(args: argparse.Namespace | None, arguments: list[str]) -> bool:
    """--debug was given (or, if parsing never finished, appears among the arguments), or PATIENCE_DEBUG=1."""
    if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
        return True
    return getattr(args, "debug", False) if args is not None else "--debug" in arguments


def _traceback_if_debugging(args: argparse.Namespace | None, arguments: list[str]) -> None:
    if debugging(args, arguments):
        traceback.print_exc(file=sys.stderr)


def gen_main(argv: list[str] | None = None) -> int:
    """`gen`, under its own name, so that its usage says `gen`."""
    from patience.commands import gen

    parser = OneLineParser(prog="gen", description=gen.DESCRIPTION)
    gen.add_formats(parser)
    _add_debug(parser)
    return main(argv, parser)
