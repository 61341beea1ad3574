"""The package layout and the compiled search; the rest of the project's metadata is in pyproject.toml.

The layout is discovered, not listed, so that it cannot drift from the folders: `patience/` is the
import package `patience`, and each of the design's top-level folders below is mapped into it
(`generators/` is `patience.generators`, ...). Every subpackage of these folders is found, and every
file in a package folder (or in a subfolder that is no package) that is not Python source or a build
product ships as package data (the templates, the fixed models, the examples, whatever a module reads
with importlib.resources).

The extensions are optional: where one cannot be compiled its game's search runs its Python engine."""

import hashlib
from pathlib import Path

from setuptools import Extension, find_packages, setup

ROOT = Path(__file__).parent
SEARCH_SOURCE = "patience/native/_search.c"
GOLF_SOURCE = "patience/golf/_golf.c"
WORM_HOLE_SOURCE = "patience/worm_hole/_worm_hole.c"
EXTENSION_HEADER = "patience/extension.h"  # what Golf's and Worm Hole's searches share (#include "../extension.h")
MAPPED_FOLDERS = ("generators", "runners", "templates", "models")
NOT_DATA = {".py", ".pyc", ".pyo", ".so", ".pyd", ".c", ".h"}  # sources and build products, not data


ROOTS = {"patience": "patience"} | {f"patience.{folder}": folder for folder in MAPPED_FOLDERS}


def package_folders() -> dict[str, str]:
    """Every import package and the folder (relative to the project) it lives in."""
    folders = {}
    for package, root in ROOTS.items():
        folders[package] = root
        for subpackage in find_packages(root):
            folders[f"{package}.{subpackage}"] = f"{root}/{subpackage.replace('.', '/')}"
    return folders


def package_data(folders: dict[str, str]) -> dict[str, list[str]]:
    """Each package's data files: the files in its folder that are not code, and those of its
    subfolders that are no package (a tree of data, such as patience/examples' deal folders)."""
    data = {}
    for package, folder in folders.items():
        names = sorted(_data_files(ROOT / folder, ROOT / folder))
        if names:
            data[package] = names
    return data


def _data_files(folder: Path, package: Path) -> list[str]:
    """The data files of `folder`, relative to `package`, with those of its subfolders that hold no
    __init__.py (a subpackage lists its own)."""
    names = []
    for path in folder.iterdir():
        if path.name.startswith(".") or path.name == "__pycache__":
            continue
        if path.is_file() and path.suffix not in NOT_DATA:
            names.append(path.relative_to(package).as_posix())
        elif path.is_dir() and not (path / "__init__.py").exists():
            names += _data_files(path, package)
    return names


def source_digest(*paths: str) -> str:
    """The digest the compiled search carries of its sources, the .c file and then any header it includes
    (patience.native.engine and the games' `compiled()` compare them)."""
    return hashlib.sha256(b"".join((ROOT / path).read_bytes() for path in paths)).hexdigest()[:16]


def game_search(name: str, source: str) -> Extension:
    """A game's compiled search: its .c file and the shared header, which `depends` puts in the sdist."""
    return Extension(name, [source], depends=[EXTENSION_HEADER],
                     define_macros=[("PATIENCE_SOURCE", f'"{source_digest(source, EXTENSION_HEADER)}"')],
                     extra_compile_args=["-O3", "-std=c99"], optional=True)


FOLDERS = package_folders()
setup(packages=sorted(FOLDERS),
      package_dir=ROOTS,
      package_data=package_data(FOLDERS),
      # sources go in the sdist only
      exclude_package_data={"patience": ["*.h"], "patience.native": ["*.c"], "patience.golf": ["*.c"],
                            "patience.worm_hole": ["*.c"]},
      ext_modules=[Extension("patience.native._search", [SEARCH_SOURCE],
                             define_macros=[("PATIENCE_SEARCH_SOURCE", f'"{source_digest(SEARCH_SOURCE)}"')],
                             extra_compile_args=["-O3", "-std=c99"], optional=True),
                   game_search("patience.golf._golf", GOLF_SOURCE),
                   game_search("patience.worm_hole._worm_hole", WORM_HOLE_SOURCE)])
