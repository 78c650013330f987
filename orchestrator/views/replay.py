"""What `arena replay` shows: a saved match drawn in the terminal, or written as a web page
(the command: orchestrator/cli/replay.py).

The page is one self-contained HTML file (viewer/viewer.html): no network, no build
step. It inlines the renderer of the replay's game (the game's own `viewer.js`, else the
plain grid-and-log view of viewer/generic.js); the terminal draws with the game's own
`terminal.py`, else the plain view of orchestrator/views/plain.py. This file knows no game.
The replay goes in as JSON inside a <script type="application/json"> block, with
every `<`, `>` and `&` escaped, because bot names and output are untrusted: a bot named
`</script><script>alert(1)` stays text. The JSON is strict (never NaN or Infinity), so the
page's `JSON.parse` always reads it.

A replay file is untrusted too: `replay.load` reads it within limits and checks its shape
(orchestrator/replay/reader.py); the terminal builds each frame as it is shown
(`replay.Frames`), and a game's drawing that cannot draw a forged frame (a robot off the
board) ends in one error line, not a traceback.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import select
import sys
import termios
import time
import tty
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.text import Text

from engine import InputError
from orchestrator import host_files
from orchestrator.games import GAMES
from orchestrator.replay import debug
from orchestrator.replay import file as replay
from orchestrator.replay.reader import ai_players
from orchestrator.text import console, shown, shown_text
from orchestrator.views import plain as plain_view
from orchestrator.views.board import lettered

out = console()
err = console(stderr=True)
_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                          "\u2028": "\\u2028", "\u2029": "\\u2029"})


# Bidi overrides and isolates, zero-width and other invisible format characters, and
# controls: in a page they would reorder or hide a bot's text (a name `Bidi\u202eTXT.exe`
# shows as `Bidiexe.TXT` and reverses the moves after it). JSON carries each as `\uXXXX`;
# doubling its backslash makes the page show the escape itself, as the terminal does.
# Only a `\u` that is an escape counts: one after an even run of backslashes (`\\u202e`
# in JSON is a backslash and the text "u202e", and stays so).
_HIDDEN = re.compile(r"(?<!\\)((?:\\\\)*)\\u(00[01][0-9a-f]|007f|008[0-9a-f]|009[0-9a-f]|"
                     r"00ad|061c|180e|200[b-f]|202[a-e]|206[0-9a-f]|feff)")


def embed(data: Any) -> str:
    """Strict JSON (no NaN or Infinity, which `JSON.parse` refuses) that is safe inside a
    <script> element, with every invisible or reordering character shown as its escape.
    A replay's seed goes as text: drawn seeds are 63-bit, past what a JavaScript number
    holds exactly (8059044599109831840 would show as 8059044599109832000)."""
    if isinstance(data, dict) and isinstance(data.get("seed"), int):
        data = {**data, "seed": str(data["seed"])}
    try:
        text = json.dumps(data, separators=(",", ":"), sort_keys=True, allow_nan=False)
    except ValueError:
        raise InputError("the replay holds NaN or Infinity, which the viewer's JSON cannot "
                         "carry") from None
    return _HIDDEN.sub(r"\1\\\\u\2", text).translate(_ESCAPES)


def inline_hashes(page: str) -> dict[str, str]:
    """The CSP sources of a page's inline scripts and styles: their SHA-256 hashes (a
    `<script type="application/json">` is data, never run, and needs none)."""
    return {kind: " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
        for body in re.findall(rf"<{kind}>(.*?)</{kind}>", page, re.S))
        for kind in ("script", "style")}


def with_policy(page: str, images: bool = False) -> str:
    """The page with its Content-Security-Policy (the template's `__POLICY__`, in its
    head, before any data): no network, and only the page's own inline script and
    style, by hash. Not 'unsafe-inline', which would run any script or handler
    (`<img onerror>`) a bot's text ever got into the page as markup."""
    found = inline_hashes(page)
    policy = (f"default-src 'none'; script-src {found['script']}; style-src {found['style']}; "
              f"{'img-src data:; ' if images else ''}base-uri 'none'; form-action 'none'")
    return page.replace("__POLICY__", policy, 1)


def renderer(game: object) -> str:
    """The script that draws `game`'s replays in the page: the game's own renderer, or the
    plain view for a game without one (or a name the registry does not know)."""
    found = GAMES.get(game) if isinstance(game, str) else None
    path = found.viewer if found else None
    if path is None:
        return resources.files("orchestrator").joinpath("views/viewer/generic.js").read_text()
    text = path.read_text(encoding="utf-8")
    if re.search(r"</script|<!--", text, re.IGNORECASE):
        raise InputError(f"{path}: a renderer may not hold '</script' or '<!--' (it is "
                         f"inlined in a <script> element)")
    return text


def page(data: dict, source: str | Path | None = None) -> str:
    """The self-contained viewer page of one replay; `source`, the replay file's path,
    goes in the command its position button copies. The bots' answers a replay keeps to
    make positions (`setup`) stay out: the page does not show them."""
    template = resources.files("orchestrator").joinpath("views/viewer/viewer.html").read_text()
    shown_data = {key: value for key, value in data.items() if key != "setup"}
    # The renderer first: the replay's JSON may hold the renderer's marker as text; the
    # replay's JSON last, so no marker inside it is replaced.
    return with_policy(template.replace("/*__RENDERER__*/", renderer(data.get("game")))
                       .replace("__REPLAY_SOURCE__", _source(source))
                       .replace("__REPLAY_JSON__", embed(shown_data)), images=True)


def html_path(replay_file: Path) -> Path:
    name = Path(replay_file).name
    for suffix in (".gz", ".json"):
        name = name.removesuffix(suffix)
    return Path(replay_file).with_name(name + ".html")


def _source(source: str | Path | None) -> str:
    """The replay file's path as JSON for the page, its underscores escaped so that it
    holds no marker of the template (a file named __REPLAY_JSON__)."""
    return embed(None if source is None else str(source)).replace("_", "\\u005f")


def write_html(data: dict, target: Path, source: str | Path | None = None) -> Path:
    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        host_files.write_file(target, page(data, source).encode("utf-8"))
    except OSError as exc:
        raise InputError(f"{target}: cannot write the viewer ({exc.strerror})") from None
    return Path(target)


# -- the terminal viewer --------------------------------------------------------------------
# A game draws itself in its own `terminal.py` (beside its entry), else the plain view
# (orchestrator/views/plain.py) draws it. Either is a module with:
#   board(data, state) -> Grid            the board at one turn: rows of (character, style)
#   panel(data, state, turn) -> [renderable]   what goes under it (the scores)
#   places(data, state) -> [(row, column)]     the pieces still playing (the crop follows them)
#   LEGEND                                what each symbol means (Text.assemble's parts)
# What both draw with (COLORS, Grid, blank, seat_table) is in orchestrator/views/board.py, named
# here too for the games' `terminal.py`.
def drawing(data: dict) -> ModuleType:
    """The module that draws the replay's game in the terminal."""
    found = GAMES.get(data.get("game")) if isinstance(data.get("game"), str) else None
    own = found.own("terminal") if found else None
    if own is not None:
        return own
    return plain_view


def board_text(data: dict, state: dict, marked: dict[tuple[int, int], str] | None = None
               ) -> Text:
    """The board at one turn, one character per square; the squares of `marked` ({(x, y):
    colour}, a bot's debug marks) on that colour."""
    text = Text()
    for y, row in enumerate(drawing(data).board(data, state)):
        for x, (ch, style) in enumerate(row):
            colour = marked.get((x, y)) if marked else None
            if colour is not None:
                style = f"{style or ''} on {MARK_STYLES.get(colour, 'grey50')}".strip()
            # A square is one printable character: never a terminal escape from a replay.
            text.append(ch if ch.isprintable() else "?", style=style or None)
        text.append("\n")
    return text


# The palette's colours in a terminal (orchestrator/replay/debug.py's PALETTE).
MARK_STYLES = {"red": "red3", "green": "green4", "blue": "blue3", "yellow": "yellow4",
               "orange": "dark_orange3", "purple": "purple4", "cyan": "cyan4",
               "white": "grey70"}
MOST_LINE_SQUARES = 64         # squares of one drawn line


def turn_marks(data: dict, turn: int) -> dict[int, dict]:
    """{AI index: its debug marks} made deciding the turn that frame `turn` shows: the
    turn played into it, or, in a game that names turns as its bots see them (Robot
    Game's `game.turn`), the turn decided on its board (a note made at game.turn 50 is
    shown on frame 50, the board the bot saw)."""
    entry = turn + 1 if seen_turns(data) else turn
    if entry <= 0 or debug.SECTION not in data or entry > len(data["turns"]):
        return {}
    return debug.turn_marks(data, data["turns"][entry - 1]["turn"])


def seen_turns(data: dict) -> bool:
    """Whether the replay's game names turns as its bots see them (`Shown.seen_turns`)."""
    found = GAMES.get(data.get("game")) if isinstance(data.get("game"), str) else None
    return bool(found and found.shown.seen_turns)


def marked_squares(found: dict[int, dict]) -> dict[tuple[int, int], str]:
    """The squares the marks cover, with their colour: dots, and the squares along lines."""
    squares: dict[tuple[int, int], str] = {}
    for kept in found.values():
        for x0, y0, x1, y1, colour in kept.get("lines", ()):
            steps = min(MOST_LINE_SQUARES, max(abs(x1 - x0), abs(y1 - y0)))
            for k in range(steps + 1):
                at = (round(x0 + (x1 - x0) * k / max(1, steps)),
                      round(y0 + (y1 - y0) * k / max(1, steps)))
                squares[at] = colour
        for x, y, colour in kept.get("dots", ()):
            squares[(x, y)] = colour
    return squares


def marks_text(data: dict, found: dict[int, dict], robot: Any = None) -> Text | None:
    """The turn's marks as lines under the board (each AI's, named), and the notes about
    `robot` (a piece's row key) first, if one is chosen."""
    if not found and robot is None:
        return None
    players = ai_players(data)
    lines = []
    if robot is not None:
        notes = [note for kept in found.values() for note in debug.notes_of(kept, robot)]
        lines.append(f"robot {robot}'s note: " + (" / ".join(notes) if notes else "none"))
    for ai, kept in sorted(found.items()):
        name = players[ai]["name"] if ai < len(players) else f"AI {ai}"
        lines += [f"marks of {name}: {line}" for line in debug.described(kept, most=6)]
    return shown_text("\n".join(lines), "cyan", lines=True)


KEYS = "space play/pause   ← → or , . step   home/end first/last   q quit"


def legend(data: dict) -> Text:
    """What each symbol of the game's board means."""
    return Text.assemble(*drawing(data).LEGEND)


@dataclass(frozen=True)
class Look:
    """How a frame is drawn: the bots' debug marks of `robot` (a piece's row key, if one
    is chosen) and (`keys`) the keys below it. With a terminal `size` (columns, rows),
    the board is cropped to what is left once the rest is shown, around the action.
    `number`: the header names the frame by the game's own turn number (a match from a
    position starts past turn 0), not as frame `turn` of the replay's. `letters`: drawn
    where colour does not show (a pipe), each piece is its AI's letter, as the score
    table names it."""

    size: tuple[int, int] | None = None
    keys: bool = True
    robot: Any = None
    number: int | None = None
    letters: bool = False


def screen(data: dict, frames: Sequence[Any] | replay.Frames, turn: int, playing: bool,
           look: Look = Look()) -> Group:
    """One frame, drawn as `look` says: the header, the board, the scores, the bots'
    debug marks, the legend and the keys."""
    size, keys, robot, number = look.size, look.keys, look.robot, look.number
    letters = look.letters
    state = frames[turn][1]
    found = turn_marks(data, turn)
    with lettered(letters):
        board = board_text(data, state, marked_squares(found))
    below = drawing(data).panel(data, state, turn)
    noted = marks_text(data, found, robot)
    if noted is not None:
        below = [*below, noted]
    shown_legend = legend(data)
    keys_text = Text(KEYS, style="dim")
    where = ""
    if size is not None:
        columns, rows = size
        panel_lines = sum(_height(part, columns) for part in below)
        board, where = _cropped(board, data, state, columns, rows, lambda where: (
            _lines(_header(data, turn, len(frames), playing, where, number), columns)
            + panel_lines + _lines(shown_legend, columns)
            + (_lines(keys_text, columns) if keys else 0)))
    parts = [_header(data, turn, len(frames), playing, where, number), board, *below,
             shown_legend]
    if keys:
        parts.append(keys_text)
    return Group(*parts)


def _header(data: dict, turn: int, frames: int, playing: bool, where: str,
            number: int | None = None) -> Text:
    if number is not None and seen_turns(data):      # the board the bots see at `number`
        said = f"after turn {number - 1}: the board of turn {number}"
    else:
        said = (f"after turn {number}" if number is not None else
                f"turn {turn}/{frames - 1}   " + ("playing" if playing else "paused"))
    return shown_text(f"{data['game']} on {data['map']['name']}, seed {data['seed']}   "
                      + said + where, "bold")


def _height(part: RenderableType, width: int) -> int:
    """The lines `part` takes in a terminal `width` columns wide."""
    measure = Console(width=max(1, width), file=io.StringIO())
    return len(measure.render_lines(part, measure.options, pad=False))


def _lines(text: Text, width: int) -> int:
    return max(1, -(-text.cell_len // max(1, width)))


def _cropped(board: Text, data: dict, state: dict, columns: int, rows: int,
             others: Callable[[str], int]) -> tuple[Text, str]:
    """The board cut to fit `columns` × `rows` less the lines `others(note)` takes, around
    the pieces' middle, and a note saying which part shows ("" when all of it does)."""
    lines = board.split("\n", allow_blank=False)
    height = len(lines)
    width = max((line.cell_len for line in lines), default=0)
    if height <= rows - others("") and width <= columns:
        return board, ""
    note = f"   rows {height:>3}-{height:>3}/{height}"      # the widest the note can be
    fit = max(3, rows - others(note))
    middle_row, middle_col = _action(data, state, height, width)
    top = max(0, min(height - fit, middle_row - fit // 2))
    left = max(0, min(width - columns, middle_col - columns // 2))
    text = Text()
    for line in lines[top:top + fit]:
        text.append_text(line[left:left + columns])
        text.append("\n")
    text.rstrip()
    note = f"   rows {top}-{top + min(fit, height) - 1}/{height}"
    if width > columns:
        note += f", columns {left}-{left + columns - 1}/{width}"
    return text, note


def _action(data: dict, state: dict, height: int, width: int) -> tuple[int, int]:
    """(row, column) around which the pieces still playing gather; the board's middle."""
    places = drawing(data).places(data, state)
    if not places:
        return height // 2, width // 2
    return (sum(r for r, _ in places) // len(places), sum(c for _, c in places) // len(places))


# What terminals send for each key: xterm's normal and application cursor modes, and
# Home/End as xterm, the VT220 and tmux or screen (`\e[1~`, `\e[4~`), and rxvt send them.
KEY_CODES = {"\x1b[C": "right", "\x1bOC": "right", "\x1b[D": "left", "\x1bOD": "left",
             "\x1b[H": "home", "\x1bOH": "home", "\x1b[1~": "home", "\x1b[7~": "home",
             "\x1b[F": "end", "\x1bOF": "end", "\x1b[4~": "end", "\x1b[8~": "end",
             ".": "right", ",": "left", " ": "space", "q": "quit", "\x1b": "quit"}
_SEQUENCE = re.compile(r"\x1b\[[0-9;]*[~A-Za-z]|\x1bO[A-Za-z]|\x1b|.", re.DOTALL)


def parse_keys(chunk: str) -> list[str]:
    """Every key in what one read returned (a burst of presses arrives together); escape
    sequences we do not use are skipped."""
    return [KEY_CODES[code] for code in _SEQUENCE.findall(chunk) if code in KEY_CODES]


def _read_keys(timeout: float) -> list[str]:
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    if not ready:
        return []
    return parse_keys(os.read(sys.stdin.fileno(), 256).decode(errors="ignore"))


def drawn(file: Path, data: dict, frames: replay.Frames, turn: int, playing: bool,
          look: Look = Look()) -> Group:
    """`screen`, where a frame the game's drawing cannot draw (a forged replay: a robot
    off the board, an owner that is no player) is an InputError naming the file and turn."""
    try:
        return screen(data, frames, turn, playing, look)
    except (LookupError, TypeError, ValueError, ArithmeticError) as exc:
        raise InputError(f"{shown(file)}: turn {turn}: the {shown(data['game'])} view cannot "
                         f"draw this replay ({type(exc).__name__}: {shown(exc)[:80]})") from None


def watch(file: Path, data: dict, speed: float, robot: Any = None) -> None:
    """Play the replay in the terminal, with keys, until q."""
    frames = replay.Frames(data)
    last_turn = len(frames) - 1
    turn, playing, last = 0, True, time.monotonic()
    saved = termios.tcgetattr(sys.stdin)

    def frame() -> Group:
        return drawn(file, data, frames, turn, playing,
                     Look(size=(out.size.width, out.size.height), robot=robot))

    try:
        tty.setcbreak(sys.stdin.fileno())
        with Live(frame(), console=out, auto_refresh=False, screen=True) as live:
            while True:
                keys = _read_keys(0.02)
                if "quit" in keys:
                    break
                for key in keys:
                    if key == "space":
                        playing = not playing
                    elif key in ("right", "left"):
                        playing = False
                        turn = max(0, min(last_turn, turn + (1 if key == "right" else -1)))
                    elif key in ("home", "end"):
                        playing = False
                        turn = 0 if key == "home" else last_turn
                if playing and time.monotonic() - last >= 1 / speed:
                    last = time.monotonic()
                    if turn < last_turn:
                        turn += 1
                    else:
                        playing = False
                live.update(frame(), refresh=True)
    finally:
        termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)
