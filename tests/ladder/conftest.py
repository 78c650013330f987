"""A ladder on a temporary database, driven through its HTTP API (httpx, via Starlette's
TestClient, which also runs the app's start-up and shutdown)."""
from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi", reason="the ladder server needs the server extra")
from fastapi.testclient import TestClient  # noqa: E402

from orchestrator.options import LadderSettings  # noqa: E402
from orchestrator.web.ladder.app import create_app  # noqa: E402
from orchestrator.web.ladder.service import Ladder  # noqa: E402
from sandbox.limits import Limits  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.ladder.server import upload  # noqa: E402,F401  (the tests' one upload helper)

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
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(client, ladder): Robot Game, arena and race ladders, quick checks."""
    db = tmp_path_factory.mktemp("ladder") / "ladder.sqlite"
    ladder = Ladder(db, LadderSettings(games=["robotgame", "arena", "race"], workers=1,
                                       check_workers=2, check_turns=4, check_limits=FAST))
    with TestClient(create_app(ladder)) as client:
        yield client, ladder
