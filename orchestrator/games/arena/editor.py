"""Robot Arena in the map editor (`arena maps edit`): its grid is its file, one character
a tile, with the seed's symbols."""
from __future__ import annotations

from pathlib import Path

from engine import InputError
from engine.arena.mapfile import map_lines
from orchestrator.games.entry import Game
from orchestrator.web.map_editor import MAX_SIDE, Palette, Sheet, Tool

FLAGS = tuple(str(n) for n in range(1, 10))
PALETTE = Palette(
    kinds={" ": "floor", "#": "wall", "&": "pit", "^": "laser", ">": "laser", "v": "laser",
           "<": "laser", "{": "spinner", "}": "spinner", **dict.fromkeys(FLAGS, "flag")},
    labels={"^": "▲", ">": "▶", "v": "▼", "<": "◀", "{": "↺", "}": "↻",
            **{flag: flag for flag in FLAGS}},
    # How a symbol looks in a mirror: lasers turn, spinners change hands (a rotation keeps
    # them).
    mirror_x={"<": ">", ">": "<", "{": "}", "}": "{"},
    mirror_y={"^": "v", "v": "^", "{": "}", "}": "{"},
    rotate={"^": "v", "v": "^", "<": ">", ">": "<"},
    unique=FLAGS,
    notes={"{": ": turns robots counter-clockwise", "}": ": turns robots clockwise"},
    where="line {line}, column {column}")     # as a map file's errors name a square


class ArenaSheet(Sheet):
    """An arena's grid is its file: the seed's symbols, one character a tile."""

    tools = (Tool(" ", "floor", "s"), Tool("#", "wall", "#"), Tool("&", "pit", "&"),
             Tool("^", "laser north", "^"), Tool(">", "laser east", ">"),
             Tool("v", "laser south", "v"), Tool("<", "laser west", "<"),
             Tool("{", "left spinner", "{"), Tool("}", "right spinner", "}"),
             *(Tool(flag, f"flag {flag}", flag) for flag in FLAGS))
    palette = PALETTE
    resizable = True

    @classmethod
    def rows_of(cls, text: str, blank_side: int) -> list[str]:
        """The file's lines as a square grid, padded with floor. Symbols the parser would
        refuse are kept, so the page shows where they are. No lines: a blank grid."""
        lines = map_lines(text)
        if not lines:
            return cls.blank(blank_side)
        side = min(MAX_SIDE, max(len(lines), max(len(line) for line in lines)))
        lines = (lines + [""] * side)[:side]
        return [line[:side].ljust(side) for line in lines]

    @staticmethod
    def blank(side: int) -> list[str]:
        return [" " * side] * side

    def text(self, rows: list[str]) -> str:
        # Full-width lines: the map's size is its longest line, so it stays what was drawn.
        return "\n".join(rows) + "\n"


def sheet(game: Game, path: Path, source: Path | None, side: int) -> Sheet:
    """The sheet of `path`, starting from `source`'s map (None: a blank `side` × `side`)."""
    if not 1 <= side <= MAX_SIDE:
        raise InputError(f"--size must be 1 to {MAX_SIDE}, got {side}")
    if source is None:
        return ArenaSheet(game, path, ArenaSheet.blank(side), new=True)
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{source}: cannot read the map ({exc})") from None
    return ArenaSheet(game, path, ArenaSheet.rows_of(text, side), new=source != path)
