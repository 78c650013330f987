"""Debug marks and notes: what a bot draws for its owner, never for the game (the child side).

A bot calls `note(text)`, `dot(square, colour)` and `line(square, square, colour)` (the
public names are in `marks.py`, `rg` and `roborally.api`) while it decides a turn; they go
back to the host with that turn's reply, under the key "marks", attributed to the robot
whose call made them (`at`, set by the game's runtime before each call). No other bot sees
them, and nothing of the game reads them: the host checks them (`sandbox/replies.py`),
keeps what it validated in the replay's own section, and shows them to the bot's owner.

Per reply (one AI's turn) at most MARKS entries and NOTE_CHARS characters of notes, each
note at most NOTE_TEXT: past it they are cut here, on the bot's own CPU, and counted in
"marks_cut" (the host warns once). Nobody recording costs a call a list append.
"""

PALETTE = ("red", "green", "blue", "yellow", "orange", "purple", "cyan", "white")
MARKS = 128                # entries (notes, dots, lines) per reply: 3 for each of 40 robots
NOTE_TEXT = 100            # characters of one note
NOTE_CHARS = 4000          # characters of notes per reply
MOST_COORDINATE = 1 << 15  # a square's numbers, whatever the game (the host checks the board)

_entries: list[list[object]] = []
_state = {"call": 0, "chars": 0, "cut": 0}


def at(call):
    """The runtime's: the calls that follow are robot `call`'s (its index in the request)."""
    _state["call"] = call


def reset():
    """Forget what was said outside a turn (at import, say)."""
    _entries.clear()
    _state.update(call=0, chars=0, cut=0)


def take(reply):
    """Move this turn's marks into `reply` (only if there are any) and start afresh."""
    if _entries:
        reply["marks"] = list(_entries)
    if _state["cut"]:
        reply["marks_cut"] = _state["cut"]
    reset()
    return reply


def _room():
    if len(_entries) >= MARKS:
        _state["cut"] += 1
        return False
    return True


def _square(square):
    """(a, b) of exact integers within MOST_COORDINATE, or None."""
    if type(square) not in (tuple, list) or len(square) != 2:
        return None
    a, b = square[0], square[1]
    if type(a) is not int or type(b) is not int:
        return None
    if not (-MOST_COORDINATE <= a <= MOST_COORDINATE and -MOST_COORDINATE <= b <= MOST_COORDINATE):
        return None
    return a, b


def _colour(colour):
    if type(colour) is not str or colour not in PALETTE:
        raise ValueError(f"a mark's colour is one of {', '.join(PALETTE)}")
    return colour


def note(text):
    """A line of text about the robot deciding now (the last one of a turn is shown)."""
    if type(text) is not str:
        text = str(text)           # the bot's own __str__, on its own time
    if not _room():
        return
    left = min(NOTE_TEXT, NOTE_CHARS - _state["chars"])
    if left <= 0:
        _state["cut"] += 1
        return
    if len(text) > left:
        _state["cut"] += 1
        text = text[:left]
    _state["chars"] += len(text)
    _entries.append(["note", _state["call"], str.__str__(text)])


def dot(square, colour="red"):
    """A dot on a square, as the game's bots name squares (docs: "Debug marks")."""
    colour = _colour(colour)
    got = _square(square)
    if got is None:
        raise ValueError("a mark's square is two integers")
    if _room():
        _entries.append(["dot", _state["call"], got[0], got[1], colour])


def line(start, end, colour="red"):
    """A line from one square to another."""
    colour = _colour(colour)
    a, b = _square(start), _square(end)
    if a is None or b is None:
        raise ValueError("a mark's square is two integers")
    if _room():
        _entries.append(["line", _state["call"], a[0], a[1], b[0], b[1], colour])
