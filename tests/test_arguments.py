"""The parsers list their own options (patience/arguments.py): `--debug` reaches every subcommand, and a
stopped run's resume command repeats exactly the options given, groups' options included."""

from __future__ import annotations

import shlex

import pytest

from patience.arguments import RecordingParser
from patience.cli import build_parser
from patience.runs.stops import command_line


def _parser() -> RecordingParser:
    parser = RecordingParser(prog="patience survey")
    parser.add_argument("db")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--seed", action="append", default=[])
    levels = parser.add_mutually_exclusive_group()
    levels.add_argument("-O1", dest="level", action="store_const", const=1, default=0)
    levels.add_argument("-O2", dest="level", action="store_const", const=2, default=0)
    family = parser.add_argument_group("families")
    family.add_argument("--deals", type=int)
    parser.add_argument("--version", action="version", version="x")
    return parser


@pytest.mark.parametrize("words", [
    ["store.db"],
    ["store.db", "--jobs", "2", "--fresh"],
    ["my store.db", "--seed", "1", "--seed", "2", "-O2", "--deals", "7"],
])
def test_the_resume_command_parses_back_to_the_same_arguments(words):
    parser = _parser()
    args = parser.parse_args(words)
    line = command_line(parser, args)
    assert line.startswith("patience survey ")
    assert vars(parser.parse_args(shlex.split(line)[2:])) == vars(args)


def test_left_out_options_are_not_repeated():
    parser = _parser()
    args = parser.parse_args(["s.db", "--jobs", "3"])
    assert command_line(parser, args, leave_out=("jobs",)) == "patience survey s.db"


def test_every_subcommand_takes_debug_before_or_after_its_name():
    parser = build_parser()
    assert isinstance(parser, RecordingParser) and len(parser.subcommands) >= 10
    for subparser in parser.subcommands:
        assert any("--debug" in added.action.option_strings for added in subparser.added), subparser.prog
