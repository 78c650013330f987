"""`--help` teaches: every argument's and option's help text shows in full, the defaults
written into it included (rich would eat an unescaped `[default: ...]` as markup), and in a
narrow terminal it wraps between words, never inside a word, an option's name or an
example command."""
from __future__ import annotations

import re

import click
import pytest
import typer
from typer.testing import CliRunner

from orchestrator.cli.app import app
from tests.support.cli import arena, commands


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
    from tests.support.paths import ARENA_CMD, ROOT

    bare = subprocess.run(ARENA_CMD, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bare.returncode == 0 and bare.stderr == ""
    assert bare.stdout.count("Usage: arena") == 1, bare.stdout
    assert bare.stdout.count("Run sandboxed matches") == 1
    version = arena("--version", timeout=60)
    assert version.returncode == 0
    assert re.fullmatch(rf"robot-arena \d+\.\d+\.\d+\S*, engine {re.escape(ENGINE_VERSION)}\n",
                        version.stdout), version.stdout


def every_help() -> list[tuple[tuple[str, ...], click.Command]]:
    """`arena` itself and every command and subcommand typer registered."""
    root = typer.main.get_command(app)
    return [((), root), *commands(root)]


def unmarked(text: str) -> str:
    """Help text as rich shows it: its markup tags dropped, its escapes undone."""
    return re.sub(r"\[/?bold\]", "", text).replace("\\[", "[")


def examples(text: str) -> list[str]:
    """The example command lines of a help text (`arena ...` and their ` \\`
    continuation lines), as written."""
    found, going_on = [], False
    for line in unmarked(text).splitlines():
        line = line.strip()
        if line.startswith("arena ") or going_on:
            found.append(line)
        going_on = line.endswith(" \\")
    return found


@pytest.mark.parametrize("width", [60, 80])
def test_help_wraps_between_words_never_inside_an_example(width: int) -> None:
    """Before: at 80 columns `arena compare --help` broke its example between `--elo1` and
    `20`, and at 60 `arena run --help` split every example (comments aligned past the
    edge) into pieces a reader could not paste back. Every help text of the app, at
    `width` columns: no line is wider; every word and option name of the help and of each
    parameter's shows whole; every example command line shows whole, on a line of its
    own (a long one is written with ` \\` continuation lines)."""
    runner = CliRunner()
    checked = 0
    for path, command in every_help():
        output = runner.invoke(app, [*path, "--help"], env={"COLUMNS": str(width)}).output
        assert max(len(line) for line in output.splitlines()) <= width, path
        words = set(flat(output).split())
        lines = {flat(line) for line in output.splitlines()}
        sources = [command.help or ""] + [getattr(param, "help", None) or ""
                                          for param in command.params]
        names = [name for param in command.params for name in getattr(param, "opts", ())]
        for word in names + [w for text in sources for w in unmarked(text).split()]:
            assert word in words, f"arena {' '.join(path)} at {width} columns: {word!r} split"
            checked += 1
        for example in examples(command.help or ""):
            assert flat(example) in lines, \
                f"arena {' '.join(path)} at {width} columns: example {example!r} wrapped"
            checked += 1
    assert checked > 1000
    assert len(examples(typer.main.get_command(app).commands["compare"].help or "")) >= 3
