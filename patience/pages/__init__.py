"""Self-contained HTML pages: a deal and its answer to step through, and the campaign report."""
