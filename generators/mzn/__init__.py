"""MiniZinc models: one module per game (`black_hole`, `binary_star`, `lbs`), the `.dzn` writing
and the template rendering they share in `data`."""
