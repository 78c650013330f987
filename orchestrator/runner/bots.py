"""Bot files as the orchestrator sees them: path, source, sha256, name and description
(`BotFile`), read from a path or a game's sample found by name."""
from __future__ import annotations

import ast
import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

from engine import InputError
from orchestrator import given_path
from orchestrator.games.kinds import parsed
from orchestrator.results.store import DESCRIPTION_CHARS
from orchestrator.runner.samples import (
    find_sample,
    leading_comment,
    named_samples,
    runnable,
    sample_files,
)
from orchestrator.text import shown
from sandbox.frames import BotSpec

__all__ = ["BotFile", "DESCRIPTION_CHARS", "declared_name", "described", "read_bot",
           "sample_bots", "shared_name_warnings", "unique_names"]

@dataclass(frozen=True)
class BotFile:
    """One bot given on the command line."""

    path: str          # as the user gave it (or relative to the project for samples)
    source: bytes
    sha256: str
    name: str          # the module-level `name`, else the file's stem

    @property
    def description(self) -> str:
        """What the bot says of its strategy: its module docstring (Python) or its leading
        comment block (any language), first paragraph, plain text of at most
        DESCRIPTION_CHARS; "" without one. Read from the source, never by running it."""
        return described(Path(self.path).name, self.source)

    @property
    def spec(self) -> BotSpec:
        return BotSpec(filename=Path(self.path).name, source=self.source)


_SOURCE_LANGUAGES = ("", ".py")     # a file the parser may read as Python for its docstring


NAME_CHARS = 40                 # a bot's declared name, at most (cut: its last is "…")


def declared_name(source: bytes, fallback: str) -> str:
    """The bot's module-level `name = '...'`, read without running the bot."""
    tree = parsed(source)
    if tree is None:
        return fallback
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "name" for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, TypeError, MemoryError, RecursionError):
                continue
            if isinstance(value, str) and value.strip():
                # A lone surrogate ('\udc80') fits no encoding, so no pipe, file or
                # terminal: it is kept as its escape. Controls are made safe where shown.
                # Past NAME_CHARS, cut with a mark that it was cut.
                value = value.strip()
                if len(value) > NAME_CHARS:
                    value = value[:NAME_CHARS - 1] + "…"
                return value.encode("utf-8", "backslashreplace").decode()
    return fallback


@functools.lru_cache(maxsize=256)   # each match's seats ask again for the same files
def described(filename: str, source: bytes) -> str:
    """A bot's description from its file, never run: the module docstring of a Python bot
    (read with `ast`), else its leading comment block (`#`, `//`, `--`, `;`, `/* */`: any
    language), its first paragraph on one line. It is the bot's text: controls and
    escapes become visible (`shown`), and it is cut to DESCRIPTION_CHARS."""
    text = ""
    if Path(filename).suffix.lower() in _SOURCE_LANGUAGES:
        tree = parsed(source)
        if tree is not None:
            text = ast.get_docstring(tree) or ""
    if not text.strip():
        text = leading_comment(source.decode("utf-8", "replace"), paragraph=True)
    paragraph = " ".join(text.strip().split("\n\n", 1)[0].split())
    paragraph = shown(paragraph.encode("utf-8", "backslashreplace").decode())
    if len(paragraph) > DESCRIPTION_CHARS:
        paragraph = paragraph[:DESCRIPTION_CHARS - 1].rstrip() + "…"
    return paragraph


def read_bot(path: str | Path, game: str | None = None) -> BotFile:
    """Read a bot file, or with the game known, a bundled sample named so (`forager`,
    `forager.py`) where no such file exists; a missing or unreadable one is an InputError."""
    given = str(path)
    file = Path(path) if given_path.is_file(path) else None
    if file is None:
        sample = find_sample(game, given) if game else None
        if sample is None:
            raise InputError(_not_found(given, game))
        file = runnable(sample)
        given = str(file)
    try:
        source = file.read_bytes()
    except OSError as exc:
        raise InputError(f"{given}: cannot read bot ({exc.strerror})") from None
    return BotFile(given, source, *_identify(source, file.stem))


def _not_found(given: str, game: str | None) -> str:
    names = [name for name, _ in named_samples(game)] if game else []
    if not names:
        return f"{given}: bot file not found"
    if Path(given).name != given:                   # a path is never a sample's name...
        stem = Path(given).stem
        if stem in names:                           # ...but may be a checkout's sample's
            return (f"{given}: bot file not found (the bundled {game} sample `{stem}` is "
                    f"given by its name alone)")
        return f"{given}: bot file not found"
    return (f"{given}: bot file not found, nor a bundled {game} sample "
            f"(samples: {', '.join(names)}; see `arena bots`)")


@functools.lru_cache(maxsize=64)    # a line-up often names the same file more than once
def _identify(source: bytes, stem: str) -> tuple[str, str]:
    """The bot's sha256 and name, read once per distinct file content."""
    return hashlib.sha256(source).hexdigest(), declared_name(source, stem)


def unique_names(names: list[str], files: list[str] | None = None) -> list[str]:
    """Every AI of a match (every entrant of a run) under its own name, by the one rule
    docs/spec/arena.md ("Names") states: where bots of different files (by file name,
    `files` given) declare one name, every one of them is labelled by its file's name
    (`Twin (a.py)`, `Twin (b.py)`); what still repeats (the same file twice) is numbered
    from its second bearer (`Rusher`, `Rusher #2`). No label or number is a name given in
    `names` (two Hunters beside a 'Hunter #2' make Hunter, Hunter #3 and Hunter #2)."""
    taken = set(names)
    shared = _shared(names, files)
    seen: set[str] = set()
    result = []
    for i, name in enumerate(names):
        unique, count = name, 1
        if files is not None and name in shared:
            labelled = f"{name} ({Path(files[i]).name})"
            if labelled not in taken:
                unique = labelled
        base = unique
        while unique in seen or count > 1 and unique in taken:
            count += 1
            unique = f"{base} #{count}"
        seen.add(unique)
        result.append(unique)
    return result


def _shared(names: list[str], files: list[str] | None) -> dict[str, list[str]]:
    """Each name that bots of different file names declare, with those file names."""
    if files is None:
        return {}
    by_name: dict[str, list[str]] = {}
    for name, file in zip(names, files, strict=True):
        found = by_name.setdefault(name, [])
        if Path(file).name not in found:
            found.append(Path(file).name)
    return {name: found for name, found in by_name.items() if len(found) > 1}


def shared_name_warnings(names: list[str], files: list[str]) -> list[str]:
    """One line per name that bots of different files declare, saying how each is shown
    (`unique_names`): `2 AIs of different files declare the name 'Twin' (a.py, b.py):
    shown as ...`."""
    lines = []
    for name, found in _shared(names, files).items():
        labels = unique_names([name] * len(found), found)
        lines.append(f"{len(found)} AIs of different files declare the name {shown(name)!r} "
                     f"({', '.join(shown(f) for f in found)}): shown as "
                     f"{', '.join(repr(shown(label)) for label in labels)} "
                     f"(docs/spec/arena.md, \"Names\")")
    return lines


def sample_bots(game: str) -> list[Path]:
    """The bundled Python sample bots of a game, in name order."""
    return [path for path in sample_files(game) if path.suffix == ".py"]
