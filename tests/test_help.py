"""`--help` teaches: every argument's and option's help text shows in full, the defaults
written into it included (rich would eat an unescaped `[default: ...]` as markup)."""
from __future__ import annotations

import re

import click
import typer
from typer.testing import CliRunner

from orchestrator.cli import app


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
            # the first sentence, as rich prints it: markup escapes undone
            first = flat(text.replace("\\[", "[").split(". ")[0])
            first = re.sub(r"\[bold\]|\[/bold\]", "", first)
            assert first in shown, f"arena {' '.join(path)}: {param.name}: {first!r}"
            checked += 1
    assert checked > 60
    edit = flat(runner.invoke(app, ["maps", "edit", "--help"]).output)
    assert "The map file to edit; a new one if it does not exist [default: a new" in edit
    assert "Loopback port [default: a free one]." in edit
