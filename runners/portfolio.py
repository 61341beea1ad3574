"""The `portfolio` solver: the native solver with CP-SAT after its search on every deal of up to 420
cards, where the native solver's own default (`then=auto`) runs CP-SAT only on generalised deals of up
to 128 cards.

Why both: on the band's deals of 104 cards (26 x 4 x 3) the search leaves open lost deals that CP-SAT
without presolve refutes in seconds, so the default route hands it the second half of the limits
there; on deals of 208-416 cards CP-SAT answers on few within 30 s and costs the wins the search finds
after 30 s (docs/hardness.md), so there it runs only on request, through this preset.

The stages are the native solver's for every game CP-SAT has a model of (`Native.solve`: the game's
own search through its `native_search` hook, then CP-SAT on its model), so Golf's and Worm Hole's
deals get the same: their search for half the limits, CP-SAT without presolve on what it leaves open.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from patience.options import Schema
from patience.result import Answer
from patience.runners.cpsat import CpSat
from patience.runners.native import Native

PRESET = {"then": "cpsat", "then-cards": "420"}  # the native solver's options this preset sets


class Portfolio(Native):
    name = "portfolio"
    description = ("the native search for a share of the time, then CP-SAT without presolve for the rest "
                   "(deals of at most --set then-cards cards: 420)")
    games = tuple(game for game in Native.games if game in CpSat.games)
    options: ClassVar[Schema] = tuple(replace(option, default=PRESET.get(option.name, option.default))
                                      for option in Native.options)

    def available(self) -> bool:
        return CpSat().available()

    def install_hint(self) -> str:
        return CpSat().install_hint()

    def version(self) -> str | None:
        return f"native {super().version()} + ortools {CpSat().version()}"

    def version_of(self, answer: Answer) -> str | None:
        return self.version()
