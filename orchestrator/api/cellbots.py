"""Bots given as Python code (a notebook cell's function or class), written to files.

The sandbox runs files: a bot defined in the caller is written, as its source text, to a
file named by its content, and then runs like any other bot file, in its own limited
process. Nothing of the caller's process goes with it but that text (and the helpers the
caller names), so a bot that loops forever or crashes is stopped as a file bot would be.
"""
from __future__ import annotations

import hashlib
import inspect
from pathlib import Path
from typing import Any, Callable, Iterable, TypeGuard

from engine import InputError
from orchestrator import host_files
from orchestrator.api.code_source import Definition, definition, own_codes
from orchestrator.games import Game
from orchestrator.games.entry import CodeBot
from orchestrator.games.sample_folder import cache_dir


def bot_side(game: Game) -> CodeBot:
    """What a bot of `game` given as code must define (its entry's `code_bot`)."""
    side = game.code_bot
    if side is None:
        what = "programs" if game.programs else "files"
        raise InputError(f"{game.name}: its bots are {what}, not Python functions or "
                         f"classes; give a bot file (or a sample's name)")
    return side


def is_code(bot: Any) -> TypeGuard[Callable[..., Any] | type]:
    """Whether a line-up entry is code (a function or class), not a path or a name."""
    return inspect.isfunction(bot) or inspect.isclass(bot)


def source_of(obj: Callable | type) -> Definition:
    """The dedented source text of a function or class, the definition that compiles to
    that very object's code (code_source), or an InputError saying why there is none."""
    label = getattr(obj, "__qualname__", repr(obj))
    if getattr(obj, "__name__", "") == "<lambda>":
        raise InputError("a lambda cannot be a bot: its source is not a definition; "
                         "write it as `def move(): ...`")
    if not is_code(obj):
        raise InputError(f"{obj!r}: a helper is a function or class, defined in a file or "
                         f"a notebook cell")
    own = _own_name(obj)                       # (a helper's too: it is in the file)
    label = label if type(label) is str else own
    codes = [obj.__code__] if inspect.isfunction(obj) else own_codes(obj)  # type: ignore[arg-type]  # not a function: a class
    free = sorted({name for code in codes for name in code.co_freevars} - {"__class__"})
    if free:
        raise InputError(f"{label}: it uses {', '.join(free)} from the function around it; "
                         f"a bot runs alone in its sandbox: define it at the top level")
    return definition(obj)


def _own_name(obj: Any) -> str:
    """A function's or class's __name__, which goes into the bot's file: an identifier,
    of type str itself. A __name__ can be set to any str subclass, whose __eq__, repr and
    format are code of its own (one wrote `print(...)` into the file that played)."""
    own = getattr(obj, "__name__", None)
    if type(own) is not str or not (own.isidentifier() or own == "<lambda>"):
        raise InputError("a bot or helper's __name__ must be a plain identifier (a str); "
                         "this one was set to something else")
    return own


def write_bot(obj: Callable | type, game: Game, helpers: Iterable[Any] = (),
              name: str | None = None, folder: Path | None = None) -> Path:
    """Write a function or class (and its `helpers`: functions, classes, in the order
    given) as a bot file of `game`, and return its path. The file is named after the bot
    (`name`, else the function's or class's name) inside a folder named by its content,
    so the same code is always the same file, and a batch of it resumes."""
    side = bot_side(game)
    if (side.kind == "class") != inspect.isclass(obj):
        raise InputError(f"{game.name} bots are a {side.kind} ({side.entry}), not a "
                         f"{'class' if inspect.isclass(obj) else 'function'}: "
                         f"{getattr(obj, '__qualname__', obj)}")
    own = _own_name(obj)
    if name is not None and type(name) is not str:
        # A str subclass's repr or format is its own code: it would write into the file
        # that plays lines the definition does not hold.
        raise InputError("name: must be text (a str)")
    name = name or own
    found = [source_of(helper) for helper in helpers] + [source_of(obj)]
    futures = sorted({feature for one in found for feature in one.futures})
    # A __future__ import must open the file: the text then compiles as it did for the
    # caller (with `annotations`, an annotation stays a string).
    parts = [f"from __future__ import {', '.join(futures)}\n" if futures else "",
             side.prelude, f"name = {name!r}\n"]
    parts += [one.text for one in found]
    if own != side.entry:
        parts.append(f"{side.entry} = {own}\n")
    text = "\n\n".join(part.rstrip("\n") + "\n" for part in parts if part)
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    target = (folder or cache_dir() / "cells") / key / f"{_stem(name)}.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink() or not target.is_file() or \
            target.read_text(encoding="utf-8") != text:
        host_files.write_file(target, text.encode("utf-8"))     # a link there: replaced
    return target


def _stem(name: str) -> str:
    """A file name from a bot's name: its letters, digits, - and _."""
    kept = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)[:40]
    return kept or "bot"
