"""What a bot's side may send the host, frame by frame: the envelope of every reply.

A sandbox child runs the bot's code in its own process, so every byte it sends may be the
bot's: a reply is checked against the protocol's schema before the host keeps or reads
any of it. Exactly the keys the protocol allows, each of its type and within the bound
the child's own runtime keeps (`_runtime.ERRORS_PER_REPLY` error messages, `_attempts.CAP`
violations, the output it may still print, ...); numbers finite and in range. Anything
else is a protocol violation of that AI. The lengths are checked before any item is
looked at, so the excess is never walked. The moves themselves are the game's: its
`decode_answer` checks them exactly, and the replay keeps what it validated.

The frame's bytes and its number of objects are bounded before it is decoded
(`frame_bytes`, `frame_items`, sized from the request's bot calls): a frame past them is
refused from its length prefix, or at its first object past the count (`_wire`), and
the host spends no more on it than on the largest reply an honest child can send.

The same check runs on the replies of every sandbox mode (`host.exchange`, the jail's and
`--sandbox off`'s players), so the same bots play the same match in each.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, TypedDict, cast

from sandbox.botlib import child_module
from sandbox.limits import Limits

if TYPE_CHECKING:
    import _attempts
    import _harden
    import _marks
    import _runtime
else:
    _runtime, _attempts, _harden = (child_module("_runtime"), child_module("_attempts"),
                                    child_module("_harden"))
    _marks = child_module("_marks")

ERRORS = _runtime.ERRORS_PER_REPLY          # [[robot, text], ...] per reply
ERROR_TEXT = _runtime.ERROR_TEXT_CAP + 100  # a described error, with its prefix
WARNINGS = _runtime.WARNINGS_PER_REPLY      # names of module state changed (rule 1)
WARNING_TEXT = _runtime.WARNING_TEXT_CAP
VIOLATIONS = _attempts.CAP                  # refused attempts per reply
VIOLATION_TEXT = 100                        # `_attempts.Attempts.note` cuts there
FATAL_TEXT = 1000                           # why a child ends itself
LOAD_ERROR_TEXT = 2000                      # why a bot did not load
SCRATCH_FILES, SCRATCH_BYTES = 16, _harden.SCRATCH_BYTES   # an executable bot's scratch
MOST_SECONDS = 1e6                          # busy_s, bot_s, usage's cpu_s
MOST_COUNT = 1 << 53                        # out_dropped, usage's counts
MARKS = _marks.MARKS                        # debug marks and notes per reply
NOTE_TEXT, NOTE_CHARS = _marks.NOTE_TEXT, _marks.NOTE_CHARS
MOST_COORDINATE = _marks.MOST_COORDINATE
PALETTE = frozenset(_marks.PALETTE)
_MARK_SIZE = {"note": 3, "dot": 5, "line": 7}



class Usage(TypedDict):
    """An executable bot's programs, as its keeper reports them with a reply."""

    cpu_s: float          # CPU s of the programs that ended
    peak_mb: float        # their peak RSS, MiB
    running: int          # which start of the program runs now (0: none)


class Reply(TypedDict, total=False):
    """A turn's reply once `checked_reply` accepted it: these keys, each of this type
    and within the bounds above (`_REPLY`). `moves` is the game's to check. A fatal
    frame (the child ends itself) holds `fatal` and at most `busy_s` and `usage`."""

    moves: Any                     # the bot calls' answers (the game's decode_answer)
    errors: list[list[Any]]        # [robot, text]: the call that raised, and why
    bot_s: float                   # the bot's own time of the turn
    busy_s: float                  # the child's time answering
    warn: list[str]                # module state move() changed (rule 1)
    out: str                       # what the bot printed
    out_dropped: int               # characters of output past its cap
    violations: list[str]          # attempts the sandbox refused
    usage: Usage                   # an executable bot's programs
    scratch: dict[str, bytes]      # an executable bot's scratch files
    marks: list[list[Any]]         # debug marks and notes (`_marks_entries`)
    marks_cut: int                 # marks cut past their caps
    fatal: str                     # why the child ends itself


# Bounds of a frame before it is decoded. Bytes: the envelope's own (errors, warnings,
# violations, scratch, a fatal's reason), each bot call's moves, and 4 bytes per
# character of output the child may still send. Objects: the envelope's items (about 150
# at most; an honest reply holds 10 to 30) and each bot call's.
# Marks add their own: MARKS entries of at most 8 objects and 40 bytes, and NOTE_CHARS
# characters of 4 bytes.
MARK_BYTES = MARKS * 40 + 4 * NOTE_CHARS
ENVELOPE_BYTES = (32 << 10) + MARK_BYTES
CALL_BYTES = 1 << 10
ENVELOPE_ITEMS = 192 + 8 * MARKS
CALL_ITEMS = 8


def frame_bytes(limits: Limits, calls: int, out_room: int) -> int:
    """The longest reply frame a request of `calls` bot calls may get, when the child may
    still print `out_room` characters."""
    return min(limits.reply_bytes, ENVELOPE_BYTES + CALL_BYTES * max(1, calls)
               + 4 * max(0, out_room))


def frame_items(calls: int) -> int:
    """The most msgpack objects a reply to a request of `calls` bot calls may hold."""
    return ENVELOPE_ITEMS + CALL_ITEMS * max(1, calls)


class Refused(Exception):
    """A frame outside the protocol: the message says what."""


def _str(value: Any, most: int, what: str) -> None:
    if type(value) is not str:
        raise Refused(f"{what} is not text")
    if len(value) > most:
        raise Refused(f"{what} is longer than {most} characters")


def _number(value: Any, most: float, what: str, integer: bool = False) -> None:
    kind = type(value)
    if kind is not int and (integer or kind is not float):
        raise Refused(f"{what} is not {'an integer' if integer else 'a number'}")
    if kind is float and not math.isfinite(value):
        raise Refused(f"{what} is not finite")
    if not 0 <= value <= most:
        raise Refused(f"{what} is out of range")


def _texts(value: Any, count: int, length: int, what: str) -> None:
    if type(value) is not list:
        raise Refused(f"{what} is not a list")
    if len(value) > count:
        raise Refused(f"{what} holds more than {count} entries")
    for item in value:
        _str(item, length, f"an entry of {what}")


def _errors(value: Any, calls: int) -> None:
    if type(value) is not list:
        raise Refused("errors is not a list")
    if len(value) > ERRORS:
        raise Refused(f"errors holds more than {ERRORS} entries")
    for entry in value:
        if type(entry) is not list or len(entry) != 2:
            raise Refused("an error is not [robot, text]")
        robot, text = entry
        if type(robot) is not int or not 0 <= robot < max(1, calls):
            raise Refused("an error's robot is not one the request asked about")
        _str(text, ERROR_TEXT, "an error's text")


def _usage(value: Any) -> None:
    if type(value) is not dict or set(value) != {"cpu_s", "peak_mb", "running"}:
        raise Refused("usage is not {cpu_s, peak_mb, running}")
    _number(value["cpu_s"], MOST_SECONDS, "usage's cpu_s")
    _number(value["peak_mb"], MOST_COUNT, "usage's peak_mb")
    _number(value["running"], MOST_COUNT, "usage's running", integer=True)


def _scratch(value: Any) -> None:
    if type(value) is not dict:
        raise Refused("scratch is not a map")
    if len(value) > SCRATCH_FILES:
        raise Refused(f"scratch holds more than {SCRATCH_FILES} files")
    room = SCRATCH_BYTES
    for name, data in value.items():
        if type(name) is not str or type(data) is not bytes:
            raise Refused("scratch is not file names and their bytes")
        room -= len(name) + len(data)
        if room < 0:
            raise Refused(f"scratch holds more than {SCRATCH_BYTES} bytes")


def _marks_entries(value: Any, calls: int) -> None:
    """["note", call, text], ["dot", call, a, b, colour], ["line", call, a, b, c, d,
    colour]: at most MARKS, NOTE_CHARS characters of notes in all (`_marks` cuts there)."""
    if type(value) is not list:
        raise Refused("marks is not a list")
    if len(value) > MARKS:
        raise Refused(f"marks holds more than {MARKS} entries")
    chars = 0
    for entry in value:
        if type(entry) is not list or not entry or type(entry[0]) is not str \
                or _MARK_SIZE.get(entry[0]) != len(entry):
            raise Refused("a mark is not [note|dot|line, call, ...] of its length")
        call = entry[1]
        if type(call) is not int or not 0 <= call < max(1, calls):
            raise Refused("a mark's robot is not one the request asked about")
        if entry[0] == "note":
            _str(entry[2], NOTE_TEXT, "a note")
            chars += len(entry[2])
            if chars > NOTE_CHARS:
                raise Refused(f"marks hold more than {NOTE_CHARS} characters of notes")
            continue
        for number in entry[2:-1]:
            if type(number) is not int or not -MOST_COORDINATE <= number <= MOST_COORDINATE:
                raise Refused("a mark's square is not two integers in range")
        if type(entry[-1]) is not str or entry[-1] not in PALETTE:
            raise Refused("a mark's colour is not one of the palette")


# key: (its check, given the request's calls and the output room); which children send it
_PYTHON, _PROGRAM = 1, 2
_REPLY = {
    "moves": (lambda v, calls, room: None, _PYTHON | _PROGRAM),    # the game's decode_answer
    "errors": (lambda v, calls, room: _errors(v, calls), _PYTHON | _PROGRAM),
    "bot_s": (lambda v, calls, room: _number(v, MOST_SECONDS, "bot_s"), _PYTHON | _PROGRAM),
    "busy_s": (lambda v, calls, room: _number(v, MOST_SECONDS, "busy_s"), _PYTHON | _PROGRAM),
    "warn": (lambda v, calls, room: _texts(v, WARNINGS, WARNING_TEXT, "warn"), _PYTHON),
    "out": (lambda v, calls, room: _str(v, room, "out"), _PYTHON | _PROGRAM),
    "out_dropped": (lambda v, calls, room: _number(v, MOST_COUNT, "out_dropped", True),
                    _PYTHON | _PROGRAM),
    "violations": (lambda v, calls, room: _texts(v, VIOLATIONS, VIOLATION_TEXT,
                                                 "violations"), _PYTHON | _PROGRAM),
    "usage": (lambda v, calls, room: _usage(v), _PROGRAM),
    "scratch": (lambda v, calls, room: _scratch(v), _PROGRAM),
    "marks": (lambda v, calls, room: _marks_entries(v, calls), _PYTHON | _PROGRAM),
    "marks_cut": (lambda v, calls, room: _number(v, MOST_COUNT, "marks_cut", True),
                  _PYTHON | _PROGRAM),
}
_FATAL = {"fatal", "busy_s", "usage"}


def reply_problem(frame: Any, calls: int, out_room: int, program: bool = False) -> str | None:
    """Why a turn's reply frame is outside the protocol ("protocol: ..."), or None. A
    `fatal` frame (the child ends itself) has its own keys. `out_room`: the characters of
    output the child may still send; `program`: an executable bot's keeper."""
    try:
        _reply(frame, calls, out_room, _PROGRAM if program else _PYTHON)
    except Refused as exc:
        return f"protocol: {exc}"
    return None


def checked_reply(frame: object, calls: int, out_room: int,
                  program: bool = False) -> Reply | str:
    """The reply frame as a `Reply`, or why it is outside the protocol (`reply_problem`)."""
    problem = reply_problem(frame, calls, out_room, program)
    return cast(Reply, frame) if problem is None else problem


def _reply(frame: Any, calls: int, out_room: int, sender: int) -> None:
    if type(frame) is not dict:
        raise Refused("reply is not a map")
    if len(frame) > len(_REPLY):
        raise Refused(f"reply holds more than {len(_REPLY)} keys")
    if "fatal" in frame:
        if not set(frame) <= _FATAL:
            raise Refused("a fatal frame holds other keys")
        _str(frame["fatal"], FATAL_TEXT, "fatal")
        if "busy_s" in frame:
            _number(frame["busy_s"], MOST_SECONDS, "busy_s")
        if "usage" in frame and sender == _PROGRAM:
            _usage(frame["usage"])
        elif "usage" in frame:
            raise Refused("usage is not a key of this reply")
        return
    if "moves" not in frame:
        raise Refused("reply has no moves")
    for key, value in frame.items():
        known = _REPLY.get(key) if type(key) is str else None
        if known is None or not known[1] & sender:
            raise Refused(f"{str(key)[:40]!r} is not a key of a reply")
        known[0](value, calls, out_room)


def ready_problem(frame: Any, out_room: int) -> str | None:
    """Why a child's answer to its load frame is outside the protocol, or None: {"ready":
    true, "out", "violations"}, {"load_error": text} or {"fatal": text}."""
    try:
        if type(frame) is not dict:
            raise Refused("reply to load is not a map")
        if set(frame) == {"load_error"}:
            _str(frame["load_error"], LOAD_ERROR_TEXT, "load_error")
        elif set(frame) == {"fatal"}:
            _str(frame["fatal"], FATAL_TEXT, "fatal")
        elif set(frame) == {"ready", "out", "violations"} and frame["ready"] is True:
            _str(frame["out"], out_room, "out")
            _texts(frame["violations"], VIOLATIONS, VIOLATION_TEXT, "violations")
        else:
            raise Refused("unexpected reply to load")
    except Refused as exc:
        return f"protocol: {exc}"
    return None
