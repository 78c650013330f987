"""The ladder survives its server being killed: nothing acknowledged is lost, the ratings
are rebuilt from the stored matches, and the matches that were in flight are played."""
from __future__ import annotations

import signal
import time

import psutil

from orchestrator.results.ratings import elo
from orchestrator.web.ladder.store import LadderStore
from tests.support.ladder import SAMPLES, Server, wait_for

RG = SAMPLES / "robotgame"


def recomputed(db) -> dict[int, float]:
    store = LadderStore(db)
    try:
        games = [[(bot, rank) for bot, _, rank, _ in seats]
                 for _, _, _, rated, seats in store.history() if rated]
    finally:
        store.close()
    return {bot: round(value, 1) for bot, value in elo(games).items()}


def quiet_board(server: Server) -> list[dict]:
    """The leaderboard at a moment when no match finished while it was read."""
    def read():
        before = server.client.get("/api/ladders/robotgame").json()
        again = recomputed(server.db)
        after = server.client.get("/api/ladders/robotgame").json()
        return (after["bots"], again) if before == after else None
    board, again = wait_for(read, 60, "a quiet moment")
    assert {row["id"]: row["elo"] for row in board if row["games"]} == again
    return board


def test_sigkill_mid_match_loses_nothing_acknowledged(tmp_path) -> None:
    db = tmp_path / "ladder.sqlite"
    server = Server(db, "--games", "robotgame", "--workers", "2", "--seed", "7")
    bots = {}
    for name in ("example", "rusher", "survivor", "coordinator"):
        answer = server.upload("robotgame", name, RG / f"{name}.py")
        assert answer.status_code == 201, answer.text
        bots[answer.json()["id"]] = name
    wait_for(lambda: len(server.matches()) >= 6, 120, "6 matches")
    wait_for(lambda: server.client.get("/api/health").json()["running"] > 0, 30, "a match")
    seen = {m["id"] for m in server.matches()}
    family = psutil.Process(server.proc.pid).children(recursive=True)
    assert len(family) >= 4, "workers and their sandbox children"
    server.kill(signal.SIGKILL)
    gone, alive = psutil.wait_procs(family, timeout=10)
    assert alive == [], f"processes outlived the kill: {alive}"

    store = LadderStore(db)
    in_flight = [queued.id for queued in store.unfinished()]
    store.close()
    assert in_flight, "the kill came mid-match: some queued match has no result"

    again = Server(db, "--games", "robotgame", "--workers", "2", "--seed", "7")
    try:
        for bot_id, name in bots.items():
            assert again.client.get(f"/api/bots/{bot_id}").json()["name"] == name
        assert seen <= {m["id"] for m in again.matches()}
        quiet_board(again)
        for match_id in in_flight:          # replayed first after the restart
            wait_for(lambda m=match_id: again.client.get(f"/api/matches/{m}").status_code
                     == 200, 60, f"match {match_id} to be replayed")
        count = len(again.matches())
        wait_for(lambda: len(again.matches()) >= count + 4, 120, "matchmaking to resume")
        board = quiet_board(again)
        assert sum(row["games"] for row in board) >= 2 * (len(seen) + 4)
    finally:
        again.stop()


def test_sigterm_stops_cleanly_and_the_next_start_resumes(tmp_path) -> None:
    db = tmp_path / "ladder.sqlite"
    server = Server(db, "--games", "robotgame", "--workers", "1")
    for name in ("example", "rusher"):
        assert server.upload("robotgame", name, RG / f"{name}.py").status_code == 201
    wait_for(lambda: len(server.matches()) >= 3, 120, "3 matches")
    started = time.monotonic()
    server.stop()
    # uvicorn shuts down gracefully, then ends by the signal it caught, as it should.
    assert server.proc.returncode in (0, -signal.SIGTERM), server.logged()
    assert time.monotonic() - started < 20
    assert "unfinished matches will be played at the next start" in server.logged()
    assert "Traceback" not in server.logged()
    before = len(LadderStore(db).history())
    again = Server(db, "--games", "robotgame", "--workers", "1")
    try:
        wait_for(lambda: len(again.matches()) >= before + 3, 120, "more matches")
    finally:
        again.stop()
