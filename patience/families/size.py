"""The size of a deal's model, in the terms of its language (the family index's columns): variables
and clauses (CNF), rows and columns (LP), variables and constraints (XCSP3, CP-SAT), objects,
initial facts and actions (PDDL). Read from the generator's own counts where it keeps them, else
counted in the files in one pass."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping

from patience.generators.files import ModelFiles

SIZE_COLUMNS = ("variables", "clauses", "constraints", "rows", "columns", "objects", "facts", "actions")
_ARRAY_SIZE = re.compile(r"\[(\d+)\]")
_ACTION = re.compile(r"\(:action\b", re.IGNORECASE)


def model_size(language: str, model: ModelFiles) -> dict[str, int]:
    """The size columns that apply to `language` (others are left out)."""
    primary = model.files[model.primary]
    if language == "cnf":
        return {key: int(model.stats[key]) for key in ("variables", "clauses")}
    if language == "lp":
        return {key: int(model.stats[key]) for key in ("rows", "columns")}
    if language == "xcsp3":
        return _xcsp3_size(primary)
    if language == "cpsat":
        return _proto_size(primary)
    if language == "pddl":
        return _pddl_size(primary, [text for name, text in model.files.items() if name != model.primary])
    return {}


def _xcsp3_size(text: str) -> dict[str, int]:
    """Variables (arrays counted cell by cell) and constraints (a group counts once per args)."""
    root = ElementTree.fromstring(text)
    variables = 0
    for element in root.iter():
        if element.tag == "var":
            variables += 1
        elif element.tag == "array":
            cells = 1
            for size in _ARRAY_SIZE.findall(element.get("size", "")):
                cells *= int(size)
            variables += cells
    constraints = 0
    block = root.find("constraints")
    for element in ([] if block is None else _leaves(block)):
        constraints += max(1, len(element.findall("args"))) if element.tag == "group" else 1
    return {"variables": variables, "constraints": constraints}


def _leaves(block: ElementTree.Element) -> list[ElementTree.Element]:
    """The constraints of a block, looking through nested blocks."""
    found = []
    for element in block:
        found.extend(_leaves(element) if element.tag == "block" else [element])
    return found


def _proto_size(text: str) -> dict[str, int]:
    """A CpModelProto's text lists each top-level variable and constraint at the line's start."""
    lines = text.splitlines()
    return {"variables": sum(line.startswith("variables {") for line in lines),
            "constraints": sum(line.startswith("constraints {") for line in lines)}


def _pddl_size(problem: str, domains: list[str]) -> dict[str, int]:
    """Objects declared, atoms in the initial state, and the domain's action schemas."""
    lowered = problem.lower()
    objects = _section(lowered, "(:objects")
    names = [word for word in objects.split() if not word.startswith("-")]
    typed = sum(1 for word in objects.split() if word == "-")
    init = _section(lowered, "(:init")
    return {"objects": len(names) - typed, "facts": init.count("("),
            "actions": sum(len(_ACTION.findall(domain)) for domain in domains)}


def _section(text: str, opening: str) -> str:
    """The text inside one top-level section, up to its closing parenthesis."""
    start = text.find(opening)
    if start < 0:
        return ""
    depth, position = 0, start
    for position in range(start, len(text)):
        if text[position] == "(":
            depth += 1
        elif text[position] == ")":
            depth -= 1
            if depth == 0:
                break
    return text[start + len(opening):position]


def size_of(sizes: Mapping[str, int]) -> dict[str, int | str]:
    """Every size column, empty where the language has no such count."""
    return {column: sizes.get(column, "") for column in SIZE_COLUMNS}
