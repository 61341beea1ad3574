"""Command-line DIMACS solvers on the paper's CNF, the way the paper ran siege: write the CNF, run
the binary under the runner core's limits, read its verdict, decode the model through the map.

Two output families: the competition format on stdout (CaDiCaL, PicoSAT, CryptoMiniSat, Kissat and
any `sat:/path/to/binary`), and MiniSat's result file. UNSAT is believed only from a solver that
prints it; a run killed at a limit is a timeout or memout whatever it printed.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.errors import InputError
from patience.generators.cnf import black_hole as cnf
from patience.generators.files import ModelFiles
from patience.options import Schema
from patience.reading import read_output
from patience.result import Answer, Status
from patience.runners.base import (
    VERSION_SECONDS,
    ExecutableSolver,
    ProcessSolver,
    answer_from_run,
    find_executable,
    modelled_games,
)
from patience.runners.dimacs_output import SATISFIABLE, UNSATISFIABLE, SatVerdict, read_competition, read_minisat_result
from patience.runs.process import Limits, ProcessRun, run_process

RESULT_FILE = "result.txt"
DEBIAN_HINT = "apt-get install {package}"


@functools.cache
def debian_package_version(package: str) -> str | None:
    """dpkg's version of an installed package; asked once per process (every result records it)."""
    try:
        done = run_process(["dpkg-query", "-W", "-f=${Version}", package], Limits(timeout=VERSION_SECONDS))
    except OSError:
        return None
    if done.returncode != 0 or not done.stdout.strip():
        return None
    return done.stdout.strip()


class CommandLineSat(ProcessSolver, ExecutableSolver):
    """A DIMACS solver binary printing the competition format."""

    paradigm = "sat"
    language = "cnf"
    games = modelled_games("cnf")
    options: ClassVar[Schema] = cnf.OPTIONS
    package: ClassVar[str] = ""
    # with these options before the CNF and a file after it, the binary writes a DRAT proof of UNSAT there,
    # as text (patience.sat_proof); None: it writes none that is read
    proof_options: ClassVar[tuple[str, ...] | None] = None

    def install_hint(self) -> str:
        return DEBIAN_HINT.format(package=self.package)

    def version(self) -> str | None:
        line = self.version_line()
        own = line.removeprefix("c ").strip()[:80] if line else None
        debian = self.debian_version()
        if own and debian:
            return f"{own} (Debian {debian})"
        return own or (f"Debian {debian}" if debian else None)

    def debian_version(self) -> str | None:
        """The Debian package's version when the binary is the package's own: some binaries say
        little of themselves (CaDiCaL 1.5.3 says `sc2021`, MiniSat has no --version)."""
        executable = self.executable()
        if not self.package or executable is None or not executable.startswith("/usr/bin/"):
            return None
        return debian_package_version(self.package)

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return [self.executable() or self.name, model.primary]

    def verdict(self, run: ProcessRun, folder: Path) -> SatVerdict:
        return read_competition(run.stdout, f"{self.name} output")

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        verdict = self.verdict(run, folder)
        if verdict.status == SATISFIABLE:
            return answer_from_run(run, Status.SOLVED, model.decode(verdict.true_variables), stats=verdict.stats)
        if verdict.status == UNSATISFIABLE and not (run.timed_out or run.memout):
            return answer_from_run(run, Status.UNSOLVABLE, stats=verdict.stats)
        return answer_from_run(run, Status.UNKNOWN, stats=verdict.stats, message=run.stderr.strip()[-200:])


class Cadical(CommandLineSat):
    name = "cadical"
    description = "the paper's CNF, the cadical binary (Debian package cadical)"
    executables = ("cadical",)
    package = "cadical"
    proof_options = ("-q", "--no-binary")


class Picosat(CommandLineSat):
    name = "picosat"
    description = "the paper's CNF, the picosat binary (Debian package picosat)"
    executables = ("picosat",)
    package = "picosat"

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return [self.executable() or "picosat", "-v", model.primary]


class CryptoMiniSat(CommandLineSat):
    name = "cryptominisat"
    description = "the paper's CNF, the cryptominisat5 binary (Debian package cryptominisat)"
    executables = ("cryptominisat5",)
    package = "cryptominisat"

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return [self.executable() or "cryptominisat5", "--threads", "1", model.primary]


class Minisat(CommandLineSat):
    """MiniSat prints no `v` lines: its model goes to a result file named after the CNF."""

    name = "minisat"
    description = "the paper's CNF, the minisat binary (Debian package minisat); model read from its result file"
    executables = ("minisat",)
    package = "minisat"

    def version(self) -> str | None:
        debian = self.debian_version()  # MiniSat has no --version
        if debian:
            return f"Debian {debian}"
        return "minisat" if self.available() else None

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        return [self.executable() or "minisat", "-verb=1", model.primary, RESULT_FILE]

    def verdict(self, run: ProcessRun, folder: Path) -> SatVerdict:
        result = folder / RESULT_FILE
        if not result.is_file() and not (run.out_of_time or run.memout):
            raise InputError(f"{self.name} output", None, f"no result file (exit {run.returncode})")
        text = read_output(result) if result.is_file() else ""
        return read_minisat_result(text, f"{self.name} result file", run.stdout)


class AnySat(CommandLineSat):
    """`sat:/path/to/binary`: any solver that reads a DIMACS file and prints the competition format."""

    description = "any competition-format DIMACS solver binary, named as sat:/path/to/binary"
    package = ""

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = f"sat:{path}"

    def executable(self) -> str | None:
        return find_executable((self.path,))

    def install_hint(self) -> str:
        return f"{self.path} is not an executable file"
