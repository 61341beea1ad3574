"""Where a student's model runs, so that it can read nothing but its own files and the deal's data.

Every run is in a private scratch folder that holds copies of the model, the helper files it
includes from its own folder and the data the grader writes: never a link, never a folder of the
class. Where the machine allows, the solver runs in a bubblewrap sandbox (`bwrap`) in which the
filesystem is the system's programs and libraries (/usr, /etc), the solver's own folder and that
scratch folder, nothing else: no checkout, no /work, no home folder, no teacher's model, no
network; its processes live in a process namespace of their own, which ends with the grader
however the grader ends (kill -9 included). Where bubblewrap cannot run, the scratch copy and the
scanner of includes are what protect grading, and a small guard process (a subreaper told when
the grader dies) ends the solver's processes with the grader.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from patience.runs.process import Limits, run_process

BUBBLEWRAP = "bubblewrap"
SYSTEM_FOLDERS = ("/usr", "/etc")  # read-only in the sandbox: programs, libraries, the JDK's and MiniZinc's files
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # links into /usr, or folders
INNER_PYTHON = "/run/patience/python"  # where the sandbox sees the Python packages clingo needs
CLINGO_PARTS = ("clingo", "cffi", "_cffi_backend")  # `python -m clingo` and what it imports
PROBE_SECONDS = 10.0
# The guard where no sandbox runs: the command's parent and a subreaper of everything it starts. When
# the grader's thread that started it ends (kill -9 too) it is sent SIGUSR1 and kills every process of
# its session and below it at once; the runner's SIGTERM at a limit it passes on to them all (one that
# left the session too), and kills them a second later, as the runner does with its own group.
GUARD = r"""
import ctypes, os, signal, sys
parent = int(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(36, 1)  # PR_SET_CHILD_SUBREAPER
libc.prctl(1, signal.SIGUSR1)  # PR_SET_PDEATHSIG
def below():
    found, children = set(), {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == os.getsid(0) and int(name) != os.getpid():
            found.add(int(name))
        children.setdefault(int(fields[1]), []).append(int(name))
    todo, seen = [os.getpid()], set()
    while todo:
        for pid in children.get(todo.pop(), ()):
            if pid not in seen:
                seen.add(pid)
                todo.append(pid)
    return found | seen
def send(number):
    for pid in below():
        try:
            os.kill(pid, number)
        except OSError:
            pass
def end(*_):
    send(signal.SIGKILL)
    os._exit(137)
def stop(*_):
    send(signal.SIGTERM)
    signal.alarm(1)
signal.signal(signal.SIGUSR1, end)
signal.signal(signal.SIGALRM, end)
signal.signal(signal.SIGTERM, stop)
if os.getppid() != parent:
    end()
child = os.fork()
if child == 0:
    for number in (signal.SIGUSR1, signal.SIGALRM, signal.SIGTERM):
        signal.signal(number, signal.SIG_DFL)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    except OSError as error:
        print(f"{sys.argv[2]}: {error.strerror}", file=sys.stderr)
        os._exit(127)
status = 0
while True:
    try:
        pid, code = os.wait()
    except ChildProcessError:
        break
    if pid == child:
        status = os.waitstatus_to_exitcode(code)
        send(signal.SIGKILL)
sys.exit(status if status >= 0 else 128 - status)
"""

@functools.cache
def bubblewrap() -> str | None:
    """The `bwrap` binary if a sandbox actually starts here (a container may forbid its namespaces)."""
    found = shutil.which("bwrap")
    if found is None:
        return None
    with tempfile.TemporaryDirectory(prefix="patience-probe-") as scratch:
        try:
            run = run_process(_bubblewrap_command(found, ["true"], Path(scratch)), Limits(timeout=PROBE_SECONDS))
        except OSError:
            return None
    return found if run.returncode == 0 else None


def protection() -> str:
    """What keeps a student's model from reading other files on this machine, in one sentence."""
    if bubblewrap() is not None:
        return (f"a {BUBBLEWRAP} sandbox: each run sees only the system's programs, the solver and a scratch copy "
                "of the student's own files and the deal (no network); its processes end with the grader")
    why = "not installed" if shutil.which("bwrap") is None else "installed but cannot run here"
    return (f"a scratch copy of the student's own files and the deal, with the check of their includes and "
            f"links; no sandbox ({BUBBLEWRAP} {why}: Debian package bubblewrap)")


def confined(command: Sequence[str], folder: Path) -> list[str]:
    """`command`, to run in the scratch `folder`, as it runs confined: in the sandbox where it can run,
    else under the guard that ends its processes with the grader."""
    found = bubblewrap()
    if found is not None:
        return _bubblewrap_command(found, list(command), folder)
    return guarded(command)


def guarded(command: Sequence[str]) -> list[str]:
    """`command` under the guard that ends all its processes when this process ends (kill -9 too)."""
    return [_real_python(), "-I", "-S", "-c", GUARD, str(os.getpid()), *command]


def _real_python() -> str:
    """This Python's interpreter itself (a virtual environment's `python` is a link to it)."""
    return os.path.realpath(sys.executable)


def _bubblewrap_command(bwrap: str, command: list[str], folder: Path) -> list[str]:
    """The bwrap command line that runs `command` in `folder` with only the system, the solver's
    files and `folder` in sight."""
    arguments = [bwrap, "--die-with-parent", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
                 "--cap-drop", "ALL"]
    for path in SYSTEM_FOLDERS:
        if os.path.isdir(path):
            arguments += ["--ro-bind", path, path]
    for path in SYSTEM_LINKS:
        if os.path.islink(path):
            arguments += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            arguments += ["--ro-bind", path, path]
    arguments += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    readable: list[str] = []
    if command and command[0] == sys.executable:  # clingo: `python -m clingo`, from this Python's packages
        command = [_real_python(), *command[1:]]
        readable.append(sys.base_prefix)
        for name in CLINGO_PARTS:
            spec = importlib.util.find_spec(name)
            origin = None if spec is None else spec.origin
            if origin is not None:
                part = os.path.dirname(origin) if spec is not None and spec.submodule_search_locations else origin
                arguments += ["--ro-bind", part, f"{INNER_PYTHON}/{os.path.basename(part)}"]
        arguments += ["--setenv", "PYTHONPATH", INNER_PYTHON, "--setenv", "PYTHONNOUSERSITE", "1",
                      "--unsetenv", "PYTHONHOME"]
    # a solver's file named by a link (a package's data through an installed layout) is named by its real path
    command = [os.path.realpath(argument) if os.path.isabs(argument) and os.path.isfile(argument) else argument
               for argument in command]
    programs = [argument for argument in command if os.path.isabs(argument) and os.path.isfile(argument)]
    readable += [_solver_folder(program) for program in programs]
    for interpreter in filter(None, map(_interpreter, programs)):  # a solver that is a script
        readable.append(os.path.dirname(os.path.dirname(os.path.realpath(interpreter))))  # its prefix: a Python's
        if not _system(interpreter):
            arguments += ["--ro-bind", interpreter, interpreter]
    # the system's folders are bound already, but one inside the toolkit (its MiniZinc library, the toolkit
    # installed under /usr) must still be kept from the toolkit's mask
    wanted = [path for path in dict.fromkeys(readable) if path]
    readable = [path for path in wanted if not _system(path)]
    for path in readable:
        if not any(path.startswith(other + "/") for other in readable):  # a folder in one bound already
            arguments += ["--ro-bind", path, path]
    arguments += [*_masks(wanted), "--bind", str(folder), str(folder), "--chdir", str(folder),
                  "--setenv", "HOME", str(folder), "--setenv", "TMPDIR", "/tmp", "--", *command]
    return arguments


def _solver_folder(path: str) -> str:
    """The folder of a solver's file the command names (its binary, jar or Minion); for a MiniZinc
    bundle's `bin/minizinc`, the bundle, whose `share/minizinc` holds its library."""
    folder = os.path.dirname(os.path.realpath(path))
    bundle = os.path.dirname(folder)
    return bundle if os.path.isdir(os.path.join(bundle, "share", "minizinc")) and not _system(folder) else folder


def _interpreter(path: str) -> str | None:
    """The program a script's `#!` line names, if it is one."""
    try:
        with open(path, "rb") as script:
            first = script.readline(4096)
    except OSError:
        return None
    words = first[2:].decode(errors="replace").split() if first.startswith(b"#!") else []
    return words[0] if words and os.path.isabs(words[0]) and os.path.isfile(words[0]) else None


def _system(path: str) -> bool:
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root + "/") for root in SYSTEM_FOLDERS)


def _masks(readable: Sequence[str]) -> list[str]:
    """An empty folder over the toolkit's own files (its models, the teacher's, and the generators that
    write them) wherever they lie inside a folder the sandbox can read (a toolkit installed under /usr,
    or beside a solver); a solver's folder inside them (the toolkit's MiniZinc library) shown again."""
    import patience
    import patience.models

    wanted = [os.path.realpath(path) for path in readable]
    shown = [*SYSTEM_FOLDERS, *wanted]
    arguments = []
    for package in dict.fromkeys((*patience.__path__, *patience.models.__path__)):
        real = os.path.realpath(package)
        if any(real.startswith(root + "/") for root in shown) and real not in wanted:
            arguments += ["--tmpfs", real]
            for inside in (path for path in wanted if path.startswith(real + "/")):
                arguments += ["--ro-bind", inside, inside]  # mounted after the mask, so seen again
    return arguments
