"""Argument types for the resource limits every solving command takes (positive numbers only, within
the caps of patience.caps: a limit of 1e300 seconds would overflow the solvers' own limits)."""

from __future__ import annotations

from patience.caps import MAX_JOBS, MAX_MEMORY_MB, MAX_SECONDS
from patience.numeric import real_argument, whole_argument

# A time limit: seconds above zero (a zero or negative limit would never run), at most MAX_SECONDS.
seconds = real_argument(0, MAX_SECONDS, above_low=True)
# A memory limit in MiB, a whole number above zero.
mebibytes = whole_argument(1, MAX_MEMORY_MB)
# Worker processes.
jobs = whole_argument(1, MAX_JOBS)
