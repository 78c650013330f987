"""A replay shared by someone else, shown inline in a notebook (`api.load_replay`): every
string in it is hostile. Whatever it holds, the cell shows one sandboxed iframe and nothing
else, and the page inside it runs only the viewer's own scripts (a red team's finding)."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from orchestrator import api

# Ways out of an attribute, a <script> block, a JSON string and an HTML comment.
HOSTILE = ['"><script>alert(1)</script>', "'><img src=x onerror=alert(1)>",
           "</script><script>alert(2)</script>", "<!--<script>", "\u2028alert(3)\u2029",
           "</iframe><script>alert(4)</script>", "&quot; onload=&quot;alert(5)",
           "__REPLAY_JSON__", "/*__RENDERER__*/"]


class Elements(HTMLParser):
    """The start tags of a page, with their attributes, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append((tag, dict(attrs)))


def tags(page: str) -> list[tuple[str, dict]]:
    found = Elements()
    found.feed(page)
    return found.tags


def hostile_replay(tmp_path) -> api.Replay:
    path = tmp_path / "shared.json.gz"
    api.play(["hunter", "beeline"], seed=1, max_turns=3, replay=path, progress=False)
    data = api.load_replay(path).to_json()
    for i, player in enumerate(data["players"]):
        player["name"] = HOSTILE[i % len(HOSTILE)]
    data["map"]["name"] = HOSTILE[2]
    data["output"] = {text: text * 2 for text in HOSTILE}
    data["result"]["winner"] = HOSTILE[3]
    for player in data["result"]["players"]:
        player["reason"] = HOSTILE[5]
    api.Replay.from_dict(data).save(path)
    return api.load_replay(path)


def test_a_hostile_replay_shows_as_one_sandboxed_iframe_running_only_the_viewer(
        tmp_path) -> None:
    replay = hostile_replay(tmp_path)
    shown = replay._repr_html_()
    assert [tag for tag, _ in tags(shown)] == ["iframe"]
    frame = tags(shown)[0][1]
    assert frame["sandbox"] == "allow-scripts"       # no same-origin: not the notebook's
    page = frame["srcdoc"]
    assert page == html.unescape(re.search(r'srcdoc="([^"]*)"', shown).group(1))
    clean = api.Replay.from_dict({**replay.to_json(), "players": [], "output": {}}).html()
    # The same elements as the viewer's own page: no script, handler or frame was added.
    assert [tag for tag, _ in tags(page)] == [tag for tag, _ in tags(clean)]
    assert not any(name.startswith("on") for _, attrs in tags(page) for name in attrs)
    data_block = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                           page, re.S).group(1)
    assert not re.search(r"[<>&\u2028\u2029]", data_block)
    assert page.count("<script") == clean.count("<script") == 3  # replay, source, viewer
