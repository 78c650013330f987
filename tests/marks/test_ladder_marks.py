"""The ladder shows a bot's debug marks to its owner only: the public replay and
its viewer page carry no bot's marks; the replay asked for with a bot's token carries that
bot's marks and no other's."""
from __future__ import annotations

import gzip
import json

import pytest

pytest.importorskip("fastapi", reason="the ladder server needs the server extra")
from fastapi.testclient import TestClient  # noqa: E402

from orchestrator.options import LadderSettings  # noqa: E402
from orchestrator.replay import debug  # noqa: E402
from orchestrator.web.ladder.app import create_app  # noqa: E402
from orchestrator.web.ladder.service import Ladder  # noqa: E402
from tests.support.ladder import FAST, upload, wait_for  # noqa: E402
from tests.support.thinkers import thinker  # noqa: E402

pytestmark = pytest.mark.xdist_group("ladder-marks")


def test_the_public_replay_has_no_marks_and_each_owner_gets_only_its_own(tmp_path) -> None:
    ladder = Ladder(tmp_path / "ladder.sqlite", LadderSettings(games=["robotgame"], workers=1,
                                                               check_workers=1, check_turns=4,
                                                               check_limits=FAST))
    source = thinker("robotgame").read_bytes()
    with TestClient(create_app(ladder)) as client:
        bots = {}
        for name in ("alice", "bob"):
            answer = upload(client, "robotgame", name, source=source)
            assert answer.status_code == 201, answer.text
            bots[name] = answer.json()["id"], answer.json()["token"]
        (alice, alice_token), (bob, bob_token) = bots["alice"], bots["bob"]
        answer = client.post("/api/challenges", json={"bots": [alice, bob]},
                             headers={"Authorization": f"Bearer {alice_token}"})
        assert answer.status_code == 202, answer.text
        match_id = answer.json()["match"]
        result = wait_for(lambda: client.get(f"/api/matches/{match_id}").status_code == 200
                          and client.get(f"/api/matches/{match_id}").json(), 180, "the match")
        seat_of = {p["name"]: p["seat"] for p in result["players"]}

        public = json.loads(gzip.decompress(client.get(f"/api/matches/{match_id}/replay")
                                            .content))
        assert debug.SECTION not in public
        page = client.get(f"/matches/{match_id}/viewer").text
        assert "heads for the center" not in page and '"debug":{' not in page

        def own(token: str) -> dict:
            answer = client.get(f"/api/matches/{match_id}/replay",
                                headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 200, answer.text
            assert "no-store" in answer.headers["cache-control"]
            return json.loads(gzip.decompress(answer.content))

        for token, name in ((alice_token, "alice"), (bob_token, "bob")):
            data = own(token)
            ai = data["seats"].index(seat_of[name])
            assert set(data[debug.SECTION]) == {str(ai)}, (name, list(data[debug.SECTION]))
            notes = [text for turn in data[debug.SECTION][str(ai)].values()
                     for _, text in turn.get("notes", [])]
            assert notes and all("heads for the center" in text for text in notes)
            assert {k: v for k, v in data.items() if k != debug.SECTION} == public
        answer = client.get(f"/api/matches/{match_id}/replay",
                            headers={"Authorization": "Bearer nope"})
        assert answer.status_code == 401 and "token" in answer.json()["reason"]
