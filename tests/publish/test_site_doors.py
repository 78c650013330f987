"""What the host writes is a door too: `arena publish --force` into a folder with
planted links (`index.html -> ../outside/victim.txt`, `replays -> ../outdir`) wrote the
index over the outside file, wrote replays into the outside folder and deleted them there;
and a results file someone else made had the publisher's disk opened where its records
pointed, the page telling whether a file exists and naming the publisher's folders.

Each test plants what the attacker would, publishes, and checks that nothing outside the
site's folder was written or deleted, and that no page names a path of the publisher's or
says anything of a file outside the results file's folder and the `--sources` given."""
from __future__ import annotations

import base64
import gzip
import html
import json
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator import api, host_files
from orchestrator.games import GAMES
from orchestrator.service import publish as sites

REPO = Path(__file__).resolve().parents[2]
ARENA = [sys.executable, "-m", "orchestrator"]
BOTS = ("hunter", "turtle", "randy")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A round robin of three arena bots, copied into the results file's folder (so the
    site may read them), 6 turns a match on the tiny map, no replays kept."""
    folder = tmp_path_factory.mktemp("doors") / "runs"
    (folder / "bots").mkdir(parents=True)
    for bot in BOTS:
        shutil.copy(REPO / f"bots/arena/{bot}.py", folder / "bots" / f"{bot}.py")
    db = folder / "results.sqlite"
    api.tournament([str(folder / "bots" / f"{bot}.py") for bot in BOTS], format="round-robin",
                   games=1, map="tiny", max_turns=6, first_seed=5, workers=1, db=db,
                   progress=False)
    return db


def _copy(run: Path, where: Path) -> Path:
    """The results file and its bots, in a folder of the test's own (its records naming
    the bots there)."""
    shutil.copytree(run.parent, where)
    _forge(where / run.name, {f"{bot}.py": str(where / "bots" / f"{bot}.py") for bot in BOTS})
    return where / run.name


def _publish(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*ARENA, "publish", *args], capture_output=True, text=True,
                          timeout=300)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _pages(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): p.read_text(encoding="utf-8")
            for p in sorted(site.rglob("*")) if p.is_file() and p.suffix in (".html", ".js")}


def _planted(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The site's folder holding `index.html -> ../outside/victim.txt` and
    `replays -> ../outdir`, where outdir holds files named as the site's replays."""
    (tmp_path / "outside").mkdir()
    victim = tmp_path / "outside" / "victim.txt"
    victim.write_text("the victim's own\n")
    outdir = tmp_path / "outdir"
    outdir.mkdir()
    for n in (1, 2, 3):
        (outdir / f"{n}.js").write_text(f"not the site's {n}\n")
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").symlink_to("../outside/victim.txt")
    (out / "replays").symlink_to("../outdir")
    return out, victim, outdir


def test_force_over_planted_links_is_one_error_line_and_touches_nothing(run, tmp_path):
    db = _copy(run, tmp_path / "runs")
    (db.parent / "bots" / "hunter.py").write_text("# changed since: no match replays\n")
    out, victim, outdir = _planted(tmp_path)
    before = _tree(tmp_path / "outside"), _tree(outdir)
    found = _publish(str(db), "--out", str(out), "--force")
    assert found.returncode == 2, found.stderr
    assert found.stderr.strip().splitlines() == [
        f"error: {out / 'index.html'}: a link where the site writes; publish writes nothing "
        f"through a link and replaces none: remove it, or give another --out"]
    assert (_tree(tmp_path / "outside"), _tree(outdir)) == before
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "replays"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_link_planted_after_the_check_is_replaced_or_refused_never_followed(
        run, tmp_path, monkeypatch):
    """The check passes, then the links appear (as a racing attacker would plant them):
    the file link is replaced by the site's file, the folder link refused; the outside
    stays as it was, and the fresh folder the site was built in is gone."""
    db = _copy(run, tmp_path / "runs")
    out, victim, outdir = _planted(tmp_path)
    before = _tree(tmp_path / "outside"), _tree(outdir)
    monkeypatch.setattr(host_files, "links_in", lambda *_: None)
    with pytest.raises(api.InputError, match="replays: not a folder"):
        api.publish(db, out, force=True, progress=False)
    assert (_tree(tmp_path / "outside"), _tree(outdir)) == before
    assert not (out / "index.html").is_symlink() and "<!DOCTYPE html>" in (
        out / "index.html").read_text()
    assert (out / "replays").is_symlink()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_out_that_is_a_link_is_refused(run, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "site").symlink_to("elsewhere")
    found = _publish(str(run), "--out", str(tmp_path / "site"))
    assert found.returncode == 2
    assert found.stderr.strip() == (f"error: {tmp_path / 'site'}: --out is a link; give the "
                                    f"folder it points to")
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_force_replaces_same_names_keeps_others_and_deletes_nothing_else(run, tmp_path):
    db = _copy(run, tmp_path / "runs")
    out = tmp_path / "site"
    (out / "replays").mkdir(parents=True)
    (out / "notes.txt").write_text("mine")
    (out / "index.html").write_text("old")
    (out / "replays" / "99.js").write_text("an older site's")
    found = api.publish(db, out, force=True, progress=False)
    assert found["replays"] == found["matches"] == 3
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "replays" / "99.js").read_text() == "an older site's"
    assert "<!DOCTYPE html>" in (out / "index.html").read_text()
    assert found["bytes"] == host_files.size_of(out) - len("mine") - len("an older site's")


def _forge(db: Path, files: dict[str, str]) -> None:
    """Every record of the results file names each bot's file as `files` says (by the
    bot's file name): what a results file someone else made may hold."""
    store = sqlite3.connect(db)
    for match_id, spec in store.execute("SELECT match_id, spec FROM inputs").fetchall():
        record = json.loads(spec)
        for bot in record["bots"]:
            bot["file"] = files.get(Path(bot["file"]).name, bot["file"])
        store.execute("UPDATE inputs SET spec = ? WHERE match_id = ?",
                      (json.dumps(record), match_id))
    store.commit()
    store.close()


def _ai_page(site: Path, bot: str) -> str:
    for page in (site / "ais").glob("*.html"):
        text = page.read_text()
        if f"<code>{bot}.py</code>" in text:
            return text
    raise AssertionError(f"no page for {bot}")


def _source_part(page: str) -> str:
    return page.split("<h2>Source</h2>", 1)[1]


def test_a_crafted_record_learns_nothing_of_the_publishers_disk(run, tmp_path):
    """The record points hunter at a copy of it outside (the file exists, its digest is
    the one that played: before, its source was shown, confirming the guess), turtle at
    an outside file of other bytes (before: `changed since it played`), randy at nothing
    (before: `cannot be read (No such file or directory)`). All three pages now say the
    same, and no page holds any path of the publisher's."""
    db = _copy(run, tmp_path / "runs")
    outside = tmp_path / "private"
    outside.mkdir()
    shutil.copy(REPO / "bots/arena/hunter.py", outside / "hunter.py")
    (outside / "shadow").write_text("root:$6$secret:19000:0:99999:7:::\n")
    _forge(db, {"hunter.py": str(outside / "hunter.py"), "turtle.py": str(outside / "shadow"),
                "randy.py": str(outside / "id_rsa")})
    site = tmp_path / "site"
    found = api.publish(db, site, progress=False)
    assert found["replays"] == 0           # nothing outside is read to play them again
    pages = _pages(site)
    for name, text in pages.items():
        assert str(tmp_path) not in text and "/private" not in text, name
        assert "No such file" not in text and "changed since" not in text, name
    said = {bot: _source_part(_ai_page(site, bot)).replace(
        {"hunter": "hunter.py", "turtle": "shadow", "randy": "id_rsa"}[bot], "FILE")
        for bot in BOTS}
    assert len(set(said.values())) == 1, said
    assert "is not at hand" in said["hunter"] and '<pre class="source">' not in said["hunter"]


def test_a_bot_changed_after_the_run_is_named_by_its_name_alone(run, tmp_path):
    db = _copy(run, tmp_path / "runs")
    (db.parent / "bots" / "turtle.py").write_text("# turtle, changed since\n")
    site = tmp_path / "site"
    found = api.publish(db, site, progress=False)
    assert found["replays"] == 1                       # hunter against randy only
    page = _ai_page(site, "turtle")
    assert "Not available: turtle.py changed since it played." in page
    assert '<pre class="source">' in _ai_page(site, "hunter")
    for name, text in _pages(site).items():
        assert str(tmp_path) not in text, name
    assert all(str(db.parent) in why for why in found["without_replay"].values())


def test_sources_lets_the_site_read_bots_kept_elsewhere(run, tmp_path):
    """The bots beside the results file's folder, not in it: read only once named."""
    db = _copy(run, tmp_path / "runs")
    shutil.move(db.parent / "bots", tmp_path / "bots")
    _forge(db, {f"{bot}.py": str(tmp_path / "bots" / f"{bot}.py") for bot in BOTS})
    without = api.publish(db, tmp_path / "without", progress=False)
    given = api.publish(db, tmp_path / "given", progress=False, sources=[tmp_path / "bots"])
    assert (without["replays"], given["replays"]) == (0, 3)
    assert '<pre class="source">' not in _ai_page(tmp_path / "without", "hunter")
    assert '<pre class="source">' in _ai_page(tmp_path / "given", "hunter")
    with pytest.raises(api.InputError, match="--sources .*: not a folder"):
        sites.publish(db, tmp_path / "x", sources=[tmp_path / "none"])


def test_a_run_of_the_bundled_samples_is_published_whole_each_checked_by_its_digest(
        run, tmp_path):
    """The records name the game's own sample bots (`arena tournament beeline.py ...`
    records the bundled files): they are arena's, not the publisher's, so the site plays
    every match again and shows their sources with no --sources (before: each match
    `lies outside the folders whose files this reader reads`). A record naming a sample
    whose digest is not the one that played is refused as any changed file is."""
    samples = GAMES["arena"].bots_dir
    db, forged = _copy(run, tmp_path / "runs"), _copy(run, tmp_path / "forged-runs")
    for made in (db, forged):
        shutil.rmtree(made.parent / "bots")            # nothing beside the results file
        _forge(made, {f"{bot}.py": str(samples / f"{bot}.py") for bot in BOTS})
    found = api.publish(db, tmp_path / "site", progress=False)
    assert (found["replays"], found["without_replay"]) == (3, {}), found
    assert '<pre class="source">' in _ai_page(tmp_path / "site", "hunter")
    for name, text in _pages(tmp_path / "site").items():
        assert str(samples) not in text, name
    _forge(forged, {"turtle.py": str(samples / "hunter.py")})  # other bytes than played
    found = api.publish(forged, tmp_path / "forged", progress=False)
    assert found["replays"] == 1, found                 # hunter against randy only
    assert all("changed since" in why for why in found["without_replay"].values())
    pages = [p.read_text() for p in (tmp_path / "forged" / "ais").glob("*.html")]
    assert sum('<pre class="source">' in page for page in pages) == 2
    assert sum("Not available: hunter.py changed since it played." in page
               for page in pages) == 1


@pytest.mark.parametrize("what, args", [
    ("csv export", ["results", "{db}", "--export", "csv", "--out", "{out}"]),
    ("matrix page", ["results", "{db}", "--matrix", "--html", "{out}"]),
    ("replay page", ["replay", "{db}:{match}", "--html", "{out}"]),
    ("position", ["replay", "{db}:{match}", "--turn", "2", "--save-position", "{out}"]),
])
def test_a_single_file_output_replaces_a_planted_link_never_writes_through_it(
        run, tmp_path, what, args):
    """Every command that writes a file the user names writes it beside the name and
    renames it there: a link planted at the name is replaced by the file, and what it
    pointed to stays as it was (before: the export, the page or the position was written
    into the link's target)."""
    db = _copy(run, tmp_path / "runs")
    match = sqlite3.connect(db).execute("SELECT id FROM matches").fetchone()[0]
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own\n")
    out = tmp_path / "out.file"
    out.symlink_to(victim)
    argv = [word.format(db=db, out=out, match=match) for word in args]
    found = subprocess.run([*ARENA, *argv], capture_output=True, text=True, timeout=300)
    assert found.returncode == 0, (what, found.stderr)
    assert victim.read_text() == "the victim's own\n", what
    assert not out.is_symlink() and out.stat().st_size > 0, what
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], what


def test_a_record_naming_a_replay_outside_is_not_read(run, tmp_path):
    """A crafted row names a replay kept elsewhere on the publisher's disk (a file named
    as arena keeps one, in a folder named replays): the site neither shows it nor plays
    the match again from files outside (before, it was read and published)."""
    db = _copy(run, tmp_path / "runs")
    store = sqlite3.connect(db)
    ids = [row[0] for row in store.execute("SELECT id FROM matches ORDER BY id")]
    store.close()
    made = api.publish(db, tmp_path / "first", progress=False)          # keeps the replays
    assert made["replays"] == 3
    elsewhere = tmp_path / "private" / "replays"
    shutil.move(db.parent / "replays", elsewhere)
    for bot in BOTS:
        (db.parent / "bots" / f"{bot}.py").write_text("# changed: no match plays again\n")
    store = sqlite3.connect(db)
    store.executemany("UPDATE matches SET replay = ? WHERE id = ?",
                      [(str(elsewhere / f"{i}.json.gz"), i) for i in ids])
    store.commit()
    store.close()
    found = api.publish(db, tmp_path / "site", progress=False)
    assert found["replays"] == 0, found
    assert list((tmp_path / "site" / "replays").iterdir()) == []


def test_no_page_names_the_publishers_folder_when_replays_are_kept(run, tmp_path):
    """Published from an absolute path with every replay kept beside the results file:
    the matrix page's commands named the kept replay by its absolute path (before:
    `arena replay /home/.../runs/replays/ID.json.gz`); now each game links to its match
    page, and no page names a replay file."""
    db = _copy(run, tmp_path / "runs")
    api.publish(db.resolve(), tmp_path / "first", progress=False)     # keeps the replays
    assert len(list((db.parent / "replays").glob("*.json.gz"))) == 3
    found = api.publish(db.resolve(), tmp_path / "site", progress=False)
    assert found["replays"] == 3
    for name, text in _pages(tmp_path / "site").items():
        assert str(tmp_path) not in text, name
    matrix = (tmp_path / "site" / "matrix.html").read_text()
    assert '"page":"matches/1.html"' in matrix and ".json.gz" not in matrix
    for script in (tmp_path / "site" / "replays").glob("*.js"):     # inside the gzip too
        packed = re.search(r'ARENA_REPLAY_GZ = "([^"]+)"', script.read_text()).group(1)
        data = gzip.decompress(base64.b64decode(packed)).decode()
        assert '"bot":"/' not in data and re.search(r'"bot":"\w+\.py"', data), script.name


def _commands(site: Path) -> list[list[str]]:
    """Each match page's `arena run` command (that plays the match again), as its words."""
    found = []
    for page in sorted((site / "matches").glob("*.html")):
        for command in re.findall(r'<pre class="command">(arena run [^<]*)</pre>',
                                  page.read_text()):
            found.append(shlex.split(html.unescape(command)))
    return found


def test_a_crafted_record_puts_no_option_in_the_command_a_reader_copies(run, tmp_path):
    """A match page tells its reader how to play the match again: `arena run ... FILES`.
    The files are named by the record, which is anyone's: a bot's file named
    `--sandbox=off` made the page's command run every bot unsandboxed, in the reader's own
    process, once copied. A file's name that begins with `-` is given as `./NAME`."""
    db = _copy(run, tmp_path / "runs")
    _forge(db, {"hunter.py": "/x/--sandbox=off", "turtle.py": "/x/-"})
    site = tmp_path / "site"
    api.publish(db, site, progress=False)
    commands = _commands(site)
    assert len(commands) == 3, commands
    for words in commands:
        bots = words[words.index("--seed") + 2:]
        assert len(bots) == 2 and not any(w.startswith("-") for w in bots), words
        assert not any(w.startswith("--sandbox") for w in words), words
    assert {w for words in commands for w in words} >= {"./--sandbox=off", "./-"}


def _planted_replays(folder: Path) -> Path:
    """`replays -> ../outdir` beside a results file: the folder arena keeps its replays in,
    planted as a link to a folder elsewhere (a shared folder, an unpacked archive)."""
    outdir = folder.parent / "outdir"
    outdir.mkdir()
    (outdir / "mine.txt").write_text("the victim's own\n")
    (folder / "replays").symlink_to("../outdir")
    return outdir


def test_a_replay_played_again_is_never_kept_through_a_planted_link(run, tmp_path):
    """`arena replay DB:ID` plays a match without a kept replay again and keeps it in
    `replays/` beside the results file: through a planted link, it wrote the replay into
    the folder the link named."""
    db = _copy(run, tmp_path / "runs")
    outdir = _planted_replays(db.parent)
    match_id = sqlite3.connect(db).execute("SELECT id FROM matches").fetchone()[0]
    done = subprocess.run([*ARENA, "replay", f"{db}:{match_id}", "--turn", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout[-2000:]
    said = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert said == [f"error: {db.parent / 'replays'}: not a folder (a link, or a file); "
                    "nothing is written through a link: remove it"], done.stderr
    assert "Traceback" not in done.stderr
    assert _tree(outdir) == {"mine.txt": b"the victim's own\n"}


def test_a_batch_keeps_no_replay_through_a_planted_link(run, tmp_path):
    db = _copy(run, tmp_path / "runs")
    outdir = _planted_replays(db.parent)
    done = subprocess.run([*ARENA, "batch", "hunter", "turtle", "--seeds", "1", "--map", "tiny",
                           "--max-turns", "3", "--workers", "1", "--db", str(db), "--replays"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "not a folder (a link, or a file); nothing is written through a link" in \
        done.stderr, done.stderr
    assert _tree(outdir) == {"mine.txt": b"the victim's own\n"}


def test_run_open_keeps_no_replay_through_a_planted_runs_link(tmp_path):
    """`arena run --open` keeps the replay and its page in `runs/replays/` of the working
    folder, a name arena chose: in a folder (a cloned repository of submissions) holding
    `runs -> ../outdir`, it wrote both into the folder the link named."""
    work = tmp_path / "work"
    work.mkdir()
    outdir = tmp_path / "outdir"
    outdir.mkdir()
    (outdir / "mine.txt").write_text("the victim's own\n")
    (work / "runs").symlink_to("../outdir")
    done = subprocess.run([*ARENA, "run", "hunter", "turtle", "--map", "tiny", "--max-turns",
                           "3", "--seed", "1", "--open"], cwd=work, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    said = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert said == ["error: runs: not a folder (a link, or a file); nothing is written "
                    "through a link: remove it, or name the file to write"], said
    assert _tree(outdir) == {"mine.txt": b"the victim's own\n"}


def test_a_batch_keeps_no_default_results_file_through_a_planted_link(tmp_path):
    """Without --db a batch writes `runs/GAME.sqlite` in the working folder: with `runs ->
    ../outdir` planted, the results file was made in outdir; with `runs/arena.sqlite`
    a link to a missing file, SQLite made that file."""
    outdir = tmp_path / "outdir"
    outdir.mkdir()
    for planted, points_to, says in (
            ("runs", outdir, "runs: not a folder (a link, or a file)"),
            ("runs/arena.sqlite", outdir / "made.sqlite", "runs/arena.sqlite: a link;")):
        work = tmp_path / planted.replace("/", "_")
        (work / planted).parent.mkdir(parents=True)
        (work / planted).symlink_to(points_to)
        done = subprocess.run([*ARENA, "batch", "hunter", "turtle", "--seeds", "1", "--map",
                               "tiny", "--max-turns", "3", "--workers", "1"], cwd=work,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.stderr.startswith(f"error: {says}"), done.stderr
        assert list(outdir.iterdir()) == [], planted
