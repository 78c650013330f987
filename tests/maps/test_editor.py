"""`arena maps edit`'s server side: the grid becomes the game's map file, the verdict is
`arena maps validate`'s, only a valid map is written, and only this machine's own page
may write it."""
from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import httpx
import pytest

from engine import InputError
from engine.robotgame.mapfile import load_map as load_rg_map
from orchestrator.games import get_game
from tests.support.cli import arena
from tests.support.paths import ARENA_CMD, MAPS, ROOT
from tests.maps.editing import editing

testclient = pytest.importorskip("fastapi.testclient", reason="the server extra is in the "
                                 "test extra")
from orchestrator.web.map_editor import (  # noqa: E402
    MAX_SIDE,
    create_app,
    loopback_socket,
    open_sheet,
)

ARENA, ROBOTGAME = get_game("arena"), get_game("robotgame")
DEFAULT_RG = ROOT / "maps" / "robotgame" / "default.py"


def client(sheet, host: str = "127.0.0.1:8123"):
    return testclient.TestClient(create_app(sheet), base_url=f"http://{host}")


def validate(path: Path, game: str) -> subprocess.CompletedProcess:
    return arena("maps", "validate", "--game", game, str(path), timeout=60)


def test_robotgame_map_round_trips_with_its_spawn_order(tmp_path) -> None:
    path = tmp_path / "disc.py"
    web = client(open_sheet(ROBOTGAME, path, DEFAULT_RG))
    shown = web.get("/api/map").json()
    assert shown["game"] == "robotgame" and shown["new"] and not shown["resizable"]
    rows = shown["rows"]
    assert len(rows) == 19 and sum(row.count("s") for row in rows) == 48
    assert rows[1][7] == "s" and rows[0][0] == "#" and rows[9][9] == " "   # (x, y) = row y

    saved = web.post("/api/save", json={"rows": rows})
    assert saved.status_code == 200 and saved.json()["ok"]
    original, written = load_rg_map(DEFAULT_RG), load_rg_map(path)
    assert written.spawn == original.spawn            # the order spawn draws follow
    assert written.obstacles == original.obstacles

    # Drop one spawn square, add two: the rest keep their order, the new follow by (x, y).
    rows = [list(row) for row in rows]
    rows[1][7] = " "
    rows[9][10], rows[9][8] = "s", "s"
    saved = web.post("/api/save", json={"rows": ["".join(r) for r in rows]}).json()
    assert saved["ok"]
    assert load_rg_map(path).spawn == tuple(
        [loc for loc in original.spawn if loc != (7, 1)] + [(8, 9), (10, 9)])
    assert web.get("/api/map").json()["new"] is False


def test_verdict_is_what_maps_validate_says(tmp_path) -> None:
    path = tmp_path / "mine.py"
    web = client(open_sheet(ROBOTGAME, path, DEFAULT_RG))
    rows = web.get("/api/map").json()["rows"]
    verdict = web.post("/api/save", json={"rows": rows}).json()
    assert verdict["line"] == validate(path, "robotgame").stdout.strip()
    assert verdict["note"] == ""


def test_a_robotgame_map_too_few_spawn_squares_for_a_match_gets_a_note(tmp_path) -> None:
    web = client(open_sheet(ROBOTGAME, tmp_path / "new.py"))
    rows = web.get("/api/map").json()["rows"]
    assert web.get("/api/map").json()["new"] and all(set(row) == {" "} for row in rows)
    rows = ["s" * 9 + " " * 10] + rows[1:]
    verdict = web.post("/api/check", json={"rows": rows}).json()
    assert verdict["ok"] and "9 spawn squares cannot hold 5 robots per player" in \
        verdict["note"]


def test_an_invalid_arena_map_is_shown_where_it_errs_and_never_written(tmp_path) -> None:
    path = tmp_path / "broken.txt"
    original = "#####\n#1 x#\n# 3 #\n#####\n"
    path.write_text(original)
    web = client(open_sheet(ARENA, path))
    shown = web.get("/api/map").json()
    assert shown["rows"] == ["#####", "#1 x#", "# 3 #", "#####", "     "]   # squared
    verdict = web.post("/api/check", json={"rows": shown["rows"]}).json()
    assert not verdict["ok"] and verdict["where"] == [1, 3]
    assert verdict["line"] == validate(path, "arena").stderr.strip()   # same refusal

    rows = ["#####", "#1  #", "# 3 #", "#####", "     "]                # flag 2 missing
    refused = web.post("/api/save", json={"rows": rows})
    assert refused.status_code == 422
    assert refused.json()["line"] == f"error: {path}: flag 2 is missing (flags must be 1..3 " \
                                     f"with no gaps)"
    assert path.read_text() == original

    rows[2] = "# 2 #"
    saved = web.post("/api/save", json={"rows": rows})
    assert saved.status_code == 200 and saved.json()["ok"]
    assert validate(path, "arena").stdout.startswith(f"ok: {path}: 5x5, 2 flags")


def test_an_arena_keeps_the_size_it_was_drawn_at(tmp_path) -> None:
    path = tmp_path / "corner.txt"
    web = client(open_sheet(ARENA, path, side=12))
    rows = web.get("/api/map").json()["rows"]
    assert len(rows) == 12 and all(row == " " * 12 for row in rows)
    rows[0] = "1" + " " * 11                    # the last row and column stay empty
    assert web.post("/api/save", json={"rows": rows}).json()["ok"]
    board = ARENA.load_map(path)
    assert board.size == 12 and board.flags == [(0, 0)]
    assert open_sheet(ARENA, path).rows == rows       # and it opens again as drawn


def test_bundled_maps_open_unchanged(tmp_path) -> None:
    for map_path in sorted(MAPS.glob("*.txt")):
        path = tmp_path / map_path.name
        web = client(open_sheet(ARENA, path, map_path))
        verdict = web.post("/api/save", json={"rows": web.get("/api/map").json()["rows"]})
        assert verdict.status_code == 200, map_path
        assert ARENA.load_map(path).to_text() == ARENA.load_map(map_path).to_text()


def test_grids_the_sheet_cannot_hold_are_refused(tmp_path) -> None:
    path = tmp_path / "m.py"
    path.write_text(DEFAULT_RG.read_text())
    web = client(open_sheet(ROBOTGAME, path))
    rows = web.get("/api/map").json()["rows"]
    for bad in ([row.replace(" ", "x") for row in rows], rows[:18], ["#"]):
        answer = web.post("/api/save", json={"rows": bad})
        assert answer.status_code == 422 and answer.json()["error"] in ("invalid grid",
                                                                         "invalid request")
    arena = client(open_sheet(ARENA, tmp_path / "a.txt"))
    for bad in (["ab", "c"], ["a\n", "bc"], [" " * (MAX_SIDE + 1)] * (MAX_SIDE + 1)):
        assert arena.post("/api/check", json={"rows": bad}).status_code in (413, 422)
    assert path.read_text() == DEFAULT_RG.read_text()
    assert not (tmp_path / "a.txt").exists()


def test_only_this_machines_own_page_may_write(tmp_path) -> None:
    path = tmp_path / "m.py"
    sheet = open_sheet(ROBOTGAME, path, DEFAULT_RG)
    web = client(sheet)
    rows = web.get("/api/map").json()["rows"]
    # A cross-site form can send text/plain but not JSON; another origin is named by the
    # browser; a rebound DNS name arrives with its own Host.
    plain = web.post("/api/save", content='{"rows": []}', headers={"content-type": "text/plain"})
    foreign = web.post("/api/save", json={"rows": rows}, headers={"origin": "http://evil.test"})
    rebound = client(sheet, host="evil.test:8123").post("/api/save", json={"rows": rows})
    assert (plain.status_code, foreign.status_code, rebound.status_code) == (422, 403, 400)
    assert not path.exists()
    same = web.post("/api/save", json={"rows": rows}, headers={"origin": "http://127.0.0.1:8123"})
    assert same.status_code == 200 and path.exists()
    page = web.get("/")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert '<script src="/static/editor.js"' in page.text
    assert web.get("/static/editor.js").status_code == 200


def test_files_the_editor_cannot_use_are_one_clear_error(tmp_path) -> None:
    cases = [
        (get_game("cave"), tmp_path / "c.txt", "makes arena and robotgame maps, not cave"),
        (ARENA, tmp_path / "nowhere" / "m.txt", "does not exist"),
        (ARENA, tmp_path, "is a folder"),
    ]
    bad = tmp_path / "bad.py"
    bad.write_text("{'spawn': [(1, 1)], 'obstacle': [(1, 1)]}")
    cases.append((ROBOTGAME, bad, "spawn square (1, 1) is also an obstacle"))
    for game, path, message in cases:
        with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
            open_sheet(game, path)
    answer = arena("maps", "edit", str(tmp_path / "no" / "m.py"), "--game", "robotgame",
                   "--no-open", timeout=60)
    assert answer.returncode == 2 and answer.stderr.startswith("error: ")
    assert len(answer.stderr.strip().splitlines()) == 1 and "does not exist" in answer.stderr


def test_without_a_file_it_draws_a_new_one_beside_the_others(tmp_path) -> None:
    (tmp_path / "new_map.py").write_text("taken")
    with editing(tmp_path / "editor.log", "--game", "robotgame", cwd=tmp_path) as url:
        shown = httpx.get(f"{url}/api/map").json()
        assert shown["file"] == "new_map_2.py" and shown["new"]
        assert httpx.post(f"{url}/api/save", json={"rows": shown["rows"]}).status_code == 200
    assert load_rg_map(tmp_path / "new_map_2.py").spawn == ()
    assert (tmp_path / "new_map.py").read_text() == "taken"
    assert "stopped; new_map_2.py was saved" in (tmp_path / "editor.log").read_text()


def test_stopping_says_whether_this_session_saved_the_file(tmp_path) -> None:
    path = tmp_path / "kept.py"
    path.write_text(DEFAULT_RG.read_text())
    with editing(tmp_path / "editor.log", str(path), "--game", "robotgame") as url:
        assert httpx.get(f"{url}/api/map").json()["new"] is False
    assert f"stopped; {path} was not saved" in (tmp_path / "editor.log").read_text()
    assert path.read_text() == DEFAULT_RG.read_text()


def test_an_empty_file_opens_as_a_new_blank_map(tmp_path) -> None:
    for game, name in ((ARENA, "e.txt"), (ROBOTGAME, "e.py")):
        (tmp_path / name).write_text("")
        sheet = open_sheet(game, tmp_path / name, side=7)
        assert sheet.new and set("".join(sheet.rows)) == {" "}
        assert len(sheet.rows) == (7 if game is ARENA else 19)


def test_the_editor_listens_on_loopback_tcp_and_says_when_the_port_is_taken() -> None:
    with loopback_socket(0) as sock:
        # asyncio disables Nagle only on sockets that name TCP: without it, every answer
        # waited for a delayed ACK (about 40 ms a request, measured).
        assert sock.proto == socket.IPPROTO_TCP
        host, port = sock.getsockname()
        assert host == "127.0.0.1"
        sock.listen()
        with pytest.raises(InputError, match=f"--port {port}: cannot listen there"):
            loopback_socket(port)
