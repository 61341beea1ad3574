"""The specialised solver (the paper's fifth paradigm): a depth-first search run in this process,
compiled (patience.native._search, built by setup.py) when available, else the Python reference.

Every pruning rule can be switched off so its effect can be measured; limits end the search with
timeout/unknown, never a verdict the search did not prove.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import ClassVar

from patience.deal import Deal
from patience.errors import UsageError
from patience.native import engine
from patience.result import Answer, Status
from patience.runners.base import Solver, option_flag
from patience.runners.process import Limits

RULES = ("cache", "symmetry", "wolter", "reach", "restarts")


class Native(Solver):
    name = "native"
    paradigm = "native"
    description = "specialised depth-first search with failure cache and symmetry/rank pruning (C, or Python)"
    options: ClassVar[Mapping[str, str]] = {
        "engine": "c or python (default: c when built, else python)",
        "cache": "on/off: the failure cache of (cards played, hole rank) states (default on)",
        "symmetry": "on/off: the paper's unit/general conditional symmetry rule (default on)",
        "wolter": "on/off: Wolter's last-card-of-a-pile and one-card-pile prunings (default on)",
        "reach": "on/off: reject moves that strand a rank on the rank cycle; in max-cards mode, moves whose "
                 "reachable cards cannot beat the longest play (default on)",
        "restarts": "on/off: give a round up after a node budget (doubled each round) and start again with ties "
                    "broken in another pile order, keeping the failure cache (default on)",
        "max-cards": "on/off: Wolter's analysis mode, report the most cards that can be played (default off)",
        "nodes": "node limit (default none); reaching it gives status unknown",
    }

    def version(self) -> str | None:
        return "c" if engine.compiled() else "python"

    def solve(self, deal: Deal, limits: Limits, options: Mapping[str, str]) -> Answer:
        self.refuse_unknown_options(options)
        rules = {rule: option_flag(options, rule, True) for rule in RULES}
        max_cards = option_flag(options, "max-cards", False)
        node_limit = _node_limit(options.get("nodes"))
        seconds = min((limit for limit in (limits.timeout, limits.cpu_limit) if limit is not None), default=None)
        started, cpu_started = time.monotonic(), time.process_time()
        outcome, used = engine.run(deal, options.get("engine"), rules, max_cards, node_limit, seconds,
                                   limits.memory_mb)
        wall, cpu = time.monotonic() - started, time.process_time() - cpu_started
        stats: dict[str, float | int | str] = {
            "engine": used, "nodes_per_s": round(outcome.nodes / wall) if wall > 0 else 0,
            "cached_states": outcome.cached,
        }
        if max_cards:
            stats["max_cards"] = outcome.max_cards
        if outcome.status == engine.SOLVED:
            return Answer(Status.SOLVED, outcome.sequence, wall, cpu, outcome.nodes, stats)
        if outcome.status == engine.UNSOLVABLE:
            if outcome.sequence:
                stats["longest_play"] = " ".join(deal.name(card) for card in outcome.sequence)
            return Answer(Status.UNSOLVABLE, None, wall, cpu, outcome.nodes, stats)
        hit_nodes = node_limit is not None and outcome.nodes >= node_limit
        status = Status.UNKNOWN if hit_nodes else Status.TIMEOUT
        return Answer(status, None, wall, cpu, outcome.nodes, stats,
                      message="node limit reached" if hit_nodes else "time limit reached")


def _node_limit(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"option nodes must be a whole number, not {text!r}") from None
    if value < 1:
        raise UsageError("option nodes must be at least 1")
    return value
