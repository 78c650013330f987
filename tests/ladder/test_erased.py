"""A ladder match with a seat erased names every robot's owner as the engine does,
through the ladder itself: an arena bot that passes the upload check and then hangs
mid-match is uploaded among three honest ones; the ladder plays them, and its match page,
its viewer page (its embedded data and its own script, in node and in Chromium, under the
ladder's policy) and its replay in the terminal's view must credit each robot to the AI the
engine's state says. The engine's state is the same match played again in this process
from what the ladder stored (its lineup, map and seed: same inputs, same match), traced
turn by turn, and it is checked to be the same match as the ladder's replay.

The helpers are tests/replay/test_erased_truth.py's (which checks the same views of
replays handed to them directly)."""
from __future__ import annotations

import gzip
import html
import json
import re

import pytest
from fastapi.testclient import TestClient

from orchestrator.options import LadderSettings
from orchestrator.replay import file as replay
from orchestrator.replay.reader import ai_players
from orchestrator.runner import execute
from orchestrator.runner import match as matches
from orchestrator.web.ladder.app import create_app
from orchestrator.web.ladder.service import Ladder
from orchestrator.web.ladder.store import Queued
from tests.browser import ARGS, CHROMIUM
from tests.support.ladder import FAST, SAMPLES, upload, wait_for
from tests.support.marks import LONG
from tests.support.owners import OWNERS, named, names_in_page, panel_names
from tests.support.paths import ROOT

pytestmark = pytest.mark.xdist_group("ladder-erased")
HANGS = ROOT / "tests" / "arena" / "leaves_late.py"      # its 5th move() never returns
HONEST = ("beeline", "hunter", "randy")
ORIGIN = "http://ladder.test"


def replayed_in_process(ladder: Ladder, match_id: int):
    """The ladder's match played again here, as its worker plays it (execute's
    play_planned on the spec the ladder makes), with the engine's owners traced at every
    frame of the attempt that counts: (names by AI index, owners by frame, outcome)."""
    row = ladder.store.db.execute("SELECT id, game, seed, map, lineup, rated FROM "
                                  "ladder_queue WHERE id = ?", (match_id,)).fetchone()
    queued = Queued(row[0], row[1], row[2], row[3],
                    tuple(map(tuple, json.loads(row[4]))), bool(row[5]))
    with ladder.lock:
        spec = ladder._planned(queued).spec
    attempts: list[tuple[list[str], list[dict]]] = []
    made, played = matches._Attempt._new_match, execute.run_match

    def new_match(self, names):
        match = made(self, names)
        attempts.append((list(names), [named("arena", match, names)]))
        return match

    def run_match(spec, **options):
        def trace(match):
            names, frames = attempts[-1]
            frames.append(named("arena", match, names))
        return played(spec, trace=trace, **options)

    matches._Attempt._new_match, execute.run_match = new_match, run_match
    try:
        outcome = execute.play_planned(spec)
    finally:
        matches._Attempt._new_match, execute.run_match = made, played
    assert "error" not in outcome, outcome
    return attempts[-1][0], attempts[-1][1], outcome


def result_rows(page: str) -> list[tuple[str, str]]:
    """(AI name, status) of each row of the match page's result table."""
    table = re.search(r'<table class="result">(.*?)</table>', page, re.S).group(1)
    return [(html.unescape(name), status) for name, status in re.findall(
        r"<tr class=\"\w+\"><td>\d+</td><td>([^<]*)</td><td>(\w+)</td>", table)]


@pytest.fixture(scope="module")
def erased_match(tmp_path_factory):
    """(client, ladder, match id): the ladder's first arena match, in which HangLate hung at
    its 5th turn and was erased; the client is of the app that played it."""
    db = tmp_path_factory.mktemp("erased") / "ladder.sqlite"
    ladder = Ladder(db, LadderSettings(games=["arena"], workers=1, check_workers=1, check_turns=4,
                                       check_limits=FAST))
    with TestClient(create_app(ladder), base_url=ORIGIN) as client:
        answer = upload(client, "arena", "HangLate", HANGS)
        assert answer.status_code == 201, answer.text      # its first 4 turns are honest
        for name in HONEST:
            answer = upload(client, "arena", name.capitalize(), SAMPLES / "arena" / f"{name}.py")
            assert answer.status_code == 201, answer.text
        found = wait_for(lambda: client.get("/api/matches", params={"game": "arena"}
                                            ).json()["matches"], 300, "an arena match")
        match_id = found[-1]["id"]
        ladder.stopping.set()                  # no more matches: the rest reads one
        yield client, ladder, match_id


@LONG
def test_the_ladders_erased_seat_is_named_as_the_engine_names_it(erased_match, tmp_path):
    client, ladder, match_id = erased_match
    result = client.get(f"/api/matches/{match_id}").json()
    gone = [p for p in result["players"] if p["status"] != "ok"]
    assert [(p["name"], p["status"]) for p in gone] == [("HangLate", "erased")], \
        result["players"]
    seat = gone[0]["seat"]
    assert seat < 3, "(seed 0 seats it second) an AI after it moves down an index"
    names, truth, outcome = replayed_in_process(ladder, match_id)
    assert "HangLate" not in names and len(names) == 3

    # The match is the ladder's: the same result, and its replay frame by frame.
    stored = replay.load(ladder.replay_file(match_id))
    again = json.loads(gzip.decompress(outcome["replay"]))
    assert [(p["name"], p["rank"], p["status"]) for p in outcome["result"]["players"]] == \
        [(p["name"], p["rank"], p["status"]) for p in result["players"]]
    assert stored["seats"] == again["seats"] == [i for i in range(4) if i != seat]
    frames = replay.Frames(stored)
    assert len(frames) == len(truth) == len(replay.Frames(replay.load(
        replay.save(again, tmp_path / "again.json.gz"))))

    # The match page: a row per seat, the erased one said so.
    page = client.get(f"/matches/{match_id}")
    assert page.status_code == 200
    assert sorted(result_rows(page.text)) == sorted(
        (p["name"], p["status"]) for p in outcome["result"]["players"])
    assert f'src="/matches/{match_id}/viewer"' in page.text

    # The viewer page the match page frames, and the replay file the API serves (what
    # `arena replay` reads): each robot's owner, at every frame, is the engine's.
    viewer = client.get(f"/matches/{match_id}/viewer")
    assert viewer.status_code == 200
    page_names, shown = names_in_page(viewer.text)
    served = tmp_path / "served.json.gz"
    served.write_bytes(client.get(f"/api/matches/{match_id}/replay").content)
    terminal = replay.load(served)
    by_ai = [p["name"] for p in ai_players(terminal)]
    assert page_names == by_ai == names
    assert shown["seats"] == terminal["seats"] == stored["seats"]
    for index in range(len(frames)):
        turn, state = frames[index]
        pieces = OWNERS["arena"](terminal["map"], state)
        assert {piece: by_ai[ai] for piece, ai in pieces.items()} == truth[index], \
            f"frame {index} (turn {turn})"
        assert {piece: page_names[ai] for piece, ai in pieces.items()} == truth[index]
        assert panel_names(terminal, state, index) == names, f"frame {index} (turn {turn})"
    assert any(truth), "some robot was on the board"

    if CHROMIUM is not None:
        in_chromium(client, match_id, names, truth)


def in_chromium(client, match_id: int, names: list[str], truth: list[dict]) -> None:
    """The match page in Chromium, every request answered by the ladder's app (its headers,
    its policy): the viewer it frames names the AIs, and each robot's panel its owner."""
    from playwright import sync_api

    def serve(route):
        path = route.request.url.removeprefix(ORIGIN)
        answer = client.get(path)
        route.fulfill(status=answer.status_code, body=answer.content,
                      headers=dict(answer.headers))

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
            page.route(f"{ORIGIN}/**", serve)
            page.goto(f"{ORIGIN}/matches/{match_id}")
            frame = page.frame_locator("iframe.viewer")
            frame.locator("body").wait_for()
            viewer = next(f for f in page.frames if f.url.endswith(f"/{match_id}/viewer"))
            viewer.wait_for_function("typeof viewer !== 'undefined'")
            assert viewer.evaluate("viewer.names()") == names
            assert "HangLate (out)" in viewer.locator("#players").inner_text()
            for index, owners in enumerate(truth):
                by_id = {rid: name for (_, rid), name in owners.items()}
                for pid, text in viewer.evaluate(f"viewer.described({index})"):
                    others = [n for n in names if n != by_id[pid] and n not in by_id[pid]]
                    assert by_id[pid] in text and not any(n in text for n in others), \
                        f"frame {index}: robot {pid}: {text!r}, owned by {by_id[pid]}"
            assert errors == [], errors
        finally:
            browser.close()

