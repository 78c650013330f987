"""The host's handle on its zygote: start it once per process, ask it for children.

The zygote is a fresh interpreter that has imported the child side and nothing else; see
`botlib/_zygote.py`. Forking from it costs a few milliseconds instead of the ~25 ms of a
new interpreter, and the children it makes are the host's own (CLONE_PARENT).
"""
from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import msgpack

from sandbox.botlib import child_module
from sandbox.isolation import SandboxUnavailable
from sandbox.paths import BOTLIB, CHILD_ENV, CHILD_PYTHON_FLAGS, fixed_layout, site_dirs

if TYPE_CHECKING:
    import _wire
else:
    _wire = child_module("_wire")

log = logging.getLogger(__name__)      # the host's handle only; the zygote never logs
ZYGOTE_MAIN = BOTLIB / "_zygote.py"
START_TIMEOUT_S = 30.0


class ZygoteError(SandboxUnavailable):
    """The zygote could not be started or stopped answering."""


class Zygote:
    """One running zygote and its control socket. Thread-safe."""

    def __init__(self, script: Path | None = None, args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        """`script`, `args` (before the site dirs) and `env` (added to the children's):
        another zygote of the same protocol (the match jail's, `sandbox/_jailzygote.py`)."""
        self.owner = os.getpid()
        self._lock = threading.Lock()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._control = ours
        started = threading.Event()
        self._failure: BaseException | None = None

        # A child's parent-death signal fires when the *thread* that forked its parent
        # exits, so the zygote is started from a thread that lives as long as the process.
        def keeper() -> None:
            try:
                self.proc = subprocess.Popen(
                    [sys.executable, *CHILD_PYTHON_FLAGS, str(script or ZYGOTE_MAIN),
                     str(theirs.fileno()), *args, *site_dirs()], pass_fds=(theirs.fileno(),),
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL, env={**CHILD_ENV, **(env or {})},
                    start_new_session=True, preexec_fn=fixed_layout())
            except BaseException as exc:
                self._failure = exc
            started.set()
            threading.Event().wait()

        threading.Thread(target=keeper, name="arena-zygote-keeper", daemon=True).start()
        started.wait()
        theirs.close()
        if self._failure is not None:
            raise ZygoteError(f"cannot start the sandbox zygote: {self._failure}")
        self.pid = self.proc.pid
        log.debug("zygote %d started (%s)", self.pid, (script or ZYGOTE_MAIN).name)
        self._ready = False         # its hello is read on first use, so that it can boot
                                    # while this process goes on (see prestart())

    def _wait_ready(self) -> None:
        """Read the zygote's hello once; call with the lock held."""
        if self._ready:
            return
        self._control.settimeout(START_TIMEOUT_S)
        try:
            hello = _wire.unpack(self._control.recv(4096))
        except (OSError, _wire.FrameError) as exc:
            self.close()            # so that the next zygote() starts a new one
            raise ZygoteError(f"the sandbox zygote did not start: {exc}") from None
        if not isinstance(hello, dict) or "ready" not in hello:
            self.close()
            raise ZygoteError("the sandbox zygote did not start")
        self._ready = True

    def spawn(self, in_fd: int, out_fd: int, namespaces: list[str], main: str = "_child",
              side: str = "", extra_fds: tuple[int, ...] = ()) -> int:
        """A new child in `namespaces`, reading `in_fd` and writing `out_fd`, that runs
        `main` (`_child`: a Python bot; `_keeper`: an executable one). `side`, a game's bot
        side in botlib/, is imported by the zygote first, once. Returns its pid."""
        request = msgpack.packb({"namespaces": namespaces, "main": main, "side": side})
        with self._lock:
            self._wait_ready()
            try:
                socket.send_fds(self._control, [request], [in_fd, out_fd, *extra_fds])
                answer = _wire.unpack(self._control.recv(4096))
            except (OSError, _wire.FrameError) as exc:
                raise ZygoteError(f"the sandbox zygote stopped answering: {exc}") from None
        if not isinstance(answer, dict) or not isinstance(answer.get("pid"), int):
            raise ZygoteError(f"the sandbox zygote failed: {answer!r:.100}")
        return answer["pid"]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        self._control.close()
        try:
            self.proc.kill()
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired, AttributeError):
            pass


_current: Zygote | None = None
_current_lock = threading.Lock()


def zygote() -> Zygote:
    """This process's zygote, started on first use (and again after a fork or a death)."""
    global _current
    with _current_lock:
        if _current is None or _current.owner != os.getpid() or not _current.alive():
            if _current is not None and _current.owner == os.getpid():
                log.info("zygote %d is gone: another is started", _current.pid)
                _current.close()
            _current = Zygote()
        return _current


def prestart() -> None:
    """Start this process's zygote now, without waiting for it: it boots (~70 ms) while
    the caller imports the rest of the command. A failure shows when a child is asked for."""
    try:
        zygote()
    except ZygoteError:
        pass


def zygote_pid() -> int | None:
    """The pid of this process's zygote, if one is running (tests leave it out of strays)."""
    current = _current
    if current is not None and current.owner == os.getpid() and current.alive():
        return current.pid
    return None
