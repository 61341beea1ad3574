"""Shlomi Fish's black-hole-solve (C), the fastest public Black Hole solver: the yardstick of the
native search, and a second specialised solver for campaigns.

It is in neither PyPI nor Debian; it is found as `black-hole-solve` on PATH or through
BLACK_HOLE_SOLVE_PATH. It reads board text and plays the two standard games only. Its search is
exhaustive, so `Unsolved!` is a proof; `Intractable!` means its iteration limit was reached.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from patience.answers import BLACK_HOLE_SOLVE_VERDICTS, black_hole_solve_verdict, read_black_hole_solve
from patience.cards import Card
from patience.deal import ALL_IN_A_ROW, BLACK_HOLE, Deal
from patience.errors import InputError, UsageError
from patience.formats import board
from patience.result import Answer, Status
from patience.runners.base import ExecutableSolver, answer_from_run, option_flag
from patience.runners.process import Limits, run_process

_STATES = re.compile(r"^Total number of states checked is (\d+)\.", re.MULTILINE)
_VERDICTS = dict(zip(BLACK_HOLE_SOLVE_VERDICTS, (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN), strict=True))


class BlackHoleSolve(ExecutableSolver):
    name = "black-hole-solve"
    paradigm = "native"
    description = "Shlomi Fish's black-hole-solve (C depth-first search), standard Black Hole and All in a Row"
    executables = ("black-hole-solve",)
    env_var = "BLACK_HOLE_SOLVE_PATH"
    options: ClassVar[Mapping[str, str]] = {
        "max-iters": "its --max-iters: stop (status unknown) after this many iterations (default none)",
        "rank-reach-prune": "on/off: its --rank-reach-prune (default off, as the published figures)",
    }

    def version(self) -> str | None:
        line = self.version_line()
        return line.removeprefix("black-hole-solver version ").strip() if line else None

    def install_hint(self) -> str:
        return ("build it from source (GitHub shlomif/black-hole-solitaire, folder c-solver: cmake, with "
                "rinutils, xxHash and libpath-tiny-perl) and put `black-hole-solve` on PATH or set "
                "BLACK_HOLE_SOLVE_PATH to the binary")

    def solve(self, deal: Deal, limits: Limits, options: Mapping[str, str]) -> Answer:
        if deal.game not in (BLACK_HOLE, ALL_IN_A_ROW):
            return Answer(Status.ERROR, message="black-hole-solve plays only standard Black Hole and All in a Row")
        self.refuse_unknown_options(options)
        command = [self.executable() or "black-hole-solve", "--game", deal.game]
        if options.get("max-iters"):
            if not options["max-iters"].isdigit():
                raise UsageError(f"option max-iters must be a whole number, not {options['max-iters']!r}")
            command += ["--max-iters", options["max-iters"]]
        if option_flag(options, "rank-reach-prune", False):
            command.append("--rank-reach-prune")
        with tempfile.TemporaryDirectory(prefix="patience-") as folder:
            Path(folder, "board.txt").write_text(board.write(deal))
            run = run_process([*command, "board.txt"], limits, cwd=folder)
        try:
            status, sequence, nodes = read_output(run.stdout, "black-hole-solve output", deal)
        except InputError as error:
            detail = (run.stderr.strip() or f"exit {run.returncode}").splitlines()[-1][:200]
            status = Status.UNKNOWN if run.timed_out or run.memout else Status.ERROR
            return answer_from_run(run, status, message=f"{error}; black-hole-solve: {detail}")
        return answer_from_run(run, status, sequence, nodes=nodes)


def read_output(text: str, source: str, deal: Deal) -> tuple[Status, tuple[Card, ...] | None, int | None]:
    """Its stdout: the verdict line, the moves when solved, and the states it checked."""
    verdict = black_hole_solve_verdict(text)
    if verdict not in _VERDICTS:
        raise InputError(source, 1, f"expected Solved!, Unsolved! or Intractable!, not {verdict[:40]!r}")
    states = _STATES.search(text)
    nodes = int(states.group(1)) if states else None
    sequence = read_black_hole_solve(text, source, deal) if _VERDICTS[verdict] is Status.SOLVED else None
    return _VERDICTS[verdict], sequence, nodes
