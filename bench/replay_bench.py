"""Replays: the size of a 1000-turn official match, and the viewer's speed in Chromium.

The match is 8 sample AIs x 40 robots on the official map. The viewer opens the replay
in headless Chromium (Debian's, driven by Playwright) and draws every turn in turn; the
target is 30 turns per second, and a file under 5 MB.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.arena.rules import rules_from  # noqa: E402
from orchestrator.replay import file as replay  # noqa: E402
from orchestrator.runner.bots import read_bot, sample_bots  # noqa: E402
from orchestrator.runner.match import MatchSpec, run_match  # noqa: E402
from orchestrator.views.replay import write_html  # noqa: E402

out = Console(width=110)
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    bots = [read_bot(p) for p in sample_bots("arena")] * 2
    replays: list[dict] = []
    started = time.perf_counter()
    result = run_match(MatchSpec("arena", ROOT / "maps/arena/official.txt", bots, 2,
                                 rules_from("seed")), replays=replays)
    played = time.perf_counter() - started
    data = replays[0]
    size = len(replay.encode(data))
    out.print(f"[bold]Replay of an official match[/bold]: {result['turns']} turns, 8 x 40 "
              f"robots, played and recorded in {played:.1f} s")
    out.print(f"file: {size / 1024:.0f} KiB gzip-compressed (target < 5 MiB)")
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        out.print("viewer: skipped (needs Debian's chromium and the playwright package)")
        return
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        page_file = write_html(data, Path(tmp) / "official.html")
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        started = time.perf_counter()
        page.goto(page_file.as_uri())
        page.wait_for_function("window.viewer !== undefined")
        opened = time.perf_counter() - started
        rates = [page.evaluate(f"viewer.benchmark({len(data['turns']) + 1})") for _ in range(3)]
        browser.close()
    out.print(f"viewer: opens in {opened * 1000:.0f} ms; draws {min(rates):.0f}-{max(rates):.0f} "
              f"turns/s (target >= 30)")


if __name__ == "__main__":
    main()
