"""Shared fixtures: paths into the project, and a check that no bot process is left."""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent
# The toy game (tests/toy/): a fifth game kept outside the package, registered as a game
# master's own would be. Set before the registry is first imported, and inherited by every
# `arena` the tests start (from the checkout or an installed wheel, `arena serve` too).
TOY = ROOT / "tests" / "toy"
_named = [ref for ref in os.environ.get("ARENA_GAMES", "").split(os.pathsep) if ref]
os.environ["ARENA_GAMES"] = os.pathsep.join(_named + [str(TOY)] * (str(TOY) not in _named))
# A sandbox mode kept outside the package (tests/modes/counting.py: `off`, counting its
# calls), registered the same way, by its file.
COUNTING = ROOT / "tests" / "modes" / "counting.py"
_modes = [ref for ref in os.environ.get("ARENA_SANDBOX_MODES", "").split(os.pathsep) if ref]
os.environ["ARENA_SANDBOX_MODES"] = os.pathsep.join(_modes + [str(COUNTING)] * (str(COUNTING)
                                                                                not in _modes))

from sandbox.matchjail import jail_zygote_pid  # noqa: E402
from sandbox.zygote import zygote_pid  # noqa: E402
from tests.support.wheel import Installed, installed_venv, wheel_path  # noqa: E402

# Fixtures the tests of several folders share (listeners, ordinary_user).
pytest_plugins = ["tests.support.sandbox"]

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


# pytest-xdist: the tests that share host-wide things run on one worker, one at a time:
# the port the hostile network bots knock on (tests/sandbox/test_hostile.py's listeners)
# and the files outside the sandbox (ESCAPES) that only an unsandboxed run writes.
HOST_WIDE = pytest.mark.xdist_group("host-wide")


# A test of a minute or more of its own (tests/sandbox/test_ordinary_user.py's parts):
# xdist hands out the groups first, then the other tests in the order collected, so such
# a test collected late would start last and run alone at the end; these are moved first.
LONG = pytest.mark.long


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


# The xdist controller of this session, for a test run in a subprocess (as another user).
CONTROLLER = "ARENA_TESTS_CONTROLLER"


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
    if os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ[CONTROLLER] = str(os.getppid())


def other_workers_pids() -> set[int]:
    """Under pytest-xdist, the processes of the session's other workers: every descendant
    of its controller but us, our ancestors and our descendants. A test that looks at every
    process on the machine must leave these out."""
    if not os.environ.get(CONTROLLER):
        return set()
    try:
        me = psutil.Process()
        ours = {me.pid, *(p.pid for p in me.parents()),
                *(p.pid for p in me.children(recursive=True))}
        session = psutil.Process(int(os.environ[CONTROLLER])).children(recursive=True)
    except psutil.Error:
        return set()
    return {p.pid for p in session} - ours


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
    return wheel_path(tmp_path_factory)


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Installed:
    """The arena installed from this checkout's wheel (with the server extra) into a venv
    outside it: built once per session, whatever the number of xdist workers."""
    return installed_venv(tmp_path_factory)
