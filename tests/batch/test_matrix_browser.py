"""The matrix page (`arena results DB --matrix --html`) in Chromium: hovering a cell shows
its games and 95 % interval, clicking it lists its games with the command that opens
each, and a bot's name never runs as HTML."""
from __future__ import annotations

import pytest

from orchestrator import api
from tests.batch.matchup_store import FORMULA, MARKUP, SCRIPT, hostile_tournament
from tests.browser import CHROMIUM, SKIP_REASON, watched_page

pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)]


def _cell(page, entrant: str, opponent: str, split: str | None = None):
    cells = page.locator("td.cell")
    for i in range(cells.count()):
        cell = cells.nth(i)
        if (cell.get_attribute("data-entrant"), cell.get_attribute("data-opponent"),
                cell.get_attribute("data-split")) == (entrant, opponent, split):
            return cell
    raise AssertionError(f"no cell {entrant!r} vs {opponent!r}")


@pytest.mark.parametrize("by", [None, "seat"])
def test_hover_shows_the_interval_and_a_click_lists_the_games(tmp_path, by) -> None:
    store = api.open_store(hostile_tournament(tmp_path / "m.sqlite"))
    report = store.matrix(by=by)
    page_file = tmp_path / "m.html"
    report.save(page_file)
    chosen = [c for c in report.cells if (c["entrant"], c["opponent"]) == (FORMULA, MARKUP)]
    assert len(chosen) == (1 if by is None else 2)
    with watched_page() as page:
        page.goto(page_file.as_uri())
        for cell in chosen:
            split = None if by is None else str(cell[by])
            td = _cell(page, cell["entrant"], cell["opponent"], split)
            assert td.inner_text() == f"{100 * cell['win_rate']:.1f}"
            tip = page.locator("#tip")
            page.mouse.move(0, 0)                   # off every cell: no tip
            assert not tip.is_visible()
            td.hover()
            assert tip.is_visible()
            low, high = (f"{100 * x:.1f}" for x in cell["win_ci"])
            assert f"95 % CI {low}-{high} %" in tip.inner_text()
            assert (f"{cell['games']} games: {cell['wins']} won, {cell['draws']} drawn, "
                    f"{cell['losses']} lost") in tip.inner_text()
            td.click()
            rows = page.locator("#gamesBody tr.game")
            assert rows.count() == cell["games"]
            listed = [rows.nth(i).locator("code").inner_text() for i in range(rows.count())]
            assert listed == [report.games[m]["open"] for m in cell["matches"]]
            results = [rows.nth(i).locator("td").nth(3).inner_text() for i in range(rows.count())]
            assert sum(r.startswith("won") for r in results) == cell["wins"]
            assert sum(r.startswith("lost") for r in results) == cell["losses"]
            # The names are text: the page made no image and ran no handler.
            assert page.locator("img").count() == 0
            assert page.evaluate("window.pwned") is None
            assert page.get_by_text(SCRIPT).count() >= 1
            assert page.get_by_text(MARKUP).count() >= 1
