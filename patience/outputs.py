"""Where commands write: folders and files named by the user, checked before anything is written,
and the one writer every output goes through.

A path that cannot take the output (a file where a folder is expected, a folder that is missing or
read-only, /proc, a folder that holds the command's own input) ends in one line `error: PATH: what`,
exit status 2, before any file is written and before anything is printed; a write that still fails
(a full disk, a folder in the way) ends the same way, and leaves nothing under the target's name:
a file is written to a scratch file beside it (flushed, synced) and renamed over it; a new folder is
built under a hidden name beside it and renamed into place; files into an existing folder all go to
scratch files first and are renamed only once every one is written. Scratch names are
`.NAME.partial-PID...`: one that a killed run left (its process is gone) is removed by the next
write into that folder, which says so on stderr.
"""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

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


def output_file(path: Path) -> Path:
    """`path` as a file to write: its folder exists and is writable, and it is not itself a folder, nor a
    device or a pipe (`/dev/null`), which the rename of a whole file would replace by a plain file."""
    if path.is_dir():
        raise InputError(str(path), None, "is a folder (the output is a file)")
    if path.exists() and not path.is_file():
        raise InputError(str(path), None, "is no plain file (a device, a pipe or a socket): the output is a file")
    folder = path.parent
    if not folder.is_dir():
        missing = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(str(path), None, f"cannot write the file: its folder {folder} {missing}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(str(path), None, "cannot write the file: permission denied")
    return path


def check_apart(output: Path, inputs: Iterable[str | Path]) -> None:
    """That writing `output` cannot touch an input: it is none of them, holds none of them and
    lies inside none of them (a family written over its own deal folder would delete it)."""
    target = output.resolve()
    for given in inputs:
        source = Path(given).resolve()
        if source == target:
            raise InputError(str(output), None, f"is the input {given}: write the output elsewhere")
        if target in source.parents:
            raise InputError(str(output), None, f"holds the input {given}: write the output elsewhere")
        if source in target.parents:
            raise InputError(str(output), None, f"lies inside the input {given}: write the output elsewhere")


SCRATCH = re.compile(r"\.(.+)\.(?:partial|old)-(\d+)(?:-[^/]*)?")  # scratch names: `.NAME.partial-PID...`


def scratch_name(name: str, kind: str = "partial") -> str:
    """The hidden name this process builds `name` under beside it (`kind` old: a replaced folder): the
    name's first 100 bytes, so that the scratch of a name as long as a file system takes is one too."""
    return f".{os.fsdecode(os.fsencode(name)[:100])}.{kind}-{os.getpid()}"


def sweep(folder: Path) -> None:
    """Remove the scratch files and folders in `folder` that a killed run left (its process is gone),
    naming each on stderr; anything else, and the scratch of running processes, stays."""
    with suppress(OSError):
        for entry in os.scandir(folder):
            match = SCRATCH.fullmatch(entry.name)
            if match is None or _running(int(match.group(2))):
                continue
            with suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
                print(f"note: removed {entry.path}, left by an interrupted run", file=sys.stderr)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid < 2**22  # another user's process (or a number no process has: not running)
    return True


@contextmanager
def atomic_file(path: Path) -> Iterator[IO[bytes]]:
    """A binary stream whose bytes become `path` whole when the block ends, or nothing at all."""
    with _scratch_file(path) as (stream, scratch):
        yield stream
    _replace(scratch, path)


@contextmanager
def _scratch_file(path: Path, sync: bool = True) -> Iterator[tuple[IO[bytes], str]]:
    """A scratch file beside `path`, flushed (and with `sync`, synced) when the block ends; removed
    if the block fails (the caller renames it into place, or removes it)."""
    try:
        handle, scratch = tempfile.mkstemp(prefix=scratch_name(path.name) + "-", dir=path.parent)
    except OSError as error:
        raise _cannot_write(path, error) from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(handle, 0o666 & ~umask)  # as a plain open() would make it, not mkstemp's 0600
        with os.fdopen(handle, "wb") as stream:
            yield stream, scratch
            stream.flush()
            if sync:
                os.fsync(stream.fileno())
    except OSError as error:
        _remove(scratch)
        raise _cannot_write(path, error) from None
    except BaseException:
        _remove(scratch)
        raise


def _replace(scratch: str, path: Path) -> None:
    try:
        os.replace(scratch, path)
    except OSError as error:
        _remove(scratch)
        raise _cannot_write(path, error) from None


def _remove(scratch: str) -> None:
    with suppress(OSError):
        os.unlink(scratch)


def write_file(path: Path, data: str | bytes) -> None:
    """Write `data` (text as UTF-8) to `path` (checked first by `output_file` or `check_folder`),
    whole or not at all; a failure is one line."""
    sweep(path.parent)
    with atomic_file(path) as stream:
        stream.write(data.encode() if isinstance(data, str) else data)




def figure_bytes(figure, suffix: str, **options) -> bytes:
    """A matplotlib figure drawn as a `.png` or `.svg` file's bytes (written then by `write_file`)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format=suffix.lstrip("."), **options)
    return buffer.getvalue()


def save_figure(figure, path: Path, **options) -> None:
    """Draw `figure` into `path` (its format from the suffix), whole or not at all."""
    write_file(path, figure_bytes(figure, path.suffix, **options))


def write_files(folder: Path, files: Mapping[str, str | bytes]) -> list[Path]:
    """Write every file of `files` (names relative to `folder`; `deals/a.html` makes the subfolder)
    or none: a new folder is built whole under a hidden name; into an existing one, every file goes
    to a scratch file first and all are renamed once all are written. The paths written."""
    check_folder(folder)
    if not folder.exists():
        with new_folder(folder) as private:  # the private folder is the unit: its files are written plainly
            for name, data in files.items():
                path = private / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data.encode() if isinstance(data, str) else data)
        return [folder / name for name in files]
    sweep(folder)
    for name in files:  # the renames at the end must not fail on a folder in the way
        if (folder / name).is_dir():
            raise InputError(str(folder / name), None, "is a folder (the output is a file)")
    made: list[Path] = []
    scratches: list[tuple[str, Path]] = []
    try:
        for name, data in files.items():
            path = folder / name
            if not path.parent.is_dir():
                made += _make_folders(path.parent, folder)
                sweep(path.parent)
            with _scratch_file(path, sync=False) as (stream, scratch):
                stream.write(data.encode() if isinstance(data, str) else data)
            scratches.append((scratch, path))
        _sync(folder)
        for scratch, path in scratches:
            _replace(scratch, path)
    except BaseException:
        for scratch, _ in scratches:
            _remove(scratch)
        for made_folder in reversed(made):
            with suppress(OSError):
                made_folder.rmdir()
        raise
    return [folder / name for name in files]


def _sync(folder: Path) -> None:
    """Put every file written into `folder` on disk before any is renamed into place: one syncfs
    of its file system (a sync of each file costs a journal commit each: 3 times the time of
    `deal --count 2000`), or a sync of all where the C library has no syncfs."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        libc = _libc()
        if libc is None or libc.syncfs(descriptor) != 0:
            os.sync()
    finally:
        os.close(descriptor)


@functools.cache
def _libc():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True) if hasattr(ctypes.CDLL(None), "syncfs") else None
    except (ImportError, OSError):
        return None


def _make_folders(path: Path, within: Path) -> list[Path]:
    """Make `path` and its missing parents below `within`: the folders made, outermost first."""
    missing = [path, *(parent for parent in path.parents if within in parent.parents)]
    made = []
    for folder in reversed(missing):
        if folder.exists() and not folder.is_dir():
            raise InputError(str(folder), None, "not a folder (the output goes into a folder)")
        if not folder.exists():
            try:
                folder.mkdir()
            except OSError as error:
                raise InputError(str(folder), None, f"cannot create the folder: {_reason(error)}") from None
            made.append(folder)
    return made


@contextmanager
def new_folder(target: Path, replace: bool = False) -> Iterator[Path]:
    """A private folder beside `target`, put in its place when the block ends (an existing
    `target` is replaced only if `replace`); on any failure, or a signal that unwinds, it is removed
    and `target` is as it was."""
    output = target.absolute()
    made = [path for path in (output.parent, *output.parent.parents) if not path.exists()]  # to undo
    private = output.parent / scratch_name(output.name)
    doing = "create"
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        sweep(output.parent)
        shutil.rmtree(private, ignore_errors=True)
        private.mkdir()
        doing = "write"
        yield private
        _sync(private)  # its files on disk before it takes the target's name
        if output.exists() and replace:
            old = output.parent / scratch_name(output.name, "old")
            output.rename(old)
            private.rename(output)
            shutil.rmtree(old)
        else:
            private.rename(output)
    except BaseException as error:
        shutil.rmtree(private, ignore_errors=True)
        for folder in made:
            with suppress(OSError):
                folder.rmdir()
        if isinstance(error, OSError):
            raise InputError(str(target), None, f"cannot {doing} the folder: {_reason(error)}") from None
        raise


def _cannot_write(path: Path, error: OSError) -> InputError:
    return InputError(str(path), None, f"cannot write the file: {_reason(error)}")


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()
