"""The results store: one SQLite file of runs, matches and participants.

Only the parent process writes, one transaction per finished match, so a match is either
wholly recorded or not at all, whatever interrupts the run. A match's id is a digest of
everything the match is a function of, so a rerun finds what is already done.
"""
from __future__ import annotations

import base64
import errno
import hashlib
import json
import math
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NotRequired, TypedDict, TypeGuard, cast

from engine import InputError
from orchestrator.results import penalties
from orchestrator.results.match_result import MatchData
from sandbox.isolation import SCRATCH_BYTES
from sandbox.shown import shown

INPUTS_BYTES = 1 << 20         # the largest match record read back (an honest one: KiBs)
_PENALTY_BYTES = 1 << 14       # a player's kept penalties (at most about 4 KiB)
_STATS_BYTES = 1 << 16         # a player's stats (an honest one: under 200 bytes)
DESCRIPTION_CHARS = 300        # a bot's description (orchestrator/runner/bots.py cuts it so)
_MOST_PLAYERS = 256            # a match's players (as a replay's; arena seats 64 at most)

# Each column a reader does arithmetic on or shows, with the types arena writes to it.
_TEXT, _COUNT, _MAYBE_TEXT, _MAYBE_COUNT, _SEAT, _FIGURE, _MAYBE_FIGURE, _WHOLE = (
    "text", "count", "text?", "count?", "seat", "figure", "figure?", "whole")
_WANT = {_TEXT: f"text of at most {_STATS_BYTES} characters", _COUNT: "a whole number from 0",
         _MAYBE_TEXT: "text or null", _MAYBE_COUNT: "a whole number from 0 or null",
         _SEAT: "a whole number from 0 to 255", _FIGURE: "a finite number from 0",
         _MAYBE_FIGURE: "a finite number from 0 or null",
         _WHOLE: "a whole number"}
_MATCH_FIELDS = {"id": _TEXT, "game": _TEXT, "map": _TEXT, "seed": _WHOLE, "turns": _COUNT,
                 "end": _TEXT, "restarts": _COUNT, "replay": _MAYBE_TEXT}
_PLAYER_FIELDS = {"seat": _SEAT, "name": _TEXT, "bot": _TEXT, "sha256": _TEXT,
                  "rank": _COUNT, "status": _TEXT, "reason": _MAYBE_TEXT, "turn": _MAYBE_COUNT,
                  "overheats": _COUNT, "cpu_s": _FIGURE, "peak_rss_mb": _FIGURE,
                  "stats": _TEXT, "own_s": _MAYBE_FIGURE}


class StoredPlayer(TypedDict):
    """A participant as the store reads it back (`ResultStore._checked`): its row, its
    stats parsed, and the record of its penalties (`penalties.record`)."""

    seat: int
    name: str
    bot: str
    sha256: str
    rank: int
    status: str
    reason: str | None
    turn: int | None
    overheats: int
    cpu_s: float
    peak_rss_mb: float
    stats: dict[str, Any]
    description: str                # "" in a file from before descriptions
    own_s: float | None             # None in a file from before own times
    errors: list[str]
    violations: list[str]
    warnings: list[str]
    output_dropped: int


class StoredMatch(TypedDict):
    """A finished match as the store reads it back, checked (`ResultStore._checked`)."""

    id: str
    game: str
    map: str
    seed: int
    turns: int
    end: str
    restarts: int
    replay: str | None
    players: list[StoredPlayer]
    moves: NotRequired[str]         # the digest of its moves, once kept
    ordinal: NotRequired[int]       # its place in its run's schedule (run_results)


class StoredRun(TypedDict):
    """A run as the store reads it back, checked (`ResultStore._run_row`)."""

    id: str
    kind: str                       # batch, tournament, compare...
    game: str
    created: float                  # seconds since the epoch
    args: dict[str, Any]            # its arguments, as recorded
    planned: int                    # matches planned
    finished: int                   # matches finished


def scratch_fits(files: object) -> TypeGuard[dict[str, str]]:
    """One bot's scratch as arena records it: file names to base64 contents, at most
    SCRATCH_BYTES of names and contents in all (what the sandbox keeps of a bot's)."""
    if not isinstance(files, dict) or len(files) > SCRATCH_BYTES:
        return False
    total = 0
    for name, data in files.items():
        if not (isinstance(name, str) and isinstance(data, str)
                and len(data) <= 2 * SCRATCH_BYTES):
            return False
        try:
            total += len(name.encode()) + len(base64.b64decode(data, validate=True))
        except (ValueError, UnicodeError):
            return False
    return bool(total <= SCRATCH_BYTES)


def _plain_stats(value: Any, depth: int = 0) -> bool:
    """A player's stats as a game writes them: an object of finite numbers, text, booleans
    and nulls, or objects of those (Cave Rangers' `faults`)."""
    if not isinstance(value, dict) or depth > 1:
        return False
    for item in value.values():
        if isinstance(item, dict):
            if not _plain_stats(item, depth + 1):
                return False
        elif not (isinstance(item, (int, str, bool, type(None)))
                  or isinstance(item, float) and math.isfinite(item)):
            return False
    return True


def _fits(value: Any, kind: str) -> bool:
    """Whether a column's value is of the kind arena writes there."""
    if value is None:
        return kind in (_MAYBE_TEXT, _MAYBE_COUNT, _MAYBE_FIGURE)
    if kind in (_TEXT, _MAYBE_TEXT):
        return isinstance(value, str) and len(value) <= _STATS_BYTES
    if kind in (_FIGURE, _MAYBE_FIGURE):
        return isinstance(value, (int, float)) and math.isfinite(value) and value >= 0
    if not isinstance(value, int):
        return False
    if kind == _WHOLE:
        return True
    return 0 <= value <= (_MOST_PLAYERS - 1 if kind == _SEAT else 1 << 62)

# Each AI's own time, kept beside its row (`own_times`); null in a file from before it.
_OWN_JOIN = "LEFT JOIN own_times o ON o.match_id = p.match_id AND o.seat = p.seat"

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, game TEXT NOT NULL, created REAL NOT NULL,
    args TEXT NOT NULL, planned INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS run_matches (
    run_id TEXT NOT NULL, match_id TEXT NOT NULL, ordinal INTEGER NOT NULL,
    PRIMARY KEY (run_id, match_id)
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, map TEXT NOT NULL, seed INTEGER NOT NULL,
    rules TEXT NOT NULL, engine_version TEXT NOT NULL, turns INTEGER NOT NULL,
    end_reason TEXT NOT NULL, restarts INTEGER NOT NULL, sandbox TEXT NOT NULL,
    replay TEXT, wall_s REAL NOT NULL, finished REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS participants (
    match_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, bot TEXT NOT NULL,
    sha256 TEXT NOT NULL, rank INTEGER NOT NULL, status TEXT NOT NULL, reason TEXT,
    turn INTEGER, overheats INTEGER NOT NULL, cpu_s REAL NOT NULL, peak_rss_mb REAL NOT NULL,
    stats TEXT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS inputs (
    match_id TEXT PRIMARY KEY, spec TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS scratch (
    match_id TEXT NOT NULL, seat INTEGER NOT NULL, files TEXT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    match_id TEXT PRIMARY KEY, digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bot_texts (
    sha256 TEXT PRIMARY KEY, description TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS penalties (
    match_id TEXT NOT NULL, seat INTEGER NOT NULL, record TEXT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS own_times (
    match_id TEXT NOT NULL, seat INTEGER NOT NULL, own_s REAL NOT NULL,
    PRIMARY KEY (match_id, seat)
);
"""


class WriteFailed(InputError):
    """The results (the database, or a replay file beside it) could not be written: `path`
    is the file, `problem` what went wrong, `full` whether it was a full disk. What was
    recorded before stays; the match being written is not, and a rerun plays it."""

    def __init__(self, path: Path, exc: BaseException) -> None:
        self.path, self.full = Path(path), no_room(exc)
        if self.full:
            self.problem = "the disk is full"
        elif isinstance(exc, OSError):
            self.problem = exc.strerror or str(exc)
        else:
            self.problem = str(exc)
        super().__init__(f"{self.path}: cannot write the results ({self.problem})")

    def hint(self) -> str:
        """What to do before the same command, run again, resumes."""
        return "free some space" if self.full else "fix that"


def no_room(exc: BaseException) -> bool:
    """Whether an error is a full disk (or quota): SQLite's SQLITE_FULL, or ENOSPC."""
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or \
            "disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def digest(data: Any) -> str:
    """A stable short id of plain data."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


class Store:
    """An open results file."""

    schema = SCHEMA

    def __init__(self, path: Path, shared: bool = False) -> None:
        """`shared`: the connection is used from several threads, one at a time (the
        caller holds a lock)."""
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30,
                                      check_same_thread=not shared)
            # The journal's mode first: a new file's tables are then written to the log,
            # synced once, where each CREATE of the schema was its own transaction synced
            # to the disk (200 ms of every batch into a new results file).
            self.db.text_factory = self._text
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(self.schema)
        except (OSError, sqlite3.DatabaseError) as exc:
            if no_room(exc):
                raise InputError(f"{self.path}: cannot open the results database (the disk "
                                 f"is full); free some space, then run the same command "
                                 f"again") from None
            raise InputError(f"{self.path}: cannot open the results database ({exc})") from None

    def _text(self, data: bytes) -> str:
        """A text value of the file, as SQLite hands it over: UTF-8, or the file is
        refused (a results file may come from anyone; sqlite3's own decoding raised
        OperationalError, a traceback in every command that read it)."""
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{self.path}: the results file holds text that is not UTF-8 "
                             f"({shown(data[:40].decode('utf-8', 'replace'))!r}); it is not "
                             f"one arena writes") from None

    def close(self) -> None:
        self.db.close()

    # -- writing -----------------------------------------------------------------------
    def add_run(self, run_id: str, kind: str, game: str, args: dict[str, Any],
                match_ids: list[str]) -> None:
        with self.writing(), self.transaction():
            self.db.execute("INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?, ?, ?)",
                            (run_id, kind, game, time.time(), json.dumps(args), len(match_ids)))
            self.db.executemany("INSERT OR IGNORE INTO run_matches VALUES (?, ?, ?)",
                                [(run_id, mid, i) for i, mid in enumerate(match_ids)])

    def add_match(self, match_id: str, result: MatchData, wall_s: float,
                  inputs: dict[str, Any] | None = None) -> None:
        """Record one finished match and its participants, all or nothing. `inputs`: what
        the match was played from (its planned spec, without the bots' and the map's
        text), so that `arena replay DB:MATCH_ID` can play it again exactly."""
        with self.writing(), self.transaction():
            self.write_match(match_id, result, wall_s)
            if inputs is not None:
                self.db.execute("INSERT OR REPLACE INTO inputs VALUES (?, ?)",
                                (match_id, json.dumps(inputs, sort_keys=True)))

    def write_match(self, match_id: str, result: MatchData, wall_s: float) -> None:
        """add_match's statements, inside the caller's transaction."""
        self.db.execute(
            "INSERT OR REPLACE INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, result["game"], result["map"], result["seed"],
             json.dumps(result["rules"], sort_keys=True), result["engine_version"],
             result["turns"], result["end"], result["restarts"],
             result.get("sandbox_mode", ""), result.get("replay"), wall_s, time.time()))
        self.db.execute("DELETE FROM participants WHERE match_id = ?", (match_id,))
        self.db.executemany(
            "INSERT INTO participants VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(match_id, p["seat"], p["name"], p["bot"], p["sha256"], p["rank"],
              p["status"], p["reason"], p["turn"], p["overheats"], p["cpu_s"],
              p["peak_rss_mb"], json.dumps(p["stats"], sort_keys=True))
             for p in result["players"]])
        if result.get("moves"):       # the digest of its moves (`arena compare`'s "identical")
            self.db.execute("INSERT OR REPLACE INTO moves VALUES (?, ?)",
                            (match_id, result["moves"]))
        # What each bot says of itself, by its file's digest (a function of its bytes);
        # a results file from before this table reads "" for every bot.
        self.db.executemany(
            "INSERT OR REPLACE INTO bot_texts VALUES (?, ?)",
            [(p["sha256"], p["description"]) for p in result["players"] if "description" in p])
        # What the participants' row has no column for: the first error, the refused
        # attempts, rule 1's warnings, the output cut (orchestrator/results/penalties.py).
        self.db.execute("DELETE FROM penalties WHERE match_id = ?", (match_id,))
        self.db.executemany(
            "INSERT INTO penalties VALUES (?, ?, ?)",
            [(match_id, p["seat"], json.dumps(penalties.record(p), sort_keys=True))
             for p in result["players"]])
        # Each AI's own time (its requests' wall time less their run-queue wait), beside
        # its CPU; a results file from before this table reads null (shown as a dash).
        self.db.execute("DELETE FROM own_times WHERE match_id = ?", (match_id,))
        self.db.executemany(
            "INSERT INTO own_times VALUES (?, ?, ?)",
            [(match_id, p["seat"], p["own_s"]) for p in result["players"] if "own_s" in p])
        self.db.execute("DELETE FROM scratch WHERE match_id = ?", (match_id,))
        self.db.executemany(
            "INSERT INTO scratch VALUES (?, ?, ?)",
            [(match_id, p["seat"], json.dumps(p["scratch"], sort_keys=True))
             for p in result["players"] if "scratch" in p])

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """`with store.transaction():` one all-or-nothing write. After a failed statement
        or COMMIT (a full disk), SQLite may have rolled back already: the ROLLBACK is
        sent only while a transaction is open, so the first error is the one raised."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass                      # the first error says what went wrong
            raise

    @contextmanager
    def writing(self, path: Path | None = None) -> Iterator[None]:
        """A write of the results (this database, or `path` beside it): its failure (a
        full disk, a read-only file, a lock held too long) raises WriteFailed."""
        try:
            yield
        except (OSError, sqlite3.OperationalError) as exc:
            raise WriteFailed(path or self.path, exc) from None

    # -- reading -----------------------------------------------------------------------
    def done(self, match_ids: Iterable[str]) -> set[str]:
        ids = list(match_ids)
        found: set[str] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            rows = self.db.execute(
                f"SELECT id FROM matches WHERE id IN ({','.join('?' * len(chunk))})", chunk)
            found.update(row[0] for row in rows)
        return found

    def scratch(self, match_ids: Iterable[str]) -> dict[str, dict[int, dict[str, Any]]]:
        """The scratch each seat of these matches ended with (series games), by match."""
        ids = list(match_ids)
        found: dict[str, dict[int, dict[str, Any]]] = {mid: {} for mid in ids}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            rows = self.db.execute(
                f"SELECT match_id, seat, files FROM scratch WHERE match_id IN "
                f"({','.join('?' * len(chunk))})", chunk)
            for match_id, seat, files in rows:
                try:
                    parsed = json.loads(files) if isinstance(files, str) and \
                        len(files) <= _STATS_BYTES else None
                except (ValueError, RecursionError):
                    parsed = None
                if not (isinstance(seat, int) and 0 <= seat < _MOST_PLAYERS
                        and scratch_fits(parsed)):
                    # A forged row was a JSONDecodeError traceback on resuming the run.
                    raise InputError(f"{self.path}: the results file's scratch of match "
                                     f"{str(match_id)[:24]!r} is not one arena writes (a "
                                     f"seat, and a bot's scratch files of at most "
                                     f"{SCRATCH_BYTES} bytes in base64)")
                found[match_id][seat] = parsed
        return found

    def run_results(self, run_id: str) -> list[StoredMatch]:
        """The finished matches of a run in schedule order, each with its participants."""
        return list(self.iter_run_results(run_id))

    def iter_run_results(self, run_id: str) -> Iterator[StoredMatch]:
        """run_results one match at a time, for a summary of a run of any length."""
        rows = self.db.execute(
            "SELECT m.id, rm.ordinal FROM run_matches rm JOIN matches m ON m.id = rm.match_id "
            "WHERE rm.run_id = ? ORDER BY rm.ordinal", (run_id,)).fetchall()
        for mid, ordinal in rows:
            match = self.match(mid)
            match["ordinal"] = ordinal
            yield match

    def run_count(self, run_id: str) -> int:
        """How many of a run's matches are finished."""
        return int(self.db.execute("SELECT COUNT(*) FROM run_matches rm JOIN matches m ON "
                                   "m.id = rm.match_id WHERE rm.run_id = ?",
                                   (run_id,)).fetchone()[0])

    def match(self, match_id: str) -> StoredMatch:
        row = self.db.execute("SELECT id, game, map, seed, turns, end_reason, restarts, replay "
                              "FROM matches WHERE id = ?", (match_id,)).fetchone()
        players = [
            {"seat": seat, "name": name, "bot": bot, "sha256": sha, "rank": rank,
             "status": status, "reason": reason, "turn": turn, "overheats": overheats,
             "cpu_s": cpu_s, "peak_rss_mb": rss, "stats": stats, "description": about,
             "penalties": kept, "own_s": own}
            for seat, name, bot, sha, rank, status, reason, turn, overheats, cpu_s, rss, stats,
            about, kept, own in self.db.execute(
                "SELECT p.seat, p.name, p.bot, p.sha256, p.rank, p.status, p.reason, p.turn, "
                "p.overheats, p.cpu_s, p.peak_rss_mb, p.stats, t.description, x.record, "
                "o.own_s FROM participants p LEFT JOIN bot_texts t ON t.sha256 = p.sha256 "
                "LEFT JOIN penalties x ON x.match_id = p.match_id AND x.seat = p.seat "
                f"{_OWN_JOIN} WHERE p.match_id = ? ORDER BY p.seat", (match_id,))]
        moves = self.db.execute("SELECT digest FROM moves WHERE match_id = ?",
                                (match_id,)).fetchone()
        return self._checked({"id": row[0], "game": row[1], "map": row[2], "seed": row[3],
                              "turns": row[4], "end": row[5], "restarts": row[6],
                              "replay": row[7], "players": players,
                              **({"moves": moves[0]} if moves else {})})

    def iter_matches(self, run_id: str | None = None) -> Iterator[StoredMatch]:
        """`match()` of every finished match of a run (schedule order), or of the file
        (the order they finished in), read in one query rather than two per match."""
        query = ("SELECT m.id, m.game, m.map, m.seed, m.turns, m.end_reason, m.restarts, "
                 "m.replay, p.seat, p.name, p.bot, p.sha256, p.rank, p.status, p.reason, "
                 "p.turn, p.overheats, p.cpu_s, p.peak_rss_mb, p.stats, t.description, "
                 "x.record, o.own_s FROM matches m JOIN participants p ON p.match_id = m.id "
                 "LEFT JOIN bot_texts t ON t.sha256 = p.sha256 "
                 "LEFT JOIN penalties x ON x.match_id = p.match_id AND x.seat = p.seat "
                 + _OWN_JOIN)
        if run_id:
            query += (" JOIN run_matches rm ON rm.match_id = m.id WHERE rm.run_id = ? "
                      "ORDER BY rm.ordinal, p.seat")
        else:
            query += " ORDER BY m.finished, m.id, p.seat"
        current: dict[str, Any] | None = None
        for row in self.db.execute(query, (run_id,) if run_id else ()):
            if current is None or current["id"] != row[0]:
                if current is not None:
                    yield self._checked(current)
                current = {"id": row[0], "game": row[1], "map": row[2], "seed": row[3],
                           "turns": row[4], "end": row[5], "restarts": row[6],
                           "replay": row[7], "players": []}
            (seat, name, bot, sha, rank, status, reason, turn, overheats, cpu_s, rss,
             stats, about, kept, own) = row[8:]
            current["players"].append({
                "seat": seat, "name": name, "bot": bot, "sha256": sha, "rank": rank,
                "status": status, "reason": reason, "turn": turn, "overheats": overheats,
                "cpu_s": cpu_s, "peak_rss_mb": rss, "stats": stats, "description": about,
                "penalties": kept, "own_s": own})
        if current is not None:
            yield self._checked(current)

    def _checked(self, match: dict[str, Any]) -> StoredMatch:
        """A match and its players as arena writes them (each player's stats parsed), or
        an InputError naming the file, the match and the field: a results file may come
        from anyone, SQLite keeps any type in any column, and every reader (summaries,
        the matrix, the games list, compare) does arithmetic on them."""
        def bad(field: str, want: str) -> InputError:
            return InputError(f"{self.path}: the results file's match {shown_id} is not one "
                              f"arena writes ({field} must be {want})")

        shown_id = repr(match["id"])[:40]
        for key, kinds in _MATCH_FIELDS.items():
            if not _fits(match[key], kinds):
                raise bad(key, _WANT[kinds])
        if not match["players"] or len(match["players"]) > _MOST_PLAYERS:
            raise bad("players", f"1 to {_MOST_PLAYERS}")
        for i, player in enumerate(match["players"]):
            for key, kinds in _PLAYER_FIELDS.items():
                if not _fits(player[key], kinds):
                    raise bad(f"players[{i}].{key}", _WANT[kinds])
            about = player.get("description")
            if about is None:
                player["description"] = ""      # a results file from before descriptions
            elif not (isinstance(about, str) and len(about) <= DESCRIPTION_CHARS
                      and shown(about) == about):
                raise bad(f"players[{i}].description", f"plain text of at most "
                          f"{DESCRIPTION_CHARS} characters")
            stats = player["stats"]
            try:
                parsed = json.loads(stats) if len(stats) <= _STATS_BYTES else None
            except (ValueError, RecursionError):
                parsed = None
            if not _plain_stats(parsed):
                raise bad(f"players[{i}].stats", "a JSON object of numbers and text")
            player["stats"] = parsed
            player.update(self._penalties(player.pop("penalties", None), bad, i))
        return cast(StoredMatch, match)

    @staticmethod
    def _penalties(kept: Any, bad: Callable[[str, str], InputError], i: int) -> dict[str, Any]:
        """A participant's kept penalties (`penalties.record`), checked; none kept (a
        results file from before they were): none."""
        if kept is None:
            return penalties.record({})
        try:
            parsed = json.loads(kept) if isinstance(kept, str) and \
                len(kept) <= _PENALTY_BYTES else None
        except (ValueError, RecursionError):
            parsed = None
        if not penalties.valid_record(parsed):
            raise bad(f"players[{i}].penalties", "a record arena writes")
        return parsed

    def inputs(self, match_id: str) -> dict[str, Any] | None:
        """What a match was played from (`add_match`'s `inputs`), or None: not recorded
        (a results file from before they were, or no such match)."""
        # A results file may come from anyone: the record is read only when it is text of
        # a record's size (an honest one is a few KiB), and as JSON without deep nesting.
        row = self.db.execute(
            "SELECT CASE WHEN typeof(spec) = 'text' AND length(CAST(spec AS BLOB)) <= ? "
            "THEN spec END FROM inputs WHERE match_id = ?",
            (INPUTS_BYTES, match_id)).fetchone()
        if row is None:
            return None
        try:
            if row[0] is None:
                raise ValueError(f"not text of at most {INPUTS_BYTES} bytes")
            record: dict[str, Any] = json.loads(row[0])    # checked by stored_replay
            return record
        except (ValueError, RecursionError) as exc:
            raise InputError(f"{self.path}:{match_id}: the results file's record of this match "
                             f"is not one arena writes ({str(exc)[:80]}); it cannot be "
                             f"replayed") from None

    def match_ids(self, prefix: str) -> list[str]:
        """The ids of the matches that start with `prefix` (at most two: enough to tell
        a unique prefix from an ambiguous one)."""
        return [row[0] for row in self.db.execute(
            "SELECT id FROM matches WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 2",
            (len(prefix), prefix))]

    def runs(self) -> list[StoredRun]:
        rows = self.db.execute(
            "SELECT r.id, r.kind, r.game, r.created, r.args, r.planned, "
            "(SELECT COUNT(*) FROM run_matches rm JOIN matches m ON m.id = rm.match_id "
            " WHERE rm.run_id = r.id) FROM runs r ORDER BY r.created").fetchall()
        return [self._run_row(*row) for row in rows]

    def _run_row(self, rid: Any, kind: Any, game: Any, created: Any, args: Any,
                 planned: Any, finished: int) -> StoredRun:
        """A row of the runs table as arena writes it, or an InputError naming the file:
        a results file may come from anyone, and SQLite keeps any type in any column."""
        def text(value: Any) -> bool:
            return isinstance(value, str) and 0 < len(value) <= 200

        problem = None
        if not (text(rid) and text(kind) and text(game)):
            problem = "its id, kind and game must be short text"
        elif not (isinstance(created, (int, float)) and math.isfinite(created)
                  and 0 <= created < 1 << 40):
            problem = "its time must be a finite number of seconds"
        elif not (isinstance(planned, int) and 0 <= planned <= 1 << 40):
            problem = "its planned count must be a whole number"
        elif not (isinstance(args, str) and len(args) <= INPUTS_BYTES):
            problem = f"its arguments must be text of at most {INPUTS_BYTES} bytes"
        else:
            try:
                parsed = json.loads(args)
            except (ValueError, RecursionError):
                parsed = None
            if not isinstance(parsed, dict):
                problem = "its arguments must be a JSON object"
        if problem is not None:
            raise InputError(f"{self.path}: a run in the results file is not one arena "
                             f"writes ({problem})")
        return {"id": rid, "kind": kind, "game": game, "created": created, "args": parsed,
                "planned": planned, "finished": finished}

    def export_rows(self, run_id: str | None = None) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Participants joined with their matches, for CSV; the last column says every
        penalty of the row's player (orchestrator/results/penalties.py)."""
        columns = ["match_id", "game", "map", "seed", "engine_version", "turns", "end_reason",
                   "restarts", "seat", "name", "bot", "sha256", "rank", "status", "reason",
                   "turn", "overheats", "cpu_s", "own_s", "peak_rss_mb", "replay",
                   "output_dropped", "penalties"]
        query = ("SELECT m.id, m.game, m.map, m.seed, m.engine_version, m.turns, m.end_reason,"
                 " m.restarts, p.seat, p.name, p.bot, p.sha256, p.rank, p.status, p.reason,"
                 " p.turn, p.overheats, p.cpu_s, p.peak_rss_mb, m.replay, p.stats, x.record,"
                 " o.own_s FROM participants p JOIN matches m ON m.id = p.match_id"
                 " LEFT JOIN penalties x ON x.match_id = p.match_id AND x.seat = p.seat "
                 + _OWN_JOIN)
        params: tuple[Any, ...] = ()
        if run_id:
            query += " JOIN run_matches rm ON rm.match_id = m.id WHERE rm.run_id = ?"
            params = (run_id,)
        query += " ORDER BY m.finished, m.id, p.seat"
        rows = []
        for row in self.db.execute(query, params):
            player = dict(zip(_PLAYER_FIELDS, (*row[8:19], row[20], row[22]), strict=True))
            player["penalties"] = row[21]
            checked = self._checked({"id": row[0], "game": row[1], "map": row[2],
                                     "seed": row[3], "turns": row[5], "end": row[6],
                                     "restarts": row[7], "replay": row[19],
                                     "players": [player]})["players"][0]
            # own_s beside cpu_s; empty where the file kept none (from before own times).
            rows.append((*row[:18], "" if row[22] is None else row[22], *row[18:20],
                         checked["output_dropped"], "; ".join(penalties.lines(checked))))
        return columns, rows
