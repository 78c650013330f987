"""Processes the tests start or look at: Ctrl-C for a child, and the session's other
xdist workers."""
from __future__ import annotations

import os
import signal

import psutil


def default_sigint() -> None:
    """`Popen(preexec_fn=default_sigint)`: Ctrl-C as at a terminal. A shell running the
    tests as a background job starts them with SIGINT ignored, and children inherit that;
    an `arena` started so would rightly ignore the tests' SIGINT too."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# The xdist controller of this session, for a test run in a subprocess (as another user).
CONTROLLER = "ARENA_TESTS_CONTROLLER"


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
