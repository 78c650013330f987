"""The bundled samples from a wheel installed outside the checkout (built and installed once
per session, tests/support/wheel.py), as a new user meets them: `arena bots` lists every
one, a sample's name stands for its file, the C sample is built on first use, and Ruby
Robot Game bots play and pass `check`."""
from __future__ import annotations

import json
import shlex
import shutil

import pytest

from orchestrator.cli.bots import listing
from orchestrator.games import GAMES
from tests.support.cli import arena
from tests.support.paths import ROOT

NEEDS_CC = pytest.mark.skipif(shutil.which("cc") is None,
                              reason="no C compiler (cc): the C sample cannot be built here")
NEEDS_RUBY = pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby is not installed")
NEEDS_NODE = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


# The session's one installed arena: its tests share a worker (tests/support/wheel.py).
pytestmark = pytest.mark.xdist_group("installed")


def test_installed_bots_lists_every_sample_of_the_checkout(installed, tmp_path) -> None:
    done = arena("bots", "--json", cwd=tmp_path, command=installed.arena)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    keys = ("game", "name", "file", "runtime", "persistent", "summary")
    here = [{k: row[k] for k in keys} for row in listing(list(GAMES.values()))]
    assert [{k: row[k] for k in keys} for row in shown] == here
    # A game kept outside the package (ARENA_GAMES) lists its own samples where they are.
    assert all("site-packages" in row["path"] if GAMES[row["game"]].home is None else
               row["path"].startswith(str(GAMES[row["game"]].home)) for row in shown)
    table = arena("bots", "--game", "cave", cwd=tmp_path, command=installed.arena)
    assert table.returncode == 0 and "forager" in table.stdout and "wanderer" in table.stdout


@NEEDS_CC
@NEEDS_NODE
def test_installed_cave_demo_plays_all_five_samples(installed, tmp_path) -> None:
    cache = tmp_path / "cache"
    done = arena("run", "--game", "cave", "--max-turns", "5", "--seed", "2",
                 "--json", cwd=tmp_path,
                 env={"XDG_CACHE_HOME": str(cache)}, command=installed.arena)
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert sorted(p["name"] for p in players) == sorted(
        path.split(".")[0] for path in GAMES["cave"].demo)
    assert all(p["status"] == "ok" for p in players), players
    (built,) = cache.glob("robot-arena/native/*/digger")     # compiled here, on first use
    assert built.read_bytes().startswith(b"\x7fELF")


@NEEDS_NODE
def test_installed_plays_samples_by_name(installed, tmp_path) -> None:
    done = arena("run", "--game", "cave", "forager", "scout", "--max-turns",
                 "5", "--json", cwd=tmp_path, command=installed.arena)
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert sorted(p["name"] for p in players) == ["forager", "scout"]
    bad = arena("run", "--game", "cave", "forager", "nosuch", cwd=tmp_path, command=installed.arena)
    assert bad.returncode == 2
    (line,) = bad.stderr.strip().splitlines()
    assert line.startswith("error: nosuch: ") and "forager, miner, scout" in line


@NEEDS_RUBY
def test_installed_runs_and_checks_a_ruby_robot_game_bot(installed,
                                                               tmp_path) -> None:
    mine = tmp_path / "mine.rb"                      # a user's own file, outside the install
    shutil.copy(ROOT / "bots" / "robotgame" / "example.rb", mine)
    played = arena("run", "--game", "robotgame", str(mine), "survivor.rb",
                   "--max-turns", "10", "--json", cwd=tmp_path, command=installed.arena)
    assert played.returncode == 0, played.stderr
    players = json.loads(played.stdout)["players"]
    assert [p["status"] for p in players] == ["ok", "ok"], players
    checked = arena("check", "--game", "robotgame", str(mine), "--turns", "10",
                    "--json", cwd=tmp_path, command=installed.arena)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["ok"] is True


def test_the_readmes_scenario_examples_run_from_an_installed_wheel(installed,
                                                                    tmp_path) -> None:
    """Before: the README pointed `arena scenario` into tests/, which no wheel ships
    (`error: tests/arena/scenarios/laser_fires_twice.json: scenario file not found`). Each
    scenario line of the README and docs/, as written, from a folder outside the checkout
    (but those naming a file of the checkout's tests/, which no wheel ships)."""
    from tests.test_docs import doc_commands

    lines = [line for line in doc_commands()
             if line.split()[1] == "scenario" and "tests/" not in line]
    assert {"arena", "robotgame", "cave", "race"} <= {
        line.split("--game ")[1].split()[0] if "--game" in line else "arena" for line in lines}
    for line in lines:
        argv = shlex.split(line)[1:]
        done = arena(*argv, cwd=tmp_path, command=installed.arena)
        assert done.returncode == 0, f"{line}\n{done.stderr}"
        assert "Traceback" not in done.stderr and done.stdout.strip(), line
        if "--json" in argv:
            assert json.loads(done.stdout)["turn"] >= 1
    # A name that is no example: one error line listing the game's examples.
    bad = arena("scenario", "nosuch", cwd=tmp_path, command=installed.arena)
    assert bad.returncode == 2
    (said,) = bad.stderr.strip().splitlines()
    assert said.startswith("error: nosuch: scenario file not found") and \
        "laser_fires_twice" in said, said
