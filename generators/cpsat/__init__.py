"""CP-SAT: each game as an OR-Tools CpModelProto built through its Python API, one module per game."""
