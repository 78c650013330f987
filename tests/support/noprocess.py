"""The fast lane's guard (tests/unit/): while a unit test runs, every way Python has to start
a process raises `ProcessStarted`, and the attempt is remembered, so that a test whose code
swallows the error still fails. The lane's conftest also checks, at the end of a session of
unit tests alone, that the process has no child at all (psutil), which a fork from C that
no patch sees would leave behind."""
from __future__ import annotations

import _posixsubprocess
import contextlib
import multiprocessing.process
import os
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import psutil

# The module attributes through which the standard library starts processes: os's own
# (os.spawn*, os.popen and pty.fork call these), subprocess's (posix_spawn or fork_exec, both
# behind Popen._execute_child; asyncio's subprocesses are Popens), and multiprocessing's
# (fork calls os.fork; spawn and forkserver call _posixsubprocess.fork_exec).
OS_CALLS = ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system",
            "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe")


class ProcessStarted(AssertionError):
    """A unit test tried to start (or become) another process."""


class Guard:
    """The patches of one test: `attempts` lists what was tried, in order."""

    def __init__(self) -> None:
        self.attempts: list[str] = []
        self._undo: list[tuple[Any, str, Any]] = []

    def _refuse(self, name: str) -> Callable[..., Any]:
        def refused(*args: Any, **kwargs: Any) -> Any:
            shown = " ".join(str(a) for a in args[:2])[:200]
            self.attempts.append(f"{name}({shown})")
            raise ProcessStarted(f"a unit test may not start a process: {name}({shown}); "
                                 f"tests that do belong outside tests/unit")
        return refused

    def _patch(self, owner: Any, attribute: str, name: str) -> None:
        if hasattr(owner, attribute):
            self._undo.append((owner, attribute, getattr(owner, attribute)))
            setattr(owner, attribute, self._refuse(name))

    def install(self) -> None:
        for call in OS_CALLS:
            self._patch(os, call, f"os.{call}")
        self._patch(subprocess.Popen, "_execute_child", "subprocess.Popen")
        self._patch(subprocess, "_fork_exec", "subprocess fork_exec")
        self._patch(_posixsubprocess, "fork_exec", "_posixsubprocess.fork_exec")
        self._patch(multiprocessing.process.BaseProcess, "start", "multiprocessing start")
        with contextlib.suppress(ImportError):     # the `multiprocess` package, dill's fork
            import multiprocess.process  # type: ignore[import-untyped]
            self._patch(multiprocess.process.BaseProcess, "start", "multiprocess start")

    def uninstall(self) -> None:
        while self._undo:
            owner, attribute, original = self._undo.pop()
            setattr(owner, attribute, original)


_active: list[Guard] = []


def active() -> Guard:
    """The innermost guard in force (a test that expects a refusal clears its attempts)."""
    return _active[-1]


@contextlib.contextmanager
def no_process() -> Iterator[Guard]:
    """Refuse every process start inside the block; then fail if one was tried, even if the
    code under test caught the error (clear `guard.attempts` after expecting one)."""
    guard = Guard()
    guard.install()
    _active.append(guard)
    try:
        yield guard
    finally:
        _active.remove(guard)
        guard.uninstall()
    if guard.attempts:
        raise ProcessStarted(f"a unit test tried to start a process: {guard.attempts}")


def children() -> list[str]:
    """This process's descendants, each as pid and command line."""
    found = []
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            found.append(f"{child.pid} {' '.join(child.cmdline())}")
    return found
