"""The one road from a file (or standard input) to text, and from text to YAML data.

Every reader of the toolkit gets its text from `read_text` and its YAML from `load_yaml`, so the
caps of `patience.caps`, the refusals (missing file, directory, FIFO, device, not UTF-8, too big,
too many lines, a line too long) and the UTF-8 byte order mark are handled once. `-` names
standard input, read (bounded) at most once per process.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from patience import caps
from patience.errors import InputError, quote
from patience.numeric import whole_or_none

STDIN = "-"
_BOM = b"\xef\xbb\xbf"
_stdin_read = False
_NODE_STARTS = ("\n", ",", "[", "{", "-", ":", "?")  # a YAML node starts after one of these (or first)
_LINE_BREAKS = ("\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")  # str.splitlines's
# one line as str.splitlines ends it (CR LF, or any one of _LINE_BREAKS); possessive, so linear
_LINE = re.compile(r"([^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]*+)(?:\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]|\Z)")
_NONBLANK = re.compile(r"\S")
_YamlLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when PyYAML has it


def read_text(path: str | Path) -> str:
    """A file's text (`-`: standard input), or an InputError naming it: missing, not a regular
    file, larger than MAX_FILE_BYTES, not UTF-8, empty, too many lines or a line too long. A UTF-8
    byte order mark is dropped."""
    source = str(path)
    data = _read_stdin(caps.MAX_FILE_BYTES) if source == STDIN else _read_file(source, caps.MAX_FILE_BYTES)
    return decode(data, source)


def decode(data: bytes, source: str) -> str:
    """Bytes as text under the line caps; a leading byte order mark dropped."""
    data = data.removeprefix(_BOM)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(source, data.count(b"\n", 0, error.start) + 1, "not a text file (not UTF-8)") from None
    if not text or text.isspace():  # not text.strip(): that copies the whole text
        raise InputError(source, 1, "empty file")
    check_lines(text, source)
    return text


def check_lines(text: str, source: str) -> None:
    """Refuse more than MAX_LINES lines or a line longer than MAX_LINE_CHARS (one linear pass).
    Lines are counted as str.splitlines, which readers use, splits them (a lone CR ends one too)."""
    lines = sum(text.count(separator) for separator in _LINE_BREAKS) - text.count("\r\n")
    if lines > caps.MAX_LINES:
        raise InputError(source, None, f"more than {caps.MAX_LINES:,} lines")
    if len(text) <= caps.MAX_LINE_CHARS:
        return
    start, number = 0, 1
    while start <= len(text):  # line by line, without a list of every line of a long file
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end - start > caps.MAX_LINE_CHARS:
            raise InputError(source, number, f"line longer than {caps.MAX_LINE_CHARS:,} characters")
        start, number = end + 1, number + 1


def regular_file(source: str, path: str | os.PathLike | None = None,
                 advice: str = "; use - for standard input") -> os.stat_result:
    """The status of file `path` (default: `source`, the name errors give); InputError if it is a
    directory or no regular file (a FIFO's open would wait for a writer, a device's read may never
    end). OSError as os.stat raises it."""
    status = os.stat(source if path is None else path)
    if stat.S_ISDIR(status.st_mode):
        raise InputError(source, None, "is a directory, not a file")
    if not stat.S_ISREG(status.st_mode):
        raise InputError(source, None, f"not a regular file (a FIFO, device or socket){advice}")
    return status


def _read_file(source: str, limit: int) -> bytes:
    try:
        status = regular_file(source)
        if status.st_size > limit:
            raise InputError(source, None, f"larger than {_size(limit)} ({_size(status.st_size)})")
        with open(source, "rb") as stream:
            data = stream.read(limit + 1)
    except FileNotFoundError:
        raise InputError(source, None, "no such file") from None
    except ValueError:  # a NUL in the name
        raise InputError(source, None, "not a file name") from None
    except OSError as error:
        raise InputError(source, None, error.strerror or "cannot read") from None
    if len(data) > limit:  # grew while we read it
        raise InputError(source, None, f"larger than {_size(limit)}")
    return data


def _read_stdin(limit: int) -> bytes:
    global _stdin_read
    if _stdin_read:
        raise InputError(STDIN, None, "standard input was already read (only one input can be -)")
    _stdin_read = True
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError(STDIN, None, "no standard input")
    try:
        data = stream.read(limit + 1)
    except OSError as error:
        raise InputError(STDIN, None, error.strerror or "cannot read") from None
    if len(data) > limit:
        raise InputError(STDIN, None, f"larger than {_size(limit)}")
    return data


def _size(count: int) -> str:
    return f"{count / (1024 * 1024):.1f} MiB" if count >= 1024 * 1024 else f"{count:,} bytes"


def compose_yaml(text: str, source: str) -> yaml.Node | None:
    """The YAML node tree of `text`, refused if it uses an alias: no file the toolkit reads needs
    one, and aliases expand a few hundred bytes into gigabytes ("billion laughs"). Size and node
    caps come first: PyYAML spends some microseconds on each node."""
    if len(text) > caps.MAX_YAML_CHARS:
        raise InputError(source, None, f"a YAML file may hold at most {caps.MAX_YAML_CHARS:,} characters")
    nodes = sum(text.count(indicator) for indicator in _NODE_STARTS)
    at_most(nodes, caps.MAX_YAML_NODES, "YAML nodes (at most)", source, None)
    try:
        root = yaml.compose(text.removeprefix("\ufeff"), Loader=_YamlLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or "unreadable"
        raise InputError(source, mark.line + 1 if mark is not None else None,
                         f"bad YAML: {quote(problem, 80)[1:-1]}") from None
    except (ValueError, RecursionError) as error:  # libyaml's refusals outside YAMLError (too deep, NUL)
        raise InputError(source, None, f"bad YAML: {quote(str(error), 80)[1:-1]}") from None
    _refuse_aliases(root, source)
    return root


def load_yaml(text: str, source: str) -> Any:
    """The YAML data of `text` (safe types only, no aliases); InputError naming the line otherwise."""
    return construct_yaml(compose_yaml(text, source), source)


def construct_yaml(root: yaml.Node | None, source: str) -> Any:
    """The Python data of a node tree from `compose_yaml`."""
    if root is None:
        return None
    try:
        return yaml.constructor.SafeConstructor().construct_document(root)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or "unreadable"
        raise InputError(source, mark.line + 1 if mark is not None else None,
                         f"bad YAML: {quote(problem, 80)[1:-1]}") from None
    except (ValueError, OverflowError, RecursionError) as error:  # a timestamp or number Python cannot hold
        raise InputError(source, None, f"bad YAML value: {quote(str(error), 80)[1:-1]}") from None


def load_json(text: str, source: str) -> Any:
    """The JSON data of `text`, or an InputError naming `source`: malformed JSON (with its line), a
    key given twice (json.loads would keep the last silently), a number too long for int(), lists
    nested too deep. Callers bound the text's size (their commas) before: loads builds every value."""
    try:
        return json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        raise InputError(source, error.lineno, f"bad JSON: {error.msg}") from None
    except (ValueError, RecursionError) as error:  # a repeated key, a number too long to convert, too deep
        raise InputError(source, None, f"bad JSON: {quote(str(error), 80)[1:-1]}") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise ValueError(f"key {quote(key)} appears twice")
        document[key] = value
    return document


def yaml_line(node: yaml.Node | None) -> int | None:
    """The 1-based line where a node starts."""
    return None if node is None else node.start_mark.line + 1


def yaml_child(node: yaml.Node | None, key: str) -> yaml.Node | None:
    """The value node of `key` in a mapping node (None if absent or not a mapping)."""
    if not isinstance(node, yaml.MappingNode):
        return None
    found = None
    for name, value in node.value:  # the last of repeated keys, as the constructor keeps it
        if isinstance(name, yaml.ScalarNode) and name.value == key:
            found = value
    return found


def yaml_items(node: yaml.Node | None) -> list[yaml.Node]:
    """The item nodes of a sequence node ([] for anything else)."""
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def lines(text: str) -> Iterator[str]:
    """The lines of `text` as str.splitlines gives them, one at a time: a reader that stops at a
    cap stops there, without a list of every line of a long file first."""
    position, end = 0, len(text)
    while position < end:
        line = _LINE.match(text, position)
        assert line is not None, "the pattern matches at every position before the end"
        yield line.group(1)
        position = line.end()


def numbered_lines(text: str, start: int = 1) -> Iterator[tuple[int, str]]:
    """(line number, line) for every line of `text`, lazily (see `lines`)."""
    return enumerate(lines(text), start)


def first_line(text: str, skip: str = "") -> str:
    """The first line of `text` that is not blank and does not start with `skip` (stripped), found
    without splitting the rest: answer detectors run on every answer, however long."""
    position = 0
    while (found := _NONBLANK.search(text, position)) is not None:
        end = text.find("\n", found.start())
        end = len(text) if end < 0 else end
        line = text[text.rfind("\n", 0, found.start()) + 1:end].strip()
        if not (skip and line.startswith(skip)):
            return line
        position = end
    return ""


def small_int(token: str) -> int | None:
    """The integer an ASCII token writes (`patience.numeric.whole_or_none`), else None: counts and
    positions in files are small, and a longer number is a typing slip or an attack on int()."""
    return whole_or_none(token)


def at_most(count: int, cap: int, what: str, source: str, line: int | None) -> None:
    """Refuse a count beyond its cap in `patience.caps`."""
    if count > cap:
        raise InputError(source, line, f"{what}: {count:,} is more than the cap of {cap:,}")


def _refuse_aliases(root: yaml.Node | None, source: str) -> None:
    """An alias makes the composer hand back the anchored node again: seeing a node twice is one."""
    seen: set[int] = set()
    stack = [] if root is None else [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise InputError(source, node.start_mark.line + 1, "YAML aliases (*name) are not accepted")
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))


def read_output(path: str | Path) -> str:
    """What a solver wrote (a stream or a result file): its first MAX_SOLVER_OUTPUT_BYTES bytes,
    undecodable bytes replaced, so that its reader, not the read, judges it."""
    with open(path, "rb") as stream:
        return stream.read(caps.MAX_SOLVER_OUTPUT_BYTES).decode("utf-8", errors="replace")
