"""Position files: the whole state of a match between two turns, to start a match from.

`arena replay FILE --turn N --save-position pos.json` writes one (`from_replay`): the
replay's match is played again without its bots, from the answers the replay keeps
(`setup`), up to turn N, each turn checked against the replay's own record of it, and the
game's position hooks (engine/position.py) save the state there. `arena run --from
pos.json BOT...` and `api.play(..., start=pos)` start a match from one (`read`, `check`).

A position file is JSON:

    {"format": "robot-arena-position", "schema": 1, "engine_version": "0.2.0",
     "game": "arena", "seed": 42, "rules": {...every rule...}, "turn": 37 (turns played,
     as the game counts them),
     "players": ["hunter", "beeline"], "map": {"name": "official", "text": "...the map file"},
     "state": {...the game's state: robots, counters, random generators' states...},
     "source": {"replay": "match.json.gz", "frame": 37}}   (the replay's turn, as
                                                             its viewer numbers them)

It is untrusted input, read like a replay (orchestrator/replay/reader.py): its size is
bounded before it is decoded, its nesting and container count before it is parsed, then
every field is checked, and the game's `load` checks the state (its squares on the board,
its counts, its generators' states). Anything wrong is one InputError naming the file.
"""
from __future__ import annotations

import base64
import binascii
import json
from pathlib import Path
from typing import Any

import msgpack

from engine import ENGINE_VERSION, InputError
from engine.protocol import Match
from orchestrator import host_files
from orchestrator.games import GAMES, Game
from orchestrator.replay import file as replays
from orchestrator.replay.reader import MAX_NAME, MAX_PLAYERS, MiB, _decoded, bounded_bytes
from orchestrator.text import shown

FORMAT = "robot-arena-position"
SCHEMA = 1
MAX_FILE_BYTES = 4 * MiB         # a position of 8 AIs x 40 robots is about 40 KB
MAX_MAP_CHARS = 1 * MiB          # a map file's text (a 512-square side is 263,000)
MAX_ANSWER_BYTES = 64 * 1024     # one AI's answer in a replay (the sandbox caps a frame)

ENVELOPE = {"game": str, "seed": int, "rules": dict, "turn": int, "players": list,
            "map": dict, "state": dict}


# -- from a replay ------------------------------------------------------------------------
def check_turn(turn: int, last: int) -> None:
    """`--turn N` of a replay whose last turn is `last`: an InputError past it."""
    if not 0 <= turn <= last:
        raise InputError(f"--turn {turn}: the replay has turns 0 to {last}")


def from_replay(data: dict[str, Any], frame: int, name: str) -> dict[str, Any]:
    """The position after `frame` turns of a replay (`replay.load`'s, checked), played
    again from the answers it keeps; an InputError where the replay keeps none, or its
    match, played again, does not give the turns it records (another engine version, or
    an edited file)."""
    turns = data["turns"]
    check_turn(frame, len(turns))
    game = _game(data["game"], name)
    setup = _setup(data, name)
    rules = _rules(game, data["rules"], name)
    board = _board(game, data["map"]["name"], setup["map_text"], name)
    names = setup["names"]
    try:
        match = _first(game, board, names, data["seed"], rules, setup.get("start"))
        for ai in range(len(names)):
            match.start_info(ai)            # as a match does (a game may set up here)
        recorder = replays.Recorder(match)
        _same(recorder.initial, data["initial"], "its first turn")
        for t in range(frame):
            recorder.turn(match, _replay_turn(match, setup["answers"][t], turns[t]["turn"]))
            _same(recorder.turns[-1], _entry(turns[t]), f"turn {turns[t]['turn']}")
        assert game.position is not None     # _game refuses a game without positions
        state = game.position.save(match)
    except InputError as exc:
        raise InputError(f"{name}: {exc}") from None
    return {"format": FORMAT, "schema": SCHEMA, "engine_version": ENGINE_VERSION,
            "game": game.name, "seed": data["seed"], "rules": rules.as_dict(),
            "turn": state["turn"], "players": list(names),
            "map": {"name": data["map"]["name"], "text": setup["map_text"]},
            "state": state, "source": {"replay": Path(name).name, "frame": frame}}


def _replay_turn(match: Match, answers: list[Any], turn: int) -> Any:
    """One turn of the match, with the answers the replay kept (checked as the engine
    checks a bot's: `decode_answer`); the turn's log."""
    views = match.views()
    moves: dict[Any, Any] = {}                # keyed as the game keys them
    for ai, raw in answers:
        if ai not in views:
            raise InputError(f"turn {turn}: an answer of AI {ai}, which was not asked")
        try:
            moves.update(match.decode_answer(ai, _unpacked(raw, turn)))
        except ValueError as exc:
            raise InputError(f"turn {turn}: AI {ai}'s answer does not fit its view "
                             f"({shown(str(exc))[:80]})") from None
    try:
        return match.play_turn(moves)
    except Exception as exc:      # forged answers the engine's checks let through
        raise InputError(f"turn {turn}: the engine cannot play the answers the replay "
                         f"keeps ({type(exc).__name__})") from None


def _unpacked(raw: Any, turn: int) -> Any:
    if raw is None:
        raise InputError(f"turn {turn}: the replay could not keep an answer of this turn")
    try:
        packed = base64.b64decode(raw, validate=True)
        if len(packed) > MAX_ANSWER_BYTES:
            raise ValueError("too long")
        # msgpack bounds each container by the bytes given (checked just above)
        return msgpack.unpackb(packed, raw=False, strict_map_key=False)
    except (binascii.Error, ValueError, TypeError, msgpack.UnpackException,
            msgpack.ExtraData):
        raise InputError(f"turn {turn}: an answer the replay keeps is not readable") from None


def _first(game: Game, board: Any, names: list[str], seed: int, rules: Any,
           start: dict[str, Any] | None) -> Match:
    if start is None:
        return game.new_match(board, names, seed, rules)
    assert game.position is not None         # a start: a game with positions
    return game.position.load(board, names, seed, rules, start)


def _entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A replay's turn as the recorder makes it (the reader keeps what it read)."""
    return {key: entry[key] for key in ("turn", "events", "changed", "gone") if key in entry}


def _same(made: Any, kept: Any, where: str) -> None:
    """The turn played again must be the turn the replay records, to the byte."""
    if _canonical(made) != _canonical(kept):
        raise InputError(f"{where}: the match played again from the answers the replay "
                         f"keeps differs from what it records (an edited replay, or one of "
                         f"another engine version than {ENGINE_VERSION})")


def _canonical(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _setup(data: dict[str, Any], name: str) -> dict[str, Any]:
    """The replay's `setup`, checked: the map's text, the AIs' names, one list of answers
    per turn ([[ai, base64 text or null], ...]), the position it started from if any."""
    setup = data.get("setup")
    if setup is None:
        raise InputError(f"{name}: this replay keeps no answers of its bots (it was saved "
                         f"before version {ENGINE_VERSION}); play the match again with "
                         f"--replay to save positions from it")
    turns = len(data["turns"])
    if not (isinstance(setup, dict) and isinstance(setup.get("map_text"), str)
            and len(setup["map_text"]) <= MAX_MAP_CHARS
            and _names(setup.get("names"))
            and isinstance(setup.get("answers"), list) and len(setup["answers"]) == turns
            and all(isinstance(turn, list) and len(turn) <= len(setup["names"]) and all(
                isinstance(a, list) and len(a) == 2 and type(a[0]) is int and
                (a[1] is None or isinstance(a[1], str)) for a in turn)
                for turn in setup["answers"])
            and isinstance(setup.get("start", {}), dict)):
        raise InputError(f"{name}: setup: must be {{map_text, names, answers: one list per "
                         f"turn of [AI, answer]}}")
    return setup


# -- reading ------------------------------------------------------------------------------
def read(path: Path) -> dict[str, Any]:
    """The position in the file at `path`, bounded, decoded and checked (`check`)."""
    name = shown(str(path))
    raw = bounded_bytes(path, name, "position", MAX_FILE_BYTES)
    return check(_decoded(raw, name, "position"), name)


def check(data: Any, name: str = "the position") -> dict[str, Any]:
    """A position (as read from JSON) checked field by field, its state by the game's
    `load` on its map; returns it. An InputError names `name` and the bad field."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{name}: not a position file (no \"format\": \"{FORMAT}\")")
    if data.get("schema") != SCHEMA:
        raise InputError(f"{name}: position schema {shown(data.get('schema'))[:40]}, this "
                         f"version reads {SCHEMA}")
    for key, kind in ENVELOPE.items():
        if key not in data:
            raise InputError(f"{name}: {key}: missing")
        if not isinstance(data[key], kind) or kind is int and type(data[key]) is not int:
            raise InputError(f"{name}: {key}: must be {_a(kind)}")
    game = _game(data["game"], name)
    if not _names(data["players"]):
        raise InputError(f"{name}: players: must be 1 to {MAX_PLAYERS} names of at most "
                         f"{MAX_NAME} characters")
    board = data["map"]
    if not (isinstance(board.get("name"), str) and 0 < len(board["name"]) <= MAX_NAME
            and isinstance(board.get("text"), str) and len(board["text"]) <= MAX_MAP_CHARS):
        raise InputError(f"{name}: map: must be {{\"name\": its name, \"text\": the map "
                         f"file's text of at most {MAX_MAP_CHARS:,} characters}}")
    if not 0 <= data["seed"] < 1 << 63:
        raise InputError(f"{name}: seed: must be an integer from 0 to 2^63 - 1")
    start(data, data["players"], name, game)        # the state loads, or says why not
    return data


def start(data: dict[str, Any], names: list[str], name: str, game: Game | None = None) -> Match:
    """The match of a checked position, with the AIs `names` (as many as it has)."""
    game = game or _game(data["game"], name)
    rules = _rules(game, data["rules"], name)
    if data["turn"] != data["state"].get("turn"):
        raise InputError(f"{name}: turn: {data['turn']}, but the state is at turn "
                         f"{shown(data['state'].get('turn'))[:20]}")
    board = _board(game, data["map"]["name"], data["map"]["text"], name)
    assert game.position is not None         # a checked position: a game with positions
    try:
        return game.position.load(board, list(names), data["seed"], rules, data["state"])
    except InputError as exc:
        raise InputError(f"{name}: {exc}") from None


def _game(game: str, name: str) -> Game:
    found: Game | None = GAMES.get(game)
    if found is None:
        raise InputError(f"{name}: game {shown(game)[:40]!r} is not one this arena knows "
                         f"({', '.join(GAMES)})")
    if found.position is None:
        raise InputError(f"{name}: the game {found.name} saves no positions")
    return found


def _rules(game: Game, rules: dict[str, Any], name: str) -> Any:
    preset = rules.get("preset")
    if preset not in game.presets:
        raise InputError(f"{name}: rules.preset: must be one of {', '.join(game.presets)}")
    try:
        return game.rules(preset, **{k: v for k, v in rules.items() if k != "preset"})
    except InputError as exc:
        raise InputError(f"{name}: rules: {exc}") from None


def _board(game: Game, map_name: str, text: str, name: str) -> Any:
    try:
        return game.parse_map(text, Path(map_name).name + game.map_suffix)
    except InputError as exc:
        raise InputError(f"{name}: map: {exc}") from None


def _names(names: Any) -> bool:
    return isinstance(names, list) and 1 <= len(names) <= MAX_PLAYERS and all(
        isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names)


def _a(kind: type) -> str:
    return {str: "a string", int: "an integer", dict: "an object", list: "a list"}[kind]


# -- writing ------------------------------------------------------------------------------
def write(position: dict[str, Any], path: Path) -> Path:
    """The position as JSON, one field a line (a state is small, and may be edited)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        host_files.write_file(path, (json.dumps(position, indent=1, sort_keys=True,
                                                allow_nan=False) + "\n").encode("utf-8"))
    except OSError as exc:
        raise InputError(f"{shown(str(path))}: cannot write the position "
                         f"({exc.strerror})") from None
    return path
