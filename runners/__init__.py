"""Runners: run solvers on model files under limits and read their answers back into cards."""
