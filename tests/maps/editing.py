"""Run `arena maps edit` as its own process, as a person would, for the tests that need the
real server: the browser test and the install test."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.support.paths import ARENA_CMD, ROOT
from tests.support.ladder import free_port


@contextmanager
def editing(log: Path, *args: str, arena: list[str] | None = None, cwd: Path = ROOT):
    """`arena maps edit ARGS` on a free loopback port, stopped with Ctrl-C at the end;
    its page's URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("ab") as out:
        proc = subprocess.Popen([*(arena or ARENA_CMD), "maps", "edit", *args, "--port",
                                 str(port), "--no-open"], cwd=cwd, stdout=out, stderr=out,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"the editor exited: {log.read_text()}"
            try:
                if httpx.get(f"{url}/api/map", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"the editor did not answer: {log.read_text()}"
            time.sleep(0.2)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=30) == 0, log.read_text()      # Ctrl-C is the way out
