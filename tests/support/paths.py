"""Paths into the project the tests use, and the test-only plugins every `arena` they start
registers."""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BOTS = ROOT / "bots" / "arena"
MAPS = ROOT / "maps" / "arena"
HOSTILE = ROOT / "tests" / "hostile"
ARENA_CMD = [sys.executable, "-m", "orchestrator"]
# The toy game (tests/toy/): a fifth game kept outside the package, registered as a game
# master's own would be, and a sandbox mode kept outside it (tests/modes/counting.py:
# `off`, counting its calls), registered the same way, by its file.
TOY = ROOT / "tests" / "toy"
COUNTING = ROOT / "tests" / "modes" / "counting.py"
# Files outside the sandbox that only a hostile bot (or an unsandboxed run of one) writes.
ESCAPES = [Path("/tmp/arena-hostile-escape"), Path("/tmp/arena-hostile-shell-out")]


def _with(variable: str, ref: Path) -> None:
    named = [r for r in os.environ.get(variable, "").split(os.pathsep) if r]
    os.environ[variable] = os.pathsep.join(named + [str(ref)] * (str(ref) not in named))


def register_test_plugins() -> None:
    """Name the toy game and the counting mode in the environment: before the registry is
    first read, and inherited by every `arena` the tests start (from the checkout or an
    installed wheel, `arena serve` too). pytest's configure hook calls it."""
    _with("ARENA_GAMES", TOY)
    _with("ARENA_SANDBOX_MODES", COUNTING)
