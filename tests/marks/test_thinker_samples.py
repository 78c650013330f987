"""No bundled sample used the bot's marks and notes, so `arena bots` showed none
to start from, and the demo's replays had none. Each game now has `thinker`, listed by
`arena bots`, in the demo line-up (`arena run --game G` with no bots), and its marks are
in the demo's replay and under `--turns`."""
from __future__ import annotations

import gzip
import json

import pytest

from orchestrator.games import GAMES
from tests.support.cli import arena
from tests.support.paths import ROOT

BUNDLED = sorted(name for name, game in GAMES.items() if game.home is None)


def test_every_game_lists_a_thinker_sample(tmp_path) -> None:
    done = arena("bots", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = {(row["game"], row["name"]): row for row in json.loads(done.stdout)}
    for game in BUNDLED:
        row = listed.get((game, "thinker"))
        assert row is not None, f"{game}: no thinker sample"
        assert "thinking aloud" in row["summary"] or "Thinker" in row["summary"], row
        assert row["problem"] is None, row


@pytest.mark.parametrize("game", BUNDLED)
def test_the_demo_replay_holds_the_thinkers_marks(game, tmp_path) -> None:
    done = arena("run", "--game", game, "--max-turns", "3", "--seed", "5", "--replay",
                 "demo.json.gz", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    players = json.loads(done.stdout)["players"]
    thinker = [p for p in players if p["name"].lower() == "thinker"]
    assert thinker and thinker[0]["status"] == "ok" and thinker[0]["overheats"] == 0, players
    data = json.loads(gzip.decompress((tmp_path / "demo.json.gz").read_bytes()))
    seat = str(next(i for i, p in enumerate(data["players"])
                    if str(p).lower().find("thinker") >= 0))
    turns = data["debug"][seat]
    assert turns and all(marks.get("notes") for marks in turns.values()), turns
    assert any(marks.get("dots") or marks.get("lines") for marks in turns.values())


def test_the_readme_starts_the_contestant_from_the_thinker() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "arena run thinker hunter" in readme
