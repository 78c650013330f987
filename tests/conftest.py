"""Shared fixtures: paths into the project, and a check that no bot process is left."""
from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest

from sandbox.matchjail import jail_zygote_pid
from sandbox.zygote import zygote_pid
from tests.support.paths import ESCAPES, register_test_plugins
from tests.support.processes import CONTROLLER
from tests.support.wheel import Installed, installed_venv, wheel_path

# Fixtures the tests of several folders share (listeners, ordinary_user).
pytest_plugins = ["tests.support.sandbox"]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Tests marked `long` first (a stable sort: the rest keep their order). Under --dist
    loadgroup, xdist names each grouped test's group in its node id (the scheduler reads
    it there): a pytest that drops it would spread a group over workers without a word,
    so the run stops instead."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        if mark is not None and not item.nodeid.endswith(f"@{mark.args[0]}"):
            raise pytest.UsageError(f"{item.nodeid}: pytest-xdist did not group it (with this "
                                    f"pytest, --dist loadgroup does not group; see pyproject)")


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: a worker per core, and two more. Most tests wait on something much of
    their time (a bot's hang until its wall limit, a subprocess, a browser, a server): run
    one at a time, the suite's tests keep a core busy 40 % of their wall time (per-test
    CPU against wall, measured a folder at a time). With a worker per core and one more, a
    2-core run idled a fifth of the time; with two more, the cores stay busy. The sandbox
    judges a call's time by its own clock, not the wall, so a busier machine does not
    change a verdict (tests that bound time bound CPU; wall bounds are hang guards)."""
    return (os.cpu_count() or 1) + 2


def pytest_configure(config) -> None:
    register_test_plugins()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ[CONTROLLER] = str(os.getppid())


def child_pids() -> set[int]:
    """Our descendant processes, less the sandbox zygote, which lives as long as we do."""
    return {p.pid for p in psutil.Process(os.getpid()).children(recursive=True)} - {
        zygote_pid(), jail_zygote_pid()}


@pytest.fixture
def no_stray_processes():
    """Fails the test if it leaves any process of ours running."""
    before = child_pids()
    yield
    left = [psutil.Process(pid) for pid in child_pids() - before if psutil.pid_exists(pid)]
    left = [p for p in left if p.status() != psutil.STATUS_ZOMBIE]
    assert not left, f"stray processes: {[(p.pid, p.cmdline()) for p in left]}"


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
    return wheel_path(tmp_path_factory)


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Installed:
    """The arena installed from this checkout's wheel (with the server extra) into a venv
    outside it: built once per session, whatever the number of xdist workers."""
    return installed_venv(tmp_path_factory)
