"""A visitor's walk, in headless Chromium: the published site of 12
AIs on an official-size map (94x94, generated for 12), every link of every page followed
from the index, the matrix's way back to the standings and to a match's page, each match's
replay drawn; then the ladder's pages, from the leaderboard to a bot and its match. No
console error, script error or failed request on any page (tests/browser.py), and a
screenshot of each kind of page, whose board is checked to show the AIs' colours."""
from __future__ import annotations

import itertools
import subprocess
import time
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import pytest

from orchestrator import api
from tests.browser import CHROMIUM, SKIP_REASON, watched_page
from tests.support.ladder import Server
from tests.support.marks import LONG
from tests.support.paths import ARENA_CMD, ROOT
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON), LONG,
              pytest.mark.xdist_group("walk")]
ARENA = ROOT / "bots" / "arena"
SHOTS = "walk-screenshots"


def _until(page, expression: str, seconds: float = 60) -> None:
    """Polls from outside the page: the site's CSP refuses the eval of wait_for_function."""
    end = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < end, f"never true: {expression}"
        time.sleep(0.05)


def _twelve(folder: Path) -> list[Path]:
    """Twelve AIs, as twelve contestants sent them: the five arena samples, each under a
    name of its own (a later copy of one sample declares the name its first did: the
    site labels both by file, docs/spec/arena.md "Names")."""
    samples = sorted(ARENA.glob("*.py"))
    bots = []
    for n, sample in enumerate(itertools.islice(itertools.cycle(samples), 12)):
        text = sample.read_text() + f"# entrant {n}\n"      # each its own content
        path = folder / f"ai{n:02}_{sample.name}"
        path.write_text(text)
        bots.append(path)
    return bots


def _colours_on(page, selector: str = "#board") -> set[str]:
    """The players' colours found on the board's canvas."""
    found = page.evaluate(f"""(() => {{
        const c = document.querySelector('{selector}');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const want = new Set(window.viewer.colors.map((h) => h.toLowerCase()));
        const seen = new Set();
        for (let i = 0; i < d.length; i += 4) {{
          const h = '#' + [d[i], d[i + 1], d[i + 2]].map(
            (v) => v.toString(16).padStart(2, '0')).join('');
          if (want.has(h)) seen.add(h);
        }}
        return [...seen]; }})()""")
    return set(found)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("walk")
    subprocess.run([*ARENA_CMD, "maps", "generate", "--ais", "12", "--seed", "3", "--out",
                    str(folder / "official12.txt")], check=True, capture_output=True,
                   timeout=120)
    db = folder / "official.sqlite"
    api.tournament(_twelve(folder), format="ffa", games=2, map=str(folder / "official12.txt"),
                   max_turns=15, first_seed=42, workers=1, db=db, replays=True,
                   progress=False)
    out = folder / "site"
    found = api.publish(db, out, progress=False)
    assert found["ais"] == 12 and found["replays"] == found["matches"] == 2, found
    return out


def test_the_published_site_walked_link_by_link(site) -> None:
    shots = site.parent / SHOTS
    shots.mkdir(exist_ok=True)
    seen: set[str] = set()
    todo = [(site / "index.html").as_uri()]
    kinds: dict[str, int] = {}
    with watched_page(1400, 1000) as page:
        while todo:
            url = todo.pop()
            if url in seen:
                continue
            seen.add(url)
            assert url.startswith(site.as_uri()), f"a link leaves the site: {url}"
            local = Path(url.removeprefix("file://"))
            assert local.is_file(), f"a dead link: {url}"
            page.goto(url)
            kind = local.parent.name if local.parent != site else local.stem
            if kind == "matches":
                _until(page, "window.viewer !== undefined")
                assert page.evaluate("viewer.names().length") == 12
                page.evaluate("viewer.go(viewer.turns)")
                assert len(_colours_on(page)) >= 10, "the 12 AIs' colours are not on the board"
                page.evaluate("viewer.zoomTo(4)")
                assert page.evaluate("viewer.cell") >= 28
            if kinds.get(kind, 0) < 1:
                page.screenshot(path=str(shots / f"{kind}.png"), full_page=kind != "matches")
            kinds[kind] = kinds.get(kind, 0) + 1
            for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
                target = urldefrag(urljoin(url, href)).url
                if target not in seen:
                    todo.append(target)
        assert kinds == {"index": 1, "matrix": 1, "ais": 12, "matches": 2}, kinds
        # The matrix: a cell's games link to their pages, and the nav leads back. A click
        # returns once the next page is committed, its stylesheets still loading: each
        # page is waited on to its load (leaving it sooner aborts them, `failed: site.css`).
        page.goto((site / "matrix.html").as_uri())
        page.locator("td.cell").first.click()
        page.click("#gamesBody a")
        page.wait_for_url("**/matches/*.html")
        page.goto((site / "matrix.html").as_uri())
        page.click("#homeLink")
        page.wait_for_url("**/index.html")
    for png in shots.glob("*.png"):
        assert png.stat().st_size > 10_000, png


@pytest.fixture
def ladder(tmp_path):
    served = Server(tmp_path / "ladder.sqlite", "--games", "arena", "--workers", "1")
    for path in sorted(ARENA.glob("*.py")):
        assert served.upload("arena", path.stem, path).status_code == 201
    yield served
    served.stop()


def test_the_ladders_pages_walked_link_by_link(ladder, tmp_path) -> None:
    wait_until(lambda: ladder.matches(game="arena"), 240, "an arena match", every=1)
    seen: set[str] = set()
    todo = [f"{ladder.url}/"]
    shots = tmp_path / SHOTS
    shots.mkdir()
    with watched_page(1400, 1000) as page:
        missing: list[str] = []
        page.on("response", lambda r: r.status == 404 and missing.append(r.url))
        while todo and len(seen) < 40:
            url = todo.pop(0)
            if url in seen:
                continue
            seen.add(url)
            answer = page.goto(url)
            assert answer is not None and answer.ok, url
            assert missing == [], (url, missing)
            path = url.removeprefix(ladder.url).strip("/").split("/")[0] or "home"
            if not (shots / f"{path}.png").exists():
                page.screenshot(path=str(shots / f"{path}.png"), full_page=True)
            if path == "matches" and page.locator("iframe.viewer").count():
                page.frame_locator("iframe.viewer").locator("#board").wait_for(timeout=30_000)
                viewer = next(f for f in page.frames if f.url.endswith("/viewer"))
                viewer.evaluate("viewer.go(viewer.turns)")
                assert viewer.evaluate("viewer.names().length") == 4
            for href in page.eval_on_selector_all("a[href]",
                                                  "els => els.map(e => String(e.href))"):
                target = urldefrag(href).url
                if target.startswith(ladder.url) and "/api/" not in target \
                        and target not in seen:
                    todo.append(target)
        assert missing == [], missing
    assert {"home", "bots", "matches"} <= {p.stem for p in shots.glob("*.png")}, \
        sorted(seen)
