"""SAT proof certificates (docs/certificates.md, SAT proofs): for a loss a CNF route reported, the
DRAT proof a SAT solver gives that the deal's CNF has no model, checked by patience.drat.

What it proves is that the CNF has no model: it trusts the encoding (generators/cnf), which the
checker runs again on the deal with the options the certificate names. The game's own certificate
(patience.certificates) trusts only the rules.

The file: gzip of one JSON header line (format, version, game, the SHA-256 of the deal's content, the
generator and its options, the solver, the SHA-256 of the DIMACS clauses proved) and the DRAT text.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import tempfile
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from patience import checker
from patience.certificates import Written, certify
from patience.drat import ProofError, check_proof
from patience.errors import InputError, UsageError, encodable, quote
from patience.games import AnyDeal, deal_content, game_of, read_game_deal
from patience.generators import generator
from patience.generators.files import FormulaGenerator
from patience.options import option_keywords
from patience.outputs import write_file
from patience.reading import regular_file
from patience.runs.process import Limits, run_process

FORMAT, VERSION = "patience-sat-proof", 1
GENERATOR = "cnf"
HEADER_BYTES = 4096
MAX_PROOF_BYTES = 1 << 30  # a proof this long (uncompressed) is refused rather than read
CERTIFIED = "certified: the deal's CNF has no model (a DRAT proof), so no play wins under this encoding"


def proof_route(solver: str) -> tuple[str, Any] | None:
    """How `solver` gives a DRAT proof that the project's CNF has no model, as its runner says it:
    ("engine", PySAT's engine) for an embedded route on the CNF whose engine logs proofs (the runner's
    `engine`, `model` and `proof`, and runners/sat_embedded.py's ENGINES: `sat` is CaDiCaL 1.9.5,
    MiniSat logs none), ("binary", the runner) for a solver binary that writes one (its
    `proof_options`: the cadical binary's); None for any other solver."""
    from patience.runners.registry import get_solver
    from patience.runners.sat_cli import CommandLineSat
    from patience.runners.sat_embedded import ENGINES, EmbeddedSat

    try:
        runner = get_solver(solver)
    except UsageError:
        return None
    if isinstance(runner, EmbeddedSat) and runner.model == GENERATOR and runner.proof:
        return "engine", ENGINES[runner.engine]
    if isinstance(runner, CommandLineSat) and runner.proof_options is not None:
        return "binary", runner
    return None


def proves(solver: str) -> bool:
    """Whether `solver` is a CNF route that gives a DRAT proof of its UNSAT answers."""
    return proof_route(solver) is not None


def clauses_of(deal: AnyDeal, options: Mapping[str, Any]) -> tuple[list[list[int]], dict[str, Any]]:
    """The deal's CNF as the project's generator writes it under `options`, and the options of
    theirs that are the generator's (the encoding's)."""
    module = cast(FormulaGenerator[Any], generator(GENERATOR, game_of(deal).name))
    own = {option.name for option in module.OPTIONS}
    encoding = {name: value for name, value in options.items() if name in own}
    return [list(clause) for clause in module.formula(deal, **option_keywords(encoding)).cnf.clauses], encoding


def clauses_hash(clauses: list[list[int]]) -> str:
    return hashlib.sha256("\n".join(" ".join(map(str, clause)) for clause in clauses).encode()).hexdigest()


def encode(deal: AnyDeal, options: Mapping[str, Any], solver: str, clauses: list[list[int]], proof: list[str]) -> bytes:
    game = game_of(deal)
    header = {"format": FORMAT, "version": VERSION, "game": game.variant(deal), "deal": deal_content(game, deal),
              "generator": GENERATOR, "options": dict(options), "solver": solver, "cnf": clauses_hash(clauses)}
    body = "".join(line.strip() + "\n" for line in proof)
    return gzip.compress(json.dumps(header, sort_keys=True).encode() + b"\n" + body.encode(), compresslevel=6, mtime=0)


def prove(deal: AnyDeal, solver: str, options: Mapping[str, Any], path: Path, limits: Limits) -> Written:
    """Solve the deal's CNF again with `solver` asking for a proof, under `limits`; on UNSAT write the
    certificate to `path` (whole or not at all); `reason` when none is written."""
    clauses, encoding = clauses_of(deal, options)
    route = proof_route(solver)
    if route is None:
        raise UsageError(f"{solver} gives no DRAT proof")
    kind, how = route
    if kind == "engine":
        from pysat.formula import CNF

        from patience.runners.sat_embedded import run_engine as engine
        outcome = engine(how, CNF(from_clauses=clauses), limits.left(), proof=True)
        if outcome["verdict"] is not False:
            return Written(reason=f"the proof run ended {outcome['verdict']}, not unsatisfiable")
        proof = list(outcome["proof"])
    else:
        proof_or_reason = _binary_proof(how.executable() or how.name, how.proof_options, clauses, limits.left())
        if isinstance(proof_or_reason, str):
            return Written(reason=proof_or_reason)
        proof = proof_or_reason
    data = encode(deal, encoding, solver, clauses, proof)
    try:
        write_file(path, data)
    except InputError as error:
        return Written(reason=str(error))
    return Written(len(proof), len(data))


def _binary_proof(binary: str, options: tuple[str, ...], clauses: list[list[int]], limits: Limits) -> list[str] | str:
    """The DRAT lines a solver binary writes for the CNF (`binary OPTIONS CNF PROOF`), or why there are none."""
    from pysat.formula import CNF

    from patience.generators.cnf.common import dimacs_text

    with tempfile.TemporaryDirectory(prefix="patience-proof-") as folder:
        cnf, proof = Path(folder) / "deal.cnf", Path(folder) / "deal.drat"
        cnf.write_text(dimacs_text([], CNF(from_clauses=clauses)))
        try:
            run = run_process([binary, *options, str(cnf), str(proof)], limits)
        except OSError as error:
            return f"{binary} cannot run: {error.strerror}"
        if run.timed_out or run.memout or run.returncode != 20:
            return f"the proof run of {binary} ended without UNSAT (exit {run.returncode})"
        return proof.read_text().splitlines()


def read_certificate(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The header and the proof's lines; InputError (one line) for a file that is no SAT proof
    certificate, is cut short, or is too long."""
    source = encodable(str(path))
    try:
        with gzip.open(path, "rb") as stream:
            try:
                header = json.loads(stream.readline(HEADER_BYTES))
            except (ValueError, RecursionError):  # (RecursionError: lists nested past the interpreter's limit)
                raise InputError(source, 1, "not a certificate: the first line is no JSON header") from None
            fields = {"format": str, "version": int, "game": str, "deal": str, "generator": str, "options": dict,
                      "solver": str, "cnf": str}
            if not isinstance(header, dict) or any(type(header.get(name)) is not kind for name, kind in fields.items()):
                raise InputError(source, 1, f"not a SAT proof certificate: the header needs {', '.join(fields)}")
            if header["format"] != FORMAT or header["version"] != VERSION:
                raise InputError(source, 1, f"not a {FORMAT} of version {VERSION}")
            body = stream.read(MAX_PROOF_BYTES + 1)
    except FileNotFoundError:
        raise InputError(source, None, "no such file") from None
    except gzip.BadGzipFile:
        raise InputError(source, None, "not a certificate: not a gzip file") from None
    except (EOFError, zlib.error):
        raise InputError(source, None, "cut short or damaged: not a whole gzip file") from None
    except OSError as error:
        raise InputError(source, None, error.strerror or "cannot read") from None
    if len(body) > MAX_PROOF_BYTES:
        raise InputError(source, None, f"the proof is longer than {MAX_PROOF_BYTES:,} bytes: refused")
    try:
        return header, body.decode("ascii").splitlines()
    except UnicodeDecodeError:
        raise InputError(source, None, "the proof is not DRAT text (a byte that is no ASCII)") from None


def is_sat_proof(path: Path) -> bool:
    """Whether the certificate file names this format (else it is left to patience.checker)."""
    try:
        with gzip.open(path, "rb") as stream:
            return f'"format": "{FORMAT}"'.encode() in stream.readline(HEADER_BYTES)
    except (OSError, EOFError, zlib.error):
        return False


def check(deal_path: Path, certificate_path: Path) -> list[str]:
    """CERTIFIED and what was checked when the proof refutes the deal's CNF; ProofError naming the
    first failing step; InputError for a deal or certificate that cannot be read or is another's."""
    game, deal = read_game_deal(deal_path)
    header, proof = read_certificate(certificate_path)
    source = encodable(str(certificate_path))
    if header["game"] != game.variant(deal):
        raise InputError(source, 1, f"a certificate of game {quote(header['game'])}, not of this deal's "
                                    f"{game.variant(deal)}")
    if header["deal"] != deal_content(game, deal):
        raise InputError(source, 1, "a certificate of another deal (its content hash is not this deal's)")
    if header["generator"] != GENERATOR:
        raise InputError(source, 1, f"generator {quote(header['generator'])} is not {GENERATOR}")
    try:
        clauses, _ = clauses_of(deal, header["options"])
    except (TypeError, ValueError, UsageError) as error:
        raise InputError(source, 1, f"the header's options do not make this game's CNF: {error}") from None
    if clauses_hash(clauses) != header["cnf"]:
        raise ProofError("the CNF generated from the deal is not the one the proof refutes (the encoding changed)")
    try:
        lemmas = check_proof(clauses, proof)
    except ValueError as error:
        raise InputError(source, None, str(error)) from None
    return [CERTIFIED, f"checked: {lemmas:,} lemmas against {len(clauses):,} clauses ({header['solver']}'s proof)"]


def keep_certificate(deal: AnyDeal, solver: str, options: Mapping[str, Any], path: Path,
                     limits: Limits) -> tuple[Written, str]:
    """A lost deal's certificate written to `path` (whole or not at all): a DRAT proof where `solver`
    is a CNF route that gives one (`options` its typed options), else the game's own (of "no play
    plays more than k cards" with max-cards on); and what its size counts (`solve --certificate`,
    `patience.certify`)."""
    if proves(solver):
        return prove(deal, solver, options, path, limits), "DRAT steps"
    return certify(deal, path, limits, bool(options.get("max-cards"))), "positions"


def check_certificate(deal_path: Path, certificate_path: Path) -> list[str]:
    """`patience check DEAL CERTIFICATE`: the lines of a certified loss, from the SAT proof checker or
    the game's (patience.checker); Broken or ProofError naming what breaks it. A certificate that is no
    regular file is refused before it is opened (a FIFO's open waits for a writer)."""
    if certificate_path.exists():
        regular_file(encodable(str(certificate_path)), certificate_path, advice="")
    return (check if is_sat_proof(certificate_path) else checker.check)(deal_path, certificate_path)
