"""Where commands write: folders and files named by the user, checked before anything is written.

A path that cannot take the output (a file where a folder is expected, a folder that is missing or
read-only, /proc) ends in one line `error: PATH: what`, exit status 2, before any file is written
and before anything is printed; a write that still fails (a full disk) ends the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

from patience.errors import InputError


def check_folder(path: Path) -> Path:
    """That `path` can be a folder to write into, without creating it: it is a folder, or its
    nearest existing ancestor is a writable folder (a command with several outputs checks them all
    before writing any)."""
    if path.exists() and not path.is_dir():
        raise InputError(str(path), None, "not a folder (the output goes into a folder)")
    ancestor = next(folder for folder in (path.absolute(), *path.absolute().parents) if folder.exists())
    if not ancestor.is_dir():
        raise InputError(str(path), None, f"cannot create the folder: {ancestor} is not a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise InputError(str(path), None, f"cannot write into {ancestor}: permission denied")
    return path


def output_folder(path: Path) -> Path:
    """`path` as a folder to write into, created with its parents if missing."""
    check_folder(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(str(path), None, f"cannot create the folder: {_reason(error)}") from None
    return path


def output_file(path: Path) -> Path:
    """`path` as a file to write: its folder exists and is writable, and it is not itself a folder."""
    if path.is_dir():
        raise InputError(str(path), None, "is a folder (the output is a file)")
    folder = path.parent
    if not folder.is_dir():
        missing = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(str(path), None, f"cannot write the file: its folder {folder} {missing}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(str(path), None, "cannot write the file: permission denied")
    return path


def write_text(path: Path, text: str) -> None:
    """Write `text` to `path` (checked first by `output_file` or `output_folder`); a failure is one line."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(str(path), None, f"cannot write the file: {_reason(error)}") from None


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()
