"""Robot Game's turns are numbered as rgkit's `game.turn` everywhere. A
note made at `game.turn == 50` is shown on the board of turn 50 (the board the bot saw):
in the terminal replay, `run --turns`' report, the page viewer; `check` names a failure's
turn the same way (docs/robotgame.md, "Turn numbers")."""
from __future__ import annotations

import pytest

from tests.browser import CHROMIUM, SKIP_REASON, watched_page
from tests.support.cli import WIDE, arena
from tests.support.paths import ROOT

NOTER = """import rg

class Robot:
    def act(self, game):
        if game.turn in (1, 50, 99):
            rg.note(f"game.turn == {game.turn}")
        return ['guard']
"""
DIES = """import os

class Robot:
    def act(self, game):
        if game.turn == 50:
            os._exit(3)
        return ['guard']
"""
RUSHER = str(ROOT / "bots" / "robotgame" / "rusher.py")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("turns")
    (folder / "noter.py").write_text(NOTER)
    arena("run", "--game", "robotgame", str(folder / "noter.py"), RUSHER, "--seed", "1",
          "--replay", str(folder / "r.json.gz"), code=0, env=WIDE)
    return folder


def test_the_terminal_replay_shows_a_note_on_the_board_of_its_turn(recorded) -> None:
    shown = arena("replay", str(recorded / "r.json.gz"), "--turn", "50", code=0, env=WIDE).stdout
    assert "turn 50/100" in shown and "game.turn == 50" in shown, shown
    after = arena("replay", str(recorded / "r.json.gz"), "--turn", "51", code=0, env=WIDE).stdout
    assert "turn 51/100" in after and "game.turn == 50" not in after, after


def test_the_turn_report_names_the_turn_by_game_turn(recorded) -> None:
    arena("replay", "r.json.gz", "--turn", "50", "--save-position", "p50.json", cwd=recorded,
          code=0, env=WIDE)
    out = arena("run", "--from", "p50.json", "noter.py", RUSHER, "--turns", "1",
                cwd=recorded, code=0, env=WIDE).stdout
    lines = out.splitlines()
    assert "turn 50" in lines, out
    assert "game.turn == 50" in lines[lines.index("turn 50") + 1], out
    assert "the board of turn 51" in out and "turn 51" not in lines


def test_check_names_the_turn_as_game_turn(tmp_path) -> None:
    (tmp_path / "dies.py").write_text(DIES)
    done = arena("check", "--game", "robotgame", str(tmp_path / "dies.py"), code=1, env=WIDE)
    assert "(turn 50)" in done.stderr, done.stderr


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_viewer_shows_a_note_on_the_board_of_its_turn(recorded) -> None:
    page_file = recorded / "r.html"
    arena("replay", str(recorded / "r.json.gz"), "--html", str(page_file), code=0, env=WIDE)
    with watched_page() as page:
        page.goto(page_file.as_uri())
        page.evaluate("viewer.go(50)")
        assert page.inner_text("#turnLabel") == "turn 50 / 100"
        robots = page.evaluate("viewer.robots(50)")
        notes = [n for r in robots for n in page.evaluate(f"viewer.notesOf({r['id']})")]
        assert notes and set(notes) == {"game.turn == 50"}, notes
        page.evaluate("viewer.go(51)")
        robots = page.evaluate("viewer.robots(51)")
        assert not any("game.turn == 50" in n for r in robots
                       for n in page.evaluate(f"viewer.notesOf({r['id']})"))
