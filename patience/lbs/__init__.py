"""Late Binding Solitaire (Accordion): the coursework game, its deals, rules and solver (its
graders, which run solvers, are in patience.grading).

A deal is a row of n cards, each its own pile. Move t takes the pile at position i (1-based) onto
position i-1 or i-3 when the two top cards share a suit or a value; the game is won after n-1 moves.
"""
