"""A Robot Game match has a score, its robots alive at the end, read as
rgkit's users read every game: `13–12`, and a level game `6–6 draw`. `arena run`, `results
--games` (every game, or one bot's; its table, JSON and CSV), the published site and the
ladder's match lists and match page each say it."""
from __future__ import annotations

import csv
import io
import json
import re
import threading

import pytest

from tests.support.cli import WIDE, arena
from tests.support.paths import ROOT

RG = ROOT / "bots" / "robotgame"
SURVIVOR, RUSHER = str(RG / "survivor.py"), str(RG / "rusher.py")
DRAW = re.compile(r"(\d+)–\1 draw")          # seed 1: survivor against itself ends level
WON = re.compile(r"(\d+)–(\d+)")


def shown(*args: str) -> str:
    """What `arena ARGS` prints, wide, once it exited 0."""
    return arena(*args, code=0, env=WIDE).stdout


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    """A draw (survivor against itself, seed 1) and a won game (survivor against rusher)."""
    path = str(tmp_path_factory.mktemp("score") / "rg.sqlite")
    for lineup in ((SURVIVOR, SURVIVOR), (SURVIVOR, RUSHER)):
        shown("batch", "--game", "robotgame", *lineup, "--seeds", "1", "--first-seed", "1",
              "--workers", "1", "--db", path)
    return path


def test_arena_run_says_the_score_and_a_draw() -> None:
    out = shown("run", "--game", "robotgame", SURVIVOR, SURVIVOR, "--seed", "1")
    assert re.search(r"Score: survivor (\d+)–\1 .+, a draw", out), out
    played = json.loads(shown("run", "--game", "robotgame", SURVIVOR, RUSHER, "--seed", "1",
                              "--json"))
    ranked = sorted(played["players"], key=lambda p: p["rank"])
    assert played["score"] == f"{ranked[0]['stats']['robots']}–{ranked[1]['stats']['robots']}"


def test_results_games_lists_every_game_with_its_score(db) -> None:
    table = shown("results", db, "--games")
    assert "score" in table and DRAW.search(table) and "│ draw" in table, table
    games = json.loads(shown("results", db, "--games", "--json"))["games"]
    assert len(games) == 2 and DRAW.fullmatch(games[0]["score"]), games
    assert WON.fullmatch(games[1]["score"]) and games[1]["result"].endswith(" won"), games
    rows = list(csv.DictReader(io.StringIO(shown("results", db, "--games", "--export", "csv"))))
    assert [row["score"] for row in rows] == [g["score"] for g in games]


def test_one_bots_games_say_its_own_count_first(db) -> None:
    mine = json.loads(shown("results", db, "--games", "--bot", "rusher", "--json"))["games"]
    assert len(mine) == 1, mine
    played = json.loads(shown("run", "--game", "robotgame", SURVIVOR, RUSHER, "--seed",
                              str(mine[0]["seed"]), "--json"))
    robots = {p["name"]: p["stats"]["robots"] for p in played["players"]}
    assert mine[0]["score"] == f"{robots['rusher']}–{robots['survivor']}", (mine, robots)
    assert "score" in shown("results", db, "--games", "--bot", "rusher")
    rows = list(csv.DictReader(io.StringIO(shown("results", db, "--games", "--bot", "rusher",
                                                 "--export", "csv"))))
    assert rows[0]["score"] == mine[0]["score"]


def test_the_site_says_each_score(db, tmp_path) -> None:
    shown("publish", db, "--out", str(tmp_path / "site"), "--run",
          json.loads(shown("results", db, "--json"))["runs"][-1]["id"])
    pages = [(tmp_path / "site" / "matches" / "1.html").read_text(),
             (tmp_path / "site" / "index.html").read_text()]
    assert re.search(r"Score: (survivor|rusher) \d+–\d+ (survivor|rusher)", pages[0]), pages[0]
    assert re.search(r'class="score">\(\d+–\d+\)', pages[1]), pages[1]
    assert "ended at the turn limit" in pages[0]


def test_the_ladder_lists_and_match_page_say_the_score(tmp_path) -> None:
    from orchestrator.web.ladder.app import page_templates
    from orchestrator.web.ladder.service import Ladder
    from orchestrator.web.ladder.store import LadderStore
    store = LadderStore(tmp_path / "ladder.sqlite")
    result = json.loads(shown("run", "--game", "robotgame", SURVIVOR, SURVIVOR, "--seed", "1",
                              "--json"))
    lineup = [(store.add_bot("robotgame", p["name"], "x", "bot.py", p["sha256"], b"", {}), 1)
              for p in sorted(result["players"], key=lambda p: p["seat"])]
    store.finish(store.enqueue("robotgame", "default", lineup, True), "d", result, 1.0, [])
    ladder = Ladder.__new__(Ladder)           # the listing needs only the store and a lock
    ladder.store, ladder.lock = store, threading.RLock()
    listed = ladder.matches_list()
    assert DRAW.fullmatch(listed[0]["score"]), listed
    page = page_templates().get_template("index.html").render(
        games=["robotgame"], boards=[], latest=listed)
    assert DRAW.search(page), page
    match = ladder.match(listed[0]["id"])
    page = page_templates().get_template("match.html").render(games=["robotgame"], match=match)
    assert re.search(r"Score: survivor (\d+)–\1 .+, a draw", page), page
    assert "ended at the turn limit" in page and "turn_limit" not in page
