"""Scripted moves on a hand-made position (`arena scenario FILE`): read the scenario file
and run it through the game's engine; the final state, as plain data.

A scenario file is untrusted input: at most MAX_SCENARIO_BYTES are read, and JSON that is
nested too deep or holds a number too long to convert is one error line, as bad JSON is;
each game's reader bounds what the JSON holds."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from engine import InputError
from orchestrator import given_path
from orchestrator.games import DEFAULT_GAME, GAMES, Game, get_game
from orchestrator.replay import reader

MAX_SCENARIO_BYTES = 1 << 20       # 1 MiB: the largest bundled scenario is under 3 KiB


def read_scenario_file(path: Path) -> object:
    """The scenario file's JSON, read within bounds."""
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_SCENARIO_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: scenario file not found") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read scenario ({exc.strerror or exc})") from None
    if len(raw) > MAX_SCENARIO_BYTES:
        raise InputError(f"{path}: the scenario file is over {MAX_SCENARIO_BYTES >> 20} MiB")
    return scenario_json(raw, path)


def scenario_json(raw: bytes, path: Path | str) -> object:
    """A scenario file's bytes as strict JSON (no NaN or Infinity, which JSON does not
    allow and no game's scenario holds), or one InputError naming the file."""
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=reader.no_constant,
                          parse_float=reader.finite)
    except UnicodeDecodeError:
        raise InputError(f"{path}: cannot read scenario (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON ({exc.msg})") from None
    except RecursionError:
        raise InputError(f"{path}: invalid JSON (nested too deep)") from None
    except reader.NotFinite as exc:
        raise InputError(f"{path}: invalid JSON (it {exc})") from None
    except ValueError:          # an integer of thousands of digits
        raise InputError(f"{path}: invalid JSON (a number too long)") from None


def scenario_path(ref: Path, found: Game) -> Path:
    """The file `ref` names: itself, or the game's shipped example of that name; a name
    that is neither is one error line listing the examples (and the game that has one of
    that name)."""
    shipped = found.find_scenario(ref)
    if shipped is not None or given_path.is_file(ref) or os.path.lexists(ref):
        return shipped or Path(ref)
    names = ", ".join(path.stem for path in found.bundled_scenarios()) or "none"
    other = next((game.name for game in GAMES.values()
                  if game.name != found.name and game.find_scenario(ref)), None)
    hint = f"; {other} has one of that name: try --game {other}" if other else ""
    raise InputError(f"{given_path.named(ref)}: scenario file not found (not a file, nor "
                     f"one of {found.name}'s examples: {names}{hint})")


def run_scenario_file(path: Path, game: str = DEFAULT_GAME) -> dict[str, Any]:
    """The final state of the scenario in `path` (`arena scenario --json` prints it)."""
    found = get_game(game)
    path = scenario_path(path, found)
    data = read_scenario_file(path)
    if found.scenario is None:
        raise InputError(f"{found.name} has no scenario files")
    try:
        return found.scenario(data, str(path))
    except (InputError, KeyboardInterrupt):
        raise
    except Exception as exc:
        # Whatever the game's checks let through that its engine cannot play is the file's
        # fault: one error line naming it, never a traceback.
        raise InputError(f"{path}: the {found.name} engine cannot play this scenario "
                         f"({type(exc).__name__}: {str(exc)[:120]})") from None
