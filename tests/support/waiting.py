"""Waiting on another process: until what it does shows (a file, a row, a child, an
answer), with a deadline that only bounds a hang. A test never sleeps a fixed time for
something to happen: on a busy machine that time is too short, on an idle one too long."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(predicate: Callable[[], T], timeout: float = 60.0, what: str = "it",
               every: float = 0.05) -> T:
    """The first true value of `predicate()`, asked every `every` s; fails the test with
    `what` once `timeout` s have passed without one."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(every)
