"""The specialised solvers (the paper's fifth paradigm): for the Black Hole family and Binary Star
(two foundations) a depth-first search, compiled (patience.native._search, built by setup.py, run
in this process) when available and the board fits it, else the Python reference; for Late Binding
Solitaire a search over rows with a failure cache. The Python searches run in a child process under
the runner core's limits (patience.runners.python_search); the result names the engine that ran.

Every pruning rule can be switched off so its effect can be measured; limits end the search with
timeout (the clock) or unknown (the node limit), never a verdict the search did not prove. The
wall-clock limit and the CPU limit are two clocks, whichever ends first: on a loaded machine
`--cpu 60` still gives the search 60 s of CPU (the wall-clock limit, if any, may end it sooner).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.deal import Deal
from patience.errors import InputError, UsageError
from patience.games import AnyDeal, game_of, games_with, hook
from patience.lbs import rules as lbs_rules
from patience.lbs.deal import LBSDeal
from patience.names import GENERALISED
from patience.native import engine
from patience.native.board import Board
from patience.native.reference import Outcome
from patience.native.rules import Rules
from patience.options import Count, Option, Schema, Switch, check_options
from patience.result import Answer, Status
from patience.runners import python_search
from patience.runners.base import ProcessSolver, Solver
from patience.runs.process import CPU_REACHED, TIME_REACHED, Limits, ProcessRun

THEN_CARDS = 128  # then=auto: CP-SAT after the search on generalised deals of at most this many cards
LIMIT_REACHED = {Status.TIMEOUT: TIME_REACHED, Status.UNKNOWN: "node limit reached"}
CPU_LIMIT_REACHED = CPU_REACHED  # a timeout at the CPU limit, as runners/sat_embedded.py says it


class Native(Solver):
    name = "native"
    paradigm = "native"
    description = "specialised depth-first search with failure cache and symmetry/rank pruning (C, or Python)"
    games: ClassVar[tuple[str, ...]] = games_with("native_search")  # every game that names its search
    options: ClassVar[Schema] = (
        Option("engine", None, "the search (Black Hole's, Golf's, Worm Hole's): c, or the python reference "
                               "(default: c when built)", ("c", "python")),
        Switch("cache", "on", "the failure cache of (cards played, hole rank) states"),
        Switch("symmetry", "on", "the paper's unit/general conditional symmetry rule"),
        Switch("wolter", "on", "Wolter's last-card-of-a-pile and one-card-pile prunings"),
        Switch("reach", "on", "reject moves that strand a rank on the rank cycle, or that leave more cards of some "
                              "ranks than cards and tops next to them (the balance test: one foundation of 3-64 "
                              "ranks, in decision mode only on boards of at most 64 cards or without the live-card "
                              "bound; several foundations in decision mode), or (one foundation) that leave a card "
                              "no play can reach (the live-card bound); in max-cards mode, moves whose reachable "
                              "cards cannot beat the longest play"),
        Switch("restarts", "on", "give a round up after a node budget (Luby's sequence) and start again from the "
                                 "first play with ties shuffled and some piles counted taller, keeping the failure "
                                 "cache"),
        Switch("noise", "off", "with restarts: every round after the first puts a random move first at one node in "
                               "two (repeatable; the survey's second search of a Binary Star deal left open)"),
        Switch("wide", "on", "with reach and one foundation: the live-card bound on boards past 64 piles or ranks "
                             "too (the generalised game's large deals), and in max-cards mode the balance test"),
        Switch("max-cards", "off", "Wolter's analysis mode: report the most cards that can be played"),
        Count("nodes", None, "node limit; reaching it gives status unknown"),
        Option("direction", "auto", "auto: both for a generalised deal (not Black Hole's or All in a Row's "
                                    "layout) in decision mode, else forward; forward: the search from the first play; "
                                    "backward: from the last play (the deal's piles turned over, the play ending next "
                                    "to the foundation card; decision mode); both: the two in turn, a round of each, "
                                    "until one decides (needs restarts)", ("auto", "forward", "backward", "both")),
        Option("then", "auto", "what decides on the time the search leaves (after its `share` of the limits): "
                               "cpsat, CP-SAT on the game's CP-SAT model (the paper's CP model for the Black Hole "
                               "family; Golf's, Worm Hole's) with its presolve off; none; auto: cpsat for "
                               "a generalised deal of at most `then-cards` cards in decision mode without a node "
                               "limit (the search leaves some of those open that CP-SAT refutes in seconds: "
                               "docs/hardness.md), else none", ("auto", "cpsat", "none")),
        Count("then-cards", str(THEN_CARDS), "the most cards of a deal `then` runs CP-SAT on (it answered on few "
                                             "deals of 208 cards and none of 800)", maximum=100_000),
        Count("share", "50", "when `then` runs CP-SAT: the search's share of the time and CPU limits, in percent",
              maximum=100),
    )

    def version(self) -> str | None:
        return "c" if engine.compiled() else "python"

    def version_of(self, answer: Answer) -> str | None:
        return str(answer.stats.get("engine", self.version()))

    def solve(self, deal: AnyDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
        """The search of the deal's game (its `Game.native_search`), on what reading the deal left of
        the limits (the searches count from here), and CP-SAT on what it leaves open where `then`
        asks for it (`runs_cpsat`): the same stages for every game CP-SAT has a model of."""
        game = game_of(deal)
        if game.native_search is None:
            raise UsageError(f"the native search does not play {game.name} deals")
        search: NativeSearch = hook(game.native_search)
        left = limits.left()
        if not runs_cpsat(options, deal, left):
            return search(deal, left, options)
        first = search(deal, _scaled(left, options["share"] / 100), options)
        if first.status not in (Status.TIMEOUT, Status.UNKNOWN):  # decided, or an error to report
            return first
        return _cpsat_after(deal, first, left)


NativeSearch = Callable[[Any, Limits, Mapping[str, Any]], Answer]  # a game's `native_search`


def solve_black_hole(deal: Deal, limits: Limits, options: Mapping[str, Any]) -> Answer:
    """The Black Hole family's search: from the front, the back or both (CP-SAT on what it leaves is
    `Native.solve`'s, as for every game)."""
    return _search(deal, _direction(options, deal), limits, options)


def solve_binary_star(deal: BinaryStarDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
    """Binary Star's search: the same engine on a board of several foundations."""
    board = Board.of_piles(deal.piles, deal.foundations, deal.ranks)
    return solve_board(board, deal.name, binary_star_plays, limits, options)


def solve_lbs(deal: LBSDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
    """Late Binding Solitaire's search over rows, in a child process; with max-cards on, the most
    moves any play makes (stats `max_cards`) and such a play (`longest_play`), replayed here."""
    return _solve_lbs(deal, limits, options["nodes"], bool(options["max-cards"]))


def _search(deal: Deal, direction: str, limits: Limits, options: Mapping[str, Any]) -> Answer:
    if direction == "forward":
        return solve_board(Board.of(deal), deal.name, _cards, limits, options)
    return _solve_from_the_back(deal, direction == "both", limits, options)


def runs_cpsat(options: Mapping[str, Any], deal: AnyDeal, limits: Limits) -> bool:
    """Whether CP-SAT gets the time the search leaves: `then` says cpsat, or auto on a generalised deal
    of at most `then-cards` cards in decision mode with no node limit; never past `then-cards` cards
    (the cards to play, as the game's `sizes` counts them: Golf's pile cards), nor when CP-SAT's part
    of the time limit is less than a second past its kill grace (none of it would be CP-SAT's: the
    search keeps all). then=cpsat on a game CP-SAT has no model of is a usage error."""
    then = options["then"]
    if then == "cpsat" and options["max-cards"]:
        raise UsageError("then=cpsat decides a deal; max-cards needs then=none")
    game = game_of(deal)
    variant = game.variant(deal)
    if then == "auto":
        then = ("cpsat" if variant == GENERALISED and not options["max-cards"] and options["nodes"] is None
                else "none")
    if then != "cpsat":
        return False
    if variant not in _cpsat().games:
        raise UsageError(f"then=cpsat: CP-SAT has no model of {variant} deals; give then=none")
    limit = limits.cpu_limit
    return (game.sizes(deal).cards <= options["then-cards"]
            and limit is not None and limit * (1 - options["share"] / 100) >= _cpsat().grace + 1)


def _cpsat() -> type[ProcessSolver]:
    """The cpsat runner, imported only where CP-SAT may run; its `grace` is the kill grace it runs under."""
    from patience.runners.cpsat import CpSat

    return CpSat


def _cpsat_after(deal: AnyDeal, first: Answer, limits: Limits) -> Answer:
    """CP-SAT without presolve (OR-Tools 9.15's presolve calls some won deals infeasible) on the limits
    the search left. CP-SAT stops itself at its wall-clock limit and its runner kills it its `grace`
    after the CPU limit, so that grace comes off here and the whole stays within the limits given. The
    answer counts both stages and names the route (cpsat) when CP-SAT decides."""
    second_solver = _cpsat()()
    grace = second_solver.grace
    left = Limits(_left(limits.timeout, first.wall + grace), _left(limits.cpu, first.cpu + grace),
                  limits.memory_mb).counting()  # CP-SAT's model is built on its part of the limits
    second = second_solver.solve(deal, left, check_options(second_solver.options, {"presolve": "off"}, "cpsat"))
    stats = {**second.stats, "search_nodes": first.nodes or 0, "search_cpu": round(first.cpu, 3),
             **{key: value for key, value in first.stats.items() if key.endswith("_nodes") or key == "engine"}}
    if second.status in (Status.SOLVED, Status.UNSOLVABLE):
        stats["route"] = "cpsat"
    return replace(second, wall=first.wall + second.wall, cpu=first.cpu + second.cpu, stats=stats)


def _scaled(limits: Limits, share: float) -> Limits:
    return Limits(None if limits.timeout is None else limits.timeout * share,
                  None if limits.cpu is None else limits.cpu * share, limits.memory_mb)


def _left(limit: float | None, spent: float) -> float | None:
    """What a limit leaves after `spent` seconds (a sliver at least: a limit must be more than 0)."""
    return None if limit is None else max(limit - spent, 0.01)


def _direction(options: Mapping[str, Any], deal: Deal) -> str:
    """The search the `direction` option asks for: forward, backward or both. `auto` takes both
    for a generalised deal in decision mode: on the hard band the back decides at once many deals the
    front leaves open at 60 s (docs/hardness.md); Black Hole's and All in a Row's deals, and a search
    without restarts, keep the front alone, as measured and published."""
    direction = options["direction"]
    if direction == "auto":
        direction = ("both" if deal.game == GENERALISED and not options["max-cards"] and options["restarts"]
                     else "forward")
    if direction != "forward" and options["max-cards"]:
        raise UsageError("direction backward or both decides a deal; max-cards needs direction forward")
    if direction == "both" and not options["restarts"]:
        raise UsageError("direction both takes turns at the restarts; it needs restarts on")
    return direction


def _backward_cards(outcome: Outcome) -> tuple[Any, ...]:
    """A win of the turned-over board, read from its end: the deal's win."""
    return tuple(reversed(outcome.sequence or ()))


def _solve_from_the_back(deal: Deal, both: bool, limits: Limits, options: Mapping[str, Any]) -> Answer:
    """The search from the back alone, or (both) the searches from the front and from the back
    taking turns a round at a time (engine.run_both), each with its own failure cache and restarts,
    until one decides or the limits end both. A search that decides is exact either way: a win from
    the back, read forwards, is a win (replayed by the validator like any answer), and a loss from
    the back proves the deal lost. The answer names the direction that decided (`route`) and counts
    every node. The compiled search runs here; the Python one (a board too large for the compiled,
    or engine=python) in a child process under the runner core, as `solve_board`'s."""
    backward, rules, node_limit = Board.reversed_of(deal), Rules.of(options), options["nodes"]
    used = engine.choose(backward, options["engine"])  # the deal's own board has the same cards and ranks
    command = ""
    if used == "python":
        run = (python_search.run_both(deal, rules, node_limit, limits) if both
               else python_search.run_board(backward, rules, False, node_limit, limits))
        if run.out_of_time or run.memout:
            return failed_run(run, {"engine": used})
        try:
            outcome, route, spent = (python_search.read_both(run) if both else
                                     (python_search.read_outcome(run), "backward", {}))
        except InputError as error:
            return failed_run(run, {"engine": used}, error)
        wall, cpu, command = run.wall, run.cpu, run.command_line
    else:
        started, cpu_started = time.monotonic(), time.process_time()
        if both:
            outcome, route, _, spent = engine.run_both(deal, used, rules, node_limit, limits.timeout,
                                                       limits.memory_mb, limits.cpu_limit)
        else:
            outcome, route = engine.run_board(backward, used, rules, False, node_limit, limits.timeout,
                                              limits.memory_mb, limits.cpu_limit)[0], "backward"
        wall, cpu = time.monotonic() - started, time.process_time() - cpu_started
    if not both:
        outcome = replace(outcome, sequence=_backward_cards(outcome) if outcome.sequence is not None else None)
        spent = {"backward_nodes": outcome.nodes}
    stats: dict[str, float | int | str] = {"engine": used, **spent}
    if outcome.status in (Status.SOLVED, Status.UNSOLVABLE):
        stats["route"] = route
        return Answer(outcome.status, outcome.sequence if outcome.status is Status.SOLVED else None, wall, cpu,
                      outcome.nodes, stats, command)
    return Answer(outcome.status, None, wall, cpu, outcome.nodes, stats, command, message=_limit_message(outcome))


def _limit_message(outcome: Outcome) -> str:
    """Why a search ended undecided: the node limit, the wall clock or the CPU limit."""
    return CPU_LIMIT_REACHED if outcome.cpu_limited else LIMIT_REACHED[outcome.status]


def _cards(outcome: Outcome) -> tuple[Any, ...]:
    """A Black Hole win: the cards in the order played."""
    return outcome.sequence or ()


def binary_star_plays(outcome: Outcome) -> tuple[Any, ...]:
    """A Binary Star win: each card with the foundation it went onto and the pile it left."""
    return tuple(Play(card, foundation, pile) for card, foundation, pile
                 in zip(outcome.sequence or (), outcome.foundations or (), outcome.piles or (), strict=True))


def solve_board(board: Board, name: Callable[[Any], str], moves: Callable[[Outcome], tuple[Any, ...]],
                limits: Limits, options: Mapping[str, Any]) -> Answer:
    """The engine's search of `board` (`name` names a card, `moves` reads a win from the outcome): the
    compiled search runs here (it keeps its own clock and bounds its cache by the memory limit); the
    Python search runs in a child process under the runner core."""
    rules = Rules.of(options)
    node_limit = options["nodes"]
    used = engine.choose(board, options["engine"])
    if used == "c":
        started, cpu_started = time.monotonic(), time.process_time()
        outcome = engine.run_compiled(board, rules, options["max-cards"], node_limit, limits.timeout,
                                      limits.memory_mb, limits.cpu_limit)
        wall, cpu, command = time.monotonic() - started, time.process_time() - cpu_started, ""
    else:
        run = python_search.run_board(board, rules, options["max-cards"], node_limit, limits)
        wall, cpu, command = run.wall, run.cpu, run.command_line
        if run.out_of_time or run.memout:
            return failed_run(run, {"engine": used})
        try:
            outcome = python_search.read_outcome(run)
        except InputError as error:
            return failed_run(run, {"engine": used}, error)
    stats: dict[str, float | int | str] = {
        "engine": used, "nodes_per_s": round(outcome.nodes / wall) if wall > 0 else 0,
        "cached_states": outcome.cached,
    }
    if options["max-cards"]:
        stats["max_cards"] = outcome.max_cards
    if outcome.status is Status.SOLVED:
        return Answer(Status.SOLVED, moves(outcome), wall, cpu, outcome.nodes, stats, command)
    if outcome.status is Status.UNSOLVABLE:
        if outcome.sequence:
            stats["longest_play"] = " ".join(name(card) for card in outcome.sequence)
        return Answer(Status.UNSOLVABLE, None, wall, cpu, outcome.nodes, stats, command)
    return Answer(outcome.status, None, wall, cpu, outcome.nodes, stats, command, message=_limit_message(outcome))


def failed_run(run: ProcessRun, stats: dict[str, float | int | str], error: InputError | None = None) -> Answer:
    """A child search the runner core stopped at a limit, or (`error`) whose output was unreadable."""
    if error is not None:
        return Answer(Status.ERROR, None, run.wall, run.cpu, None, stats, run.command_line,
                      message=f"unreadable solver output: {error}")
    status, limit = (Status.MEMOUT, "memory") if run.memout else (Status.TIMEOUT, "time")
    return Answer(status, None, run.wall, run.cpu, None, stats, run.command_line,
                  message=f"killed at the {limit} limit")


def _solve_lbs(deal: LBSDeal, limits: Limits, node_limit: int | None, max_cards: bool) -> Answer:
    run = python_search.run_lbs(deal, node_limit, limits, max_cards)
    stats: dict[str, float | int | str] = {"engine": "python"}
    if run.out_of_time or run.memout:
        return failed_run(run, stats)
    try:
        search = python_search.read_search(run)
    except InputError as error:
        return failed_run(run, stats, error)
    if max_cards and search.complete:
        if search.moves is not None:
            stats["max_cards"] = len(search.moves)
        elif search.longest is not None:
            played = lbs_rules.replay(deal, search.longest, complete=False)
            if not played.valid:
                return Answer(Status.ERROR, None, run.wall, run.cpu, search.nodes, stats, run.command_line,
                              message=f"the search's longest play was rejected by the validator: {played.fault}")
            stats["max_cards"] = len(search.longest)
            if search.longest:
                stats["longest_play"] = " ".join(game_of(deal).move_names(deal, search.longest))
    return child_verdict(run, stats, search.moves, search.complete, search.nodes, search.cpu_limited,
                         node_limit is not None and search.nodes >= node_limit)


def child_verdict(run: ProcessRun, stats: dict[str, float | int | str], moves: tuple[Any, ...] | None, lost: bool,
                  nodes: int, cpu_limited: bool, node_limited: bool) -> Answer:
    """The answer of a Python search that ended by itself in its child process (the LBS search, the
    plain search): its win, its loss, or which limit it reached first."""
    if moves is not None:
        return Answer(Status.SOLVED, moves, run.wall, run.cpu, nodes, stats, run.command_line)
    if lost:
        return Answer(Status.UNSOLVABLE, None, run.wall, run.cpu, nodes, stats, run.command_line)
    if cpu_limited:
        return Answer(Status.TIMEOUT, None, run.wall, run.cpu, nodes, stats, run.command_line,
                      message=CPU_LIMIT_REACHED)
    status = Status.UNKNOWN if node_limited else Status.TIMEOUT
    return Answer(status, None, run.wall, run.cpu, nodes, stats, run.command_line, message=LIMIT_REACHED[status])
