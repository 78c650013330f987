"""The bundled sample bots of a game, found by name: `forager`, `forager.py`, `digger`. A
game's samples are the files of its `bots/` folder (the checkout's `bots/<game>/`, the
installed package's copy, or a game kept elsewhere's own); `orchestrator.games.sample_folder`
lists them and makes a compiled one runnable, and its names are this module's too.
"""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from engine import InputError
from orchestrator.assets import bundled
from orchestrator.games import GAMES
from orchestrator.games.sample_folder import (
    COMPILED,
    Unbuildable,
    build,
    cache_dir,
    listed,
    runnable,
)

__all__ = ["COMPILED", "Unbuildable", "build", "cache_dir", "find_sample", "named_samples",
           "runnable", "sample_files", "summary"]

ABOUT = "_about.toml"   # one line for a sample kept byte for byte (no comment may be added)


def sample_files(game: str) -> list[Path]:
    """The sample bots' files of a game (sources, for a compiled sample), in name order."""
    home = GAMES[game].home if game in GAMES else None     # a game kept elsewhere
    return listed(home / "bots" if home else bundled("bots") / game)


def find_sample(game: str, ref: str) -> Path | None:
    """The sample file named `ref` (its file name, or its stem when no other sample of the
    game shares it), or None; an ambiguous stem is an InputError naming the files."""
    if Path(ref).name != ref:       # a path, not a name
        return None
    files = sample_files(game)
    exact = [path for path in files if path.name == ref]
    found = exact or [path for path in files if path.stem == ref]
    if len(found) > 1:
        raise InputError(f"{ref}: several {game} samples have this name: "
                         f"{', '.join(path.name for path in found)}; give one of them")
    return found[0] if found else None


def named_samples(game: str) -> list[tuple[str, Path]]:
    """Each sample with its name: its stem, or its file name where a stem is shared."""
    files = sample_files(game)
    stems = [path.stem for path in files]
    return [(path.stem if stems.count(path.stem) == 1 else path.name, path) for path in files]


def summary(path: Path) -> str:
    """What the sample is, in one sentence: its module docstring or its first comment."""
    about = path.parent / ABOUT
    if about.is_file():
        line = tomllib.loads(about.read_text()).get(path.name)
        if isinstance(line, str):
            return line
    text = path.read_text(errors="replace")
    paragraph = _docstring(text) if path.suffix == ".py" else None
    return _first_sentence(paragraph or leading_comment(text))


def _docstring(text: str) -> str | None:
    try:
        return ast.get_docstring(ast.parse(text))
    except (SyntaxError, ValueError):
        return None


_MARKERS = ("//", "/*", "*/", "--", ";", "#", "*")   # C, JS, Lua/Haskell/SQL, Lisp, shell
_RUNS = ("//", "--", ";", "#")                       # markers written doubled or more: `;;;`


def leading_comment(text: str, paragraph: bool = False) -> str:
    """The first comment block's text, markers stripped; the #! line and protocol marks
    (`cave-protocol: persistent`) are not description. `paragraph`: the block as it is
    written, lines joined by newlines (its first paragraph is the description)."""
    lines: list[str] = []
    for number, raw in enumerate(text.splitlines()[:200]):
        line = raw.strip()
        if number == 0 and line.startswith("#!") or "cave-protocol:" in line:
            continue
        for marker in _MARKERS:
            if line.startswith(marker):
                line = (line.lstrip(marker[0]) if marker in _RUNS else line.removeprefix(marker)
                        ).removesuffix("*/").strip()
                break
        else:
            if lines or line:
                break           # the first line of code ends the block
            continue
        if not line and lines:
            break
        if line:
            lines.append(line)
        if raw.rstrip().endswith("*/"):
            break               # a block comment's end ends it (`#include` after is code)
    return ("\n" if paragraph else " ").join(lines)


def _first_sentence(paragraph: str) -> str:
    words = " ".join(paragraph.split("\n\n", 1)[0].split())
    end = words.find(". ")
    return words if end < 0 else words[:end + 1]
