"""The registry: the games the orchestrator can run, one entry each, all driven the same way.

Each built-in game keeps its entry (`GAME`) in its own folder here. A game kept anywhere
else (a game master's own, a test's toy game) is added by an installed distribution's entry
point in the group `robot_arena.games` (docs/architecture.md), or, ad hoc, by naming its
folder, or a file that defines `GAME`, in the `ARENA_GAMES` environment variable (several
are separated as in PATH); child processes and servers started from here see the same.
Plugins load when the registry (`GAMES`) is first asked, not when this module is imported.

Beside the entries: `entry.py` (what an entry holds), `help.py`, `contract.py`, `kinds.py`
(a bot file read for the wrong-game hint) and `sample_folder.py`. May import only the
base (text, given_path, assets); a game's `terminal.py` and `editor.py`, which its entry
loads by name, are a view and a web part (tests/test_layers.py, PLUGIN_PARTS).
"""
from __future__ import annotations

import re
from pathlib import Path

from engine import InputError
from orchestrator import given_path
from orchestrator.games import kinds
from orchestrator.games.arena import GAME as _ARENA
from orchestrator.games.cave import GAME as _CAVE
from orchestrator.games.entry import Game
from orchestrator.games.race import GAME as _RACE
from orchestrator.games.robotgame import GAME as _ROBOTGAME
from sandbox import plugins
from sandbox.shown import shown

PLUGINS_VARIABLE = "ARENA_GAMES"
PLUGIN_MODULE = "arena_game_"       # a game kept elsewhere is this module + its name
BUILT_IN = (_ARENA, _ROBOTGAME, _CAVE, _RACE)
DEFAULT_GAME = _ARENA.name          # what the commands play without --game


def _load_plugin(ref: str) -> Game:
    """The `GAME` of a game's folder (its `__init__.py`) or of a Python file."""
    return plugins.entry(ref, PLUGINS_VARIABLE, PLUGIN_MODULE, "GAME", Game, "GAME entry",
                         folders=True)


def _load_plugins(games: dict[str, Game]) -> None:
    """The installed games (entry points), then those named in $ARENA_GAMES (ad hoc: one
    of these replaces a game of the same name)."""
    for name, game in plugins.installed(plugins.GAMES_GROUP, Game, "a Game entry"):
        if game.name in games:
            raise InputError(f"{name}: the game {game.name!r} is already registered")
        _well_formed(game, name)
        games[game.name] = game
    for ref in plugins.named(PLUGINS_VARIABLE):
        game = _load_plugin(ref)
        _well_formed(game, f"{ref} (in ${PLUGINS_VARIABLE})")
        games[game.name] = game


def _well_formed(game: Game, plugin: str) -> None:
    """A plugin's game has a name `--game` takes and words every help can show (`plugin`
    names it in the error): its name lower-case letters, digits, - and _; its title, its
    help texts and its presets' names plain text (`plugins.wording_problems`)."""
    if not isinstance(game.name, str) or not plugins.NAME.fullmatch(game.name):
        raise InputError(f"{plugin}: a game's name is lower-case letters, digits, - and _, "
                         f"not {shown(repr(game.name))[:60]}")
    options = game.options
    words: dict[str, object] = {
        "title": game.title, "called": game.shown.called, "legend": game.shown.legend,
        "generate_help": options.generate_help, "robots_help": options.robots_help,
        "presets_help": options.presets_help, "edit_help": options.edit_help,
        "scenario_help": options.scenario_help, "check call": game.check.call,
        "default_map": game.default_map}
    words.update({f"preset {i}": preset for i, preset in enumerate(game.presets)})
    words.update({f"column {i}": column[0] for i, column in enumerate(game.shown.columns)})
    problems = plugins.wording_problems(words)
    if problems:
        raise InputError(f"{plugin}: {problems[0]}")


GAMES: plugins.Registry = plugins.Registry({game.name: game for game in BUILT_IN},
                                           _load_plugins)


def games_help() -> str:
    """Every game of the registry, for --game's help: `arena (Robot Arena), ...`."""
    named = [f"{game.name} ({game.title})" for game in GAMES.values()]
    return ", ".join(named[:-1]) + " or " + named[-1]


def likely_game(filename: str, source: bytes) -> str | None:
    """The name of the game the file looks written for, or None when nothing tells."""
    bot = kinds.read(filename, source)
    best, name = 0, None
    for game in GAMES.values():
        sure = game.looks_like(bot) if game.looks_like else 0
        if sure > best:
            best, name = sure, game.name
    return name


def wrong_game_hint(filename: str, source: bytes, game: str) -> str:
    """` (it looks like a robotgame bot: try --game robotgame)`, or "" when it fits. In
    the command line's terms: the ladder says it in its own (hint_for_ladder)."""
    found = likely_game(filename, source)
    if found is None or found == game:
        return ""
    return f" (it looks like {_a(found)} {found} bot: try --game {found})"


def wrong_game_map_hint(path: Path, game: str) -> str:
    """` (it is a robotgame map: try --game robotgame)` when `path`, which `game`'s
    parser refused, is a map another game's parser accepts; else "". Only a regular file
    is tried (a device or FIFO is never read twice), and each parser reads it within its
    own bounds."""
    if not given_path.is_file(str(path)):
        return ""
    for other in GAMES.values():
        if other.name == game:
            continue
        try:
            other.load_map(path)
        except Exception:      # noqa: BLE001  any refusal: not that game's map
            continue
        return f" (it is {_a(other.name)} {other.name} map: try --game {other.name})"
    return ""


_HINT = re.compile(r" \(it looks like an? ([\w.-]+) bot: try --game \1\)")


def hint_for_ladder(reason: str) -> str:
    """A reason with wrong_game_hint's advice in the ladder's terms: an upload names its
    game in the form (`game`), not with a command-line flag."""
    return _HINT.sub(lambda m: f" (it looks like {_a(m[1])} {m[1]} bot: upload it for the "
                               f"game {m[1]})", reason)


def _a(word: str) -> str:
    """The article before a game's name: `an arena`, `a robotgame`."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def get_game(name: str) -> Game:
    if name not in GAMES:
        raise InputError(f"unknown game {name!r} (available: {', '.join(GAMES)})")
    return GAMES[name]


__all__ = ["DEFAULT_GAME", "GAMES", "Game", "games_help", "get_game", "PLUGINS_VARIABLE"]
