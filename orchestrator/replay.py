"""Replays: one gzip-compressed JSON file per match, the same envelope for every game.

The file holds a header (schema, engine version, game, rules, seed, map, players), the
game's static map data, the initial state, and per turn the events and the rows of state
that changed. docs/replay.md documents it. Nothing in it depends on the machine (no
times, no memory figures), and gzip's timestamp is fixed, so the same match always gives
the same bytes.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from engine import ENGINE_VERSION, InputError
from engine.protocol import Match

SCHEMA = 1
FORMAT = "robot-arena-replay"


class Recorder:
    """Follows one attempt of a match, turn by turn."""

    def __init__(self, match: Match) -> None:
        self.static = match.replay_static()
        self.initial = match.replay_frame()
        self.previous = _index(self.initial)
        self.turns: list[dict] = []

    def turn(self, match: Match, log: Any) -> None:
        frame = _index(match.replay_frame())
        changed: dict[str, list] = {}
        gone: dict[str, list] = {}
        for key, rows in frame.items():
            before = self.previous.get(key, {})
            diff = [row for rid, row in rows.items() if before.get(rid) != row]
            if diff:
                changed[key] = diff
            lost = sorted(rid for rid in before if rid not in rows)
            if lost:
                gone[key] = lost
        entry = {"turn": match.turn, "events": match.replay_events(log), "changed": changed}
        if gone:
            entry["gone"] = gone
        self.turns.append(entry)
        self.previous = frame


def _index(frame: dict) -> dict[str, dict]:
    return {key: {row[0]: row for row in rows} for key, rows in frame.items()}


def build(result: dict, recorder: Recorder, marks: list[dict]) -> dict:
    """The whole replay of a finished match."""
    return {
        "format": FORMAT, "schema": SCHEMA, "engine_version": ENGINE_VERSION,
        "game": result["game"], "rules": result["rules"], "seed": result["seed"],
        "map": {"name": result["map"], **recorder.static},
        "players": [{"name": p["name"], "bot": p["bot"], "sha256": p["sha256"]}
                    for p in sorted(result["players"], key=lambda p: p["seat"])],
        "initial": recorder.initial, "turns": recorder.turns,
        "marks": marks,
        "result": {"turns": result["turns"], "end": result["end"],
                   "winner": result["winner"], "runner_up": result["runner_up"],
                   "restarts": result["restarts"],
                   "players": [{"name": p["name"], "rank": p["rank"], "status": p["status"],
                                "reason": p["reason"], "turn": p["turn"],
                                "overheats": p["overheats"], "stats": p["stats"]}
                               for p in result["players"]]},
        "output": {p["name"]: p["output"] for p in result["players"] if p["output"]},
    }


def encode(replay: dict) -> bytes:
    text = json.dumps(replay, separators=(",", ":"), sort_keys=True)
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def save(replay: dict, path: Path) -> Path:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encode(replay))
    except OSError as exc:
        raise InputError(f"{path}: cannot write the replay ({exc.strerror})") from None
    return path


def load(path: Path) -> dict:
    try:
        data = json.loads(gzip.decompress(Path(path).read_bytes()))
    except FileNotFoundError:
        raise InputError(f"{path}: replay file not found") from None
    except (OSError, EOFError, ValueError) as exc:
        raise InputError(f"{path}: not a replay file ({type(exc).__name__})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{path}: not a replay file")
    if data.get("schema") != SCHEMA:
        raise InputError(f"{path}: replay schema {data.get('schema')}, this version reads "
                         f"{SCHEMA}")
    return data


def frames(replay: dict):
    """Yield (turn, state) from the initial state on; state is {key: {id: row}}."""
    state = _index(replay["initial"])
    yield 0, state
    for entry in replay["turns"]:
        state = {key: dict(rows) for key, rows in state.items()}
        for key, rows in entry.get("changed", {}).items():
            bucket = state.setdefault(key, {})
            for row in rows:
                bucket[row[0]] = row
        for key, ids in entry.get("gone", {}).items():
            for rid in ids:
                state.get(key, {}).pop(rid, None)
        yield entry["turn"], state
