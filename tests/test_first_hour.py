"""The error paths a newcomer meets in the first hour: a bot given to the wrong game, one
Robot Game bot alone, a Ruby bot that does not parse, a Cave program that fails every
turn, a nonsense number."""
from __future__ import annotations

import json
import shutil

import pytest

from orchestrator.games import GAMES, likely_game
from orchestrator.runner.samples import sample_files
from tests.support.cli import arena
from tests.support.paths import ROOT

RG = ROOT / "bots" / "robotgame"


@pytest.mark.parametrize("game", GAMES)
def test_every_sample_looks_written_for_its_own_game(game) -> None:
    for path in sample_files(game):
        if path.suffix == ".toml":
            continue
        assert likely_game(path.name, path.read_bytes()) == game, path


@pytest.mark.parametrize("args, hint", [
    (["run", "--seed", "1", "--max-turns", "3", str(RG / "example.py"), "hunter"],
     "the bot has no move() function (it looks like a robotgame bot: try --game robotgame)"),
    (["run", "--seed", "1", "--max-turns", "3", str(RG / "example.rb"), "hunter"],
     "(it looks like a robotgame bot: try --game robotgame)"),
    (["check", "--turns", "3", str(ROOT / "bots" / "race" / "planner.py")],
     "(it looks like a race bot: try --game race)"),
    (["check", "--game", "robotgame", "--turns", "3", str(ROOT / "bots" / "arena" / "hunter.py")],
     "(it looks like an arena bot: try --game arena)"),          # an, not "a arena"
])
def test_a_bot_given_to_the_wrong_game_says_which_game_it_looks_for(args, hint) -> None:
    done = arena(*args, "--json", forked=True) if args[0] == "run" else arena(*args, forked=True)
    text = done.stdout + done.stderr
    assert hint in text.replace("\\n", " "), text


# Every pair of games (from the registry): one game's map given to the other's --game.
MAP_PAIRS = [(mine, other) for mine in GAMES for other in GAMES
             if mine != other and GAMES[mine].bundled_maps()]


@pytest.mark.parametrize("mine, other", MAP_PAIRS, ids=[f"{a}-as-{b}" for a, b in MAP_PAIRS])
def test_a_map_given_to_the_wrong_game_says_which_game_reads_it(mine, other) -> None:
    """Before: `arena maps validate maps/robotgame/default.py` said only what the arena
    parser disliked (`unknown map symbol`, a map too wide), with no word of --game."""
    path = GAMES[mine].bundled_maps()[0]
    done = arena("maps", "validate", "--game", other, str(path), forked=True)
    assert done.returncode == 2 and done.stdout == "", done.stdout
    (line,) = done.stderr.strip().splitlines()
    an = "an" if mine[0] in "aeiou" else "a"
    assert line.startswith(f"error: {path}") or line.startswith(f"error: {path.name}"), line
    assert line.endswith(f" (it is {an} {mine} map: try --game {mine})"), line
    assert arena("maps", "validate", "--game", mine, str(path), forked=True).returncode == 0


def test_a_map_no_game_reads_gets_no_hint(tmp_path) -> None:
    path = tmp_path / "nothing.txt"
    path.write_text("@@@\n")
    done = arena("maps", "validate", str(path), forked=True)
    assert done.returncode == 2 and "try --game" not in done.stderr, done.stderr


def test_one_robot_game_bot_plays_itself() -> None:
    done = arena("run", "--game", "robotgame", "--seed", "1", "--max-turns", "5",
                 str(RG / "rusher.py"), "--json", forked=True)
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)["players"]
    assert [p["status"] for p in players] == ["ok", "ok"]
    assert {p["bot"] for p in players} == {str(RG / "rusher.py")}


@pytest.mark.skipif(shutil.which("ruby") is None, reason="ruby is not installed")
def test_a_ruby_syntax_error_is_a_load_error_like_pythons(tmp_path) -> None:
    broken = tmp_path / "broken.rb"
    broken.write_text("class Robot\n  def act(game)\n    [ 'guard'\n  end\nend\n")
    done = arena("run", "--game", "robotgame", "--seed", "1", str(broken), "rusher",
                 "--json", forked=True)
    (me,) = [p for p in json.loads(done.stdout)["players"] if p["name"] == "broken"]
    assert me["status"] == "load_error" and me["turn"] is None
    assert me["reason"].startswith("SyntaxError: ") and "\n" not in me["reason"]
    checked = arena("check", "--game", "robotgame", str(broken), forked=True)
    assert checked.returncode == 1
    assert checked.stderr.splitlines()[-1].startswith(f"error: {broken}: load_error: Syntax")


def test_a_cave_program_that_fails_every_turn_says_why_in_the_table(tmp_path) -> None:
    (tmp_path / "cutter.sh").write_text("read status\necho x | cut -c1\n")
    done = arena("run", "--game", "cave", "--seed", "1", "--max-turns", "5", "cutter.sh",
                 "forager", cwd=tmp_path, forked=True)
    assert done.returncode == 0, done.stderr
    (row,) = [line for line in done.stdout.splitlines() if "│ cutter" in line]
    assert "crash: ended with an error in 5 of 5 turns" in row
    assert "refused: 1 process (clone)" in row


@pytest.mark.parametrize("option", [["--robots", "0"], ["--max-turns", "-1"]])
@pytest.mark.parametrize("command", ["run", "batch", "tournament"])
def test_counts_below_one_are_refused_in_one_line(command, option) -> None:
    done = arena(command, "hunter", "beeline", *option, forked=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert option[0] in done.stderr


def test_a_cave_tournament_ranks_by_mean_score_to_two_decimals(tmp_path) -> None:
    done = arena("tournament", "--game", "cave", "--games", "2", "--max-turns", "20",
                 "--workers", "1", "--db", str(tmp_path / "t.sqlite"), "forager", "wanderer",
                 "--json", forked=True)
    report = json.loads(done.stdout)
    assert report["ranked_by"] == "score"
    scores = [row["mean_score"] for row in report["players"]]
    assert scores == sorted(scores, reverse=True)
    shown = arena("tournament", "--game", "cave", "--games", "2", "--max-turns", "20",
                  "--workers", "1", "--db", str(tmp_path / "t.sqlite"), "forager", "wanderer",
                  forked=True)
    assert "mean score" in shown.stdout
    assert f"{scores[0]:.2f}" in shown.stdout, shown.stdout    # the same run, as a table
