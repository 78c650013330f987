"""A folder of sample bots, whoever's game it is: its sample files, each made runnable.

A sample is every file in the folder save those starting with `_` or `.` and compiled
output. A C sample ships as source and is compiled with `cc` the first time it is asked
for, into the user's cache (`$XDG_CACHE_HOME/robot-arena/`, else `~/.cache/robot-arena/`),
keyed by the source's sha256, so an edited source builds afresh and a built one is reused.

This module knows no game, so the registry's entries can use it; `orchestrator.runner.samples`
finds a game's samples by the game's name.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from engine import InputError

COMPILED = {".c": ("cc", "-O2", "-o")}     # a source kind built into a native program


class Unbuildable(InputError):
    """A compiled sample that cannot be built here (no compiler, or it failed)."""


def listed(folder: Path) -> list[Path]:
    """The sample bots' files in `folder` (sources, for a compiled sample), in name order;
    none when there is no such folder."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir()
                  if path.is_file() and path.suffix and path.name[0] not in "_.")


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
