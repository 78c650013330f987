"""Fixtures of the sandbox tests: no escape file left behind, and an ordinary user."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

AS_USER = Path(__file__).with_name("as_user.py")
ORDINARY_UID = 47110            # as root: a uid with no account, no groups and no files
ESCAPES = [Path("/tmp/arena-hostile-escape"), Path("/tmp/arena-hostile-shell-out")]


@pytest.fixture(autouse=True)
def no_escape_files_left():
    """A file a hostile bot managed to write fails its own test, never the next one."""
    for path in ESCAPES:
        path.unlink(missing_ok=True)
    yield
    for path in ESCAPES:
        path.unlink(missing_ok=True)


@dataclass(frozen=True)
class OrdinaryUser:
    """Who runs a command through as_user.py: as root, ORDINARY_UID with a home of its
    own; otherwise the caller, as it is."""

    uid: int
    home: Path

    def command(self, argv: list[str], user_namespaces: bool = True) -> list[str]:
        flag = [] if user_namespaces else ["--no-user-namespaces"]
        return [sys.executable, str(AS_USER), *flag, str(self.uid), str(self.home), *argv]

    def run(self, argv: list[str], timeout: float, user_namespaces: bool = True
            ) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(argv, user_namespaces), capture_output=True,
                              text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def ordinary_user():
    if os.geteuid() != 0:
        yield OrdinaryUser(os.getuid(), Path.home())
        return
    home = Path(tempfile.mkdtemp(prefix="arena-ordinary-home-"))
    os.chown(home, ORDINARY_UID, ORDINARY_UID)
    home.chmod(0o700)
    try:
        yield OrdinaryUser(ORDINARY_UID, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
