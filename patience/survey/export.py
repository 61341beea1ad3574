"""A survey's per-deal rows as one compressed CSV file, small enough to keep beside the figures it
backs (a million Black Hole rows are a few MB of .csv.xz): seed, verdict, most cards removable and
nodes. The seconds are left out: they measure the machine, not the deal."""

from __future__ import annotations

import contextlib
import gzip
import lzma
from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import IO

from patience.errors import UsageError
from patience.outputs import atomic_file, sweep
from patience.survey.store import Row

HEADER = "seed,verdict,cards,nodes\n"
SUFFIXES = (".csv", ".csv.gz", ".csv.xz")


def check_name(path: Path) -> None:
    if not str(path).endswith(SUFFIXES):
        raise UsageError(f"--out {path}: the export is a {', '.join(SUFFIXES)} file")


def _compressed(path: Path, raw: IO[bytes]) -> AbstractContextManager[gzip.GzipFile | lzma.LZMAFile | IO[bytes]]:
    """A writer into `raw`, compressed as `path` is named (no file name in a gzip header, no time);
    closing it leaves `raw` open, for the atomic writer to sync."""
    if path.name.endswith(".gz"):
        return gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0)
    if path.name.endswith(".xz"):
        return lzma.LZMAFile(raw, "wb", preset=9 | lzma.PRESET_EXTREME)
    return contextlib.nullcontext(raw)  # the caller closes `raw` itself


def write(rows: Iterable[Row], path: Path) -> int:
    """Write the rows in seed order to `path` (compressed by its suffix), whole or not at all: the
    file appears under its name only once complete. Returns the rows written."""
    written = 0
    sweep(path.parent)
    with atomic_file(path) as raw, _compressed(path, raw) as out:  # the compressor closed, the file whole
        out.write(HEADER.encode())
        for row in rows:
            out.write(f"{row.seed},{row.verdict.value},{row.cards},{row.nodes}\n".encode())
            written += 1
    return written
