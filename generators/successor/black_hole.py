"""`gen successor`, the old name of `gen cnf --encoding successor`: the successor encoding of the
Black Hole family, which lives in the CNF language (generators/cnf/successor.py). Kept so that the
name, its options and the formulas it writes stay as they were."""

from patience.generators.cnf.successor import *  # noqa: F403  (the same module under its old name)
from patience.generators.cnf.successor import TITLE as _TITLE

TITLE = f"{_TITLE}; the old name of `gen cnf --encoding successor`"
