"""Debian's Chromium under Playwright, for the browser tests (the Makefile installs both)."""
from __future__ import annotations

import shutil
from contextlib import contextmanager

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SKIP_REASON = "Debian's chromium is not installed (make test installs it as root)"


@contextmanager
def watched_page(width: int = 1280, height: int = 900):
    """A page in a fresh headless Chromium; at the end, no script error, console error or
    failed request may have happened on it."""
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": width, "height": height})
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
        page.on("requestfailed", lambda req: problems.append(f"failed: {req.url}"))
        yield page
        assert problems == [], problems
        browser.close()
