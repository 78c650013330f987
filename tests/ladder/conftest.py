"""A ladder on a temporary database, driven through its HTTP API (httpx, via Starlette's
TestClient, which also runs the app's start-up and shutdown)."""
from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the ladder server needs the server extra")
from fastapi.testclient import TestClient  # noqa: E402

from orchestrator.options import LadderSettings  # noqa: E402
from orchestrator.web.ladder.app import create_app  # noqa: E402
from orchestrator.web.ladder.service import Ladder  # noqa: E402
from tests.support.ladder import FAST  # noqa: E402


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(client, ladder): Robot Game, arena and race ladders, quick checks."""
    db = tmp_path_factory.mktemp("ladder") / "ladder.sqlite"
    ladder = Ladder(db, LadderSettings(games=["robotgame", "arena", "race"], workers=1,
                                       check_workers=2, check_turns=4, check_limits=FAST))
    with TestClient(create_app(ladder)) as client:
        yield client, ladder
