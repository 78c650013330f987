"""Who owns each piece of a game's state, as the engine says it and as the terminal's panel
lists it: the truth that replays of matches where an AI left are held to."""
from __future__ import annotations

import io
import json
import re
import shutil
import subprocess

import pytest
from rich.console import Console

from orchestrator.views import plain as plain_view
from orchestrator.views import replay as replay_view


def _arena_owners(static: dict, state: dict) -> dict:
    owner = dict(map(tuple, static["owners"]))
    return {("robots", rid): owner[rid] for rid in state.get("robots", {})}


# Where each game keeps the AI index that owns a piece of its state. A game the registry
# holds and this table does not fails tests/replay/test_erased_truth.py, so a new game
# states its own.
OWNERS = {
    "arena": _arena_owners,
    "robotgame": lambda static, state: {("robots", rid): row[1]
                                        for rid, row in state.get("robots", {}).items()},
    "cave": lambda static, state: {("bots", rid): row[0]
                                   for rid, row in state.get("bots", {}).items()},
    "race": lambda static, state: {("bots", rid): row[0]
                                   for rid, row in state.get("bots", {}).items()},
    # the tests' toy game (tests/toy/)
    "toy": lambda static, state: {("players", rid): row[3]
                                  for rid, row in state.get("players", {}).items()},
}


def indexed(frame: dict) -> dict:
    return {key: {row[0]: row for row in rows} for key, rows in frame.items()}


def named(game: str, match, names: list[str]) -> dict:
    owners = OWNERS[game](match.replay_static(), indexed(match.replay_frame()))
    return {piece: names[ai] for piece, ai in owners.items()}


def panel_names(data: dict, state: dict, turn: int) -> list[str]:
    """The names the terminal's score table lists, in its order (one row per AI)."""
    drawn = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    for part in replay_view.drawing(data).panel(data, state, turn):
        drawn.print(part)
    text = drawn.export_text()
    names = [p["name"] for p in data["players"]]
    listed = []
    if replay_view.drawing(data) is plain_view:      # its first line: "0 name  1 name"
        return [word for word in text.splitlines()[0].split() if word in names]
    for line in text.splitlines():
        words = line.split()
        if len(words) > 1 and len(words[0]) == 1 and words[0].isupper():
            words = words[1:]        # the AI's letter, its cue where colour does not show
        first = words[0] if words else ""
        if first in names:
            listed.append(first)
    return listed


def names_in_page(page: str) -> tuple[list[str], dict]:
    """The AI names a replay page gives its renderer, by AI index, and the data it embeds:
    the page's own lines that compute them, run in node on its own data."""
    embedded = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
                         page, re.S)
    assert embedded, "the page holds no replay data"
    shown = json.loads(embedded.group(1))
    script = re.search(r"\n(  const seats = .*?\n)?  const names = [^\n]*\n", page, re.S)
    assert script, "the page computes no names"
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, "-"], capture_output=True, text=True, timeout=60, input=(
        f"const data = {json.dumps(shown)};\n{script.group(0)}\n"
        f"process.stdout.write(JSON.stringify(names));"))        # (the data is too long
    assert done.returncode == 0, done.stderr                        # for node -e)
    return json.loads(done.stdout), shown
