"""The arena as a user installs it: this checkout's wheel (with the server extra) in a fresh
venv outside the checkout, built once per test session and shared by every test and every
pytest-xdist worker that needs it (`installed_arena()`, the `installed` fixture)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import venv
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
# What a clean clone does not hold: copying the tree without them builds the wheel as a
# clean clone would (an in-tree build/ could carry files deleted from the sources).
NOT_SOURCES = (".git", ".venv", "build", "runs", "*.egg-info", "__pycache__", ".pytest_cache",
               ".ruff_cache", "node_modules")


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


def session_dir(basetemp: Path) -> Path:
    """The folder every worker of this session shares: a worker's basetemp lies in the
    controller's (pytest-N/popen-gw0), which is this session's own."""
    return basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp


def installed_arena(shared: Path) -> Installed:
    """The session's installed arena under `shared` (see session_dir), built by the
    first worker that asks; the others wait on the lock and reuse it, or its failure."""
    where = shared / "installed-arena"
    with FileLock(str(shared / "installed-arena.lock")):
        if (where / "failed").exists():
            raise AssertionError((where / "failed").read_text())
        if not (where / "ready").exists():
            shutil.rmtree(where, ignore_errors=True)
            where.mkdir()
            started = time.monotonic()
            try:
                _build(where)
            except AssertionError as exc:
                (where / "failed").write_text(str(exc))
                raise
            (where / "ready").write_text(f"{time.monotonic() - started:.1f}")
    return Installed(where / "venv" / "bin", float((where / "ready").read_text()))


def _build(where: Path) -> None:
    source = where / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
          str(where / "wheels"), str(source)], where)
    (wheel,) = (where / "wheels").glob("robot_arena-*.whl")
    venv.create(where / "venv", with_pip=True)
    _run([str(where / "venv" / "bin" / "pip"), "install", "--quiet", f"{wheel}[server]"],
         where)
    shutil.rmtree(source)


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=900)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stderr[-3000:]}"
