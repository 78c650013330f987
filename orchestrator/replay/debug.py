"""A bot's debug marks and notes in its replay: the section `debug`, for its owner's eyes.

A bot's reply may carry "marks" (sandbox/botlib/_marks.py; sandbox/replies.py checks the
envelope: counts, lengths, the palette). What the host keeps of them is what it checked
against the game (`keep`): each square put on the board by the game (`Match.mark_square`,
None: off the board, dropped), each note tied to the piece its call was for
(`Match.mark_piece`), within the AI's budget for the match; past the budget, or what the
bot's side cut, is counted and warned about once. Nothing of the game reads them.

In the replay: `"debug": {AI index: {turn: {"notes": [[piece, text]], "dots": [[x, y,
colour]], "lines": [[x1, y1, x2, y2, colour]]}}}` (JSON's keys are text: "0", "12"), x the
board's column and y its row as the viewers draw it, `turn` the turn entry's number: the
marks a bot made deciding that turn. Both keys are spelled as `str(n)` writes them (ASCII
digits, no leading zero: engine/numerals.py), and a reader takes no other spelling: '²'
and '٠' pass `isdigit`, and "00" would be AI 0 again with a budget of its own. Only when
a bot made some; `strip` leaves the section out (the ladder's public replay, `arena
publish`), `only` keeps one owner's AIs.
`check` is the reader's: a replay file is untrusted, and the section is held to the same
bounds as the host keeps.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from engine.numerals import ascii_decimal
from sandbox.botlib import child_module
from sandbox.shown import shown

if TYPE_CHECKING:
    import _marks

    from sandbox.replies import Reply
else:
    _marks = child_module("_marks")

SECTION = "debug"
PALETTE = tuple(_marks.PALETTE)
NOTE_TEXT = _marks.NOTE_TEXT
TURN_MARKS = _marks.MARKS                  # entries of one AI's turn
TURN_NOTE_CHARS = _marks.NOTE_CHARS
# What a match keeps, in bytes of the replay's JSON (each mark as `cost` counts it): per AI,
# and for every AI together, so that the most a replay's marks can take (2 MiB) leaves its
# game room under the reader's 4 MiB.
MATCH_BYTES, TOTAL_BYTES = 1 << 20, 2 << 20
MOST_SIDE = 512                            # a board's side (the reader's MAX_SIDE)
MOST_KEY = 256                             # a piece's key, when it is text
CUT_WARNING = f"marks and notes past their cap ({TURN_MARKS} a turn, or the match's budget): cut"


def budget(ais: int) -> int:
    """One AI's bytes of marks over a match of `ais` AIs."""
    return min(MATCH_BYTES, TOTAL_BYTES // max(1, ais))


def cost(kind: str, item: list[Any]) -> int:
    """The bytes a kept mark takes in the replay's JSON, at most: a note's text as JSON
    escapes it (a character past ASCII is 6 or 12 bytes), and room for its piece."""
    if kind == "notes":
        return 24 + len(json.dumps(item[1])) + (len(item[0]) if type(item[0]) is str else 0)
    return 32 if kind == "dots" else 48


class Keeper:
    """What one attempt keeps of its AIs' marks, turn by turn, within their budgets."""

    def __init__(self, ais: int) -> None:
        self.most = budget(ais)
        self.used: dict[int, int] = {}              # AI -> bytes kept
        self.cut: set[int] = set()                  # AIs that had some cut (warned once)

    def keep(self, match: Any, ai: int, reply: Reply) -> dict[str, list[Any]] | None:
        """The marks of AI `ai`'s reply (its envelope checked), as the replay keeps them;
        None when it made none. Read before the turn is played: the squares are where the
        views put them."""
        entries = reply.get("marks")
        if reply.get("marks_cut"):
            self.cut.add(ai)
        if type(entries) is not list or not entries:
            return None
        used = self.used.get(ai, 0)
        found: dict[str, list[list[Any]]] = {"notes": [], "dots": [], "lines": []}
        for entry in entries:
            kind, call = entry[0], entry[1]
            if kind == "note":
                item = [_piece(match.mark_piece(ai, call)), entry[2]]
                kept_kind = "notes"
            elif kind == "dot":
                at = _square(match.mark_square(ai, call, entry[2], entry[3]))
                if at is None:
                    continue
                item, kept_kind = [*at, entry[4]], "dots"
            else:
                a = _square(match.mark_square(ai, call, entry[2], entry[3]))
                b = _square(match.mark_square(ai, call, entry[4], entry[5]))
                if a is None or b is None:
                    continue
                item, kept_kind = [*a, *b, entry[6]], "lines"
            used += cost(kept_kind, item)
            if used > self.most:
                self.cut.add(ai)
                used = self.most
                break
            found[kept_kind].append(item)
        self.used[ai] = used
        notes, dots, lines = found["notes"], found["dots"], found["lines"]
        kept = {name: items for name, items in (("notes", notes), ("dots", dots),
                                                ("lines", lines)) if items}
        return kept or None


def _piece(key: Any) -> Any:
    if type(key) is int or type(key) is str and len(key) <= MOST_KEY:
        return key
    return None


def _square(at: Any) -> list[int] | None:
    if type(at) is not tuple or len(at) != 2:
        return None
    x, y = at
    if type(x) is not int or type(y) is not int or not (0 <= x < MOST_SIDE and
                                                        0 <= y < MOST_SIDE):
        return None
    return [x, y]


def strip(replay: dict[str, Any]) -> dict[str, Any]:
    """The replay without anyone's marks (a shallow copy, when it had some)."""
    if SECTION not in replay:
        return replay
    return {key: value for key, value in replay.items() if key != SECTION}


def only(replay: dict[str, Any], ais: set[int]) -> dict[str, Any]:
    """The replay with the marks of the AIs `ais` only (the AI indices, as `seats`)."""
    section = replay.get(SECTION)
    if not isinstance(section, dict):
        return replay
    kept = {key: value for key, value in section.items() if ascii_decimal(key) in ais}
    rest = strip(replay)
    return {**rest, SECTION: kept} if kept else rest


def turn_marks(replay: dict[str, Any], turn: int) -> dict[int, dict[str, list[Any]]]:
    """{AI index: its marks} of the turn entry numbered `turn`."""
    section = replay.get(SECTION)
    if not isinstance(section, dict):
        return {}
    found = {}
    for ai, turns in section.items():
        index = ascii_decimal(ai)
        got = turns.get(str(turn)) if isinstance(turns, dict) else None
        if index is not None and isinstance(got, dict):
            found[index] = got
    return found


class Bad(ValueError):
    """The section is not one the host writes: the message says where and what."""


def check(section: Any, ais: int, turns: set[int], side: tuple[int, int] | None) -> None:
    """Hold a replay's `debug` section to what the host keeps: AIs of the replay (`ais`
    of them), turns it has (`turns`), squares on its board (`side`: columns and rows, or
    None when it has no board: then no squares), the palette, and every AI's budget.
    Raises Bad naming the place."""
    if type(section) is not dict:
        raise Bad("debug: must be an object")
    if len(section) > ais:
        raise Bad(f"debug: marks of {len(section)} AIs; the replay has {ais}")
    most = budget(ais)
    for ai, by_turn in section.items():
        where = f"debug.{_label(ai)}"
        index = ascii_decimal(ai, 4)
        if index is None or index >= ais:
            raise Bad(f"{where}: not an AI of the replay")
        if type(by_turn) is not dict:
            raise Bad(f"{where}: must be an object of turns")
        used = 0
        for turn, entry in by_turn.items():
            at = f"{where}.{_label(turn)}"
            number = ascii_decimal(turn, 7)
            if number is None or number not in turns:
                raise Bad(f"{at}: not a turn of the replay")
            if type(entry) is not dict or not set(entry) <= {"notes", "dots", "lines"}:
                raise Bad(f"{at}: must be an object of notes, dots and lines")
            count = 0
            for kind, items in entry.items():
                if type(items) is not list:
                    raise Bad(f"{at}.{kind}: must be a list")
                count += len(items)
                if count > TURN_MARKS:
                    raise Bad(f"{at}: over {TURN_MARKS} marks in a turn")
                for item in items:
                    _item(kind, item, f"{at}.{kind}", side)
                    used += cost(kind, item)
            if used > most:
                raise Bad(f"{where}: over its budget of {most:,} bytes of marks")


def _label(key: Any) -> str:
    """A key as an error names it: a section handed over in a process (a match jail's)
    may be keyed by other things than text."""
    return shown(key[:12]) if type(key) is str else f"(a key of type {type(key).__name__})"


def _item(kind: str, item: Any, at: str, side: tuple[int, int] | None) -> None:
    """Check one mark."""
    if type(item) is not list:
        raise Bad(f"{at}: a mark must be a list")
    if kind == "notes":
        if len(item) != 2 or not (item[0] is None or type(item[0]) is int or
                                  type(item[0]) is str and len(item[0]) <= MOST_KEY) \
                or type(item[1]) is not str or len(item[1]) > NOTE_TEXT:
            raise Bad(f"{at}: a note is [piece, text of at most {NOTE_TEXT} characters]")
        return
    size = 3 if kind == "dots" else 5
    if len(item) != size or type(item[-1]) is not str or item[-1] not in PALETTE:
        raise Bad(f"{at}: a {kind[:-1]} is {size - 1} numbers and a colour of the palette")
    for k, number in enumerate(item[:-1]):
        if type(number) is not int or side is None or not 0 <= number < side[k % 2]:
            raise Bad(f"{at}: a square off the board")


def described(marks: dict[str, list[Any]], most: int = 12) -> list[str]:
    """One AI's marks of a turn as lines of text (the terminal's): the dots and lines, then
    each note with its piece, at most `most` lines (and how many more). The notes are the
    bot's text: whoever prints them shows them through `shown`."""
    lines = []
    dots = marks.get("dots", ())
    if dots:
        lines.append("dots " + ", ".join(f"({x},{y}) {colour}" for x, y, colour in dots[:16])
                     + (f" and {len(dots) - 16} more" if len(dots) > 16 else ""))
    drawn = marks.get("lines", ())
    if drawn:
        lines.append("lines " + ", ".join(f"({a},{b})-({c},{d}) {colour}"
                                          for a, b, c, d, colour in drawn[:8])
                     + (f" and {len(drawn) - 8} more" if len(drawn) > 8 else ""))
    lines += [f"note ({'robot ' + str(piece) if piece is not None else 'the bot'}): {text}"
              for piece, text in marks.get("notes", ())]
    if len(lines) > most:
        lines = [*lines[:most - 1], f"... {len(lines) - most + 1} more"]
    return lines


def notes_of(marks: dict[str, list[Any]], piece: Any) -> list[str]:
    """The notes about one piece (by its row key)."""
    return [text for key, text in marks.get("notes", ()) if key == piece]
