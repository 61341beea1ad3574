"""Writing one family: each chosen deal's model packed by its language's convention, into a
private folder beside the output that is renamed into place only when every file and the index are
written; on any failure (or Ctrl-C) the private folder is removed and the output is untouched."""

from __future__ import annotations

import csv
import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from patience.families.conventions import cnf_header, convention
from patience.families.labels import Label
from patience.families.size import SIZE_COLUMNS, model_size, size_of
from patience.generators import generator
from patience.options import option_keywords
from patience.outputs import new_folder
from patience.runs.process import stop_signals_unwind
from patience.runs.specs import NamedDeal

INDEX_COLUMNS = ("number", "name", "game", "variant", "cards", "piles", "status", "nodes", "max_cards",
                 "native_seconds", "measure", "files", "sha256", "bytes", *SIZE_COLUMNS)


@dataclass(frozen=True)
class Job:
    """One deal to write: its place in the family, its label and the generator's typed options."""

    number: int
    width: int
    stem: str
    named: NamedDeal
    label: Label
    measure: float | None
    language: str
    options: Mapping[str, Any]
    folder: str
    family: str


@dataclass(frozen=True)
class Written:
    """What a worker wrote for one deal: its index row, its files' stem, and the checksums of its
    model's other files (written as `STEM-NAME` until the family knows whether all deals share them)."""

    row: dict[str, Any]
    stem: str
    others: dict[str, str] = field(default_factory=dict)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_deal(job: Job) -> Written:
    """Build, pack and write one deal's model (in a worker): the primary file named and packed by
    the language's convention, every other file as `STEM-NAME`."""
    named, rule = job.named, convention(job.language)
    model = generator(job.language, named.game.name).build(named.deal, **option_keywords(job.options))
    stem = rule.stem(job.number, job.width, job.stem)
    name = stem + rule.suffix if rule.suffix else f"{stem}-{model.primary}"
    text = model.files[model.primary]
    if rule.header:
        text = cnf_header(named.name, job.label.status, job.family) + text
    data = rule.pack(text.encode())
    folder = Path(job.folder)
    (folder / name).write_bytes(data)
    others = {}
    for other, other_text in model.files.items():
        if other != model.primary:
            encoded = other_text.encode()
            (folder / f"{stem}-{other}").write_bytes(encoded)
            others[other] = sha256(encoded)
    _, variant, cards, piles = named.describe()
    label = job.label
    row = {"number": job.number, "name": named.name, "game": named.game.name, "variant": variant, "cards": cards,
           "piles": piles, "status": label.status.value, "nodes": label.nodes, "max_cards": label.max_cards,
           "native_seconds": label.seconds, "measure": job.measure, "files": [name], "sha256": [sha256(data)],
           "bytes": len(data), **size_of(model_size(job.language, model))}
    return Written(row, stem, others)


def share_files(folder: Path, written: Sequence[Written]) -> dict[str, str]:
    """A model file every deal has byte for byte alike is kept once under its own name (the IPC's
    domain.pddl, Savile Row's model); the others stay per deal and join their deal's row."""
    shared: dict[str, str] = {}
    for name in sorted({name for item in written for name in item.others}):
        copies = {item.others.get(name) for item in written}
        if len(copies) == 1:
            (folder / f"{written[0].stem}-{name}").rename(folder / name)
            for item in written[1:]:
                (folder / f"{item.stem}-{name}").unlink()
            shared[name] = str(copies.pop())
            continue
        for item in written:
            if name in item.others:
                item.row["files"].append(f"{item.stem}-{name}")
                item.row["sha256"].append(item.others[name])
    return shared


def write_index(folder: Path, rows: Sequence[Mapping[str, Any]], about: Mapping[str, Any]) -> None:
    """index.csv (one row per deal, lists space-separated) and index.json (the family and its rows);
    an infinite measure (a run that decided nothing) is written `inf`."""
    rows = [{key: _finite(value) for key, value in row.items()} for row in rows]
    with open(folder / "index.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, INDEX_COLUMNS, extrasaction="raise")
        writer.writeheader()
        for row in rows:
            writer.writerow({key: " ".join(value) if isinstance(value, list) else value for key, value in row.items()})
    (folder / "index.json").write_text(json.dumps({**about, "instances": rows}, indent=1, allow_nan=False) + "\n")


def _finite(value: Any) -> Any:
    return "inf" if isinstance(value, float) and math.isinf(value) else value


@dataclass(frozen=True)
class Target:
    """Where a family goes: `output`, replaced only if `force` (a non-empty one is refused otherwise)."""

    output: Path
    force: bool

    def check(self) -> str | None:
        """Why the family cannot be written there (None: it can)."""
        if self.output.exists() and not self.output.is_dir():
            return f"{self.output} exists and is not a folder"
        if self.output.is_dir() and any(self.output.iterdir()) and not self.force:
            return f"{self.output} is not empty; give --force to replace it"
        return None


def write_family(target: Target, fill: Callable[[Path], None]) -> None:
    """Run `fill` on a private folder beside the output, then put the folder in the output's place."""
    with stop_signals_unwind(), new_folder(target.output, replace=True) as private:
        fill(private)  # SIGTERM and SIGHUP unwind too, so the private folder goes
