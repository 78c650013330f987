"""Which game a bot file looks written for, read without running it: the hint for a bot
given to the wrong game (an rgkit bot in the arena, a `.rb` file without `--game`)."""
from __future__ import annotations

import ast
from pathlib import PurePath

from sandbox.programs import ELF, EXTENSIONS

RACE_ARGS = ("round", "order", "position", "score", "cards", "bots", "factory")


def likely_game(filename: str, source: bytes) -> str | None:
    """arena, robotgame, race or cave, or None when nothing tells. (A `.c` file is a Cave
    sample's source, compiled on first use.)"""
    suffix = PurePath(filename).suffix.lower()
    text = source.decode("utf-8", "replace")
    if suffix == ".rb":
        return "robotgame" if "class Robot" in text and "def act" in text else "cave"
    if source.startswith(ELF) or suffix == ".c" or (suffix in EXTENSIONS and suffix != ".py"):
        return "cave"
    if source.startswith(b"#!") and b"python" not in source.split(b"\n", 1)[0]:
        return "cave"
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Robot" and any(
                isinstance(item, ast.FunctionDef) and item.name == "act" for item in node.body):
            return "robotgame"
    if "move" in functions:
        return "arena"
    if "bot" in functions or any(_race_args(f) for f in functions.values()):
        return "race"
    if "stdin" in text or "input(" in text:
        return "cave"
    return None


def _race_args(function: ast.FunctionDef) -> bool:
    return tuple(a.arg for a in function.args.args) == RACE_ARGS


def wrong_game_hint(filename: str, source: bytes, game: str) -> str:
    """`; it looks like a robotgame bot: try --game robotgame`, or "" when it fits."""
    found = likely_game(filename, source)
    if found is None or found == game:
        return ""
    return f" (it looks like a {found} bot: try --game {found})"
