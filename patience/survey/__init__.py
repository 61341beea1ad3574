"""Surveys of numbered deals (every deal decided in max-cards mode, stored per deal in SQLite) and
Wolter's riffle-shuffle experiments, with their reports and plots."""
