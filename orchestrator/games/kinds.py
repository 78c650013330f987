"""A bot file read without running it, for the registry's `likely_game`: the hint for a bot
given to the wrong game (an rgkit bot in the arena, a `.rb` file without `--game`).

Each game's entry says how sure it is (`Game.looks_like`, 0: not at all); the surest
wins, the registry's order breaking ties."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import PurePath

from sandbox.programs import ELF, EXTENSIONS


def parsed(source: bytes) -> ast.Module | None:
    """A bot file's syntax tree, None where it is not Python the parser can hold: a file
    nested past the parser's depth (`name = ` and 30,000 `-` or `.a`) makes it raise
    MemoryError or RecursionError, not SyntaxError; it is a bot's text all the same, never
    the host's traceback."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


@dataclass(frozen=True)
class BotText:
    """A bot file as the games' `looks_like` read it. `tree` is None unless it is Python."""

    filename: str
    source: bytes
    suffix: str = ""
    text: str = ""
    tree: ast.Module | None = None
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)


def read(filename: str, source: bytes) -> BotText:
    suffix = PurePath(filename).suffix.lower()
    text = source.decode("utf-8", "replace")
    tree = None
    python = not (source.startswith(ELF) or suffix == ".c" or (
        suffix in EXTENSIONS and suffix != ".py") or (
        source.startswith(b"#!") and b"python" not in source.split(b"\n", 1)[0]))
    if python:
        tree = parsed(source)
    functions = {node.name: node for node in (tree.body if tree else ())
                 if isinstance(node, ast.FunctionDef)}
    return BotText(filename, source, suffix, text, tree, functions)
