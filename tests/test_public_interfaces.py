"""The package reads no private attribute of the standard library's (issue 54 item 2): any Python
release may move one. The check reads the installed package's source (patience/ and the folders
installed as patience.* subpackages) with `ast`, so that a comment or a string never counts."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("patience", "generators", "runners", "templates", "models")  # setup.py's MAPPED_FOLDERS and patience
DOCUMENTED = {"_exit", "_asdict", "_replace", "_make", "_fields", "_field_defaults"}  # os._exit, namedtuple's


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__") and name not in DOCUMENTED


def _stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


def _own_attributes(trees: dict[str, ast.Module]) -> set[str]:
    """The private names the package's own classes define (methods, class attributes, `self._x = ...`)."""
    names = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                        names.add(inner.name)
                    elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                        names.add(inner.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return {name for name in names if name.startswith("_")}


def private_reads(source: str | ast.Module, own: set[str], *, named: bool = False) -> list[tuple[int, str]]:
    """(line, name) of each read of a standard-library private attribute in `source`: an attribute of a
    standard-library module bound by an import, a name imported from one, an attribute named by a string
    to getattr/hasattr, and an attribute of any other object (a pool, a parser) that is no name of the
    package's own classes, of `self` or `cls`, or of one of the package's modules. `named`: a name in a
    postponed annotation too (never evaluated, but a type checker reads it)."""
    tree = ast.parse(source) if isinstance(source, str) else source
    unread = set() if named else _annotations(tree)
    modules: dict[str, bool] = {}  # the names imports bind to modules: whether each is the standard library's
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules[alias.asname or alias.name.split(".")[0]] = _stdlib(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if _stdlib(node.module) and _private(alias.name):
                    found.append((node.lineno, alias.name))
                modules[alias.asname or alias.name] = _stdlib(node.module)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            name = node.args[1] if len(node.args) > 1 else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value) \
                    and name.value not in own:
                found.append((node.lineno, name.value))
        if not isinstance(node, ast.Attribute) or not _private(node.attr) or id(node) in unread:
            continue
        value = node.value
        if isinstance(value, ast.Name) and value.id in modules:
            if modules[value.id]:
                found.append((node.lineno, node.attr))
        elif not (isinstance(value, ast.Name) and value.id in ("self", "cls")) and node.attr not in own:
            found.append((node.lineno, node.attr))
    return sorted(found)


def _annotations(tree: ast.Module) -> set[int]:
    """The nodes of the annotations of a module that postpones them (`from __future__ import
    annotations`): never evaluated, so never read (`subparsers: argparse._SubParsersAction`)."""
    if not any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
               and any(alias.name == "annotations" for alias in node.names) for node in tree.body):
        return set()
    roots = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            roots += [argument.annotation for argument in (*arguments.posonlyargs, *arguments.args,
                      *arguments.kwonlyargs, arguments.vararg, arguments.kwarg) if argument is not None]
            roots.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
    return {id(inner) for root in roots if root is not None for inner in ast.walk(root)}


def _package_sources() -> dict[str, str]:
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
            for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))}


def test_the_package_reads_no_private_attribute_of_the_standard_library():
    sources = _package_sources()
    trees = {name: ast.parse(text) for name, text in sources.items()}
    assert "patience/runs/pool.py" in sources and any(name.startswith("runners/") for name in sources)
    own = _own_attributes(trees)
    reads = {(name, attribute): line for name, tree in trees.items()
             for line, attribute in private_reads(tree, own, named=True)}
    found = sorted(f"{name}:{line}: {attribute}" for (name, attribute), line in reads.items())
    assert not found, "private attributes of the standard library read or named:\n" + "\n".join(found)


@pytest.mark.parametrize("source, name", [
    ("from concurrent.futures import process\nprocess._threads_wakeups.pop(1)", "_threads_wakeups"),
    ("import concurrent.futures.process as p\np._global_shutdown", "_global_shutdown"),
    ("from concurrent.futures.process import _threads_wakeups", "_threads_wakeups"),
    ("def stop(pool):\n    return pool._processes", "_processes"),
    ("def stop(pool):\n    return getattr(pool, '_executor_manager_thread', None)", "_executor_manager_thread"),
    ("import argparse\nargparse._SubParsersAction", "_SubParsersAction"),
    ("import argparse\ndef add(subparsers: argparse._SubParsersAction): ...", "_SubParsersAction"),  # evaluated
])
def test_a_private_read_is_found(source, name):
    assert [found for _, found in private_reads(source, own={"_path"})] == [name]


@pytest.mark.parametrize("source", [
    "import os\nos._exit(1)",  # documented as public
    "def f(row):\n    return row._asdict()",  # a namedtuple's, documented
    "from patience.runs import process\nprocess._processes()",  # the package's own module
    "class A:\n    def __init__(self):\n        self._path = 1\n    def same(self, other):\n        return other._path",
    "def f(x):\n    return x.__class__, x.__dict__",  # dunders are the language's
    "# pool._processes\ntext = 'pool._processes'",  # a comment or a string
    "from __future__ import annotations\nimport argparse\ndef add(subparsers: argparse._SubParsersAction): ...",
])
def test_a_public_read_is_not(source):
    assert private_reads(source, own={"_path"}) == []


def test_a_postponed_annotation_is_named_not_read():
    source = "from __future__ import annotations\nimport argparse\ndef add(subparsers: argparse._SubParsersAction): ..."
    assert private_reads(source, own=set()) == []
    assert private_reads(source, own=set(), named=True) == [(3, "_SubParsersAction")]
