"""A child's cgroup counters as the host reads them each turn: from a file it keeps open
(not opened again each turn), so every read must see the kernel's count of now, not
of the first read."""
from __future__ import annotations

import os
import time

import pytest

from sandbox.cgroups import TASKS_REFUSED, ChildCgroups, available


def _pids_cgroups() -> ChildCgroups:
    if "pids" not in available()[0]:
        pytest.skip(f"no writable pids cgroup here: {available()[1] or 'not delegated'}")
    return ChildCgroups(256 << 20, 1)           # a cap of one task: the child itself


def _refused_forks(cgroups: ChildCgroups, forks: int) -> None:
    """A process in `cgroups` that tries `forks` forks, each refused by the cap of 1."""
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:                                  # pragma: no cover (the child)
        os.close(ready_r)
        os.close(go_w)
        os.write(ready_w, b"x")
        os.read(go_r, 1)                          # moved in by now
        refused = 0
        for _ in range(forks):
            try:
                child = os.fork()
            except OSError:
                refused += 1
                continue
            if child == 0:
                os._exit(0)
            os.waitpid(child, 0)
        os._exit(0 if refused == forks else 1)
    os.close(ready_w)
    os.close(go_r)
    os.read(ready_r, 1)
    cgroups.add(pid)
    os.write(go_w, b"x")
    _, status = os.waitpid(pid, 0)
    os.close(ready_r)
    os.close(go_w)
    assert os.waitstatus_to_exitcode(status) == 0, "the cap did not refuse every fork"


def test_each_read_of_the_kept_open_events_file_sees_new_refusals() -> None:
    cgroups = _pids_cgroups()
    try:
        assert cgroups.news() == []                # opens the file; nothing refused yet
        _refused_forks(cgroups, 2)
        first = cgroups.count("pids")
        assert first >= 2
        assert cgroups.news() == [f"tasks: {TASKS_REFUSED}"]
        assert cgroups.news() == []                # reported once
        _refused_forks(cgroups, 1)
        deadline = time.monotonic() + 5
        while cgroups.count("pids") == first and time.monotonic() < deadline:
            time.sleep(0.01)
        assert cgroups.count("pids") > first       # the same open file, read again
        assert cgroups.news() != []
    finally:
        cgroups.remove()
    assert cgroups.count("pids") == 0              # removed: nothing left to read
    assert not cgroups._events                     # and its file closed

