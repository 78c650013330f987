"""Our own failures, kept apart from the user's.

Bad input is an `InputError` (engine/__init__.py): one `error:` line, exit status 2, the
user's to fix. A bug of ours (or of a game or mode installed as a plugin) is an
`InternalError`: it keeps the whole traceback of where it happened, even when that was
in a worker process, so that the command line can write it to a file and say where
(`internal error: ...`, exit status 70), never as the user's mistake.
"""
from __future__ import annotations

import traceback

# The exit status of an internal error (sysexits.h's EX_SOFTWARE).
EXIT_INTERNAL = 70


class InternalError(Exception):
    """A failure that is not the user's: `summary` is its one line, `details` the full
    traceback of where it was raised (in this process or in a worker)."""

    def __init__(self, summary: str, details: str = "") -> None:
        super().__init__(summary)
        self.summary = summary
        self.details = details


def summary_of(exc: BaseException) -> str:
    """An exception's one line: its class and the first line of its message."""
    said = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {said[0]}" if said else type(exc).__name__


def details_of(exc: BaseException) -> str:
    """The whole traceback of `exc`, as Python prints it (chained causes included)."""
    return "".join(traceback.format_exception(exc))
