"""A contestant's path through the ladder in Debian's Chromium, driven by Playwright: upload
with the form, read the verdict and the token, find the bot on the leaderboard after its
matches, and watch one of them in the embedded replay viewer."""
from __future__ import annotations

import re
import time

import pytest

from tests.browser import CHROMIUM, SKIP_REASON, watched_page
from tests.support.ladder import SAMPLES, Server

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
RG = SAMPLES / "robotgame"


@pytest.fixture
def server(tmp_path):
    served = Server(tmp_path / "ladder.sqlite", "--games", "robotgame", "--workers", "1")
    for name in ("example", "survivor"):
        assert served.upload("robotgame", name, RG / f"{name}.py").status_code == 201
    yield served
    served.stop()


def test_upload_with_the_form_then_find_the_bot_and_watch_its_match(server) -> None:
    with watched_page() as page:
        page.goto(f"{server.url}/upload")
        page.select_option("select[name=game]", "robotgame")
        page.fill("input[name=name]", "my rusher")
        page.set_input_files("input[name=file]", str(RG / "rusher.py"))
        page.click("button[type=submit]")
        page.wait_for_selector("#verdict", timeout=60_000)
        assert "Accepted" in page.inner_text("#verdict")
        token = page.inner_text("#token").strip()
        assert len(token) >= 40

        page.click("text=the robotgame ladder")
        deadline = time.monotonic() + 90
        while True:
            row = page.locator("table.board tr", has_text="my rusher")
            if row.count() and int(row.locator("td").nth(4).inner_text()) >= 2:
                break
            assert time.monotonic() < deadline, "my rusher never played on the leaderboard"
            time.sleep(1)
            page.reload()

        page.click("table.board >> text=my rusher")
        page.wait_for_url(re.compile(r"/bots/\d+$"))
        assert "Status: active" in page.inner_text("p.status")
        page.locator("table.matches a[href^='/matches/']").first.click()
        page.wait_for_url(re.compile(r"/matches/\d+$"))
        assert "my rusher" in page.inner_text("table.result")
        frame = page.frame_locator("iframe.viewer")
        frame.locator("#board").wait_for(timeout=30_000)
        viewer = next(f for f in page.frames if f.url.endswith("/viewer"))
        viewer.evaluate("viewer.go(40)")
        assert viewer.evaluate("viewer.turn") == 40 and viewer.evaluate("viewer.drawnRobots") > 0
        assert "my rusher" in viewer.inner_text("#players")
