"""How each competition names and packs its instances (docs/families.md gives the sources).

A family's per-deal file (the model's primary file) is named by the convention and compressed as
the competition ships it; the model's other files are written once when every deal shares them
(the PDDL domain, the Essence Prime model) and once per deal otherwise."""

from __future__ import annotations

import gzip
import lzma
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from patience.result import Status
from patience.syntax import comment

# The answer a SAT solver is expected to give, by the native search's verdict.
EXPECTED_SAT = {Status.SOLVED: "SAT", Status.UNSOLVABLE: "UNSAT"}


def _plain(data: bytes) -> bytes:
    return data


def _xz(data: bytes) -> bytes:
    """xz's fastest preset: a tenth of the default's time for 1.7 times its size on a 52-card CNF."""
    return lzma.compress(data, format=lzma.FORMAT_XZ, preset=0)


def _lzma(data: bytes) -> bytes:
    return lzma.compress(data, format=lzma.FORMAT_ALONE)  # the legacy `.lzma` container


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)  # no time stamp: the same family gives the same bytes


@dataclass(frozen=True)
class Convention:
    """`suffix` ends every per-deal file; `numbered` names them pNNN (IPC) instead of by deal;
    `pack` compresses; `header` says whether the file starts with a comment naming the deal."""

    competition: str
    suffix: str
    pack: Callable[[bytes], bytes]
    numbered: bool = False
    header: bool = False

    def stem(self, number: int, width: int, deal_stem: str) -> str:
        """A deal's files start with this: `p007` (numbered) or the deal's own stem."""
        return f"p{number:0{width}d}" if self.numbered else deal_stem


CONVENTIONS: dict[str, Convention] = {
    "cnf": Convention("SAT Competition", ".cnf.xz", _xz, header=True),
    "xcsp3": Convention("XCSP3 Competition", ".xml.lzma", _lzma),
    "pddl": Convention("International Planning Competition", ".pddl", _plain, numbered=True),
    "lp": Convention("MIPLIB-style compressed LP", ".lp.gz", _gzip),
    "eprime": Convention("Savile Row (one model, one .param per instance)", ".param", _plain),
    "cpsat": Convention("OR-Tools CP-SAT (CpModelProto text, gzipped)", ".pbtxt.gz", _gzip),
}
# gen FORMAT languages written without a convention of their own get the plain file name.
DEFAULT = Convention("plain files", "", _plain)


def convention(language: str) -> Convention:
    return CONVENTIONS.get(language, DEFAULT)


def cnf_header(deal_name: str, status: Status, family: str) -> str:
    """The comment lines a SAT Competition benchmark opens with: what it is and its expected answer."""
    expected = EXPECTED_SAT.get(status, "UNKNOWN")
    return (f"{comment('cnf', f'family: {family}')}\n{comment('cnf', f'deal: {deal_name}')}\n"
            f"c expected: {expected} (native search: {status.value})\n")


def unpack(path: Path) -> str:
    """A family file's text, whatever its compression (for readers of a family, and the tests)."""
    data = path.read_bytes()
    if path.name.endswith((".xz", ".lzma")):
        data = lzma.decompress(data)
    elif path.name.endswith(".gz"):
        data = gzip.decompress(data)
    return data.decode()
