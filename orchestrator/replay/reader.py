"""Reading a replay file as untrusted data: bounded before it is decoded, checked before
any view reads it.

Replay files are shared (a forum post, a ladder's download, a teammate's mail), so every
reader of one reads it here: `arena replay` in the terminal and `--html`, the Python API's
`load_replay` and the ladder's viewer. In order: the file's size; the gzip stream, inflated
into a buffer that stops at MAX_JSON_BYTES; the JSON's nesting and container count, from a
scan of its brackets outside strings (before `json.loads` recurses or allocates); strict
JSON (no NaN or Infinity, even from an overflowing number); then the shape: the envelope's
fields, the keyed rows, the limits on board size, players, rows and turns, and the rows and
map data the game declares (its entry's `replay_shape`). Anything else is an InputError:
one `error:` line, exit status 2. docs/replay.md lists the limits, docs/security.md what
each stops.
"""
from __future__ import annotations

import json
import math
import os
import sys
import zlib
from pathlib import Path
from types import UnionType
from typing import Any, Callable, NoReturn

from engine import InputError
from orchestrator.games import GAMES
from orchestrator.games.entry import ReplayShape
from orchestrator.replay import debug
from orchestrator.text import shown

FORMAT = "robot-arena-replay"
# 2: the replay names the seat of each AI index its rows use (`seats`). Schema 1 left it
# out, and its views took AI i for seat i, which is wrong once a seat is erased; a schema-1
# replay is read with its seats recovered from its result (`recovered_seats`).
SCHEMA = 2
READS = (1, 2)
MiB = 1 << 20

# The official 1000-turn match of 8 AIs x 40 robots is 112 KB of gzip, 0.8 MB of JSON,
# 60,000 lists and objects, nested 7 deep, 610 rows a turn on a board of 77 a side.
MAX_JSON_BYTES = 4 * MiB           # the JSON once inflated: five times that match
MAX_FILE_BYTES = MAX_JSON_BYTES + MiB   # the file (gzip adds little to what it holds)
MAX_CONTAINERS = 500_000           # lists and objects in the JSON
MAX_DEPTH = 32                     # lists and objects inside each other
MAX_SIDE = 512                     # squares a side: the editor's arenas go to 200, a cave
                                   # of 48 bots is 510
MAX_PLAYERS = 256                  # arena's map generator seats up to 64 AIs
MAX_NAME = 256                     # characters of a name: a player's, the map's, the game's
                                   # (a bot's own name is cut to 40, a ladder's is 32)
MAX_TABLES = 64                    # tables of the state (the games have 1 to 4)
MAX_ROWS = 50_000                  # rows in one turn's state, every table together
MAX_TURNS = 100_000                # the longest preset is 1000 turns
MAX_FRAME_ROWS = 5_000_000         # rows in every turn's state together (rows x turns):
                                   # what the page's viewer holds at once


def read(path: Path, name: str | None = None) -> dict[str, Any]:
    """The replay in the file at `path`, checked; an InputError names `name` (default: the
    path) and the problem."""
    shown_as = shown(name if name is not None else str(path))
    return checked(_inflated(Path(path), shown_as), shown_as)


def checked(text: bytes, name: str) -> dict[str, Any]:
    """The replay in a file's JSON bytes (`text`, within MAX_JSON_BYTES), decoded and
    checked; an InputError names `name` (shown as it is) and the problem."""
    data: dict[str, Any] = _decoded(text, name)      # _Checker.replay checks it
    del text
    _Checker(name).replay(data)
    return data


def read_json(path: Path, name: str) -> Any:
    """A gzip JSON file of ours read within the replay's limits, unchecked beyond them (the
    caller checks its shape): the ladder's marks set aside from a replay."""
    shown_as = shown(name)
    return _decoded(_inflated(Path(path), shown_as), shown_as)


# -- bytes --------------------------------------------------------------------------------
def bounded_bytes(path: Path, name: str, what: str, limit: int) -> bytes:
    """At most `limit` bytes of the file a `what` ("replay", "position") is read from,
    or one InputError naming it: missing, a folder, unreadable, or larger than `limit`.
    Opened without waiting for a writer: a FIFO no one writes to (planted where a kept
    replay goes) reads as empty rather than waiting forever; a pipe that is written to (a
    shell's `<(zcat F)`) is read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as file:
            os.set_blocking(fd, True)
            raw = file.read(limit + 1)
    except FileNotFoundError:
        raise InputError(f"{name}: {what} file not found") from None
    except IsADirectoryError:
        raise InputError(f"{name}: a folder, not a {what} file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read the {what} ({exc.strerror})") from None
    if len(raw) > limit:
        raise InputError(f"{name}: the file is over {limit // MiB} MiB, more than a {what} "
                         f"can be")
    return raw


def _inflated(path: Path, name: str) -> bytes:
    """The file's JSON bytes: at most MAX_FILE_BYTES read, at most MAX_JSON_BYTES inflated
    (zlib stops there, so a bomb costs no more), from one gzip member, as the project
    writes it (a file of many members makes the reader open each in turn: 250,000 tiny
    ones in 5 MiB took 5 s)."""
    raw = bounded_bytes(path, name, "replay", MAX_FILE_BYTES)
    inflate = zlib.decompressobj(wbits=31)          # gzip: zlib checks its header and CRC
    try:
        text = inflate.decompress(raw, MAX_JSON_BYTES + 1)
    except zlib.error as exc:
        raise InputError(f"{name}: not a replay file (not gzip, or a damaged one: "
                         f"{shown(str(exc))[:80]})") from None
    if len(text) > MAX_JSON_BYTES:
        raise InputError(f"{name}: the replay inflates to more than "
                         f"{MAX_JSON_BYTES // MiB} MiB (a gzip bomb?); a replay is at most that")
    if not inflate.eof:
        raise InputError(f"{name}: not a replay file (its gzip stream is cut short)")
    if inflate.unused_data:
        raise InputError(f"{name}: not a replay file (there is more after its gzip stream; a "
                         f"replay is one gzip member)")
    return text


# -- JSON ---------------------------------------------------------------------------------
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_QUOTES_OR_BRACKETS = bytes(b for b in range(256) if b not in b'"[]{}')
_DIGITS_AS_ZERO = bytes.maketrans(b"0123456789E", b"0000000000e")


def _may_overflow(text: bytes) -> bool:
    """Whether a number in `text` may be too big for a float (it would read as Infinity):
    a run of 200 digits, or a positive exponent of three digits. Without either, every
    number is below 10^299, so each float is checked (a Python call per float) only when
    one is found. Bytes methods only: a regular expression took 0.6 s on 4 MiB of digits."""
    marks = text.translate(_DIGITS_AS_ZERO)
    return b"0" * 200 in marks or b"e000" in marks or b"e+000" in marks


class NotFinite(ValueError):
    """Strict JSON's refusal of NaN, Infinity and a number past a float (`1e999`)."""


def no_constant(word: str) -> Any:
    """json.loads' parse_constant for strict JSON: NaN and Infinity are refused."""
    raise NotFinite(f"holds {word}, which JSON does not allow")


def finite(text: str) -> float:
    """json.loads' parse_float for strict JSON: a number past a float is refused."""
    value = float(text)
    if not math.isfinite(value):
        raise NotFinite(f"holds the number {text[:20]}, which is Infinity as a float")
    return value


def _brackets(text: bytes) -> bytes:
    """The JSON's brackets outside its strings, `[` and `]` for both kinds, found with
    bytes methods only (a regular expression made an object per string: 280 MiB for 8 MiB
    of short strings). Once escaped backslashes and quotes are dropped, every quote left
    opens or closes a string: what lies before the first, between the second and the
    third, and so on, is outside them."""
    plain = text.replace(b"\\\\", b"").replace(b'\\"', b"")
    marks = plain.translate(None, _NOT_QUOTES_OR_BRACKETS)
    del plain
    return b"".join(marks.split(b'"')[::2]).translate(_BRACKETS)


def _decoded(text: bytes, name: str, what: str = "replay") -> Any:
    """Strict JSON, parsed only once the nesting and the count of containers are known;
    `what` the file is (a replay, a position) names it in the errors."""
    brackets = _brackets(text)
    containers = brackets.count(b"[")
    if containers > MAX_CONTAINERS:
        raise InputError(f"{name}: the {what} holds {containers:,} lists and objects; a "
                         f"{what} holds at most {MAX_CONTAINERS:,}")
    # Each pass drops the innermost pairs: what is left after MAX_DEPTH passes nests
    # deeper, or never closes.
    for _ in range(MAX_DEPTH):
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            break
        brackets = shorter
    if brackets:
        raise InputError(f"{name}: not a {what} file (its lists and objects nest more than "
                         f"{MAX_DEPTH} deep, or do not close)")
    try:
        return json.loads(text.decode("utf-8"), parse_constant=no_constant,
                          parse_float=finite if _may_overflow(text) else None)
    except UnicodeDecodeError:
        raise InputError(f"{name}: not a {what} file (not UTF-8 text)") from None
    except NotFinite as exc:
        raise InputError(f"{name}: not a {what} file (it {exc})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not a {what} file ({shown(str(exc))[:120]})") from None
    except RecursionError:      # not reached: the scan above bounds the nesting
        raise InputError(f"{name}: not a {what} file (nested too deep)") from None
    except ValueError:          # Python's limit on the digits of an integer it reads
        raise InputError(f"{name}: not a {what} file (it holds an integer of over "
                         f"{sys.get_int_max_str_digits()} digits)") from None


# -- shape --------------------------------------------------------------------------------
def _fits(value: Any, shape: Any) -> bool:
    if shape is int:
        return type(value) is int
    if isinstance(shape, UnionType):
        return any(_fits(value, part) for part in shape.__args__)
    if isinstance(shape, type):
        return isinstance(value, shape)
    if isinstance(shape, tuple):
        return isinstance(value, list) and len(value) == len(shape) and all(
            _fits(item, part) for item, part in zip(value, shape, strict=True))
    if isinstance(shape, list):
        return isinstance(value, list) and all(_fits(item, shape[0]) for item in value)
    raise TypeError(f"not a shape: {shape!r}")


_PLURALS = {int: "integers", str: "strings"}


_JSON_TYPES = (dict, list, str, int, float, bool, type(None))


def _compiled(shape: Any) -> Callable[[Any], bool]:
    """`_fits` for one shape, quicker for the usual row (a tuple of JSON's types, matched
    by exact type as `json.loads` makes them: an int is never a bool)."""
    if isinstance(shape, tuple) and all(part in _JSON_TYPES for part in shape):
        return lambda value: type(value) is list and tuple(map(type, value)) == shape
    return lambda value: _fits(value, shape)


def _described(shape: Any) -> str:
    if shape is type(None):
        return "null"
    if isinstance(shape, UnionType):
        return " or ".join(_described(part) for part in shape.__args__)
    if isinstance(shape, type):
        return {int: "an integer", str: "a string", float: "a number", dict: "an object",
                list: "a list", bool: "true or false"}.get(shape, shape.__name__)
    if isinstance(shape, tuple) and len(set(shape)) == 1 and shape[0] in _PLURALS:
        return f"a list of {len(shape)} {_PLURALS[shape[0]]}"
    if isinstance(shape, tuple):
        return f"a list of {len(shape)}: [{', '.join(_described(p) for p in shape)}]"
    return f"a list of {_described(shape[0])}"


ENVELOPE = {"game": str, "seed": int, "rules": dict, "map": dict, "players": list,
            "initial": dict, "turns": list, "marks": list, "result": dict, "output": dict}
PLAYER = {"name": str, "bot": str, "sha256": str}
MARK = {"turn": int | None, "kind": str, "player": str, "reason": str | None}


class _Checker:
    """The checks after decoding; `fail` makes the InputError."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, problem: str) -> NoReturn:
        raise InputError(f"{self.name}: {where}: {problem}")

    def fields(self, value: dict[str, Any], shapes: dict[str, Any], where: str) -> None:
        for key, shape in shapes.items():
            if key not in value:
                self.fail(where + key, "missing")
            if not _fits(value[key], shape):
                self.fail(where + key, f"must be {_described(shape)}")

    def replay(self, data: Any) -> None:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError(f"{self.name}: not a replay file")
        if data.get("schema") not in READS or type(data.get("schema")) is not int:
            raise InputError(f"{self.name}: replay schema {shown(data.get('schema'))[:40]}, "
                             f"this version reads {' and '.join(map(str, READS))}")
        self.fields(data, ENVELOPE, "")
        self.board(data["map"])
        players = data["players"]
        if not 1 <= len(players) <= MAX_PLAYERS:
            self.fail("players", f"{len(players)} players; a replay has 1 to {MAX_PLAYERS}")
        for seat, player in enumerate(players):
            if not isinstance(player, dict):
                self.fail(f"players[{seat}]", "must be an object")
            self.fields(player, PLAYER, f"players[{seat}].")
            self.short(player["name"], f"players[{seat}].name")
        self.short(data["game"], "game")
        self.short(data["map"]["name"], "map.name")
        for i, mark in enumerate(data["marks"]):
            if not isinstance(mark, dict):
                self.fail(f"marks[{i}]", "must be an object")
            self.fields(mark, MARK, f"marks[{i}].")
        for key, text in data["output"].items():
            if not isinstance(text, str):
                self.fail(f"output.{shown(key)[:40]}", "must be a string")
        shape = _shape_of(data["game"])
        self.fields(data["map"], shape.map, "map.")
        self.frames(data, shape.tables)
        if data["schema"] == 1:
            data["seats"] = self.recovered(data)
        else:
            self.seats(data)
        if debug.SECTION in data:
            self.debug(data)

    def debug(self, data: dict[str, Any]) -> None:
        """The bots' marks (orchestrator/replay/debug.py): of the replay's AIs and turns,
        on its board, within what the host keeps."""
        board = data["map"]
        side = (board.get("width", board["size"]), board.get("height", board["size"]))
        try:
            debug.check(data[debug.SECTION], len(data["seats"]),
                        {entry["turn"] for entry in data["turns"]}, side)
        except debug.Bad as exc:
            raise InputError(f"{self.name}: {exc}") from None

    def seats(self, data: dict[str, Any]) -> None:
        """`seats`: the seat (index into `players`) of each AI index the rows and events
        use, one per AI of the match, in seat order."""
        seats, count = data.get("seats"), len(data["players"])
        if not isinstance(seats, list) or not all(type(s) is int for s in seats):
            self.fail("seats", "must be a list of integers (the seat of each AI)")
        if len(seats) > count or seats != sorted(set(seats)) or \
                not all(0 <= s < count for s in seats):
            self.fail("seats", f"must be at most {count} distinct seats of players, in order")

    def recovered(self, data: dict[str, Any]) -> list[int]:
        """A schema-1 replay's seats, from its result: a seat erased or never loaded left
        the match's last attempt (in a game that erases); in a forfeit game every seat
        stays. A replay whose result does not say is refused."""
        names = [p["name"] for p in data["players"]]
        statuses: dict[str, str] = {}
        for entry in data["result"].get("players") or ():
            if isinstance(entry, dict) and isinstance(entry.get("name"), str) and \
                    isinstance(entry.get("status"), str):
                statuses[entry["name"]] = entry["status"]
        if sorted(statuses) != sorted(names) or len(set(names)) != len(names):
            raise InputError(f"{self.name}: a schema-1 replay whose result does not give "
                             f"each player's status: which seat each AI is cannot be told")
        found = GAMES.get(data["game"])
        if all(statuses[n] == "ok" for n in names):
            return list(range(len(names)))
        if found is None:
            raise InputError(f"{self.name}: a schema-1 replay of a game this version does not "
                             f"know, with a seat erased: which seat each AI is cannot be told")
        return lineup([statuses[n] for n in names], found.failure)

    def short(self, text: str, where: str) -> None:
        if len(text) > MAX_NAME:
            self.fail(where, f"{len(text):,} characters; a name has at most {MAX_NAME}")

    def board(self, board: dict[str, Any]) -> None:
        """The map's name and its size (and width and height, where given), and a plain
        view's grid: the views draw a board of size x height squares."""
        self.fields(board, {"name": str, "size": int}, "map.")
        for key in ("size", "width", "height"):
            if key in board:
                side = board[key]
                if type(side) is not int or not 1 <= side <= MAX_SIDE:
                    self.fail(f"map.{key}", f"{shown(side)[:40]} squares a side; a board has "
                                            f"1 to {MAX_SIDE} squares a side")
        grid = board.get("grid")
        if isinstance(grid, list) and (len(grid) > MAX_SIDE or any(
                isinstance(line, str) and len(line) > MAX_SIDE for line in grid)):
            self.fail("map.grid", f"more than {MAX_SIDE} squares a side; a board has at most "
                                  f"{MAX_SIDE}")

    def frames(self, data: dict[str, Any], tables: dict[str, tuple[Any, ...]]) -> None:
        """The initial state and every turn: keyed rows that fit the game's tables, and
        no more rows than the limits, counted as the frames are rebuilt (keys only)."""
        keys: dict[str, set[Any]] = {}
        for table in tables:
            if table not in data["initial"]:
                self.fail(f"initial.{table}", "missing")
        fits = {table: _compiled(shape) for table, shape in tables.items()}
        self.rows(data["initial"], fits, tables, keys, "initial")
        rows = sum(len(ids) for ids in keys.values())
        total = rows
        turns = data["turns"]
        if len(turns) > MAX_TURNS:
            self.fail("turns", f"{len(turns):,} turns; a replay has at most {MAX_TURNS:,}")
        for t, entry in enumerate(turns):
            where = f"turns[{t}]"
            if not isinstance(entry, dict):
                self.fail(where, "must be an object")
            self.fields(entry, {"turn": int}, where + ".")
            changed, gone = entry.get("changed", {}), entry.get("gone", {})
            if not isinstance(changed, dict):
                self.fail(where + ".changed", "must be an object")
            if not isinstance(gone, dict):
                self.fail(where + ".gone", "must be an object")
            rows += self.rows(changed, fits, tables, keys, where + ".changed")
            for table, ids in gone.items():
                if not isinstance(ids, list) or not all(_key(rid) for rid in ids):
                    self.fail(f"{where}.gone.{shown(table)[:40]}",
                              "must be a list of row keys (integers or strings)")
                present = keys.get(table, set())
                for rid in ids:
                    if rid in present:
                        present.discard(rid)
                        rows -= 1
            total += rows
            if total > MAX_FRAME_ROWS:
                self.fail("turns", f"the frames up to turn {entry['turn']} hold over "
                                   f"{MAX_FRAME_ROWS:,} rows (rows x turns); a replay holds "
                                   f"at most {MAX_FRAME_ROWS:,}")

    def rows(self, state: dict[str, Any], fits: dict[str, Callable[[Any], bool]],
             tables: dict[str, tuple[Any, ...]], keys: dict[str, set[Any]],
             where: str) -> int:
        """Check a state's (or a turn's changes') rows; add their keys to `keys`; the
        number of rows that are new."""
        new = 0
        for table, rows in state.items():
            here = f"{where}.{shown(table)[:40]}"
            if not isinstance(rows, list):
                self.fail(here, "must be a list of rows")
            fit = fits.get(table)
            present = keys.setdefault(table, set())
            if len(keys) > MAX_TABLES:
                self.fail(here, f"over {MAX_TABLES} tables; a replay's state has at most "
                                f"{MAX_TABLES}")
            for i, row in enumerate(rows):
                if not isinstance(row, list) or not row or not _key(row[0]):
                    self.fail(f"{here}[{i}]", "a row must be a list that starts with its key "
                                              "(an integer or a string)")
                if fit is not None and not fit(row):
                    self.fail(f"{here}[{i}]", f"a row of {shown(table)[:40]} must be "
                                              f"{_described(tables[table])}")
                if row[0] not in present:
                    present.add(row[0])
                    new += 1
        if sum(len(ids) for ids in keys.values()) > MAX_ROWS:
            self.fail(where, f"the state holds over {MAX_ROWS:,} rows; a replay's state holds "
                             f"at most {MAX_ROWS:,}")
        return new


def lineup(statuses: list[str], failure: str) -> list[int]:
    """The seats of a match's last attempt, from each seat's final status (by seat): a game
    that erases plays on without its erased AIs and those that never loaded; a forfeit game
    keeps every seat (orchestrator/runner/match.py)."""
    if failure == "forfeit":
        return list(range(len(statuses)))
    return [i for i, status in enumerate(statuses) if status not in ("erased", "load_error")]


def ai_players(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay's players by AI index, as its rows and events number them (a replay the
    reader checked, or one just built, holds `seats`)."""
    players = data["players"]
    seats = data.get("seats")
    return [players[s] for s in seats] if seats is not None else list(players)


def _key(value: Any) -> bool:
    return type(value) is int or isinstance(value, str)


def _shape_of(game: str) -> ReplayShape:
    """The shape the game's entry declares; none (the envelope only) for a game this
    registry does not know, or one that declares none."""
    found = GAMES.get(game)
    return found.replay_shape if found is not None and found.replay_shape else ReplayShape()
