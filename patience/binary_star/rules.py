"""Binary Star answers and their replay, the only authority on a win.

A play is written `CARD>FOUNDATION@PILE`, e.g. `5H>2@7`: the 5H on top of pile 7 goes onto
foundation 2 (both 1-based: foundations in the order of the deal's `Foundations:` line, piles in
the order of its pile lines); any number of plays a line, separated by spaces. A line may also
hold one play as `CARD FOUNDATION [PILE]` (`5H 2 7`). The pile may be left out when only one pile
has that card on top at that moment; with two decks both copies can be on top, and then the pile
must be named. `#` starts a comment.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.caps import MAX_MOVES
from patience.cards import Card, parse_card
from patience.errors import InputError, quote
from patience.reading import at_most, numbered_lines
from patience.validator import Replay

_TOKEN = re.compile(r"^([^>@]+)>([0-9]{1,9})(?:@([0-9]{1,9}))?$")
_POSITION = re.compile(r"[0-9]{1,9}")


def read_plays(text: str, source: str) -> tuple[Play, ...]:
    plays: list[Play] = []
    for number, line in numbered_lines(text):
        fields = line.split("#", 1)[0].split()
        if fields and fields[0].endswith(":"):  # a labelled line, as `sequence: 5H>2@7 ...`
            fields = fields[1:]
        if not fields:
            continue
        if all(">" in field for field in fields):
            for field in fields:
                match = _TOKEN.match(field)
                if match is None:
                    raise InputError(source, number, f"{quote(field)} is not a play like 5H>2@7")
                plays.append(_play(match.group(1), match.group(2), match.group(3), source, number))
        elif len(fields) in (2, 3) and all(_POSITION.fullmatch(field) for field in fields[1:]):
            plays.append(_play(fields[0], fields[1], fields[2] if len(fields) == 3 else None, source, number))
        else:
            raise InputError(source, number, "expected plays like `5H>2@7` or `CARD FOUNDATION [PILE]`")
        at_most(len(plays), MAX_MOVES, "moves", source, number)
    return tuple(plays)


def _play(card_text: str, foundation: str, pile: str | None, source: str, line: int) -> Play:
    try:
        card = parse_card(card_text)
    except ValueError as error:
        raise InputError(source, line, str(error)) from None
    if int(foundation) < 1 or (pile is not None and int(pile) < 1):
        raise InputError(source, line, "foundations and piles are numbered from 1")
    return Play(card, int(foundation) - 1, None if pile is None else int(pile) - 1)


def play_names(deal: BinaryStarDeal, plays: Sequence[Play]) -> list[str]:
    """The plays as `CARD>FOUNDATION@PILE` (the pile left out only where the answer left it out)."""
    return [f"{deal.name(play.card)}>{play.foundation + 1}" + ("" if play.pile is None else f"@{play.pile + 1}")
            for play in plays]


def replay(deal: BinaryStarDeal, plays: Sequence[Play], complete: bool = True) -> Replay:
    """Play `plays` on `deal`; with `complete`, every pile card must end on a foundation."""
    taken = [0] * len(deal.piles)  # cards taken from each pile so far
    tops = list(deal.foundations)
    for number, play in enumerate(plays, 1):
        fault = _fault(deal, play, taken, tops)
        if fault is not None:
            return Replay(number - 1, f"move {number}: {fault}")
        pile = play.pile if play.pile is not None else _piles_with_top(deal, taken, play)[0]
        taken[pile] += 1
        tops[play.foundation] = play.card
    left = len(deal.cards) - len(plays)
    if complete and left:
        return Replay(len(plays), f"{left} card{'s' if left != 1 else ''} left")
    return Replay(len(plays), None)


def resolved(deal: BinaryStarDeal, plays: Sequence[Play]) -> tuple[Play, ...]:
    """The plays with every pile named (for a valid prefix: stops at the first fault)."""
    taken = [0] * len(deal.piles)
    tops = list(deal.foundations)
    named = []
    for play in plays:
        if _fault(deal, play, taken, tops) is not None:
            break
        pile = play.pile if play.pile is not None else _piles_with_top(deal, taken, play)[0]
        named.append(Play(play.card, play.foundation, pile))
        taken[pile] += 1
        tops[play.foundation] = play.card
    return tuple(named)


def _fault(deal: BinaryStarDeal, play: Play, taken: list[int], tops: list[Card]) -> str | None:
    name = deal.name(play.card)
    if not 0 <= play.foundation < len(tops):
        return f"there is no foundation {play.foundation + 1} (the deal has {len(tops)})"
    if play.pile is None:
        piles = _piles_with_top(deal, taken, play)
        if not piles:
            return f"{name} is on top of no pile"
        if len(piles) > 1:
            return f"{name} is on top of piles {piles[0] + 1} and {piles[1] + 1}: name the pile"
    else:
        if not 0 <= play.pile < len(deal.piles):
            return f"there is no pile {play.pile + 1} (the deal has {len(deal.piles)})"
        pile = deal.piles[play.pile]
        if taken[play.pile] == len(pile):
            return f"pile {play.pile + 1} is empty"
        top = pile[taken[play.pile]]
        if top != play.card:
            return f"{name} is not on top of pile {play.pile + 1} ({deal.name(top)} is)"
    top = tops[play.foundation]
    if not deal.follows(top, play.card):
        return f"{name} does not follow {deal.name(top)} on foundation {play.foundation + 1}"
    return None


def _piles_with_top(deal: BinaryStarDeal, taken: list[int], play: Play) -> list[int]:
    return [index for index, pile in enumerate(deal.piles)
            if taken[index] < len(pile) and pile[taken[index]] == play.card]
