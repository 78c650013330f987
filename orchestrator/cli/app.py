"""The `arena` command line. `arena --help` and `arena COMMAND --help` teach the rest.

Each command is a typer adapter in its own module of this folder (`orchestrator/cli/`): it parses, calls the
Python API (orchestrator/api/) or the service layer under it, and prints."""
from __future__ import annotations

import importlib
import sys
from typing import Any, Iterator, MutableMapping, NoReturn

import click
import typer
from typer.core import TyperGroup

from engine import InputError
from orchestrator.cli.version import version_line
from orchestrator.faults import InternalError

# Every command: its name -> (its module in this folder, the function or the typer app
# there), in the order `arena --help` lists them. A command's module imports when the
# command line names it (or `arena --help` lists them all), not before: `arena --version`
# and `arena check ...` do not import the ladder, the batch runner or the other engines'
# views (tests/test_startup.py).
COMMANDS: dict[str, tuple[str, str]] = {
    "batch": ("batch", "batch"),
    "tournament": ("batch", "tournament"),
    "results": ("results", "results"),
    "publish": ("publish", "publish"),
    "compare": ("compare", "compare"),
    "replay": ("replay", "replay_command"),
    "serve": ("serve", "serve"),
    "bots": ("bots", "bots"),
    "run": ("run", "run"),
    "check": ("check", "check"),
    "scenario": ("scenario", "scenario"),
    "maps": ("maps", "app"),
}
ABOUT = ("Run sandboxed matches of robot programming games.\n\n"
         "Start with [bold]arena run[/bold]: it plays the bundled sample bots on the default "
         "map. Then pass your own bot files: [bold]arena run my_bot.py bots/arena/hunter.py"
         "[/bold].")


def _about() -> str:
    """The app's help with the registries' games and modes (installed plugins' too: their
    first ask), made when the help is shown."""
    from orchestrator.games import games_help  # noqa: PLC0415
    from sandbox import modes  # noqa: PLC0415

    return (f"{ABOUT}\n\nGames (--game): {games_help()}. Sandbox modes (--sandbox): "
            f"{modes.names_text(modes.offered())}.")


def _nothing() -> None:
    """The callback that makes a lone command's host app a group."""


def _made(name: str) -> click.Command:
    """The click command `arena NAME` runs, made from its module as typer makes it in a
    group of the app's settings."""
    module, attribute = COMMANDS[name]
    made = getattr(importlib.import_module(f"orchestrator.cli.{module}"), attribute)
    host = typer.Typer(add_completion=False, rich_markup_mode=app.rich_markup_mode)
    host.callback()(_nothing)
    if isinstance(made, typer.Typer):
        host.add_typer(made, name=name)
    else:
        host.command(name)(made)
    group = typer.main.get_command(host)
    assert isinstance(group, click.Group)
    return group.commands[name]


class _Commands(MutableMapping[str, click.Command]):
    """The app's commands by name: every name is known, each command is made on first use."""

    def __init__(self) -> None:
        self._made: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._made:
            if name not in COMMANDS:
                raise KeyError(name)
            self._made[name] = _made(name)
        return self._made[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._made[name] = command

    def __delitem__(self, name: str) -> None:
        raise TypeError("the app's commands are fixed")

    def __iter__(self) -> Iterator[str]:
        return iter([*COMMANDS, *(name for name in self._made if name not in COMMANDS)])

    def __len__(self) -> int:
        return len(set(COMMANDS) | set(self._made))

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS or name in self._made


# Names people type for what another command does: the command line that does it.
HINTS = {
    "matchups": "arena results DB --matrix (who beats whom)",
    "matrix": "arena results DB --matrix (who beats whom)",
    "standings": "arena results DB --run ID (a run's standings)",
    "leaderboard": "arena results DB --run ID (a run's standings)",
    "ranking": "arena results DB --run ID (a run's standings)",
    "rankings": "arena results DB --run ID (a run's standings)",
    "elo": "arena results DB --run ID (a run's standings)",
    "games": "arena results DB --games (every game; --bot NAME: one bot's)",
    "lost": "arena results DB --games --bot NAME --lost",
    "export": "arena results DB --export csv",
    "csv": "arena results DB --export csv",
    "site": "arena publish DB --out FOLDER",
    "play": "arena run BOT... (one match)", "match": "arena run BOT... (one match)",
    "test": "arena check BOT (the CI gate)", "validate": "arena check BOT (the CI gate)",
    "sprt": "arena compare NEW OLD", "ladder": "arena serve",
    "watch": "arena replay REPLAY", "view": "arena replay REPLAY",
}


def unknown_command(name: str) -> str:
    """`No such command 'matchups'.` and what was likely meant, asked once: the command
    line that does what the name says, else the commands spelled like it."""
    import difflib  # noqa: PLC0415

    said = f"No such command {name!r}."
    hint = HINTS.get(name.lower())
    if hint is not None:
        return f"{said} For that, try: {hint}"
    close = difflib.get_close_matches(name, list(COMMANDS), n=3, cutoff=0.6)
    if close:
        return f"{said} Did you mean {' or '.join(repr(c) for c in close)}?"
    return f"{said} The commands: {', '.join(COMMANDS)} (arena --help says what each does)"


class _Arena(TyperGroup):
    """The app's group: its commands made lazily, its help from the registries when shown."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        commands = _Commands()
        commands.update(self.commands)
        self.commands = commands

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.help = _about()
        super().format_help(ctx, formatter)

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command is one error line that asks once what was meant (typer and
        click each asked, in other words)."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in self.commands:
            raise click.UsageError(unknown_command(name), ctx)
        return super().resolve_command(ctx, args)


app = typer.Typer(
    name="arena", add_completion=False, no_args_is_help=True, cls=_Arena,
    rich_markup_mode="rich", help=ABOUT,
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit(0)


def _debug(value: bool) -> None:
    if value:
        from orchestrator.cli.failure import show_logs  # noqa: PLC0415
        show_logs()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", is_eager=True,
                                       callback=_show_version,
                                       help="Print the package's and the engine's versions "
                                            "and exit."),
          debug: bool = typer.Option(False, "--debug", "-v", is_eager=True, callback=_debug,
                                     help="Show the log on stderr (matches, workers, "
                                          "sandbox children) and an internal error's "
                                          "traceback.")) -> None:
    """Run sandboxed matches of robot programming games."""


def _usage_problem(exc: Exception) -> str | None:
    """The message of a command-line usage error (typer's vendored click raises these)."""
    if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
        return exc.format_message()
    return None


def _raised(exc: Exception, module: str, name: str) -> bool:
    """Whether `exc` is the class `name` of `module`, if that module was imported."""
    imported = sys.modules.get(module)
    return imported is not None and isinstance(exc, getattr(imported, name))


def _fail(exc: Exception) -> NoReturn:
    """Bad input: one `error:` line, exit status 2."""
    from sandbox.shown import shown  # noqa: PLC0415

    typer.echo(f"error: {shown(exc, lines=True)}", err=True)
    sys.exit(2)


def _internal(exc: Exception) -> NoReturn:
    """A failure of ours: one `internal error:` line, exit status 70 (cli/failure.py)."""
    from orchestrator.cli.failure import internal  # noqa: PLC0415

    internal(exc)


def main(argv: list[str] | None = None) -> None:
    """Entry point: bad input becomes one `error:` line and exit status 2; a failure of
    ours one `internal error:` line, exit status 70, its traceback written to a file."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="arena", standalone_mode=False)
    except InputError as exc:
        _fail(exc)
    except InternalError as exc:
        _internal(exc)
    except (typer.Abort, KeyboardInterrupt):
        code = 130
    except typer.Exit as exc:           # typer turns Ctrl-C into Exit(130)
        code = exc.exit_code
    except BrokenPipeError:
        raise                           # the reader went away (`| head`): not a fault
    except Exception as exc:
        # The sandbox's and the service's errors, when their modules were imported (an
        # error of a module not imported was not raised): not imported here for it.
        if _raised(exc, "sandbox.isolation", "SandboxUnavailable"):
            _fail(exc)
        if _raised(exc, "orchestrator.service.values", "Interrupted"):
            typer.echo(f"error: {exc}", err=True)
            sys.exit(130)
        if type(exc).__name__ == "NoArgsIsHelpError":
            # Made by ctx.get_help(), which rich's help prints as it makes it (and returns
            # ""): echo only what was not printed yet.
            if exc.format_message().strip():  # type: ignore[attr-defined]  # click's, by name
                typer.echo(exc.format_message())  # type: ignore[attr-defined]
            sys.exit(0)
        problem = _usage_problem(exc)
        if problem is None:
            _internal(exc)
        typer.echo(f"error: {problem}", err=True)
        sys.exit(2)
    if code == 130:
        typer.echo("error: interrupted; every bot process was stopped", err=True)
    sys.exit(code if isinstance(code, int) else 0)
