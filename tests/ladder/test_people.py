"""Limits bind people, not tokens. Tokens are free: 16 uploads from one client
gave 16 tokens, each with its own challenge limits; their challenges filled the 64-slot
queue and kept it full, another owner got 6 of 47 challenges accepted, and the flooder got
233 in 34 s against a documented cap of 30 an hour. And a bot's failure streak counted
unrated challenges anyone could send it: three of them suspended it.

Now uploads and challenges are counted per client address (behind a proxy the operator
names, the address it forwards) and per owner (the address a bot was uploaded from: all
its tokens together); the challenge queue is served round robin over its senders; and a
bot is suspended only for rated matches or challenges its own owner asked for.

Everything is counted, nothing timed: the app is driven through its ASGI side, the clock
is the test's, the checks pass at once, and the match pool records what it is given (the
scheduler's own choices), finishing each match at once.
"""
from __future__ import annotations

import asyncio
from collections import Counter
from concurrent.futures import Future

import httpx
import pytest

pytest.importorskip("fastapi", reason="the ladder server needs the server extra")
from fastapi.testclient import TestClient  # noqa: E402

from orchestrator.options import UPLOADS_PENDING, LadderSettings  # noqa: E402
from orchestrator.web.ladder import service  # noqa: E402
from tests.support.cli import arena
from tests.support.ladder import upload  # noqa: E402
from tests.support.ladders import RG, VERDICT, Ladders, RecordingPool, a_replay, auth  # noqa: E402

FLOODER, VICTIM, PROXY = "203.0.113.66", "198.51.100.7", "10.9.9.9"
ROUNDS = 60                 # the one worker plays two matches a round (0.6 s of the clock)


def ladder_with_quick_checks(tmp_path, **options) -> Ladders:
    """Ladders whose uploads' checks pass at once, on the test's clock."""
    made = Ladders(tmp_path, **options)

    def check(game, bot) -> Future:
        future: Future = Future()
        future.set_result({"verdict": dict(VERDICT)})
        return future

    made.ladder.check = check              # type: ignore[method-assign]
    now = [1000.0]
    made.ladder.clock = lambda: now[0]
    made.now = now                         # type: ignore[attr-defined]
    return made


def client(made: Ladders, address: str) -> TestClient:
    return TestClient(made.app, client=(address, 40000))


def bot_of(answer) -> tuple[int, str]:
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], answer.json()["token"]


def flood(made: Ladders) -> dict:
    """The issue's attack: 16 uploads from one address, then every token challenges as
    fast as it is answered, each round; the victim (another owner, another address)
    challenges every other round, 30 times (its own hourly cap). Between rounds the
    worker plays two matches (the scheduler alternates a challenge and a rated match)."""
    flooder, victim = client(made, FLOODER), client(made, VICTIM)
    tokens = [bot_of(upload(flooder, "robotgame", f"flood {i}", RG / "example.py"))
              for i in range(16)]
    mine, my_token = bot_of(upload(victim, "robotgame", "victim", RG / "example.py"))
    pool = RecordingPool(0)
    made.ladder.match_pool = pool
    figures = {"flooder accepted": 0, "victim sent": 0, "victim accepted": 0,
               "victim refused": Counter(), "flooder refused": Counter(), "queue peak": 0,
               "flooder's in queue, peak": 0}
    for round_ in range(ROUNDS):
        made.now[0] += 0.6                                  # type: ignore[attr-defined]
        for bot_id, token in tokens:
            answer = flooder.post("/api/challenges", json={"bots": [bot_id, mine]},
                                  headers=auth(token))
            if answer.status_code == 202:
                figures["flooder accepted"] += 1
            else:
                figures["flooder refused"][answer.status_code] += 1
        if round_ % 2 == 0:
            figures["victim sent"] += 1
            answer = victim.post("/api/challenges", json={"bots": [mine, tokens[0][0]]},
                                 headers=auth(my_token))
            if answer.status_code == 202:
                figures["victim accepted"] += 1
            else:
                figures["victim refused"][answer.status_code] += 1
        figures["queue peak"] = max(figures["queue peak"], len(made.ladder.pending))
        figures["flooder's in queue, peak"] = max(
            figures["flooder's in queue, peak"],
            sum(1 for q in made.ladder.pending if q.lineup[0][0] != mine))
        pool.slots += 2
        started = len(pool.given)
        made.ladder._start_matches()
        for queued in pool.given[started:]:
            made.ladder._finish(queued, {"error": "no worker"})
    return figures


def test_a_flood_of_free_tokens_leaves_the_victim_every_challenge_it_may_send(
        tmp_path) -> None:
    """Before (main): the victim 2 of 30 accepted (28 refused 503: the queue held 64 of
    the flooder's), the flooder 121 accepted in 36 s of the clock. Now: the victim 30 of
    30, the flooder 30, its documented hourly cap, at most 4 waiting at once."""
    made = ladder_with_quick_checks(tmp_path)
    figures = flood(made)
    print(f"\nthe flood, {ROUNDS} rounds: {figures}")
    assert figures["victim sent"] == 30
    assert figures["victim accepted"] == 30, figures
    assert figures["flooder accepted"] == LadderSettings().challenge_rate, figures
    assert figures["flooder's in queue, peak"] <= service.CHALLENGES_PENDING, figures
    assert set(figures["flooder refused"]) == {429}, figures
    made.ladder.store.close()


def test_uploads_are_limited_per_address_and_an_owners_tokens_share_it(tmp_path) -> None:
    made = ladder_with_quick_checks(tmp_path, upload_rate=5)
    flooder = client(made, FLOODER)
    first = bot_of(upload(flooder, "robotgame", "flood 0", RG / "example.py"))
    for i in range(1, 5):
        bot_of(upload(flooder, "robotgame", f"flood {i}", RG / "example.py"))
    refused = upload(flooder, "robotgame", "flood 5", RG / "example.py")
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"] == "too many uploads"
    assert int(refused.headers["retry-after"]) == 3600
    # The owner's token from another address: the owner's count is full too.
    elsewhere = client(made, "192.0.2.50")
    with open(RG / "example.py", "rb") as source:
        version = elsewhere.post(f"/api/bots/{first[0]}/versions", headers=auth(first[1]),
                                 files={"file": ("bot.py", source)})
    assert version.status_code == 429, version.text
    assert "this bot's owner makes at most 5 uploads an hour" in version.json()["reason"]
    # Someone else, from another address, uploads as before.
    bot_of(upload(client(made, VICTIM), "robotgame", "victim", RG / "example.py"))
    made.ladder.store.close()


async def _uploads_at_once(made: Ladders, senders: list[tuple[str, str, bytes]],
                           answer_checks: bool = True) -> list[httpx.Response]:
    """Uploads (address, name, source) sent at once; once each is answered or waits for
    its check in the ladder's queue (the real Ladder.check; no worker takes them), the
    waiting checks pass, and every answer is returned, in the order sent."""
    async def send(address: str, name: str, source: bytes) -> httpx.Response:
        transport = httpx.ASGITransport(app=made.app, client=(address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://ladder") as http:
            return await http.post("/api/bots", data={"game": "robotgame", "name": name},
                                   files={"file": ("bot.py", source)})

    tasks = [asyncio.create_task(send(*sender)) for sender in senders]
    deadline = asyncio.get_running_loop().time() + 60      # (a bound, not a measure)
    while sum(task.done() for task in tasks) + len(made.ladder.checks) < len(tasks):
        assert asyncio.get_running_loop().time() < deadline, "the uploads never settled"
        await asyncio.sleep(0.01)
    made.waiting = len(made.ladder.checks)                  # type: ignore[attr-defined]
    while answer_checks and made.ladder.checks:
        _, future = made.ladder.checks.popleft()
        future.set_result({"verdict": dict(VERDICT)})
    return list(await asyncio.gather(*tasks))


def test_one_address_keeps_few_uploads_waiting_for_their_check(tmp_path) -> None:
    """Each upload is a check in the sandbox and a place in the shared check queue (16),
    and only the hour's count (30) bound one person: 16 uploads sent at once from one
    address all waited for their check, and another person's upload was refused 503 busy
    meanwhile. Now an address, and an owner, has at most `upload_pending` (2) uploads
    waiting; the rest are refused 429 at once, and the victim's waits its turn."""
    made = Ladders(tmp_path)
    source = (RG / "example.py").read_bytes()
    flood = [(FLOODER, f"flood {i}", source) for i in range(16)]
    answers = asyncio.run(_uploads_at_once(made, flood + [(VICTIM, "victim", source)]))
    statuses = Counter(answer.status_code for answer in answers[:16])
    print(f"\n16 uploads at once from one address: {dict(statuses)}, "
          f"{made.waiting} checks waiting; the victim's: {answers[16].status_code}")  # type: ignore[attr-defined]
    assert answers[16].status_code == 201, answers[16].text        # (before: 503 busy)
    assert statuses == {201: UPLOADS_PENDING, 429: 16 - UPLOADS_PENDING}
    assert made.waiting == UPLOADS_PENDING + 1              # type: ignore[attr-defined]
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert refused.json()["error"] == "too many uploads"
    assert refused.json()["reason"] == ("this address's 2 uploads are still waiting for their "
                                        "check; upload again when one is answered")
    assert int(refused.headers["retry-after"]) == service.CHECK_RETRY_S
    # Answered, they free their places: the address uploads again.
    again = asyncio.run(_uploads_at_once(made, [(FLOODER, "again", source)]))
    assert again[0].status_code == 201, again[0].text
    assert made.ladder.uploads_of == {}
    made.ladder.store.close()


def test_an_owners_uploads_waiting_for_their_check_count_from_any_address(tmp_path) -> None:
    """A new version is counted for its bot's owner too: the owner's tokens, sent from
    other addresses while two of its uploads wait, are refused 429."""
    made = Ladders(tmp_path)
    source = (RG / "example.py").read_bytes()
    bot_id, token = bot_of(asyncio.run(_uploads_at_once(made, [(FLOODER, "mine", source)]))[0])

    async def versions() -> list[int]:
        async def send(address: str) -> httpx.Response:
            transport = httpx.ASGITransport(app=made.app, client=(address, 40000))
            async with httpx.AsyncClient(transport=transport, base_url="http://l") as http:
                return await http.post(f"/api/bots/{bot_id}/versions", headers=auth(token),
                                       files={"file": ("bot.py", source + b"# v\n")})
        tasks = [asyncio.create_task(send(f"192.0.2.{i + 1}")) for i in range(5)]
        while sum(task.done() for task in tasks) + len(made.ladder.checks) < 5:
            await asyncio.sleep(0.01)
        waiting = len(made.ladder.checks)
        while made.ladder.checks:
            made.ladder.checks.popleft()[1].set_result({"verdict": dict(VERDICT)})
        answers = await asyncio.gather(*tasks)
        assert waiting == UPLOADS_PENDING
        return sorted(answer.status_code for answer in answers)

    assert asyncio.run(versions()) == [201] * UPLOADS_PENDING + [429] * (
        5 - UPLOADS_PENDING)
    made.ladder.store.close()


def test_an_upload_refused_before_its_check_keeps_no_place(tmp_path) -> None:
    """An upload refused before its check (an empty file, one too large, a full check
    queue) is answered: it holds none of its address's places."""
    made = Ladders(tmp_path, check_queue=0)
    sender = client(made, FLOODER)
    for i in range(2 * UPLOADS_PENDING):
        assert upload(sender, "robotgame", f"e {i}", source=b" \n").status_code == 422
        assert upload(sender, "robotgame", f"b {i}", source=b"x" * (service.MAX_FILE + 1)
                      ).status_code == 413
        assert upload(sender, "robotgame", f"q {i}", RG / "example.py").status_code == 503
    assert made.ladder.uploads_of == {}
    made.ladder.store.close()


def test_serve_refuses_an_upload_pending_under_1(tmp_path) -> None:
    found = arena("serve", "--db", str(tmp_path / "l.sqlite"), "--upload-pending", "0",
                  code=2)
    assert found.stderr.strip() == "error: --upload-pending 0: must be at least 1"


def test_the_counts_of_addresses_gone_quiet_are_forgotten(tmp_path) -> None:
    """Every address that uploaded (or challenged) kept its rate entries for the server's
    life, counted or not: 200 addresses, each uploading once, left 400 entries an hour
    later, and a client with many addresses (an IPv6 /48 holds 65,536 /64s) grew the
    server's memory without bound. Now whoever made nothing within the window is dropped
    (the limits are unchanged: an entry is dropped only once it counts nothing)."""
    made = ladder_with_quick_checks(tmp_path, upload_rate=1)
    source = (RG / "example.py").read_bytes()
    first = client(made, "2001:db8:0:0::1")
    bot_of(upload(first, "robotgame", "v 0", source=source))
    for i in range(1, 200):
        sender = client(made, f"2001:db8:0:{i:x}::1")
        bot_of(upload(sender, "robotgame", f"v {i}", source=source))
    assert len(made.ladder.uploaded_at) == 400
    made.now[0] += service.UPLOAD_WINDOW_S / 2                 # type: ignore[attr-defined]
    assert upload(first, "robotgame", "v again", source=source).status_code == 429
    made.now[0] += service.UPLOAD_WINDOW_S / 2 + 1             # type: ignore[attr-defined]
    bot_of(upload(client(made, "198.51.100.1"), "robotgame", "later", source=source))
    assert set(made.ladder.uploaded_at) == {"address 198.51.100.1", "owner 198.51.100.1"}
    bot_of(upload(first, "robotgame", "v again", source=source))   # its hour is over
    made.ladder.store.close()


def test_an_owners_tokens_share_its_challenges_whatever_address_sends_them(tmp_path) -> None:
    made = ladder_with_quick_checks(tmp_path)
    owner = client(made, FLOODER)
    tokens = [bot_of(upload(owner, "robotgame", f"flood {i}", RG / "example.py"))
              for i in range(6)]
    other, _ = bot_of(upload(client(made, VICTIM), "robotgame", "victim", RG / "example.py"))
    answers = [client(made, f"192.0.2.{i + 1}").post(
        "/api/challenges", json={"bots": [bot_id, other]}, headers=auth(token)).status_code
        for i, (bot_id, token) in enumerate(tokens)]
    assert answers == [202] * service.CHALLENGES_PENDING + [429, 429], answers
    made.ladder.store.close()


def test_the_forwarded_address_is_read_only_from_the_proxies_the_operator_names(
        tmp_path) -> None:
    made = ladder_with_quick_checks(tmp_path, trusted_proxies=[PROXY, "2001:db8:ff::/48"])
    key = made.ladder.client_key
    assert key(PROXY, ["198.51.100.1"]) == "198.51.100.1"
    # A client writes what it likes at the left: the address the proxy saw is the last.
    assert key(PROXY, ["1.1.1.1, 198.51.100.1"]) == "198.51.100.1"
    assert key(PROXY, ["1.1.1.1", "198.51.100.1, 2001:db8:ff::1"]) == "198.51.100.1"
    assert key(PROXY, ["not an address"]) == PROXY
    assert key(PROXY, []) == PROXY
    assert key("198.51.100.9", ["1.1.1.1"]) == "198.51.100.9"        # not a proxy of ours
    assert key("2001:db8:1:2:3:4:5:6", []) == "2001:db8:1:2::/64"
    assert key("::ffff:198.51.100.9", []) == "198.51.100.9"
    # Through the app: a client that is no proxy, spoofing the header, is itself.
    spoofer = client(made, FLOODER)
    bots = [bot_of(upload(spoofer, "robotgame", f"s {i}", RG / "example.py"))
            for i in range(2)]
    answers = [spoofer.post("/api/challenges", json={"bots": [bots[0][0], bots[1][0]]},
                            headers={**auth(bots[0][1]), "X-Forwarded-For": f"192.0.2.{i}"}
                            ).status_code for i in range(6)]
    assert answers == [202] * 4 + [429, 429], answers
    # Behind the proxy, two people are two.
    proxy = client(made, PROXY)
    made_by = {}
    for person in ("192.0.2.10", "192.0.2.11"):
        with open(RG / "example.py", "rb") as source:
            made_by[person] = bot_of(proxy.post(
                "/api/bots", data={"game": "robotgame", "name": f"p {person}"},
                files={"file": ("bot.py", source)}, headers={"X-Forwarded-For": person}))
    assert {made.ladder.owner_of[bot_id] for bot_id, _ in made_by.values()} == {
        "192.0.2.10", "192.0.2.11"}
    made.ladder.store.close()


def test_serve_refuses_a_trusted_proxy_that_is_no_address(tmp_path) -> None:
    found = arena("serve", "--db", str(tmp_path / "l.sqlite"), "--trusted-proxy",
                  "proxy.example", code=2)
    assert found.stderr.strip() == ("error: --trusted-proxy proxy.example: give an address "
                                    "or a network (10.0.0.1, 10.0.0.0/8, ::1)")


def erased_in(made: Ladders, queued, victim: int) -> None:
    """A started match recorded as a worker returns it, `victim` erased."""
    players = [{"name": f"bot {bot_id}", "seat": seat, "bot": f"ladder/{bot_id}/v1/bot.py",
                "rank": 2 if bot_id == victim else 1,
                "status": "erased" if bot_id == victim else "ok",
                "reason": "cpu time limit" if bot_id == victim else None, "cpu_s": 0.1,
                "output": "", "sha256": "0" * 64, "turn": 2, "overheats": 0,
                "peak_rss_mb": 10.0, "stats": {}}
               for seat, (bot_id, _) in enumerate(queued.lineup)]
    result = {"game": "robotgame", "engine_version": "0", "seed": queued.seed,
              "map": "default", "turns": 3, "end": "turn_limit", "players": players,
              "rules": {}, "restarts": 0, "sandbox_mode": "standard", "sandbox": [],
              "sandbox_missing": {}, "replay": None}
    made.ladder._finish(queued, {"result": result, "wall_s": 1.0, "replay": a_replay()})


def challenged(made: Ladders, sender: TestClient, token: str, lineup: list[int]):
    """A challenge, sent and started at once (the pool takes only challenges here)."""
    answer = sender.post("/api/challenges", json={"bots": lineup}, headers=auth(token))
    assert answer.status_code == 202, answer.text
    (queued,) = [q for q in made.ladder.pending if q.id == answer.json()["match"]]
    made.ladder.pending.remove(queued)
    made.ladder.running[queued.id] = "d" * 24
    return queued


def test_a_stranger_s_challenges_never_suspend_a_bot_its_owner_s_do(tmp_path) -> None:
    made = ladder_with_quick_checks(tmp_path)
    made.ladder.replays.mkdir(parents=True, exist_ok=True)
    alice, alice_token = bot_of(upload(client(made, VICTIM), "robotgame", "alice",
                                       RG / "example.py"))
    mallory, mallory_token = bot_of(upload(client(made, FLOODER), "robotgame", "mallory",
                                           RG / "example.py"))
    bob, _ = bot_of(upload(client(made, "192.0.2.3"), "robotgame", "bob", RG / "example.py"))
    for _ in range(service.SUSPEND_AFTER + 2):
        erased_in(made, challenged(made, client(made, FLOODER), mallory_token,
                                   [mallory, alice]), alice)
    assert made.ladder.bots[alice].status == "active", made.ladder.bots[alice].reason
    for _ in range(service.SUSPEND_AFTER):
        erased_in(made, challenged(made, client(made, VICTIM), alice_token, [alice, bob]),
                  alice)
    assert made.ladder.bots[alice].status == "suspended"
    assert made.ladder.bots[alice].reason.startswith("erased in 3 matches in a row")
    # A restart replays the history the same: the stranger's challenges still not counted.
    db = made.ladder.db_path
    made.ladder.store.close()
    again = service.Ladder(db, LadderSettings(games=["robotgame", "race"]))
    assert again.bots[alice].streak == service.SUSPEND_AFTER
    assert again.bots[alice].status == "suspended"
    again.store.close()
