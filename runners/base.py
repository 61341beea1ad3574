"""The contract every solver module fulfils, BenchExec style: say how to find the tool, how to
call it and how to read its verdict. The framework (here and in `solve`) does the rest."""

from __future__ import annotations

import functools
import os
import shutil
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from patience.deal import Deal
from patience.errors import UsageError
from patience.result import Answer, Status
from patience.runners.process import Limits, ProcessRun, run_process

VERSION_SECONDS = 2.0  # a binary that does not answer --version quickly has no version to report


class Solver(ABC):
    """One solver configuration that can decide a deal."""

    name: ClassVar[str]
    paradigm: ClassVar[str]  # native, planning, cp, sat, mip
    description: ClassVar[str]
    options: ClassVar[Mapping[str, str]] = {}  # option name -> what it does and its values

    def available(self) -> bool:
        """Whether the solver can run on this machine."""
        return True

    def version(self) -> str | None:
        return None

    def install_hint(self) -> str:
        """How to get the solver when it is missing."""
        return ""

    @abstractmethod
    def solve(self, deal: Deal, limits: Limits, options: Mapping[str, str]) -> Answer:
        """Run on `deal` within `limits`; return the (untrusted) decoded answer."""

    def refuse_unknown_options(self, options: Mapping[str, str]) -> None:
        """A misspelt option is a usage error, never silently ignored."""
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise UsageError(f"{self.name} has no option {unknown[0]!r}; known: {', '.join(self.options)}")


class ExecutableSolver(Solver):
    """A solver that is one binary, found through an environment variable or on PATH."""

    executables: ClassVar[tuple[str, ...]] = ()  # names to look for, first found wins
    env_var: ClassVar[str | None] = None  # overrides the search when set

    def executable(self) -> str | None:
        return find_executable(self.executables, self.env_var)

    def available(self) -> bool:
        return self.executable() is not None

    def version_line(self) -> str | None:
        """The first line the binary prints for `--version`, if it answers within seconds."""
        executable = self.executable()
        return None if executable is None else first_output_line((executable, "--version"))


@functools.cache
def first_output_line(command: tuple[str, ...]) -> str | None:
    """The first line a quick informational command prints (stdout, else stderr); asked once per
    process, as every run's result records its solver's version."""
    try:
        done = run_process(list(command), Limits(timeout=VERSION_SECONDS))
    except OSError:
        return None
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0] if lines else None


def find_executable(names: tuple[str, ...], env_var: str | None = None) -> str | None:
    """A tool's path: the environment variable first, then PATH, then this Python's bin folder
    (where pip puts the binaries of wheels, even when the venv is not activated)."""
    if env_var and os.environ.get(env_var):
        candidate = os.environ[env_var]
        return candidate if os.access(candidate, os.X_OK) else None
    for name in names:
        found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
        if found:
            return found
    return None


def answer_from_run(run: ProcessRun, status: Status, sequence=None, nodes: int | None = None,
                    stats: Mapping[str, float | int | str] | None = None, message: str = "") -> Answer:
    """Wrap a parsed verdict with the run's times; a kill at a limit overrides the parsed verdict
    unless a complete sequence was already printed (it is validated either way)."""
    if sequence is None and run.memout:
        status = Status.MEMOUT
    elif sequence is None and run.timed_out:
        status = Status.TIMEOUT
    return Answer(status, sequence, run.wall, run.cpu, nodes, dict(stats or {}), run.command_line, message)


def option_flag(options: Mapping[str, str], name: str, default: bool) -> bool:
    """Read an on/off option (`on`, `off`, `true`, `false`, `1`, `0`, `yes`, `no`)."""
    value = options.get(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in ("on", "true", "1", "yes"):
        return True
    if lowered in ("off", "false", "0", "no"):
        return False
    raise UsageError(f"option {name} must be on or off, not {value!r}")
