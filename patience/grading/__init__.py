"""Grading a student's model of any game: run it where the toolkit's own model of that language
would run (same data files, same solver, same decode), replay its answers, check its "no solution"
claims with the native search, and hunt for the deal it gets wrong."""
