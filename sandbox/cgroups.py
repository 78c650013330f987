"""A memory and a pids cgroup per sandbox child, where this process may make them.

The honest caps: a memory cgroup counts everything a child holds (anonymous memory,
shared memory, tmpfs pages, pipe buffers, kernel memory), not just its address space, and
a pids cgroup counts its tasks (threads included). The host makes both, as children of its
own cgroups, and moves the sandbox child in before the child reads its config, so no bot
code runs outside them; the child's threads and programs inherit them.

Where: cgroup v1 hierarchies of `memory` and `pids` that this process can write (root on
this machine kind), or a cgroup v2 directory whose `cgroup.subtree_control` already
delegates those controllers (a systemd user's delegated subtree). Elsewhere there is none,
and the sandbox falls back on seccomp refusals, rlimits and RLIMIT_NPROC in a user
namespace (`botlib/_harden.py`).
"""
from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sandbox.botlib import child_module

if TYPE_CHECKING:
    from _attempts import TASKS_REFUSED
else:
    TASKS_REFUSED = child_module("_attempts").TASKS_REFUSED

CONTROLLERS = ("memory", "pids")
# v1 and v2 names of the files used: limit, the counter of refusals or OOM kills.
FILES = {1: {"memory": ("memory.limit_in_bytes", "memory.oom_control", "oom_kill"),
             "pids": ("pids.max", "pids.events", "max")},
         2: {"memory": ("memory.max", "memory.events", "oom_kill"),
             "pids": ("pids.max", "pids.events", "max")}}
PEAK = {1: "memory.max_usage_in_bytes", 2: "memory.peak"}     # v2's: Linux 5.19 on
PREFIX = "arena-"


@dataclass(frozen=True)
class Hierarchy:
    """Where this process may make child cgroups of one controller."""

    base: Path
    version: int


def _mounts() -> tuple[dict[str, Path], Path | None]:
    """Mount points of the v1 controllers, and of the v2 hierarchy."""
    v1: dict[str, Path] = {}
    v2 = None
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return v1, v2
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, extra = left.split(), right.split()
        if len(fields) < 5 or len(extra) < 3:
            continue
        if extra[0] == "cgroup2":
            v2 = Path(fields[4])
        elif extra[0] == "cgroup":
            for option in extra[2].split(","):
                if option in CONTROLLERS:
                    v1[option] = Path(fields[4])
    return v1, v2


def _find() -> tuple[dict[str, Hierarchy], str]:
    """The usable hierarchy of each controller, and why the missing ones are not."""
    v1, v2 = _mounts()
    try:
        own = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return {}, "no /proc/self/cgroup"
    found: dict[str, Hierarchy] = {}
    for line in own:
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(","):
            if name in v1 and name in CONTROLLERS:
                found[name] = Hierarchy(v1[name] / path.lstrip("/"), 1)
        if controllers == "" and v2 is not None:
            base = v2 / path.lstrip("/")
            try:
                delegated = (base / "cgroup.subtree_control").read_text().split()
            except OSError:
                delegated = []
            for name in CONTROLLERS:
                if name in delegated and name not in found:
                    found[name] = Hierarchy(base, 2)
    usable = {}
    for name, hierarchy in found.items():
        probe = hierarchy.base / f"{PREFIX}probe-{os.getpid()}"
        try:
            probe.mkdir()
            probe.rmdir()
        except OSError:
            continue
        usable[name] = hierarchy
        _remove_stale(hierarchy.base)
    missing = [n for n in CONTROLLERS if n not in usable]
    why = ""
    if missing:
        why = ("no writable cgroup" if os.geteuid() == 0 or not found
               else "the cgroup is not writable by this user (no delegation)")
    return usable, why


def _remove_stale(base: Path) -> None:
    """Cgroups left by a host that died (its pid is in the name): empty, so removable."""
    for path in base.glob(f"{PREFIX}*-*"):
        try:
            pid = int(path.name.split("-")[1])
        except (IndexError, ValueError):
            continue
        if not Path(f"/proc/{pid}").exists():
            try:
                path.rmdir()
            except OSError:
                pass


_FOUND: tuple[dict[str, Hierarchy], str] | None = None
_counter = itertools.count()


def available() -> tuple[dict[str, Hierarchy], str]:
    """The hierarchies this process can use ({controller: Hierarchy}), found once, and
    why the others cannot be used ('' when both can)."""
    global _FOUND
    if _FOUND is None:
        _FOUND = _find()
    return _FOUND


class ChildCgroups:
    """One child's cgroups: made with its limits, the child moved in, removed at the end."""

    def __init__(self, memory_bytes: int, tasks: int) -> None:
        hierarchies, _ = available()
        self.paths: dict[str, tuple[Path, int]] = {}
        name = f"{PREFIX}{os.getpid()}-{next(_counter)}"
        limits = {"memory": memory_bytes, "pids": tasks}
        for controller, hierarchy in hierarchies.items():
            path = hierarchy.base / name
            try:
                path.mkdir()
                limit = FILES[hierarchy.version][controller][0]
                (path / limit).write_text(str(limits[controller]))
            except OSError:
                _rmdir(path)
                continue
            self.paths[controller] = (path, hierarchy.version)
        self._seen = dict.fromkeys(self.paths, 0)
        self._events: dict[str, int] = {}       # controller -> its open events file
        self.lost: list[str] = []

    @property
    def controllers(self) -> list[str]:
        return list(self.paths)

    def add(self, pid: int) -> None:
        """Move `pid` (all its threads) into every cgroup; a controller that refuses is
        dropped, and listed in `lost`."""
        for controller, (path, _) in list(self.paths.items()):
            try:
                (path / "cgroup.procs").write_text(str(pid))
            except OSError:
                self._close(controller)
                del self.paths[controller]
                _rmdir(path)
                self.lost.append(controller)

    def add_tree(self, pid: int) -> None:
        """`pid` and every descendant it has now (after `pid` is in, any new one is born
        inside: cgroup migration and fork exclude each other)."""
        self.add(pid)
        for child in _descendants(pid):
            self.add(child)

    def count(self, controller: str) -> int:
        """How many times the cap was hit: tasks refused, or OOM kills.

        The events file is opened once and read again from its start (pread): the host
        asks after every turn of every child, and a path walk through cgroupfs each time
        cost 60 us, against 1 us for the read (measured)."""
        if controller not in self.paths:
            return 0
        path, version = self.paths[controller]
        _, events, key = FILES[version][controller]
        fd = self._events.get(controller)
        try:
            if fd is None:
                fd = self._events[controller] = os.open(path / events,
                                                        os.O_RDONLY | os.O_CLOEXEC)
            for line in os.pread(fd, 4096, 0).decode("ascii").splitlines():
                word, _, value = line.partition(" ")
                if word == key:
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def news(self) -> list[str]:
        """Violations since the last call: the task cap refused a thread or a process
        (worded as the child's own note of a refused thread, so the two make one)."""
        hits = self.count("pids")
        new = hits > self._seen.get("pids", 0)
        self._seen["pids"] = hits
        return [f"tasks: {TASKS_REFUSED}"] if new else []

    def oom_killed(self) -> bool:
        return self.count("memory") > 0

    def peak_mb(self) -> float:
        """The memory cgroup's high-water mark (MiB): what the child's processes held at
        most, read by the host; it outlives them, unlike their VmHWM. 0.0 without one."""
        if "memory" not in self.paths:
            return 0.0
        path, version = self.paths["memory"]
        try:
            return int((path / PEAK[version]).read_text()) / (1 << 20)
        except (OSError, ValueError):
            return 0.0

    def remove(self) -> None:
        """Remove the cgroups (once their processes are gone; v1 moves the charges up)."""
        for controller in list(self._events):
            self._close(controller)
        for path, _ in self.paths.values():
            _rmdir(path)
        self.paths = {}

    def _close(self, controller: str) -> None:
        fd = self._events.pop(controller, None)
        if fd is not None:
            os.close(fd)


def _rmdir(path: Path) -> None:
    try:
        path.rmdir()
    except OSError:
        pass


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                text = Path(f"/proc/{current}/task/{tid}/children").read_text()
            except OSError:
                continue
            for word in text.split():
                found.append(int(word))
                todo.append(int(word))
    return found
