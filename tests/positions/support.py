"""What the position tests share: each game's memoryless samples (its entry's
`memoryless`), one recorded match of them per game, played once per test session, and a
replay turn in the form the recorder writes it."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from orchestrator import api
from orchestrator.games import GAMES
from orchestrator.games.sample_folder import runnable
from orchestrator.replay import file as replay

SEED = 5


def lineup(name: str) -> list[Path]:
    """Two of the game's memoryless samples (one, playing itself, if it has only one)."""
    game = GAMES[name]
    picked = list(game.memoryless[:2]) or []
    if len(picked) == 1:
        picked *= 2
    return [runnable(game.bots_dir / bot) for bot in picked]


@functools.lru_cache(maxsize=None)
def recorded(name: str, folder: str) -> tuple[Path, str]:
    """A match of the game's memoryless samples, saved as a replay file in `folder`, and
    its result as JSON text."""
    played = api.play(lineup(name), game=name, seed=SEED, sandbox="off", progress=False)
    path = Path(folder) / f"{name}.json.gz"
    played.save_replay(path)
    return path, json.dumps(played.to_json())


def turns_of(data: dict) -> list[str]:
    """Each turn of a replay as canonical JSON text (its events and the rows it changed)."""
    return [json.dumps({key: entry[key] for key in ("turn", "events", "changed", "gone")
                        if key in entry}, sort_keys=True, separators=(",", ":"))
            for entry in data["turns"]]


def load(path: Path) -> dict:
    return replay.load(path)
