"""Which prunings the Black Hole family's search uses: one value the solver's options, the survey,
the compiled search and the Python reference all read, instead of a dict of strings or positional
switches. Every pruning is sound (a search with any of them on decides the same deals), and so is
the order they search in (restarts, noise); they change only how fast it gets there, and the node
counts the compiled and Python searches report together."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Rules:
    """The search's switches, all on by default (the `native` solver's defaults) but `noise`, which
    the survey switches on for a second search of a deal the first leaves open."""

    cache: bool = True  # the failure cache of (cards played, foundation tops)
    symmetry: bool = True  # the paper's unit/general conditional symmetry rule
    wolter: bool = True  # Wolter's last-card-of-a-pile and one-card-pile prunings
    reach: bool = True  # cut plays that strand a rank out of reach (and the balance bound)
    restarts: bool = True  # rounds with a node budget (Luby), the piles reordered each round
    noise: bool = False  # with restarts: rounds after the first put a random move first at some nodes
    wide: bool = True  # with reach: the live-card and balance bounds past 64 piles or ranks too (one foundation)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(field.name for field in fields(cls))

    @classmethod
    def of(cls, switches: Mapping[str, object]) -> Rules:
        """The rules from options named as the fields (`{"cache": True, ...}`); others are ignored."""
        return cls(**{name: bool(switches[name]) for name in cls.names() if name in switches})

    @classmethod
    def only(cls, *names: str) -> Rules:
        """Every pruning off but the named ones: the plain search, as a reference to check the others."""
        unknown = set(names) - set(cls.names())
        if unknown:
            raise ValueError(f"no such rule: {', '.join(sorted(unknown))}")
        return cls(**{name: name in names for name in cls.names()})

    def switches(self) -> tuple[bool, bool, bool, bool, bool, bool, bool]:
        """The switches in the compiled search's order (the fields' order; _search.pyi types them)."""
        return self.cache, self.symmetry, self.wolter, self.reach, self.restarts, self.noise, self.wide
