"""Helpers and fixtures the sandbox-heavy tests of several folders share: arena matches
through the sandbox, the tiers and the layers each gets here, the network bots' listeners,
the sandbox's processes and the host's load, and an ordinary user. The fixtures reach
every test through `pytest_plugins` in tests/conftest.py."""
from __future__ import annotations

import errno
import fcntl
import functools
import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from engine.arena.rules import rules_from
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox.limits import Limits
from sandbox.matchjail import JAIL_ZYGOTE, jail_zygote_pid
from sandbox.paths import BOTLIB
from sandbox.zygote import zygote_pid
from tests.sandbox import as_user
from tests.support.paths import BOTS, MAPS
from tests.support.processes import other_workers_pids

FAST = Limits(cpu_per_call_s=0.3, wall_per_call_s=1.0, watchdog_grace_s=3.0)
PORT = 48917                     # where tcp_socket.py and udp_socket.py knock
TIERS = ["standard", "bwrap"]
SHMEM_SLACK_KB = 64 << 10       # other processes of the machine come and go
TASKS_SLACK = 8                 # a zygote started meanwhile


# -- arena matches -------------------------------------------------------------------------
def play(bot_paths, *, seed=1, robots=4, turns=25, mapname="tiny", sandbox="standard",
         limits=FAST, trace=None, skip_layers=()) -> dict:
    spec = MatchSpec("arena", MAPS / f"{mapname}.txt", [read_bot(p) for p in bot_paths], seed,
                     rules_from("seed", robots_per_type=robots, max_turns=turns), limits,
                     sandbox, tuple(skip_layers))
    return run_match(spec, trace=trace)


def by_name(result: dict) -> dict[str, dict]:
    return {p["name"]: p for p in result["players"]}


# -- tiers and layers ----------------------------------------------------------------------
@functools.cache
def tier_layers(tier: str) -> tuple[list[str], dict[str, str]]:
    """The isolation layers a child of this tier gets on this machine."""
    if tier == "bwrap" and shutil.which("bwrap") is None:
        pytest.skip("the bwrap tier needs bubblewrap (make test installs it as root)")
    result = play([BOTS / "randy.py"], robots=1, turns=1, sandbox=tier)
    return result["sandbox"], result["sandbox_missing"]


# -- what a hostile bot may have reached ---------------------------------------------------
# Held while a test listens on PORT: the port is the machine's, so another test session
# (another checkout's `make test` beside this one) waits for it instead of failing with
# "address already in use". In this session the host-wide group already runs them one at
# a time; an ordinary user's part (as_user.py --apart) has a port and a /tmp of its own.
PORT_LOCK = Path("/tmp/arena-tests-port.lock")


@pytest.fixture
def listeners():
    """A TCP and a UDP socket on the port the network bots knock on."""
    try:                      # read-only: whoever made it, every user may lock it
        lock = os.open(PORT_LOCK, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        lock = os.open(PORT_LOCK, os.O_RDONLY | os.O_CLOEXEC | os.O_CREAT, 0o644)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        tcp, udp = _bound()
        yield tcp, udp
        tcp.close()
        udp.close()
    finally:
        os.close(lock)            # and its lock with it


def _bound(wait_s: float = 120.0) -> tuple[socket.socket, socket.socket]:
    """The two listeners on PORT, once it is free: a session that does not take the lock
    (an older checkout's) holds it a few seconds a test."""
    deadline = time.monotonic() + wait_s
    while True:
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            tcp.bind(("127.0.0.1", PORT))
            tcp.listen()
            udp.bind(("127.0.0.1", PORT))
        except OSError as exc:
            tcp.close()
            udp.close()
            if exc.errno != errno.EADDRINUSE or time.monotonic() > deadline:
                raise
            time.sleep(0.2)
            continue
        for sock in (tcp, udp):
            sock.setblocking(False)
        return tcp, udp


def knocked(listeners) -> bool:
    """Whether anything reached the listeners."""
    tcp, udp = listeners
    for attempt in (tcp.accept, lambda: udp.recvfrom(100)):
        try:
            attempt()
            return True
        except BlockingIOError:
            pass
    return False


def sandbox_pids() -> set[int]:
    """Processes of this checkout's sandbox (forks of its zygote, wherever they were
    reparented, and bwrap's interpreters), less the zygote itself: whatever uid they run
    as, which is nobody as root and the caller otherwise."""
    ours = (str(BOTLIB), str(JAIL_ZYGOTE))
    return {p.pid for p in psutil.process_iter(["cmdline"])
            if any(mine in part for part in p.info["cmdline"] or () for mine in ours)} \
        - {zygote_pid(), jail_zygote_pid()} - other_workers_pids()


def survivors(before: set[int]) -> set[int]:
    """The sandboxed processes started since `before` that are still running: a leaked one
    lives on, while another worker's finished `arena` may leave an orphan for a moment."""
    found = []
    for pid in sandbox_pids() - before:
        try:
            found.append(psutil.Process(pid))
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(found, timeout=5)
    return {p.pid for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE}


def host_load() -> tuple[int, int]:
    """The host's shared memory (Shmem, KiB), and the tasks (threads) of this test's
    processes and of this checkout's sandbox, wherever they were reparented (the whole
    machine's count moves with the other work it runs)."""
    meminfo = Path("/proc/meminfo").read_text()
    shmem = int(next(line.split()[1] for line in meminfo.splitlines()
                     if line.startswith("Shmem:")))
    tasks = 0
    for pid in {os.getpid(), *sandbox_pids(),
                *(p.pid for p in psutil.Process().children(recursive=True))}:
        try:
            tasks += psutil.Process(pid).num_threads()
        except psutil.Error:
            pass
    return shmem, tasks


def assert_host_load_back(before: tuple[int, int]) -> None:
    """Shmem and the task count are back where they were (within what the machine's
    other work moves them), after a moment for the kernel to free what died."""
    deadline = time.monotonic() + 3.0
    while True:
        shmem, tasks = host_load()
        back = (shmem - before[0] < SHMEM_SLACK_KB, tasks - before[1] < TASKS_SLACK)
        if all(back) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert back[0], f"the host's Shmem grew by {(shmem - before[0]) >> 10} MiB"
    assert back[1], f"the host holds {tasks - before[1]} more tasks"


# -- an ordinary user ----------------------------------------------------------------------
@dataclass(frozen=True)
class OrdinaryUser:
    """Who runs a command through as_user.py: as root, ORDINARY_UID with a home of its
    own; otherwise the caller, as it is."""

    uid: int
    home: Path

    def run(self, argv: list[str], timeout: float, user_namespaces: bool = True,
            apart: bool = False) -> subprocess.CompletedProcess:
        """`apart` (as root): in a network namespace and a /tmp of its own (as_user.py)."""
        return subprocess.run(as_user.command(self.uid, self.home, argv, user_namespaces,
                                              apart and os.geteuid() == 0),
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def ordinary_user():
    if os.geteuid() != 0:
        yield OrdinaryUser(os.getuid(), Path.home())
        return
    home = Path(as_user.make_home(as_user.ORDINARY_UID))
    try:
        yield OrdinaryUser(as_user.ORDINARY_UID, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
