"""What the host accepts from a match jail (`--sandbox match`): a result it can check.

A jail runs every bot of the match in one process, so a bot can reach everything in it,
the result it sends included. The host therefore takes a jail's result only where nothing
in it charges a bot: every player finished ("ok"), none was erased, each seat is the bot
it was given, and the whole is plain, finite JSON data of the result's own shape. Anything
else (a failed bot, a forged or odd field) is a reason to play the match again in the
standard mode, whose result then stands (`orchestrator/runner/match.py`).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from engine.numerals import ascii_decimal
from orchestrator.games import get_game
from orchestrator.replay import debug
from orchestrator.replay.reader import lineup

# A player's fields, and the types the host reads them as.
PLAYER_FIELDS: dict[str, tuple[type, ...]] = {
    "name": (str,), "seat": (int,), "bot": (str,), "sha256": (str,), "rank": (int,),
    "status": (str,), "reason": (type(None),), "turn": (type(None),),
    "overheats": (int,), "cpu_s": (int, float), "own_s": (int, float),
    "peak_rss_mb": (int, float),
    "stats": (dict,), "warnings": (list,), "errors": (list,), "output": (str,),
    "output_dropped": (int,), "violations": (list,),
}
# A player's measured figures: finite seconds and MiB from 0.
FIGURES = ("cpu_s", "own_s", "peak_rss_mb")
RESULT_FIELDS: dict[str, tuple[type, ...]] = {
    "game": (str,), "engine_version": (str,), "seed": (int,), "map": (str,),
    "rules": (dict,), "turns": (int,), "end": (str,), "winner": (str, type(None)),
    "runner_up": (str, type(None)), "restarts": (int,), "sandbox_mode": (str,),
    "players": (list,), "replay": (type(None),), "sandbox": (list,),
    "sandbox_missing": (dict,), "moves": (str,),
}


# What a player's notes may hold (orchestrator/runner/match.py keeps no more of a standard
# child's): (the most entries, the longest text).
NOTES = {"warnings": (20, 92), "errors": (20, 200), "violations": (20, 100)}
KEPT_ANSWER = 4096       # one answer a replay keeps, packed (base64 in the file): any
                         # game's answer for a turn is far shorter (a byte per robot, ...)
# A number as a key of the `debug` section (an AI, a turn): ASCII decimal in its one
# spelling (engine.numerals), at most 7 digits.
KEY_DIGITS = 7


@dataclass(frozen=True)
class Asked:
    """What the host asked the jail to play, which its result must match: the game, the
    seed, the turns, the bots (as the jail was given them) and their names, whether a
    replay was asked for, and the most output a player may keep."""

    game: str
    seed: int
    max_turns: int
    bots: list[Any]
    names: list[str]
    want_replay: bool
    output_bytes: int = 64 << 10


def refusal(result: Any, replay: Any, asked: Asked) -> tuple[str | None, int | None]:
    """Why the host does not take this jail's result (and replay) as it stands (None if
    it does), and the seat the result charges, if it names one. Whatever the jail sent,
    this answers: a value the checks below were not written for is a refusal too, never
    an exception that would stop the batch."""
    try:
        return _refusal(result, replay, game=asked.game, seed=asked.seed,
                        max_turns=asked.max_turns, bots=asked.bots, names=asked.names,
                        want_replay=asked.want_replay, output_bytes=asked.output_bytes)
    except Exception as exc:         # the jail's data, whatever it holds
        return f"its result could not be read ({type(exc).__name__})", None


def _refusal(result: Any, replay: Any, *, game: str, seed: int, max_turns: int,
             bots: list[Any], names: list[str], want_replay: bool, output_bytes: int
             ) -> tuple[str | None, int | None]:
    why = _malformed(result, replay, game=game, seed=seed, max_turns=max_turns, bots=bots,
                     names=names, want_replay=want_replay) or \
        _overgrown(result, replay, max_turns, len(names), output_bytes)
    if why is not None:
        return why, None
    for player in result["players"]:
        if player["status"] != "ok":
            return f"its result says {player['name']} {player['status'][:20]}", \
                player["seat"]
    return None, None


def _malformed(result: Any, replay: Any, game: str, seed: int, max_turns: int, bots: list[Any],
               names: list[str], want_replay: bool) -> str | None:
    """What is wrong with the shape of a jail's result and replay, if anything."""
    if not isinstance(result, dict) or set(result) != set(RESULT_FIELDS):
        return "its result is not a result"
    if wrong := _wrong_types(result, RESULT_FIELDS):
        return f"its result's {wrong} is not of its type"
    if (result["game"], result["seed"]) != (game, seed) or result["restarts"] != 0 or \
            not 0 <= result["turns"] <= max_turns:
        return "its result is not of this match"
    if not 0 < len(result["moves"]) <= 64:
        return "its result's moves digest is not a digest"
    players = result["players"]
    if len(players) != len(bots):
        return "its result has the wrong players"
    seen = set()
    for player in players:
        if not isinstance(player, dict) or set(player) != set(PLAYER_FIELDS) or \
                _wrong_types(player, PLAYER_FIELDS) or not all(
                    isinstance(item, str) for key in ("warnings", "errors", "violations")
                    for item in player[key]) or not all(
                    _figure(player[key]) for key in FIGURES):
            return "its result has a malformed player"
        seat = player["seat"]
        if seat in seen or not 0 <= seat < len(bots) or not 1 <= player["rank"] <= len(bots) or \
                (player["sha256"], player["bot"], player["name"]) != \
                (bots[seat].sha256, bots[seat].path, names[seat]):
            return "its result has the wrong players"
        seen.add(seat)
    if not {result["winner"], result["runner_up"]} <= {*names, None}:
        return "its winner is not a player"
    if isinstance(replay, dict) != want_replay or not want_replay and replay is not None:
        return "its replay is missing or not a replay"
    if want_replay and replay.get("players") != [
            {"name": names[seat], "bot": bot.path, "sha256": bot.sha256}
            for seat, bot in enumerate(bots)]:
        return "its replay has the wrong players"
    if want_replay and replay.get("seats") != lineup(
            [p["status"] for p in sorted(players, key=lambda p: p["seat"])],
            get_game(game).failure):
        return "its replay's seats are not the AIs its result has play"
    if not _plain((result, replay)):
        return "its result holds data that is not plain, finite JSON"
    return None


def _overgrown(result: dict[str, Any], replay: Any, max_turns: int, players: int,
               output_bytes: int) -> str | None:
    """What of the jail's per-bot content is past what the standard mode keeps (the bots
    run in the jail's process, and may have written it): each player's notes and output,
    and the answers its replay keeps. Lengths are checked before any item is read."""
    for player in result["players"]:
        for key, (most, length) in NOTES.items():
            if len(player[key]) > most or any(len(text) > length for text in player[key]):
                return f"its result's {key} are past what a player keeps"
        if len(player["output"]) > output_bytes:
            return "its result's output is past what a player keeps"
    if isinstance(replay, dict) and debug.SECTION in replay:
        turns = replay.get("turns")
        board = replay.get("map")
        try:
            if type(turns) is not list or len(turns) > max_turns + 1 or type(board) is not dict \
                    or not all(type(entry) is dict and type(entry.get("turn")) is int
                               for entry in turns):
                raise debug.Bad("its turns are not a match's")
            side = (board.get("width", board.get("size")), board.get("height", board.get("size")))
            if not all(type(n) is int for n in side):
                raise debug.Bad("its board has no size")
            if not _number_keys(replay[debug.SECTION]):
                raise debug.Bad("its marks' AIs and turns are not ASCII decimal")
            debug.check(replay[debug.SECTION], players, {entry.get("turn") for entry in turns},
                        side)   # type: ignore[arg-type]  # checked to be int just above
        except debug.Bad:
            return "its replay's marks are past what the host keeps"
    setup = replay.get("setup") if isinstance(replay, dict) else None
    if setup is None:
        return None
    answers = setup.get("answers") if isinstance(setup, dict) else None
    if type(answers) is not list or len(answers) > max_turns + 1:
        return "its replay's answers are not a match's"
    for turn in answers:
        if type(turn) is not list or len(turn) > players:
            return "its replay's answers are not a match's"
        for pair in turn:
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not int or \
                    not 0 <= pair[0] < players or \
                    pair[1] is not None and (type(pair[1]) is not str or
                                             len(pair[1]) > 4 * KEPT_ANSWER // 3 + 4):
                return "its replay keeps an answer no game sends"
    return None


def _figure(value: int | float) -> bool:
    """A finite number from 0 (an int of any size compares without a float's overflow)."""
    return (isinstance(value, int) or math.isfinite(value)) and value >= 0


def _number_keys(section: Any) -> bool:
    """Whether the `debug` section's AI keys, and each AI's turn keys, are ASCII decimal
    numbers (the section's shape beyond its keys is `debug.check`'s)."""
    if type(section) is not dict:
        return True                  # debug.check refuses it, naming the section
    for ai, by_turn in section.items():
        if type(ai) is not str or ascii_decimal(ai, KEY_DIGITS) is None:
            return False
        if type(by_turn) is dict and not all(
                ascii_decimal(turn, KEY_DIGITS) is not None for turn in by_turn):
            return False
    return True


def _wrong_types(record: dict[str, Any], fields: dict[str, tuple[type, ...]]) -> str | None:
    for key, types in fields.items():
        value = record[key]
        if not isinstance(value, types) or isinstance(value, bool) and bool not in types:
            return key
    return None


def _plain(data: Any) -> bool:
    """Whether `data` is what JSON can hold: finite numbers, no bytes, keys JSON takes."""
    try:
        json.dumps(data, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return True

