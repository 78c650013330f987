"""What a newcomer and a CI log see: every command's `--help`, and a sample of each
command's output, piped into a file at 80 columns. No name or header cut (`coord…`), no
traceback, no rich markup shown as text. The commands come from the typer app, so a new
one must bring its sample here."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import typer

from orchestrator.cli.app import app
from orchestrator.games import GAMES
from tests.support.cli import commands
from tests.support.forked import forked_arena
from tests.support.paths import ARENA_CMD, BOTS, MAPS, ROOT

# One pytest-xdist worker for the module: its module-scoped fixtures (a ladder, a browser,
# a recorded match) would be made again on each worker that drew one of its tests.
pytestmark = pytest.mark.xdist_group("piped-output")

CAVE = ROOT / "bots" / "cave"
RG = ROOT / "bots" / "robotgame"
# A sample run of each command (in a temporary folder: its runs/ and files stay there),
# and the names it must print whole. Commands that serve a page until Ctrl-C are tested
# with a server in tests/ladder and tests/maps.
SERVES = {("serve",), ("maps", "edit")}
SAMPLES: dict[tuple[str, ...], list[tuple[list[str], list[str]]]] = {
    ("run",): [(["--seed", "1", "--max-turns", "20", "--game", "robotgame",
                 str(RG / "coordinator.py"), str(RG / "example.py")], ["coordinator"]),
               (["--seed", "1", "--max-turns", "5", "--map", "tiny", "--robots", "3",
                 str(BOTS / "hunter.py"), str(RG / "example.py")],
                ["try --game robotgame"])],
    ("check",): [(["--game", "robotgame", "--turns", "5", str(RG / "coordinator.py")],
                  ["coordinator"])],
    ("batch",): [(["--game", "cave", "--seeds", "2", "--max-turns", "10", "--workers", "1",
                   "--db", "b.sqlite", "forager", "wanderer"], ["forager", "wanderer"])],
    ("tournament",): [(["--game", "robotgame", "--games", "2", "--max-turns", "10",
                        "--workers", "1", "--db", "t.sqlite", str(RG / "coordinator.py"),
                        str(RG / "example.py"), str(RG / "survivor.py")],
                       ["coordinator", "example", "survivor"])],
    ("compare",): [(["--game", "robotgame", "--max-games", "2", "--max-turns", "10",
                     "--workers", "1", "--db", "c.sqlite", str(RG / "coordinator.py"),
                     str(RG / "example.py")], ["coordinator", "example"])],
    ("results",): [(["t.sqlite"], ["coordinator.py, example.py, survivor.py"])],
    ("publish",): [(["t.sqlite", "--out", "site", "--force"], ["wrote site", "3 AIs"])],
    ("replay",): [(["r.json.gz", "--turn", "3"], ["coordinator", "example"])],
    ("scenario",): [([str(ROOT / "tests" / "arena" / "scenarios" / "laser_fires_twice.json")],
                     ["robots"])],
    ("bots",): [([], [name for name in ("coordinator", "forager", "random_bot")])],
    ("maps",): [([], ["official", "skirmish"]), (["--game", "robotgame"], ["default"])],
    ("maps", "validate"): [([str(MAPS / "quad.txt")], ["quad.txt"])],
    ("maps", "generate"): [(["--ais", "2", "--seed", "1", "--out", "g.txt"], ["g.txt"])],
}
CUT = "…"
MARKUP = re.compile(r"\[/?(bold|dim|red|green|yellow|link)[^\]]*\]|\[/\]")


def leaf_commands() -> list[tuple[str, ...]]:
    root = typer.main.get_command(app)
    return [path for path, command in commands(root)
            if not getattr(command, "commands", None) or path == ("maps",)]


def piped(args: list[str], cwd) -> subprocess.CompletedProcess:
    """`arena ARGS` with stdout and stderr piped (not a terminal) at 80 columns."""
    env = {**os.environ, "COLUMNS": "80", "TERM": "xterm-256color"}
    # A process forked from one that imported the CLI once (tests/support/forked.py); its
    # stdout and stderr are files, as piped into a CI log.
    return forked_arena(tuple(ARENA_CMD), env).run(list(args), cwd, 300, env)


def assert_clean(done: subprocess.CompletedProcess, what: str) -> None:
    text = done.stdout + done.stderr
    assert "Traceback" not in text, f"{what}:\n{text}"
    assert CUT not in text, f"{what}: something was cut at 80 columns:\n{text}"
    assert not MARKUP.search(text), f"{what}: markup shown as text:\n{text}"
    assert "\x1b[" not in text, f"{what}: terminal escapes in a pipe:\n{text}"


def test_every_command_has_a_sample_or_serves() -> None:
    missing = [path for path in leaf_commands() if path not in SAMPLES and path not in SERVES]
    assert missing == [], f"add a sample of these commands to SAMPLES: {missing}"


@pytest.mark.parametrize("path", [("",)] + leaf_commands() + [("maps",)],
                         ids=lambda path: " ".join(path) or "arena")
def test_help_piped_at_80_columns(path, tmp_path) -> None:
    args = [p for p in path if p] + ["--help"]
    done = piped(args, tmp_path)
    assert done.returncode == 0, done.stderr
    assert_clean(done, f"arena {' '.join(args)}")
    # --game, the option (not --games, the option of `results` and `tournament`)
    if re.search(r"--game\b", done.stdout) and path not in (("maps", "generate"),
                                                             ("maps", "edit")):
        flat = " ".join(done.stdout.replace("│", " ").split())
        games = [name for name, game in GAMES.items()
                 if path != ("scenario",) or game.scenario]     # games with scenario files
        for game in games:                # generated from the registry, never a stale list
            assert game in flat, f"arena {' '.join(path)} --help: {game} missing"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """One folder for the samples, in order: the tournament writes what results reads."""
    where = tmp_path_factory.mktemp("piped")
    done = piped(["run", "--seed", "1", "--max-turns", "10", "--game", "robotgame",
                  str(RG / "coordinator.py"), str(RG / "example.py"), "--replay",
                  "r.json.gz"], where)
    assert done.returncode == 0, done.stderr
    return where


@pytest.mark.parametrize("path", sorted(SAMPLES), ids=lambda path: " ".join(path))
def test_output_piped_at_80_columns_keeps_every_name_whole(path, workdir) -> None:
    if path in (("results",), ("publish",)) and not (workdir / "t.sqlite").exists():
        assert piped(["tournament", *SAMPLES[("tournament",)][0][0]], workdir).returncode == 0
    if path == ("batch",) and shutil.which("sh") is None:
        pytest.skip("no sh for the cave samples")
    for args, names in SAMPLES[path]:
        done = piped([*path, *args], workdir)
        what = f"arena {' '.join(path)} {' '.join(args)}"
        # check: 1 when the bot fails; compare: 3 when --max-games ends it undecided
        assert done.returncode in (0, 1, 3), f"{what}:\n{done.stderr}"
        assert_clean(done, what)
        for name in names:
            assert name in done.stdout + done.stderr, f"{what}: {name!r} not shown whole"
        if path == ("check",):   # its verdict is one line, however long; then the bot's
            lines = done.stdout.splitlines()     # description (docs/publish.md), one line too
            assert len(lines) == 2 and lines[0].startswith("ok: "), done.stdout
            assert lines[1].startswith("  Coordinator: plans the whole team"), done.stdout
