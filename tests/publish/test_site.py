"""`arena publish`: the results site. Its pages escape every bot's text, hold a
strict CSP and no network address, share one viewer, and the command refuses what it
must in one line."""
from __future__ import annotations

import base64
import gzip
import json
import re
import sqlite3
from pathlib import Path

import pytest

from orchestrator import api
from orchestrator.service import publish as sites
from tests.support.cli import arena
from tests.support.publish import HOSTILE_NAME, REPO


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_page_escapes_the_bots_text(site):
    pages = _pages(site)
    assert len(pages) > 5
    for path in [*pages, *site.rglob("*.js")]:
        text = path.read_text()
        # No markup a bot wrote, no raw terminal escape, in any page or data file.
        assert "<script>alert" not in text and "<img src=x" not in text, path
        assert "\x1b" not in text and "\x07" not in text, path
    for path in (site / "replays").glob("*.js"):
        text = path.read_text()
        assert "<" not in text, path        # `</script>` cannot end anything
        # the replay inside: gzipped strict JSON, the bot's markup escaped in it too
        packed = re.fullmatch(r'window\.ARENA_REPLAY_GZ = "([A-Za-z0-9+/=]+)";\n'
                              r'window\.ARENA_REPLAY_SOURCE = "[^"<>]+";\n', text)
        assert packed, text[:200]
        inner = gzip.decompress(base64.b64decode(packed.group(1))).decode()
        assert "<" not in inner and ">" not in inner and "&" not in inner
        names = [p["name"] for p in json.loads(inner)["players"]]
        # the escape as text (replay_view.embed), never the raw control
        shown = HOSTILE_NAME.replace("\x1b", "\\u001b")
        assert len(names) == 2 and set(names) <= {shown, "Hunter", "Turtle"}, names
    index = (site / "index.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[31mX" in index
    assert "&lt;img src=x onerror=alert(2)&gt; strategy \\x1b]52;c;aGk=\\x07 &amp; " \
           "&lt;/pre&gt;" in index
    hostile = next(p for p in (site / "ais").glob("*.html")
                   if "alert(1)" in p.read_text())
    page = hostile.read_text()
    assert "<h1>&lt;script&gt;alert(1)" in page
    # its source, escaped in a <pre>: the docstring's markup stays text
    source = page.split('<pre class="source">', 1)[1].split("</pre>", 1)[0]
    assert "&lt;img src=x onerror=alert(2)&gt;" in source and "\\x1b]52" in source


def test_every_page_has_a_strict_policy_and_no_network_address(site):
    for path in _pages(site):
        text = path.read_text()
        policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">',
                           text)
        assert policy, path
        assert "default-src 'none'" in policy.group(1), path
        assert "unsafe" not in policy.group(1), path
        assert text.index("Content-Security-Policy") < text.index("<body"), path
    for path in site.rglob("*"):
        if path.is_file():
            assert not re.search(r"https?://", path.read_text()), path
    # Only the matrix page has an inline script (allowed by its hash); every other page's
    # scripts are the site's own files.
    for path in _pages(site):
        if path.name != "matrix.html":
            assert "<script>" not in path.read_text(), path


def test_one_viewer_is_shared_and_each_match_adds_its_replay_only(site):
    viewers = list((site / "viewer").glob("*.js"))
    assert [p.name for p in viewers] == ["arena.js"]
    viewer = viewers[0].read_text()
    matches = sorted((site / "matches").glob("*.html"))
    replays = sorted((site / "replays").glob("*.js"))
    assert len(matches) == len(replays) == 3
    for page in matches:
        text = page.read_text()
        assert '<script src="../viewer/arena.js"></script>' in text
        assert "function drawCharts" not in text        # the viewer's code is not copied
        # what a match page adds beyond its replay is far less than a viewer
        assert len(text.encode()) < len(viewer.encode()) / 2, page


def test_the_site_grows_with_matches_but_not_by_a_viewer_each(results, tmp_path):
    """Published with 1 match, then with 3: the two more matches cost their replays and
    pages, not another copy of the viewer each."""
    store = sqlite3.connect(results)
    run_id, = store.execute("SELECT id FROM runs").fetchone()
    one = tmp_path / "one.sqlite"
    store.execute(f"VACUUM INTO '{one}'")
    store.close()
    small = sqlite3.connect(one)
    keep, = small.execute("SELECT match_id FROM run_matches WHERE ordinal = 0").fetchone()
    small.execute("DELETE FROM run_matches WHERE match_id != ?", (keep,))
    small.commit()
    small.close()
    first = api.publish(one, tmp_path / "one", progress=False,
                        sources=[results.parent, REPO / "bots"])
    full = api.publish(results, tmp_path / "full", progress=False, sources=[REPO / "bots"])
    assert (first["matches"], full["matches"]) == (1, 3)
    viewer = (tmp_path / "full/viewer/arena.js").stat().st_size
    replays = sum(p.stat().st_size for p in (tmp_path / "full/replays").glob("*.js")) - \
        sum(p.stat().st_size for p in (tmp_path / "one/replays").glob("*.js"))
    grown = full["bytes"] - first["bytes"]
    assert grown > replays > 0
    assert grown - replays < viewer, (grown, replays, viewer)


def test_a_folder_holding_files_is_refused_unless_forced(results, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    found = arena("publish", str(results), "--out", str(out))
    assert found.returncode == 2
    assert found.stderr.strip().splitlines() == [
        f"error: {out}: the folder is not empty; give another --out, or --force to write "
        f"the site over what is there"]
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    forced = arena("publish", str(results), "--out", str(out), "--force", "--json")
    assert forced.returncode == 0, forced.stderr
    assert (out / "index.html").is_file() and (out / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("args, said", [
    (["--run", "zzz"], "--run zzz: 0 runs match in"),
    (["--sandbox", "nope"], "--sandbox"),
])
def test_bad_input_is_one_error_line(results, tmp_path, args, said):
    found = arena("publish", str(results), "--out", str(tmp_path / "s"), *args)
    assert found.returncode == 2
    lines = found.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], lines
    with pytest.raises(api.InputError, match=re.escape(said)):
        api.publish(results, tmp_path / "s", progress=False,
                    run=args[1] if args[0] == "--run" else None,
                    sandbox=args[1] if args[0] == "--sandbox" else "standard")


def test_a_missing_results_file_is_one_error_line(tmp_path):
    found = arena("publish", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "s"))
    assert found.returncode == 2
    assert found.stderr.strip() == f"error: {tmp_path / 'none.sqlite'}: results file not found"


def test_match_page_says_how_to_play_it_again(results, site):
    store = sqlite3.connect(results)
    match_id, seed = store.execute(
        "SELECT m.id, m.seed FROM run_matches rm JOIN matches m ON m.id = rm.match_id "
        "WHERE rm.ordinal = 0").fetchone()
    engine, = store.execute("SELECT engine_version FROM matches WHERE id = ?",
                            (match_id,)).fetchone()
    store.close()
    page = (site / "matches/1.html").read_text()
    assert f"arena replay results.sqlite:{match_id}" in page
    assert f"--seed {seed}" in page and "--max-turns 12" in page and "--map tiny " in page
    assert f"engine {engine}" in page


def test_penalties_are_worded_in_one_place():
    player = {"status": "erased", "reason": "crash: <b>boom</b>\x1b[2J", "turn": 3,
              "overheats": 0}
    worded = sites.penalty(player)
    assert worded == "erased (crash: <b>boom</b>\\x1b[2J, turn 3)", worded
    assert sites.penalty({**player, "overheats": 2, "errors": ["ValueError: x"]}) == \
        "erased (crash: <b>boom</b>\\x1b[2J, turn 3); 2 overheats, first: ValueError: x"
    assert sites.penalized({"status": "ok", "overheats": 0, "output_dropped": 9})
    assert not sites.penalized({"status": "ok", "overheats": 0})
    assert "&lt;b&gt;" in sites.esc(worded)


def test_a_match_of_a_bot_with_a_hostile_name_replays_from_its_record(results, tmp_path):
    """Its name is text (escaped where shown), not a reason to refuse its record: before,
    `arena replay DB:ID` refused every match it played, and so its site had no replay."""
    store = sqlite3.connect(results)
    match_id, = store.execute("SELECT match_id FROM participants WHERE name = ? LIMIT 1",
                              (HOSTILE_NAME,)).fetchone()
    copy = tmp_path / "results.sqlite"              # its replay is written beside it
    with sqlite3.connect(copy) as target:
        store.backup(target)
    store.close()
    found = api.open_store(copy).replay(match_id)
    assert HOSTILE_NAME in [p["name"] for p in found.data["players"]]


def test_a_visitor_walks_back_from_the_matrix_and_from_a_game_to_its_page(results, site):
    """`matrix.html` had no way back to the standings, and each game of a cell
    was `arena replay runs/replays/ID.json.gz`, a file on the game master's disk; an AI's
    page listed its games without its place in each; a match page's `arena replay` line
    did not say where it runs."""
    matrix = (site / "matrix.html").read_text()
    data = json.loads(re.search(r'id="matrix-data">(.*?)</script>', matrix, re.S).group(1))
    assert data["home"] == "index.html"
    store = sqlite3.connect(results)
    order = dict(store.execute("SELECT m.id, rm.ordinal FROM run_matches rm "
                               "JOIN matches m ON m.id = rm.match_id").fetchall())
    store.close()
    assert data["games"] and set(data["games"]) == set(order)
    for match_id, game in data["games"].items():
        assert "open" not in game
        assert game["page"] == f"matches/{order[match_id] + 1}.html"
        assert (site / game["page"]).is_file()
    assert "arena replay" not in matrix
    page = (site / "ais" / "2.html").read_text()
    assert "<th>#</th><th>place</th>" in page
    rows = re.findall(r'<tr><td><a href="\.\./matches/\d+\.html">\d+</a></td>'
                      r'<td class="n">(\d) of (\d)( \(draw\))?</td>', page)
    assert len(rows) == 2 and all(of == "2" and 1 <= int(place) <= 2
                                  for place, of, _ in rows), rows
    match = (site / "matches" / "1.html").read_text()
    assert ("In the folder that holds the results file <code>results.sqlite</code>"
            in match)
