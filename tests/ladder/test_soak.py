"""The ladder over 500 Robot Game matches, with one hostile bot among six: it passes its
check, then hangs in every match after its first few. It must end suspended, the others
must keep playing, and the server must not grow. Slow: `make bench` runs it
(`pytest -m slow`), `make test` does not."""
from __future__ import annotations

import time

import psutil
import pytest

from tests.support.ladder import SAMPLES, Server, hanging_bot, wait_for

pytestmark = pytest.mark.slow
RG = SAMPLES / "robotgame"
MATCHES = 500
def rss_mb(server: Server) -> float:
    return psutil.Process(server.proc.pid).memory_info().rss / 1e6


def test_500_matches_suspend_the_hostile_bot_and_the_server_does_not_grow(tmp_path) -> None:
    server = Server(tmp_path / "ladder.sqlite", "--games", "robotgame")
    try:
        ids = {}
        for name, file in (("example", "example"), ("rusher", "rusher"),
                           ("survivor", "survivor"), ("coordinator", "coordinator"),
                           ("example two", "example")):
            answer = server.upload("robotgame", name, RG / f"{file}.py")
            assert answer.status_code == 201, answer.text
            ids[name] = answer.json()["id"]
        hostile = tmp_path / "hanger.py"
        # It hangs from a few seconds after its upload: long enough to pass its check.
        hostile.write_bytes(hanging_bot("time.time() > DEADLINE",
                                        f"import time\nDEADLINE = {time.time() + 6}"))
        answer = server.upload("robotgame", "hanger", hostile)
        assert answer.status_code == 201, answer.text       # it passed the check
        hanger = answer.json()["id"]

        def board() -> dict:
            return server.client.get("/api/ladders/robotgame").json()

        wait_for(lambda: board()["matches"] >= 50, 300, "50 matches")
        at_50 = rss_mb(server)
        wait_for(lambda: board()["matches"] >= MATCHES, 1800, f"{MATCHES} matches")
        at_end = rss_mb(server)
        print(f"\nserver RSS: {at_50:.1f} MB after 50 matches, {at_end:.1f} MB after "
              f"{board()['matches']}")

        info = server.client.get(f"/api/bots/{hanger}").json()
        assert info["status"] == "suspended", info
        assert "in 3 matches in a row" in info["reason"]
        played = server.matches(bot=hanger)
        assert any(p["bot"] == hanger and p["status"] == "ok"
                   for m in played for p in m["players"]), "it played a few matches first"
        latest = server.matches()[:100]
        assert not any(p["bot"] == hanger for m in latest for p in m["players"])
        for name, bot_id in ids.items():
            assert any(p["bot"] == bot_id for m in latest for p in m["players"]), name
            assert server.client.get(f"/api/bots/{bot_id}").json()["status"] == "active"
        assert at_end <= at_50 * 1.2, f"RSS grew from {at_50:.1f} to {at_end:.1f} MB"
    finally:
        server.stop()
