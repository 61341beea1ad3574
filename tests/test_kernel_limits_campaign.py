"""The kernel's limits in a campaign of two jobs (`patience compare --jobs 2`, and on two Dask
workers), end to end: a solver that allocates past its memory limit is a memout, with no more than
the limit allocated where RLIMIT_AS holds it, and a solver whose forked children burn CPU and exit is
charged their CPU; each row says what enforced its limits. Each under the cgroups where this machine
can make them, and under the rlimits (`PATIENCE_CGROUPS=off`, the branch of a machine without
cgroups) everywhere. tests/test_kernel_limits.py checks the same of one run."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from patience.runs import kernel_limits
from tests.test_kernel_limits import CGROUP, FORKS, needs_cgroup

PATIENCE = [sys.executable, "-m", "patience"]
LIMIT_MB = 200  # room for the interpreter in RLIMIT_AS; the burst asks for twice as much
# As tests/test_kernel_limits.py's burst, 400 MiB a MiB at a time, saying how many it had on the failed
# allocation (the row keeps the end of the solver's standard error as its message).
BURST = """
import sys
chunks = []
try:
    for _ in range(400):
        chunks.append(bytearray(1 << 20))
except MemoryError:
    sys.stderr.write(f"MemoryError: allocated {len(chunks)}\\n")
    sys.exit(1)
"""


def solver(folder: Path, name: str, script: str) -> Path:
    """A `sat:PATH` solver that runs `script` on the CNF it is given and prints no verdict."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\nimport sys\nif '--version' in sys.argv:\n    print('c {name} 1')\n"
                    f"    sys.exit(0)\n{script}", encoding="utf-8")
    path.chmod(0o755)
    return path


def shown(rows: object) -> str:
    """Stored runs whole in a failure's message (pytest shortens a dict's repr, its message among it)."""
    return json.dumps(rows, default=str)


@contextlib.contextmanager
def two_workers(where: str) -> Iterator[list[str]]:
    """The options that give a campaign two workers: two local jobs, or a Dask scheduler with two."""
    if where == "jobs":
        yield ["--jobs", "2"]
        return
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        yield ["--scheduler", cluster.scheduler_address]


@pytest.mark.slow  # a campaign's two workers, a CNF each and a second of CPU burned
@pytest.mark.parametrize("where", ["jobs", "dask"])
@pytest.mark.parametrize("kernel", [pytest.param("cgroup", marks=needs_cgroup), "rlimit"])
def test_a_campaign_of_two_workers_keeps_the_kernels_limits(where: str, kernel: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    if kernel == "rlimit":  # the command and its workers (Dask's: threads of this process) see it
        monkeypatch.setenv(kernel_limits.CGROUPS_SETTING, "off")
    burst, forks = solver(tmp_path, "burst", BURST), solver(tmp_path, "forks", FORKS)
    db = tmp_path / "limits.sqlite"
    with two_workers(where) as workers:
        done = subprocess.run([*PATIENCE, "compare", "--deals", "black_hole:1", "--config", f"burst=sat:{burst}",
                               "--config", f"forks=sat:{forks}", *workers, "--timeout", "120",
                               "--memory", str(LIMIT_MB), "--db", str(db), "--quiet"],
                              capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{db}: 2 of 2 runs stored (2 new), 0 contradicting verdicts\n"
    with sqlite3.connect(db) as connection:
        connection.row_factory = sqlite3.Row
        rows = {row["configuration"]: dict(row) for row in connection.execute("SELECT * FROM runs")}
    cgroup = kernel == "cgroup"
    assert cgroup == (CGROUP is not None and kernel_limits.CGROUPS_SETTING not in os.environ)
    memory = "memory: cgroup" if cgroup else "memory: rlimit"
    burst_row, forks_row = rows["burst"], rows["forks"]
    if where == "dask":  # run on the workers, threads of this process, not by the command's own
        assert {row["host"].rsplit(":", 1)[1] for row in rows.values()} == {str(os.getpid())}, shown(rows)
    assert burst_row["status"] == "memout", shown(burst_row)
    assert json.loads(burst_row["stats"])["limits"].startswith(memory), shown(burst_row)
    if not cgroup:  # RLIMIT_AS: the allocation failed before the limit, the interpreter counted in it
        assert int(burst_row["message"].split("allocated ")[1].split()[0]) < LIMIT_MB, shown(burst_row)
    assert forks_row["status"] == "unknown", shown(forks_row)  # it printed no verdict
    assert forks_row["cpu"] >= 0.45, shown(forks_row)  # two children of 0.25 s each, reaped before it ended
    cpu = json.loads(forks_row["stats"])["limits"].split("; ")[1]
    assert cpu.startswith("cpu: cgroup") if cgroup else cpu == "cpu: rlimit", shown(forks_row)
