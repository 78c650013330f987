"""Shared fixtures: paths into the project, and a check that no bot process is left."""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import psutil
import pytest

from sandbox.zygote import zygote_pid

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots" / "arena"
MAPS = ROOT / "maps" / "arena"
HOSTILE = Path(__file__).resolve().parent / "hostile"
ARENA_CMD = [sys.executable, "-m", "orchestrator"]


def check_expected(state: dict, expect: dict, pieces: str, whole: tuple[str, ...]) -> None:
    """A scenario's `expect` block against the state it ended in: the `whole` keys exactly,
    and of each listed piece (`robots`, `bots`) by id, only the fields it names."""
    for key in whole:
        if key in expect:
            assert state[key] == expect[key], f"{key}: {state[key]!r} != {expect[key]!r}"
    by_id = {piece["id"]: piece for piece in state[pieces]}
    for pid, fields in expect.get(pieces, {}).items():
        got = {k: by_id[pid][k] for k in fields}
        assert got == fields, f"{pieces} {pid}: {got} != {fields}"


def default_sigint() -> None:
    """`Popen(preexec_fn=default_sigint)`: Ctrl-C as at a terminal. A shell running the
    tests as a background job starts them with SIGINT ignored, and children inherit that;
    an `arena` started so would rightly ignore the tests' SIGINT too."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def child_pids() -> set[int]:
    """Our descendant processes, less the sandbox zygote, which lives as long as we do."""
    return {p.pid for p in psutil.Process(os.getpid()).children(recursive=True)} - {zygote_pid()}


@pytest.fixture
def no_stray_processes():
    """Fails the test if it leaves any process of ours running."""
    before = child_pids()
    yield
    left = [psutil.Process(pid) for pid in child_pids() - before if psutil.pid_exists(pid)]
    left = [p for p in left if p.status() != psutil.STATUS_ZOMBIE]
    assert not left, f"stray processes: {[(p.pid, p.cmdline()) for p in left]}"


ESCAPES = [Path("/tmp/arena-hostile-escape"), Path("/tmp/arena-hostile-shell-out")]


@pytest.fixture(autouse=True)
def no_escape_files_left():
    """A file a hostile bot managed to write (or an unsandboxed run of one, on purpose)
    fails its own test, never the next one."""
    for path in ESCAPES:
        path.unlink(missing_ok=True)
    yield
    for path in ESCAPES:
        path.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel, built once per session (tests/support/wheel.py)."""
    from tests.support.wheel import wheel_path
    return wheel_path(tmp_path_factory)


@pytest.fixture(scope="session")
def installed_arena(tmp_path_factory) -> Path:
    """The bin/ folder of a venv outside the checkout with the wheel[server] installed,
    once per session."""
    from tests.support.wheel import installed_venv
    return installed_venv(tmp_path_factory)
