"""A game without drawings of its own gets the plain view (the static grid, a mark per
row with x and y, the tables, the events as a log) in both replay viewers, and the shared
viewer code knows no game by name: each game's drawing lives beside its entry."""
from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest
from rich.console import Console

from orchestrator.games import BUILT_IN, GAMES
from orchestrator.replay import file as replay
from orchestrator.views import replay as replay_view
from tests.browser import ARGS, CHROMIUM, SKIP_REASON
from tests.support.paths import ROOT

HOSTILE = "<img src=x onerror=alert(1)>\x1b]0;owned\x07[bold]b[/bold]</script><!--"
SHARED = ["orchestrator/views/viewer/viewer.html", "orchestrator/views/viewer/generic.js",
          "orchestrator/views/replay.py", "orchestrator/views/plain.py",
          "orchestrator/web/map_editor.py", "orchestrator/web/editor/editor.js",
          "orchestrator/web/editor/page.html", "orchestrator/web/editor/editor.css"]


def fabricated(game: str) -> dict:
    """Three turns of a game the viewers have no drawing for, with hostile strings."""
    return {
        "format": replay.FORMAT, "schema": replay.SCHEMA, "engine_version": "0", "game": game,
        "rules": {}, "seed": 1,
        "map": {"name": HOSTILE, "grid": ["#####", "#\x1b..#", "#####"],
                "columns": {"pieces": ["id", "x", "y", "player"], "notes": ["id", HOSTILE]}},
        "players": [{"name": HOSTILE, "bot": "a.py", "sha256": "0"},
                    {"name": "second", "bot": "b.py", "sha256": "1"}],
        "seats": [0, 1],
        "initial": {"pieces": [[0, 1, 1, 0], [1, 3, 1, 1]], "notes": [[0, HOSTILE]]},
        "turns": [{"turn": 1, "events": {"said": [HOSTILE, {"deep": HOSTILE}]},
                   "changed": {"pieces": [[0, 2, 1, 0]]}},
                  {"turn": 2, "events": [HOSTILE], "changed": {}, "gone": {"pieces": [1]}}],
        "marks": [], "output": {HOSTILE: HOSTILE},
        "result": {"turns": 2, "end": HOSTILE, "winner": HOSTILE, "runner_up": None,
                   "restarts": 0, "players": []},
    }


@pytest.fixture
def plain_game(monkeypatch) -> str:
    """A game of the registry with no package: no renderer, terminal drawing or editor."""
    game = dataclasses.replace(BUILT_IN[0], name="plainly", package=None)
    monkeypatch.setitem(GAMES, game.name, game)
    return game.name


def test_every_built_in_game_has_its_own_drawings() -> None:
    for game in BUILT_IN:
        assert game.viewer is not None and game.viewer.parent == game.folder, game.name
        assert game.own("terminal") is not None, game.name
        page = replay_view.page({"game": game.name})
        assert game.viewer.read_text() in page and page.count("</script>") == 3


def test_the_terminal_shows_the_grid_marks_tables_and_events_as_text(plain_game) -> None:
    data = fabricated(plain_game)
    assert replay_view.drawing(data).__name__ == "orchestrator.views.plain"
    frames = list(replay.frames(data))
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(replay_view.screen(data, frames, 1, False, replay_view.Look(size=(120, 40))))
    shown = console.file.getvalue()
    lines = shown.split("\n")
    board = lines.index("#####", 1)
    assert lines[board + 1] == "#?01#"      # the moved mark, the other; the escape is a "?"
    assert "\x1b" not in shown and "\x07" not in shown
    assert "[bold]b[/bold]" in shown                 # markup stays text
    assert "said: <img src=x onerror=alert(1)>\\x1b]0;owned\\x07" in shown
    assert 'said: {"deep":' in shown and "pieces" in shown and "notes" in shown
    console.file.truncate(0)
    console.print(replay_view.screen(data, frames, 2, False))
    assert "#?0.#" in console.file.getvalue()            # the second one is gone


def test_without_a_grid_the_terminal_shows_tables_and_events_only(plain_game) -> None:
    data = fabricated(plain_game)
    del data["map"]["grid"], data["map"]["columns"]
    frames = list(replay.frames(data))
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(replay_view.screen(data, frames, 2, False, replay_view.Look(size=(100, 30))))
    shown = console.file.getvalue()
    assert "#####" not in shown and "pieces" in shown and "\x1b" not in shown


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_page_draws_the_plain_view_and_runs_no_bot_text(plain_game, tmp_path) -> None:
    from playwright.sync_api import sync_playwright

    data = fabricated(plain_game)
    html = replay_view.write_html(data, tmp_path / "plain.html")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors, dialogs = [], []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(html.as_uri())
        assert page.evaluate("viewer.drawnRobots") == 2
        assert page.evaluate("viewer.robots(1)")[0]["c"] == 2
        page.evaluate("viewer.go(1)")
        log = page.inner_text("#log")
        # the bot's text as text, its controls shown as their escapes (replay_view.embed)
        shown = json.loads(replay_view.embed({"s": HOSTILE}))["s"]
        assert "\x1b" not in log and f"said: {shown}" in log and '"deep"' in log
        tables = page.inner_text("#tables")
        assert "pieces" in tables and HOSTILE.split("\x1b")[0] in tables
        x, y = page.evaluate("viewer.cellCenter(1, 2)")
        page.mouse.click(x, y)
        assert "x: 2" in page.inner_text("#robot") and "player: 0" in page.inner_text("#robot")
        page.evaluate("viewer.go(2)")
        assert page.evaluate("viewer.drawnRobots") == 1
        assert HOSTILE.split("\x1b")[0] in page.inner_text("#players")
        assert page.evaluate("document.images.length") == 0
        assert errors == [] and dialogs == []
        browser.close()


def test_shared_viewer_code_names_no_game() -> None:
    """The registry's games (and their bot sides) are named in no shared viewer file,
    neither as a string nor as a module."""
    for game in BUILT_IN:
        quoted = re.compile(rf"""["'`]{re.escape(game.name)}["'`]|\b{re.escape(game.bot_side)}\b|"""
                            rf"""\b(engine|games)[./]{re.escape(game.name)}\b""")
        for path in SHARED:
            for number, line in enumerate((ROOT / path).read_text().splitlines(), 1):
                assert not quoted.search(line), f"{path}:{number} names {game.name}: {line}"
