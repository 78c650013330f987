"""Red team of the ladder's doors: what the server tells any client, and what an
uploader can make its pages show. Each test is an attack that worked before its fix."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the ladder server needs the server extra")
from fastapi.testclient import TestClient  # noqa: E402

from orchestrator.web.ladder.app import create_app  # noqa: E402
from tests.support.ladders import VERDICT, Ladders, a_replay  # noqa: E402

# What a match and a check record about the server: its sandbox's layers, those it lacks
# and why (a machine without Landlock or seccomp says so), and its replays' folder.
MISSING = {"landlock": "this kernel has no Landlock", "seccomp": "no libseccomp"}


@pytest.fixture
def ladder(tmp_path):
    made = Ladders(tmp_path)
    made.add("alice")
    made.add("bob")
    yield made
    made.ladder.store.close()


def played(made: Ladders, reason: str | None = None) -> int:
    """A match between alice and bob, recorded the way the match loop records a worker's
    outcome (a result as `arena run --json` prints it, and its replay's bytes)."""
    ladder = made.ladder
    ladder.replays.mkdir(parents=True, exist_ok=True)
    lineup = [made.bots["alice"], made.bots["bob"]]
    queued = ladder.store.enqueue("robotgame", "default", [(i, 1) for i, _ in lineup], True)
    ladder.running[queued.id] = "d" * 24
    players = [{"name": name, "seat": seat, "bot": f"ladder/{i}/v1/bot.py", "rank": seat + 1,
                "status": "ok" if seat else "erased", "reason": None if seat else reason,
                "cpu_s": 0.1, "output": "", "sha256": "0" * 64,
                "turn": None, "overheats": 0, "peak_rss_mb": 10.0, "stats": {}}
               for seat, (name, (i, _)) in enumerate(zip(("alice", "bob"), lineup, strict=True))]
    result = {"game": "robotgame", "engine_version": "0", "seed": queued.seed,
              "map": "default", "turns": 3, "end": "turn_limit", "players": players,
              "rules": {}, "restarts": 0,
              "sandbox_mode": "standard", "sandbox": ["seccomp"], "sandbox_missing": MISSING,
              "replay": None}
    ladder._finish(queued, {"result": result, "wall_s": 1.0,
                            "replay": a_replay()})
    return queued.id


def test_a_match_tells_no_client_the_servers_sandbox_or_its_folders(ladder) -> None:
    """/api/matches/ID (and its page) gave anyone the server's missing sandbox layers, with
    why, and the replay's absolute path on the server's disk."""
    match = played(ladder)
    folder = str(ladder.ladder.replays)
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        answer = client.get(f"/api/matches/{match}")
        page = client.get(f"/matches/{match}")
    assert answer.status_code == 200 and page.status_code == 200
    shown = answer.json()
    assert shown["players"][0]["name"] == "alice" and shown["id"] == match
    for key in ("sandbox", "sandbox_missing", "replay"):
        assert key not in shown
    assert folder not in answer.text and "Landlock" not in answer.text
    assert folder not in page.text
    # the operator keeps them: the database's result is the match's own
    stored = json.loads(ladder.ladder.store.result(match))
    assert stored["sandbox_missing"] == MISSING and stored["replay"].startswith(folder)


def test_an_uploads_answer_tells_the_uploader_nothing_of_the_servers_sandbox(ladder) -> None:
    """The check's verdict came back whole in the upload's answer (201): any uploader read
    which sandbox layers the server lacks, and why."""
    lad = ladder.ladder
    verdict = VERDICT | {"sandbox": ["seccomp"], "sandbox_missing": MISSING,
                         "sandbox_mode": "standard"}
    made = lad.add_bot("robotgame", "carol", lad.submission(
        "robotgame", "carol", "bot.py", b"class Robot:\n    pass\n"), verdict)
    assert made["check"]["ok"] is True and made["check"]["sandbox_mode"] == "standard"
    assert "sandbox_missing" not in made["check"] and "sandbox" not in made["check"]
    again = lad.add_version(made["id"], lad.submission(
        "robotgame", "carol", "bot.py", b"class Robot:\n    pass\n# 2\n"), verdict)
    assert "sandbox_missing" not in again["check"] and "sandbox" not in again["check"]


@pytest.mark.parametrize("name", ["alice ", " alice", "alice  ", "bob\t", "a  b"])
def test_a_name_that_shows_as_another_is_refused(ladder, name) -> None:
    """HTML collapses runs of spaces and shows no trailing one: `alice ` beside `alice` was
    accepted (names were unique as strings), and every page showed two alices; `a  b`
    shows as `a b`. (No check queue: a name that passed would be refused 503, not hang.)"""
    ladder.ladder.check_queue = 0
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        answer = client.post("/api/bots", data={"game": "robotgame", "name": name},
                             files={"file": ("bot.py", b"class Robot:\n    pass\n")})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "bad name"
    assert "spaces" in answer.json()["reason"]


def test_a_retired_bots_token_starts_no_check(ladder) -> None:
    """A retired bot's token still uploaded new versions: each was read and played by a
    check worker (the check queue's place taken) before add_version refused it. Now it is
    refused from the headers. (No check queue here: a version that reached the check was
    refused 503 busy.)"""
    bot_id, token = ladder.bots["alice"]
    ladder.ladder.check_queue = 0
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        assert client.delete(f"/api/bots/{bot_id}",
                             headers={"authorization": f"Bearer {token}"}).status_code == 204
        answer = client.post(f"/api/bots/{bot_id}/versions",
                             headers={"authorization": f"Bearer {token}"},
                             files={"file": ("bot.py", b"class Robot:\n    pass\n")})
        challenge = client.post("/api/challenges", json={"bots": [bot_id, ladder.bots["bob"][0]]},
                                headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 422 and answer.json()["error"] == "retired", answer.text
    assert challenge.status_code == 401


CROSS_SITE = {"origin": "http://evil.example", "sec-fetch-site": "cross-site"}


@pytest.mark.parametrize("path", ["/api/bots", "/upload"])
@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_another_sites_page_cannot_upload_to_a_ladder(ladder, path, site) -> None:
    """Uploads need no token, and multipart is a form's own encoding: any page the operator
    opened could post a bot to a ladder bound to 127.0.0.1 (a form, or a no-cors fetch,
    sent without a preflight), and a check worker played its code. A browser says where
    a request comes from in Sec-Fetch-Site, which no page can set: another site's (or
    another port's) is refused, unread. (No check queue: an upload that passed was 503.)"""
    ladder.ladder.check_queue = 0
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        sent = client.post(path, data={"game": "robotgame", "name": "mallory"},
                           files={"file": ("bot.py", b"class Robot:\n    pass\n")},
                           headers=CROSS_SITE | {"sec-fetch-site": site})
        own = client.post(path, data={"game": "robotgame", "name": "mallory"},
                          files={"file": ("bot.py", b"class Robot:\n    pass\n")},
                          headers={"sec-fetch-site": "same-origin"})
        plain = client.post("/api/bots", data={"game": "robotgame", "name": "mallory"},
                            files={"file": ("bot.py", b"class Robot:\n    pass\n")})
    assert sent.status_code == 403, sent.text
    assert "cross-site" in sent.text and sent.headers["connection"] == "close"
    assert "content-security-policy" in sent.headers
    assert own.status_code == plain.status_code == 503       # on to the check (no queue)


def test_a_ladder_on_the_loopback_answers_only_its_own_names(ladder) -> None:
    """DNS rebinding: a name the attacker controls, resolved to 127.0.0.1, makes their
    page same-origin with a ladder bound there (Sec-Fetch-Site: same-origin), so it can
    read the pages and post uploads as the operator's own page would. `arena serve`
    bound to a loopback address served any Host."""
    from orchestrator.web.ladder.app import trusted_hosts

    assert trusted_hosts("127.0.0.1") == trusted_hosts("::1") == trusted_hosts("localhost")
    assert trusted_hosts("0.0.0.0") is None and trusted_hosts("192.0.2.7") is None
    app = create_app(ladder.ladder, run=False, hosts=trusted_hosts("127.0.0.1"))
    board = "/api/ladders/robotgame"    # (health is 503 here: this app runs no loop)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get(board).status_code == 200
        for host in ("localhost:8000", "[::1]:8000"):
            assert client.get(board, headers={"host": host}).status_code == 200
        rebound = client.get(board, headers={"host": "rebind.evil.example:8000"})
        upload = client.post("/api/bots", headers={"host": "rebind.evil.example:8000",
                                                   "sec-fetch-site": "same-origin"},
                             data={"game": "robotgame", "name": "mallory"},
                             files={"file": ("bot.py", b"class Robot:\n    pass\n")})
    assert rebound.status_code == 400 and upload.status_code == 400


def test_a_bots_text_on_a_page_reorders_nothing_and_hides_nothing(ladder) -> None:
    """A match's (or a check's) reason quotes the bot's exception, any text it chose: a
    right-to-left override in it reversed the rest of its cell on the match page (and
    on the bot's page, as its suspension's reason), and a zero-width or control character
    hid there. Autoescaping stops markup, not these; they are now shown as escapes."""
    reason = "exception: ValueError: \u202egnp.exe\u200b\x1b]0;x\x07 <b>bold</b>"
    match = played(ladder, reason)
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        page = client.get(f"/matches/{match}").text
    assert "\u202e" not in page and "\u200b" not in page and "\x1b" not in page
    assert "ValueError: \\u202egnp.exe\\u200b\\x1b]0;x\\x07 &lt;b&gt;bold&lt;/b&gt;" in page


@pytest.mark.parametrize("token", ["nope", "", "x" * 8000, "\u0661"])
def test_a_wrong_token_costs_the_server_no_reading_of_the_replay(ladder, monkeypatch,
                                                                  token) -> None:
    """`GET /api/matches/N/replay` with any `Authorization: Bearer` header read, unzipped
    and checked the whole replay before it looked at the token: a client with a junk
    token made the server parse every replay it liked, as often as it liked, for a 401
    (the public replay is sent as a file, unread). Now the token is checked against the
    match's seats first."""
    from orchestrator.web.ladder import service

    match = played(ladder)
    loads = []
    real_load = service.replay.load
    monkeypatch.setattr(service.replay, "load",
                        lambda *args, **kw: loads.append(args) or real_load(*args, **kw))
    alice_token = ladder.bots["alice"][1]
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        refused = [client.get(f"/api/matches/{match}/replay",
                              headers={"authorization": f"Bearer {token}".encode()})
                   for _ in range(5)]
        assert loads == []
        own = client.get(f"/api/matches/{match}/replay",
                         headers={"authorization": f"Bearer {alice_token}"})
    assert {answer.status_code for answer in refused} == {401}, refused[0].text
    assert refused[0].json()["error"] == "unauthorized"
    assert own.status_code == 200 and len(loads) == 1


@pytest.mark.parametrize("name", ["Alice", "ALICE", "aIice", "a1ice", "AIICE", "b0b", "BOB",
                                  "B0b"])
def test_a_name_that_passes_for_another_bots_is_taken(ladder, name) -> None:
    """Names were unique only as strings: `aIice` (a capital I), which the pages' sans-serif
    font draws as `alice`, joined the leaderboard beside alice, and so did `Alice` and
    `b0b`. A name that differs from another of its game only in case, or in I l 1 and
    O 0, is now taken. (No check queue: a name that passed would be refused 503.)"""
    ladder.ladder.check_queue = 0
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        answer = client.post("/api/bots", data={"game": "robotgame", "name": name},
                             files={"file": ("bot.py", b"class Robot:\n    pass\n")})
        elsewhere = client.post("/api/bots", data={"game": "race", "name": name},
                                files={"file": ("bot.py", b"x = 1\n")})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "name taken"
    original = "alice" if "c" in name.lower() else "bob"
    assert answer.json()["reason"].startswith(f"robotgame already has a bot named "
                                              f"'{original}'")
    assert elsewhere.status_code == 503, elsewhere.text       # another game: on to the check


def test_names_unlike_any_other_are_free(ladder) -> None:
    ladder.ladder.check_queue = 0
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        for name in ("alicia", "alice2", "bobby", "a-lice", "al ice"):
            answer = client.post("/api/bots", data={"game": "robotgame", "name": name},
                                 files={"file": ("bot.py", b"class Robot:\n    pass\n")})
            assert answer.status_code == 503, (name, answer.text)


def test_a_replay_viewer_asked_for_again_is_not_rendered_again(ladder, monkeypatch) -> None:
    """A viewer page read and rendered its replay at each request (86 ms of CPU for a
    Robot Game match of 100 turns, against milliseconds for the other pages): one
    anonymous client asking for it again and again kept the server busy. A finished
    match's replay never changes; its page is now rendered once and kept."""
    from orchestrator.web.ladder import app as ladder_app

    match = played(ladder)
    renders = []
    real_page = ladder_app.replay_view.page
    monkeypatch.setattr(ladder_app.replay_view, "page",
                        lambda data: renders.append(1) or real_page(data))
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        pages = [client.get(f"/matches/{match}/viewer") for _ in range(5)]
        missing = [client.get("/matches/4242/viewer") for _ in range(2)]
    assert {page.status_code for page in pages} == {200}
    assert len({(page.text, page.headers["content-security-policy"]) for page in pages}) == 1
    assert "script-src 'sha256-" in pages[0].headers["content-security-policy"]
    assert len(renders) == 1, len(renders)
    assert {page.status_code for page in missing} == {404}


@pytest.mark.parametrize("path", ["/api/bots", "/upload"])
def test_an_answer_that_shows_a_token_is_kept_by_no_cache(ladder, path) -> None:
    """An upload's answer (its JSON, and the /upload page) shows the bot's token, once;
    it was sent with no Cache-Control, so the browser's history (Back, on a shared
    machine) or a proxy could keep it. It is now `private, no-store`."""
    from concurrent.futures import Future

    from orchestrator.web.ladder.service import token_hash

    def check(game, bot) -> Future:
        future: Future = Future()
        future.set_result({"verdict": VERDICT | {"turns": 4, "cpu_s": 0.1}})
        return future

    ladder.ladder.check = check                 # type: ignore[method-assign]
    with TestClient(create_app(ladder.ladder, run=False)) as client:
        answer = client.post(path, data={"game": "robotgame", "name": "carol"},
                             files={"file": ("bot.py", b"class Robot:\n    pass\n")})
    assert answer.status_code == 201, answer.text
    token = answer.json()["token"] if path.startswith("/api") else \
        answer.text.split('<pre id="token">')[1].split("<")[0]
    assert ladder.ladder.bots[ladder.ladder.by_token[token_hash(token)]].name == "carol"
    assert answer.headers["cache-control"] == "private, no-store"
