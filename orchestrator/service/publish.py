"""`arena publish DB`: one run of a results file as a static results site.

The seed's game master reports "the results (hopefully with fancy replays)" and shares
everyone's submission afterwards. The site is a folder of plain files that opens from
file:// and from any static host, with no network and no build step:

    index.html              the standings (ratings, their intervals), every AI and match
    matrix.html             the matchup matrix (orchestrator/views/matrix_page.py's page)
    ais/N.html              an AI: its name, description, sha256, source, games, penalties
    matches/N.html          a match: its players, the commands that play it again, and its
                            replay in the viewer
    replays/N.js            a match's replay, gzipped, as a script that assigns it (a page
                            opened from file:// cannot fetch() a local file; it can load
                            a script)
    viewer/GAME.js          the viewer (viewer/viewer.html's script with the game's
                            renderer), ONE copy shared by every match page
    viewer/viewer.css, site.css

The site is built in a fresh folder beside `--out`, then renamed into place
(orchestrator/host_files.py): nothing is written through a link, and nothing is deleted
but that fresh folder. With `--force`, each file is renamed onto its name in the folder
(a file of another name stays); a link among the site's names is refused.

A results file is anyone's data: its records name files by absolute path. The site reads
a file a record names (a bot's source for its page, the bots and map to play a match
again) only where it lies under the results file's folder or a folder given as
`--sources` (the path resolved, links included), a bundled map or sample bot anywhere
(they are arena's, not the publisher's; a bot still read only where its sha256 is the one
that played); the pages name each file by its name alone, and say the same of a file
outside those folders as of a missing one: no page tells anything of the publisher's disk.

Every page has a strict Content-Security-Policy: only the site's own scripts and styles,
by 'self' (no inline script on any page but the matrix, whose own is allowed by hash), no
connection. Everything a bot chose (its name, description, source, reasons,
output) is text: HTML-escaped in the pages written here, and set as textContent by the
viewer; the replay's JSON goes into its script with `<`, `>` and `&` escaped
(replay_view.embed), so no `</script>` in it ends the script.
"""
from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import html
import os
import re
import shlex
import shutil
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from engine import InputError
from engine.textfile import regular_bytes
from orchestrator import host_files
from orchestrator.games import GAMES, get_game
from orchestrator.replay import debug
from orchestrator.replay import file as replay
from orchestrator.results import penalties, score
from orchestrator.results.store import Store, StoredMatch, StoredPlayer, StoredRun
from orchestrator.service import matchups
from orchestrator.service.batch import TournamentReport, TournamentRow, tournament_report
from orchestrator.service.matchups import Kept
from orchestrator.service.results import open_results, results_file
from orchestrator.service.stored_replay import replay_path
from orchestrator.text import ended, shown
from orchestrator.views import matrix_page
from orchestrator.views import replay as replay_view
from sandbox import modes
from sandbox.modes import DEFAULT_MODE

# What the pages' "own s" means (a dash: a results file from before own times).
OWN_NOTE = "own s: the seconds of its calls' wall time less their wait for a CPU"
SOURCE_BYTES = 256 << 10        # a bot's source shown on its page (a sample: a few KiB)
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; "
          "base-uri 'none'; form-action 'none'")
# The viewer page's script reads its replay from these (viewer.html reads them from
# <script type="application/json"> elements; a shared script cannot hold the data).
_DATA_READ = 'JSON.parse(document.getElementById("replay-data").textContent)'
_SOURCE_READ = 'JSON.parse(document.getElementById("replay-source").textContent)'
_DATA_GLOBAL, _SOURCE_GLOBAL = "window.ARENA_REPLAY", "window.ARENA_REPLAY_SOURCE"

Told = Callable[[str, int, int], None]       # (what, done, total): the progress bar


@dataclass
class Entrant:
    """One AI of the run: a bot file, by path and sha256 (as the standings count them)."""

    number: int
    name: str
    bot: str
    sha256: str
    description: str
    standing: TournamentRow
    games: list[tuple[int, StoredPlayer]] = field(default_factory=list)   # (match number, player)
    file: str | None = None          # where the run's record says it was read from


def penalty(player: Mapping[str, Any]) -> str:
    """What one AI was charged with in one match, in words (orchestrator/results/penalties.py, the
    one wording every table, export and page shares): `erased (cpu time limit, turn 1)`,
    its overheats with the first error, what the sandbox refused it, the output cut."""
    return penalties.note(player) or (player["status"] if player["status"] != "ok" else "")


def over_games(games: Iterable[tuple[int, Mapping[str, Any]]]) -> list[str]:
    """An AI's penalties over its games, counted (`2 x erased (cpu time limit, turn 1)`,
    `12 overheats in 2 games, first: ...`), as the tournament's table says them."""
    counted = penalties.Penalties()
    for _, player in games:
        counted.add(player)
    return counted.lines()


def penalized(player: Mapping[str, Any]) -> bool:
    """Whether a player's record charges it anything: not finished, or any penalty."""
    return player["status"] != "ok" or bool(penalties.lines(player))


# The names the site writes in its folder, and those of them that are folders.
SITE_FOLDERS = ("viewer", "replays", "ais", "matches")
SITE_NAMES = ("index.html", "matrix.html", "site.css", *SITE_FOLDERS)


# -- the checks: every value of a publish, in one place (the CLI and the API call this) --
def checked(db: str | Path, out: str | Path, run: str | None, force: bool,
            sandbox: str = DEFAULT_MODE) -> tuple[Path, Path]:
    """The results file (it must exist) and the site's folder, which must not be a file
    nor a link, nor a folder holding anything, unless `force`, and then no link where
    the site writes; InputError otherwise."""
    if not isinstance(out, (str, Path)) or not str(out):
        raise InputError("--out: give the folder to write the site in")
    if run is not None and (not isinstance(run, str) or not run):
        raise InputError("--run: give a run's id (or the start of it); `arena results DB` "
                         "lists them")
    if not isinstance(force, bool):
        raise InputError("force: must be true or false")
    modes.chosen(sandbox)
    folder = Path(out)
    if folder.is_symlink():
        raise InputError(f"{shown(folder)}: --out is a link; give the folder it points to")
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{shown(folder)}: --out is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        if not force:
            raise InputError(f"{shown(folder)}: the folder is not empty; give another --out, "
                             f"or --force to write the site over what is there")
        link = host_files.links_in(folder, SITE_NAMES, SITE_FOLDERS)
        if link is not None:
            raise InputError(f"{shown(link)}: a link where the site writes; publish writes "
                             f"nothing through a link and replaces none: remove it, or give "
                             f"another --out")
    return results_file(db), folder


def source_folders(db: Path, sources: Iterable[str | Path]) -> tuple[Path, ...]:
    """The folders whose files the site may read (the results file's, each of `sources`,
    which must be folders, and every game's sample bots' folder), resolved."""
    found = [Path(os.path.realpath(db.parent))]
    for given in sources:
        if not isinstance(given, (str, Path)) or not str(given) or not Path(given).is_dir():
            raise InputError(f"--sources {shown(given)[:200]}: not a folder; give the folder "
                             f"the run's bots are in")
        found.append(Path(os.path.realpath(given)))
    return (*found, *sample_folders())


def sample_folders() -> tuple[Path, ...]:
    """Each game's folder of sample bots, resolved: files every arena ships (or its game
    kept elsewhere does), nothing of the publisher's own, so a run played with the
    samples is published with its replays and sources wherever arena is installed. A
    sample is still read only where its sha256 is the one that played."""
    return tuple(dict.fromkeys(Path(os.path.realpath(game.bots_dir))
                               for game in GAMES.values()))


def at_hand(named: object, folders: tuple[Path, ...]) -> Path | None:
    """The file a record names, resolved, where it lies under one of `folders`; else
    None (the record is anyone's: it may name /etc/shadow)."""
    if not isinstance(named, str) or not named or "\0" in named or len(named) > 4096:
        return None
    real = Path(os.path.realpath(named))
    return real if any(real.is_relative_to(folder) for folder in folders) else None


def publish(db: str | Path, out: str | Path, run: str | None = None, force: bool = False,
            told: Told = lambda what, done, total: None,
            sandbox: str = DEFAULT_MODE, sources: Iterable[str | Path] = ()) -> dict[str, Any]:
    """Write the site of one run (default: the file's latest) into `out`; returns what
    it wrote: the folder, the run, the counts, and each match that has no replay and why.
    `told(what, done, total)` hears the progress. The bots' files are read only under the
    results file's folder and the folders `sources`."""
    db_path, folder = checked(db, out, run, force, sandbox)
    folders = source_folders(db_path, sources)
    store = open_results(db_path)
    try:
        chosen = _run(store, run)
        matches = store.run_results(chosen["id"])
        if not matches:
            raise InputError(f"{db_path}: run {chosen['id'][:10]} has no finished match "
                             f"to publish")
        game = get_game(chosen["game"])
        report = tournament_report(matches, game, chosen["args"].get("format", ""), 0, db_path)
        grid = matchups.matrix(store, chosen["id"])
        records = {m["id"]: _record(store, m["id"]) for m in matches}
        versions = {m["id"]: _engine_version(store, m["id"]) for m in matches}
        kept = Kept(store.path)
    finally:
        store.close()
    try:
        built = host_files.fresh_folder(folder)
        for part in SITE_FOLDERS:
            (built / part).mkdir()
    except OSError as exc:
        raise InputError(f"{shown(folder)}: cannot write the site ({exc.strerror})") from None
    try:
        site = _Site(built, db_path, chosen, game.name, matches=matches, report=report,
                     records=records, versions=versions, folders=folders)
        missing = _build(site, grid=grid, kept=kept, sandbox=sandbox, told=told)
        size = host_files.size_of(built)
    except BaseException:
        shutil.rmtree(built, ignore_errors=True)
        raise
    host_files.install(built, folder)
    return {"out": str(folder), "run": chosen["id"], "kind": chosen["kind"],
            "game": game.name, "matches": len(matches), "ais": len(site.entrants),
            "replays": len(matches) - len(missing), "without_replay": missing,
            "bytes": size}


def _build(site: _Site, *, grid: dict[str, Any], kept: Kept, sandbox: str,
           told: Told) -> dict[str, str]:
    """The site's files, written in its fresh folder; each match without a replay, and
    why (the publisher's own terminal hears that; the pages do not)."""
    built, db_path, matches, folders = site.folder, site.db, site.matches, site.folders
    total = len(matches) + len(site.entrants) + 2
    done = 0
    site.write_assets()
    missing: dict[str, str] = {}
    for number, match in enumerate(matches, 1):
        told(f"match {number} of {len(matches)}: its replay", done, total)
        data, why = _replay_of(db_path, match, kept, sandbox, folders)
        if why is not None:
            missing[match["id"]] = why
        site.write_match(number, match, data, why)
        done += 1
    for entrant in site.entrants:
        told(f"AI {entrant.number}: {shown(entrant.name)}", done, total)
        site.write_entrant(entrant)
        done += 1
    told("the matchup matrix", done, total)
    pages = {m["id"]: f"matches/{n}.html" for n, m in enumerate(matches, 1)}
    _write(built / "matrix.html", matrix_page.page(_site_matrix(grid, db_path, pages)))
    done += 1
    told("the index", done, total)
    site.write_index()
    told("done", total, total)
    return missing


def _run(store: Store, run: str | None) -> StoredRun:
    runs = store.runs()
    if run is None:
        if not runs:
            raise InputError(f"{store.path}: the results file holds no run to publish")
        return runs[-1]
    matching = [r for r in runs if r["id"].startswith(run)]
    if len(matching) != 1:
        raise InputError(f"--run {shown(run)[:40]}: {len(matching)} runs match in "
                         f"{store.path} (`arena results {store.path}` lists them)")
    return matching[0]


def _record(store: Store, match_id: str) -> dict[str, Any] | None:
    """A match's record (what it was played from), where it is one arena writes."""
    try:
        found = store.inputs(match_id)
    except InputError:
        return None
    return found if isinstance(found, dict) else None


def _engine_version(store: Store, match_id: str) -> str:
    row = store.db.execute("SELECT engine_version FROM matches WHERE id = ?",
                           (match_id,)).fetchone()
    value = row[0] if row else None
    return shown(value)[:40] if isinstance(value, str) else "?"


def _replay_of(db: Path, match: StoredMatch, kept: Kept, sandbox: str,
               folders: tuple[Path, ...]) -> tuple[dict[str, Any] | None, str | None]:
    """The match's replay: the kept file, else the match played again from its record
    (stored_replay.py: refused where a file changed, lies outside `folders`, or the match
    ends otherwise), without the bots' debug marks, which are their owners'
    (orchestrator/replay/debug.py)."""
    try:
        found = kept.file(match)
        path = (at_hand(str(found), folders) if found is not None else None) or replay_path(
            db, match["id"], sandbox=sandbox, files_in=folders)
        return debug.strip(replay.load(path)), None
    except InputError as exc:
        return None, shown(exc)[:300]


def _write(path: Path, text: str) -> None:
    """A new file of the site, in its fresh folder (never a name already there)."""
    try:
        host_files.new_file(path, text.encode("utf-8"))
    except OSError as exc:
        raise InputError(f"{shown(path)}: cannot write the site ({exc.strerror})") from None


def esc(value: object) -> str:
    """Any value as HTML text: escaped, and with terminal escapes made visible."""
    return html.escape(shown(value), quote=True)


# -- the pages -------------------------------------------------------------------------------
class _Site:
    def __init__(self, folder: Path, db: Path, run: StoredRun, game: str,
                 matches: list[StoredMatch], report: TournamentReport,
                 records: dict[str, Any], versions: dict[str, Any],
                 folders: tuple[Path, ...] = ()) -> None:
        self.folder, self.db, self.run, self.game = folder, db, run, game
        self.folders = folders
        self.matches, self.report, self.records, self.versions = (
            matches, report, records, versions)
        self.entrants: list[Entrant] = []
        self.by_key: dict[tuple[str, str], Entrant] = {}
        for number, row in enumerate(report["players"], 1):
            entrant = Entrant(number, row["name"], row["bot"], row["sha256"],
                              row.get("description") or "", row)
            self.entrants.append(entrant)
            self.by_key[(row["bot"], row["sha256"])] = entrant
        for number, match in enumerate(matches, 1):
            record = records.get(match["id"]) or {}
            files = {(b.get("path"), b.get("sha256")): b.get("file")
                     for b in record.get("bots", []) if isinstance(b, dict)}
            for player in match["players"]:
                whose = self.by_key.get((player["bot"], player["sha256"]))
                if whose is None:
                    continue
                whose.games.append((number, player))
                if whose.file is None and isinstance(
                        files.get((player["bot"], player["sha256"])), str):
                    whose.file = files[(player["bot"], player["sha256"])]

    # the shared files
    def write_assets(self) -> None:
        template = _viewer_page()
        style = re.search(r"<style>(.*?)</style>", template, re.S).group(1)  # type: ignore[union-attr]  # our own page has one
        _write(self.folder / "viewer" / "viewer.css", style)
        _write(self.folder / "site.css", SITE_CSS)
        for game in sorted({m["game"] for m in self.matches}):
            _write(self.folder / "viewer" / f"{_slug(game)}.js", viewer_script(game))

    def page(self, title: str, body: str, depth: int, css: Iterable[str] = ()) -> str:
        up = "../" * depth
        links = "".join(f'<link rel="stylesheet" href="{up}{name}">'
                        for name in ("site.css", *css))
        return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
                f'<meta name="referrer" content="no-referrer">\n'
                f'<title>{esc(title)}</title>\n{links}\n</head>\n<body>\n'
                f'<nav class="site"><a href="{up}index.html">standings</a> '
                f'<a href="{up}matrix.html">matchup matrix</a> '
                f'<span class="dim">{esc(self.run["kind"])} {esc(self.run["id"][:10])}, '
                f'{esc(self.game)}</span></nav>\n{body}\n</body>\n</html>\n')

    def ai_link(self, player: Mapping[str, Any], up: str = "../") -> str:
        entrant = self.by_key.get((player["bot"], player["sha256"]))
        if entrant is None:
            return esc(player["name"])
        return f'<a href="{up}ais/{entrant.number}.html">{esc(player["name"])}</a>'

    def write_index(self) -> None:
        rows = []
        ranked_by = self.report.get("ranked_by")
        for e in self.entrants:
            r = e.standing
            ci = r.get("win_ci") or [0, 0]
            charged = sum(penalized(p) for _, p in e.games)
            summary = "; ".join(over_games(e.games))
            rows.append(
                f'<tr><td>{e.number}</td><td><a href="ais/{e.number}.html">{esc(e.name)}</a>'
                f'<div class="about">{esc(e.description)}</div></td>'
                f'<td class="n">{_num(r.get("elo"), 0)}</td>'
                f'<td class="n">{_num(r.get("mu"), 2)} ± {_num(2 * (r.get("sigma") or 0), 2)}'
                f'</td><td class="n">{r.get("matches", 0)}</td>'
                f'<td class="n">{r.get("wins", 0)}</td>'
                f'<td class="n">{100 * r.get("win_rate", 0):.0f} % '
                f'<span class="dim">({100 * ci[0]:.0f}–{100 * ci[1]:.0f})</span></td>'
                f'<td class="n">{_num(r.get("mean_rank"), 2)}</td>'
                f'<td class="n">{_num(r.get("mean_cpu_s"), 2)}</td>'
                f'<td class="n">{_num(r.get("mean_own_s"), 2)}</td>'
                f'<td>{charged} of {len(e.games)} games'
                + (f'<div class="about">{esc(summary)}</div>' if summary else "") + '</td></tr>')
        match_rows = [self.match_row(n, m, "") for n, m in enumerate(self.matches, 1)]
        created = self.run.get("created")
        body = (f'<h1>{esc(self.game)}: {esc(self.run["kind"])} results</h1>\n'
                f'<p>{len(self.matches)} matches of {len(self.entrants)} AIs, ranked by '
                f'{esc(ranked_by or "Elo")}. Elo starts at {esc(self.report["elo"]["initial"])}'
                f' (K = {esc(self.report["elo"]["k"])}); openskill μ ± 2σ; win rate with its '
                f'95 % Wilson interval. Results file <code>{esc(self.db.name)}</code>, run '
                f'<code>{esc(self.run["id"])}</code>'
                f'{", created " + esc(_when(created)) if created else ""}.</p>\n'
                f'<table><thead><tr><th>#</th><th>AI</th><th>Elo</th><th>openskill</th>'
                f'<th>games</th><th>wins</th><th>win rate</th><th>mean rank</th>'
                f'<th>CPU s</th><th>own s</th>'
                f'<th>penalties</th></tr></thead><tbody>\n' + "\n".join(rows) +
                f'\n</tbody></table>\n<p class="dim">CPU s, own s: a game, on average; '
                f'{OWN_NOTE}.</p>\n<p><a href="matrix.html">The matchup matrix</a>: how '
                'each AI fared against each other one.</p>\n<h2>Matches</h2>\n'
                + _match_table(match_rows))
        _write(self.folder / "index.html", self.page(f"{self.game} results", body, 0))

    def match_row(self, number: int, match: StoredMatch, up: str,
                  me: StoredPlayer | None = None) -> str:
        """A match's row of a table of matches; on an AI's page (`me`: its player), with
        the AI's place in it first."""
        place = "" if me is None else f'<td class="n">{_place(me, match["players"])}</td>'
        players = ", ".join(
            f'{p["rank"]}. {self.ai_link(p, up)}'
            + (f' <span class="bad">({esc(p["status"])})</span>' if p["status"] != "ok"
               else "")
            for p in sorted(match["players"], key=lambda p: (p["rank"], p["seat"])))
        said = score.said(match["game"], match["players"])
        if said:
            players += f' <span class="score">({esc(said)})</span>'
        return (f'<tr><td><a href="{up}matches/{number}.html">{number}</a></td>{place}'
                f'<td><code>{esc(match["id"][:10])}</code></td><td>{esc(match["map"])}</td>'
                f'<td class="n">{esc(match["seed"])}</td><td class="n">{match["turns"]}</td>'
                f'<td>{esc(ended(match["end"]))}</td><td>{players}</td></tr>')

    def write_entrant(self, e: Entrant) -> None:
        r = e.standing
        source = self.source_of(e)
        penalties = [
            f'<li><a href="../matches/{n}.html">match {n}</a>: {esc(penalty(p))}</li>'
            for n, p in e.games if penalized(p)]
        summary = over_games(e.games)
        if summary:
            penalties.insert(0, f'<li><b>over its {len(e.games)} games</b>: '
                                f'{esc("; ".join(summary))}</li>')
        games = [self.match_row(n, self.matches[n - 1], "../", me) for n, me in e.games]
        body = (f'<h1>{esc(e.name)}</h1>\n'
                f'<p class="about">{esc(e.description) or "<i>(no description)</i>"}</p>\n'
                f'<dl><dt>file</dt><dd><code>{esc(Path(e.bot).name)}</code></dd>'
                f'<dt>sha256</dt><dd><code>{esc(e.sha256)}</code></dd>'
                f'<dt>place</dt><dd>{e.number} of {len(self.entrants)}</dd>'
                f'<dt>Elo</dt><dd>{_num(r.get("elo"), 0)}</dd>'
                f'<dt>openskill</dt><dd>{_num(r.get("mu"), 2)} ± '
                f'{_num(2 * (r.get("sigma") or 0), 2)}</dd>'
                f'<dt>games</dt><dd>{r.get("matches", 0)}, {r.get("wins", 0)} won</dd></dl>\n'
                f'<h2>Penalties</h2>\n'
                + (f'<ul>{"".join(penalties)}</ul>' if penalties else "<p>None.</p>")
                + f'\n<h2>Games</h2>\n{_match_table(games, place=True)}\n<h2>Source</h2>\n'
                f'{source}\n')
        _write(self.folder / "ais" / f"{e.number}.html", self.page(e.name, body, 1))

    def source_of(self, e: Entrant) -> str:
        """The AI's source as the page shows it: the file its record names, where it lies
        under the site's source folders, read again (bounded) and only if its sha256 is
        the one that played; else why not, naming the file by its name alone. A file
        outside those folders is not opened: the page says of it what it says of a
        missing file."""
        if e.file is None:
            return "<p>Not available: the results file does not record where it was read.</p>"
        name = esc(Path(e.file).name)
        path = at_hand(e.file, self.folders)
        try:
            if path is None:
                raise FileNotFoundError
            data = regular_bytes(path, SOURCE_BYTES, "a bot")
        except (OSError, InputError):
            return (f"<p>Not available: {name} is not at hand (beside the results file, or "
                    f"in a folder given as --sources).</p>")
        if hashlib.sha256(data).hexdigest() != e.sha256:
            return f"<p>Not available: {name} changed since it played.</p>"
        if b"\0" in data[:4096]:
            return f"<p>A binary file of {len(data)} bytes.</p>"
        return f'<pre class="source">{esc_source(data.decode("utf-8", "replace"))}</pre>'

    def write_match(self, number: int, match: StoredMatch, data: dict[str, Any] | None,
                    why: str | None) -> None:
        record = self.records.get(match["id"])
        version = self.versions.get(match["id"], "?")
        players = "".join(
            f'<tr><td class="n">{p["rank"]}</td><td>{self.ai_link(p)}</td>'
            f'<td>{esc(p["status"])}</td><td>{esc(penalty(p)) if penalized(p) else ""}</td>'
            f'<td class="n">{p["overheats"]}</td><td class="n">{p["cpu_s"]:.2f}</td>'
            f'<td class="n">{_num(p.get("own_s"), 2)}</td></tr>'
            for p in sorted(match["players"], key=lambda p: (p["rank"], p["seat"])))
        score_line = score.named(match["game"], match["players"])
        stored = f"{self.db.name}:{match['id']}"
        again = [(f"In the folder that holds the results file <code>{esc(self.db.name)}</code> "
                  f"(the game master's), its replay:", f"arena replay {shlex.quote(stored)}")]
        if record is not None:
            again.append(("In a folder holding the AIs' files (each on its AI's page) and the "
                          "map's (a bundled map is found by its name), the match played "
                          "again:", run_command(record)))
        head = (f'<h1>Match {number}: {esc(match["game"])} on {esc(match["map"])}</h1>\n'
                f'<p>Seed <code>{esc(match["seed"])}</code>, engine {esc(version)}, '
                f'{match["turns"]} turns, {esc(ended(match["end"]))}; id '
                f'<code>{esc(match["id"])}</code>.</p>\n'
                + (f'<p class="score">Score: {esc(score_line)}</p>\n' if score_line else "") +
                f'<table><thead><tr><th>rank</th><th>AI</th><th>status</th><th>penalty</th>'
                f'<th>overheats</th><th>CPU s</th><th>own s</th></tr></thead>'
                f'<tbody>{players}</tbody></table>\n<p class="dim">{OWN_NOTE}.</p>\n'
                + "".join(f'<p>{where}</p>\n<pre class="command">{esc(c)}</pre>'
                          for where, c in again))
        links = ""
        if number > 1:
            links += f'<a href="{number - 1}.html">previous match</a> '
        if number < len(self.matches):
            links += f'<a href="{number + 1}.html">next match</a>'
        head += f'<p class="dim">{links}</p>\n'
        if data is None:
            # Why not is the publisher's to read (`arena replay DB:ID` says it): it names
            # the files and folders of the publisher's disk.
            body = head + ('<p class="bad">No replay: the run kept none (--replays), and the '
                           'match could not be played again from the files at hand.</p>\n')
            _write(self.folder / "matches" / f"{number}.html",
                   self.page(f"match {number}", body, 1))
            return
        viewer_body = _viewer_page().split("<body>", 1)[1].split("<script", 1)[0]
        source = f"{self.db.name}:{match['id']}"
        _write(self.folder / "replays" / f"{number}.js", replay_data_script(data, source))
        named = data.get("game")
        game = _slug(named if isinstance(named, str) else match["game"])
        if not (self.folder / "viewer" / f"{game}.js").is_file():
            _write(self.folder / "viewer" / f"{game}.js", viewer_script(game))
        body = (f'<div class="facts">{head}</div>\n<div class="viewer">{viewer_body}</div>\n'
                f'<script src="../replays/{number}.js"></script>\n'
                f'<script src="../viewer/{game}.js"></script>')
        _write(self.folder / "matches" / f"{number}.html",
               self.page(f"match {number}", body, 1, css=("viewer/viewer.css",)))


@functools.cache
def _viewer_page() -> str:
    """orchestrator/views/viewer/viewer.html, the replay page whose style, markup and script
    the site's match pages share."""
    return resources.files("orchestrator").joinpath("views/viewer/viewer.html").read_text()


def _site_matrix(grid: dict[str, Any], db_path: Path, pages: dict[str, str]) -> dict[str, Any]:
    """The matrix report as the site shows it: each file by its name alone, never the game
    master's folders; each game linked to its match page (`page`) instead of a command
    that opens a file on the game master's disk; and a link back to the standings."""
    grid = {**grid, "db": db_path.name, "home": "index.html"}
    grid["entrants"] = [{**e, "bot": Path(str(e.get("bot"))).name}
                        for e in grid.get("entrants", [])]
    games = grid.get("games")
    if isinstance(games, dict):
        grid["games"] = {key: {**{k: v for k, v in game.items() if k != "open"},
                               "page": pages.get(key)}
                         if isinstance(game, dict) else game
                         for key, game in games.items()}
    return grid


def _map_named(record: dict[str, Any]) -> str:
    """A bundled map by its name (found anywhere), any other by its file's name. The
    record's path is compared as written (arena records it resolved), never looked up
    on the publisher's disk."""
    path = Path(str(record.get("map_path")))
    game = GAMES.get(str(record.get("game")))
    if game is not None and path.parent == Path(os.path.realpath(game.maps_dir)) \
            and path.suffix == game.map_suffix:
        return path.stem
    return _file_word(path.name)


def run_command(record: dict[str, Any]) -> str:
    """The `arena run` that plays the recorded match again (its map, bots, rules, seed),
    naming each file by its name alone: the game master's folders are not the readers'
    (nor anybody's business), and a bundled map's name finds it anywhere."""
    words = ["--game", str(record.get("game")), "--map", _map_named(record)]
    kept = record.get("rules")
    rules = kept if isinstance(kept, dict) else {}
    if isinstance(rules.get("preset"), str):
        words += ["--rules", rules["preset"]]
    for key, option in (("max_turns", "--max-turns"), ("robots", "--robots")):
        if isinstance(rules.get(key), int) and not isinstance(rules.get(key), bool):
            words += [option, str(rules[key])]
    words += ["--seed", str(record.get("seed"))]
    words += [_file_word(Path(str(b.get("file"))).name) for b in record.get("bots", [])
              if isinstance(b, dict)]
    return "arena run " + " ".join(shlex.quote(shown(w)) for w in words)


def _file_word(name: str) -> str:
    """A file's name as a command's word that is never an option: `./NAME` where it
    begins with `-` (the record is anyone's: a bot file named `--sandbox=off` would have
    run the reader's copy of the command unsandboxed)."""
    return f"./{name}" if name.startswith("-") else name


def viewer_script(game: str) -> str:
    """The viewer's script for `game`'s replays, shared by every match page: viewer.html's
    own, with the game's renderer in it, reading the replay from the match's data file."""
    scripts = re.findall(r"<script>(.*?)</script>", _viewer_page(), re.S)
    if len(scripts) != 1 or _DATA_READ not in scripts[0] or _SOURCE_READ not in scripts[0]:
        raise InputError("orchestrator/views/viewer/viewer.html: its script does not read the "
                         "replay as the results site expects (the site's viewer needs "
                         "updating with it)")
    viewer = (scripts[0].replace("/*__RENDERER__*/", replay_view.renderer(game))
              .replace(_DATA_READ, _DATA_GLOBAL).replace(_SOURCE_READ, _SOURCE_GLOBAL))
    return _UNPACK.replace("/*__VIEWER__*/", viewer)


# The replay comes gzipped (in base64): a replay's JSON is some 8 times its gzip, and an
# official game has hundreds. The browser's own DecompressionStream opens it (Chromium 80,
# Firefox 113, Safari 16.4), then the viewer runs as it does in its page.
_UNPACK = """"use strict";
(function () {
  function show() {
/*__VIEWER__*/
  }
  const packed = window.ARENA_REPLAY_GZ;
  if (typeof packed !== "string") { show(); return; }
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")))
    .text().then((text) => { window.ARENA_REPLAY = JSON.parse(text); show(); });
})();
"""


def replay_data_script(data: dict[str, Any], source: str) -> str:
    """A match's replay as a script that assigns it: strict JSON (replay_view.embed: `<`,
    `>`, `&` and the line separators escaped), gzipped, in base64; the source (the
    `DB:ID` the viewer's position command names) as an escaped JavaScript string. Its
    players' bots by their files' names (a batch records the paths it was given, which
    may be the game master's absolute folders), and no `setup`."""
    shown_data = {key: value for key, value in data.items() if key != "setup"}
    players = shown_data.get("players")
    if isinstance(players, list):     # each bot by its file's name, never its folder
        shown_data["players"] = [
            {**p, "bot": Path(str(p["bot"])).name} if isinstance(p, dict) and "bot" in p
            else p for p in players]
    packed = gzip.compress(replay_view.embed(shown_data).encode(), compresslevel=6, mtime=0)
    return (f'window.ARENA_REPLAY_GZ = "{base64.b64encode(packed).decode()}";\n'
            f"{_SOURCE_GLOBAL} = {replay_view.embed(source)};\n")


def esc_source(text: str) -> str:
    """A bot's source for a <pre>: HTML-escaped, each control but tab and newline shown
    as its escape (a terminal escape in a comment stays text)."""
    return html.escape("\n".join(shown(line).replace("\\t", "\t")
                                 for line in text.split("\n")), quote=False)


def _match_table(rows: list[str], place: bool = False) -> str:
    return ('<table><thead><tr><th>#</th>' + ('<th>place</th>' if place else '')
            + '<th>id</th><th>map</th><th>seed</th><th>turns</th>'
            '<th>end</th><th>finishing order</th></tr></thead><tbody>\n'
            + "\n".join(rows) + "\n</tbody></table>")


def _place(me: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> str:
    """An AI's place in one match: `3 of 12`, `1 of 2 (draw)` where another shares it."""
    shared = sum(p["rank"] == me["rank"] for p in players) > 1
    return f'{me["rank"]} of {len(players)}' + (" (draw)" if shared else "")


def _num(value: object, places: int) -> str:
    return f"{value:.{places}f}" if isinstance(value, (int, float)) else "–"


def _when(created: float) -> str:
    import datetime as dt  # noqa: PLC0415
    return dt.datetime.fromtimestamp(created, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _slug(game: str) -> str:
    """A game's name as a file name (a registry name: letters, digits, `_`, `-`)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", game)[:40] or "game"


SITE_CSS = """
:root { --bg: #14161b; --panel: #1d2027; --text: #e6e6e6; --dim: #9aa0aa; --line: #2c3039; }
body { margin: 0; padding: 0 18px 24px; background: var(--bg); color: var(--text);
       font: 14px/1.45 system-ui, sans-serif; }
a { color: #7cc4ff; }
nav.site { padding: 8px 0; border-bottom: 1px solid var(--line); display: flex; gap: 14px; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 22px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid var(--line);
         vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.dim, .about { color: var(--dim); } .about { font-size: 12px; max-width: 60em; }
p.about { font-size: 14px; }
.bad { color: #ff6b6b; }
dl { display: grid; grid-template-columns: max-content auto; gap: 2px 14px; }
dt { color: var(--dim); } dd { margin: 0; }
pre { background: #0f1115; border: 1px solid var(--line); padding: 8px; overflow: auto;
      white-space: pre-wrap; }
pre.source { max-height: 70vh; font-size: 12px; }
div.facts { max-width: 1200px; }
div.viewer header { padding-left: 0; }
div.viewer main { padding-left: 0; }
"""


def folder_size(folder: Path) -> int:
    return host_files.size_of(Path(folder))


__all__ = ["checked", "esc", "folder_size", "penalty", "publish", "replay_data_script",
           "run_command", "viewer_script"]
