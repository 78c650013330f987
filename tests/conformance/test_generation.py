"""The matrix is generated, and complete: what pytest collects follows the registry, the
samples on disk and the runtime table, so a new game, sample or runtime gets its rows with
no test edited, and a new command or runtime that nobody gave a row fails here."""
from __future__ import annotations

import functools
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import typer

from orchestrator.cli.app import app
from orchestrator.games import GAMES
from sandbox.modes import DEFAULT_MODE, offered
from tests.conformance.matrix import COVERS, PER_GAME, PLAYS, ROOT, folder, scenario_files
from tests.conformance.tiny import TINY, runtime_names

HERE = Path(__file__).parent


def test_every_runtime_of_the_table_has_a_tiny_bot() -> None:
    missing = [name for name in runtime_names() if name not in TINY]
    assert not missing, f"no tiny bot in tests/conformance/tiny.py for runtime(s) {missing}"
    stale = [name for name in TINY if name not in runtime_names()]
    assert not stale, f"tiny bots for runtimes the table no longer has: {stale}"


def test_every_arena_command_is_played_by_the_matrix() -> None:
    commands = typer.main.get_command(app).commands
    unplayed = [name for name in commands if name not in COVERS]
    assert not unplayed, f"no conformance row runs `arena {unplayed[0]}` (matrix.COVERS)"
    assert {row for rows in COVERS.values() for row in rows} <= set(PLAYS)


def test_every_game_has_a_ladder_and_its_scenarios() -> None:
    for name, game in GAMES.items():
        maps = {path.stem for path in game.bundled_maps()}
        assert set(game.ladder_rules.maps) <= maps, f"{name}: its ladder's maps are not its own"
        if game.scenario is not None:
            assert scenario_files(name), f"{name} runs scenarios: tests/{name}/scenarios/"


@functools.lru_cache(maxsize=None)
def _collected() -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0",
                           "-p", "no:cacheprovider", str(HERE)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_collected_rows_follow_the_registry_the_samples_and_the_runtimes() -> None:
    """Counted from the sources, not from the matrix's own generator: per game every
    command, per sample on disk a check, from the checkout and the installed wheel; per
    runtime its spellings per turn and persistent, and a series."""
    ids = _collected()
    by_test = Counter(re.sub(r"\[.*", "", line.split("::")[-1]) for line in ids)
    samples = {name: [p for p in folder(name, "bots").iterdir() if p.is_file()
                      and not p.name.startswith(("_", ".")) and p.read_bytes()[:4] != b"\x7fELF"]
               for name in GAMES}
    for test in ("test_from_the_checkout", "test_from_the_installed_wheel"):
        rows = [line for line in ids if f"::{test}[" in line]
        expected = 0
        for name, game in GAMES.items():
            for command in PER_GAME:
                assert any(line.endswith(f"[{name}-{command}]") for line in rows), (test, name,
                                                                                     command)
            for sample in samples[name]:
                assert any(line.endswith(f"[{name}-check-{sample.name}]") for line in rows)
            drivers = {suffix for suffix, _ in game.drivers
                       if any(p.suffix == suffix for p in samples[name])}
            assert sum(f"[{name}-driver-" in line for line in rows) == 3 * len(drivers)
            expected += len(PER_GAME) + len(samples[name]) + 3 * len(drivers)
        assert by_test[test] == expected, test
    for name in runtime_names():
        modes = [line for line in ids if re.search(rf"test_runtime\[{re.escape(name)}(\[|-)",
                                                      line)]
        spellings = len(TINY[name].spellings)
        assert len(modes) == 2 * spellings + 1, (name, modes)


def test_the_collected_mode_rows_follow_the_mode_registry() -> None:
    """Per mode a user can name, but the default (every other row's): a run, a batch and
    a check, the tests' own mode (tests/modes/counting.py) among them."""
    ids = [line for line in _collected() if "::test_a_sandbox_mode[" in line]
    modes = [mode.name for mode in offered() if mode.name != DEFAULT_MODE]
    assert "counting" in modes and "match" in modes
    expected = sorted(f"[{mode}-{command}]" for mode in modes
                      for command in ("run", "batch", "check"))
    assert sorted(line[line.index("["):] for line in ids) == expected
