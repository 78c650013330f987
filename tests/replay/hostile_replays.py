"""Hostile replay files, built as data: the attacks on the replay readers and
forged shapes, each a few KiB to 3 MB, made in a moment (nothing is committed as a blob).

`CASES` (`ATTACKS`, then `FORGERIES`) lists them with the readers that must refuse each
one: every reader reads a replay through the same bounded reader
(orchestrator/replay/reader.py), so a refusal there holds for all four; a forgery only a
game's terminal drawing trips on (a robot off the board) is refused by the terminal view
alone (the page draws what it can).
"""
from __future__ import annotations

import copy
import functools
import gzip
import json
import struct
import zlib
from dataclasses import dataclass
from typing import Callable

READERS = ("terminal", "html", "api", "ladder")
EVERY = frozenset(READERS)
GIB = 1 << 30


def valid() -> dict:
    """A small, well-formed Robot Arena replay: two robots on a 5x5 board, three turns."""
    robot = [[0, 1, 1, 1, 10, 0, 0, 0], [1, 3, 3, 3, 10, 0, 0, 0]]
    events = {"moves": [[0, 2]], "overheats": [], "shots": [], "exploded": [], "scored": [],
              "hits": [], "pushed": [], "fell": []}
    return {
        "format": "robot-arena-replay", "schema": 2, "engine_version": "1", "game": "arena",
        "rules": {"preset": "seed", "max_turns": 3}, "seed": 7,
        "map": {"name": "five", "size": 5, "rows": ["", " 1", "  #", "", ""], "flags": 1,
                "sight": 11, "owners": [[0, 0], [1, 1]], "blocks": [[0, 2, 2, "wall", 0]]},
        "players": [{"name": "first", "bot": "a.py", "sha256": "0" * 64},
                    {"name": "second", "bot": "b.py", "sha256": "1" * 64}],
        "seats": [0, 1],
        "initial": {"robots": robot, "blocks": [[0, 10]]},
        "turns": [{"turn": 1, "events": events, "changed": {"robots": [[0, 1, 2, 1, 10, 0, 0, 0]]}},
                  {"turn": 2, "events": events, "changed": {"blocks": [[0, 0]]}},
                  {"turn": 3, "events": events, "changed": {}, "gone": {"robots": [1]}}],
        "marks": [{"turn": 3, "kind": "erased", "player": "second", "reason": "cpu time limit"}],
        "result": {"turns": 3, "end": "max_turns", "winner": "first", "runner_up": "second",
                   "restarts": 0, "players": []},
        "output": {"first": "hello\n"},
    }


def cave(square_row: str) -> dict:
    """A small Cave Rangers replay whose third row of squares is `square_row`."""
    data = valid()
    data.update(game="cave", rules={"max_turns": 3}, map={"name": "cavern", "size": 20})
    squares = [[r, "-" * 20] for r in range(20)]
    squares[2] = [2, square_row]
    data["initial"] = {"bots": [[0, 1, 1, 20, 0, 1, 0, 0], [1, 3, 3, 20, 0, 1, 0, 0]],
                       "creatures": [[0, "L", 4, 4]], "nurse": [], "squares": squares}
    data["turns"] = [{"turn": 1, "events": {}, "changed": {"bots": [[0, 1, 2, 20, 1, 1, 0, 0]]}}]
    return data


def packed(data: dict | str) -> bytes:
    """A replay file's bytes, as the project writes them (gzip, timestamp 0)."""
    text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def forged(change: Callable[[dict], None]) -> Callable[[], bytes]:
    def build() -> bytes:
        data = copy.deepcopy(valid())
        change(data)
        return packed(data)
    return build


def with_text(marker_value: str) -> Callable[[], bytes]:
    """The valid replay with its rules replaced by raw JSON text."""
    def build() -> bytes:
        data = valid()
        data["rules"] = "@RULES@"
        return packed(json.dumps(data, separators=(",", ":")).replace('"@RULES@"', marker_value))
    return build


def member(before: bytes, block: bytes, count: int, after: bytes) -> bytes:
    """One gzip member of `before`, `count` times `block`, then `after`, made without
    compressing the whole: after a full flush the compressor starts afresh (no
    dictionary), so every block compresses to the same bytes, written `count` times; the
    trailer's CRC is of everything."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = deflate.compress(before) + deflate.flush(zlib.Z_FULL_FLUSH)
    body = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    tail = deflate.compress(after) + deflate.flush()
    crc = zlib.crc32(before)
    for _ in range(count):
        crc = zlib.crc32(block, crc)
    crc = zlib.crc32(after, crc)
    size = len(before) + count * len(block) + len(after)
    return (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + head + body * count + tail
            + struct.pack("<II", crc, size & 0xFFFFFFFF))


@functools.cache
def gzip_bomb() -> bytes:
    """3 MB of gzip, one member, that inflates to 2.9 GB: a replay whose bot output is
    2.9 GB of "a"."""
    data = valid()
    data["output"] = {"first": "@PAD@"}
    before, after = json.dumps(data, separators=(",", ":")).encode().split(b"@PAD@")
    return member(before, b"a" * (1 << 20), int(2.9e9) >> 20, after)


def many_members() -> bytes:
    """3 MB of gzip members of 1 MiB of spaces each, inside a replay's JSON: 2.9 GB once
    inflated (JSON allows any whitespace between its tokens)."""
    head = gzip.compress(b'{"format":"robot-arena-replay","schema":1,', 9, mtime=0)
    spaces = gzip.compress(b" " * (1 << 20), 9, mtime=0)
    tail = gzip.compress(b'"game":"arena"}', 9, mtime=0)
    return head + spaces * (int(2.9e9) >> 20) + tail


def tiny_members() -> bytes:
    """5 MiB of gzip members of one space each: 250,000 members to open, one by one."""
    head = gzip.compress(b'{"format":"robot-arena-replay","schema":1,', 9, mtime=0)
    return head + gzip.compress(b" ", 9, mtime=0) * 249_000


def huge_board() -> bytes:
    """An 8 KiB file whose board is 10^6 x 10^6 squares."""
    data = valid()
    data["map"]["size"] = 10**6
    data["map"]["rows"] = ["&" * 1000] * 8
    return packed(data)


def robots_by_turns() -> bytes:
    """2,000 robots and 20,000 empty turns: every turn's state copied is 40 million rows."""
    data = valid()
    data["map"]["owners"] = [[i, i % 2] for i in range(2000)]
    data["initial"]["robots"] = [[i, 0, 0, 0, 10, 0, 0, 1] for i in range(2000)]
    data["turns"] = [{"turn": t, "events": {}, "changed": {}} for t in range(1, 20001)]
    return packed(data)


def deep_nesting() -> bytes:
    """JSON nested 200,000 deep."""
    return with_text("[" * 200_000 + "]" * 200_000)()


def unclosed_nesting() -> bytes:
    """200,000 opening brackets that never close."""
    return with_text("[" * 200_000)()


def many_columns(data: dict) -> None:
    data.update(game="nosuch", initial={"t": [[i, "x" * 60] for i in range(30)]},
                map={"name": "m", "size": 5, "columns": {"t": ["c"] * 100_000}})


def many_events(data: dict) -> None:
    data["game"] = "nosuch"
    data["turns"][2]["events"] = {"said": ["e" * 20] * 150_000}


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], bytes]
    says: str                       # a fragment of the error line
    refused_by: frozenset = EVERY   # the readers that must refuse it; the rest show it


# The attacks of the issue, and their near variants.
ATTACKS = [
    Case("gzip bomb, 3 MB inflating to 2.9 GB", gzip_bomb, "inflates to more than"),
    Case("gzip bomb, 3 MB of members inflating to 2.9 GB", many_members, "one gzip member"),
    Case("250,000 gzip members of one space", tiny_members, "one gzip member"),
    Case("a board of 10^6 x 10^6 squares", huge_board, "squares a side"),
    Case("2,000 robots x 20,000 empty turns", robots_by_turns, "rows"),
    Case("JSON nested 200,000 deep", deep_nesting, "nest"),
    Case("200,000 brackets that never close", unclosed_nesting, "nest"),
    Case("NaN in the data", with_text('{"x":NaN}'), "NaN"),
    Case("-Infinity in the data", with_text('[-Infinity]'), "Infinity"),
    Case("a number that overflows to Infinity", with_text('[1e999]'), "Infinity"),
]
# Forged files: not gzip or JSON, and shapes the views do not read.
FORGERIES = [
    Case("a 6 MiB file", lambda: b"\x1f\x8b" + bytes(6 << 20), "more than a replay can be"),
    Case("an integer of 5,000 digits", with_text("9" * 5000), "digits"),
    Case("not gzip", lambda: b'{"format":"robot-arena-replay"}', "not a replay file"),
    Case("truncated gzip", lambda: packed(valid())[:-20], "not a replay file"),
    Case("corrupt deflate data", lambda: (lambda b: b[:12] + bytes(x ^ 0x5A for x in b[12:40])
                                          + b[40:])(packed(valid())), "not a replay file"),
    Case("not UTF-8", lambda: gzip.compress(b'{"format":"\xff\xfe"}', mtime=0), "UTF-8"),
    Case("a list at the top", lambda: packed("[1,2,3]"), "not a replay file"),
    Case("players is a string", forged(lambda d: d.update(players="everyone")), "players"),
    Case("too many players", forged(lambda d: d.update(
        players=[{"name": str(i), "bot": "a.py", "sha256": "0"} for i in range(300)])),
        "players"),
    Case("a player without a name", forged(lambda d: d["players"][0].pop("name")), "name"),
    Case("a row that is a number", forged(lambda d: d["initial"]["robots"].append(5)), "row"),
    Case("a row keyed by a list", forged(
        lambda d: d["initial"]["robots"].append([[1], 1, 1, 1, 10, 0, 0, 0])), "row"),
    Case("changed is a list", forged(lambda d: d["turns"][0].update(changed=[[0, 1]])),
         "changed"),
    Case("gone holds a list", forged(lambda d: d["turns"][2].update(gone={"robots": [[1]]})),
         "gone"),
    Case("a turn that is a string", forged(lambda d: d["turns"].append("next")), "turns"),
    Case("the map size is text", forged(lambda d: d["map"].update(size="5")), "size"),
    Case("a board of 0 squares", forged(lambda d: d["map"].update(size=0)), "size"),
    Case("an arena robot at a text position", forged(
        lambda d: d["initial"]["robots"].__setitem__(0, [0, "1", 1, 1, 10, 0, 0, 0])),
        "robots"),
    Case("an arena robot row too short", forged(
        lambda d: d["turns"][0]["changed"]["robots"].__setitem__(0, [0, 1])), "robots"),
    Case("a mark whose kind is a number", forged(lambda d: d["marks"][0].update(kind=3)),
         "kind"),
    Case("output that is a list", forged(lambda d: d.update(output=["x"])), "output"),
    # The bots' debug marks (orchestrator/replay/debug.py): held to what the host keeps.
    Case("debug marks that are a list", forged(lambda d: d.update(debug=[1])), "debug"),
    Case("debug marks of an AI the replay has not", forged(lambda d: d.update(
        debug={"7": {"1": {"notes": [[0, "x"]]}}})), "not an AI of the replay"),
    Case("debug marks of a turn the replay has not", forged(lambda d: d.update(
        debug={"0": {"99": {"notes": [[0, "x"]]}}})), "not a turn of the replay"),
    Case("a debug dot off the board", forged(lambda d: d.update(
        debug={"0": {"1": {"dots": [[5, 0, "red"]]}}})), "off the board"),
    Case("a debug line of a colour not in the palette", forged(lambda d: d.update(
        debug={"0": {"1": {"lines": [[0, 0, 1, 1, "#ff00ff"]]}}})), "palette"),
    Case("a debug note of 10,000 characters", forged(lambda d: d.update(
        debug={"0": {"1": {"notes": [[0, "n" * 10_000]]}}})), "a note is"),
    Case("200 debug marks in a turn", forged(lambda d: d.update(
        debug={"0": {"1": {"dots": [[1, 1, "red"]] * 200}}})), "marks in a turn"),
    Case("a debug note that is a number", forged(lambda d: d.update(
        debug={"0": {"1": {"notes": [[0, 5]]}}})), "a note is"),
    Case("a player named with 3.5 million characters", forged(
        lambda d: d["players"][0].update(name="a" * 3_500_000)), "a name has at most"),
    Case("100,000 tables", forged(lambda d: d.update(
        game="nosuch", initial={f"t{i}": [] for i in range(100_000)})), "tables"),
    # What the plain view (for a game it does not know) shows only in part, in time.
    Case("100,000 column names", forged(many_columns), "", frozenset()),
    Case("150,000 events in a turn", forged(many_events), "", frozenset()),
    Case("an arena robot far off the board", forged(
        lambda d: d["turns"][2].update(changed={"robots": [[0, 10**9, 1, 1, 10, 0, 0, 0]]})),
        "cannot draw", frozenset({"terminal"})),
    Case("an arena robot of an unknown owner", forged(
        lambda d: d["map"].update(owners=[[1, 1]])), "cannot draw", frozenset({"terminal"})),
]
CASES = ATTACKS + FORGERIES
