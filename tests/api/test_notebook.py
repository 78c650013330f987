"""docs/example.ipynb runs top to bottom in a real kernel (nbclient, ipykernel): a bot
defined in a cell, a match, a batch, a compare, the store, and a looping bot the sandbox
stops while the kernel goes on; then Chromium opens the inline replay and steps it."""
from __future__ import annotations

import html
import re

import nbformat
import pytest
from nbclient import NotebookClient

from tests.browser import CHROMIUM, SKIP_REASON, watched_page
from tests.support.paths import ROOT

NOTEBOOK = ROOT / "docs" / "example.ipynb"


def outputs(cell) -> tuple[str, str]:
    """A code cell's printed text and its HTML display, each joined."""
    text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    shown = "".join(o.get("data", {}).get("text/html", "") for o in cell.outputs
                    if o.output_type in ("execute_result", "display_data"))
    return text, shown


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> list:
    where = tmp_path_factory.mktemp("notebook")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(where)}}).execute()
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def cell_with(cells: list, code: str):
    return next(cell for cell in cells if code in cell.source)


def test_the_example_notebook_runs_top_to_bottom(ran) -> None:
    assert all(not any(o.output_type == "error" for o in cell.outputs) for cell in ran)
    printed, shown = outputs(cell_with(ran, "api.play([charger"))
    assert "charger" in printed and "<iframe srcdoc=" in shown
    _, table = outputs(cell_with(ran, "api.batch("))
    assert "<table>" in table and "charger" in table
    printed, _ = outputs(cell_with(ran, "api.compare("))
    assert printed.split()[0] in ("H0", "H1", "undecided")
    printed, _ = outputs(cell_with(ran, "api.open_store("))
    assert "('batch', 4)" in printed and "('compare', 4)" in printed
    # The looping bot was stopped by the sandbox; the kernel ran the cell to its end.
    printed, _ = outputs(cell_with(ran, "def spin()"))
    assert "('spin', 'erased'" in printed


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_inline_replay_opens_and_steps_in_chromium(ran, tmp_path) -> None:
    _, shown = outputs(cell_with(ran, "api.play([charger"))
    srcdoc = html.unescape(re.search(r'srcdoc="([^"]*)"', shown).group(1))
    assert "Content-Security-Policy" in srcdoc
    page_file = tmp_path / "cell.html"
    page_file.write_text(f"<!DOCTYPE html><html><body>{shown}</body></html>", encoding="utf-8")
    with watched_page() as page:
        page.goto(page_file.as_uri())
        frame = page.frame_locator("iframe")
        frame.locator("#turnLabel").wait_for()
        viewer = next(f for f in page.frames if f != page.main_frame)
        assert viewer.evaluate("viewer.turn") == 0
        frame.locator("#fwd").click()
        assert viewer.evaluate("viewer.turn") == 1
        frame.locator("#end").click()
        assert frame.locator("#turnLabel").inner_text() == "turn 40 / 40"
