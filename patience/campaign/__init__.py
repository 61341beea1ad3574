"""Comparison campaigns: many deals x many solver configurations, resumable, stored in SQLite.

specs (which deals) and config (which configurations) make the task list; execute runs each task
through `patience.runners.solve.solve` on a process pool or a Dask cluster; store keeps one row per
finished run; analysis, tables and plots turn the store into the paper's Table 4 and figures.
"""
