"""Configurations (a label, a registered solver, its options) and YAML experiment files.

A configuration is what a campaign compares: `ace-sym` may be solver `ace` with `symmetry=on`.
On the command line: `--solvers native,fd-ff` (label = solver name) and repeatable
`--config "LABEL=SOLVER OPTION=VALUE ..."`. An experiment file says the same in YAML:

    deals: black_hole:1-200
    timeout: 10
    certify: true      # each loss a run reports gets a certificate (docs/certificates.md)
    configurations:
      native: {solver: native}
      native-nocache: {solver: native, options: {cache: "off"}}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from patience.caps import MAX_JOBS, MAX_MEMORY_MB, MAX_SECONDS
from patience.errors import InputError, UsageError, quote
from patience.numeric import real_value, whole_value
from patience.options import check_options, option_text
from patience.reading import compose_yaml, construct_yaml, read_text, yaml_child, yaml_line
from patience.runners.registry import get_solver, names_a_program

EXPERIMENT_KEYS = ("deals", "timeout", "cpu", "memory", "jobs", "certify", "configurations")


@dataclass(frozen=True)
class Configuration:
    """One column of the comparison: a solver run with fixed options under a label."""

    label: str
    solver: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def options_json(self) -> str:
        return json.dumps(dict(self.options), sort_keys=True)

    def describe(self) -> str:
        return " ".join([self.solver, *(f"{key}={value}" for key, value in self.options)])


def make(label: str, solver_name: str, options: Mapping[str, object] | None = None) -> Configuration:
    """A checked configuration: the solver exists and is installed, and knows every option."""
    if not label or any(character.isspace() or character == "," for character in label):
        raise UsageError(f"configuration label {quote(label)} must be non-empty, without spaces or commas")
    solver = get_solver(solver_name)
    if not solver.available():
        raise UsageError(f"configuration {label}: solver {solver_name} is not installed: {solver.install_hint()}")
    values = {str(key): option_text(value) for key, value in (options or {}).items()}  # YAML's on/off are booleans
    check_options(solver.options, values, f"configuration {label}: {solver_name}")
    return Configuration(label, solver_name, tuple(sorted(values.items())))


def gathered(configurations: Iterable[Configuration]) -> list[Configuration]:
    """The configurations given, each label once (in the order first given); a usage error for a label
    defined twice differently, or for none at all. `patience compare` and `patience.compare` both ask."""
    by_label: dict[str, Configuration] = {}
    for configuration in configurations:
        if by_label.setdefault(configuration.label, configuration) != configuration:
            raise UsageError(f"configuration {configuration.label} is defined twice, differently")
    if not by_label:
        raise UsageError("no configurations: give --solvers, --config or --experiment")
    return list(by_label.values())


def from_solver_list(text: str) -> list[Configuration]:
    """`native,fd-ff` -> one configuration per solver, labelled by the solver's name."""
    return [make(name.strip(), name.strip()) for name in text.split(",") if name.strip()]


def from_config_argument(text: str) -> Configuration:
    """`LABEL=SOLVER OPTION=VALUE ...` (the value of one --config)."""
    head, *pairs = text.split()
    label, equals, solver_name = head.partition("=")
    if not equals:
        raise UsageError(f"--config takes 'LABEL=SOLVER OPTION=VALUE ...', not {quote(text)}")
    options = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise UsageError(f"--config {quote(text)}: option {quote(pair)} is not OPTION=VALUE")
        options[key] = value
    return make(label, solver_name, options)


def read_experiment(path: str | Path, allow_executables: bool = False) -> tuple[dict[str, object], list[Configuration]]:
    """An experiment file: its settings (deals, timeout, cpu, memory, jobs) and configurations. A
    file that names a program to run (`solver: sat:PATH`) is code, not data: it is refused unless
    `allow_executables` (compare --allow-executables) says its author is trusted."""
    source = str(path)
    root = compose_yaml(read_text(path), source)
    data = construct_yaml(root, source)
    if not isinstance(data, dict):
        raise InputError(source, 1, "an experiment file is a mapping with deals, timeout and configurations")
    unknown = sorted(set(map(str, data)) - set(EXPERIMENT_KEYS))
    if unknown:
        raise InputError(source, None, f"unknown key {', '.join(unknown)}; known: {', '.join(EXPERIMENT_KEYS)}")
    settings = {key: data[key] for key in EXPERIMENT_KEYS[:-1] if key in data}
    _check_settings(settings, source, root)
    entries = data.get("configurations") or {}
    if isinstance(entries, list):
        entries = {str(name): {"solver": str(name)} for name in entries}
    if not isinstance(entries, dict):
        raise InputError(source, None, "configurations must be a list of solvers or a mapping label -> settings")
    configurations = []
    for label, entry in entries.items():
        entry = entry or {}
        if not isinstance(entry, dict) or not isinstance(entry.get("options") or {}, dict):
            raise InputError(source, None, f"configuration {label}: expected {{solver: NAME, options: {{...}}}}")
        solver_name = str(entry.get("solver", label))
        if names_a_program(solver_name) and not allow_executables:
            # the program's path once (in the solver's name): a long path must not push the advice past
            # the line's 400 characters
            raise InputError(source, None, f"configuration {label}: solver {solver_name} names a program; an "
                                           "experiment file that names a program is code: run it only if you trust "
                                           "its author, with --allow-executables")
        try:
            configurations.append(make(str(label), solver_name, entry.get("options")))
        except UsageError as error:
            raise InputError(source, None, str(error)) from None
    return settings, configurations


def _check_settings(settings: dict[str, object], source: str, root: yaml.Node | None) -> None:
    """The numbers of an experiment file within the caps of the command-line options they stand for
    (YAML reads `.inf` and `1e300` as floats, `true` as 1); refused naming their line otherwise."""
    for key, low, high in (("timeout", 0, MAX_SECONDS), ("cpu", 0, MAX_SECONDS)):
        if settings.get(key) is not None:
            real_value(settings[key], key, low, high, source, yaml_line(yaml_child(root, key)), above_low=True)
    for key, low, high in (("memory", 1, MAX_MEMORY_MB), ("jobs", 1, MAX_JOBS)):
        if settings.get(key) is not None:
            whole_value(settings[key], key, low, high, source, yaml_line(yaml_child(root, key)))
    if "certify" in settings and not isinstance(settings["certify"], bool):
        raise InputError(source, yaml_line(yaml_child(root, "certify")),
                         f"certify must be true or false, not {quote(str(settings['certify']))}")
