"""The registry of games: a game is registered by one line here.

family -> "module:Class" of its `Game` (patience/games/__init__.py), imported when first used. The key
is the family's name in patience.names. The order is the order of detection: the first game whose
`detect` accepts a file's text reads it, so a game whose board text Black Hole's reader would also
take (Binary Star's two foundations, a stock, a cell) comes before Black Hole's line.
"""

from __future__ import annotations

from patience.names import BINARY_STAR, BLACK_HOLE, GOLF, LBS, WORM_HOLE

FAMILY_CLASSES: dict[str, str] = {
    BINARY_STAR: "patience.games.binary_star:BinaryStar",
    LBS: "patience.games.late_binding:LateBinding",
    GOLF: "patience.golf.game:Golf",
    WORM_HOLE: "patience.games.worm_hole:WormHole",
    BLACK_HOLE: "patience.games.black_hole:BlackHoleFamily",
}
