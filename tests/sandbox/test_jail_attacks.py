"""Attacks on what `--sandbox match` sends back to the host (issue 33, the red team's round).

A match jail's bots can reach the code that makes its result (docs/security.md), so the
result is data a bot may have written. One the host could not tally or store (a rank that
is text, a seat gone, bytes, NaN, another match's players) must not stop a batch with a
traceback: the match is played again in the standard mode and says so, and the host is
unharmed. The framing attacks (another AI charged through what the jail's bots share) are
cases of the hostile suite (tests/hostile/api_framer.py, gc_framer_masked.py).
"""
from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess

import pytest

from tests.conftest import ARENA_CMD, BOTS, HOST_WIDE, HOSTILE

pytestmark = HOST_WIDE
FORGER = HOSTILE / "jail" / "result_forger.py"
KINDS = ("rank", "seat", "bytes", "players", "nan", "identity")


@pytest.mark.parametrize("kind", KINDS)
def test_a_result_forged_out_of_shape_is_played_again_in_the_standard_mode(
        kind, tmp_path, no_stray_processes) -> None:
    bot = tmp_path / "result_forger.py"
    bot.write_text(FORGER.read_text().replace("KIND = 'rank'", f"KIND = {kind!r}"))
    db = tmp_path / "runs.sqlite"
    done = subprocess.run(
        [*ARENA_CMD, "batch", str(bot), str(BOTS / "hunter.py"), "--seeds", "2",
         "--max-turns", "5", "--sandbox", "match", "--workers", "1", "--db", str(db),
         "--replays", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)                 # strict JSON: no NaN reached it
    assert report["matches"] == 2
    assert {p["name"]: (p["matches"], p["erased"], p["load_errors"])
            for p in report["players"]} == {"ResultForger": (2, 0, 0), "Hunter": (2, 0, 0)}
    with sqlite3.connect(db) as conn:
        modes = [row[0] for row in conn.execute("SELECT sandbox FROM matches")]
        ranks = {row[0] for row in conn.execute("SELECT typeof(rank) FROM participants")}
        replays = [row[0] for row in conn.execute("SELECT replay FROM matches")]
    assert modes == ["standard", "standard"]         # played again, and recorded so
    assert ranks == {"integer"}
    for path in replays:
        replay = json.loads(gzip.decompress(open(path, "rb").read()))
        assert {p["name"] for p in replay["players"]} == {"ResultForger", "Hunter"}


def test_the_forger_plays_on_in_a_child_of_its_own(tmp_path, no_stray_processes) -> None:
    """The control: in the standard mode the forger finds nothing to forge, and a batch
    records it as any bot."""
    db = tmp_path / "runs.sqlite"
    done = subprocess.run(
        [*ARENA_CMD, "batch", str(FORGER), str(BOTS / "hunter.py"), "--seeds", "1",
         "--max-turns", "5", "--workers", "1", "--db", str(db), "--json"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["matches"] == 1
