"""The lane's guard refuses every way of starting a process, remembers the attempt even
when the code under test swallows the error, and puts back what it patched."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import subprocess

import pytest

from tests.support import noprocess
from tests.support.noprocess import Guard, ProcessStarted, no_process


def _asyncio_subprocess() -> None:
    async def start() -> None:
        await asyncio.create_subprocess_exec("true")
    asyncio.run(start())


STARTS = {
    "subprocess.run": lambda: subprocess.run(["true"], check=False),
    "subprocess.Popen shell": lambda: subprocess.Popen("true", shell=True),
    "os.system": lambda: os.system("true"),
    "os.popen": lambda: os.popen("true"),
    "os.fork": lambda: os.fork(),
    "os.forkpty": lambda: os.forkpty(),
    "os.posix_spawn": lambda: os.posix_spawn("/bin/true", ["true"], {}),
    "os.posix_spawnp": lambda: os.posix_spawnp("true", ["true"], {}),
    "os.spawnv": lambda: os.spawnv(os.P_WAIT, "/bin/true", ["true"]),
    "os.execv": lambda: os.execv("/bin/true", ["true"]),
    "multiprocessing fork": lambda: multiprocessing.get_context("fork").Process(
        target=print).start(),
    "multiprocessing spawn": lambda: multiprocessing.get_context("spawn").Process(
        target=print).start(),
    "asyncio": _asyncio_subprocess,
}


@pytest.mark.parametrize("start", STARTS.values(), ids=list(STARTS))
def test_every_way_to_start_a_process_trips_the_guard(start) -> None:
    with no_process() as inner:             # inside the lane's own guard
        with pytest.raises(ProcessStarted, match="may not start a process"):
            start()
        assert inner.attempts
        inner.attempts.clear()


def test_a_swallowed_attempt_still_fails_the_test() -> None:
    with pytest.raises(ProcessStarted, match=r"tried to start a process: \['os.system"):
        with no_process():
            try:
                os.system("true")
            except Exception:
                pass                        # as code that turns errors into a message


def test_the_guard_puts_back_what_it_patched() -> None:
    before = {name: getattr(os, name) for name in noprocess.OS_CALLS if hasattr(os, name)}
    popen = subprocess.Popen._execute_child          # type: ignore[attr-defined]
    guard = Guard()
    guard.install()
    assert os.fork is not before["fork"]
    guard.uninstall()
    assert {name: getattr(os, name) for name in before} == before
    assert subprocess.Popen._execute_child is popen  # type: ignore[attr-defined]


def test_the_lane_itself_is_guarded() -> None:
    """This very test runs under the conftest's guard: a start fails here too."""
    with pytest.raises(ProcessStarted):
        subprocess.run(["true"], check=False)
    assert [attempt.split("(")[0] for attempt in noprocess.active().attempts] == [
        "subprocess.Popen"]
    noprocess.active().attempts.clear()         # expected: the test itself passes


def test_no_zygote_starts_on_import() -> None:
    """The sandbox's zygotes start on first use, never on import: importing the runner,
    the sandbox and the service starts none (in the lane alone, none runs before either;
    the full suite's other tests may have started one in this worker)."""
    from sandbox.matchjail import jail_zygote_pid
    from sandbox.zygote import zygote_pid

    before = (zygote_pid(), jail_zygote_pid(), noprocess.children())
    import orchestrator.runner.match  # noqa: F401
    import orchestrator.service.batch  # noqa: F401
    import sandbox.host  # noqa: F401

    assert (zygote_pid(), jail_zygote_pid(), noprocess.children()) == before
