"""The option groups' help texts that name the registry's games and modes (an installed
plugin's too): functions, made when a command's help is built, since the registries load
their plugins at their first ask (sandbox/plugins.py)."""
from __future__ import annotations

from orchestrator.games import GAMES, games_help
from orchestrator.games.entry import Competition
from orchestrator.games.help import check_turns as turns_checked
from orchestrator.games.help import cpu_limit, listed, names, per_game, soft_limit
from orchestrator.games.help import tournament_format as said_format
from sandbox import modes


def game() -> str:
    return f"Which game: {games_help()}."


def rules() -> str:
    return ("Rules preset, the first being the default: "
            + "; ".join(f"{game.name}: {', '.join(game.presets)}" for game in GAMES.values())
            + "".join(f". {game.name}'s {game.options.presets_help}"
                      for game in GAMES.values() if game.options.presets_help) + ".")


def robots() -> str:
    return "Robots per AI" + "".join(
        f" ({game.name}: {game.options.robots_help})" for game in GAMES.values()
        if game.options.robots_help) + ". Default: the preset's."


def random_spawn() -> str:
    return (f"{names(lambda game: game.options.random_spawn)}: draw each player's spawn "
            f"squares without the mirror.")


def cpu() -> str:
    return (f"CPU seconds per bot call (a move(), an act(), a program's turn) \\[default: "
            f"{per_game(cpu_limit)}]. A game with a soft limit plays a call past it as a "
            f"timeout, the game's default (a robot guards, random cards fill in) \\[default: "
            f"{per_game(soft_limit)}].")


def check_turns() -> str:
    return f"Turns to play \\[default: {per_game(turns_checked)}]."


def sandbox() -> str:
    return modes.help_text()


def check_sandbox() -> str:
    return (f"{modes.names_text([m for m in modes.offered() if m.checks])} "
            "(see `arena run --help`).")


def ladder_sandbox() -> str:
    ladder = [m for m in modes.offered() if m.ladder_refusal is None]
    return (f"How the ladder's matches and upload checks are sandboxed: "
            f"{modes.names_text(ladder)} (see `arena run --help`).")


def own_formats() -> str:
    """Each game's own tournament where it has one, then everyone else's: `combinations
    of 6, 3 games, for race; else round-robin, 2 games`."""
    usual = Competition().tournament
    own: dict[tuple, list[str]] = {}
    for game in GAMES.values():
        if game.competition.tournament != usual:
            own.setdefault(game.competition.tournament, []).append(game.name)
    return "".join(f"{said_format(fmt)}, for {listed(games)}; else "
                   for fmt, games in own.items()) + said_format(usual)


def tournament_format() -> str:
    return ("round-robin: every pair, sides swapped. ffa: all bots in every match. "
            "combinations: every group of --size bots (the seed's 'every combination of 6, "
            f"3 games each'). \\[default: the game's own: {own_formats()}]")
