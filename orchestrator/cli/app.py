"""The `arena` command line. `arena --help` and `arena COMMAND --help` teach the rest.

Each command is a typer adapter in its own module of this folder (`orchestrator/cli/`): it parses, calls the
Python API (orchestrator/api/) or the service layer under it, and prints."""
from __future__ import annotations

import sys

import typer

from engine import InputError
from orchestrator.cli import batch as batch_cmd
from orchestrator.cli import bots as bots_cmd
from orchestrator.cli import check as check_cmd
from orchestrator.cli import compare as compare_cmd
from orchestrator.cli import maps as maps_cmd
from orchestrator.cli import publish as publish_cmd
from orchestrator.cli import replay as replay_cmd
from orchestrator.cli import results as results_cmd
from orchestrator.cli import run as run_cmd
from orchestrator.cli import scenario as scenario_cmd
from orchestrator.cli import serve as serve_cmd
from orchestrator.games import games_help
from orchestrator.service.values import Interrupted
from orchestrator.text import shown
from sandbox import modes
from sandbox.isolation import SandboxUnavailable

app = typer.Typer(
    name="arena", add_completion=False, no_args_is_help=True,
    rich_markup_mode="rich",
    help="Run sandboxed matches of robot programming games.\n\n"
         "Start with [bold]arena run[/bold]: it plays the bundled sample bots on the default "
         "map. Then pass your own bot files: [bold]arena run my_bot.py bots/arena/hunter.py"
         "[/bold].\n\n"
         # From the registries, installed plugins' games and modes too (their first ask).
         f"Games (--game): {games_help()}. Sandbox modes (--sandbox): "
         f"{modes.names_text(modes.offered())}.",
)


def version_line() -> str:
    """`arena --version`: the package's version and the engine's (a result records the
    engine's: the same engine version plays the same match for the same seed)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    from engine import ENGINE_VERSION  # noqa: PLC0415

    try:
        package = version("robot-arena")
    except PackageNotFoundError:            # a checkout run without installing it
        package = "(not installed)"
    return f"robot-arena {package}, engine {ENGINE_VERSION}"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit(0)


@app.callback()
def _main(version: bool = typer.Option(False, "--version", is_eager=True,
                                       callback=_show_version,
                                       help="Print the package's and the engine's versions "
                                            "and exit.")) -> None:
    """Run sandboxed matches of robot programming games."""


app.add_typer(maps_cmd.app, name="maps")
app.command()(batch_cmd.batch)
app.command()(batch_cmd.tournament)
app.command()(results_cmd.results)
app.command()(publish_cmd.publish)
app.command()(compare_cmd.compare)
app.command("replay")(replay_cmd.replay_command)
app.command()(serve_cmd.serve)
app.command()(bots_cmd.bots)
app.command()(run_cmd.run)
app.command()(check_cmd.check)
app.command()(scenario_cmd.scenario)


def _usage_problem(exc: Exception) -> str | None:
    """The message of a command-line usage error (typer's vendored click raises these)."""
    if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
        return exc.format_message()
    return None


def main(argv: list[str] | None = None) -> None:
    """Entry point: bad input becomes one `error:` line and exit status 2."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="arena", standalone_mode=False)
    except (InputError, SandboxUnavailable) as exc:
        typer.echo(f"error: {shown(exc, lines=True)}", err=True)
        sys.exit(2)
    except Interrupted as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(130)
    except (typer.Abort, KeyboardInterrupt):
        code = 130
    except typer.Exit as exc:           # typer turns Ctrl-C into Exit(130)
        code = exc.exit_code
    except Exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            # Made by ctx.get_help(), which rich's help prints as it makes it (and returns
            # ""): echo only what was not printed yet.
            if exc.format_message().strip():  # type: ignore[attr-defined]  # click's, by name
                typer.echo(exc.format_message())  # type: ignore[attr-defined]
            sys.exit(0)
        problem = _usage_problem(exc)
        if problem is None:
            raise
        typer.echo(f"error: {problem}", err=True)
        sys.exit(2)
    if code == 130:
        typer.echo("error: interrupted; every bot process was stopped", err=True)
    sys.exit(code if isinstance(code, int) else 0)
