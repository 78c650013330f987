"""The replay of a stored match (`arena replay DB:MATCH_ID`, `ResultsStore.replay()`).

Where the batch kept replays (`--replays`), that file. Otherwise the match is played again
from its record: a match is a pure function of map, bots, seed, rules and limits, and the
store keeps all of them (the map and each bot by path and sha256, the rest as values).
A bot or map file that is missing or changed since (its sha256 differs) is refused, and a
match played again must end as the stored one did (turns, every seat's rank and status),
or it is refused too: a bot that reads the clock, or one near its time limit, can play
differently twice. The replay made is kept beside the results file, where a batch with
`--replays` puts its own, so the next `arena replay` of it opens that file.

A results file is data from anyone (a shared one, a forged one): its record never decides
how code runs. The match is played in the sandbox mode the reader chose (`--sandbox`,
default standard; the record's mode is not read), within the reader's limits (the game's
defaults, or `--cpu-limit`/`--memory-mb`): the recorded limits are used only where each is
within those (a match replays the same only with the limits it had), and a record whose
limits are looser is refused, naming the option that allows them. Every other field is
checked against its schema (a known game, a seed in range, rules in their ranges, the
bots' and map's paths and digests) before anything is read or run.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path
from typing import Any, Callable, Mapping

from engine import InputError
from engine.textfile import MAX_MAP_BYTES, regular_bytes
from orchestrator import arguments, given_path
from orchestrator.faults import InternalError
from orchestrator.games import GAMES
from orchestrator.host_files import write_kept
from orchestrator.results.match_result import MatchData
from orchestrator.results.store import Store, StoredMatch, scratch_fits
from orchestrator.runner import execute
from orchestrator.runner.bots import BotFile
from orchestrator.runner.match import MatchSpec, match_fallback, scratch_files
from orchestrator.service.matchups import Kept
from orchestrator.service.results import open_results
from orchestrator.service.values import game_limits
from orchestrator.text import shown
from sandbox import modes
from sandbox.isolation import SCRATCH_BYTES
from sandbox.limits import Limits, filled, looser
from sandbox.modes import DEFAULT_MODE

_SHA256 = frozenset("0123456789abcdef")
_RECORD_KEYS = {"game", "map_name", "map_path", "map_sha256", "rules", "seed", "limits",
                "sandbox", "bots"}
_BOT_KEYS = {"path", "name", "sha256", "file"}
_MOST_BOTS = 64               # seats of a recorded match (a game's largest line-up is 8)
_PATH_CHARS = 4096            # a path the record names (PATH_MAX)
_BOT_BYTES = 64 << 20         # a bot file the record names (a compiled one: a few MiB)


def stored_ref(text: str) -> tuple[Path, str] | None:
    """`DB:MATCH_ID` as (results file, id or a prefix of it), when `text` is no file
    itself and its part before the last ':' is one; else None (a replay file's path)."""
    if given_path.is_file(text) or ":" not in text:
        return None
    db, _, match_id = text.rpartition(":")
    if not db or not given_path.is_file(db):
        return None
    return Path(db), match_id


def chosen_match(store: Store, match_id: str) -> StoredMatch:
    """The one match whose id starts with `match_id`."""
    found = store.match_ids(match_id) if match_id else []
    if len(found) != 1:
        raise InputError(f"{store.path}:{match_id}: " + (
            "no match has this id" if not found else "more than one match starts so: give "
            "more of the id"))
    return store.match(found[0])


def replay_path(db: Path, match_id: str, told: Callable[[str], None] = lambda _: None,
                sandbox: str = DEFAULT_MODE, cpu_limit: float | None = None,
                memory_mb: int | None = None,
                files_in: tuple[Path, ...] | None = None) -> Path:
    """The replay file of a stored match: the one kept, else one made by playing the match
    again from its record in the `sandbox` mode within the game's limits changed by
    `cpu_limit`/`memory_mb` (`told` hears that it is being played, and in which mode).
    `files_in`: the only folders (resolved) whose files the record may name (a bundled
    map anywhere), for a reader who publishes what it finds; None: any file."""
    modes.chosen(sandbox)
    arguments.check(cpu_limit=cpu_limit, memory_mb=memory_mb)
    store = open_results(db)
    try:
        match = chosen_match(store, match_id)
        kept = Kept(store.path).file(match)
        if kept is not None and (files_in is None or _within(str(kept), files_in)):
            return kept
        record = store.inputs(match["id"])
    finally:
        store.close()
    where = f"{db}:{match['id']}"
    if record is None:
        raise InputError(f"{where}: the results file does not record what this match was "
                         f"played from (it was played before arena kept that): run the batch "
                         f"again with --replays")
    record = checked_record(record, where, cpu_limit, memory_mb)
    spec = dataclasses.replace(_spec(record, where, files_in), sandbox=sandbox)
    game = GAMES[record["game"]]
    mode = sandbox
    if not modes.get_mode(sandbox).programs and match_fallback(game, spec.bots):
        mode = f"standard (--sandbox {sandbox} falls back for programs)"
    told(f"replaying {where} from its record (seed {record['seed']}), sandbox {mode}")
    outcome = execute.play_planned(spec)
    if "fault" in outcome:
        raise InternalError(f"{where}: playing the match again failed: {outcome['error']}",
                            outcome["fault"])
    if "error" in outcome:
        raise InputError(f"{where}: cannot play the match again ({outcome['error']})")
    _same(outcome["result"], match, where)
    target = Path(db).parent / "replays" / f"{match['id']}.json.gz"
    try:
        write_kept(target, outcome["replay"])
    except OSError as exc:
        raise InputError(f"{target}: cannot write the replay ({exc.strerror})") from None
    return target


def checked_record(record: object, where: str, cpu_limit: float | None = None,
                   memory_mb: int | None = None) -> dict[str, Any]:
    """The record of a stored match, checked against what an honest one holds; its limits
    within the game's (with the reader's `cpu_limit`/`memory_mb`). Anything else is an
    InputError naming `where` and the field."""
    def bad(problem: str) -> InputError:
        return InputError(f"{where}: the results file's record of this match is not one "
                          f"arena writes ({problem}); it cannot be replayed")

    def text(value: object, most: int = _PATH_CHARS) -> bool:
        # no NUL, newline or terminal escape: each is shown in an error line as it is
        return isinstance(value, str) and 0 < len(value) <= most and shown(value) == value

    def digest(value: object) -> bool:
        return isinstance(value, str) and len(value) == 64 and set(value) <= _SHA256

    if not isinstance(record, dict):
        raise bad("not an object")
    keys = set(record)
    if not _RECORD_KEYS <= keys or keys - _RECORD_KEYS - {"scratch"}:
        raise bad("its fields are " + ", ".join(sorted(shown(k)[:20] for k in keys))[:200])
    game = GAMES.get(record["game"]) if isinstance(record["game"], str) else None
    if game is None:
        raise bad("game: not a game of this arena")
    if not arguments.ARGUMENTS["seed"].fits(record["seed"]):
        raise bad(f"seed: must be {arguments.ARGUMENTS['seed'].rule()}")
    if not (text(record["map_name"], 255) and Path(record["map_name"]).name
            == record["map_name"]):
        raise bad("map_name: must be a file's name")
    if not text(record["map_path"]):
        raise bad("map_path: must be a path")
    if not digest(record["map_sha256"]):
        raise bad("map_sha256: must be 64 hexadecimal digits")
    bots = record["bots"]
    if not isinstance(bots, list) or not 1 <= len(bots) <= _MOST_BOTS:
        raise bad(f"bots: must be a list of 1 to {_MOST_BOTS}")
    for i, bot in enumerate(bots):
        # A bot's name is its own text (`name = '<b>\x1b[31m'` is a name), never shown
        # in an error line here: it is any short text, escaped where it is shown.
        if not (isinstance(bot, dict) and set(bot) == _BOT_KEYS and text(bot["path"])
                and text(bot["file"]) and isinstance(bot["name"], str)
                and 0 < len(bot["name"]) <= 200 and digest(bot["sha256"])):
            raise bad(f"bots[{i}]: must be a bot's path, file, name and sha256")
    rules = record["rules"]
    if not (isinstance(rules, dict) and isinstance(rules.get("preset"), str)
            and all(isinstance(k, str) for k in rules)):
        raise bad("rules: must be a preset and its rules")
    try:
        game.rules(rules["preset"], **{k: v for k, v in rules.items() if k != "preset"})
    except InputError as exc:
        raise bad(f"rules: {exc}") from None
    scratch = record.get("scratch")
    if scratch is not None and not (isinstance(scratch, list) and len(scratch) == len(bots)
                                    and all(scratch_fits(s) for s in scratch)):
        raise bad(f"scratch: must be one object per bot, each a bot's scratch files (at most "
                  f"{SCRATCH_BYTES} bytes, names and contents) in base64")
    allowed = game_limits(game, cpu_limit, memory_mb)
    problem = looser(record["limits"], allowed)
    if problem is not None and "looser" in problem:
        raise InputError(f"{where}: the match was played with looser limits than this replay "
                         f"allows ({problem}): give --cpu-limit or --memory-mb as the run did "
                         f"to replay it with them")
    if problem is not None:
        raise bad(f"limits: {problem}")
    record["limits"] = filled(record["limits"], allowed)
    return record


def _spec(record: dict[str, Any], where: str,
          files_in: tuple[Path, ...] | None = None) -> MatchSpec:
    """The spec of a recorded match (as `checked_record` passed it), its map and bots read
    again from their files, each checked against the sha256 it had; with `files_in`, only
    files under those folders (a bundled map anywhere)."""
    map_path = Path(record["map_path"])
    if files_in is not None:
        bundled = tuple(Path(os.path.realpath(game.maps_dir)) for game in GAMES.values())
        for named in [record["map_path"], *(bot["file"] for bot in record["bots"])]:
            if not _within(named, (*files_in, *bundled)):
                raise InputError(f"{where}: {shown(named)} lies outside the folders whose "
                                 f"files this reader reads; it cannot be replayed here")
    map_bytes = _read(map_path, "map", where)
    if hashlib.sha256(map_bytes).hexdigest() != record["map_sha256"]:
        raise InputError(f"{where}: the map {map_path} changed since the match was played "
                         f"(sha256 differs); it cannot be replayed exactly")
    bots = []
    for bot in record["bots"]:
        source = _read(Path(bot["file"]), "bot", where)
        if hashlib.sha256(source).hexdigest() != bot["sha256"]:
            raise InputError(f"{where}: the bot {bot['file']} changed since the match was "
                             f"played (sha256 differs); it cannot be replayed exactly")
        bots.append(BotFile(bot["path"], source, bot["sha256"], bot["name"]))
    try:
        map_text = map_bytes.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{map_path}: cannot read the map (not UTF-8 text)") from None
    game = GAMES[record["game"]]
    rules = dict(record["rules"])
    scratch = record.get("scratch")
    return MatchSpec(game.name, map_path, bots, record["seed"],
                     game.rules(rules.pop("preset"), **rules), limits=Limits(**record["limits"]),
                     sandbox=record["sandbox"], map_text=map_text, replay=True,
                     scratch=None if scratch is None else [scratch_files(s) for s in scratch])


def _within(named: str, folders: tuple[Path, ...]) -> bool:
    """Whether the file `named`, resolved, lies under one of `folders` (resolved)."""
    real = Path(os.path.realpath(named))
    return any(real.is_relative_to(folder) for folder in folders)


def _read(path: Path, what: str, where: str) -> bytes:
    """A file the record names, read as a regular file of a bounded size: the record may
    name /dev/zero or a FIFO (read as it is, one would never end, or run memory out)."""
    try:
        return regular_bytes(path, MAX_MAP_BYTES if what == "map" else _BOT_BYTES,
                             f"a {what}")
    except OSError as exc:
        state = "is missing" if isinstance(exc, FileNotFoundError) else "cannot be read"
        raise InputError(f"{where}: the {what} {shown(path)} {state} ({exc.strerror}); it "
                         f"cannot be replayed") from None


def _same(result: MatchData, stored: StoredMatch, where: str) -> None:
    """A match played again must end as it was stored: else it is not that match."""
    def ending(match: Mapping[str, Any]) -> tuple[Any, ...]:
        return (match["turns"], sorted((p["seat"], p["rank"], p["status"])
                                       for p in match["players"]))
    if ending(result) != ending(stored):
        raise InputError(f"{where}: played again, the match ended differently (turn "
                         f"{result['turns']}, not {stored['turns']}, or other ranks): a bot "
                         f"reads the clock or ran near its time limit; it cannot be "
                         f"replayed exactly")
