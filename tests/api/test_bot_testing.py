"""In a notebook or a unit test, `import rg` at the top of a bot's file failed
(ModuleNotFoundError): a contestant could not unit-test a Robot class with the game's own
module, as rgkit's users do. docs/python-api.md ("A bot in a unit test") shows the one
way; its example runs here as written, in a fresh interpreter, on a saved position."""
from __future__ import annotations

import re
import subprocess
import sys

from tests.support.cli import arena
from tests.support.paths import ROOT

GUIDE = ROOT / "docs" / "python-api.md"
BOT = """import rg


class Robot:
    def act(self, game):
        return ['move', rg.toward(self.location, rg.CENTER_POINT)]
"""


def _example() -> str:
    section = GUIDE.read_text().split("## A bot in a unit test", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def _python(code: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_the_guides_example_runs_on_a_saved_position(tmp_path) -> None:
    for args in (["run", "--game", "robotgame", "--seed", "2", "--max-turns", "8",
                  "--replay", "r.json.gz"],
                 ["replay", "r.json.gz", "--turn", "5", "--save-position", "pos.json"]):
        done = arena(*args, cwd=tmp_path, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
    done = _python(_example(), tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"\{\(\d+, \d+\): \['(move|attack|guard)'", done.stdout), done.stdout


def test_a_bots_own_import_rg_works_in_a_test_and_leaves_no_path_or_hook(tmp_path) -> None:
    (tmp_path / "my_bot.py").write_text(BOT)
    code = """
import sys
before_path, before_hooks = list(sys.path), list(sys.meta_path)
try:
    import my_bot
except ModuleNotFoundError as exc:
    print("before:", exc)
from orchestrator.api import testing
before_path, before_hooks = list(sys.path), list(sys.meta_path)
testing.bot_api("robotgame")
import my_bot
robot = my_bot.Robot()
robot.location = (3, 9)
print(robot.act(testing.robotgame_game()))
assert sys.path == before_path and sys.meta_path == before_hooks
for game in ("arena", "race"):
    testing.bot_api(game)
from roborally.api import FORWARD
import marks
print(FORWARD, marks.PALETTE[0])
"""
    done = _python(code, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "before: No module named 'rg'" in done.stdout
    assert "['move', (4, 9)]" in done.stdout and "forward red" in done.stdout, done.stdout
