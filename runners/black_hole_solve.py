"""Shlomi Fish's black-hole-solve (C), the fastest public Black Hole solver: the yardstick of the
native search, and a second specialised solver for campaigns.

It is in neither PyPI nor Debian; it is found as `black-hole-solve` on PATH or through
BLACK_HOLE_SOLVE_PATH. It reads board text and plays the standard games only: Black Hole, All in a
Row, and PySolFC's Golf in its three variants (`--game golf`, then `--queens-on-kings` or
`--wrap-ranks`: after `--game golf`, which turns wrapping off again). Its search is exhaustive, so
`Unsolved!` is a proof; `Intractable!` means its iteration limit was reached. Its moves are read by
the deal's game (Black Hole's cards, Golf's pile moves and talon deals) and replayed by its rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from patience.answers import BLACK_HOLE_SOLVE_VERDICTS, black_hole_solve_verdict
from patience.errors import InputError, quote
from patience.games import AnyDeal, Move, game_of, write_game_deal
from patience.generators.files import ModelFiles
from patience.names import ALL_IN_A_ROW, BLACK_HOLE, GOLF, GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS
from patience.numeric import count_or_none
from patience.options import Count, Schema, Switch
from patience.result import Answer, Status
from patience.runners.base import ExecutableSolver, ProcessSolver, answer_from_run
from patience.runs.process import Limits, ProcessRun

BOARD_FILE = "board.txt"
_STATES = re.compile(r"^Total number of states checked is (\d+)\.", re.MULTILINE)
# Its `--game` and the flags after it, for each game it plays.
GAME_FLAGS: dict[str, tuple[str, ...]] = {
    BLACK_HOLE: ("--game", BLACK_HOLE), ALL_IN_A_ROW: ("--game", ALL_IN_A_ROW), GOLF: ("--game", "golf"),
    GOLF_QUEENS_ON_KINGS: ("--game", "golf", "--queens-on-kings"), GOLF_WRAP_RANKS: ("--game", "golf", "--wrap-ranks")}
_VERDICTS = dict(zip(BLACK_HOLE_SOLVE_VERDICTS, (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN), strict=True))


class BlackHoleSolve(ProcessSolver, ExecutableSolver):
    name = "black-hole-solve"
    paradigm = "native"
    description = "Shlomi Fish's black-hole-solve (C depth-first search): Black Hole, All in a Row, Golf's variants"
    executables = ("black-hole-solve",)
    env_var = "BLACK_HOLE_SOLVE_PATH"
    games = tuple(GAME_FLAGS)
    options: ClassVar[Schema] = (
        Count("max-iters", None, "its --max-iters: stop (status unknown) after this many iterations"),
        Switch("rank-reach-prune", "off", "its --rank-reach-prune (off, as in the published figures)"),
    )

    def version(self) -> str | None:
        line = self.version_line()
        return line.removeprefix("black-hole-solver version ").strip() if line else None

    def install_hint(self) -> str:
        return ("build it from source (GitHub shlomif/black-hole-solitaire, folder c-solver: cmake, with "
                "rinutils, xxHash-wrapper, shlomif-cmake-modules and libpath-tiny-perl) and put "
                "`black-hole-solve` on PATH or set BLACK_HOLE_SOLVE_PATH to the binary")

    def build(self, deal: AnyDeal, options: Mapping[str, Any]) -> ModelFiles:
        """Its input is the deal itself, as board text (Golf's with its `Talon:` line)."""
        return ModelFiles({BOARD_FILE: write_game_deal(deal, "board")}, BOARD_FILE,
                          lambda text, source: read_output(text, source, deal), {"game": game_of(deal).variant(deal)})

    def command(self, model: ModelFiles, limits: Limits, options: Mapping[str, Any]) -> list[str]:
        command = [self.executable() or "black-hole-solve", *GAME_FLAGS[str(model.stats["game"])]]
        if options["max-iters"] is not None:
            command += ["--max-iters", str(options["max-iters"])]
        if options["rank-reach-prune"]:
            command.append("--rank-reach-prune")
        return [*command, model.primary]

    def read_verdict(self, run: ProcessRun, folder: Path, model: ModelFiles, options: Mapping[str, Any]) -> Answer:
        try:
            status, sequence, nodes = model.decode(run.stdout, "black-hole-solve output")
        except InputError as error:
            detail = (run.stderr.strip() or f"exit {run.returncode}").splitlines()[-1][:200]
            raise InputError(error.source, error.line, f"{error.message}; black-hole-solve: {detail}") from None
        return answer_from_run(run, status, sequence, nodes=nodes)


def read_output(text: str, source: str, deal: AnyDeal) -> tuple[Status, tuple[Move, ...] | None, int | None]:
    """Its stdout: the verdict line, the moves when solved (read by the deal's game), and the states it checked."""
    verdict = black_hole_solve_verdict(text)
    if verdict not in _VERDICTS:
        raise InputError(source, 1, f"expected Solved!, Unsolved! or Intractable!, not {quote(verdict)}")
    states = _STATES.search(text)
    nodes = count_or_none(states.group(1)) if states else None
    sequence = game_of(deal).read_answer(text, source, deal) if _VERDICTS[verdict] is Status.SOLVED else None
    return _VERDICTS[verdict], sequence, nodes
