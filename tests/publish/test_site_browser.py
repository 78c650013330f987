"""The results site in Chromium: from file://, the index leads to an AI's page,
that to one of its matches, whose replay plays to its last turn in the shared viewer;
no console error, no script error, and no request but for the site's own files."""
from __future__ import annotations

import time

import pytest

from tests.browser import CHROMIUM, SKIP_REASON, watched_page

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)


def _until(page, expression: str, seconds: float = 60) -> None:
    """Polls from outside the page: the site's CSP refuses the eval that Playwright's
    wait_for_function would run in it."""
    end = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < end, f"never true: {expression}"
        time.sleep(0.05)


def test_index_to_an_ai_to_a_match_whose_replay_plays_to_the_end(site):
    with watched_page() as page:
        foreign: list[str] = []

        def route(found) -> None:
            if found.request.url.startswith("file://"):
                found.continue_()
            else:
                foreign.append(found.request.url)
                found.abort()
        page.route("**/*", route)
        page.goto((site / "index.html").as_uri())
        assert page.title() == "arena results"
        page.click("text=Hunter")
        assert page.title() == "Hunter"
        assert "faces the nearest robot" in page.inner_text("p.about")
        assert "def move" in page.inner_text("pre.source")
        page.click("a[href^='../matches/']")
        _until(page, "window.viewer !== undefined")
        turns = page.evaluate("window.viewer.turns")
        assert turns > 0
        names = page.evaluate("window.viewer.names()")
        assert "Hunter" in names
        page.select_option("#speed", "60")
        page.click("#play")
        _until(page, f"window.viewer.turn === {turns}")
        assert page.inner_text("#turnLabel") == f"turn {turns} / {turns}"
        # the hostile AI's name is text on its page, never markup that ran
        page.goto((site / "index.html").as_uri())
        assert "<script>alert(1)</script>" in page.inner_text("table")
        assert foreign == []
