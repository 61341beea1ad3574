"""What the XCSP3 models of every game share: pycsp3 compiled in a fresh interpreter (it keeps the
model in global state and compiles whatever is left at exit), and the paper's conditional symmetry
breaking stated in pycsp3."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from patience.runs.process import Limits, python_command, run_process

_BUILD_LIMITS = Limits(timeout=300)


def compile_in_fresh_process(module: str, data: dict[str, object], instance_file: str) -> str:
    """Run `module.build_from_stdin()` on `data` in a new interpreter; return the XCSP3 it compiled."""
    build = f"from {module} import build_from_stdin; build_from_stdin()"
    with tempfile.TemporaryDirectory(prefix="patience-") as folder:
        run = run_process(python_command("-c", build), _BUILD_LIMITS, cwd=folder, stdin_text=json.dumps(data))
        built = Path(folder, instance_file)
        if run.returncode != 0 or not built.exists():
            detail = (run.stderr.strip() or run.stdout.strip() or f"exit {run.returncode}").splitlines()[-1]
            raise RuntimeError(f"pycsp3 could not build the instance: {detail}")
        return built.read_text()


def post_symmetry_breaking(y, pairs, nothing: int) -> None:
    """The paper's conditional symmetry breaking in pycsp3, for (a, b, above a, below b) of
    interchangeable cards (`nothing`: no card there): y[a] < y[b] when the cards around allow it."""
    import pycsp3 as csp

    breaking = []
    for a, b, above_a, below_b in pairs:
        conditions = ([y[above_a] < y[b]] if above_a != nothing else []) + \
                     ([y[a] < y[below_b]] if below_b != nothing else [])
        if not conditions:
            breaking.append(y[a] < y[b])
        else:
            breaking.append(csp.imply(csp.both(*conditions) if len(conditions) == 2 else conditions[0], y[a] < y[b]))
    if breaking:
        csp.satisfy(breaking)
