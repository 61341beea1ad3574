"""The SAT solvers compiled into PySAT (CaDiCaL, Glucose, MiniSat, ...) on the paper's CNF.

PySAT's CaDiCaL cannot be interrupted, so every embedded solve runs in a forked child process
that is killed at the wall-clock limit, ended by the kernel at the CPU limit (RLIMIT_CPU), killed
too when this process is stopped (Ctrl-C, SIGTERM, SIGHUP), and has its address space capped at
the memory limit;
the child sends back the verdict, the model's true variables and the solver's counters.
"""

from __future__ import annotations

import faulthandler
import math
import multiprocessing
import os
import resource
import signal
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, NoReturn, cast

from pysat.formula import CNF
from pysat.solvers import Solver as PySatSolver

from patience.deal import Deal
from patience.games import AnyDeal, deal_as, game_of
from patience.generators import generator
from patience.generators.cnf import black_hole as cnf
from patience.generators.files import FormulaGenerator
from patience.generators.successor import black_hole as successor
from patience.names import BLACK_HOLE_FAMILY
from patience.options import Schema
from patience.result import Answer, Status
from patience.runners.base import Solver, generator_keywords, modelled_games
from patience.runs.process import STOP_SIGNALS, Limits, stop_signals_unwind, stops_deferred

# our name -> PySAT's name
ENGINES = {
    "cadical": "cadical195",
    "glucose": "glucose4",
    "minisat": "minisat22",
    "maplesat": "maplesat",
    "lingeling": "lingeling",
}


class EmbeddedSat(Solver):
    """One PySAT engine; `sat` is CaDiCaL, the project's default SAT solver."""

    paradigm = "sat"
    language: ClassVar[str] = "cnf"  # the model it builds, in memory
    games: ClassVar[tuple[str, ...]] = modelled_games("cnf")
    options: ClassVar[Schema] = cnf.OPTIONS
    engine: ClassVar[str] = "cadical"
    model: ClassVar[str] = "cnf"  # the `gen` language whose formula it solves
    proof: ClassVar[bool] = True  # the engine logs a DRAT proof of UNSAT (PySAT's with_proof; patience.sat_proof)

    def version(self) -> str | None:
        from pysat import __version__
        return f"{ENGINES[self.engine]} (python-sat {__version__})"

    def encode(self, deal: AnyDeal, options: Mapping[str, Any]) -> Any:
        """The formula of `deal` (with its `decode`, and a `refine` if it adds clauses lazily)."""
        module = cast(FormulaGenerator[Any], generator(self.model, game_of(deal).name))
        return module.formula(deal, **generator_keywords(module, options))

    def solve(self, deal: AnyDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
        started = time.monotonic()
        encoding = self.encode(deal, options)
        encode_seconds = time.monotonic() - started
        reached = limits.reached()
        if reached:  # the encoding took all the time the limits give
            return Answer(Status.TIMEOUT, None, *limits.spent(), None, {"encode_s": round(encode_seconds, 3)},
                          message=f"{reached} before the solver started")
        outcome = run_engine(ENGINES[self.engine], encoding.cnf, limits.left(), getattr(encoding, "refine", None))
        stats = {"variables": encoding.cnf.nv, "clauses": len(encoding.cnf.clauses),
                 "encode_s": round(encode_seconds, 3), **outcome.get("stats", {})}
        wall = time.monotonic() - started
        cpu = encode_seconds + outcome.get("cpu", 0.0)
        command = f"pysat {ENGINES[self.engine]} on gen {self.model}"
        verdict = outcome["verdict"]
        if verdict is True:
            return Answer(Status.SOLVED, encoding.decode(set(outcome["true"])), wall, cpu, None, stats, command)
        if verdict is False:
            return Answer(Status.UNSOLVABLE, None, wall, cpu, None, stats, command)
        status = {"timeout": Status.TIMEOUT, "memout": Status.MEMOUT}.get(verdict, Status.ERROR)
        return Answer(status, None, wall, cpu, None, stats, command, outcome.get("message", ""))


Refine = Callable[[set[int]], list[list[int]]]


def run_engine(engine: str, formula: CNF, limits: Limits, refine: Refine | None = None, proof: bool = False) -> dict:
    """Solve in a forked child under the limits: verdict True/False, or timeout/memout/error; with
    `proof`, a refutation comes with the engine's DRAT proof (its lines, under "proof").
    `refine`, given a model's true variables, returns clauses that cut it off (none: the model
    stands); the child adds them and solves again, the solver kept warm, until a model stands or
    the formula is refuted.

    The child is forked with os.fork, not multiprocessing.Process, which refuses children to a
    daemonic process, and a Dask worker process (`compare --scheduler`) is one."""
    receiver, sender = multiprocessing.Pipe(duplex=False)
    child = None
    with stop_signals_unwind():
        try:
            with stops_deferred():
                child = os.fork()
                if child == 0:
                    _child_process(engine, formula, limits, receiver, sender, refine, proof)
            sender.close()
            if receiver.poll(limits.timeout):
                try:
                    return receiver.recv()
                except EOFError:
                    exit_code = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
                    child = None
                    if exit_code in (-signal.SIGXCPU, -signal.SIGKILL) and limits.cpu_limit is not None:
                        return {"verdict": "timeout", "cpu": limits.cpu_limit, "message": "CPU time limit reached"}
                    return {"verdict": "memout" if limits.memory_mb else "error",
                            "message": "the solver process died without an answer"}
            return {"verdict": "timeout", "cpu": limits.cpu_limit or 0.0, "message": "time limit reached"}
        finally:
            if child is not None:
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)
            sender.close()
            receiver.close()


def _child_process(engine: str, formula: CNF, limits: Limits, receiver, sender, refine: Refine | None,
                   proof: bool) -> NoReturn:
    """The forked child: solve, send the outcome, and end without running the parent's exit handlers."""
    status = 1
    try:
        receiver.close()
        _child(engine, formula, limits, sender, refine, proof)
        status = 0
    finally:
        os._exit(status)


def _child(engine: str, formula: CNF, limits: Limits, sender, refine: Refine | None, proof: bool) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the parent too, which kills this child
    faulthandler.disable()  # a solver that aborts at the memory limit is a memout, not a crash to dump stacks of
    for number in STOP_SIGNALS:  # the parent's unwinding handlers are not the solver's: it just dies
        signal.signal(number, signal.SIG_DFL)
    if limits.memory_mb:
        cap = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    if limits.cpu_limit is not None:
        used = resource.getrusage(resource.RUSAGE_SELF)
        seconds = math.ceil(used.ru_utime + used.ru_stime + limits.cpu_limit)
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    started = time.process_time()
    try:
        with PySatSolver(name=engine, bootstrap_with=formula.clauses, with_proof=proof) as solver:
            verdict, rounds = solver.solve(), 0
            while verdict and refine is not None:
                cuts = refine({literal for literal in solver.get_model() if literal > 0})
                if not cuts:
                    break
                solver.append_formula(cuts)
                rounds += 1
                verdict = solver.solve()
            model = solver.get_model() if verdict else None
            stats = solver.accum_stats() | ({"refinements": rounds} if refine is not None else {})
            lines = solver.get_proof() if proof and verdict is False else None
        true = [literal for literal in model or () if literal > 0]
        sender.send({"verdict": verdict, "true": true, "stats": stats, "cpu": time.process_time() - started,
                     **({"proof": lines} if lines is not None else {})})
    except MemoryError:
        sender.send({"verdict": "memout", "cpu": time.process_time() - started, "message": "memory limit reached"})
    sender.close()


class EmbeddedCadical(EmbeddedSat):
    name = "sat"
    engine = "cadical"
    description = "the paper's CNF, CaDiCaL 1.9.5 inside PySAT (the default SAT solver)"


class EmbeddedGlucose(EmbeddedSat):
    name = "sat-glucose"
    engine = "glucose"
    description = "the paper's CNF, Glucose 4 inside PySAT"


class EmbeddedMinisat(EmbeddedSat):
    name = "sat-minisat"
    engine = "minisat"
    proof = False  # PySAT's MiniSat logs none
    description = "the paper's CNF, MiniSat 2.2 inside PySAT"


class EmbeddedMaplesat(EmbeddedSat):
    name = "sat-maplesat"
    engine = "maplesat"
    description = "the paper's CNF, MapleCOMSPS inside PySAT"


class EmbeddedLingeling(EmbeddedSat):
    name = "sat-lingeling"
    engine = "lingeling"
    description = "the paper's CNF, Lingeling inside PySAT"


class EmbeddedSuccessor(EmbeddedSat):
    name = "sat-successor"
    engine = "cadical"
    model = "successor"
    games = BLACK_HOLE_FAMILY
    options: ClassVar[Schema] = successor.OPTIONS
    description = "the successor CNF (a card's predecessor, its place in binary), CaDiCaL 1.9.5 inside PySAT"


class EmbeddedLazy(EmbeddedSat):
    name = "sat-lazy"
    engine = "cadical"
    model = "successor"
    games = BLACK_HOLE_FAMILY
    options: ClassVar[Schema] = ()
    description = ("the successor variables alone, cycles and pile order cut lazily as models come (CEGAR), "
                   "CaDiCaL 1.9.5 inside PySAT kept warm")

    def encode(self, deal: AnyDeal, options: Mapping[str, Any]) -> Any:
        return successor.lazy_formula(deal_as(Deal, deal))  # the Black Hole family's deal type
