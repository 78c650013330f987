"""The bot page's rating chart is the stored matches': each point, read from the
page, is the bot's Elo after one of its rated matches, as a recomputation from the
database alone gives it, in the order the matches finished; and a new server on the same
database draws the same points."""
from __future__ import annotations

import re
import sqlite3

import pytest
from fastapi.testclient import TestClient

from orchestrator.options import LadderSettings
from orchestrator.results.ratings import Ratings
from orchestrator.web.ladder.app import create_app
from orchestrator.web.ladder.service import Ladder
from tests.support.ladder import FAST, SAMPLES, upload, wait_for

pytestmark = pytest.mark.xdist_group("ladder-chart")

DOT = re.compile(r'<circle class="dot c\d" cx="([\d.]+)" cy="([\d.]+)" r="3" '
                 r'data-match="(\d+)" data-rating="(-?[\d.]+)"><title>after match #(\d+): '
                 r'(-?[\d.]+)</title></circle>')
LINE = re.compile(r'<polyline class="c\d" points="([^"]*)">')


def page_points(client, bot: int) -> list[tuple[int, float]]:
    """(match id, Elo) of each point of the bot page's chart, as the page says them: its
    data- attributes and its title agree, and each dot sits on the line's vertex."""
    page = client.get(f"/bots/{bot}")
    assert page.status_code == 200, page.text
    assert "<script" not in page.text
    dots = DOT.findall(page.text)
    lines = LINE.findall(page.text)
    if not dots:
        assert not lines, "a chart whose points the page does not say"
        return []
    assert len(lines) == 1, lines
    vertices = [tuple(p.split(",")) for p in lines[0].split()]
    assert [(float(x), float(y)) for x, y in vertices] == \
        [(float(x), float(y)) for x, y, *_ in dots]
    points = []
    for _, _, match, rating, titled_match, titled in dots:
        assert (match, rating) == (titled_match, titled)
        points.append((int(match), float(rating)))
    return points


def recomputed(db) -> dict[int, list[tuple[int, float]]]:
    """Each bot's (match id, Elo after it), from the database alone: its finished matches
    in the order they finished, the rated ones through the ladder's rule (docs/ladder.md:
    orchestrator.results.ratings, K 32 from 1200), with none of the server's own bookkeeping."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT r.match, r.rated, s.bot_id, s.rank FROM ladder_results r "
            "JOIN ladder_seats s ON s.match = r.match "
            "WHERE r.error IS NULL AND r.game = 'robotgame' ORDER BY r.seq, s.seat").fetchall()
    finally:
        conn.close()
    matches: dict[int, tuple[bool, list]] = {}
    for match, rated, bot, rank in rows:
        matches.setdefault(match, (bool(rated), []))[1].append((bot, rank))
    ratings, points = Ratings(), {}
    for match, (rated, seats) in matches.items():        # (dicts keep the finishing order)
        if not rated:
            continue
        ratings.add_elo(seats)
        for bot, _ in seats:
            points.setdefault(bot, []).append((match, round(ratings.elo[bot], 1)))
    return points


def quiet(client, db, bots):
    """The pages' points and the database's, read while no match finished."""
    def read():
        before = {bot: page_points(client, bot) for bot in bots}
        again = recomputed(db)
        after = {bot: page_points(client, bot) for bot in bots}
        return (after, again) if before == after else None
    return wait_for(read, 60, "a quiet moment")


def test_the_bot_pages_chart_is_the_stored_matches_ratings_before_and_after_a_restart(
        tmp_path) -> None:
    db = tmp_path / "ladder.sqlite"
    ladder = Ladder(db, LadderSettings(games=["robotgame"], workers=1, check_workers=1,
                                       check_turns=4, check_limits=FAST))
    with TestClient(create_app(ladder)) as client:
        made = {}
        for name in ("example", "rusher", "survivor"):
            answer = upload(client, "robotgame", f"chart {name}",
                            SAMPLES / "robotgame" / f"{name}.py")
            assert answer.status_code == 201, answer.text
            made[answer.json()["id"]] = answer.json()["token"]
        bots = sorted(made)
        first = bots[0]
        challenged = client.post("/api/challenges", json={"bots": bots[:2]},
                                 headers={"authorization": f"Bearer {made[first]}"})
        assert challenged.status_code == 202, challenged.text
        wait_for(lambda: client.get("/api/ladders/robotgame").json()["matches"] >= 7, 240,
                 "7 matches")
        live, truth = quiet(client, db, bots)
    unrated = challenged.json()["match"]
    assert all(unrated not in [m for m, _ in points] for points in live.values())
    assert sum(len(points) for points in truth.values()) >= 12       # 6 rated, 2 bots each
    for bot in bots:
        assert live[bot] == truth.get(bot, []), bot
    # A new server on the same database: the same chart, from the stored matches alone.
    # (A match running when the first server stopped is recorded as it stops: the stored
    # matches may have grown past the quiet moment's, never changed before it.)
    stored = recomputed(db)
    assert all(stored.get(bot, [])[:len(live[bot])] == live[bot] for bot in bots), stored
    again = Ladder(db, LadderSettings(games=["robotgame"]))
    try:
        with TestClient(create_app(again, run=False)) as client:
            assert {bot: page_points(client, bot) for bot in bots} == \
                {bot: stored.get(bot, []) for bot in bots}
            for bot in bots:
                api = client.get(f"/api/bots/{bot}").json()["history"]
                assert [(match, elo) for _, match, elo in api] == stored.get(bot, [])
    finally:
        again.store.close()
