"""`arena` commands in processes forked from one interpreter that has already imported the
CLI, instead of a new interpreter each: the import is most of a short command's CPU (about
0.6 of 0.7-1.0 CPU-s), and the conformance matrix runs a few hundred of them.

Each command is still a process of its own, with the command's cwd, environment, argv and
its own stdin, stdout and stderr; it runs the same entry point the real command does
(`orchestrator/__main__.py` for `python -m orchestrator`, `orchestrator.cli.launch:main` for an
installed `bin/arena`, whose interpreter and site-packages it uses) and exits as that would
(its exit status, atexit handlers, a traceback printed by Python). Only the interpreter's
start and the first import of the CLI's modules are shared, made once per test process in
the same environment the commands get; the server refuses to fork if that import started a
thread or a process (a child would then share it).
"""
from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import tempfile
import time
from pathlib import Path

# Run by the command's own interpreter (`python -c SERVER MODE ARGV0`). Requests come as
# JSON lines on stdin; for each it forks, answers {"pid"}, then {"status"} once it ended.
SERVER = r"""
import json, os, runpy, sys, threading
mode, argv0, home = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path[:] = [p for p in sys.path if p not in ("", ".")]
if home:                                 # python -m in that folder imports from it first
    sys.path.insert(0, home)
import orchestrator.cli.launch, orchestrator.cli.app  # noqa: E401  (what every command imports)
import psutil
if threading.active_count() != 1 or psutil.Process().children():
    sys.exit("forked arena: importing the CLI started a thread or a process")
replies = os.fdopen(os.dup(1), "w")
for line in sys.stdin:
    request = json.loads(line)
    sys.stdout.flush(); sys.stderr.flush(); replies.flush()
    pid = os.fork()
    if pid == 0:
        replies.close()
        os.chdir(request["cwd"])
        os.environ.clear(); os.environ.update(request["env"])
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY),
                                (1, request["out"], os.O_WRONLY | os.O_TRUNC),
                                (2, request["err"], os.O_WRONLY | os.O_TRUNC)):
            opened = os.open(path, flags)
            os.dup2(opened, fd); os.close(opened)
        sys.argv = [argv0, *request["args"]]
        if mode == "module":                  # python -m orchestrator
            sys.path.insert(0, os.getcwd())
            runpy.run_module("orchestrator", run_name="__main__", alter_sys=True)
            sys.exit(0)
        sys.path.insert(0, os.path.dirname(argv0))   # a console script: bin/arena
        from orchestrator.cli.launch import main
        sys.exit(main())
    replies.write(json.dumps({"pid": pid}) + "\n"); replies.flush()
    _, status = os.waitpid(pid, 0)
    replies.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n")
    replies.flush()
"""


class ForkedArena:
    """One server for an `arena` command line (`python -m orchestrator`, or a venv's
    `bin/arena`) in one environment; `run` is `subprocess.run`'s piped, text-mode call."""

    def __init__(self, arena: tuple[str, ...], env: dict[str, str], home: str = "") -> None:
        if arena[1:] == ("-m", "orchestrator"):
            python, mode, argv0 = arena[0], "module", "-m"
        else:
            (script,) = arena
            python, mode, argv0 = str(Path(script).parent / "python"), "script", script
        self.env = dict(env)
        self.folder = tempfile.TemporaryDirectory(prefix="forked-arena-")
        self.proc = subprocess.Popen([python, "-c", SERVER, mode, argv0, home], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     cwd=self.folder.name, env=self.env)
        self.pending = b""
        self.arena = arena

    def run(self, args: list[str], cwd: Path, timeout: float,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        out, err = Path(self.folder.name) / "out", Path(self.folder.name) / "err"
        out.write_bytes(b"")
        err.write_bytes(b"")
        request = {"args": list(args), "cwd": str(cwd), "env": env or self.env, "out": str(out),
                   "err": str(err)}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        pid = json.loads(self._line(60))["pid"]
        try:
            code = json.loads(self._line(timeout))["status"]
        except subprocess.TimeoutExpired:
            os.kill(pid, signal.SIGKILL)
            self._line(60)
            raise subprocess.TimeoutExpired([*self.arena, *args], timeout) from None
        return subprocess.CompletedProcess([*self.arena, *args], code, out.read_text(),
                                           err.read_text())

    def _line(self, timeout: float) -> str:
        """The server's next reply line (read from the raw pipe: a buffered reader could
        hold the second reply where select() does not see it)."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            if not ready:
                raise subprocess.TimeoutExpired("forked arena", timeout)
            chunk = os.read(self.proc.stdout.fileno(), 4096)
            if not chunk:
                raise AssertionError(f"the forked-arena server exited ({self.proc.wait()})")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode()

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.folder.cleanup()


_SERVERS: dict[tuple, ForkedArena] = {}


def forked_arena(arena: tuple[str, ...], env: dict[str, str], home: str = "") -> ForkedArena:
    """This test process's server for `arena` in `env`, started on first use. `home`: the
    folder whose `orchestrator` a `python -m orchestrator` run there imports (a clone), if
    not the one Python finds anyway (the checkout's editable install)."""
    # Not PYTEST_CURRENT_TEST, which pytest changes at every test (each command still gets
    # it, with the rest of its environment).
    key = (arena, home,
           tuple(sorted((k, v) for k, v in env.items() if k != "PYTEST_CURRENT_TEST")))
    if key not in _SERVERS:
        _SERVERS[key] = ForkedArena(arena, env, home)
    return _SERVERS[key]


@atexit.register
def _close_all() -> None:
    for server in _SERVERS.values():
        server.close()
