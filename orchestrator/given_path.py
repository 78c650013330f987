"""A path the user gave (a bot, a map, a results or replay file), looked at safely.

`Path.is_file()` hides only some errors (no such file, not a folder): a name longer than
the system takes (ENAMETOOLONG, 255 bytes a part, 4096 a path) raises OSError, and
`map=5` from the API a TypeError. Here both are the InputError of bad input, naming the
path, never a traceback.
"""
from __future__ import annotations

import os
from pathlib import Path

from engine import InputError
from orchestrator.text import shown

SHOWN = 60                      # a long name is cut in the message


def named(path: object) -> str:
    """A given path as an error line names it: escaped, and cut when long."""
    text = shown(path)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(str(path))} characters)"


def is_file(path: object) -> bool:
    """Whether the path the user gave is a file; an InputError when it is no path at all
    or one the system refuses to look up."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"{named(repr(path))}: a path is text, not {type(path).__name__}")
    try:
        return Path(path).is_file()
    except OSError as exc:
        raise InputError(f"{named(path)}: {exc.strerror or exc}") from None
    except (ValueError, TypeError) as exc:
        raise InputError(f"{named(path)}: {exc}") from None
