"""Replays: one gzip-compressed JSON file per match, the same envelope for every game.

The file holds a header (schema, engine version, game, rules, seed, map, players), the
game's static map data, the initial state, and per turn the events and the rows of state
that changed. docs/replay.md documents it. Nothing in it depends on the machine (no
times, no memory figures), and gzip's timestamp is fixed, so the same match always gives
the same bytes.

A replay file is read as untrusted data, by orchestrator/replay/reader.py (`load`), and its
turns are rebuilt as they are shown (`Frames`), never all at once.
"""
from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path
from typing import Any, Iterator, Mapping

import msgpack

from engine import ENGINE_VERSION, InputError
from engine.protocol import Match
from orchestrator import host_files
from orchestrator.replay import reader as replay_reader
from orchestrator.replay.reader import FORMAT, SCHEMA

CHECKPOINT_EVERY = 64          # Frames keeps a copy of the state every this many turns


class Recorder:
    """Follows one attempt of a match, turn by turn. With a `setup` (the map's text, the
    AIs' names), it keeps each turn's answers too, so the match can be played again
    without its bots (orchestrator/replay/position.py)."""

    def __init__(self, match: Match, setup: dict[str, Any] | None = None,
                 seats: list[int] | None = None) -> None:
        # The seat of each AI index the rows use (the attempt's lineup): once a seat is
        # erased, AI i is no longer seat i.
        self.seats = seats
        self.static = match.replay_static()
        self.initial = match.replay_frame()
        self.previous = _index(self.initial)
        self.turns: list[dict[str, Any]] = []
        self.setup = setup
        self.answers: list[list[Any]] = []
        self.debug: dict[str, dict[str, Any]] = {}     # the bots' marks (replay/debug.py)

    def turn(self, match: Match, log: Any, answers: list[list[Any]] | None = None,
             marks: dict[int, dict[str, Any]] | None = None) -> None:
        """Follow the turn just played: its log, the AIs' answers, and the marks each AI
        made deciding it (as `debug.Keeper` kept them)."""
        if self.setup is not None:
            # by AI: the replies arrive in whichever order the children answer
            self.answers.append([[ai, packed(answer)] for ai, answer in
                                 sorted(answers or (), key=lambda pair: pair[0])])
        frame = _index(match.replay_frame())
        changed: dict[str, list[Any]] = {}
        gone: dict[str, list[Any]] = {}
        for key, rows in frame.items():
            before = self.previous.get(key, {})
            diff = [row for rid, row in rows.items() if before.get(rid) != row]
            if diff:
                changed[key] = diff
            lost = sorted(rid for rid in before if rid not in rows)
            if lost:
                gone[key] = lost
        entry = {"turn": match.turn, "events": match.replay_events(log), "changed": changed}
        for ai, kept in sorted((marks or {}).items()):
            self.debug.setdefault(str(ai), {})[str(match.turn)] = kept
        if gone:
            entry["gone"] = gone
        self.turns.append(entry)
        self.previous = frame


def _index(frame: dict[str, Any]) -> dict[str, dict[Any, Any]]:
    return {key: {row[0]: row for row in rows} for key, rows in frame.items()}


def build(result: Mapping[str, Any], recorder: Recorder,
          marks: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole replay of a finished match."""
    return {
        "format": FORMAT, "schema": SCHEMA, "engine_version": ENGINE_VERSION,
        "game": result["game"], "rules": result["rules"], "seed": result["seed"],
        "map": {"name": result["map"], **recorder.static},
        "players": [{"name": p["name"], "bot": p["bot"], "sha256": p["sha256"]}
                    for p in sorted(result["players"], key=lambda p: p["seat"])],
        "seats": list(recorder.seats) if recorder.seats is not None
        else list(range(len(result["players"]))),
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
        **({"debug": recorder.debug} if recorder.debug else {}),
        **({"setup": {**recorder.setup, "answers": recorder.answers}}
           if recorder.setup is not None and recorder.setup.get("map_text") is not None
           else {}),
    }


def packed(answer: Any) -> str | None:
    """One AI's answer as it reached the engine (msgpack's data, as a child sends it), in
    base64 text; None for one msgpack cannot hold (only a `--sandbox off` bot's odd object),
    which leaves the replay unplayable from that turn."""
    try:
        return base64.b64encode(msgpack.packb(answer, use_bin_type=True)).decode()
    except (TypeError, ValueError, OverflowError):
        return None


def encode(replay: dict[str, Any]) -> bytes:
    text = json.dumps(replay, separators=(",", ":"), sort_keys=True)
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def save(replay: dict[str, Any], path: Path) -> Path:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        host_files.write_file(path, encode(replay))
    except OSError as exc:
        raise InputError(f"{path}: cannot write the replay ({exc.strerror})") from None
    return path


def load(path: Path, name: str | None = None) -> dict[str, Any]:
    """A replay file, bounded and checked (orchestrator/replay/reader.py); an InputError
    names `name` (default: the path) and says what is wrong."""
    return replay_reader.read(Path(path), name)


State = dict[str, dict[Any, Any]]


def _copy(state: State) -> State:
    return {key: dict(rows) for key, rows in state.items()}


def _apply(state: State, entry: dict[str, Any]) -> None:
    """One turn's changes, in place."""
    for key, rows in entry.get("changed", {}).items():
        bucket = state.setdefault(key, {})
        for row in rows:
            bucket[row[0]] = row
    for key, ids in entry.get("gone", {}).items():
        for rid in ids:
            state.get(key, {}).pop(rid, None)


def frames(replay: dict[str, Any]) -> Iterator[tuple[int, State]]:
    """Yield (turn, state) from the initial state on; state is {key: {id: row}}, a new one
    each turn, made only when the one before has been taken."""
    state = _index(replay["initial"])
    yield 0, state
    for entry in replay["turns"]:
        state = _copy(state)
        _apply(state, entry)
        yield entry["turn"], state


class Frames:
    """Every frame of a replay as a sequence, each made when it is asked for: `frames[i]`
    is (turn, state) after i turns. It keeps the frame last asked for and a copy of the
    state every CHECKPOINT_EVERY turns, so memory grows with rows x turns / 64, not with
    rows x turns, and any frame is at most 64 turns of changes away."""

    def __init__(self, replay: dict[str, Any]) -> None:
        self.turns = replay["turns"]
        self.checkpoints: dict[int, State] = {0: _index(replay["initial"])}
        self.last: tuple[int, State] | None = None

    def __len__(self) -> int:
        return len(self.turns) + 1

    def __getitem__(self, index: int) -> tuple[int, State]:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"frame {index} of {len(self)}")
        turn = self.turns[index - 1]["turn"] if index else 0
        if self.last is not None and self.last[0] == index:
            return turn, self.last[1]
        start = max(i for i in self.checkpoints if i <= index)
        if self.last is not None and start < self.last[0] < index:
            start, state = self.last[0], _copy(self.last[1])
        else:
            state = _copy(self.checkpoints[start])
        for i in range(start + 1, index + 1):
            _apply(state, self.turns[i - 1])
            if i % CHECKPOINT_EVERY == 0 and i not in self.checkpoints:
                self.checkpoints[i] = _copy(state)
        self.last = (index, state)
        return turn, state

    def __iter__(self) -> Iterator[tuple[int, State]]:
        return (self[i] for i in range(len(self)))
