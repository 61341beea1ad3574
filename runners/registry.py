"""Every solver the project knows, by name. Adding a solver = one module + one line here."""

from __future__ import annotations

import importlib

from patience.errors import UsageError, quote
from patience.runners.base import Solver

# name -> "module:Class"; modules are imported only when the solver is asked for.
SOLVERS: dict[str, str] = {
    "ff": "patience.runners.ff:FF",
    "fd-ff": "patience.runners.fast_downward:FastDownwardFF",
    "fd-lama": "patience.runners.fast_downward:FastDownwardLama",
    "pyperplan": "patience.runners.pyperplan:Pyperplan",
    "savilerow-minion": "patience.runners.savilerow:SavileRowMinion",
    "savilerow-sat": "patience.runners.savilerow:SavileRowSat",
    "ace": "patience.runners.ace:Ace",
    "choco": "patience.runners.choco:Choco",
    "cpsat": "patience.runners.cpsat:CpSat",
    "minizinc": "patience.runners.minizinc:MiniZinc",
    "clingo": "patience.runners.clingo:Clingo",
    "native": "patience.runners.native:Native",
    "black-hole-solve": "patience.runners.black_hole_solve:BlackHoleSolve",
    "sat": "patience.runners.sat_embedded:EmbeddedCadical",
    "sat-glucose": "patience.runners.sat_embedded:EmbeddedGlucose",
    "sat-minisat": "patience.runners.sat_embedded:EmbeddedMinisat",
    "sat-maplesat": "patience.runners.sat_embedded:EmbeddedMaplesat",
    "sat-lingeling": "patience.runners.sat_embedded:EmbeddedLingeling",
    "sat-successor": "patience.runners.sat_embedded:EmbeddedSuccessor",
    "sat-lazy": "patience.runners.sat_embedded:EmbeddedLazy",
    "cadical": "patience.runners.sat_cli:Cadical",
    "minisat": "patience.runners.sat_cli:Minisat",
    "picosat": "patience.runners.sat_cli:Picosat",
    "cryptominisat": "patience.runners.sat_cli:CryptoMiniSat",
    "cbc": "patience.runners.cbc:Cbc",
    "highs": "patience.runners.highs:Highs",
    "cpsat-mip": "patience.runners.ortools_mip:CpSatMip",
    "scip": "patience.runners.ortools_mip:Scip",
    "portfolio": "patience.runners.portfolio:Portfolio",
    "plain": "patience.runners.plain:Plain",
}

# prefix -> "module:factory" for solvers named with a parameter, e.g. `sat:/path/to/binary`.
PREFIXED: dict[str, str] = {
    "sat": "patience.runners.sat_cli:AnySat",
}


def _load(target: str):
    module_name, attribute = target.split(":")
    return getattr(importlib.import_module(module_name), attribute)


def get_solver(name: str) -> Solver:
    """The solver called `name`; UsageError listing the known names if there is none."""
    if name in SOLVERS:
        return _load(SOLVERS[name])()
    prefix, _, parameter = name.partition(":")
    if parameter and prefix in PREFIXED:
        return _load(PREFIXED[prefix])(parameter)
    known = ", ".join(list(SOLVERS) + [f"{prefix}:..." for prefix in PREFIXED])
    raise UsageError(f"unknown solver {quote(name)}; known: {known}")


def names_a_program(name: str) -> bool:
    """Whether `name` runs a program it names (`sat:PATH`) rather than a registered solver: whoever
    wrote the name chooses what runs."""
    prefix, _, parameter = name.partition(":")
    return name not in SOLVERS and bool(parameter) and prefix in PREFIXED


def all_solvers() -> list[Solver]:
    return [get_solver(name) for name in SOLVERS]
