"""The replay of a stored match (`arena replay DB:MATCH_ID`, `ResultsStore.replay()`).

Where the batch kept replays (`--replays`), that file. Otherwise the match is played again
from its record: a match is a pure function of map, bots, seed, rules and limits, and the
store keeps all of them (the map and each bot by path and sha256, the rest as values).
A bot or map file that is missing or changed since (its sha256 differs) is refused, and a
match played again must end as the stored one did (turns, every seat's rank and status),
or it is refused too: a bot that reads the clock, or one near its time limit, can play
differently twice. The replay made is kept beside the results file, where a batch with
`--replays` puts its own, so the next `arena replay` of it opens that file.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable

from engine import InputError
from orchestrator import execute, given_path
from orchestrator.service.batch import write_whole
from orchestrator.service.matchups import Kept
from orchestrator.service.results import open_results
from orchestrator.store import Store


def stored_ref(text: str) -> tuple[Path, str] | None:
    """`DB:MATCH_ID` as (results file, id or a prefix of it), when `text` is no file
    itself and its part before the last ':' is one; else None (a replay file's path)."""
    if given_path.is_file(text) or ":" not in text:
        return None
    db, _, match_id = text.rpartition(":")
    if not db or not given_path.is_file(db):
        return None
    return Path(db), match_id


def chosen_match(store: Store, match_id: str) -> dict:
    """The one match whose id starts with `match_id`."""
    found = store.match_ids(match_id) if match_id else []
    if len(found) != 1:
        raise InputError(f"{store.path}:{match_id}: " + (
            "no match has this id" if not found else "more than one match starts so: give "
            "more of the id"))
    return store.match(found[0])


def replay_path(db: Path, match_id: str, told: Callable[[str], None] = lambda _: None) -> Path:
    """The replay file of a stored match: the one kept, else one made by playing the match
    again from its record (`told` hears that it is being played)."""
    store = open_results(db)
    try:
        match = chosen_match(store, match_id)
        kept = Kept(store.path).file(match)
        if kept is not None:
            return kept
        record = store.inputs(match["id"])
    finally:
        store.close()
    where = f"{db}:{match['id']}"
    if record is None:
        raise InputError(f"{where}: the results file does not record what this match was "
                         f"played from (it was played before arena kept that): run the batch "
                         f"again with --replays")
    spec = _spec(record, where)
    told(f"replaying {where} from its record (seed {record['seed']})")
    outcome = execute.play_planned(spec)
    if "error" in outcome:
        raise InputError(f"{where}: cannot play the match again ({outcome['error']})")
    _same(outcome["result"], match, where)
    target = Path(db).parent / "replays" / f"{match['id']}.json.gz"
    try:
        write_whole(target, outcome["replay"])
    except OSError as exc:
        raise InputError(f"{target}: cannot write the replay ({exc.strerror})") from None
    return target


def _spec(record: dict, where: str) -> dict:
    """The planned spec of a recorded match, its map and bots read again from their
    files, each checked against the sha256 it had."""
    map_path = Path(record["map_path"])
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
        bots.append({key: value for key, value in bot.items() if key != "file"}
                    | {"source": source})
    try:
        map_text = map_bytes.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{map_path}: cannot read the map (not UTF-8 text)") from None
    return record | {"map_text": map_text, "bots": bots, "replay": True}


def _read(path: Path, what: str, where: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"{where}: the {what} {path} is missing ({exc.strerror}); it cannot "
                         f"be replayed") from None


def _same(result: dict, stored: dict, where: str) -> None:
    """A match played again must end as it was stored: else it is not that match."""
    def ending(match: dict) -> tuple:
        return (match["turns"], sorted((p["seat"], p["rank"], p["status"])
                                       for p in match["players"]))
    if ending(result) != ending(stored):
        raise InputError(f"{where}: played again, the match ended differently (turn "
                         f"{result['turns']}, not {stored['turns']}, or other ranks): a bot "
                         f"reads the clock or ran near its time limit; it cannot be "
                         f"replayed exactly")
