"""`--help` teaches: every argument's and option's help text shows in full, the defaults
written into it included (rich would eat an unescaped `[default: ...]` as markup)."""
from __future__ import annotations

import re

import click
import typer
from typer.testing import CliRunner

from orchestrator.cli.app import app


def commands(group: click.Group, path: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        yield path + (name,), command
        if isinstance(command, click.Group):
            yield from commands(command, path + (name,))


def flat(text: str) -> str:
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def test_every_parameters_help_is_shown_whole() -> None:
    root = typer.main.get_command(app)
    runner = CliRunner()
    checked = 0
    for path, command in commands(root):
        shown = flat(runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100"}).output)
        for param in command.params:
            text = getattr(param, "help", None)
            if not text or param.name == "help":
                continue
            # the whole text, as rich prints it: markup escapes undone (a bracket left
            # unescaped, as in pip install '.[dask]', is eaten as markup)
            whole = flat(text.replace("\\[", "["))
            whole = re.sub(r"\[bold\]|\[/bold\]", "", whole)
            assert whole in shown, f"arena {' '.join(path)}: {param.name}: {whole!r}"
            checked += 1
    assert checked > 60
    edit = flat(runner.invoke(app, ["maps", "edit", "--help"]).output)
    assert "The map file to edit; a new one if it does not exist [default: a new" in edit
    assert "Loopback port [default: a free one]." in edit


def test_bare_arena_prints_its_help_once_and_version_names_both_versions() -> None:
    import subprocess

    from engine import ENGINE_VERSION
    from tests.conftest import ARENA_CMD, ROOT

    bare = subprocess.run(ARENA_CMD, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bare.returncode == 0 and bare.stderr == ""
    assert bare.stdout.count("Usage: arena") == 1, bare.stdout
    assert bare.stdout.count("Run sandboxed matches") == 1
    version = subprocess.run(ARENA_CMD + ["--version"], cwd=ROOT, capture_output=True,
                             text=True, timeout=60)
    assert version.returncode == 0
    assert re.fullmatch(rf"robot-arena \d+\.\d+\.\d+\S*, engine {re.escape(ENGINE_VERSION)}\n",
                        version.stdout), version.stdout
