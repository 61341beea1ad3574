"""Every size cap on what the toolkit reads, in one place.

A reader refuses input beyond a cap with one line (`error: FILE:LINE: ...`, exit 2) before the
input can cost time or memory out of proportion: files are read with a bounded read, counts are
checked as soon as they are known (a `ranks:` line, a `p cnf` header, a random deal's shape).
The caps sit far above every deal, model and solver output the toolkit makes (a Binary Star CNF
is 1.5 MB in 84,000 lines; the largest solver answer a few hundred KB); README "Size caps" lists them.
"""

from __future__ import annotations

MAX_FILE_BYTES = 16 * 1024 * 1024  # any file read whole: deal, answer, CNF, solver output, experiment
MAX_LINES = 2_000_000  # lines in one such file
MAX_LINE_CHARS = 1024 * 1024  # characters in one line (a MiniSat model is one line of literals)
MAX_SOLVER_OUTPUT_BYTES = 64 * 1024 * 1024  # bytes kept of each stream of a solver run
MAX_YAML_CHARS = 512 * 1024  # a YAML file (deal, experiment, mapping): PyYAML builds a Python object per node
MAX_YAML_NODES = 40_000  # YAML nodes, bounded from above by counting the characters that can start one
MAX_STORED_JSON_CHARS = 256 * 1024  # one JSON value in a store (options, stats, a setting)
MAX_JSON_DEPTH = 64  # lists and objects nested in one such value

MAX_CARDS = 10_000  # cards in one deal, foundations included
MAX_PILES = 10_000  # piles in one deal
MAX_RANKS = 10_000  # ranks on a generalised deal's cycle
MAX_SUITS = 10_000  # cards of one rank (suits) in a generalised deal
MAX_FOUNDATIONS = 1_000  # foundations of a Binary Star style deal
MAX_DEALS = 1_000_000  # deals one spec or `deal --count` names
MAX_CNF_VARIABLES = MAX_RANKS  # `reduce`: one rank per variable
MAX_CNF_CLAUSES = MAX_CARDS  # `reduce`: cards per clause
MAX_MOVES = MAX_CARDS  # moves in one answer (a win plays each card once)
MAX_VALUES = 1_000_000  # values one solver answer may list (an XCSP3 `3x4` repeat, an index range)

MAX_SECONDS = 1_000_000  # a time limit (11.6 days): in milliseconds it still fits the 32-bit int solvers take
MAX_MEMORY_MB = 1024 * 1024  # a memory limit in MiB (1 TiB)
MAX_JOBS = 1_000_000  # --jobs (a pool never has more than 4 workers per CPU: more is clamped, beyond this refused)
MAX_SEED = 10 ** 20  # a seed or a deal number (PySolFC numbers deals up to 10**20)
MAX_NODES = 10 ** 18 - 1  # a node limit

QUOTE_CHARS = 60  # characters of offending text quoted in an error line
