"""`gen lbs-pddl DEAL`: Late Binding Solitaire as PDDL (STRIPS with typing).

Piles keep the slot of their first card (p1..pn); `left` links the slots still in the row, ending at
the slot `end`, so "one place left" and "three places left" are one and three links. Slot p1 never
moves (nothing lies left of it), so the goal is `(left p1 end)`: one pile left.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from patience.commands.gen import add_deal_arguments, emit
from patience.errors import InputError
from patience.lbs.deal import LBSDeal, load_deal
from patience.lbs.rules import Move
from patience.runners.pddl_plan import Action

DOMAIN = """(define (domain late-binding-solitaire)
  (:requirements :strips :typing)
  (:types slot card)
  (:predicates (top ?s - slot ?c - card) (left ?a ?b - slot) (match ?c ?d - card))
  ; the pile in slot ?s goes onto its left neighbour ?t; ?r is the slot right of ?s (or end)
  (:action move-one
    :parameters (?s ?t ?r - slot ?c ?d - card)
    :precondition (and (left ?t ?s) (left ?s ?r) (top ?s ?c) (top ?t ?d) (match ?c ?d))
    :effect (and (not (top ?s ?c)) (not (top ?t ?d)) (top ?t ?c)
                 (not (left ?t ?s)) (not (left ?s ?r)) (left ?t ?r)))
  ; the pile in slot ?s goes three places left, onto ?t (?u and ?v lie between)
  (:action move-three
    :parameters (?s ?t ?u ?v ?r - slot ?c ?d - card)
    :precondition (and (left ?t ?u) (left ?u ?v) (left ?v ?s) (left ?s ?r)
                       (top ?s ?c) (top ?t ?d) (match ?c ?d))
    :effect (and (not (top ?s ?c)) (not (top ?t ?d)) (top ?t ?c)
                 (not (left ?v ?s)) (not (left ?s ?r)) (left ?v ?r))))
"""


def problem(deal: LBSDeal) -> str:
    n = len(deal.cards)
    slots = [f"p{position}" for position in range(1, n + 1)]
    cards = [f"c{card}" for card in deal.cards]
    facts = [f"(left {a} {b})" for a, b in zip(slots, [*slots[1:], "end"], strict=True)]
    facts += [f"(top {slot} {card})" for slot, card in zip(slots, cards, strict=True)]
    facts += [f"(match c{a} c{b})" for a in deal.cards for b in deal.cards if a != b and deal.matches(a, b)]
    name = (deal.name or "deal").lower().replace("_", "-")
    return (f"(define (problem {name}) (:domain late-binding-solitaire)\n"
            f"  (:objects {' '.join(slots)} end - slot {' '.join(cards)} - card)\n"
            f"  (:init\n    " + "\n    ".join(facts) + ")\n"
            "  (:goal (left p1 end)))\n")


def plan_moves(deal: LBSDeal, plan: Sequence[Action], source: str = "plan") -> tuple[Move, ...]:
    """1-based (from, to) positions of a plan's moves, found by following the slots in the row."""
    row = [f"p{position}" for position in range(1, len(deal.cards) + 1)]
    moves = []
    for action in plan:
        if action.operator not in ("move-one", "move-three") or len(action.arguments) < 2:
            raise InputError(source, action.line, f"not an LBS move: {action.operator}")
        moved, target = action.arguments[0], action.arguments[1]
        if moved not in row or target not in row:
            raise InputError(source, action.line, f"slot {moved if moved not in row else target} is not in the row")
        moves.append((row.index(moved) + 1, row.index(target) + 1))
        row.remove(moved)
    return tuple(moves)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "lbs-pddl", help="Late Binding Solitaire: PDDL domain and problem",
        description="Print the PDDL problem of an LBS deal; --domain prints the domain; -o DIR writes both.")
    add_deal_arguments(parser)
    parser.add_argument("--domain", action="store_true", help="print the domain instead of the problem")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    deal = load_deal(args.deal)
    files = {"domain.pddl": DOMAIN, "problem.pddl": problem(deal)}
    return emit(files, "domain.pddl" if args.domain else "problem.pddl", args.output_dir)
