"""How the command line shows what it does and where it failed: `--debug` logs, and an
internal error's one line with the file its traceback was written to.

Quiet by default: nothing is configured, and the modules log their matches, workers and
sandbox children at DEBUG and INFO, which Python drops. `arena --debug` (`-v`) shows
every log line of orchestrator/ and sandbox/ on stderr (a worker forked from this process
writes there too), and an internal error's whole traceback.
"""
from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import NoReturn

from orchestrator.faults import EXIT_INTERNAL, InternalError, details_of, summary_of

# The packages whose log lines `--debug` shows (another library's stay at WARNING).
OURS = ("orchestrator", "sandbox")
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

debugging = False


def show_logs() -> None:
    """`--debug`: our log lines on stderr, with the time, the process and the module."""
    global debugging
    if debugging:
        return                      # said twice (`--debug -v`): one handler
    debugging = True
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(levelname)s %(process)d %(name)s: %(message)s"))
    for name in OURS:
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        logger.propagate = False


def folder() -> Path:
    """Where tracebacks are written: the user's cache (`$XDG_CACHE_HOME/robot-arena/`, else
    `~/.cache/robot-arena/`, as built samples are), folder `tracebacks`."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "robot-arena" / "tracebacks"


def write_traceback(text: str) -> Path:
    """Write `text` to a new file of the user's own, never through a link: a fresh name
    (O_EXCL | O_NOFOLLOW, mode 0600) in the cache's tracebacks folder, entered only where
    it is a real folder this user owns; else a fresh file in the temporary folder. Raises
    OSError when neither can be written."""
    data = text.encode("utf-8", "replace")
    name = f"arena-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    try:
        where = folder()
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        held = os.open(where, _FOLDER)
        try:
            if os.fstat(held).st_uid != os.geteuid():
                raise PermissionError(f"{where} is not this user's")
            fd = os.open(name, _NEW, 0o600, dir_fd=held)
        finally:
            os.close(held)
        path = where / name
    except (OSError, RuntimeError):            # RuntimeError: no home to find
        fd, made = tempfile.mkstemp(prefix="arena-traceback-", suffix=".txt")
        path = Path(made)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    return path


def internal(exc: BaseException) -> NoReturn:
    """A failure of ours: its traceback written to a file (and, with `--debug`, shown), one
    `internal error:` line that says where, and exit status 70, never the user's `error:`
    and exit status 2."""
    if isinstance(exc, InternalError):
        summary, details = exc.summary, exc.details or details_of(exc)
    else:
        summary, details = summary_of(exc), details_of(exc)
    if debugging:
        sys.stderr.write(details if details.endswith("\n") else details + "\n")
    from orchestrator.cli.version import version_line  # noqa: PLC0415

    report = f"{version_line()}\ncommand: {' '.join(sys.argv)}\n\n{details}"
    try:
        where = f"traceback written to {write_traceback(report)}"
    except OSError as problem:
        where = f"its traceback could not be written ({problem.strerror or problem})" + (
            "" if debugging else "; run again with --debug to see it")
    sys.stderr.write(f"internal error: {summary} ({where}; please report it)\n")
    sys.exit(EXIT_INTERNAL)
