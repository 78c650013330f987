"""A sandboxed process from the outside: how it ended (`describe_exit`), reaping it with its
rusage (`reap`), killing its whole tree (`kill_tree`), and what a live one uses (its CPU
clock, its peak RSS, its children), read from /proc. Shared by the bots' children
(`host.py`) and the match jail (`matchjail.py`)."""
from __future__ import annotations

import os
import resource
import select
import signal
import time
from typing import TYPE_CHECKING

import psutil

from sandbox.botlib import child_module

if TYPE_CHECKING:
    import _harden
else:
    _harden = child_module("_harden")
ABORT_EXIT = _harden.ABORT_EXIT


def describe_exit(status: int | None, cpu_s: float = 0.0, cpu_cap_s: float = 0.0) -> str:
    if status is None:
        return "crash: the process stopped answering"
    if status < 0:
        sig = -status
        # As pid 1 of its namespace the child ignores SIGXCPU; the kernel's SIGKILL at
        # the hard limit (RLIMIT_CPU) is what ends it, so the CPU used tells the two
        # apart. The kernel judges RLIMIT_CPU on its tick-sampled clock, while rusage
        # reports the precise run time; on a loaded machine the two part widely (a 1 s
        # limit has killed at 0.994 s and at 0.694 s of rusage CPU, measured). So a
        # SIGKILL after at least half the backstop reads as the backstop's.
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_cap_s > 0
                                     and cpu_s >= cpu_cap_s / 2):
            return "cpu time limit"
        if sig == signal.SIGABRT:
            return "crash: aborted (SIGABRT)"
        return f"crash: killed by {signal.Signals(sig).name}"
    if status == ABORT_EXIT:               # the child's own SIGABRT handler (_harden.py)
        return "crash: aborted (SIGABRT)"
    return f"exited with status {status}"


def cpu_of(pid: int) -> float:
    """CPU s of a live process (its clock: all its threads); 0 for one that is gone."""
    try:
        return time.clock_gettime(_harden.cpu_clock(pid))
    except OSError:
        return 0.0


def live_usage(pid: int) -> tuple[float, float]:
    """CPU s and peak RSS MiB (VmHWM) of a live process; zeros for one that is gone."""
    return cpu_of(pid), peak_rss_of(pid)


def children_of(pid: int) -> list[int]:
    """The pids of `pid`'s children (its main thread's, which forks them)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
            return [int(word) for word in f.read().split()]
    except OSError:                 # a kernel without CONFIG_PROC_CHILDREN: scan /proc
        try:
            return [child.pid for child in psutil.Process(pid).children()]
        except psutil.Error:
            return []


def peak_rss_of(pid: int) -> float:
    """VmHWM of a live process, in MiB (0 when it is gone). One read(): read per turn."""
    try:
        fd = os.open(f"/proc/{pid}/status", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return 0.0
    try:
        data = os.read(fd, 8192)
        at = data.index(b"\nVmHWM:") + 7
        return int(data[at:data.index(b"kB", at)]) / 1024
    except (OSError, ValueError):
        return 0.0
    finally:
        os.close(fd)


def reap(pid: int, timeout: float) -> tuple[int, resource.struct_rusage] | None:
    """Wait up to `timeout` s for our child `pid` (a bot's child or a match jail) to exit,
    and reap it: its exit code (negative: the signal that killed it) and its rusage, or
    None if it still runs (or was reaped before). Only wait4 tells the peak RSS however the
    process ended (a crash, an exit, our kill): /proc no longer shows it once a zombie."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            reaped, status, usage = os.wait4(pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if reaped:
            return os.waitstatus_to_exitcode(status), usage
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        _wait_exit(pid, min(left, 0.05))


def _wait_exit(pid: int, timeout: float) -> None:
    """Sleep until `pid` exits or `timeout` passes (a pidfd: no polling loop)."""
    try:
        fd = os.pidfd_open(pid)
    except (OSError, AttributeError):
        time.sleep(min(timeout, 0.002))
        return
    try:
        select.select([fd], [], [], timeout)
    finally:
        os.close(fd)


def kill_tree(pid: int, look_for_descendants: bool = True) -> None:
    """SIGKILL `pid`, its process group and (by a scan of all processes) its descendants."""
    victims = []
    if look_for_descendants:
        try:
            victims = psutil.Process(pid).children(recursive=True)
        except psutil.Error:
            pass
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass
    for proc in victims:
        try:
            proc.kill()
        except psutil.Error:
            pass
