"""The project's wheel, and a venv with it installed outside the checkout, each built once
per test session and shared by every test (and every pytest-xdist worker) that needs them.

Use the session fixtures of tests/conftest.py (`wheel`, `installed`), or call
`wheel_path(tmp_path_factory)` / `installed_venv(tmp_path_factory)` directly. Tests that
use them carry the xdist group "installed", so one worker builds while the other goes on.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Never part of a build's input: local environments, earlier builds, caches.
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                   "__pycache__", ".pytest_cache", ".ruff_cache", "runs")


def session_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder all of this session's workers share: under xdist each worker's basetemp is
    a child of the session's own folder; without it, the basetemp is the session's."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return shared / "shared-install"


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """One process at a time in `folder` (an flock, released if the holder dies)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _run(argv: list, cwd: Path) -> None:
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, cwd=cwd,
                          timeout=600)
    assert done.returncode == 0, f"{argv}: {done.stderr[-2000:]}"


def wheel_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a clean copy of this checkout (so no earlier in-tree build/
    leaks into it), once per session."""
    where = session_dir(tmp_path_factory) / "wheel"
    with locked(where):
        built = sorted(where.glob("robot_arena-*.whl"))
        if not built:
            source = where / "source"
            shutil.rmtree(source, ignore_errors=True)
            shutil.copytree(ROOT, source, ignore=NOT_SOURCE, symlinks=True)
            _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                  "--wheel-dir", where, source], cwd=where)
            shutil.rmtree(source)
            built = sorted(where.glob("robot_arena-*.whl"))
        (wheel,) = built
    return wheel


@dataclass(frozen=True)
class Installed:
    """A venv's bin/ folder holding the installed `arena`."""

    bin: Path
    seconds: float          # what building the wheel and installing it took

    @property
    def arena(self) -> list[str]:
        return [str(self.bin / "arena")]

    @property
    def python(self) -> Path:
        return self.bin / "python"

    @cached_property
    def bundled(self) -> Path:
        """The installed package's bundled files (`maps/`, `bots/`), as it finds them."""
        found = subprocess.run(
            [self.python, "-c", "from orchestrator.assets import bundled; "
                                "print(bundled('bots').parent)"],
            capture_output=True, text=True, cwd=self.bin, timeout=60)
        assert found.returncode == 0, found.stderr
        path = Path(found.stdout.strip())
        assert "site-packages" in str(path) and ROOT not in path.parents, path
        return path


def installed_venv(tmp_path_factory: pytest.TempPathFactory,
                   extras: str = "server") -> Installed:
    """A fresh venv outside the checkout with the wheel and `extras` installed, once per
    session. Tests only run its programs; none may install into it."""
    started = time.monotonic()
    wheel = wheel_path(tmp_path_factory)
    where = session_dir(tmp_path_factory) / f"venv-{extras or 'plain'}"
    bin_dir = where / "venv" / "bin"
    with locked(where):
        if not (where / "ready").exists():
            shutil.rmtree(where / "venv", ignore_errors=True)
            # No pip of its own (ensurepip: 7 CPU-s): the tests' pip installs into it
            # (--python). pip still byte-compiles what it installs: with
            # PYTHONDONTWRITEBYTECODE set, nothing else would, and every `arena` the tests
            # start would compile numpy, rich and typer again (+0.6 CPU-s each).
            venv.create(where / "venv", with_pip=False)
            target = f"{wheel}[{extras}]" if extras else str(wheel)
            _run([sys.executable, "-m", "pip", "--python", bin_dir / "python", "install",
                  "--quiet", target], cwd=where)
            (where / "ready").write_text(f"{time.monotonic() - started:.1f}")
    return Installed(bin_dir, float((where / "ready").read_text()))
