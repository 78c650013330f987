"""What a match jail runs (`--sandbox match`): the orchestrator's side of the jail.

The jail zygote (`sandbox/_jailzygote.py`) knows no game: `orchestrator/runner/match.py` names
this module to it (`JAIL_JOB`), and the zygote imports it once, before any jail exists,
and calls what follows. Everything here runs inside the jail's process, within the bots'
reach: the host takes nothing it returns on its word (`orchestrator/runner/jail_result.py`).
"""
from __future__ import annotations

import dataclasses
import os
from typing import Any, Callable

from engine import lazy
from orchestrator.games import GAMES, PLUGIN_MODULE, get_game
from orchestrator.runner.match import run_match
from sandbox import plugins
from sandbox.frames import side_parts
from sandbox.modes import IN_JAIL, JAIL_GAMES

# The games kept elsewhere, ARENA_GAMES's (modules `arena_game_*`) and the installed ones
# (their entry points' top-level packages, `pkg.`: set by preload, which loads them): the
# jail hides them from its bots, as it hides the host's own packages.
HIDDEN_PREFIXES: tuple[str, ...] = (PLUGIN_MODULE,)


def preload() -> list[tuple[str, str | None]]:
    """In the jail zygote, once: what the engines import on first use (numpy: the games'
    its jails will play, when the host named them, else every game's), and every game's
    bot side (a file kept elsewhere's too), as `_runtime.bot_side` loads them."""
    global HIDDEN_PREFIXES
    named = os.environ.pop(JAIL_GAMES, "")      # gone before any jail: no bot reads it
    lazy.load_all(_engines(named.split(",")) if named else None)
    for name in named.split(",") if named else GAMES:
        _parse_bundled_maps(GAMES.get(name))
    sides = [side_parts(get_game(name).bot_side) for name in GAMES]
    HIDDEN_PREFIXES = (PLUGIN_MODULE, *(f"{top}." for top in plugins.LOADED_PACKAGES))
    return sides


def _parse_bundled_maps(game: Any) -> None:
    """The game's bundled maps parsed here, into its parser's cache where it keeps one
    (Robot Game's `parse_map`, keyed by the map's text and name as the host sends them):
    each match's process is forked with the cache as it is here, and the one a match
    filled dies with its process, so every match would parse its map again (ast's parser:
    a few ms of a Robot Game match, ~2% of its CPU)."""
    if game is None or not hasattr(game.parse_map, "cache_info"):
        return
    parse: Callable[[str, str], Any] = game.parse_map
    for path in game.bundled_maps():
        try:
            parse(path.read_text(), path.name)
        except Exception:       # a broken map is refused when a match names it
            pass


def _engines(games: list[str]) -> tuple[str, ...] | None:
    """The packages of these games' engines (where their `new_match` is), or None (every
    game's) when one is not a game of the registry."""
    packages = []
    for name in games:
        module = getattr(getattr(GAMES.get(name), "rulebook", None), "new_match", None)
        module = getattr(module, "__module__", None)
        if not isinstance(module, str):
            return None
        packages.append(module.rpartition(".")[0] or module)
    return tuple(packages)


def play(job: dict[str, Any], on_turn: Callable[[int, int], None]) -> dict[str, Any]:
    """One match of the jail: `job` is {"spec": a MatchSpec, "replay": whether to record
    one}. Played with the jail's players (`IN_JAIL`); returns its result and replay."""
    spec = dataclasses.replace(job["spec"], sandbox=IN_JAIL)
    replays: list[dict[str, Any]] | None = [] if job["replay"] else None
    result = run_match(spec, on_turn=on_turn, replays=replays)
    return {"result": result, "replay": replays[0] if replays else None}
