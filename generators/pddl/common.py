"""What the PDDL models of every game share: the two files, the rank objects' names, and the plan
step a planner's output is read into (runners/pddl_plan.py) before a game's model decodes it."""

from __future__ import annotations

from dataclasses import dataclass

DOMAIN_FILE = "domain.pddl"
PROBLEM_FILE = "problem.pddl"
RANK_WORDS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")


@dataclass(frozen=True)
class Action:
    """One plan step: operator and arguments (lower case), and the line it was read from."""

    operator: str
    arguments: tuple[str, ...]
    line: int
