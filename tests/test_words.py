"""The words a person reads, through the commands they type. An
unknown command asks once what was meant, and names the command for what people call
it; tables say `games`, `win` (in %) and `failed` everywhere; an amount of output is
said in a unit that reads right; a match's end is said in words; `check` says a hang
once; an aborted bot is said aborted (SIGABRT), not a segfault; a cut name shows it was
cut; one bot given for two seats is told so."""
from __future__ import annotations

import json
import re
import sqlite3

from orchestrator import api
from tests.support.cli import WIDE, arena
from tests.support.paths import BOTS, ROOT

RG = ROOT / "bots" / "robotgame"
QUICK = ["--map", "tiny", "--robots", "1", "--max-turns", "3"]


def test_an_unknown_command_asks_once_and_names_the_command_meant() -> None:
    done = arena("matchups", code=2, env=WIDE)
    assert done.stderr.count("\n") == 1 and done.stderr.count("mean") <= 1, done.stderr
    assert "arena results DB --matrix" in done.stderr, done.stderr
    assert "arena results DB --run ID" in arena("leaderboard", code=2, env=WIDE).stderr
    said = arena("bach", code=2, env=WIDE).stderr
    assert said.count("Did you mean") == 1 and "'batch'" in said, said


def test_every_standings_table_says_games_win_and_failed(tmp_path) -> None:
    lineup = [str(BOTS / "hunter.py"), str(BOTS / "randy.py")]
    db = str(tmp_path / "t.sqlite")
    for command in ("tournament", "batch"):
        args = ["--games", "1"] if command == "tournament" else ["--seeds", "1"]
        table = arena(command, *lineup, *QUICK, *args, "--workers", "1", "--db", db, code=0,
                      env=WIDE).stdout
        header = next(line for line in table.splitlines() if "AI" in line)
        words = set(re.findall(r"[a-z%]+(?: [a-z]+)?", header.replace("┃", "|")))
        assert {"games", "win", "failed"} <= {w.strip() for w in header.split("┃")}, header
        assert not words & {"matches", "win rate", "failures"}, header
        assert not re.search(r"\b0\.\d{3}\b", table), table          # a rate, not a %
    run = api.open_store(db).runs()[0]
    standing = api.open_store(db).run(run.id).players[0]
    assert standing.games == standing.matches >= 1


def test_output_cut_past_a_gigabyte_is_said_in_gigabytes(tmp_path) -> None:
    db = tmp_path / "b.sqlite"
    arena("batch", str(BOTS / "hunter.py"), str(BOTS / "randy.py"), *QUICK, "--seeds", "1",
          "--workers", "1", "--db", str(db), code=0, env=WIDE)
    with sqlite3.connect(db) as conn:              # as a printing bot's games leave it
        conn.execute("UPDATE penalties SET record = json_set(record, '$.output_dropped', "
                     "366886000000) WHERE seat = 0")
    run = json.loads(arena("results", str(db), "--json", code=0, env=WIDE).stdout)["runs"][0]["id"]
    table = arena("results", str(db), "--run", run, code=0, env=WIDE).stdout
    assert "output cut: 367 GB in 1 game" in table, table
    assert "366886 MB" not in table


def test_a_match_end_is_said_in_words() -> None:
    from orchestrator.text import ENDINGS
    out = arena("run", str(BOTS / "hunter.py"), str(BOTS / "randy.py"), *QUICK,
                "--seed", "1", code=0, env=WIDE).stdout
    assert re.search(r"3 turns, (ended at the turn limit|ended with one AI left)", out), out
    assert "turn_limit" not in out and "ended by" not in out
    viewer = (ROOT / "orchestrator" / "views" / "viewer" / "viewer.html").read_text()
    for code, words in ENDINGS.items():              # the page says them alike
        assert f'{code}: "{words}"' in viewer, code


def test_check_says_a_hang_once(tmp_path) -> None:
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time\n\nclass Robot:\n    def act(self, game):\n"
                       "        time.sleep(30)\n        return ['guard']\n")
    done = arena("check", "--game", "robotgame", str(sleeper), "--once", code=1, env=WIDE)
    reason = done.stderr.rsplit("sleeper.py: ", 1)[1]
    # The hang, said once; then what a full match would cost at that pace (check's gate).
    assert reason.startswith("hang: wall time limit (turn 1)"), done.stderr
    assert reason.count("hang") == 1 and "for a 100-turn match" in reason, done.stderr


def test_an_aborted_bot_is_said_aborted_not_a_segfault(tmp_path) -> None:
    bot = tmp_path / "aborts.py"
    bot.write_text("import os\n\ndef move():\n    os.abort()\n")
    for mode in ("standard", "match"):
        played = json.loads(arena("run", str(bot), str(BOTS / "randy.py"), *QUICK,
                                  "--sandbox", mode, "--json", code=0, env=WIDE).stdout)
        aborted = next(p for p in played["players"] if p["name"] == "aborts")
        assert aborted["reason"] == "crash: aborted (SIGABRT)", (mode, aborted)


def test_a_long_name_cut_to_40_characters_ends_in_a_mark(tmp_path) -> None:
    bot = tmp_path / "long.py"
    bot.write_text(f"name = {'A' * 60!r}\n\ndef move():\n    return 'FORWARD'\n")
    played = json.loads(arena("run", str(bot), str(BOTS / "randy.py"), *QUICK,
                              "--json", code=0, env=WIDE).stdout)
    names = [p["name"] for p in played["players"]]
    assert "A" * 39 + "…" in names, names


def test_one_bot_for_two_seats_is_told(tmp_path) -> None:
    done = arena("run", "--game", "robotgame", str(RG / "rusher.py"), "--seed", "1", code=0,
                 env=WIDE)
    assert "note: one bot for a 2-player game: rusher plays both seats" in done.stderr
    arena("run", "--game", "robotgame", str(RG / "rusher.py"), str(RG / "survivor.py"),
          "--seed", "1", "--replay", "r.json.gz", cwd=tmp_path, code=0, env=WIDE)
    arena("replay", "r.json.gz", "--turn", "49", "--save-position", "t49.json", cwd=tmp_path,
          code=0, env=WIDE)
    done = arena("run", "--from", "t49.json", str(RG / "rusher.py"), "--turns", "1",
                 cwd=tmp_path, code=0, env=WIDE)
    assert "note: one bot for the position's 2 players: rusher plays both seats" in \
        done.stderr, done.stderr
    done = arena("run", "--game", "robotgame", str(RG / "rusher.py"), str(RG / "survivor.py"),
                 "--seed", "1", code=0, env=WIDE)
    assert "note: one bot" not in done.stderr
