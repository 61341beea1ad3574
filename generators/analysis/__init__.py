"""Model analysis, one module per game family: what every model language derives from a deal.

The constraint, SAT, MIP, ASP and MiniZinc models of a game number its cards (or positions) the same
way, break the same symmetries and bound the same reachable ranks; that analysis lives here, once, and
each language's generator only writes it in its own syntax. Generators of different languages never
import each other: what two of them share belongs here.
"""
