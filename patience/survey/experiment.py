"""Running and reporting the shuffle experiments: each finished chain of games is one SQLite row
(one transaction), so a run killed at any moment resumes with the chains it lacks; the chains of
every point are run round by round, so a run stopped early leaves all points with the same count."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeGuard

from patience import store_schemas, stores
from patience.names import GAME_TITLES
from patience.outputs import save_figure
from patience.survey.report import wilson
from patience.survey.shuffles import DEALINGS, DECKS, BatchResult, ShuffleBatch

Point = tuple[str, str, str, int]  # game, deck, dealing, riffles


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


SHUFFLES = stores.StoreKind.of(
    store_schemas.SHUFFLES,
    checks={
        "settings": {"key": stores.text("key"), "value": stores.text("value")},
        "chains": {"game": stores.text("game"), "deck": stores.one_of("deck", DECKS),
                   "dealing": stores.one_of("dealing", DEALINGS), "riffles": stores.count("riffles"),
                   "batch": stores.count("batch"), "games": f"({stores.count('games')} AND games > 0)",
                   "won": f"({stores.count('won')} AND won <= games)",
                   "undecided": f"({stores.count('undecided')} AND undecided <= games)",
                   "seconds": stores.seconds("seconds")},
    },
    settings={"seed": _whole, "chain": lambda value: _whole(value) and value > 0, "timeout": stores.positive_number},
)


class ShuffleStore(stores.Closing):
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.database = stores.Database(path, SHUFFLES, writable=True)

    def close(self) -> None:
        self.database.close()

    def fix_settings(self, settings: Mapping[str, object]) -> None:
        """Seed, chain length and limit are fixed on first use: other values would deal other games."""
        stores.fix_settings(self.database, self.path, stores.settings(self.database), settings,
                            "holds experiments with")

    def add(self, result: BatchResult) -> None:
        batch = result.batch
        with self.database.transaction() as connection:
            connection.execute(
                "INSERT INTO chains VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (batch.game, batch.deck, batch.dealing, batch.riffles, batch.batch, batch.games, result.won,
                 result.undecided, result.seconds))

    def stored(self) -> set[tuple[str, str, str, int, int]]:
        return set(self.database.read("SELECT game, deck, dealing, riffles, batch FROM chains"))

    def totals(self, chains: int) -> dict[Point, tuple[int, int, int, float]]:
        """Per point, over its first `chains` chains: games, won, undecided, seconds."""
        cursor = self.database.read(
            "SELECT game, deck, dealing, riffles, sum(games), sum(won), sum(undecided), sum(seconds) "
            "FROM chains WHERE batch < ? GROUP BY game, deck, dealing, riffles", (chains,))
        return {tuple(row[:4]): tuple(row[4:]) for row in cursor}


def chains_per_point(per_point: int, chain: int) -> int:
    return -(-per_point // chain)


def plan(games: Iterable[str], riffles: Iterable[int], per_point: int, chain: int, seed: int, seconds: float,
         stored: set[tuple[str, str, str, int, int]]) -> list[ShuffleBatch]:
    """The chains still to play, round by round (every point's chain 0, then every chain 1, ...)."""
    rounds = chains_per_point(per_point, chain)
    work = []
    for number in range(rounds):
        length = min(chain, per_point - number * chain)
        for game in games:
            for deck in DECKS:
                for dealing in DEALINGS:
                    for count in riffles:
                        if (game, deck, dealing, count, number) not in stored:
                            work.append(ShuffleBatch(game, deck, dealing, count, number, length, seed, seconds))
    return work


def table(totals: Mapping[Point, tuple[int, int, int, float]], game: str) -> str:
    """Markdown: one row per riffle count, one column per deck and dealing (rate, 95% interval); the
    games a point above it when every point has the same (each cell's own otherwise), so that the
    table keeps within the reports' 100 columns."""
    columns = [(deck, dealing) for deck in DECKS for dealing in DEALINGS]
    points = {point: found for point, found in totals.items() if point[0] == game}
    counts = {found[0] for found in points.values()}
    lines = [f"{next(iter(counts)):,} games a point; won, with the 95% Wilson interval", ""] if len(counts) == 1 else []
    lines += ["| riffles | " + " | ".join(f"{deck}, by {dealing}" for deck, dealing in columns) + " |",
              "|---:|" + "---:|" * len(columns)]
    for count in sorted({point[3] for point in points}):
        cells = []
        for deck, dealing in columns:
            found = points.get((game, deck, dealing, count))
            if found is None:
                cells.append("")
                continue
            games, won = found[0], found[1]
            low, high = wilson(won, games)
            cells.append(f"{100 * won / games:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
                         + ("" if len(counts) == 1 else f" of {games:,}"))
        lines.append(f"| {count} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(totals: Mapping[Point, tuple[int, int, int, float]], game: str, path: Path,
         reference: float | None = None) -> None:
    """Win rate against riffles, one panel per deck, one line per dealing order, 95% Wilson bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, panels = plt.subplots(1, len(DECKS), figsize=(10, 4.2), sharey=True)
    for axes, deck in zip(panels, DECKS, strict=True):
        for dealing, marker in zip(DEALINGS, "os", strict=True):
            points = sorted((point[3], value) for point, value in totals.items()
                            if point[:3] == (game, deck, dealing))
            if not points:
                continue
            counts = [count for count, _ in points]
            rates = [100 * value[1] / value[0] for _, value in points]
            bands = [wilson(value[1], value[0]) for _, value in points]
            axes.plot(counts, rates, marker=marker, label=f"dealt by {dealing}")
            axes.fill_between(counts, [100 * low for low, _ in bands], [100 * high for _, high in bands], alpha=0.25)
        if reference is not None:
            axes.axhline(100 * reference, color="grey", linestyle=":", label=f"reference {100 * reference:.1f}%")
        axes.set_title(f"{deck} deck")
        axes.set_xlabel("riffle shuffles (then one cut)")
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(alpha=0.3)
    panels[0].set_ylabel("% of games won")
    panels[0].legend()
    games = min(value[0] for point, value in totals.items() if point[0] == game)
    figure.suptitle(f"{GAME_TITLES[game]}: win rate after riffle shuffles ({games:,} games a point)")
    figure.tight_layout()
    try:
        save_figure(figure, path, dpi=110)
    finally:
        plt.close(figure)
