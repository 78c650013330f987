"""The ladder's tests' helpers: limits and bots for a fast ladder, waiting on it, uploading
to it, and `arena serve` run as its own process, as a game master would, for the tests that
need a real server: the browser, the durability and the install tests, and the soak."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from sandbox.limits import Limits
from tests.support.paths import ROOT
from tests.support.waiting import wait_until

FAST = Limits(cpu_per_call_s=0.5, wall_per_call_s=1.0, watchdog_grace_s=3.0, memory_mb=128)
SAMPLES = ROOT / "bots"


def hanging_bot(when: str, preamble: str = "") -> bytes:
    """A Robot Game bot that guards until `when` holds, then hangs in every act: it
    swallows the soft time limit too, so only the hard one stops it."""
    return f"""import rg
{preamble}
class Robot:
    def act(self, game):
        while {when}:
            try:
                while True:
                    pass
            except BaseException:
                pass
        return ['guard']
""".encode()


def wait_for(predicate, timeout: float = 60.0, what: str = "the ladder"):
    """tests/support/waiting.py's wait_until, asking the ladder every 0.1 s."""
    return wait_until(predicate, timeout, what, every=0.1)


def upload(client, game: str, name: str, path: Path | None = None, source: bytes | None = None,
           filename: str = "bot.py"):
    """POST /api/bots with a file or bytes, through any httpx client (TestClient too)."""
    data = path.read_bytes() if path is not None else source
    return client.post("/api/bots", data={"game": game, "name": name},
                       files={"file": (path.name if path else filename, data)})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`arena serve` on 127.0.0.1, its log in a file beside the database."""

    def __init__(self, db: Path, *args: str, arena: list[str] | None = None,
                 cwd: Path = ROOT) -> None:
        self.db, self.port = Path(db), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.db.with_suffix(".log").open("ab")
        command = (arena or [sys.executable, "-m", "orchestrator"]) + [
            "serve", "--db", str(self.db), "--port", str(self.port), *args]
        self.proc = subprocess.Popen(command, cwd=cwd, stdout=self.log, stderr=self.log,
                                     start_new_session=True)
        self.client = httpx.Client(base_url=self.url, timeout=120)
        self.wait_healthy()

    def wait_healthy(self, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.logged()}")
            try:
                answer = self.client.get("/api/health", timeout=2)
                if answer.status_code == 200:
                    return answer.json()
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"the server did not answer: {self.logged()}")

    def logged(self) -> str:
        return self.db.with_suffix(".log").read_text(errors="replace")[-2000:]

    def upload(self, game: str, name: str, path: Path):
        return upload(self.client, game, name, path)

    def matches(self, **query) -> list[dict]:
        return self.client.get("/api/matches", params={"limit": 500, **query}).json()["matches"]

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the server's whole process group (SIGKILL leaves nothing running)."""
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=60)
        self.client.close()
        self.log.close()

    def stop(self) -> None:
        self.kill(signal.SIGTERM)
