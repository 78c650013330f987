"""The ladder's match page shows each AI's own time (its calls' wall time less
their wait for a CPU) beside its CPU, and a bot's page its own time a game, so a slow bot
is visible before it is erased; a result recorded before own times shows a dash, not 0."""
from __future__ import annotations

import json
import re

import pytest

from tests.support.ladder import SAMPLES, upload, wait_for

pytestmark = pytest.mark.xdist_group("ladder-own-time")

# A Robot Game bot that naps 0.1 s in each act of the first two turns, then guards: at
# least 0.1 s of own time in any match it plays, and next to no CPU.
NAPPER = b"""import time

class Robot:
    def act(self, game):
        if game.turn < 2:
            time.sleep(0.1)
        return ['guard']
"""
NAP_S = 0.1


def row_of(page: str, name: str) -> list[str]:
    """The cells of the match table's row of `name`."""
    row = next(r for r in re.findall(r"<tr class=.*?</tr>", page) if f"<td>{name}</td>" in r)
    return re.findall(r"<td>(.*?)</td>", row)


@pytest.fixture(scope="module")
def played(served):
    client, ladder = served
    assert upload(client, "robotgame", "own napper", source=NAPPER).status_code == 201
    answer = upload(client, "robotgame", "own example", SAMPLES / "robotgame" / "example.py")
    assert answer.status_code == 201, answer.text
    match = wait_for(lambda: client.get("/api/matches", params={"game": "robotgame"}
                                        ).json()["matches"], 120, "a match")[0]
    return client, ladder, match["id"]


def test_the_match_page_shows_own_time_beside_cpu(played) -> None:
    client, _, match = played
    result = client.get(f"/api/matches/{match}").json()
    napper = next(p for p in result["players"] if p["name"] == "own napper")
    assert napper["own_s"] >= NAP_S, napper
    page = client.get(f"/matches/{match}").text
    assert "<th>CPU s</th><th>own s</th>" in page
    cells = row_of(page, "own napper")
    assert float(cells[4]) >= NAP_S, cells
    assert re.fullmatch(r"\d+\.\d\d", row_of(page, "own example")[4])


def test_the_bot_page_and_the_api_show_its_own_time_a_game(played) -> None:
    client, _, match = played
    listed = client.get("/api/matches", params={"game": "robotgame"}).json()["matches"]
    seats = [p for m in listed for p in m["players"] if p["name"] == "own napper"]
    assert seats and all(p["own_s"] >= NAP_S for p in seats), seats
    bot = seats[0]["bot"]
    info = client.get(f"/api/bots/{bot}").json()
    assert info["mean_own_s"] >= NAP_S and info["own_matches"] >= 1, info
    page = client.get(f"/bots/{bot}").text
    shown = re.search(r"<dt>own s a game</dt><dd>([\d.]+) ", page)
    assert shown and float(shown.group(1)) >= NAP_S, page


def test_a_result_from_before_own_times_shows_a_dash(played) -> None:
    client, ladder, match = played
    with ladder.lock:
        kept = ladder.store.db.execute("SELECT result FROM ladder_results WHERE match = ?",
                                       (match,)).fetchone()[0]
    result = json.loads(kept)
    for player in result["players"]:
        player.pop("own_s", None)
    with ladder.lock:
        ladder.store.db.execute("UPDATE ladder_results SET result = ? WHERE match = ?",
                                (json.dumps(result), match))
    try:
        page = client.get(f"/matches/{match}").text
        for name in ("own napper", "own example"):
            cells = row_of(page, name)
            assert cells[4] == "-" and re.fullmatch(r"\d+\.\d\d", cells[3]), cells
    finally:
        with ladder.lock:
            ladder.store.db.execute("UPDATE ladder_results SET result = ? WHERE match = ?",
                                    (kept, match))
