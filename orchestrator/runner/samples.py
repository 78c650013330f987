"""The bundled sample bots of a game, found by name: `forager`, `forager.py`, `digger`. A
game's samples are the files of its `bots/` folder (the checkout's `bots/<game>/`, the
installed package's copy, or a game kept elsewhere's own); `orchestrator.games.sample_folder`
lists them and makes a compiled one runnable, and its names are this module's too.
"""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

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
    """The sample file named `ref`: its file name, or its stem. Where samples of several
    languages share a stem (`survivor.py`, `survivor.rb`), the stem is the Python one's,
    which needs no runtime beyond arena's own; the others are named by their file name
    (`survivor.rb`). Without a Python one, the stem is the first file in name order."""
    if Path(ref).name != ref:       # a path, not a name
        return None
    files = sample_files(game)
    exact = [path for path in files if path.name == ref]
    found = exact or sorted((path for path in files if path.stem == ref), key=_stem_order)
    return found[0] if found else None


def _stem_order(path: Path) -> tuple[bool, str]:
    """Which of the samples sharing a stem its stem names: the Python one, else by name."""
    return path.suffix != ".py", path.name


def named_samples(game: str) -> list[tuple[str, Path]]:
    """Each sample with its name: its stem where the stem finds it (`find_sample`), else
    its file name (`survivor` is survivor.py, `survivor.rb` the Ruby one)."""
    files = sample_files(game)
    by_stem: dict[str, Path] = {}
    for path in sorted(files, key=_stem_order):
        by_stem.setdefault(path.stem, path)
    return [(path.stem if by_stem[path.stem] == path else path.name, path) for path in files]


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
