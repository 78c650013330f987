"""The bundled sample bots, found by name, and made runnable: `forager`, `forager.py`,
`digger`. A sample is every file in `bots/<game>/` (the checkout's, or the installed
package's copy), save those starting with `_` or `.` and compiled output.

A C sample ships as source and is compiled with `cc` the first time it is asked for,
into the user's cache (`$XDG_CACHE_HOME/robot-arena/`, else `~/.cache/robot-arena/`),
keyed by the source's sha256, so an edited source builds afresh and a built one is reused.
"""
from __future__ import annotations

import ast
import hashlib
import os
import shutil
import subprocess
import tempfile
import tomllib
from pathlib import Path

from engine import InputError
from orchestrator.assets import bundled

COMPILED = {".c": ("cc", "-O2", "-o")}     # a source kind built into a native program
ABOUT = "_about.toml"   # one line for a sample kept byte for byte (no comment may be added)


class Unbuildable(InputError):
    """A compiled sample that cannot be built here (no compiler, or it failed)."""


def sample_files(game: str) -> list[Path]:
    """The sample bots' files of a game (sources, for a compiled sample), in name order."""
    from orchestrator.games import GAMES  # noqa: PLC0415 (the registry imports this)
    home = GAMES[game].home if game in GAMES else None     # a game kept elsewhere
    folder = home / "bots" if home else bundled("bots") / game
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir()
                  if path.is_file() and path.suffix and path.name[0] not in "_.")


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


def runnable(path: Path) -> Path:
    """The file to run for the sample at `path`: itself, or for a C sample its build."""
    if path.suffix not in COMPILED:
        return path
    return build(path)


def cache_dir() -> Path:
    """Where built samples are kept, per user."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "robot-arena"


def build(source: Path) -> Path:
    """The native program built from `source`, compiled once (atomically) and reused."""
    data = source.read_bytes()
    target = cache_dir() / "native" / hashlib.sha256(data).hexdigest()[:16] / source.stem
    if target.is_file() and os.access(target, os.X_OK):
        return target
    compiler, *flags = COMPILED[source.suffix]
    found = shutil.which(compiler)
    if found is None:
        raise Unbuildable(f"{source.name}: this sample is C source, built on first use, and "
                          f"no C compiler ({compiler}) is on PATH; install one (Debian: "
                          f"apt-get install gcc libc6-dev) or pick another sample")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as work:
            built = Path(work) / source.stem
            done = subprocess.run([found, *flags, str(built), str(source)], text=True,
                                  capture_output=True, timeout=120)
            if done.returncode != 0 or not built.is_file():
                said = (done.stderr.strip().splitlines() or ["no message"])[0]
                raise Unbuildable(f"{source.name}: {compiler} could not build it: {said}")
            os.replace(built, target)     # atomic: a concurrent build wins or loses whole
    except OSError as exc:
        raise Unbuildable(f"{source.name}: cannot build it in {target.parent} "
                          f"({exc.strerror})") from None
    return target


def summary(path: Path) -> str:
    """What the sample is, in one sentence: its module docstring or its first comment."""
    about = path.parent / ABOUT
    if about.is_file():
        line = tomllib.loads(about.read_text()).get(path.name)
        if isinstance(line, str):
            return line
    text = path.read_text(errors="replace")
    paragraph = _docstring(text) if path.suffix == ".py" else None
    return _first_sentence(paragraph or _comment(text))


def _docstring(text: str) -> str | None:
    try:
        return ast.get_docstring(ast.parse(text))
    except (SyntaxError, ValueError):
        return None


def _comment(text: str) -> str:
    """The first comment block's text, markers stripped; the #! line and protocol marks
    (`cave-protocol: persistent`) are not description."""
    lines: list[str] = []
    for number, raw in enumerate(text.splitlines()):
        line = raw.strip()
        if number == 0 and line.startswith("#!") or "cave-protocol:" in line:
            continue
        for marker in ("//", "/*", "*/", "#", "*"):
            if line.startswith(marker):
                line = line.removeprefix(marker).removesuffix("*/").strip()
                break
        else:
            if lines or line:
                break           # the first line of code ends the block
            continue
        if not line and lines:
            break
        if line:
            lines.append(line)
    return " ".join(lines)


def _first_sentence(paragraph: str) -> str:
    words = " ".join(paragraph.split("\n\n", 1)[0].split())
    end = words.find(". ")
    return words if end < 0 else words[:end + 1]
