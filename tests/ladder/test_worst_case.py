"""The ladder's worker waits at most the worst case of one match (docs/security.md,
"Time, per game"). Two Robot Game stallers that pass the upload check (its 4 turns are
honest) and then wait in every act, one asleep and one joining its own thread, play a
ladder match; its wall time as the ladder's worker measured it (the stored `wall_s`) is
at most `worst_case_s` of the match's limits plus a stated engine allowance.

The ladder plays its matches under each game's own limits and takes none of its own: the
test gives the ladder's game entry small banks (a replaced `Limits`, the game's otherwise),
so that the bound is seconds. Unbounded, the same two bots would take minutes
(UNBOUNDED_S), so a bound not applied fails this test whatever the machine's load.
"""
from __future__ import annotations

import dataclasses
import sqlite3

import pytest
from fastapi.testclient import TestClient

from orchestrator.games import get_game
from orchestrator.options import LadderSettings
from orchestrator.web.ladder import service
from orchestrator.web.ladder.app import create_app
from orchestrator.web.ladder.service import Ladder
from tests.support.ladder import FAST, upload, wait_for
from tests.support.limits import worst_case_s

pytestmark = pytest.mark.xdist_group("ladder-worst")
GAME = get_game("robotgame")
SMALL = dataclasses.replace(GAME.limits, cpu_bank_s=1.0, own_bank_s=1.0, load_timeout_s=3.0)
# Beyond worst_case_s: the one more request past a bank (a Robot Game turn: own_per_turn_s
# at most), the host's look, the engine's turns and starting the children; on a loaded
# machine these take longer. Still far under the match unbounded.
ALLOWANCE_S = 15.0
LATE = "game.turn > 4"          # honest for the upload check's 4 turns
STALLERS = {
    "LateNapper": f"""import time


class Robot:
    def act(self, game):
        if {LATE}:
            time.sleep(0.25)
        return ['guard']
""",
    "LateJoiner": f"""import threading
import time


class Robot:
    def act(self, game):
        if {LATE}:
            helper = threading.Thread(target=time.sleep, args=(0.25,))
            helper.start()
            helper.join()
        return ['guard']
"""}
# Unbounded: 0.25 s an act, each of at least 5 robots a side, over the 95 turns after the
# 5th (Robot Game's 100); the two are asked at once.
UNBOUNDED_S = 0.25 * 5 * 95


def test_a_ladder_match_of_stallers_waits_at_most_the_worst_case(tmp_path,
                                                                 monkeypatch) -> None:
    small = dataclasses.replace(GAME, limits=SMALL)
    monkeypatch.setattr(service, "get_game",
                        lambda name: small if name == "robotgame" else get_game(name))
    ladder = Ladder(tmp_path / "ladder.sqlite", LadderSettings(games=["robotgame"], workers=1,
                                                               check_workers=1, check_turns=4,
                                                               check_limits=FAST))
    with TestClient(create_app(ladder)) as client:
        for name, source in STALLERS.items():
            bot = tmp_path / f"{name.lower()}.py"
            bot.write_text(source)
            answer = upload(client, "robotgame", name, bot)
            assert answer.status_code == 201, answer.text
        wait_for(lambda: client.get("/api/matches").json()["matches"], 120, "a ladder match")
        ladder.stopping.set()
        played = client.get("/api/matches").json()["matches"][0]
        result = client.get(f"/api/matches/{played['id']}").json()
    with sqlite3.connect(tmp_path / "ladder.sqlite") as con:
        (wall,), = con.execute("SELECT m.wall_s FROM ladder_results r JOIN matches m ON "
                               "m.id = r.digest WHERE r.match = ?", (played["id"],))
    gone = [(p["name"], p["status"], p["reason"]) for p in result["players"]
            if p["status"] != "ok"]
    assert gone and all(status == "forfeit" and reason.startswith("time bank: ")
                        for _, status, reason in gone), result["players"]
    bound = worst_case_s(SMALL, 2, erases=False)
    assert bound == pytest.approx(2 * (1.0 + SMALL.cpu_per_call_s) + 3.0)    # 9 s
    assert 2 * (bound + ALLOWANCE_S) < UNBOUNDED_S
    assert wall <= bound + ALLOWANCE_S, (wall, bound, gone)
    print(f"ladder match: {wall:.1f} s, bound {bound:g} s + {ALLOWANCE_S:g} s "
          f"(unbounded {UNBOUNDED_S:g} s); {gone}")
