"""Command-line options every match-playing command shares, and what they mean."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from engine import InputError
from orchestrator.assets import CHECKOUT
from orchestrator.games import GAMES, games_help
from orchestrator.games.help import cpu_limit, names, per_game, soft_limit
from sandbox import modes


def missing_server_extra(command: str, exc: ImportError) -> InputError:
    """The error for a command whose web stack is not installed (`arena serve`, `maps
    edit`), with the install line that works here: the package is not on PyPI, so in a
    checkout it is the checkout's own extra, elsewhere the wheel's."""
    if (CHECKOUT / "pyproject.toml").is_file():
        pip = Path(sys.prefix) / "bin" / "pip"
        how = f"{pip} install -e '{CHECKOUT}[server]'"
    else:
        from importlib.metadata import version  # noqa: PLC0415  (an error path: 15 ms)
        how = (f"pip install 'robot_arena-{version('robot-arena')}-py3-none-any.whl[server]' "
               f"(the wheel this came from, with its server extra)")
    return InputError(f"{command} needs the server extra ({exc.name} is missing): {how}")


# The help that names the registry's games and modes (the installed plugins' too) is made
# when a command's module first asks for it (`__getattr__`), not when the API imports this
# module: the registries load their plugins at their first ask (sandbox/plugins.py).
def _rules_help() -> str:
    return ("Rules preset, the first being the default: "
            + "; ".join(f"{game.name}: {', '.join(game.presets)}" for game in GAMES.values())
            + "".join(f". {game.name}'s {game.options.presets_help}"
                      for game in GAMES.values() if game.options.presets_help) + ".")


def _cpu_help() -> str:
    return (f"CPU seconds per bot call (a move(), an act(), a program's turn) \\[default: "
            f"{per_game(cpu_limit)}]. A game with a soft limit plays a call past it as a "
            f"timeout, the game's default (a robot guards, random cards fill in) \\[default: "
            f"{per_game(soft_limit)}].")


def _ladder_sandbox_help() -> str:
    ladder = [m for m in modes.offered() if m.ladder_refusal is None]
    return (f"How the ladder's matches and upload checks are sandboxed: "
            f"{modes.names_text(ladder)} (see `arena run --help`).")


def _robots_help() -> str:
    return "Robots per AI" + "".join(
        f" ({game.name}: {game.options.robots_help})" for game in GAMES.values()
        if game.options.robots_help) + ". Default: the preset's."


_FROM_THE_REGISTRIES: dict[str, Callable[[], Any]] = {
    "GAME_HELP": lambda: f"Which game: {games_help()}.",
    "RULES_HELP": _rules_help,
    "CPU_HELP": _cpu_help,
    "SANDBOX_HELP": modes.help_text,
    "CHECK_SANDBOX_HELP": lambda: (f"{modes.names_text([m for m in modes.offered() if m.checks])} "
                                   "(see `arena run --help`)."),
    "LADDER_SANDBOX_HELP": _ladder_sandbox_help,
    # The options that every match-playing command takes, declared once.
    "GameOption": lambda: Annotated[str, typer.Option(help=__getattr__("GAME_HELP"))],
    "RulesOption": lambda: Annotated[Optional[str], typer.Option(help=_rules_help(),
                                                                 show_default=False)],
    "RobotsOption": lambda: Annotated[Optional[int], typer.Option(help=_robots_help())],
    "RandomSpawnOption": lambda: Annotated[bool, typer.Option("--random-spawn", help=(
        f"{names(lambda game: game.options.random_spawn)}: draw each player's spawn squares "
        f"without the mirror."))],
    "SandboxOption": lambda: Annotated[str, typer.Option(help=__getattr__("SANDBOX_HELP"))],
    "CpuOption": lambda: Annotated[Optional[float], typer.Option(help=_cpu_help(),
                                                                 show_default=False)],
}


def __getattr__(name: str) -> Any:
    """A help text or an option made from the registries, made on first use and kept."""
    make = _FROM_THE_REGISTRIES.get(name)
    if make is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = make()
    return value


# The options that every match-playing command takes (and those above), declared once.
MapOption = Annotated[Optional[str], typer.Option("--map", help="A map file or a bundled map "
                                                  "name (see `arena maps`).")]
MaxTurnsOption = Annotated[Optional[int], typer.Option(help="Turn limit (default: the "
                                                            "preset's).")]
MemoryOption = Annotated[Optional[int], typer.Option(help="Memory cap per AI, in MiB "
                                                     "\\[default: 512].")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")]
