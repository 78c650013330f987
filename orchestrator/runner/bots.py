"""Bot files as the orchestrator sees them: path, source, sha256, name and description
(`BotFile`), read from a path or a game's sample found by name."""
from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path

from engine import InputError
from orchestrator import given_path
from orchestrator.bot_file import DESCRIPTION_CHARS, BotFile, described
from orchestrator.kinds import parsed
from orchestrator.samples import (
    find_sample,
    named_samples,
    runnable,
    sample_files,
)

__all__ = ["BotFile", "DESCRIPTION_CHARS", "declared_name", "described", "read_bot",
           "sample_bots", "unique_names"]

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
                return value.strip()[:40].encode("utf-8", "backslashreplace").decode()
    return fallback


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


def unique_names(names: list[str]) -> list[str]:
    """Later duplicates get ' #2', ' #3', ... so every AI in a match has its own name; a
    suffix is never a name given in `names` (two Hunters beside a 'Hunter #2' make
    Hunter, Hunter #3 and Hunter #2)."""
    taken = set(names)
    seen: set[str] = set()
    result = []
    for name in names:
        unique, count = name, 1
        while unique in seen or count > 1 and unique in taken:
            count += 1
            unique = f"{name} #{count}"
        seen.add(unique)
        result.append(unique)
    return result


def sample_bots(game: str) -> list[Path]:
    """The bundled Python sample bots of a game, in name order."""
    return [path for path in sample_files(game) if path.suffix == ".py"]
