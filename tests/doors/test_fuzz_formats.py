"""A reader of untrusted data refuses; it never crashes. Each format read from
a bot, a jail or a file is fed 10,000 mutants of the project's own samples (a short
match's replay per game, with its bots' debug marks; the positions saved from them; every
bundled scenario; a results file made by `arena batch`; a challenge to a ladder), made by
the seeded mutator of tests/support/mutate.py: oversized values, deep nesting, NaN and
Infinity, Unicode digits as keys and values, out-of-range numbers, wrong types, missing
and extra keys, bool for int. Each mutant is a value or the format's one refusal (an
InputError: one `error:` line; `debug.Bad`; a 4xx answer), never another exception; a
replay the reader takes is drawn, paged and played again without one.

The same seeds give the same mutants on every machine. A match jail's result and replay
are fuzzed through the jail's check itself, without the catch-all around it.
"""
from __future__ import annotations

import copy
import dataclasses
import json
import shutil
import sqlite3
import subprocess
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from engine import InputError
from orchestrator.api.types import Replay
from orchestrator.games import GAMES
from orchestrator.replay import debug, position, reader
from orchestrator.replay import file as replay_file
from orchestrator.results.store import Store
from orchestrator.runner import jail_result
from orchestrator.runner.bots import read_bot, unique_names
from orchestrator.runner.match import MatchSpec, run_match
from orchestrator.service.scenario import scenario_json
from orchestrator.service.stored_replay import checked_record
from orchestrator.views import replay as replay_view
from tests.support.mutate import as_json, mutants, text_mutants
from tests.support.paths import ARENA_CMD, ROOT

MUTATIONS = 10_000               # per format
GAME_NAMES = ["arena", "robotgame", "cave", "race"]
PER_GAME = MUTATIONS // len(GAME_NAMES)
THINKERS = ROOT / "tests" / "marks" / "bots"         # bots that leave debug marks
SMALL_MAPS = {"arena": ROOT / "maps" / "arena" / "tiny.txt"}
SMALL_RULES = {"arena": {"robots_per_type": 4}}      # a replay of a few KiB, as the others


def _recorded(game_name: str) -> dict[str, Any]:
    """A 3-turn match of the game's thinker (it marks and notes) against its first
    sample, in-process, as its replay holds it (with its answers: positions come from it)."""
    game = GAMES[game_name]
    samples = [p for p in game.demo_lineup(on_skip=lambda _: None) if p.suffix == ".py"]
    spec = MatchSpec(game_name, SMALL_MAPS.get(game_name) or game.find_map(None),
                     [read_bot(THINKERS / f"{game_name}.py"), read_bot(samples[0])], 5,
                     game.rules(game.presets[0], max_turns=3,
                                **SMALL_RULES.get(game_name, {})), None, "off")
    replays: list[dict[str, Any]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # --sandbox off's note on PYTHONHASHSEED
        run_match(spec, replays=replays)
    data = json.loads(replay_file.encode(replays[0]) and json.dumps(replays[0]))
    assert debug.SECTION in data and "setup" in data, sorted(data)
    return data


_REPLAYS: dict[str, dict[str, Any]] = {}


def recorded(game_name: str) -> dict[str, Any]:
    if game_name not in _REPLAYS:
        _REPLAYS[game_name] = _recorded(game_name)
    return _REPLAYS[game_name]


class Tally:
    """How many mutants a door took and refused; the first exception of another kind
    fails the test with the mutant's start."""

    def __init__(self) -> None:
        self.taken = self.refused = 0

    def run(self, refusal: type[BaseException] | tuple[type[BaseException], ...], what: Any,
            door: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
        """(whether `door(*args)` took the mutant `what`, what it gave)."""
        try:
            value = door(*args)
        except refusal:
            self.refused += 1
            return False, None
        except Exception as exc:
            text = what if isinstance(what, bytes) else as_json(what)
            raise AssertionError(f"{type(exc).__name__}: {str(exc)[:200]} on the mutant "
                                 f"{text[:300]!r}") from exc
        self.taken += 1
        return True, value

    def check(self, count: int) -> None:
        print(f"{count:,} mutants: {self.taken:,} taken, {self.refused:,} refused")  # -rP
        assert self.taken + self.refused == count
        assert self.refused > count // 4 and self.taken > 0, (self.taken, self.refused)


# -- replays ----------------------------------------------------------------------------------
def shown_everywhere(data: dict[str, Any]) -> None:
    """What every reader of a replay does with one the reader took: the terminal's last
    frame (a frame its game cannot draw is the view's InputError), the page, the API's
    value, and the position at its end (an InputError where it cannot be played again)."""
    frames = replay_file.Frames(data)
    try:
        replay_view.drawn(Path("f"), data, frames, len(frames) - 1, False,
                          replay_view.Look(keys=False, robot=0))
    except InputError:
        pass
    replay_view.page(data)
    Replay.from_dict(data)
    try:
        position.from_replay(data, len(data["turns"]), "f")
    except InputError:
        pass


@pytest.mark.long                # 2,500 replays read, a quarter drawn and played again
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_replay_is_shown_or_refused_whatever_it_holds(game) -> None:
    sample = recorded(game)
    texts: Iterator[bytes] = (as_json(m) for m in mutants(sample, 50, PER_GAME * 4 // 5))
    tally = Tally()
    shown = Tally()
    for text in [*texts, *text_mutants(as_json(sample), 51, PER_GAME // 5)]:
        taken, data = tally.run(InputError, text, reader.checked, text, "fuzz.json.gz")
        if taken:
            shown.run((), text, shown_everywhere, data)
    tally.check(PER_GAME)
    assert shown.taken == tally.taken


def test_a_debug_section_is_kept_or_refused_whatever_it_holds() -> None:
    """The section alone, in-process: as a replay's reader checks it, and as a match jail's
    (whose section may be keyed by integers: `_respelled` makes them)."""
    tally = Tally()
    for k, game in enumerate(GAME_NAMES):
        data = recorded(game)
        board = data["map"]
        side = (board.get("width", board["size"]), board.get("height", board["size"]))
        turns = {entry["turn"] for entry in data["turns"]}

        def kept(section: Any, data: dict[str, Any], turns: set[int],
                 side: tuple[int, int]) -> None:
            debug.check(section, len(data["seats"]), turns, side)
            marked = {**data, debug.SECTION: section}
            for turn in range(len(data["turns"]) + 1):
                found = replay_view.turn_marks(marked, turn)
                replay_view.marked_squares(found)
                replay_view.marks_text(marked, found, robot=0)
            debug.only(marked, {0})

        for section in mutants(data[debug.SECTION], 60 + k, PER_GAME):
            tally.run(debug.Bad, section, kept, section, data, turns, side)
    tally.check(MUTATIONS)


# -- positions --------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_position_is_read_or_refused_whatever_it_holds(game) -> None:
    sample = json.loads(json.dumps(position.from_replay(recorded(game), 2, "fuzz")))
    position.check(copy.deepcopy(sample), "fuzz.json")
    tally = Tally()
    in_process, as_text = PER_GAME * 3 // 5, PER_GAME // 5
    for data in mutants(sample, 70, in_process):
        tally.run(InputError, data, position.check, data, "fuzz.json")
    texts = [as_json(m) for m in mutants(sample, 71, as_text)]
    for text in [*texts, *text_mutants(as_json(sample), 72, PER_GAME - in_process - as_text)]:
        tally.run(InputError, text, decoded_position, text)
    tally.check(PER_GAME)


def decoded_position(text: bytes) -> dict[str, Any]:
    return position.check(reader._decoded(text, "fuzz.json", "position"), "fuzz.json")


# -- scenarios --------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_scenario_is_played_or_refused_whatever_it_holds(game) -> None:
    """The game's own reader, strict: not even the command's last resort ("the engine
    cannot play this scenario") is needed for a value of the wrong type or spelling."""
    found = GAMES[game]
    assert found.scenario is not None
    samples = [json.loads(path.read_text()) for path in found.bundled_scenarios()]
    assert samples
    tally = Tally()
    for k, sample in enumerate(samples):
        count = PER_GAME // len(samples) + (k < PER_GAME % len(samples))
        for text in (as_json(m) for m in mutants(sample, 80 + k, count)):
            tally.run(InputError, text, scenario_of, found, text)
    tally.check(PER_GAME)


def scenario_of(found: Any, text: bytes) -> Any:
    return found.scenario(scenario_json(text, "s.json"), "s.json")


# -- a results file ---------------------------------------------------------------------------
def stored(value: Any) -> Any:
    """What SQLite gives back for `value` written to a column of no type: NaN as NULL, a
    bool as 0 or 1, text and 64-bit integers and floats as they are; what it cannot hold
    (a list, an integer past 64 bits) as its JSON text. (Text that is not UTF-8 refuses
    the whole file: `test_text_that_is_not_utf8_is_one_error_line`; a lone surrogate
    stands for it here as the character that replaces it.)"""
    if value is None or type(value) is float and value != value:
        return None
    if type(value) is bool:
        return int(value)
    if type(value) is int and -1 << 63 <= value < 1 << 63 or type(value) is float:
        return value
    if type(value) is str:
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return stored(as_json(value).decode("utf-8", "surrogatepass"))


JSON_COLUMNS = ("stats", "penalties")
RUN_COLUMNS = ("id", "kind", "game", "created", "args", "planned", "finished")


def as_rows(record: dict[str, Any]) -> dict[str, Any]:
    """A match record as `Store` reads it, its JSON columns parsed (so that mutants reach
    into them)."""
    players = [{key: json.loads(value) if key in JSON_COLUMNS and isinstance(value, str)
                else value for key, value in player.items()} for player in record["players"]]
    return {**record, "players": players}


def as_read(rows: Any, sample: dict[str, Any]) -> dict[str, Any]:
    """Mutated rows as the store hands them to its check: every column there (one the
    mutant dropped is NULL), each value as SQLite keeps it, the JSON columns as text; the
    players are whatever rows the mutant holds."""
    rows = rows if isinstance(rows, dict) else {}
    record = {key: stored(rows.get(key)) for key in sample if key != "players"}
    players = rows.get("players") if isinstance(rows.get("players"), list) else []
    # Past 300 rows a match is refused from its count alone (at most 256 players): 300
    # stand for any more, which a forged file may hold.
    record["players"] = [_player_read(player, sample["players"][0]) for player in players[:300]]
    return record


def _player_read(player: Any, columns: dict[str, Any]) -> dict[str, Any]:
    player = player if isinstance(player, dict) else {}
    read = {}
    for key in columns:
        value = player.get(key)
        if key in JSON_COLUMNS and value is not None and not isinstance(value, str):
            value = as_json(value).decode("utf-8", "surrogatepass")
        read[key] = stored(value)
    return read


@pytest.fixture(scope="module")
def results_file(tmp_path_factory) -> Path:
    """A results file of two short Robot Game matches, as `arena batch` writes it."""
    folder = tmp_path_factory.mktemp("fuzz_results")
    sample_bot = ROOT / "bots" / "robotgame" / "example.py"
    shutil.copy(THINKERS / "robotgame.py", folder / "thinker.py")
    done = subprocess.run(ARENA_CMD + ["batch", "thinker.py", str(sample_bot), "--game",
                                       "robotgame", "--seeds", "2", "--max-turns", "3",
                                       "--db", "fuzz.sqlite"],
                          cwd=folder, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return folder / "fuzz.sqlite"


def test_a_results_files_records_are_read_or_refused_whatever_they_hold(results_file) -> None:
    store = Store(results_file)
    try:
        raw: list[dict[str, Any]] = []
        checked = store._checked
        store._checked = lambda match: raw.append(copy.deepcopy(match)) or checked(match)
        (run,) = store.runs()
        matches = list(store.iter_matches(run["id"]))
        store._checked = checked
        runs = [tuple(row) for row in store.db.execute(
            "SELECT id, kind, game, created, args, planned, 2 FROM runs")]   # RUN_COLUMNS
        inputs = [store.inputs(match["id"]) for match in matches]
        assert len(raw) == 2 and all(inputs), (len(raw), inputs)

        tally = Tally()
        counts = {"matches": MUTATIONS * 3 // 5, "runs": MUTATIONS // 5,
                  "inputs": MUTATIONS - MUTATIONS * 4 // 5}
        sample = raw[0]
        for rows in mutants(as_rows(sample), 90, counts["matches"]):
            tally.run(InputError, rows, lambda rows: checked(as_read(rows, sample)), rows)
        parsed = {**dict(zip(RUN_COLUMNS, runs[0], strict=True)),
                  "args": json.loads(runs[0][4])}
        for row in mutants(parsed, 91, counts["runs"]):
            row = row if isinstance(row, dict) else {}
            args = row.get("args")
            values = [stored(row.get(key) if key != "args" or args is None else
                             as_json(args).decode("utf-8", "surrogatepass"))
                      for key in RUN_COLUMNS[:-1]]
            tally.run(InputError, row, store._run_row, *values, 2)
        # A match's record of what it was played from, read back through the store.
        match_id = matches[0]["id"]
        where = f"{results_file}:{match_id}"
        for record in mutants(inputs[0], 92, counts["inputs"]):
            store.db.execute("UPDATE inputs SET spec = ? WHERE match_id = ?",
                             (stored(as_json(record).decode("utf-8", "surrogatepass")),
                              match_id))
            tally.run(InputError, record, lambda: checked_record(store.inputs(match_id), where))
        tally.check(MUTATIONS)
    finally:
        store.close()


def test_text_that_is_not_utf8_is_one_error_line(results_file, tmp_path) -> None:
    """sqlite3 raised OperationalError ("Could not decode to UTF-8") out of every command
    that read such a row: a traceback."""
    forged = tmp_path / "forged.sqlite"
    shutil.copy(results_file, forged)
    with sqlite3.connect(forged) as db:
        db.execute("UPDATE participants SET name = CAST(X'ff80' AS TEXT) WHERE seat = 0")
    for args in (["--matrix"], ["--export", "csv", "--out", str(tmp_path / "out.csv")]):
        done = subprocess.run(ARENA_CMD + ["results", str(forged), *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 2 and done.stderr.startswith("error: "), done.stderr
        assert done.stderr.count("\n") == 1 and "not UTF-8" in done.stderr, done.stderr


# -- a ladder's challenge ---------------------------------------------------------------------
@pytest.mark.long                # 10,000 requests through the app: about a minute
def test_a_ladders_challenge_is_taken_or_refused_whatever_its_body_holds(tmp_path,
                                                                         monkeypatch) -> None:
    """Through the app (the body's JSON, then the ladder's check): 202 or a 4xx answer
    naming the error, never a 500. The limits on how many a token sends are lifted, so
    that every body reaches the check."""
    pytest.importorskip("fastapi", reason="the ladder server needs the server extra")
    from fastapi.testclient import TestClient

    from orchestrator.options import LadderSettings
    from orchestrator.web.ladder import service
    from orchestrator.web.ladder.app import create_app

    monkeypatch.setattr(service, "CHALLENGES_PENDING", 1 << 30)
    ladder = service.Ladder(tmp_path / "ladder.sqlite", LadderSettings(games=["robotgame"],
                                                                       challenge_queue=1 << 30,
                                                                       challenge_rate=1 << 30))
    source = (ROOT / "bots" / "robotgame" / "example.py").read_bytes()
    made = [ladder.add_bot("robotgame", name, ladder.submission("robotgame", name, "bot.py",
                                                                source),
                           {"ok": True, "reason": "", "decisions": 1})
            for name in ("alice", "bob", "carol")]
    sample = {"bots": [made[0]["id"], made[1]["id"]]}
    headers = {"authorization": f"Bearer {made[0]['token']}",
               "content-type": "application/json"}
    tally = Tally()
    try:
        with TestClient(create_app(ladder, run=False), raise_server_exceptions=False) as client:
            def sent(body: bytes) -> None:
                answer = client.post("/api/challenges", content=body, headers=headers)
                if answer.status_code != 202:
                    assert 400 <= answer.status_code < 500 and answer.json()["error"], \
                        (answer.status_code, answer.text[:300])
                    raise LookupError(answer.status_code)      # refused

            bodies = [as_json(m) for m in mutants(sample, 100, MUTATIONS * 4 // 5)]
            for body in [*bodies, *text_mutants(as_json(sample), 101, MUTATIONS // 5)]:
                tally.run(LookupError, body, sent, body)
    finally:
        ladder.store.close()
    tally.check(MUTATIONS)


# -- a match jail's result --------------------------------------------------------------------
def jail_sample() -> tuple[dict[str, Any], list[Any], list[str]]:
    """A Robot Game match's result and replay as a match jail hands them over (its players'
    fields, its bots by file name), with the bots and names the host checks them against:
    the unchanged sample is taken."""
    game = GAMES["robotgame"]
    bots = [read_bot(THINKERS / "robotgame.py"), read_bot(ROOT / "bots/robotgame/example.py")]
    spec = MatchSpec("robotgame", game.find_map(None), bots, 5,
                     game.rules(game.presets[0], max_turns=3), None, "off")
    replays: list[dict[str, Any]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # --sandbox off's note on PYTHONHASHSEED
        result = run_match(spec, replays=replays)
    told = [dataclasses.replace(bot, path=Path(bot.path).name) for bot in bots]
    result = json.loads(json.dumps(result))
    result["players"] = [{**{key: p[key] for key in jail_result.PLAYER_FIELDS},
                          "bot": Path(p["bot"]).name} for p in result["players"]]
    replay = json.loads(json.dumps(replays[0]))
    replay["players"] = [{**p, "bot": Path(p["bot"]).name} for p in replay["players"]]
    names = unique_names([bot.name for bot in bots], [bot.path for bot in bots])
    return {"result": result, "replay": replay}, told, names


def test_a_jails_result_is_taken_or_refused_whatever_it_holds() -> None:
    """The jail's check itself (not its catch-all, `refusal`): every mutant is taken or
    refused with a reason, never an exception."""
    sample, bots, names = jail_sample()

    def judged(both: Any) -> None:
        why, _ = jail_result._refusal(both.get("result"), both.get("replay"), game="robotgame",
                                      seed=5, max_turns=3, bots=bots, names=names,
                                      want_replay=True, output_bytes=64 << 10)
        if why is not None:
            raise Refused(why)

    assert judged(sample) is None
    tally = Tally()
    for both in mutants(sample, 70, MUTATIONS):
        tally.run(Refused, both, judged, both if isinstance(both, dict) else {})
    tally.check(MUTATIONS)


class Refused(Exception):
    """A jail's result the host does not take (the reason)."""
