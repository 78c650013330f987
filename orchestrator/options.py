"""Command-line options every match-playing command shares, and what they mean."""
from __future__ import annotations

import dataclasses
import secrets
import sys
from pathlib import Path
from typing import Annotated, Optional

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


GAME_HELP = f"Which game: {games_help()}."
RULES_HELP = ("Rules preset, the first being the default: "
              + "; ".join(f"{game.name}: {', '.join(game.presets)}" for game in GAMES.values())
              + "".join(f". {game.name}'s {game.options.presets_help}" for game in GAMES.values()
                        if game.options.presets_help) + ".")
CPU_HELP = (f"CPU seconds per bot call (a move(), an act(), a program's turn) \\[default: "
            f"{per_game(cpu_limit)}]. A game with a soft limit plays a call past it as a "
            f"timeout, the game's default (a robot guards, random cards fill in) \\[default: "
            f"{per_game(soft_limit)}].")
SANDBOX_HELP = modes.help_text()
CHECK_SANDBOX_HELP = (f"{modes.names_text([m for m in modes.offered() if m.checks])} (see "
                      f"`arena run --help`).")
_LADDER_MODES = [m for m in modes.offered() if m.ladder_refusal is None]
LADDER_SANDBOX_HELP = (f"How the ladder's matches and upload checks are sandboxed: "
                       f"{modes.names_text(_LADDER_MODES)} (see `arena run --help`).")


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


# The options that every match-playing command takes, declared once.
GameOption = Annotated[str, typer.Option(help=GAME_HELP)]
MapOption = Annotated[Optional[str], typer.Option("--map", help="A map file or a bundled map "
                                                  "name (see `arena maps`).")]
RulesOption = Annotated[Optional[str], typer.Option(help=RULES_HELP, show_default=False)]
RobotsOption = Annotated[Optional[int], typer.Option(
    help="Robots per AI" + "".join(
        f" ({game.name}: {game.options.robots_help})" for game in GAMES.values()
        if game.options.robots_help) + ". Default: the preset's.")]
MaxTurnsOption = Annotated[Optional[int], typer.Option(help="Turn limit (default: the "
                                                            "preset's).")]
RandomSpawnOption = Annotated[bool, typer.Option("--random-spawn", help=(
    f"{names(lambda game: game.options.random_spawn)}: draw each player's spawn squares "
    f"without the mirror."))]
SandboxOption = Annotated[str, typer.Option(help=SANDBOX_HELP)]
CpuOption = Annotated[Optional[float], typer.Option(help=CPU_HELP, show_default=False)]
MemoryOption = Annotated[Optional[int], typer.Option(help="Memory cap per AI, in MiB "
                                                     "\\[default: 512].")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")]
