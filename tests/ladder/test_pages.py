"""The ladder's pages: rendered, escaped, and sent under a policy that allows nothing from
other origins."""
from __future__ import annotations

import re

import pytest

from tests.support.ladder import SAMPLES, upload, wait_for

# One pytest-xdist worker for the module: its module-scoped fixtures (a ladder, a browser,
# a recorded match) would be made again on each worker that drew one of its tests.
pytestmark = pytest.mark.xdist_group("ladder-pages")

INJECTION = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def played(served):
    client, _ = served
    for name in ("page example", "page rusher"):
        answer = upload(client, "robotgame", name, SAMPLES / "robotgame" /
                        f"{name.split()[1]}.py")
        assert answer.status_code == 201, answer.text
    match = wait_for(lambda: client.get("/api/matches", params={"game": "robotgame"}
                                        ).json()["matches"], 120, "a match")[0]
    return client, match


def test_every_page_renders_with_the_policy(played) -> None:
    client, match = played
    bot = match["players"][0]["bot"]
    for path, expect in (("/", "Latest matches"), ("/ladder/robotgame", "robotgame ladder"),
                         (f"/bots/{bot}", "Versions"), (f"/matches/{match['id']}", "<iframe"),
                         ("/upload", 'enctype="multipart/form-data"')):
        page = client.get(path)
        assert page.status_code == 200, path
        assert expect in page.text, path
        policy = page.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "unsafe" not in policy
        assert not re.search(r"https?://", policy)
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.text), path
        assert "<script" not in page.text, f"{path}: our pages need no script"
    assert client.get("/bots/4242").status_code == 404
    assert "no bot with id 4242" in client.get("/bots/4242").text


def test_the_ladder_page_draws_the_rating_chart(played) -> None:
    client, _ = played
    wait_for(lambda: client.get("/api/ladders/robotgame").json()["matches"] >= 3, 120)
    page = client.get("/ladder/robotgame").text
    assert "<svg" in page and page.count("<polyline") >= 2
    assert "page example" in page and "page rusher" in page
    assert ">Elo</text>" in page and ">matches played on the ladder</text>" in page
    # Both axes have their values: the match count's first and last along the bottom, and
    # the Elo up the left (one value when every rating is still equal, as when the first
    # matches were drawn: the matches' seeds are drawn from the OS, so their outcome is not
    # fixed).
    y_ticks = re.findall(r'<text class="tick"[^>]*text-anchor="end"', page)
    x_ticks = re.findall(r'<text class="tick"[^>]*text-anchor="middle"', page)
    assert len(x_ticks) == 2 and len(y_ticks) >= 1, (x_ticks, y_ticks)


def test_the_api_is_described_on_a_page_of_our_own_and_as_openapi(served) -> None:
    client, _ = served
    schema = client.get("/openapi.json").json()
    operations = {(method.upper(), path) for path, ops in schema["paths"].items()
                  for method in ops}
    api_routes = {(method, route.path) for route in client.app.routes
                  if route.path.startswith("/api/") for method in route.methods}
    assert api_routes and api_routes <= operations
    page = client.get("/docs")
    assert page.status_code == 200
    for method, path in api_routes:
        assert f"<code>{method}</code></td><td><code>{path}</code>" in page.text, path
    assert "Authorization: Bearer" in page.text and "/api/bots/7/versions" in page.text
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "<script" not in page.text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page.text)


def test_the_viewer_page_allows_only_its_own_inline_script_and_style(played) -> None:
    client, match = played
    page = client.get(f"/matches/{match['id']}/viewer")
    assert page.status_code == 200 and 'id="replay-data"' in page.text
    policy = page.headers["content-security-policy"]
    assert re.search(r"script-src 'sha256-[A-Za-z0-9+/=]+';", policy), policy
    assert "unsafe-inline" not in policy and "default-src 'none'" in policy


def test_a_rejected_injection_name_comes_back_escaped_on_the_form(served) -> None:
    client, _ = served
    page = client.post("/upload", data={"game": "robotgame", "name": INJECTION},
                       files={"file": ("b.py", b"def act(self, game):\n    return ['guard']\n")})
    assert page.status_code == 422
    assert INJECTION not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


def test_bot_text_on_a_match_page_is_escaped(served) -> None:
    client, ladder = served
    # A reason and a name that got into a stored result (as a bot's error text could).
    with ladder.lock:
        row = ladder.store.db.execute("SELECT match, result FROM ladder_results WHERE "
                                      "error IS NULL LIMIT 1").fetchone()
    import json
    result = json.loads(row[1])
    result["players"][0]["reason"] = INJECTION
    with ladder.lock:
        ladder.store.db.execute("UPDATE ladder_results SET result = ? WHERE match = ?",
                                (json.dumps(result), row[0]))
    page = client.get(f"/matches/{row[0]}").text
    assert INJECTION not in page and "&lt;script&gt;" in page


def test_the_upload_form_shows_the_verdict_and_the_token_once(served) -> None:
    client, _ = served
    source = (SAMPLES / "robotgame" / "survivor.py").read_bytes()
    page = client.post("/upload", data={"game": "robotgame", "name": "form survivor"},
                       files={"file": ("survivor.py", source)})
    assert page.status_code == 201
    token = re.search(r'<pre id="token">([^<]+)</pre>', page.text).group(1)
    assert len(token) >= 40 and "passed the check" in page.text
    bot_id = int(re.search(r'href="/bots/(\d+)"', page.text).group(1))
    assert token not in client.get(f"/bots/{bot_id}").text
    refused = client.post("/upload", data={"game": "robotgame", "name": "form survivor"},
                          files={"file": ("survivor.py", source)})
    assert refused.status_code == 422 and "name taken" in refused.text


def test_a_hostile_host_header_is_text_on_the_api_page(served) -> None:
    """/docs shows the server's address in its curl lines, from the request's Host header:
    whatever a client sends there never becomes markup. Sent to the
    ASGI app as it is: an HTTP client would not send such a Host."""
    import asyncio

    client, _ = served
    host = b'x"><script>alert(1)</script>'
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": "/docs", "raw_path": b"/docs",
             "query_string": b"", "root_path": "", "headers": [(b"host", host)],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8000)}
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    asyncio.run(client.app(scope, receive, send))
    headers = dict(sent[0]["headers"])
    page = b"".join(m.get("body", b"") for m in sent[1:]).decode()
    assert sent[0]["status"] == 200 and "Upload a new bot" in page
    assert "<script" not in page and host.decode() not in page    # escaped, or left out
    assert b"default-src 'none'" in headers[b"content-security-policy"]


def test_a_bots_page_says_its_description_as_text(served) -> None:
    """A bot's pithy description (its file's docstring) under its name, escaped."""
    client, _ = served
    source = (SAMPLES / "robotgame" / "rusher.py").read_bytes().replace(
        b"# Rusher: hits", b"# Rusher " + INJECTION.encode() + b"\x1b[31m: hits", 1)
    answer = upload(client, "robotgame", "described rusher", source=source)
    assert answer.status_code == 201, answer.text
    page = client.get(f"/bots/{answer.json()['id']}").text
    assert INJECTION not in page and "\x1b" not in page
    assert ('<p class="description">Rusher &lt;script&gt;alert(1)&lt;/script&gt;\\x1b[31m: '
            'hits the weakest enemy') in page
