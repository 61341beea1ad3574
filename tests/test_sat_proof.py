"""SAT proof certificates (patience.sat_proof, patience.drat): a lost deal's DRAT proof from a PySAT
engine and from the cadical binary is certified by `patience check`; a tampered proof (a lemma
dropped, a wrong clause, another deal's proof, a won deal) is refused; a malformed or huge file is
one line of bad input."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from patience import drat, sat_proof
from patience.cli import main
from patience.games import game_of
from patience.generators.deals import random_deal

LOST = random_deal(5, 2, 3, 1)  # 9 cards in 3 piles, lost (test_certificates certifies it by the rules)
WON = random_deal(4, 1, 2, 0)


def deal_file(folder: Path, deal, name: str = "deal") -> Path:
    path = folder / f"{name}.txt"
    path.write_text(game_of(deal).write_deal(deal, "yaml"))
    return path


def verdict(deal: Path, certificate: Path, capsys) -> tuple[int, str]:
    code = main(["check", str(deal), str(certificate)])
    out, err = capsys.readouterr()
    return code, (out + err).strip()


def proved(tmp_path: Path, capsys, solver: str, deal=LOST) -> tuple[Path, Path]:
    path, certificate = deal_file(tmp_path, deal), tmp_path / f"{solver}.proof"
    code = main(["solve", str(path), "--solver", solver, "--certificate", str(certificate)])
    out = capsys.readouterr().out
    assert code == 1 and f"certificate: {certificate}" in out
    return path, certificate


def rewrite(certificate: Path, change) -> None:
    """The certificate with its header and proof lines passed through `change`."""
    header, body = gzip.decompress(certificate.read_bytes()).split(b"\n", 1)
    new_header, lines = change(json.loads(header), body.decode().splitlines())
    certificate.write_bytes(gzip.compress(json.dumps(new_header).encode() + b"\n" + "\n".join(lines).encode() + b"\n"))


@pytest.mark.parametrize("solver", ["sat-glucose", "sat", "cadical"])
def test_a_lost_deals_proof_is_certified(tmp_path, capsys, solver):
    if solver == "cadical" and shutil.which("cadical") is None:
        pytest.skip("the cadical binary is not installed")
    path, certificate = proved(tmp_path, capsys, solver)
    code, message = verdict(path, certificate, capsys)
    assert code == 0, message
    assert message.splitlines()[0] == sat_proof.CERTIFIED


def test_a_deleted_lemma_and_a_wrong_clause_are_refused(tmp_path, capsys):
    path, certificate = proved(tmp_path, capsys, "sat")
    original = certificate.read_bytes()

    def only_the_end(header, lines):  # every lemma dropped but the empty clause
        return header, [line for line in lines if line.strip() == "0"]
    rewrite(certificate, only_the_end)
    code, message = verdict(path, certificate, capsys)
    assert code == 1 and "neither RUP nor RAT" in message

    certificate.write_bytes(original)
    variables = max(abs(literal) for clause in sat_proof.clauses_of(LOST, {})[0] for literal in clause)

    def wrong(header, lines):  # a unit clause no propagation derives, first
        return header, [f"{variables + 5} 0", f"-{variables + 5} 0", *lines]
    rewrite(certificate, wrong)
    code, message = verdict(path, certificate, capsys)
    assert code == 1 and "proof line 2" in message


def test_a_proof_of_another_deal_and_of_a_won_deal_are_refused(tmp_path, capsys):
    path, certificate = proved(tmp_path, capsys, "sat")
    other = deal_file(tmp_path, random_deal(5, 2, 3, 2), "other")
    code, message = verdict(other, certificate, capsys)
    assert code == 2 and "another deal" in message and len(message.splitlines()) == 1
    won = deal_file(tmp_path, WON, "won")
    clauses, encoding = sat_proof.clauses_of(WON, {"symmetry-breaking": True, "cardinality": "seqcounter"})
    _, lines = gzip.decompress(certificate.read_bytes()).split(b"\n", 1)
    forged = tmp_path / "forged.proof"  # the lost deal's proof under a won deal's header
    forged.write_bytes(sat_proof.encode(WON, encoding, "sat", clauses, lines.decode().splitlines()))
    code, message = verdict(won, forged, capsys)
    assert code == 1 and message.startswith("not certified")


def test_the_encodings_options_are_checked(tmp_path, capsys):
    path, certificate = proved(tmp_path, capsys, "sat")
    rewrite(certificate, lambda header, lines: ({**header, "options": {"cardinality": "totalizer"}}, lines))
    code, message = verdict(path, certificate, capsys)
    assert code == 1 and "encoding changed" in message


@pytest.mark.parametrize("damage", ["not gzip", "no header", "bad line", "huge"])
def test_a_malformed_or_huge_file_is_one_line_of_bad_input(tmp_path, capsys, monkeypatch, damage):
    path, certificate = proved(tmp_path, capsys, "sat")
    if damage == "not gzip":
        certificate.write_bytes(b"1 2 0\n")
    elif damage == "no header":
        certificate.write_bytes(gzip.compress(b"1 2 0\n"))
    elif damage == "bad line":
        rewrite(certificate, lambda header, lines: (header, ["1 x 0", *lines]))
    else:
        monkeypatch.setattr(sat_proof, "MAX_PROOF_BYTES", 100)
    code, message = verdict(path, certificate, capsys)
    assert code == 2 and len(message.splitlines()) == 1 and str(certificate) in message


def test_a_header_nested_past_the_recursion_limit_is_no_header(tmp_path, capsys):
    path, certificate = proved(tmp_path, capsys, "sat")
    nested = b"[" * 1900 + b"]" * 1900  # a header's room, 4,096 bytes, past the interpreter's depth
    certificate.write_bytes(gzip.compress(b'{"format": "patience-sat-proof", "x": ' + nested + b"}\n"))
    assert verdict(path, certificate, capsys) == (
        2, f"error: {certificate}:1: not a certificate: the first line is no JSON header")


def test_a_lemma_of_a_million_literals_is_not_quoted_whole(tmp_path, capsys):
    path, certificate = proved(tmp_path, capsys, "sat")
    rewrite(certificate, lambda header, lines: (header, [" ".join(["1"] * 10 ** 6) + " 0", *lines]))
    code, message = verdict(path, certificate, capsys)
    first = " ".join(["1"] * 20)
    assert code == 1 and message == f"not certified: proof line 1: lemma {first} ... is neither RUP nor RAT"


def test_the_checker_does_rup_rat_and_deletions():
    clauses = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert drat.check_proof(clauses, ["2 0", "0"]) == 2
    with pytest.raises(drat.ProofError, match="line 4"):  # the clauses deleted, 2 is RAT but no longer refuting
        drat.check_proof(clauses, ["d 1 2 0", "d 1 -2 0", "2 0", "0"])
    assert drat.check_proof(clauses, ["3 0", "d 3 0", "2 0", "0"]) == 3  # 3 is RAT: no clause holds -3
    with pytest.raises(drat.ProofError, match="line 1"):
        drat.check_proof([[1, 2], [-1, -2]], ["1 0", "0"])
    with pytest.raises(drat.ProofError, match="never adds"):
        drat.check_proof(clauses, ["2 0"])


def test_the_drat_checker_imports_only_the_standard_library():
    """No solver, no SAT library: what the checker trusts is its own page of code."""
    import ast
    import sys

    tree = ast.parse(Path(drat.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported and imported <= set(sys.stdlib_module_names) | {"__future__"}


def test_the_proof_routes_are_the_runners_own(monkeypatch):
    """Which CNF routes give a proof, and with which PySAT engine, is read from the runners (their
    engine and model, sat_embedded's ENGINES, a binary's proof options): no table of sat_proof's own."""
    from patience.runners import sat_cli, sat_embedded
    from patience.runners.registry import SOLVERS

    routes = {name: sat_proof.proof_route(name) for name in SOLVERS}
    engines = {name: route[1] for name, route in routes.items() if route and route[0] == "engine"}
    assert engines == {"sat": "cadical195", "sat-glucose": "glucose4", "sat-lingeling": "lingeling",
                       "sat-maplesat": "maplesat"}  # MiniSat logs none; the successor CNF is another encoding
    assert [name for name, route in routes.items() if route and route[0] == "binary"] == ["cadical"]
    monkeypatch.setattr(sat_embedded.EmbeddedGlucose, "proof", False)
    monkeypatch.setitem(sat_embedded.ENGINES, "cadical", "cadical153")
    monkeypatch.setattr(sat_cli.Cadical, "proof_options", None)
    assert not sat_proof.proves("sat-glucose") and not sat_proof.proves("cadical")
    assert sat_proof.proof_route("sat") == ("engine", "cadical153")
