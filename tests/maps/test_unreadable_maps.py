"""A map file that is not text (not UTF-8) is one `error:` line and exit status 2 in every
game and every command that takes `--map`, never a traceback. Generated from the registry."""
from __future__ import annotations

import subprocess

import pytest

from orchestrator.games import GAMES
from tests.support.cli import arena
from tests.support.paths import ARENA_CMD

NOT_TEXT = bytes(range(128, 256)) * 8


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_map_that_is_not_text_is_one_error_line(name, tmp_path) -> None:
    game = GAMES[name]
    bad = tmp_path / "bad.map"
    bad.write_bytes(NOT_TEXT)
    bots = [str(p) for p in game.demo_lineup(on_skip=lambda _: None)][:2]
    for args in (["run", "--seed", "1"], ["batch", *bots, "--seeds", "1", "--db",
                                          str(tmp_path / "r.sqlite")]):
        done = arena(*args, "--game", name, "--map", str(bad), timeout=120)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2, (args, done.stderr[-2000:])
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, lines)
        assert "bad.map" in lines[0] and "Traceback" not in done.stderr
