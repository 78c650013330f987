"""`arena run`, `check` and `maps` for Robot Game, through the real command line."""
from __future__ import annotations

import json
from pathlib import Path

from orchestrator.games import get_game
from tests.support.cli import arena
from tests.support.paths import ROOT

BOTS = ROOT / "bots" / "robotgame"


def test_run_plays_the_demo_pair_and_prints_json() -> None:
    done = arena("run", "--game", "robotgame", "--seed", "4", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "robotgame" and result["turns"] == 100
    assert result["end"] == "turn_limit" and result["map"] == "default"
    demo = {path.name for path in get_game("robotgame").demo_lineup()}
    assert len(demo) == 2 and {Path(p["bot"]).name for p in result["players"]} == demo
    assert all({"robots", "timeouts", "decisions"} <= set(p["stats"]) for p in result["players"])


def test_random_spawn_and_fewer_turns_change_the_game() -> None:
    base = ["run", "--game", "robotgame", "--seed", "4", "--json", "--max-turns", "30",
            str(BOTS / "rusher.py"), str(BOTS / "survivor.py")]
    mirrored = json.loads(arena(*base).stdout)
    drawn = json.loads(arena(*base, "--random-spawn").stdout)
    assert mirrored["turns"] == drawn["turns"] == 30
    assert mirrored["rules"]["symmetric_spawn"] and not drawn["rules"]["symmetric_spawn"]


def test_bad_input_is_one_error_line() -> None:
    done = arena("run", "--random-spawn")
    assert done.returncode == 2 and done.stderr.strip() == \
        "error: --random-spawn is a robotgame option"
    done = arena("run", "--game", "robotgame", *[str(BOTS / "example.py")] * 3)
    assert done.returncode == 2 and done.stderr.strip() == \
        "error: Robot Game is for 2 players, not 3"


def test_check_exit_codes() -> None:
    assert arena("check", "--game", "robotgame", str(BOTS / "survivor.py"), "--turns",
                 "20").returncode == 0
    bad = arena("check", "--game", "robotgame", "--turns", "5",
                str(ROOT / "tests" / "robotgame" / "bots" / "crasher.py"))
    assert bad.returncode == 1 and "crash: exited with status 3" in bad.stderr


def test_maps_lists_and_validates_robotgame_maps(tmp_path) -> None:
    listed = arena("maps", "--game", "robotgame")
    assert listed.returncode == 0 and "default" in listed.stdout and "225" in listed.stdout
    bad = tmp_path / "bad.py"
    bad.write_text("{'spawn': [(1, 1)], 'obstacle': [(1, 1)]}")
    done = arena("maps", "validate", "--game", "robotgame", str(bad))
    assert done.returncode == 2 and done.stderr.startswith(f"error: {bad}: spawn square")
