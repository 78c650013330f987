"""`arena replay`: watch a saved match in the terminal, or write it as a web page.

The page is one self-contained HTML file (viewer/viewer.html): no network, no build
step. It inlines the renderer of the replay's game (the game's own `viewer.js`, else the
plain grid-and-log view of viewer/generic.js); the terminal draws with the game's own
`terminal.py`, else the plain view of orchestrator/plain_view.py. This file knows no game.
The replay goes in as JSON inside a <script type="application/json"> block, with
every `<`, `>` and `&` escaped, because bot names and output are untrusted: a bot named
`</script><script>alert(1)` stays text.
"""
from __future__ import annotations

import json
import os
import re
import select
import sys
import termios
import time
import tty
from importlib import resources
from pathlib import Path
from typing import Callable, Optional

import typer
from rich.console import Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from engine import InputError
from orchestrator import replay
from orchestrator.games import GAMES
from orchestrator.text import console, shown_text

out = console()
err = console(stderr=True)
COLORS = ["red", "bright_cyan", "yellow", "green", "dark_orange", "magenta", "cyan",
          "bright_magenta", "chartreuse1", "pink1"]
_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
            "\u2029": "\\u2029"}


def embed(data: dict) -> str:
    """JSON that is safe inside a <script> element."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def renderer(game: object) -> str:
    """The script that draws `game`'s replays in the page: the game's own renderer, or the
    plain view for a game without one (or a name the registry does not know)."""
    found = GAMES.get(game) if isinstance(game, str) else None
    path = found.viewer if found else None
    if path is None:
        return resources.files("orchestrator").joinpath("viewer/generic.js").read_text()
    text = path.read_text(encoding="utf-8")
    if re.search(r"</script|<!--", text, re.IGNORECASE):
        raise InputError(f"{path}: a renderer may not hold '</script' or '<!--' (it is "
                         f"inlined in a <script> element)")
    return text


def page(data: dict) -> str:
    """The self-contained viewer page of one replay."""
    template = resources.files("orchestrator").joinpath("viewer/viewer.html").read_text()
    # The renderer first: the replay's JSON may hold the renderer's marker as text.
    return (template.replace("/*__RENDERER__*/", renderer(data.get("game")))
            .replace("__REPLAY_JSON__", embed(data)))


def html_path(replay_file: Path) -> Path:
    name = Path(replay_file).name
    for suffix in (".gz", ".json"):
        name = name.removesuffix(suffix)
    return Path(replay_file).with_name(name + ".html")


def write_html(data: dict, target: Path) -> Path:
    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        Path(target).write_text(page(data), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{target}: cannot write the viewer ({exc.strerror})") from None
    return Path(target)


# -- the terminal viewer --------------------------------------------------------------------
def board_text(data: dict, state: dict) -> Text:
    """The board at one turn, one character per square."""
    size = data["map"]["size"]
    grid = [[(" ", "") for _ in range(size)] for _ in range(data["map"].get("height", size))]
    if data["game"] == "arena":
        for r, line in enumerate(data["map"]["rows"]):
            for c, ch in enumerate(line[:size]):
                if ch in "&{}123456789":
                    grid[r][c] = (ch, "dim green" if ch.isdigit() else "grey42")
        blocks = {row[0]: row for row in data["map"]["blocks"]}
        for index, row in state.get("blocks", {}).items():
            _, r, c, kind, facing = blocks[index]
            if row[1] > 0:
                # A mounted laser on grey: an arrow without it is a robot.
                grid[r][c] = ("#" if kind == "wall" else "^>v<"[facing],
                              "grey62" if kind == "wall" else "bold bright_white on grey35")
        owners = dict(map(tuple, data["map"]["owners"]))
        for rid, row in state["robots"].items():
            _, r, c, facing, life, _, _, status = row
            if status == 1:
                grid[r][c] = ("x", "grey50")
            elif status == 0:
                player = owners[rid]
                grid[r][c] = ("^>v<"[facing], f"bold {COLORS[player % len(COLORS)]}")
    elif data["game"] == "cave":
        _cave_board(grid, state)
    elif data["game"] == "race":
        _race_board(grid, data["map"]["cells"], state)
    else:
        obstacles = {tuple(x) for x in data["map"]["obstacle"]}
        spawn = {tuple(x) for x in data["map"]["spawn"]}
        for x in range(size):
            for y in range(size):
                if (x, y) in obstacles:
                    grid[y][x] = ("█", "grey23")
                elif (x, y) in spawn:
                    grid[y][x] = ("·", "green")
        for _, player, x, y, hp in state["robots"].values():
            grid[y][x] = (str(min(9, hp // 10)), f"bold {COLORS[player % len(COLORS)]}")
    text = Text()
    for row in grid:
        for ch, style in row:
            text.append(ch, style=style or None)
        text.append("\n")
    return text


CAVE_STYLES = {"G": "bold yellow", "F": "green", "W": "blue", "R": "magenta", "K": "cyan",
               "}": "grey50", "P": "grey30", "L": "bold red", "C": "red", "B": "grey70",
               "N": "bold white", "-": "grey19"}


def _cave_board(grid: list, state: dict) -> None:
    """Squares, then creatures and Nina, then the living bots (their seat number)."""
    for r, line in state["squares"].values():
        for c, ch in enumerate(line):
            grid[r][c] = ("·" if ch == "-" else ch, CAVE_STYLES.get(ch, ""))
    for _, r, c in state.get("nurse", {}).values():
        grid[r][c] = ("N", CAVE_STYLES["N"])
    for _, kind, r, c in state["creatures"].values():
        grid[r][c] = (kind, CAVE_STYLES[kind])
    for seat, r, c, _health, _gold, alive, *_ in state["bots"].values():
        if alive:
            grid[r][c] = (str(seat % 10), f"bold reverse {COLORS[seat % len(COLORS)]}")


RACE_ARROWS = {"^": "↑", ">": "→", "v": "↓", "<": "←"}


def _race_board(grid: list, cells: list, state: dict) -> None:
    """Belts as arrows (blue: double), checkpoints, the antenna, the reboot square, then
    the bots (their seat number)."""
    for y, line in enumerate(cells):
        for x, text in enumerate(line):
            t = text.strip()
            if t in ("C1", "C2"):
                grid[y][x] = ("c" if t == "C1" else "C", "bold green")
            elif t == "PA":
                grid[y][x] = ("A", "bold yellow")
            elif t[:1] == "*":
                grid[y][x] = ("*", "magenta")
            elif t:
                double = t[0] == "R" or t[0] == t[-1]
                grid[y][x] = (RACE_ARROWS.get(t[-1], "?"), "blue" if double else "grey50")
            else:
                grid[y][x] = ("·", "grey23")
    for seat, x, y, _d, *_ in state["bots"].values():
        grid[y][x] = (str(seat % 10), f"bold reverse {COLORS[seat % len(COLORS)]}")


def scores(data: dict, state: dict) -> Table:
    table = Table(box=None, show_header=True, pad_edge=False)
    names = [p["name"] for p in data["players"]]
    if data["game"] == "race":
        for column in ("AI", "C1", "spam", "reboots"):
            table.add_column(column)
        for seat, _x, _y, _d, checkpoint, spam, reboots in state["bots"].values():
            table.add_row(shown_text(names[seat], f"bold {COLORS[seat % len(COLORS)]}"),
                          "yes" if checkpoint else "-", str(spam), str(reboots))
        return table
    if data["game"] == "cave":
        for column in ("AI", "gold", "health"):
            table.add_column(column)
        for seat, _r, _c, health, gold, alive, *_ in state["bots"].values():
            table.add_row(shown_text(names[seat], f"bold {COLORS[seat % len(COLORS)]}"),
                          str(gold), str(health) if alive else "dead")
        return table
    for column in ("AI", "robots", "flags" if data["game"] == "arena" else "hp"):
        table.add_column(column)
    counts = [[0, 0] for _ in names]
    if data["game"] == "arena":
        owners = dict(map(tuple, data["map"]["owners"]))
        for rid, row in state["robots"].items():
            if row[7] == 0:
                counts[owners[rid]][0] += 1
            counts[owners[rid]][1] += row[6]
    else:
        for _, player, _, _, hp in state["robots"].values():
            counts[player][0] += 1
            counts[player][1] += hp
    for p, name in enumerate(names):
        table.add_row(shown_text(name, f"bold {COLORS[p % len(COLORS)]}"), str(counts[p][0]),
                      str(counts[p][1]))
    return table


LEGENDS = {
    "arena": [("^>v<", "bold red"), " robot (its AI's colour, facing)  ",
              ("^", "bold bright_white on grey35"), " mounted laser  ", ("#", "grey62"),
              " wall  ", ("&", "grey42"), " pit  ", ("{}", "grey42"), " spinner  ",
              ("1-9", "dim green"), " flag  ", ("x", "grey50"), " wreck"],
    "robotgame": [("0-9", "bold red"), " robot (its player's colour; hp ÷ 10)  ",
                  ("█", "grey23"), " obstacle  ", ("·", "green"), " spawn"],
    "cave": [("0-9", "bold reverse red"), " bot (its seat)  ", ("G", CAVE_STYLES["G"]),
             " gold  ", ("F", CAVE_STYLES["F"]), " food  ", ("W", CAVE_STYLES["W"]),
             " water  ", ("R", CAVE_STYLES["R"]), " revealer  ", ("K", CAVE_STYLES["K"]),
             " knife  ", ("}", CAVE_STYLES["}"]), " boulder  ", ("P", CAVE_STYLES["P"]),
             " pit  ", ("L", CAVE_STYLES["L"]), " lion  ", ("C", CAVE_STYLES["C"]),
             " centipede  ", ("B", CAVE_STYLES["B"]), " bats  ", ("N", CAVE_STYLES["N"]),
             " Nurse Nina  ", ("·", CAVE_STYLES["-"]), " ground"],
    "race": [("0-9", "bold reverse red"), " bot (its seat)  ", ("→", "grey50"), " belt  ",
             ("→", "blue"), " double belt  ", ("c C", "bold green"), " checkpoints  ",
             ("A", "bold yellow"), " antenna  ", ("*", "magenta"), " reboot"],
}
KEYS = "space play/pause   ← → or , . step   home/end first/last   q quit"


def legend(game: str) -> Text:
    """What each symbol of the game's board means."""
    return Text.assemble(*LEGENDS.get(game, ()))


def screen(data: dict, frames: list, turn: int, playing: bool,
           size: tuple[int, int] | None = None, keys: bool = True) -> Group:
    """One frame: the header, the board, the scores, the legend and (`keys`) the keys.
    With a terminal `size` (columns, rows), the board is cropped to what is left once
    the rest is shown, around the action."""
    state = frames[turn][1]
    board = board_text(data, state)
    table = scores(data, state)
    shown_legend = legend(data["game"])
    keys_text = Text(KEYS, style="dim")
    where = ""
    if size is not None:
        columns, rows = size
        board, where = _cropped(board, data, state, columns, rows, lambda where: (
            _lines(_header(data, turn, len(frames), playing, where), columns)
            + 1 + len(data["players"]) + _lines(shown_legend, columns)
            + (_lines(keys_text, columns) if keys else 0)))
    parts = [_header(data, turn, len(frames), playing, where), board, table, shown_legend]
    if keys:
        parts.append(keys_text)
    return Group(*parts)


def _header(data: dict, turn: int, frames: int, playing: bool, where: str) -> Text:
    return shown_text(f"{data['game']} on {data['map']['name']}, seed {data['seed']}   "
                      f"turn {turn}/{frames - 1}   " + ("playing" if playing else "paused")
                      + where, "bold")


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
    places = []
    game = data["game"]
    if game == "arena":
        places = [(row[1], row[2]) for row in state["robots"].values() if row[7] == 0]
    elif game == "robotgame":
        places = [(y, x) for _, _, x, y, _ in state["robots"].values()]
    elif game == "cave":
        places = [(r, c) for _, r, c, _h, _g, alive, *_ in state["bots"].values() if alive]
    elif game == "race":
        places = [(y, x) for _, x, y, *_ in state["bots"].values()]
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


def watch(data: dict, speed: float) -> None:
    """Play the replay in the terminal, with keys, until q."""
    frames = list(replay.frames(data))
    last_turn = len(frames) - 1
    turn, playing, last = 0, True, time.monotonic()
    saved = termios.tcgetattr(sys.stdin)

    def frame() -> Group:
        return screen(data, frames, turn, playing, (out.size.width, out.size.height))

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


def replay_command(
    file: Path = typer.Argument(..., help="A replay file (.json.gz) from --replay."),
    html: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained web page "
                                        "here instead, to watch in any browser."),
    turn: Optional[int] = typer.Option(None, help="Print the board at this turn and stop "
                                       "(what happens without a terminal, at the last turn)."),
    speed: float = typer.Option(10.0, help="Turns per second when playing."),
) -> None:
    """Watch a saved match: in the terminal (keys: space, arrows, q), or as a web page.

    Examples:

      arena run --replay match.json.gz && arena replay match.json.gz

      arena replay match.json.gz --html match.html    # canvas viewer, charts, robot panel

      arena replay match.json.gz --turn 120           # one frame, printed
    """
    data = replay.load(file)
    if html is not None:
        err.print(shown_text(f"wrote {write_html(data, html)}"))
        return
    if turn is None and sys.stdin.isatty() and sys.stdout.isatty():
        watch(data, max(0.5, speed))
        return
    frames = list(replay.frames(data))
    at = len(frames) - 1 if turn is None else turn
    if not 0 <= at < len(frames):
        raise InputError(f"--turn {turn}: the replay has turns 0 to {len(frames) - 1}")
    out.print(screen(data, frames, at, False, keys=False))
