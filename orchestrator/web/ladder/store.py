"""The ladder's tables, in the same SQLite file as the results store's (matches,
participants), which records every ladder match as a batch does.

- `ladder_bots`: a bot per game and name, its token's hash, its status and its owner (the
  client address it was uploaded from: the owner's tokens share its limits);
- `ladder_versions`: each uploaded file, with the verdict of its check;
- `ladder_queue`: every match the ladder decided to play, in order; its number is the
  match's public id and picks its seed; a challenge's challenger. A queued match without
  a result is replayed after a restart;
- `ladder_results`: the finished matches in the order they finished (ratings replay
  them in that order), with the full result;
- `ladder_seats`: which bot version sat in each seat of a finished match.
"""
from __future__ import annotations

import json
import math
import secrets
import time
from dataclasses import dataclass

from orchestrator.results.match_result import MatchData
from orchestrator.results.store import SCHEMA, Store

LADDER_SCHEMA = SCHEMA + """
CREATE TABLE IF NOT EXISTS ladder_bots (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL,
    token_hash TEXT NOT NULL, status TEXT NOT NULL, reason TEXT, created REAL NOT NULL,
    owner TEXT, UNIQUE (game, name)
);
CREATE TABLE IF NOT EXISTS ladder_versions (
    bot_id INTEGER NOT NULL, version INTEGER NOT NULL, filename TEXT NOT NULL,
    sha256 TEXT NOT NULL, source BLOB NOT NULL, verdict TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (bot_id, version)
);
CREATE TABLE IF NOT EXISTS ladder_queue (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, seed INTEGER NOT NULL,
    map TEXT NOT NULL, lineup TEXT NOT NULL, rated INTEGER NOT NULL, created REAL NOT NULL,
    challenger INTEGER
);
CREATE TABLE IF NOT EXISTS ladder_results (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, match INTEGER NOT NULL UNIQUE,
    digest TEXT, game TEXT NOT NULL, rated INTEGER NOT NULL, finished REAL NOT NULL,
    result TEXT, error TEXT
);
CREATE TABLE IF NOT EXISTS ladder_seats (
    match INTEGER NOT NULL, seat INTEGER NOT NULL, bot_id INTEGER NOT NULL,
    version INTEGER NOT NULL, rank INTEGER NOT NULL, status TEXT NOT NULL,
    PRIMARY KEY (match, seat)
);
CREATE INDEX IF NOT EXISTS ladder_seats_bot ON ladder_seats (bot_id, match);
"""
# Columns a ladder file made before them lacks, added when it is opened (NULL: unknown;
# such a bot is its own owner, such a challenge was asked by nobody it can charge).
_ADDED = (("ladder_bots", "owner", "TEXT"), ("ladder_queue", "challenger", "INTEGER"))


@dataclass(frozen=True)
class Queued:
    """A match the ladder decided to play."""

    id: int
    game: str
    seed: int
    map: str
    lineup: tuple[tuple[int, int], ...]      # (bot id, version) per seat
    rated: bool
    challenger: int | None = None            # the bot whose token asked for it (unrated)


class LadderStore(Store):
    """The results store with the ladder's tables. Used from several threads under the
    ladder's lock; pages read through their own connections (`reader`)."""

    schema = LADDER_SCHEMA

    def __init__(self, path) -> None:
        super().__init__(path, shared=True)
        self.db.execute("PRAGMA synchronous=FULL")   # an acknowledged upload survives a crash
        for table, column, kind in _ADDED:
            have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    # -- bots --------------------------------------------------------------------------
    def add_bot(self, game: str, name: str, token_hash: str, filename: str, sha256: str,
                source: bytes, verdict: dict, owner: str | None = None) -> int:
        """A new bot with its first version; sqlite3.IntegrityError if the name is taken."""
        with self.transaction():
            cursor = self.db.execute(
                "INSERT INTO ladder_bots (game, name, token_hash, status, reason, created, "
                "owner) VALUES (?, ?, ?, 'active', NULL, ?, ?)",
                (game, name, token_hash, time.time(), owner))
            bot_id = cursor.lastrowid
            assert bot_id is not None          # an INSERT's row
            self._add_version(bot_id, 1, filename, sha256, source, verdict)
        return bot_id

    def add_version(self, bot_id: int, filename: str, sha256: str, source: bytes,
                    verdict: dict) -> int:
        with self.transaction():
            (last,) = self.db.execute("SELECT MAX(version) FROM ladder_versions WHERE bot_id = ?",
                                      (bot_id,)).fetchone()
            self._add_version(bot_id, last + 1, filename, sha256, source, verdict)
            self.db.execute("UPDATE ladder_bots SET status = 'active', reason = NULL "
                            "WHERE id = ?", (bot_id,))
        return last + 1

    def _add_version(self, bot_id, version, filename, sha256, source, verdict) -> None:
        self.db.execute("INSERT INTO ladder_versions VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (bot_id, version, filename, sha256, source,
                         json.dumps(verdict, sort_keys=True), time.time()))

    def set_status(self, bot_id: int, status: str, reason: str | None = None) -> None:
        with self.transaction():
            self.db.execute("UPDATE ladder_bots SET status = ?, reason = ? WHERE id = ?",
                            (status, reason, bot_id))

    def bots(self) -> list[tuple]:
        """(id, game, name, token_hash, status, reason, version, filename, sha256) of every
        bot, with its newest version."""
        return self.db.execute(
            "SELECT b.id, b.game, b.name, b.token_hash, b.status, b.reason, v.version, "
            "v.filename, v.sha256 FROM ladder_bots b JOIN ladder_versions v ON v.bot_id = b.id "
            "AND v.version = (SELECT MAX(version) FROM ladder_versions WHERE bot_id = b.id) "
            "ORDER BY b.id").fetchall()

    def owners(self) -> dict[int, str]:
        """Each bot's owner, where it is known."""
        return dict(self.db.execute("SELECT id, owner FROM ladder_bots "
                                    "WHERE owner IS NOT NULL").fetchall())

    def source(self, bot_id: int, version: int) -> tuple[str, bytes, str]:
        """(filename, source, sha256) of one version."""
        return self.db.execute("SELECT filename, source, sha256 FROM ladder_versions "
                               "WHERE bot_id = ? AND version = ?", (bot_id, version)).fetchone()

    def versions(self, bot_id: int) -> list[tuple]:
        """(version, sha256, created, verdict JSON) of each version of a bot, oldest first."""
        return self.db.execute("SELECT version, sha256, created, verdict FROM ladder_versions "
                               "WHERE bot_id = ? ORDER BY version", (bot_id,)).fetchall()

    # -- matches -----------------------------------------------------------------------
    def next_match_number(self) -> int:
        """The id the next queued match will get."""
        return self.db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM ladder_queue").fetchone()[0]

    def enqueue(self, game: str, map_name: str, lineup: list[tuple[int, int]],
                rated: bool, challenger: int | None = None) -> Queued:
        """Queue a match; its seed is drawn from the OS (63 bits), kept with it so that it
        plays again the same, and shown once it is played. Not a seed derived from the
        match's public number: a bot that knew how, or tried the small ones, could deal
        every opponent's hidden cards (docs/security.md)."""
        seed = secrets.randbits(63)
        with self.transaction():
            cursor = self.db.execute(
                "INSERT INTO ladder_queue (game, seed, map, lineup, rated, created, "
                "challenger) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game, seed, map_name, json.dumps(lineup), int(rated), time.time(),
                 challenger))
            match = cursor.lastrowid
            assert match is not None           # an INSERT's row
        return Queued(match, game, seed, map_name, tuple(map(tuple, lineup)), rated,  # type: ignore[arg-type]  # pairs
                      challenger=challenger)

    def unfinished(self) -> list[Queued]:
        """Queued matches without a result (in flight when the server stopped), in order."""
        rows = self.db.execute(
            "SELECT q.id, q.game, q.seed, q.map, q.lineup, q.rated, q.challenger FROM "
            "ladder_queue q LEFT JOIN ladder_results r ON r.match = q.id WHERE r.seq IS NULL "
            "ORDER BY q.id")
        return [Queued(i, game, seed, map_name, tuple(map(tuple, json.loads(lineup))),
                       bool(rated), challenger=challenger)
                for i, game, seed, map_name, lineup, rated, challenger in rows]

    def finish(self, queued: Queued, digest: str, result: MatchData, wall_s: float,
               suspend: list[tuple[int, str]]) -> int:
        """Record a played match (and the suspensions it causes), all or nothing. Its
        finishing number."""
        with self.transaction():
            self.write_match(digest, result, wall_s)
            cursor = self.db.execute(
                "INSERT INTO ladder_results (match, digest, game, rated, finished, result) "
                "VALUES (?, ?, ?, ?, ?, ?)", (queued.id, digest, queued.game, int(queued.rated),
                                              time.time(), json.dumps(result)))
            self.db.executemany(
                "INSERT INTO ladder_seats VALUES (?, ?, ?, ?, ?, ?)",
                [(queued.id, p["seat"], *queued.lineup[p["seat"]], p["rank"], p["status"])
                 for p in result["players"]])
            self.db.executemany("UPDATE ladder_bots SET status = 'suspended', reason = ? "
                                "WHERE id = ? AND status = 'active'",
                                [(reason, bot_id) for bot_id, reason in suspend])
        assert cursor.lastrowid is not None    # an INSERT's row
        return cursor.lastrowid

    def fail(self, queued: Queued, error: str) -> None:
        """A match no worker could play: recorded, so it is not replayed forever."""
        with self.transaction():
            self.db.execute(
                "INSERT INTO ladder_results (match, game, rated, finished, error) "
                "VALUES (?, ?, 0, ?, ?)", (queued.id, queued.game, time.time(), error[:500]))

    # -- reading results ----------------------------------------------------------------
    def finished_matches(self, game: str | None = None, bot: int | None = None,
                         limit: int = 50) -> list[tuple]:
        """(match, game, seed, map, finished, rated) of the played matches, newest first,
        of one game and with one bot if given."""
        query = ("SELECT r.match, r.game, q.seed, q.map, r.finished, r.rated FROM ladder_results r"
                 " JOIN ladder_queue q ON q.id = r.match WHERE r.error IS NULL")
        params: list = []
        if game:
            query += " AND r.game = ?"
            params.append(game)
        if bot is not None:
            query += " AND r.match IN (SELECT match FROM ladder_seats WHERE bot_id = ?)"
            params.append(bot)
        query += " ORDER BY r.seq DESC LIMIT ?"
        params.append(limit)
        return self.db.execute(query, params).fetchall()

    def seats_of(self, matches: list[int]) -> list[tuple]:
        """(match, bot id, bot name, rank, status, outcome, own s) of every seat of
        `matches`, by seat; the outcome: the status, reason, turn and memory of an erased,
        forfeited or unloaded seat, as its result says (for
        orchestrator/results/penalties.py), else None; own s: its own time, as its result
        says (None: a result from before own times)."""
        if not matches:
            return []
        marks = ','.join('?' * len(matches))
        outcomes = {(match, seat): {"status": status, "reason": reason, "turn": turn,
                                    "peak_rss_mb": peak}
                    for match, seat, status, reason, turn, peak in self.db.execute(
            "SELECT r.match, json_extract(p.value, '$.seat'), json_extract(p.value, "
            "'$.status'), json_extract(p.value, '$.reason'), json_extract(p.value, '$.turn'), "
            "json_extract(p.value, '$.peak_rss_mb') FROM ladder_results r, "
            "json_each(r.result, '$.players') p WHERE r.error IS NULL AND json_extract("
            f"p.value, '$.status') != 'ok' AND r.match IN ({marks})", matches)}
        owns = {(match, seat): own for match, seat, own in self.db.execute(
            "SELECT r.match, json_extract(p.value, '$.seat'), json_extract(p.value, "
            "'$.own_s') FROM ladder_results r, json_each(r.result, '$.players') p WHERE "
            f"r.error IS NULL AND r.match IN ({marks})", matches)}
        return [(*row[:5], outcomes.get((row[0], row[5])), _figure(owns.get((row[0], row[5]))))
                for row in self.db.execute(
            "SELECT s.match, s.bot_id, b.name, s.rank, s.status, s.seat FROM ladder_seats s "
            "JOIN ladder_bots b ON b.id = s.bot_id WHERE s.match IN "
            f"({marks}) ORDER BY s.match, s.seat", matches)]

    def stat_of(self, matches: list[int], stat: str) -> dict[tuple[int, int], object]:
        """{(match, seat): the player's `stat`} of `matches`' results (a game's score,
        orchestrator/results/score.py)."""
        if not matches:
            return {}
        marks = ','.join('?' * len(matches))
        return {(match, seat): value for match, seat, value in self.db.execute(
            "SELECT r.match, json_extract(p.value, '$.seat'), json_extract(p.value, ?) "
            "FROM ladder_results r, json_each(r.result, '$.players') p WHERE r.error IS "
            f"NULL AND r.match IN ({marks})", [f"$.stats.{stat}", *matches])}

    def result(self, match: int) -> str | None:
        """A played match's result JSON, or None (not played, or it failed)."""
        row = self.db.execute("SELECT result FROM ladder_results WHERE match = ? AND "
                              "error IS NULL", (match,)).fetchone()
        return None if row is None else row[0]

    def history(self) -> list[tuple]:
        """(seq, match, game, rated, seats) of every played match, in finishing order;
        seats: [(bot id, version, rank, status)] by seat."""
        seats: dict[int, list] = {}
        for match, bot_id, version, rank, status in self.db.execute(
                "SELECT match, bot_id, version, rank, status FROM ladder_seats "
                "ORDER BY match, seat"):
            seats.setdefault(match, []).append((bot_id, version, rank, status))
        return [(seq, match, game, bool(rated), seats.get(match, []))
                for seq, match, game, rated in self.db.execute(
                    "SELECT seq, match, game, rated FROM ladder_results WHERE error IS NULL "
                    "ORDER BY seq")]

    def challengers(self) -> dict[int, int]:
        """Each challenge's challenger (the bot whose token asked for it), by match."""
        return dict(self.db.execute("SELECT id, challenger FROM ladder_queue "
                                    "WHERE challenger IS NOT NULL").fetchall())


def _figure(value: object) -> float | None:
    """A result's figure as a finite number from 0, else None (not there, or not one)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value) and value >= 0:
        return float(value)
    return None
