"""Fixtures of the sandbox tests: an ordinary user. (No escape file is left behind:
tests/conftest.py sees to that for every test.)"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.sandbox import as_user


@dataclass(frozen=True)
class OrdinaryUser:
    """Who runs a command through as_user.py: as root, ORDINARY_UID with a home of its
    own; otherwise the caller, as it is."""

    uid: int
    home: Path

    def run(self, argv: list[str], timeout: float, user_namespaces: bool = True
            ) -> subprocess.CompletedProcess:
        return subprocess.run(as_user.command(self.uid, self.home, argv, user_namespaces),
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def ordinary_user():
    if os.geteuid() != 0:
        yield OrdinaryUser(os.getuid(), Path.home())
        return
    home = Path(as_user.make_home(as_user.ORDINARY_UID))
    try:
        yield OrdinaryUser(as_user.ORDINARY_UID, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
