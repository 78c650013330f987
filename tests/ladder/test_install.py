"""`pip install robot-arena[server]` from a built wheel, into a fresh venv outside the
checkout: the installed `arena` finds its bundled maps and sample bots (package data) and
can play, check and serve without the source tree."""
from __future__ import annotations

import json
import shutil
import subprocess

import httpx
import pytest

from tests.maps.editing import editing
from tests.support.cli import arena
from tests.support.ladder import Server
from tests.support.paths import ROOT

# Every test here runs the session's one installed arena (tests/support.py): they share
# its xdist group so that one worker builds it and the other goes on with the suite.
pytestmark = pytest.mark.xdist_group("installed")


def test_the_installed_arena_plays_lists_maps_and_checks_with_bundled_files(
        installed, tmp_path) -> None:
    python = installed.python
    found = subprocess.run([python, "-c", "import orchestrator; print(orchestrator.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path)
    assert "site-packages" in found.stdout and str(ROOT) not in found.stdout
    played = arena("run", "--max-turns", "15", "--seed", "3", "--json", cwd=tmp_path,
                   command=installed.arena)
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert len(result["players"]) >= 2 and result["turns"] == 15
    assert all("site-packages" in p["bot"] for p in result["players"])
    maps = arena("maps", cwd=tmp_path, command=installed.arena)
    assert maps.returncode == 0 and "quad" in maps.stdout and "official" in maps.stdout
    rg_maps = arena("maps", "--game", "robotgame", cwd=tmp_path, command=installed.arena)
    assert "default" in rg_maps.stdout
    bots = subprocess.run([python, "-c", "from orchestrator.assets import bundled; "
                                         "print(bundled('bots'))"],
                          capture_output=True, text=True, cwd=tmp_path).stdout.strip()
    checked = arena("check", f"{bots}/robotgame/rusher.py", "--game", "robotgame",
                    "--json", cwd=tmp_path, command=installed.arena)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["ok"] is True


def test_the_installed_arena_serves(installed, tmp_path) -> None:
    server = Server(tmp_path / "ladder.sqlite", "--games", "robotgame", "--workers", "1",
                    arena=installed.arena, cwd=tmp_path)
    try:
        assert server.client.get("/api/health").json()["ok"] is True
        page = server.client.get("/upload")
        assert page.status_code == 200 and "Upload a bot" in page.text
        assert server.client.get("/static/ladder.css").status_code == 200
        answer = server.upload("robotgame", "rusher", ROOT / "bots" / "robotgame" / "rusher.py")
        assert answer.status_code == 201, answer.text
    finally:
        server.stop()


@pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby is not installed here")
def test_the_installed_arena_accepts_a_ruby_upload(installed, tmp_path) -> None:
    """The ladder checks an upload by playing it: a Ruby bot needs the driver the first
    wheel did not carry."""
    server = Server(tmp_path / "ladder.sqlite", "--games", "robotgame", "--workers", "1",
                    arena=installed.arena, cwd=tmp_path)
    try:
        answer = server.upload("robotgame", "survivor-rb",
                               ROOT / "bots" / "robotgame" / "survivor.rb")
        assert answer.status_code == 201, answer.text
    finally:
        server.stop()


def test_the_installed_arena_edits_maps(installed, tmp_path) -> None:
    path = tmp_path / "mine.py"
    with editing(tmp_path / "editor.log", str(path), "--game", "robotgame", "--from",
                 "default", arena=installed.arena, cwd=tmp_path) as url:
        for asset in ("/", "/static/editor.js", "/static/editor.css", "/favicon.svg"):
            assert httpx.get(url + asset).status_code == 200, asset
        rows = httpx.get(f"{url}/api/map").json()["rows"]
        saved = httpx.post(f"{url}/api/save", json={"rows": rows})
        assert saved.status_code == 200 and "48 spawn squares" in saved.json()["line"]
    assert "stopped; " in (tmp_path / "editor.log").read_text()
    assert arena("maps", "validate", "--game", "robotgame", str(path),
                 cwd=tmp_path, command=installed.arena).returncode == 0
