"""A bot on the host, outside the sandbox: in a notebook or a unit test (docs/python-api.md,
"A bot in a unit test").

In a match, the sandbox puts each game's bot API on the bot's import path (`rg` and
`rgkit`, `roborally.api`, `marks`). In a notebook or under pytest that path is not there,
so `import rg` at the top of a bot's file fails. `bot_api(game)` imports the game's API
modules once, into `sys.modules` under the names bots import (the path is put back as it
was, and no import hook is installed), so that any later `import rg` finds them;
Robot Game's `rg` is configured for a map, as at a match's start. `load_bot` imports a
bot's file the same way, `robotgame_game` builds the `game` argument of `Robot.act`
from a position file (or from robots given), and `act` calls one robot on it:

    from orchestrator.api import testing
    bot = testing.load_bot("my_bot.py", game="robotgame")
    game = testing.robotgame_game("pos.json")          # `arena replay ... --save-position`
    testing.act(bot, game, (9, 4))                     # ['move', (9, 5)]

Nothing here is sandboxed: it runs the bot's code in this process, as `--sandbox off`
does (pdb works).
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Iterator

from engine import InputError
from orchestrator.games import get_game
from orchestrator.games.robotgame import GAME as ROBOTGAME
from orchestrator.replay import position as positions
from orchestrator.runner.bots import read_bot
from sandbox.paths import BOTLIB

_HELPERS = ("_marks",)            # what the API modules import by their bare names


@contextlib.contextmanager
def _botlib_on_path() -> Iterator[None]:
    """sys.path with the bots' folder first, for the block only."""
    added = str(BOTLIB) not in sys.path
    if added:
        sys.path.insert(0, str(BOTLIB))
    try:
        yield
    finally:
        if added:
            with contextlib.suppress(ValueError):
                sys.path.remove(str(BOTLIB))


def _ours(module: ModuleType | None) -> bool:
    where = getattr(module, "__file__", None)
    return isinstance(where, str) and Path(where).resolve().is_relative_to(BOTLIB)


def bot_api(game: str, map: str | None = None) -> dict[str, ModuleType]:
    """Import `game`'s bot API (its modules by the names bots import: `rg`, `roborally.api`,
    `marks`) into sys.modules, replacing another module of those names (rgkit's own `rg`);
    Robot Game's `rg` configured for `map` (default: the game's) and its default rules.
    Returns the modules by name."""
    found = get_game(game)
    names = found.bot_modules
    if names is None:
        raise InputError(f"{found.name}: a game kept elsewhere has no bot API to import here")
    modules = {}
    with _botlib_on_path():
        for name in (*_HELPERS, *names):
            if not _ours(sys.modules.get(name)):
                sys.modules.pop(name, None)
            modules[name] = importlib.import_module(name)
    if found.configure_api is not None:
        match = found.new_match(found.load_map(found.find_map(map)), ["a", "b"], 0,
                                found.rules(found.presets[0]))
        found.configure_api(modules, match)
    return modules


def load_bot(bot: str | Path, game: str, map: str | None = None) -> ModuleType:
    """A bot's file (or a bundled sample's name) imported as a module of this process,
    with its game's API importable (`bot_api`). Each call imports the file afresh."""
    bot_api(game, map)
    found = read_bot(bot, get_game(game).name)
    name = f"_bot_{found.sha256[:12]}"
    module = ModuleType(name)
    module.__file__ = str(Path(found.path).resolve())
    with _botlib_on_path():
        exec(compile(found.source, module.__file__, "exec"), module.__dict__)  # noqa: S102  # the caller's own bot, run as they asked
    return module


def robotgame_game(start: str | Path | dict[str, Any] | None = None, *,
                   robots: Iterable[tuple[tuple[int, int], int, int]] = (),
                   turn: int = 1, player: int = 0) -> Any:
    """The `game` a Robot Game bot's `act` gets: `game.robots` (each robot's location,
    hp, player_id, and robot_id for `player`'s own) and `game.turn`, as in a match. From a
    position (a file `arena replay ... --save-position` wrote, or its dict), else from
    `robots`: (location, hp, player_id) each, at `turn`. Sets up `rg` for its map."""
    rg = bot_api(ROBOTGAME.name)["rg"]
    if start is not None:
        data = positions.read(Path(start)) if isinstance(start, (str, Path)) \
            else positions.check(start)
        if data["game"] != ROBOTGAME.name:
            raise InputError(f"the position is of {data['game']}, not {ROBOTGAME.name}")
        match = positions.start(data, data["players"], str(start))
        rg._configure(match.start_info(player))
        rows = [(r.loc, r.hp, r.player, r.rid)
                for r in match.robots]  # type: ignore[attr-defined]  # a RobotGame match
        turn = match.turn
    else:
        rows = [(tuple(loc), hp, owner, i) for i, (loc, hp, owner) in enumerate(robots)]
    board = rg.AttrDict()
    for loc, hp, owner, rid in rows:
        record = rg.AttrDict(location=tuple(loc), hp=hp, player_id=owner)
        if owner == player:
            record["robot_id"] = rid
        board[tuple(loc)] = record
    return rg.AttrDict(robots=board, turn=turn)


def act(bot: ModuleType, game: Any, location: tuple[int, int]) -> Any:
    """What the bot's robot at `location` answers on `game` (`Robot.act(game)`), its
    attributes set as a match sets them. The answer as the bot gave it, unchecked."""
    record = game.robots.get(tuple(location))
    if record is None:
        raise InputError(f"no robot at {tuple(location)}")
    robot = bot.Robot()
    robot.location, robot.hp, robot.player_id = record.location, record.hp, record.player_id
    robot.robot_id = record.get("robot_id")
    return robot.act(game)


__all__ = ["act", "bot_api", "load_bot", "robotgame_game"]
