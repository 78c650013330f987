"""The ladder's loop survives an error in one match: the error is logged through
`logging`, the match is recorded as failed, and play goes on, rated as the database says;
and once the loop does stop, /api/health says so (503), not "ok"."""
from __future__ import annotations

import logging
import pathlib
import re
import sqlite3

import pytest
from fastapi.testclient import TestClient

from orchestrator import host_files
from orchestrator.options import LadderSettings
from orchestrator.results.ratings import elo
from orchestrator.web.ladder.app import create_app
from orchestrator.web.ladder.service import Ladder
from tests.support.ladder import FAST, SAMPLES, Server, upload, wait_for

pytestmark = pytest.mark.xdist_group("ladder-loop")
LOGGER = "orchestrator.ladder"


@pytest.fixture
def two_bots(tmp_path):
    """(client, ladder): a Robot Game ladder with two sample bots, playing."""
    ladder = Ladder(tmp_path / "ladder.sqlite", LadderSettings(games=["robotgame"], workers=1,
                                                               check_workers=1, check_turns=4,
                                                               check_limits=FAST))
    with TestClient(create_app(ladder)) as client:
        for name in ("example", "rusher"):
            answer = upload(client, "robotgame", name, SAMPLES / "robotgame" / f"{name}.py")
            assert answer.status_code == 201, answer.text
        yield client, ladder


def finished(client) -> list[dict]:
    return client.get("/api/matches", params={"limit": 500}).json()["matches"]


def rated_as_stored(client, ladder) -> dict[int, float]:
    """The leaderboard's Elo, checked against the stored rated matches (a quiet moment)."""
    def read():
        before = client.get("/api/ladders/robotgame").json()
        conn = sqlite3.connect(f"file:{ladder.db_path}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT r.match, s.bot_id, s.rank FROM ladder_results r JOIN "
                                "ladder_seats s ON s.match = r.match WHERE r.error IS NULL "
                                "AND r.rated = 1 ORDER BY r.seq, s.seat").fetchall()
        finally:
            conn.close()
        after = client.get("/api/ladders/robotgame").json()
        return (after, rows) if before == after else None
    board, rows = wait_for(read, 60, "a quiet moment")
    games: dict[int, list] = {}
    for match, bot, rank in rows:
        games.setdefault(match, []).append((bot, rank))
    again = {bot: round(value, 1) for bot, value in elo(list(games.values())).items()}
    shown = {row["id"]: row["elo"] for row in board["bots"] if row["games"]}
    assert shown == again
    assert sum(row["games"] for row in board["bots"]) == 2 * len(games)
    return shown


def test_a_replay_that_cannot_be_written_is_logged_and_play_goes_on(
        two_bots, monkeypatch, caplog) -> None:
    client, ladder = two_bots
    caplog.set_level(logging.INFO, logger=LOGGER)
    written = host_files.write_file
    refused: list[str] = []

    def write_file(path, data):
        path = pathlib.Path(path)
        if path.parent == ladder.replays and path.name == "2.json.gz":
            refused.append(path.name)
            raise OSError(28, "No space left on device")
        return written(path, data)

    monkeypatch.setattr(host_files, "write_file", write_file)
    wait_for(lambda: sum(m["rated"] and m["id"] > 2 for m in finished(client)) >= 3, 180,
             "3 rated matches after the one whose replay failed")
    assert refused == ["2.json.gz"]
    logged = [r for r in caplog.records if r.name == LOGGER and r.levelno >= logging.ERROR]
    assert any("match 2" in r.getMessage() and "No space left" in r.getMessage()
               for r in logged), [r.getMessage() for r in logged]
    gone = client.get("/api/matches/2")
    assert gone.status_code == 404 and "not a finished match" in gone.json()["reason"]
    assert 2 not in {m["id"] for m in finished(client)}
    assert client.get("/api/matches/3/replay").status_code == 200
    rated_as_stored(client, ladder)
    health = client.get("/api/health")
    assert health.status_code == 200 and health.json()["status"] == "ok"


def test_a_match_that_cannot_be_recorded_is_logged_failed_and_not_rated(
        two_bots, monkeypatch, caplog) -> None:
    """The database refuses one match's record after its ratings were counted in memory:
    the loop logs it, records the match as failed and counts again from the database, so
    the leaderboard stays the stored matches' (before, the error went to stderr, the match
    stayed "running" and its ratings stayed counted, though it was never stored)."""
    client, ladder = two_bots
    caplog.set_level(logging.INFO, logger=LOGGER)
    recorded = ladder.store.finish

    def finish(queued, *args):
        if queued.id == 2:
            raise sqlite3.OperationalError("disk I/O error")
        return recorded(queued, *args)

    monkeypatch.setattr(ladder.store, "finish", finish)
    wait_for(lambda: sum(m["rated"] and m["id"] > 2 for m in finished(client)) >= 3, 180,
             "3 rated matches after the one that could not be recorded")
    logged = [r for r in caplog.records if r.name == LOGGER and r.levelno >= logging.ERROR]
    assert any("match 2 could not be recorded" in r.getMessage() and r.exc_info
               for r in logged), [r.getMessage() for r in logged]
    assert client.get("/api/matches/2").status_code == 404
    assert 2 not in ladder.running
    rated_as_stored(client, ladder)


def test_a_failed_turn_is_logged_and_the_loop_goes_on(two_bots, monkeypatch, caplog) -> None:
    client, ladder = two_bots
    caplog.set_level(logging.INFO, logger=LOGGER)
    count = len(finished(client))
    start, failed = ladder._start_matches, []

    def start_matches():
        if not failed:
            failed.append(1)
            raise RuntimeError("one bad turn")
        start()

    monkeypatch.setattr(ladder, "_start_matches", start_matches)
    wait_for(lambda: failed and len(finished(client)) >= count + 2, 120, "2 more matches")
    assert any(r.name == LOGGER and r.exc_info and "one bad turn" in str(r.exc_info[1])
               for r in caplog.records)
    assert client.get("/api/health").json()["status"] == "ok"


class Fatal(BaseException):
    """What the loop's guard of a turn does not catch (as KeyboardInterrupt)."""


def test_health_says_when_the_loop_has_ended(two_bots, monkeypatch, caplog) -> None:
    client, ladder = two_bots
    caplog.set_level(logging.INFO, logger=LOGGER)
    healthy = client.get("/api/health")
    assert healthy.status_code == 200 and healthy.json()["ok"] is True

    def turn():
        raise Fatal("the loop's end")

    monkeypatch.setattr(ladder, "_turn", turn)
    monkeypatch.setattr("threading.excepthook", lambda args: None)   # (logged already)
    wait_for(lambda: not ladder.thread.is_alive(), 30, "the loop to end")
    answer = client.get("/api/health")
    assert answer.status_code == 503, answer.text
    assert answer.json()["ok"] is False and answer.json()["status"] == "ended by Fatal"
    assert any(r.name == LOGGER and r.levelno == logging.CRITICAL for r in caplog.records)


def test_health_says_when_the_ladder_is_stopped(tmp_path) -> None:
    ladder = Ladder(tmp_path / "ladder.sqlite", LadderSettings(games=["robotgame"], workers=1))
    app = create_app(ladder)
    with TestClient(app) as client:
        assert client.get("/api/health").json()["status"] == "ok"
        ladder.stopping.set()                   # stop()'s first step: the loop ends
        ladder.wake.set()
        ladder.thread.join(timeout=30)
        answer = client.get("/api/health")
        assert answer.status_code == 503 and answer.json()["status"] == "stopped"
    idle = Ladder(tmp_path / "ladder.sqlite", LadderSettings(games=["robotgame"]))
    try:
        with TestClient(create_app(idle, run=False)) as client:
            answer = client.get("/api/health")          # an app that runs no loop
            assert answer.status_code == 503 and answer.json()["status"] == "not started"
    finally:
        idle.store.close()


def test_arena_serve_logs_a_replay_it_cannot_store_and_plays_on(tmp_path) -> None:
    """A real server whose replays folder is gone (a file stands in its place: this runs as
    root too, where a mode would not stop a write): its log on stderr says which match and
    why, the match is not rated, and once the folder is back, rated play goes on."""
    db = tmp_path / "ladder.sqlite"
    server = Server(db, "--games", "robotgame", "--workers", "1")
    folder = db.with_name("ladder-replays")
    try:
        for name in ("example", "rusher"):
            answer = server.upload("robotgame", name, SAMPLES / "robotgame" / f"{name}.py")
            assert answer.status_code == 201, answer.text
        wait_for(lambda: server.matches(), 120, "a match")
        folder.rename(tmp_path / "kept")
        folder.write_bytes(b"")
        line = re.compile(r"ERROR ladder: match (\d+)'s replay could not be stored "
                          r"\(\[Errno 20\] Not a directory")
        lost = int(wait_for(lambda: line.search(server.logged()), 120, "the error's line"
                            ).group(1))
        folder.unlink()
        (tmp_path / "kept").rename(folder)
        wait_for(lambda: sum(m["id"] > lost + 1 for m in server.matches()) >= 2, 120,
                 "2 more matches")
        assert server.client.get(f"/api/matches/{lost}").status_code == 404
        health = server.client.get("/api/health")
        assert health.status_code == 200 and health.json()["status"] == "ok"
        assert "Traceback" not in server.logged()
    finally:
        server.stop()
