"""Running many deals: which deals (specs), the progress bar, one worker pool with one stop policy,
and the process core every solver runs under (limits, process groups, signals)."""
