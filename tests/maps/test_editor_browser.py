"""The map editor as a person uses it, in Debian's Chromium through Playwright: `arena maps
edit` serves the page, the person paints with the mouse and the keys, reads the live
verdict, saves, and `arena run --map` plays on the saved file."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from engine.robotgame.mapfile import load_map as load_rg_map
from orchestrator.replay import file as replay
from tests.support.cli import arena
from tests.support.paths import ARENA_CMD, ROOT
from tests.maps.editing import editing
from tests.browser import CHROMIUM, SKIP_REASON, watched_page

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)


def cell(page, r: int, c: int):
    return page.locator(f'#board [data-r="{r}"][data-c="{c}"]')


def drag(page, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Press on one square, move across to another, release: one stroke."""
    first, last = cell(page, *start).bounding_box(), cell(page, *end).bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2, steps=25)
    page.mouse.up()


def verdict(page, kind: str) -> str:
    page.wait_for_selector(f"#verdict.{kind}", timeout=20_000)
    return page.inner_text("#verdict")


def play(*args: str) -> dict:
    done = arena("run", *args, "--seed", "5", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_paint_a_robot_game_map_save_it_and_play_on_it(tmp_path) -> None:
    path = tmp_path / "ring.py"
    with editing(tmp_path / "editor.log", str(path), "--game", "robotgame") as url, \
            watched_page(1400, 1000) as page:
        page.goto(url)
        assert verdict(page, "ok").startswith(f"ok: {path}: 19x19, 361 walkable, 0 spawn")
        assert "0 spawn squares cannot hold" in page.inner_text("#note")   # a blank map
        assert "new file" in page.inner_text("#status")

        page.keyboard.press("g")                      # rgkit's keys: g spawn, a obstacle
        page.select_option("#symmetry", "rotate")
        drag(page, (3, 3), (3, 12))                   # y = 3, x = 3..12, and its image
        page.keyboard.press("a")
        cell(page, 9, 9).click()
        cell(page, 0, 0).click()
        cell(page, 4, 4).click()
        sync_api.expect(cell(page, 14, 14)).to_have_class("cell obstacle")
        page.keyboard.press("Control+z")              # undo: the last square and its image
        sync_api.expect(cell(page, 14, 14)).to_have_class("cell floor")
        sync_api.expect(page.locator("#verdict.ok")).to_contain_text(
            "20 spawn squares, 3 obstacles")
        sync_api.expect(page.locator("#save")).to_be_enabled()
        assert page.is_hidden("#note")
        page.keyboard.press("Control+s")
        sync_api.expect(page.locator("#status")).to_have_text(re.compile("^saved"))

    spawn = {(x, 3) for x in range(3, 13)} | {(18 - x, 15) for x in range(3, 13)}
    board = load_rg_map(path)
    assert set(board.spawn) == spawn and board.obstacles == {(9, 9), (0, 0), (18, 18)}
    result = play("--game", "robotgame", "--map", str(path), "--replay",
                  str(tmp_path / "ring.json.gz"), "bots/robotgame/example.py",
                  "bots/robotgame/survivor.py")
    assert result["map"] == "ring" and result["turns"] == 100
    played = replay.load(tmp_path / "ring.json.gz")
    assert {tuple(loc) for loc in played["map"]["spawn"]} == spawn
    first = played["turns"][0]["changed"]["robots"]
    assert first and {(row[2], row[3]) for row in first} <= spawn


def test_an_invalid_arena_map_cannot_be_saved_until_it_is_fixed(tmp_path) -> None:
    path = tmp_path / "yard.txt"
    with editing(tmp_path / "editor.log", str(path), "--size", "12") as url, \
            watched_page(1400, 1000) as page:
        page.goto(url)
        assert verdict(page, "ok").startswith(f"ok: {path}: 12x12, 0 flags, 144 free tiles")
        page.click('#tools button[data-symbol="#"]')
        drag(page, (5, 2), (5, 9))                   # a wall across the middle
        page.click('#tools button[data-symbol=">"]')
        cell(page, 8, 0).click()
        page.click('#tools button[data-symbol="2"]')
        cell(page, 10, 10).click()
        assert verdict(page, "error") == f"error: {path}: flag 1 is missing (flags must be " \
                                         f"1..2 with no gaps)"
        assert page.is_disabled("#save")
        page.keyboard.press("Control+s")             # refused: nothing is written
        refused = httpx.post(f"{url}/api/save", json={"rows": page.evaluate(
            "editor.rows.map((row) => row.join(''))")})
        assert refused.status_code == 422 and "flag 1 is missing" in refused.json()["line"]
        assert not path.exists()

        page.click('#tools button[data-symbol="1"]')
        cell(page, 1, 1).click()
        assert verdict(page, "ok").startswith(f"ok: {path}: 12x12, 2 flags, 133 free tiles")
        page.click("#save")
        sync_api.expect(page.locator("#status")).to_have_text(re.compile("^saved"))
        assert page.text_content("#text") == path.read_text()   # the file it shows

    rows = path.read_text().split("\n")
    assert rows[1][1] == "1" and rows[10][10] == "2" and rows[8][0] == ">"
    assert rows[5] == "  ########  "
    result = play("--map", str(path), "--robots", "5", "--max-turns", "30", "--replay",
                  str(tmp_path / "yard.json.gz"), "bots/arena/hunter.py", "bots/arena/beeline.py")
    assert result["map"] == "yard"
    played = replay.load(tmp_path / "yard.json.gz")
    assert [row.rstrip() for row in played["map"]["rows"]] == [r.rstrip() for r in rows[:12]]


def test_a_map_file_with_a_bad_symbol_opens_with_the_square_marked(tmp_path) -> None:
    path = tmp_path / "typo.txt"
    path.write_text("#####\n#1 x#\n#   #\n#####\n")
    with editing(tmp_path / "editor.log", str(path)) as url, watched_page(1400, 1000) as page:
        page.goto(url)
        assert verdict(page, "error") == f"error: {path}:2:4: unknown map symbol 'x' " \
                                         f"(allowed: space, 1-9, #, ^ > v <, {{ }}, &)"
        sync_api.expect(cell(page, 1, 3)).to_have_class("cell unknown flagged")
        assert page.is_disabled("#save")
        page.keyboard.press("s")                     # floor over the typo
        cell(page, 1, 3).click()
        assert verdict(page, "ok").startswith(f"ok: {path}: 5x5, 1 flags")
        sync_api.expect(page.locator(".flagged")).to_have_count(0)
        sync_api.expect(page.locator("#save")).to_be_enabled()
