"""Every game's ladder plays: Cave Rangers (programs in any language, 2 a match) and Race
some Robots (every bot when fewer than 6), beside Robot Game in test_api."""
from __future__ import annotations

import gzip
import json
import shutil

import pytest

from tests.support.ladder import SAMPLES, Server, wait_for


def test_cave_and_race_ladders_play_and_keep_replays(tmp_path) -> None:
    server = Server(tmp_path / "ladder.sqlite", "--games", "cave,race", "--workers", "2")
    try:
        for game, files in (("cave", ("miner.sh", "wanderer.py")),
                            ("race", ("planner.py", "cautious.py", "sprinter.py"))):
            for file in files:
                answer = server.upload(game, file.split(".")[0], SAMPLES / game / file)
                assert answer.status_code == 201, answer.text
        for game, size in (("cave", 2), ("race", 3)):
            # A race match may start once two bots are in (the rules' fewest), before the
            # third's check is done: wait for one that seats all three.
            match = wait_for(lambda g=game, n=size: [m for m in server.matches(game=g)
                                                      if len(m["players"]) == n],
                             180, f"a {game} match of {size}")[0]
            assert len(match["players"]) == size
            result = server.client.get(f"/api/matches/{match['id']}").json()
            assert result["game"] == game and all(p["status"] == "ok"
                                                  for p in result["players"])
            replay = server.client.get(f"/api/matches/{match['id']}/replay")
            assert json.loads(gzip.decompress(replay.content))["game"] == game
            page = server.client.get(f"/matches/{match['id']}")
            assert page.status_code == 200
        board = server.client.get("/api/ladders/race").json()
        assert board["matches"] >= 1 and all(row["games"] >= 1 for row in board["bots"])
    finally:
        server.stop()


@pytest.mark.skipif(shutil.which("ruby") is None,
                    reason="Ruby bots need Debian's ruby (make test installs it as root)")
def test_a_ruby_robot_game_bot_is_uploaded_and_plays(tmp_path) -> None:
    server = Server(tmp_path / "ladder.sqlite", "--games", "robotgame", "--workers", "1")
    try:
        for name, file in (("ruby", "example.rb"), ("python", "rusher.py")):
            answer = server.upload("robotgame", name, SAMPLES / "robotgame" / file)
            assert answer.status_code == 201, answer.text
            assert answer.json()["check"]["ok"], answer.json()
        match = wait_for(lambda: server.matches(game="robotgame"), 180, "a Ruby match")[0]
        result = server.client.get(f"/api/matches/{match['id']}").json()
        ruby = next(p for p in result["players"] if p["name"] == "ruby")
        assert ruby["bot"].endswith("example.rb") and ruby["status"] == "ok", ruby
    finally:
        server.stop()
