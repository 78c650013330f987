"""Command-line options every match-playing command shares, and what they mean."""
from __future__ import annotations

import dataclasses
import secrets
import sys
from pathlib import Path
from typing import Annotated, Any, Callable, Optional

import typer

from engine import InputError
from orchestrator import arguments
from orchestrator.assets import CHECKOUT
from orchestrator.games import GAMES, Game, games_help
from orchestrator.games.help import cpu_limit, names, per_game, soft_limit
from sandbox import modes
from sandbox.limits import Limits


class Interrupted(Exception):
    """Ctrl-C during a long run: the message says what was kept. Exit status 130."""


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


def seed_or_draw(seed: Optional[int], span: int = 1) -> int:
    """The seed given, or one drawn from the OS, unguessable (63 bits): a match's hidden
    information (decks, rolls) is only as hidden as its seed. With `span`, the first of
    `span` seeds in a row, all of them within 0..SEED_MAX."""
    if seed is not None:
        return seed
    return secrets.randbelow(arguments.SEED_MAX - span + 2)


def rule_overrides(found: Game, robots: Optional[int], max_turns: Optional[int],
               random_spawn: bool = False) -> dict:
    arguments.check(robots=robots, max_turns=max_turns)
    rules: dict = {}
    if robots is not None:
        rules[found.options.robots_rule] = robots
    if max_turns is not None:
        rules["max_turns"] = max_turns
    if random_spawn:
        if not found.options.random_spawn:
            having = " or ".join(g.name for g in GAMES.values() if g.options.random_spawn)
            raise InputError(f"--random-spawn is a {having} option")
        rules["symmetric_spawn"] = False
    return rules


def game_limits(found: Game, cpu_limit: Optional[float], memory_mb: Optional[int]) -> Limits:
    """The game's default limits, with the command line's changes."""
    arguments.check(cpu_limit=cpu_limit, memory_mb=memory_mb)
    limits = found.limits
    if cpu_limit is not None:
        if limits.act_soft_s is not None:        # a timeout (the robot guards), not fatal
            limits = dataclasses.replace(limits, act_soft_s=cpu_limit, first_act_soft_s=None,
                                         cpu_per_call_s=max(limits.cpu_per_call_s,
                                                            4 * cpu_limit))
        else:
            limits = dataclasses.replace(limits, cpu_per_call_s=cpu_limit)
    if memory_mb is not None:
        limits = dataclasses.replace(limits, memory_mb=memory_mb)
    return limits


def check_choice(value: str, allowed, what: str) -> str:
    if value not in allowed:
        raise InputError(f"unknown {what} {value!r} (choose from: {', '.join(allowed)})")
    return value


# The options that every match-playing command takes (and those above), declared once.
MapOption = Annotated[Optional[str], typer.Option("--map", help="A map file or a bundled map "
                                                  "name (see `arena maps`).")]
MaxTurnsOption = Annotated[Optional[int], typer.Option(help="Turn limit (default: the "
                                                            "preset's).")]
MemoryOption = Annotated[Optional[int], typer.Option(help="Memory cap per AI, in MiB "
                                                     "\\[default: 512].")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")]
