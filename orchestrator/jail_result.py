"""What a match jail sends back is data its bots could have written (`--sandbox match`:
a bot can reach the engine and the jail's code, docs/security.md). Before the host tallies,
stores or shows it, its shape is checked against the result `run_match` makes: a result the
host could not tally or store (a rank that is text, a missing seat, bytes, NaN) is a
failed jail, and the match is played again in the standard mode."""
from __future__ import annotations

import json
import math
from typing import Any

from orchestrator.bots import unique_names

STATUSES = ("ok", "erased", "forfeit", "load_error")
# Each player's fields, and the types the host's tally, store and tables read them as.
_INT, _TEXT, _REAL = (int,), (str,), (int, float)
PLAYER_FIELDS: dict[str, tuple[type, ...]] = {
    "seat": _INT, "name": _TEXT, "bot": _TEXT, "sha256": _TEXT, "rank": _INT,
    "status": _TEXT, "reason": (str, type(None)), "turn": (int, type(None)),
    "overheats": _INT, "cpu_s": _REAL, "peak_rss_mb": _REAL, "stats": (dict,),
    "warnings": (list,), "errors": (list,), "output": _TEXT, "output_dropped": _INT,
    "violations": (list,),
}
RESULT_FIELDS: dict[str, tuple[type, ...]] = {
    "game": _TEXT, "engine_version": _TEXT, "seed": _INT, "map": _TEXT, "rules": (dict,),
    "turns": _INT, "end": _TEXT, "winner": (str, type(None)),
    "runner_up": (str, type(None)), "restarts": _INT, "players": (list,),
}


def _typed(value: Any, kinds: tuple[type, ...]) -> bool:
    if isinstance(value, bool):                 # an int to Python, never a count here
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return isinstance(value, kinds)


def problem(result: Any, replay: Any, spec: Any) -> str | None:
    """Why the jail's `result` (and `replay`, when one was asked for) cannot stand for the
    match of `spec`; None when it has the shape the standard mode's result has."""
    if not isinstance(result, dict):
        return "no result"
    for key, kinds in RESULT_FIELDS.items():
        if not _typed(result.get(key), kinds):
            return f"its {key!r} is not what a result holds"
    if result["game"] != spec.game or result["seed"] != spec.seed:
        return "it is another match's result"
    if not 0 <= result["turns"] <= spec.rules.max_turns or result["restarts"] < 0:
        return "its turns are out of range"
    players = result["players"]
    if len(players) != len(spec.bots) or not all(isinstance(p, dict) for p in players):
        return "its players are not the match's"
    for player in players:
        for key, kinds in PLAYER_FIELDS.items():
            if not _typed(player.get(key), kinds):
                return f"a player's {key!r} is not what a result holds"
        if player["status"] not in STATUSES or not 1 <= player["rank"] <= len(players):
            return "a player's status or rank is out of range"
        if "scratch" in player:                 # only programs keep one; the jail has none
            return "a player carries scratch files"
    if sorted(p["seat"] for p in players) != list(range(len(spec.bots))):
        return "its seats are not the match's"
    names = unique_names([bot.name for bot in spec.bots])
    for player in players:
        bot = spec.bots[player["seat"]]
        if (player["name"], player["bot"], player["sha256"]) != \
                (names[player["seat"]], bot.path, bot.sha256):
            return "its players are not the match's"
    if not {result["winner"], result["runner_up"]} <= {*names, None}:
        return "its winner is not a player"
    try:                  # what the store and the replay file will write: strict JSON
        json.dumps([result, replay], sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return "it is not plain JSON data"
    return None

