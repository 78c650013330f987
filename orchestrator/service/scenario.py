"""Scripted moves on a hand-made position (`arena scenario FILE`): read the scenario file
and run it through the game's engine; the final state, as plain data."""
from __future__ import annotations

import json
from pathlib import Path

from engine import InputError
from orchestrator.games import DEFAULT_GAME, get_game


def run_scenario_file(path: Path, game: str = DEFAULT_GAME) -> dict:
    """The final state of the scenario in `path` (`arena scenario --json` prints it)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: scenario file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read scenario ({exc})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON ({exc.msg})") from None
    found = get_game(game)
    if found.scenario is None:
        raise InputError(f"{found.name} has no scenario files")
    return found.scenario(data, str(path))
