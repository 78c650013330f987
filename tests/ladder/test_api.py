"""Every route of the ladder's HTTP API and every error status the spec lists, against the
real app: uploads are checked in the sandbox and matches really play."""
from __future__ import annotations

import gzip
import hashlib
import json

import pytest

from orchestrator.results.ratings import elo
from orchestrator.web.ladder.service import MAX_FILE
from tests.support.ladder import SAMPLES, hanging_bot, upload, wait_for
from tests.support.paths import HOSTILE, ROOT

# One pytest-xdist worker for the module: its module-scoped fixtures (a ladder, a browser,
# a recorded match) would be made again on each worker that drew one of its tests.
pytestmark = pytest.mark.xdist_group("ladder-api")

RG = SAMPLES / "robotgame"


@pytest.fixture(scope="module")
def rg_bots(served):
    """Three Robot Game samples on the ladder: {name: (id, token)}."""
    client, _ = served
    bots = {}
    for name in ("example", "rusher", "survivor"):
        answer = upload(client, "robotgame", name, RG / f"{name}.py")
        assert answer.status_code == 201, answer.text
        bots[name] = (answer.json()["id"], answer.json()["token"])
    return bots


def finished(client, **query) -> list[dict]:
    return client.get("/api/matches", params=query).json()["matches"]


def test_an_accepted_upload_answers_201_with_its_check_and_a_token_stored_only_hashed(
        served, rg_bots) -> None:
    client, ladder = served
    answer = upload(client, "robotgame", "coordinator", RG / "coordinator.py")
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"id", "name", "game", "version", "token", "check"}
    assert (body["name"], body["game"], body["version"]) == ("coordinator", "robotgame", 1)
    assert body["check"]["ok"] and body["check"]["decisions"] > 0
    assert len(body["token"]) >= 40
    database = ladder.db_path.read_bytes() + ladder.db_path.with_name(
        ladder.db_path.name + "-wal").read_bytes()
    assert body["token"].encode() not in database
    assert hashlib.sha256(body["token"].encode()).hexdigest().encode() in database


@pytest.mark.parametrize("name", ["", "x" * 33, "bad/name", "tab\tname", "émile",
                                  "<script>alert(1)</script>", "a\"b", "   "])
def test_bad_names_are_refused_with_422(served, name) -> None:
    client, _ = served
    answer = upload(client, "robotgame", name, RG / "example.py")
    assert answer.status_code == 422
    assert answer.json()["error"] in ("bad name", "invalid request")


def test_a_taken_name_is_422_but_the_same_name_in_another_game_is_fine(served, rg_bots) -> None:
    client, _ = served
    taken = upload(client, "robotgame", "rusher", RG / "survivor.py")
    assert taken.status_code == 422 and taken.json()["error"] == "name taken"
    elsewhere = upload(client, "race", "rusher", SAMPLES / "race" / "planner.py")
    assert elsewhere.status_code == 201, elsewhere.text


def test_an_unknown_game_and_a_missing_field_are_refused(served) -> None:
    client, _ = served
    assert upload(client, "chess", "x", RG / "example.py").status_code == 404
    missing = client.post("/api/bots", data={"game": "robotgame"},
                          files={"file": ("a.py", b"x = 1")})
    assert missing.status_code == 422 and "name" in missing.json()["reason"]


def test_a_file_over_64_kib_is_413(served) -> None:
    client, _ = served
    source = b"# padding\n" * (MAX_FILE // 10) + b"def act(self, game):\n    return ['guard']\n"
    assert len(source) > MAX_FILE
    answer = upload(client, "robotgame", "big", source=source)
    assert answer.status_code == 413 and answer.json()["error"] == "file too large"
    huge = upload(client, "robotgame", "huge", source=b"x" * (1 << 20))
    assert huge.status_code == 413        # refused from its Content-Length, before parsing


# Each kind of check failure, from the hostile bots `arena check` is tested on.
REJECTED = [("arena", HOSTILE / "syntax_error.py", "load_error"),
            ("arena", HOSTILE / "sleeper.py", "hang"),
            ("arena", HOSTILE / "spinner_loop.py", "cpu"),
            ("arena", HOSTILE / "memory_bomb.py", "memory"),
            ("arena", HOSTILE / "segfault.py", "crash"),
            ("arena", HOSTILE / "frame_forger.py", "protocol"),
            ("arena", HOSTILE / "shell_out.py", "sandbox"),
            ("arena", HOSTILE / "raiser.py", "overheats"),
            ("arena", HOSTILE / "printer.py", "output"),
            ("race", ROOT / "tests" / "race" / "bots" / "liar.py", "invalid")]


@pytest.mark.parametrize(("game", "bot", "kind"), REJECTED, ids=[k for _, _, k in REJECTED])
def test_an_upload_that_fails_its_check_is_422_with_the_checks_reason(
        served, game, bot, kind) -> None:
    client, ladder = served
    answer = upload(client, game, f"bad {kind}", bot)
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["error"] == "check failed"
    assert body["reason"].startswith(kind), body["reason"]
    assert all(b.name != f"bad {kind}" for b in ladder.bots.values())


def test_a_bot_for_another_game_is_told_so_in_the_ladder_s_terms(served) -> None:
    """The check's hint names the game the file looks written for as the upload form
    does (its `game`), not as a command-line flag, and with the right article."""
    client, _ = served
    answer = upload(client, "robotgame", "lost hunter", SAMPLES / "arena" / "hunter.py")
    assert answer.status_code == 422, answer.text
    reason = answer.json()["reason"]
    assert reason.endswith("(it looks like an arena bot: upload it for the game arena)"), \
        reason
    assert "--game" not in reason and "a arena" not in reason


def test_a_new_version_needs_the_token_and_a_passing_check(served, rg_bots) -> None:
    client, _ = served
    bot_id, token = rg_bots["survivor"]
    files = {"file": ("v2.py", (RG / "example.py").read_bytes())}
    assert client.post(f"/api/bots/{bot_id}/versions", files=files).status_code == 401
    wrong = client.post(f"/api/bots/{bot_id}/versions", files=files,
                        headers={"Authorization": f"Bearer {rg_bots['rusher'][1]}"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "unauthorized"
    bad = client.post(f"/api/bots/{bot_id}/versions",
                      files={"file": ("v2.py", b"def act(:\n")},
                      headers={"Authorization": f"Bearer {token}"})
    assert bad.status_code == 422 and bad.json()["reason"].startswith("load_error")
    good = client.post(f"/api/bots/{bot_id}/versions", files=files,
                       headers={"Authorization": f"Bearer {token}"})
    assert good.status_code == 201, good.text
    assert good.json()["version"] == 2 and good.json()["check"]["ok"]
    info = client.get(f"/api/bots/{bot_id}").json()
    assert info["version"] == 2 and [v["version"] for v in info["versions"]] == [1, 2]
    assert client.post("/api/bots/999/versions", files=files,
                       headers={"Authorization": f"Bearer {token}"}).status_code == 404


def test_matches_play_and_the_leaderboard_matches_a_recomputation(served, rg_bots) -> None:
    client, ladder = served
    wait_for(lambda: len(finished(client, game="robotgame", limit=500)) >= 12, 120,
             "12 Robot Game matches")
    board = client.get("/api/ladders/robotgame").json()
    assert board["game"] == "robotgame" and board["matches"] >= 12
    rows = board["bots"]
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert [r["elo"] for r in rows] == sorted((r["elo"] for r in rows), reverse=True)
    keys = {"rank", "id", "name", "version", "elo", "mu", "sigma", "games", "wins",
            "win_rate", "win_ci", "status"}
    assert all(set(r) == keys for r in rows)
    assert sum(r["games"] for r in rows) >= 24
    # The same ratings, recomputed from the stored matches in finishing order.
    def snapshot():
        before = client.get("/api/ladders/robotgame").json()
        with ladder.lock:
            history = ladder.store.history()
        after = client.get("/api/ladders/robotgame").json()
        return (after, history) if before == after else None

    board, history = wait_for(snapshot, 60, "a quiet moment")
    games = [[(bot, rank) for bot, _, rank, _ in seats]
             for _, _, game, rated, seats in history if rated and game == "robotgame"]
    assert sum(r["games"] for r in board["bots"]) == sum(len(g) for g in games)
    again = elo(games)
    assert {r["id"]: r["elo"] for r in board["bots"]} == \
        {r["id"]: round(again.get(r["id"], 1200.0), 1) for r in board["bots"]}
    assert client.get("/api/ladders/chess").status_code == 404


def test_a_bot_and_its_matches(served, rg_bots) -> None:
    client, _ = served
    bot_id, _ = rg_bots["example"]
    wait_for(lambda: finished(client, bot=bot_id), 120, "a match of example")
    info = client.get(f"/api/bots/{bot_id}").json()
    assert {"id", "name", "game", "version", "status", "elo", "mu", "sigma", "games",
            "versions", "recent_matches"} <= set(info)
    assert info["status"] == "active" and info["recent_matches"]
    assert all(any(p["bot"] == bot_id for p in m["players"]) for m in info["recent_matches"])
    assert client.get("/api/bots/4242").status_code == 404
    assert client.get("/api/bots/notanumber").status_code == 422


def test_the_match_list_filters_and_limits(served, rg_bots) -> None:
    client, _ = served
    wait_for(lambda: len(finished(client, game="robotgame")) >= 3, 120, "3 matches")
    listed = finished(client, game="robotgame", limit=3)
    assert len(listed) == 3
    assert [m["id"] for m in listed] != sorted(m["id"] for m in listed) or len(
        {m["finished"] for m in listed}) == 1 or listed[0]["finished"] >= listed[-1]["finished"]
    assert all(set(m) >= {"id", "game", "seed", "map", "finished", "players"} for m in listed)
    assert all(set(p) == {"bot", "name", "rank", "status", "penalty", "own_s"}
               and (p["own_s"] is None or p["own_s"] >= 0) for m in listed
               for p in m["players"])
    for limit in ("0", "501", "many"):
        answer = client.get("/api/matches", params={"limit": limit})
        assert answer.status_code == 422 and answer.json()["error"] == "invalid request"
    assert client.get("/api/matches", params={"game": "chess"}).status_code == 404
    assert finished(client, bot=4242) == []


def test_one_match_is_the_run_json_plus_its_id_and_its_replay_is_gzip_json(
        served, rg_bots) -> None:
    client, _ = served
    match_id = wait_for(lambda: finished(client, game="robotgame"), 120)[0]["id"]
    result = client.get(f"/api/matches/{match_id}").json()
    assert result["id"] == match_id
    assert {"game", "engine_version", "seed", "map", "rules", "turns", "end", "winner",
            "players", "sandbox_mode"} <= set(result)
    assert not {"sandbox", "sandbox_missing", "replay"} & set(result)    # the server's own
    assert all(len(p["sha256"]) == 64 for p in result["players"])
    answer = client.get(f"/api/matches/{match_id}/replay")
    assert answer.status_code == 200
    data = json.loads(gzip.decompress(answer.content))
    assert data["game"] == "robotgame" and len(data["turns"]) == result["turns"]
    assert client.get("/api/matches/999999").status_code == 404
    assert client.get("/api/matches/999999/replay").status_code == 404


def test_a_challenge_plays_unrated_ahead_of_the_ladder(served, rg_bots) -> None:
    client, _ = served
    (a, token), (b, _) = rg_bots["example"], rg_bots["rusher"]
    body = {"bots": [a, b]}
    assert client.post("/api/challenges", json=body).status_code == 401
    assert client.post("/api/challenges", json=body,
                       headers={"Authorization": "Bearer nope"}).status_code == 401
    auth = {"Authorization": f"Bearer {token}"}
    for bad in ({"bots": [a]}, {"bots": [a, a]}, {"bots": "x"}, [1, 2]):
        assert client.post("/api/challenges", json=bad, headers=auth).status_code == 422
    assert client.post("/api/challenges", content=b"{", headers=auth).status_code == 422
    answer = client.post("/api/challenges", json=body, headers=auth)
    assert answer.status_code == 202
    match_id = answer.json()["match"]
    result = wait_for(lambda: client.get(f"/api/matches/{match_id}").status_code == 200
                      and client.get(f"/api/matches/{match_id}").json(), 120, "the challenge")
    assert sorted(p["name"] for p in result["players"]) == ["example", "rusher"]
    listed = next(m for m in finished(client, limit=500) if m["id"] == match_id)
    assert listed["rated"] is False


def test_retiring_needs_the_token_and_takes_the_bot_out_of_matchmaking(served) -> None:
    client, ladder = served
    made = upload(client, "robotgame", "retiree", RG / "example.py").json()
    assert client.delete(f"/api/bots/{made['id']}").status_code == 401
    answer = client.delete(f"/api/bots/{made['id']}",
                           headers={"Authorization": f"Bearer {made['token']}"})
    assert answer.status_code == 204 and answer.content == b""
    assert client.get(f"/api/bots/{made['id']}").json()["status"] == "retired"
    again = client.post(f"/api/bots/{made['id']}/versions",
                        files={"file": ("b.py", (RG / "example.py").read_bytes())},
                        headers={"Authorization": f"Bearer {made['token']}"})
    assert again.status_code == 422
    assert client.delete("/api/bots/4242", headers={"Authorization": "Bearer x"}
                         ).status_code == 404
    with ladder.lock:
        later = ladder.store.db.execute("SELECT COALESCE(MAX(id), 0) FROM ladder_queue"
                                        ).fetchone()[0]
    wait_for(lambda: len(finished(client, game="robotgame", limit=500)) > 0 and any(
        m["id"] > later + 4 for m in finished(client, game="robotgame")), 120)
    assert not any(p["bot"] == made["id"] for m in finished(client, limit=500)
                   if m["id"] > later for p in m["players"])


def test_health(served) -> None:
    client, _ = served
    answer = client.get("/api/health")
    assert answer.status_code == 200
    assert set(answer.json()) == {"ok", "status", "queue", "running"}
    assert answer.json()["ok"] is True and answer.json()["status"] == "ok"


def test_unknown_routes_and_methods_answer_json_errors(served) -> None:
    client, _ = served
    answer = client.get("/api/nothing")
    assert answer.status_code == 404 and set(answer.json()) == {"error", "reason"}
    assert client.put("/api/health").status_code == 405


# The check plays 4 turns; ladder matches play 100.
HANGS_LATER = hanging_bot("game.turn >= 5")


def test_a_bot_failing_three_matches_in_a_row_is_suspended_until_a_new_version(
        served, rg_bots) -> None:
    client, _ = served
    made = upload(client, "robotgame", "hangs later", source=HANGS_LATER, filename="h.py")
    assert made.status_code == 201, made.text                 # it passed its check
    bot_id, token = made.json()["id"], made.json()["token"]
    info = wait_for(lambda: (i := client.get(f"/api/bots/{bot_id}").json())["status"]
                    == "suspended" and i, 180, "the suspension")
    assert info["reason"].startswith("forfeit in 3 matches in a row")
    assert "hang" in info["reason"] or "cpu" in info["reason"]
    failed = [p for m in finished(client, bot=bot_id) for p in m["players"]
              if p["bot"] == bot_id]
    assert len(failed) >= 3 and all(p["status"] == "forfeit" for p in failed)
    board = client.get("/api/ladders/robotgame").json()["bots"]
    assert next(r for r in board if r["id"] == bot_id)["status"] == "suspended"
    fixed = client.post(f"/api/bots/{bot_id}/versions",
                        files={"file": ("h.py", (RG / "example.py").read_bytes())},
                        headers={"Authorization": f"Bearer {token}"})
    assert fixed.status_code == 201
    info = client.get(f"/api/bots/{bot_id}").json()
    assert info["status"] == "active" and info["reason"] is None
