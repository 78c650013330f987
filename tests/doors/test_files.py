"""A data file never decides how code runs: what a results, position or scenario
file holds picks no sandbox mode and loosens no limit, every rule and count it sets is
checked against the range the game allows, and whatever the engine cannot play of it is
one `error:` line naming the file (exit status 2), an InputError from the API, never a
traceback or a loop without end.

The attacks: a shared results file whose record says `"sandbox": "off"` (its bot ran in
the opener's own process, as root) or looser limits; forged records (seeds out of range,
NaN, nesting, sizes, unknown fields); a Robot Game position whose spawn generator is all
zeros (the spawn loop spun forever); positions with rules out of range (spawn_every 0,
attack_min over attack_max, charge_every 0) or a Race deck of only Spam; scenarios that
cost hours (10,000,000 Spam) or end in a traceback (charge_every 0).
"""
from __future__ import annotations

import copy
import json
import os
import random
import shutil
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from engine import InputError
from orchestrator import api
from orchestrator.replay import position as positions
from orchestrator.runner import execute
from orchestrator.runner.match import MatchSpec
from tests.conformance.matrix import folder
from tests.positions.support import lineup, load, recorded
from tests.support.cli import arena, one_error_line

TURNS = 8


# -- a results file's record: no sandbox mode, no looser limit -------------------------------
MARKER_BOT = '''"""Writes a marker file where it can (outside a sandbox), then stays put."""
name = "marker"
try:
    with open({marker!r}, "w") as file:
        file.write("ran outside the sandbox")
except OSError:
    pass


def step(view):
    return "."
'''


@pytest.fixture
def stored(tmp_path) -> tuple[Path, Path, str]:
    """One toy match of a marker bot against a sample, in a results file (no replay kept):
    the results file, the marker's path, and the match's id."""
    work = tmp_path / "work"
    shutil.copytree(folder("toy", "bots"), work / "bots")
    shutil.copy(folder("toy", "maps") / "plain.txt", work / "plain.txt")
    marker = tmp_path / "MARKER"
    (work / "bots" / "marker.py").write_text(MARKER_BOT.format(marker=str(marker)))
    db = work / "r.sqlite"
    done = arena("batch", "--game", "toy", "bots/marker.py", "bots/wanderer.py", "--map",
                 "plain.txt", "--seeds", "1", "--first-seed", "1", "--max-turns", str(TURNS),
                 "--workers", "1",
                 "--db", str(db), "--json", cwd=work, forked=True)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()                 # the batch ran it in the sandbox
    with sqlite3.connect(db) as conn:
        (match_id,) = conn.execute("SELECT match_id FROM inputs").fetchone()
    return db, marker, match_id


def forge(db: Path, change: Callable[[dict], Any]) -> None:
    """Edit the results file's record of its one match as a forger would."""
    with sqlite3.connect(db) as conn:
        record = json.loads(conn.execute("SELECT spec FROM inputs").fetchone()[0])
        changed = change(record)
        conn.execute("UPDATE inputs SET spec = ?", (
            changed if isinstance(changed, (str, bytes)) else json.dumps(record),))


def test_a_record_that_says_sandbox_off_plays_in_the_standard_mode_and_says_so(stored) -> None:
    """Before: the record's `"sandbox": "off"` ran the bot in the opener's own process (it
    wrote the marker), and nothing said so."""
    db, marker, match_id = stored
    forge(db, lambda record: record.update(sandbox="off"))
    done = arena("replay", f"{db}:{match_id}", "--turn", "1", forked=True)
    assert done.returncode == 0, done.stderr
    assert not marker.exists(), "the record's sandbox mode ran the bot outside the sandbox"
    assert f"replaying {db}:{match_id} from its record (seed 1), sandbox standard" \
        in done.stderr


def test_the_api_plays_a_record_in_the_mode_the_caller_chose(stored, monkeypatch) -> None:
    db, _, match_id = stored
    forge(db, lambda record: record.update(sandbox="off", limits=dict(
        record["limits"], memory_mb=256)))
    seen: list[MatchSpec] = []
    real = execute.play_planned
    monkeypatch.setattr(execute, "play_planned", lambda spec: seen.append(spec) or real(spec))
    api.open_store(db).replay(match_id)
    assert seen[-1].sandbox == "standard"
    assert seen[-1].limits.memory_mb == 256    # a tighter limit is the match's own
    (db.parent / "replays" / f"{match_id}.json.gz").unlink()
    api.open_store(db).replay(match_id, sandbox="strict")
    assert seen[-1].sandbox == "strict"


def test_replay_takes_sandbox_from_the_one_table_of_modes(stored) -> None:
    db, _, match_id = stored
    for mode in ("nope", "match:inside"):
        one_error_line(arena("replay", f"{db}:{match_id}", "--sandbox", mode, forked=True),
                       f"unknown --sandbox mode {mode!r} (choose from: standard")
    with pytest.raises(InputError, match="unknown --sandbox mode 'nope'"):
        api.open_store(db).replay(match_id, sandbox="nope")
    one_error_line(arena("replay", f"{db}:{match_id}", "--cpu-limit", "0", forked=True),
                   "--cpu-limit 0: must be a number greater than 0")


def test_a_record_with_looser_limits_is_refused_unless_the_reader_gives_them(stored) -> None:
    """Before: the recorded limits (any cpu, any memory) were taken as they were."""
    db, _, match_id = stored
    forge(db, lambda record: record["limits"].update(cpu_per_call_s=3600.0))
    one_error_line(arena("replay", f"{db}:{match_id}", forked=True), f"{db}:{match_id}",
                   "looser limits than this replay allows (cpu_per_call_s 3600 is looser "
                   "than 1)", "--cpu-limit")
    done = arena("replay", f"{db}:{match_id}", "--cpu-limit", "3600", "--turn", "1", forked=True)
    assert done.returncode == 0 and "sandbox standard" in done.stderr, done.stderr


def test_a_record_made_before_the_own_time_limits_replays_under_the_games_own(stored) -> None:
    """A match recorded before own_per_turn_s and own_bank_s existed is played again with
    the game's (sandbox/limits.py, `filled`); a record with a looser bank is refused."""
    db, _, match_id = stored

    def made_before(record: dict) -> None:
        del record["limits"]["own_per_turn_s"]
        record["limits"]["own_bank_s"] = 1e9
    forge(db, made_before)
    one_error_line(arena("replay", f"{db}:{match_id}", forked=True), f"{db}:{match_id}",
                   "looser limits than this replay allows (own_bank_s 1e+09 is looser "
                   "than 150)")
    forge(db, lambda record: record["limits"].pop("own_bank_s"))
    done = arena("replay", f"{db}:{match_id}", "--turn", "1", forked=True)
    assert done.returncode == 0, done.stderr


FORGED_RECORDS: dict[str, tuple[Callable[[dict], Any], str]] = {
    "a negative seed": (lambda r: r.update(seed=-1), "seed: must be a whole number"),
    "a 70-bit seed": (lambda r: r.update(seed=1 << 70), "seed: must be a whole number"),
    "a seed that is text": (lambda r: r.update(seed="1"), "seed: must be"),
    "an unknown game": (lambda r: r.update(game="chess"), "game: not a game"),
    "an unknown field": (lambda r: r.update(run_as="root"), "its fields are"),
    "no limits": (lambda r: r.pop("limits"), "its fields are"),
    "a NaN limit": (lambda r: r["limits"].update(cpu_bank_s=float("nan")),
                    "the limit cpu_bank_s is not a number above zero"),
    "a negative limit": (lambda r: r["limits"].update(tasks=-1),
                         "the limit tasks is not a whole number above zero"),
    "a limit of no such name": (lambda r: r["limits"].update(nice=-20),
                                "no limit is named 'nice'"),
    "a huge memory cap": (lambda r: r["limits"].update(memory_mb=1 << 80),
                          "memory_mb (a 81-bit number) is looser than 512"),
    "rules out of range": (lambda r: r["rules"].update(max_turns=0),
                           "rule 'max_turns' must be a whole number from 1"),
    "a map name with a folder": (lambda r: r.update(map_name="../../etc/passwd"),
                                 "map_name: must be a file's name"),
    "a bot digest that is no digest": (lambda r: r["bots"][0].update(sha256="x"),
                                       "bots[0]: must be"),
    "a bot path with a NUL": (lambda r: r["bots"][0].update(file="/tmp/a\0b"),
                              "bots[0]: must be"),
    "a bot path with a newline and an escape": (
        lambda r: r["bots"][0].update(file="/tmp/a\nerror: all fine\x1b[2J"),
        "bots[0]: must be"),
    "1,000 bots": (lambda r: r.update(bots=r["bots"] * 500), "bots: must be a list of 1"),
    "a scratch of 1 MiB": (lambda r: r.update(scratch=[{"f": "QUFB" * 200_000}, {}]),
                           "scratch: must be one object per bot"),
    "lists nested 100,000 deep": (lambda r: "[" * 100_000 + "]" * 100_000,
                                  "is not one arena writes"),
    "a record of 2 MiB": (lambda r: json.dumps(r | {"pad": " " * (2 << 20)}),
                          "not text of at most 1048576 bytes"),
    "a record that is a blob": (lambda r: json.dumps(r).encode(), "not text"),
}


@pytest.mark.parametrize("label", FORGED_RECORDS)
def test_each_forged_record_is_one_input_error_naming_the_match(label, stored) -> None:
    db, marker, match_id = stored
    change, said = FORGED_RECORDS[label]
    forge(db, change)
    with pytest.raises(InputError) as caught:
        api.open_store(db).replay(match_id)
    message = str(caught.value)
    assert message.startswith(f"{db}:{match_id}: ") and said in message, message
    assert "\n" not in message and len(message) < 500
    assert not marker.exists()


def test_a_forged_record_is_one_error_line_from_the_command(stored) -> None:
    db, _, match_id = stored
    forge(db, lambda r: "[" * 100_000 + "]" * 100_000)
    one_error_line(arena("replay", f"{db}:{match_id}", forked=True), f"{db}:{match_id}",
                   "is not one arena writes")


# -- positions: generators and rules checked for meaning -------------------------------------
@pytest.fixture(scope="module")
def good(tmp_path_factory) -> dict[str, dict]:
    """A real position of each game the attacks edit."""
    where = str(tmp_path_factory.mktemp("replays"))
    made = {}
    for name in ("arena", "robotgame", "race"):
        path, _ = recorded(name, where)
        made[name] = positions.from_replay(load(path), 3, str(path))
    return made


def _zero_generator(data: dict) -> None:
    data["state"]["spawn_rng"][1] = [0] * 624 + [624]


def _only_spam(data: dict) -> None:
    data["state"]["decks"][0] = ["Sp"] * 30


POSITIONS: dict[str, tuple[str, Callable[[dict], None], str]] = {
    "a spawn generator of all zeros": ("robotgame", _zero_generator,
                                       "state.spawn_rng: not a random generator's state"),
    "spawn_every 0": ("robotgame", lambda d: d["rules"].update(spawn_every=0),
                      "rule 'spawn_every' must be a whole number from 1"),
    "attack_min over attack_max": ("robotgame", lambda d: d["rules"].update(attack_min=11),
                                   "rule 'attack_min' is over 'attack_max'"),
    "a robot hp past 16 bits": ("robotgame", lambda d: d["rules"].update(robot_hp=40_000),
                                "rule 'robot_hp' must be a whole number from 1 to 32767"),
    "charge_every 0": ("arena", lambda d: d["rules"].update(charge_every=0),
                       "rule 'charge_every' must be a whole number from 1"),
    "robots_per_type 0": ("arena", lambda d: d["rules"].update(robots_per_type=0),
                          "rule 'robots_per_type' must be"),
    "max_turns of 70 bits": ("race", lambda d: d["rules"].update(max_turns=1 << 70),
                             "rule 'max_turns' must be a whole number from 1 to 1000000, not "
                             "a 71-bit integer"),
    "a Race deck of only Spam": ("race", _only_spam,
                                 "state.decks[0]: must hold the 20 cards of a bot's deck"),
}


def _position_file(tmp_path: Path, good: dict, label: str) -> tuple[Path, str]:
    game, change, _ = POSITIONS[label]
    data = copy.deepcopy(good[game])
    change(data)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(data))
    return path, game


@pytest.mark.parametrize("label", POSITIONS)
def test_each_position_out_of_range_is_one_input_error(label, good, tmp_path) -> None:
    """Before: each passed the checks, and playing it spun forever (the zero generator) or
    ended in a traceback (ZeroDivisionError, ValueError of randint, IndexError)."""
    path, _ = _position_file(tmp_path, good, label)
    with pytest.raises(InputError) as caught:
        positions.read(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and POSITIONS[label][2] in message, message


def test_a_generator_of_nan_given_to_the_api_is_refused(good) -> None:
    """A file's JSON holds no NaN (the reader refuses it); a dict given to the API may."""
    data = copy.deepcopy(good["robotgame"])
    data["state"]["attack_rng"][2] = float("nan")
    with pytest.raises(InputError, match=r"state.attack_rng: not a random generator's state "
                                         r"\(its gauss_next is not a finite number\)"):
        positions.check(data)


@pytest.mark.parametrize("label", ["a spawn generator of all zeros", "spawn_every 0",
                                   "a Race deck of only Spam", "charge_every 0"])
def test_arena_run_from_such_a_position_says_one_error_line(label, good, tmp_path) -> None:
    path, game = _position_file(tmp_path, good, label)
    one_error_line(arena("run", "--from", str(path), *map(str, lineup(game)), forked=True),
                   str(path),
                   POSITIONS[label][2])


class _Stuck(Exception):
    pass


def _alarm(signum, frame) -> None:
    raise _Stuck()


def test_the_spawn_loop_ends_whatever_its_generator_draws() -> None:
    """The loop the position's data drives is bounded in itself: a generator that draws
    only taken squares (here: always the first square) ends in an error, not a hang."""
    from engine.robotgame.game import RobotGame
    from engine.robotgame.mapfile import map_from_data
    from engine.robotgame.rules import rules_from

    board = map_from_data({"spawn": [[1, 1], [17, 17], [2, 1], [16, 17]], "obstacle": []},
                          "tiny", 19)
    game = RobotGame(board, ["a", "b"], 1, rules_from(spawn_per_player=2))

    class Stubborn(random.Random):
        def choice(self, seq):
            return seq[0]

    game.spawn_rng = Stubborn()
    before = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)                                 # a hang guard only
    started = time.process_time()
    try:
        with pytest.raises(RuntimeError, match="drew no free square"):
            game._spawn()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert time.process_time() - started < 5


def test_an_engine_failure_on_a_position_is_one_input_error(good, tmp_path,
                                                            monkeypatch) -> None:
    """Whatever the checks let through that the engine cannot play names the file."""
    from engine.robotgame.game import RobotGame

    path = tmp_path / "pos.json"
    path.write_text(json.dumps(good["robotgame"]))

    def broken(self, *args, **kwargs):
        raise ZeroDivisionError("integer division or modulo by zero")

    monkeypatch.setattr(RobotGame, "play_turn", broken)
    with pytest.raises(InputError) as caught:
        api.play(lineup("robotgame"), start=path, sandbox="off", progress=False)
    assert str(caught.value).startswith(f"{path}: the robotgame engine cannot play on from "
                                        f"this position (ZeroDivisionError: ")


# -- scenarios: every cost bounded, every failure one line -----------------------------------
SCENARIOS: dict[str, tuple[str, dict, str]] = {
    "10,000,000 Spam": ("race", {"bots": [{"id": "a", "x": 0, "y": 0, "d": "E",
                                            "spam": 10_000_000}],
                                  "rounds": [{"a": ["Sp", "Sp", "Sp", "Sp", "Sp"]}]},
                        "'spam' must be a count from 0 to 980"),
    "5,000 rounds": ("race", {"bots": [{"id": "a", "x": 0, "y": 0, "d": "E"}],
                              "rounds": [{}] * 5000}, "'rounds' must be a list of at most"),
    "a race seed of 70 bits": ("race", {"seed": 1 << 70}, "'seed' must be an integer from 0"),
    "charge_every 0": ("arena", {"map": ["   ", "   ", "   "], "rules": {"charge_every": 0},
                                 "robots": [{"id": "r", "ai": "a", "row": 0, "col": 0,
                                             "facing": "E"}], "moves": [{"r": "F"}] * 12},
                       "rule 'charge_every' must be a whole number from 1"),
    "2,001 arena turns": ("arena", {"map": ["   "], "robots": [
        {"id": "r", "ai": "a", "row": 0, "col": 0, "facing": "E"}], "moves": [{}] * 2001},
        "'moves' must be a list of at most 2000 turns"),
    "1,001 arena robots": ("arena", {"map": [" " * 100] * 11, "robots": [
        {"id": f"r{i}", "ai": "a", "row": i // 100, "col": i % 100, "facing": "E"}
        for i in range(1001)]}, "'robots' must be at most 1000 robots"),
    "a robot of life -5": ("arena", {"map": ["   ", "   ", "   "],
                                     "robots": [{"id": "r", "ai": "a", "row": 0, "col": 0,
                                                 "facing": "E", "life": -5}]},
                           "'life' must be an integer from 1"),
}


@pytest.mark.parametrize("label", SCENARIOS)
def test_each_costly_or_broken_scenario_is_one_error_line(label, tmp_path) -> None:
    """Before: the Spam one ran for hours (each Spam drawn leaves a deck of 10,000,000
    cards), charge_every 0 ended in a ZeroDivisionError traceback; 6,000 robots of one AI
    and 100,000 empty turns (800 KB) still ran after 60 s, which the arena bounds stop."""
    game, data, said = SCENARIOS[label]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=None) as caught:
        api.scenario(path, game=game)
    assert said in str(caught.value), str(caught.value)
    one_error_line(arena("scenario", str(path), "--game", game, timeout=60, forked=True),
                   str(path), said)


def test_an_engine_failure_on_a_scenario_is_one_input_error(tmp_path, monkeypatch) -> None:
    from engine.race.match import RaceMatch

    def broken(self, *args, **kwargs):
        raise IndexError("Cannot choose from an empty sequence")

    monkeypatch.setattr(RaceMatch, "play_round", broken)
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"bots": [{"id": "a", "x": 0, "y": 0, "d": "E"}],
                                "rounds": [{"a": ["M1", "M1", "M1", "M1", "M1"]}]}))
    with pytest.raises(InputError) as caught:
        api.scenario(path, game="race")
    assert str(caught.value) == (f"{path}: the race engine cannot play this scenario "
                                 f"(IndexError: Cannot choose from an empty sequence)")


def test_every_rule_range_is_stated_once_per_game() -> None:
    """Each game's integer rules each have a range in their rules class (RANGES): the one
    place positions, scenarios, records and the command line's overrides are checked."""
    import dataclasses

    from orchestrator.games import GAMES

    for name, game in GAMES.items():
        rules = game.rules(game.presets[0])
        for field in dataclasses.fields(rules):
            if type(getattr(rules, field.name)) is int:
                assert field.name in type(rules).RANGES, (name, field.name)


# -- what else a results file names: the files it points at, the rows it shows -------------
GIB = 1 << 30


def test_a_record_naming_a_device_or_a_fifo_is_one_error_line(stored, tmp_path) -> None:
    """Before: a record whose map is /dev/zero read until memory ran out (here: a
    MemoryError traceback under a 2 GiB cap), one whose bot is a FIFO waited forever."""
    db, marker, match_id = stored
    forge(db, lambda r: r.update(map_path="/dev/zero"))
    one_error_line(arena("replay", f"{db}:{match_id}", memory=2 * GIB, timeout=60),
                   f"{db}:{match_id}: the map /dev/zero cannot be read (not a regular file")
    fifo = tmp_path / "bot.fifo"
    os.mkfifo(fifo)
    forge(db, lambda r: r.update(map_path=str(db.parent / "plain.txt")) or
          r["bots"][0].update(file=str(fifo)))
    one_error_line(arena("replay", f"{db}:{match_id}", timeout=30, forked=True),
                   f"the bot {fifo} cannot be read (not a regular file")
    assert not marker.exists()


def test_a_fifo_planted_as_a_kept_replay_holds_up_no_reader(stored, tmp_path) -> None:
    """A FIFO at `replays/ID.json.gz` beside a results file someone else made: before,
    `arena replay DB:ID` and `arena publish` waited on it forever (a reader never writes
    to it). Now the kept replays are regular files only (the match is played again from
    its record), and a replay file that is a FIFO no one writes to reads as empty."""
    db, _, match_id = stored
    (db.parent / "replays").mkdir()
    fifo = db.parent / "replays" / f"{match_id}.json.gz"
    os.mkfifo(fifo)
    done = arena("replay", f"{db}:{match_id}", "--turn", "1", timeout=60)
    assert done.returncode == 0 and "from its record" in done.stderr, done.stderr
    os.unlink(fifo)
    os.mkfifo(fifo)
    done = arena("publish", str(db), "--out", str(tmp_path / "site"), timeout=60)
    assert done.returncode == 0 and "(1 with replays)" in done.stdout + done.stderr, done
    other = tmp_path / "other.json.gz"
    os.mkfifo(other)
    one_error_line(arena("replay", str(other), "--turn", "1", timeout=30),
                   f"{other}: not a replay file")


def test_a_row_naming_another_file_as_its_replay_is_not_read(stored, tmp_path) -> None:
    """Before: `arena replay DB:ID` opened whatever file the row's replay column named (a
    secret, another match's replay) as this match's replay."""
    db, _, match_id = stored
    secret = tmp_path / "secret.json.gz"
    secret.write_text("the opener's secret")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE matches SET replay = ?", (str(secret),))
    done = arena("replay", f"{db}:{match_id}", "--turn", "1", forked=True)
    assert done.returncode == 0, done.stderr
    assert "secret" not in done.stderr and "from its record" in done.stderr, done.stderr


def test_a_forged_run_shows_as_text_in_the_runs_table(stored) -> None:
    """Before: a run's kind and game went to the table as rich markup: `[/bold]` ended in a
    MarkupError traceback, `[bold]...` was styled away, an escape reached the terminal."""
    db, _, _ = stored
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET kind = '[/bold]batch', game = ?", ("toy\x1b[2J",))
    done = arena("results", str(db), forked=True)
    assert done.returncode == 0, done.stderr
    assert "[/bold]batch" in done.stdout and "toy\\x1b[2J" in done.stdout, done.stdout
    assert "\x1b" not in done.stdout


FORGED_RUNS = {
    "arguments that are no JSON": ("args", "{", "its arguments must be a JSON object"),
    "arguments nested 100,000 deep": ("args", "[" * 100_000 + "]" * 100_000,
                                      "its arguments must be a JSON object"),
    "a time that is text": ("created", "yesterday", "its time must be a finite number"),
    "an id that is a blob": ("id", b"\x00\xff", "its id, kind and game must be short text"),
    "a planned count that is text": ("planned", "many", "its planned count must be"),
}


@pytest.mark.parametrize("label", FORGED_RUNS)
def test_a_forged_run_row_is_one_error_line(label, stored) -> None:
    """Before: each ended in a traceback (JSONDecodeError, RecursionError, TypeError) or
    showed the forged value as the run's."""
    db, _, _ = stored
    column, value, said = FORGED_RUNS[label]
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE runs SET {column} = ?", (value,))
    one_error_line(arena("results", str(db), forked=True),
                   f"{db}: a run in the results file is not one "
                   f"arena writes ({said}")


# -- map files: read bounded, sized from the rules --------------------------------------------
@pytest.mark.parametrize("game", ["arena", "robotgame", "cave", "race"])
def test_a_map_that_is_a_device_or_a_fifo_is_one_error_line(game, tmp_path) -> None:
    """Before: /dev/zero read until memory ran out (a MemoryError under the cap), a FIFO
    waited for a writer forever."""
    one_error_line(arena("maps", "validate", "--game", game, "/dev/zero", memory=2 * GIB,
                         timeout=60), "/dev/zero: cannot read", "not a regular file")
    fifo = tmp_path / "map.fifo"
    os.mkfifo(fifo)
    one_error_line(arena("maps", "validate", "--game", game, str(fifo), timeout=30, forked=True),
                   f"{fifo}: cannot read", "not a regular file")


def test_an_arena_map_of_one_long_line_is_one_error_line(tmp_path) -> None:
    """Before: the floor is side x side, so a 20 KB map of one line 20,000 tiles wide was a
    floor of 400 million tiles (3 GiB: a MemoryError under the cap)."""
    path = tmp_path / "line.txt"
    path.write_text(" " * 20_000 + "\n")
    one_error_line(arena("maps", "validate", str(path), memory=2 * GIB, timeout=60),
                   f"{path}: the map is 20000 tiles wide or high; at most 512")
    one_error_line(arena("maps", "generate", "--robots", "100000", memory=2 * GIB,
                         timeout=60), "need an arena of side 3814; at most 512")


FORGED_ROWS = {
    "a rank that is text": ("participants", "rank = 'x'", "].rank must be a whole"),
    "a CPU time of 'NaN'": ("participants", "cpu_s = 'NaN'",
                            "].cpu_s must be a finite number"),
    "stats that are no JSON": ("participants", "stats = '{'", "].stats must be"),
    "stats nested deep": ("participants", "stats = '" + "[" * 50_000 + "]" * 50_000 + "'",
                          "].stats must be"),
    "a score of 1e999": ("participants", "stats = '{\"score\": 1e999}'",
                         "].stats must be"),
    "a turn that is text": ("participants", "turn = 'x'", "].turn must be"),
    "a match length that is text": ("matches", "turns = 'many'", "turns must be a whole"),
}


@pytest.mark.parametrize("label", FORGED_ROWS)
@pytest.mark.parametrize("view", [["--matrix"], ["--games", "--bot", "marker"], ["--run"]])
def test_a_forged_match_row_is_one_error_line_in_every_view(label, view, stored) -> None:
    """Before: each was a traceback (TypeError of `+=` on text, JSONDecodeError,
    RecursionError, AttributeError of a list's .get) in the summary, matrix and games."""
    db, _, _ = stored
    table, change, said = FORGED_ROWS[label]
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE {table} SET {change} WHERE rowid = (SELECT MIN(rowid) FROM "
                     f"{table})")
        (run_id,) = conn.execute("SELECT id FROM runs").fetchone()
    args = view + [run_id] if view == ["--run"] else view
    one_error_line(arena("results", str(db), *args, forked=True),
                   f"{db}: the results file's match ",
                   "is not one arena writes (", said)


COMPARE_ARGS = {"bots": ["bots/marker.py", "bots/wanderer.py"],
                "test": [0, 5, 0.05, 0.05, "logistic"]}
FORGED_COMPARES = {
    "10^12 games planned": (COMPARE_ARGS, 10 ** 12),
    "an elo0 that is text": (dict(COMPARE_ARGS, test=["x", 5, 0.05, 0.05, "logistic"]), 2),
    "an alpha of 7": (dict(COMPARE_ARGS, test=[0, 5, 7, 0.05, "logistic"]), 2),
    "one bot": (dict(COMPARE_ARGS, bots=["bots/marker.py"]), 2),
    "no test": ({"bots": COMPARE_ARGS["bots"]}, 2),
}


@pytest.mark.parametrize("label", FORGED_COMPARES)
def test_a_forged_compare_run_is_one_error_line(label, stored) -> None:
    """Before: the planned count built a list of as many games (a MemoryError under the
    cap), the others were tracebacks (TypeError, ValueError of unpacking, KeyError)."""
    db, _, _ = stored
    args, planned = FORGED_COMPARES[label]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET kind = 'compare', args = ?, planned = ?",
                     (json.dumps(args), planned))
        (run_id,) = conn.execute("SELECT id FROM runs").fetchone()
    one_error_line(arena("results", str(db), "--run", run_id[:8], memory=2 * GIB,
                         timeout=60),
                   f"{db}: the compare run {run_id!r} is not one arena writes")


@pytest.mark.parametrize("files", ["{", json.dumps({"a": "not base64!"}),
                                   json.dumps({"big": "QUFB" * 2000})],
                         ids=["no JSON", "no base64", "6 KB of scratch"])
def test_a_forged_scratch_row_is_one_error_line_when_the_batch_resumes(files, stored) -> None:
    """Before: resuming a batch read each done match's scratch with json.loads, as it was:
    text that is no JSON was a JSONDecodeError traceback, and base64 that is no base64 or
    past a bot's scratch went on towards the next game."""
    db, _, match_id = stored
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO scratch VALUES (?, 0, ?)", (match_id, files))
    one_error_line(arena("batch", "--game", "toy", "bots/marker.py", "bots/wanderer.py",
                         "--map", "plain.txt", "--seeds", "2", "--max-turns", str(TURNS),
                         "--workers", "1", "--db", str(db), cwd=db.parent, forked=True),
                   f"{db}: the results file's scratch of match {match_id!r} is not one "
                   f"arena writes")


def test_a_robot_game_map_of_megabytes_is_refused_before_it_is_parsed(tmp_path) -> None:
    """Before: the whole text went to ast.literal_eval, some 400 bytes of memory a byte
    (3.5 MB of pairs: 10 s and 1.5 GiB) before its content was refused; a map of a 19x19
    board is a few KB."""
    path = tmp_path / "big.py"
    path.write_text('{"spawn": [' + ", ".join(["[1, 1]"] * 50_000) + '], "obstacle": []}')
    one_error_line(arena("maps", "validate", "--game", "robotgame", str(path), forked=True),
                   f"{path}: 400,027 characters; a map of a board of at most 19x19 squares "
                   "is at most 65,536")


def test_a_forged_match_id_shows_as_text_in_the_games_table(stored) -> None:
    """Before: the games table took the match id as rich markup: `[/b]` was a MarkupError
    traceback."""
    db, _, _ = stored
    with sqlite3.connect(db) as conn:
        for table, column in (("matches", "id"), ("participants", "match_id"),
                              ("run_matches", "match_id"), ("inputs", "match_id")):
            conn.execute(f"UPDATE {table} SET {column} = '[/b]forged\x1b[2J'")
    done = arena("results", str(db), "--games", "--bot", "marker", forked=True)
    assert done.returncode == 0, done.stderr
    assert "[/b]forged\\x1b" in done.stdout and "\x1b" not in done.stdout, done.stdout
