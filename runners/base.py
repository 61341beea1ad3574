"""The contract every solver module fulfils, BenchExec style: say how to find the tool, which
options it takes, how to build its model, how to call it and how to read its verdict. The
framework (here and in `solve`) does the rest: option checks, the private folder, limits, and
turning unreadable output into an error."""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from patience.errors import InputError
from patience.games import AnyDeal, game_of
from patience.generators import MODEL_LANGUAGES, generator
from patience.generators.files import Generator, ModelFiles
from patience.names import BLACK_HOLE_FAMILY, GAMES, family_of
from patience.options import Schema, option_keywords
from patience.result import Answer, Status
from patience.runs.process import Limits, ProcessRun, run_process

VERSION_SECONDS = 2.0  # a binary that does not answer --version quickly has no version to report


class Solver(ABC):
    """One solver configuration that can decide deals of the games it names."""

    name: str  # a class attribute; `sat:PATH` solvers set theirs per instance
    paradigm: ClassVar[str]  # native, planning, cp, sat, mip, asp
    description: ClassVar[str]
    options: ClassVar[Schema] = ()
    games: ClassVar[tuple[str, ...]] = BLACK_HOLE_FAMILY  # names of patience.names

    def available(self) -> bool:
        """Whether the solver can run on this machine."""
        return True

    def version(self) -> str | None:
        return None

    def version_of(self, answer: Answer) -> str | None:
        """The version that produced `answer` (a solver with several engines names the one that ran)."""
        return self.version()

    def install_hint(self) -> str:
        """How to get the solver when it is missing."""
        return ""

    @abstractmethod
    def solve(self, deal: AnyDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
        """Run on `deal` within `limits` with checked, typed `options`; return the (untrusted)
        answer decoded into the game's moves. Unreadable solver output raises InputError. Limits
        that count (`Limits.counting`) have the time spent before the solver starts come off them:
        what the solver is told and held to is `limits.left()` at its start."""


class ProcessSolver(Solver):
    """The template of every solver that is a process: build the model files, write them into a
    private folder, run the command there under the runner core's limits, read the verdict. A kill
    at a limit becomes TIMEOUT or MEMOUT; output the reader cannot make sense of becomes ERROR."""

    language: ClassVar[str]  # the model language it reads (a key of generators.MODEL_LANGUAGES)
    grace: ClassVar[float] = 0.0  # seconds between the limit a solver keeps itself and the hard kill
    address_space_limit: ClassVar[bool] = True  # RLIMIT_AS may hold its memory limit where no cgroup can;
    # False for a JVM (its reserved heap would trip it) or a solver of many threads' arenas: sampled then
    beside: ClassVar[Mapping[str, str]] = {}  # files written beside the model's, by their path in its folder
    # (the files a student's model includes), never named on the command line

    def build(self, deal: AnyDeal, options: Mapping[str, Any]) -> ModelFiles:
        """The model files of `deal` and their decode map, from the game's generator of the language."""
        return build_model(self.language, deal, options)

    @abstractmethod
    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        """The command line, run in the folder holding the model's files."""

    @abstractmethod
    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        """The answer the run's output (and the files it left in `folder`) gives; InputError if unreadable."""

    def run_limits(self, limits: Limits) -> Limits:
        """The limits the runner core enforces: the given ones, `grace` seconds later for a solver that
        stops itself at them (it is told the limit on its command line)."""
        return limits.with_grace(self.grace)

    def environment(self, options: Mapping[str, Any]) -> Mapping[str, str] | None:
        """Variables added to the solver's environment (None: this process's environment)."""
        return None

    def confine(self, command: list[str], folder: Path) -> list[str]:
        """The command as it runs in its private `folder` (a student's model: in a sandbox)."""
        return command

    def solve(self, deal: AnyDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
        model = self.build(deal, options)
        reached = limits.reached()
        if reached:  # writing the model took all the time the limits give
            return Answer(Status.TIMEOUT, None, *limits.spent(), None, dict(model.stats),
                          message=f"{reached} before the solver started")
        limits = limits.left()  # the solver is told, and held to, what the model left of the limits
        with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
            folder = Path(scratch)
            write_scratch(folder, {**self.beside, **model.files})
            run = run_process(self.confine(self.command(model, limits, options), folder), self.run_limits(limits),
                              cwd=folder, env=self.environment(options), address_space=self.address_space_limit)
            try:
                answer = self.read_verdict(run, folder, model, options)
            except InputError as error:
                status = Status.UNKNOWN if run.out_of_time or run.memout else Status.ERROR
                answer = answer_from_run(run, status, message=f"unreadable solver output: {error}")
        return replace(answer, stats={**model.stats, **answer.stats, "limits": run.enforcement})


def write_scratch(folder: Path, files: Mapping[str, str]) -> None:
    """Files into a private folder, by their paths in it (a student's helper may sit in a subfolder)."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def modelled_games(language: str) -> tuple[str, ...]:
    """Every game whose family has a model in `language`: the games a solver reading that language
    plays, found from the model modules (a game's new model needs no line in any solver)."""
    return tuple(game for game in GAMES if family_of(game) in MODEL_LANGUAGES[language])


def build_model(language: str, deal: AnyDeal, options: Mapping[str, Any]) -> ModelFiles:
    """The game's model in `language`, given the solver options its generator declares."""
    module = generator(language, game_of(deal).name)
    return module.build(deal, **generator_keywords(module, options))


def generator_keywords(module: Generator[Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The solver options a generator declares, as its keyword arguments."""
    own = {option.name for option in module.OPTIONS}
    return option_keywords({name: value for name, value in options.items() if name in own})


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
    unless a complete sequence was already printed (it is validated either way), and a failure at the
    CPU limit (`ProcessRun.out_of_time`) is a timeout where the run gave no verdict."""
    no_verdict = status in (Status.UNKNOWN, Status.ERROR)
    if sequence is None and run.memout:
        status = Status.MEMOUT
    elif sequence is None and (run.timed_out or (run.failed_near_cpu_limit and no_verdict)):
        status = Status.TIMEOUT
    return Answer(status, sequence, run.wall, run.cpu, nodes, dict(stats or {}), run.command_line, message)
